#!/usr/bin/env bash
# profile and stat against their peers, same workloads, one run (issue 12).
#
# Sampling, 999 Hz per CPU, kernel + user stacks, system-wide, tools on CPU 0:
#   perf-prof  profile -F 999 -g --flame-graph X.svg (the SVG drawn by perf-prof at exit)
#   perf       perf record -e cpu-clock -F 999 -g -a, then perf script | awk fold (the
#              folded file; no SVG: flamegraph.pl is not installed here)
#   bpftrace   profile:hz:999 { @[kstack, ustack] = count(); } (its map, printed at exit)
# A session per tool: the tool starts; getppid_loop N runs on CPU 1 (timed: the
# workload's slowdown against the unmonitored run; kernel and user stacks to walk in
# every sample); then tests/work/spin runs on CPU 1 (spin_a 3 ms, spin_b 1 ms by the
# clock: 75% / 25% of its samples) for SECONDS, and the tool is stopped with SIGINT
# while it still runs (bpftrace resolves user symbols of live processes only).
# Reported: the workload's slowdown, the tool's CPU time (user + sys of its processes,
# perf script and the fold included; the kernel's work in the sampling interrupt is the
# workload's), the time from SIGINT to the flame graph / folded file / map being
# complete, and spin_a's and spin_b's share of the samples that hold either, by each tool.
#
# Counting: perf-prof stat -i 1000 against perf stat -I 1000 -a, events
# cpu-clock,context-switches,page-faults, around perf bench sched pipe -l PIPE_LOOPS on
# CPU 1: workload slowdown and tool CPU (skipped while perf-prof has no stat).
#
# The median of ROUNDS interleaved rounds; a final table of perf-prof/peer ratios.
# usage: bench/profile-bench.sh [BUILD_DIR] [SECONDS] [ROUNDS]
#        env: GETPPID_N (default 30000000, ~5 s here), PIPE_LOOPS (default 1000000, ~5 s),
#        BENCH_RT=1 (tools and timed workloads at SCHED_FIFO 10: for a host busy with other
#        work), BT_KEYS (bpftrace's BPFTRACE_MAP_KEYS_MAX, default 65536)
set -u
build=${1:-build}
dur=${2:-5}
rounds=${3:-3}
gn=${GETPPID_N:-30000000}
pipe_loops=${PIPE_LOOPS:-1000000}
# bpftrace's stack maps hold this many stacks (its default, 4096, loses the spinner's
# stacks to hash collisions when the host runs other work: its manual says to raise it
# for sampled stacks)
bt_keys=${BT_KEYS:-65536}
# BENCH_RT=1: the tools (post-processing included) and the timed workloads at SCHED_FIFO 10,
# to take other work on the host out of the figures (not the spinner: a real-time task
# hogging CPU 1 starves kernel work perf record waits for at its exit)
rt=()
[ "${BENCH_RT:-0}" = 1 ] && rt=(chrt -f 10)
. "$(dirname "$0")/lib.sh"
bench_build "$build"
gl=$build/work/getppid_loop
spin=$build/work/spin
[ -x "$pp" ] && [ -x "$gl" ] && [ -x "$spin" ] || { echo "no $pp or workloads (make; make workloads)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs"; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)"; exit 1; }
peers=()
if command -v perf >/dev/null; then peers+=(perf); else echo "perf not installed: its rows are skipped"; fi
if command -v bpftrace >/dev/null; then peers+=(bpftrace); else echo "bpftrace not installed: its rows are skipped"; fi
have_stat=1
"$pp" stat -h >/dev/null 2>&1 || have_stat=0

tmp=$(mktemp -d /tmp/profile-bench.XXXXXX)
# Every tool and spinner is started with setsid: its process group is its pid,
# listed in $tmp/pgids, and killed here whatever way the script ends.
cleanup() {
	local g
	trap - EXIT INT TERM
	for g in $(cat "$tmp/pgids" 2>/dev/null); do kill -KILL -- "-$g" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'echo " interrupted"; exit 130' INT TERM

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)]; else print "-" }'; }
# CPU 0's busy and total ticks: during the unmonitored runs nothing of ours runs there,
# so its busy share is other work on the host (the tools compete with it)
cpu0_ticks() { awk '$1 == "cpu0" { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat; }
# events the tool said it lost ("lost N events", perf's "lost N chunks")
lost_of() { grep -ohiE 'lost [0-9]+' "$@" 2>/dev/null | awk '{ s += $2 } END { print s + 0 }'; }
cpu_of() { tail -n 1 "$1" 2>/dev/null | awk '{ printf "%.3f", $1 + $2 }'; }

# perf script (default format) -> folded, root first: comm;frames...;kernel_frame_[k] N.
# A sample is a header line (comm, pid, [cpu], time, period, event) and its frames,
# innermost first, "<TAB>ADDR SYM+OFF (DSO)", ended by an empty line.
cat >"$tmp/fold.awk" <<'AWK'
function emit(   s, i) {
	if (have) {
		s = comm
		for (i = nf; i >= 1; i--) s = s ";" fr[i]
		n[s]++
	}
	have = 0; nf = 0
}
/^$/ { emit(); next }
/^\t/ {
	if (!have) next
	line = $0; sub(/^[ \t]+[0-9a-f]+ /, "", line)
	dso = ""
	if (match(line, / \([^()]*\)$/)) { dso = substr(line, RSTART + 2, RLENGTH - 3); line = substr(line, 1, RSTART - 1) }
	sub(/\+0x[0-9a-f]+$/, "", line); gsub(/;/, ":", line)
	if (dso == "[kernel.kallsyms]") line = line "_[k]"
	fr[++nf] = line
	next
}
{
	emit()
	if (match($0, / +[0-9]+(\/[0-9]+)? +\[[0-9]+\] /)) {
		comm = substr($0, 1, RSTART - 1); sub(/^ +/, "", comm); gsub(/;/, "_", comm); have = 1
	}
}
END { emit(); for (s in n) print s, n[s] }
AWK

# shares FORMAT FILE: "SAMPLES A% B%": samples holding spin_a or spin_b, and each one's share
shares() {
	case $1 in
	svg) # perf-prof's SVG: one <title>NAME (N samples, P%)</title> per frame
		grep -o '<title>spin_[ab] ([0-9,]* samples' "$2" | tr -d , |
			awk '{ c[substr($1, 8)] += substr($2, 2) } END { print c["spin_a"] + 0, c["spin_b"] + 0 }' ;;
	folded) # STACK N
		awk '{ st = $0; sub(/ [0-9]+$/, "", st) }
			st ~ /(^|;)spin_a(;|$)/ { a += $NF } st ~ /(^|;)spin_b(;|$)/ { b += $NF }
			END { print a + 0, b + 0 }' "$2" ;;
	bpftrace) # @[\n kstack frames\n, \n ustack frames\n]: N
		awk '/^@\[/ { fa = fb = 0 } /^ *spin_a\+/ { fa = 1 } /^ *spin_b\+/ { fb = 1 }
			/^\]: [0-9]+$/ { if (fa) a += $2; if (fb) b += $2 }
			END { print a + 0, b + 0 }' "$2" ;;
	esac | awk '{ t = $1 + $2; if (t) printf "%d %.1f %.1f\n", t, 100 * $1 / t, 100 * $2 / t; else print "0 - -" }'
}

# start NAME CMD...: CMD on CPU 0 under /usr/bin/time, its own process group; waits until
# it has its events open (its "ready" line, or perf's output file) and a second more;
# fails if the tool is gone by then
start() {
	local name=$1 pg
	shift
	rm -f "$tmp/$name".*
	setsid /usr/bin/time -f "%U %S" -o "$tmp/$name.cpu" "${rt[@]}" taskset -c 0 "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" &
	pg=$!
	echo "$pg" >>"$tmp/pgids"
	echo "$pg" >"$tmp/$name.pg"
	for _ in $(seq 100); do
		grep -qs "monitoring:\|Attaching\|counts" "$tmp/$name.err" "$tmp/$name.out" && break
		[ -s "$tmp/$name.data" ] && break
		kill -0 "$pg" 2>/dev/null || break
		sleep 0.1
	done
	sleep 1
	kill -0 "$pg" 2>/dev/null
}
# stop NAME: SIGINT to the tool (GNU time ignores it while it waits), wait for its exit;
# a watchdog (its own group, killed after) kills a tool still there after 60 s
stop() {
	local pg wd
	pg=$(cat "$tmp/$1.pg")
	setsid bash -c "sleep 60; kill -KILL -- -$pg" 2>/dev/null &
	wd=$!
	echo "$wd" >>"$tmp/pgids"
	pkill -INT -P "$pg" 2>/dev/null
	wait "$pg" 2>/dev/null
	kill -KILL -- "-$wd" 2>/dev/null
	wait "$wd" 2>/dev/null
}

# one profile session: prints "WORKLOAD_S TOOL_CPU STOP_S SAMPLES A% B% LOST"
prof_round() {
	local name=$1 w t0 sp cpu sr sh='' b0
	shift
	if [ "$name" != base ] && ! start "$name" "$@"; then
		echo "fail: $name exited at the start: $(tail -n 2 "$tmp/$name.err" | tr '\n' ' ')"
		return
	fi
	b0=$(cpu0_ticks)
	t0=$(now)
	"${rt[@]}" taskset -c 1 "$gl" "$gn" >/dev/null
	w=$(since "$t0")
	if [ "$name" = base ]; then
		echo "$b0 $(cpu0_ticks)" | awk '{ if ($4 > $2) printf "%.3f\n", ($3 - $1) / ($4 - $2) }' >>"$tmp/busy0"
		echo "$w 0 - - - - -"
		return
	fi
	setsid "$spin" -c 1 $((dur + 120)) >/dev/null &
	sp=$!
	echo "$sp" >>"$tmp/pgids"
	sleep "$dur"
	t0=$(now)
	stop "$name"
	cpu=$(cpu_of "$tmp/$name.cpu")
	case $name in
	perf-prof)
		sr=$(since "$t0")
		grep -q '</svg>' "$tmp/perf-prof.svg" 2>/dev/null ||
			sh="fail: perf-prof wrote no complete SVG: $(tail -n 2 "$tmp/$name.err" | tr '\n' ' ')"
		[ -n "$sh" ] || sh="$(shares svg "$tmp/perf-prof.svg") $(lost_of "$tmp/$name.err")" ;;
	perf)
		/usr/bin/time -f "%U %S" -o "$tmp/script.cpu" "${rt[@]}" taskset -c 0 bash -c "set -o pipefail
			perf script -i '$tmp/perf.data' 2>'$tmp/script.err' | awk -f '$tmp/fold.awk' >'$tmp/perf.folded'" 2>/dev/null ||
			sh="fail: perf script died ($(head -n 1 "$tmp/script.cpu")): $(tail -n 2 "$tmp/script.err" | tr '\n' ' ')"
		sr=$(since "$t0")
		cpu=$(awk -v a="$cpu" -v b="$(cpu_of "$tmp/script.cpu")" 'BEGIN { printf "%.3f", a + b }')
		[ -n "$sh" ] || [ -s "$tmp/perf.folded" ] || sh="fail: perf script | fold gave nothing: $(tail -n 2 "$tmp/$name.err" \
			"$tmp/script.err" | tr '\n' ' ')"
		[ -n "$sh" ] || sh="$(shares folded "$tmp/perf.folded") $(lost_of "$tmp/$name.err" "$tmp/script.err")" ;;
	bpftrace)
		sr=$(since "$t0")
		grep -q '^\]: ' "$tmp/$name.out" ||
			sh="fail: bpftrace printed no map: $(tail -n 2 "$tmp/$name.err" | tr '\n' ' ')"
		[ -n "$sh" ] || sh="$(shares bpftrace "$tmp/$name.out") $(grep -c 'failed to look up stack id' "$tmp/$name.err")" ;;
	esac
	kill -KILL -- "-$sp" 2>/dev/null
	wait "$sp" 2>/dev/null
	case $sh in
	fail*) echo "$sh" ;;
	*) echo "$w $cpu $sr $sh" ;;
	esac
}

# context switches a stat run counted in all (perf-prof's total; perf stat -I's intervals summed)
cs_of() {
	case $1 in
	perf-prof) awk '/^stat: total/ { t = 1 } t && $2 == "context-switches" { gsub(/,/, "", $1); print $1 }' "$tmp/$1.out" ;;
	perf) awk '$3 == "context-switches" { gsub(/,/, "", $2); s += $2 } END { print s + 0 }' "$tmp/$1.err" ;;
	esac
}
# one stat session: prints "WORKLOAD_S TOOL_CPU STOP_S CONTEXT_SWITCHES"
stat_round() {
	local name=$1 w t0 sr
	shift
	if [ "$name" != base ] && ! start "$name" "$@"; then
		echo "fail: $name exited at the start: $(tail -n 2 "$tmp/$name.err" | tr '\n' ' ')"
		return
	fi
	t0=$(now)
	"${rt[@]}" taskset -c 1 perf bench sched pipe -l "$pipe_loops" >/dev/null 2>&1
	w=$(since "$t0")
	if [ "$name" = base ]; then
		echo "$w 0 - -"
		return
	fi
	sleep 0.3
	t0=$(now)
	stop "$name"
	sr=$(since "$t0")
	if grep -qi "context-switches" "$tmp/$name.out" "$tmp/$name.err"; then
		echo "$w $(cpu_of "$tmp/$name.cpu") $sr $(cs_of "$name")"
	else
		echo "fail: $name printed no context-switches count: $(tail -n 2 "$tmp/$name.err" | tr '\n' ' ')"
	fi
}

BT_PROF='profile:hz:999 { @[kstack, ustack] = count(); }'
EVENTS='cpu-clock,context-switches,page-faults'

echo "profile-bench: tools system-wide on CPU 0, workloads on CPU 1, $rounds rounds"
echo "profile: getppid_loop $gn timed, then spin for $dur s (spin_a 75% / spin_b 25%), 999 Hz cpu-clock"
echo "  (no PMU here: perf gets -e cpu-clock explicitly, perf-prof falls back to it, bpftrace's"
echo "   profile probe is cpu-clock; perf record -N -B: no build-ids, as perf 6.1 aborts in its"
echo "   build-id pass at exit here (util/build-id.c:1010) while some processes run, and nothing"
echo "   left in ~/.debug; bpftrace with BPFTRACE_MAP_KEYS_MAX=$bt_keys)"
for ((r = 1; r <= rounds; r++)); do
	for w in base perf-prof "${peers[@]}"; do
		for _ in 1 2; do # a failed run (the tool crashed, wrote nothing) is said, counted and run again once
			case $w in
			base) res=$(prof_round base) ;;
			perf-prof) res=$(prof_round perf-prof "$pp" profile -v -F 999 -g --flame-graph "$tmp/perf-prof.svg") ;;
			perf) res=$(prof_round perf perf record -N -B -e cpu-clock -F 999 -g -a -o "$tmp/perf.data") ;;
			bpftrace) res=$(BPFTRACE_MAP_KEYS_MAX=$bt_keys prof_round bpftrace bpftrace -e "$BT_PROF") ;;
			esac
			echo "  round $r $w: $res  (workload s, tool CPU s, stop->result s, spin samples, spin_a %, spin_b %, lost)"
			case $res in fail*) echo "$w" >>"$tmp/failed" ;; *) echo "$res" >>"$tmp/prof.$w"; break ;; esac
		done
	done
done
if [ "$have_stat" = 1 ]; then
	echo "stat: perf bench sched pipe -l $pipe_loops timed, events $EVENTS, read every 1000 ms"
	for ((r = 1; r <= rounds; r++)); do
		for w in base perf-prof perf; do
			[ "$w" = perf ] && ! command -v perf >/dev/null && continue
			case $w in
			base) res=$(stat_round base) ;;
			perf-prof) res=$(stat_round perf-prof "$pp" stat -v -i 1000 -e "$EVENTS") ;;
			perf) res=$(stat_round perf perf stat -I 1000 -a -e "$EVENTS") ;;
			esac
			echo "  round $r $w: $res  (workload s, tool CPU s, stop->result s, context switches)"
			case $res in fail*) echo "$w (stat)" >>"$tmp/failed" ;; *) echo "$res" >>"$tmp/stat.$w" ;; esac
		done
	done
fi

# col KIND WAY N: the median of column N over the rounds that ran
col() { if [ -s "$tmp/$1.$2" ]; then cut -d' ' -f"$3" "$tmp/$1.$2" | median; else echo -; fi; }
slow() { awk -v a="$(col "$1" "$2" 1)" -v b="$(col "$1" base 1)" 'BEGIN { if (a != "-" && b > 0) printf "%.3f", a / b; else print "-" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0 && a != "-") printf "%.2f", a / b; else print "-" }'; }

echo
echo "profile (getppid_loop $gn timed; spin_a/spin_b shares of spin's samples, median round)"
printf "%-10s %9s %9s %9s %13s %8s %7s %7s %6s\n" way workload slowdown "tool CPU" "stop->result" samples spin_a spin_b lost
printf "%-10s %8ss %8sx %9s %13s %8s %7s %7s %6s\n" base "$(col prof base 1)" 1.000 - - - - - -
for w in perf-prof "${peers[@]}"; do
	[ -s "$tmp/prof.$w" ] || { printf "%-10s no round ran\n" "$w"; continue; }
	a=$(col prof "$w" 5)
	printf "%-10s %8ss %8sx %8ss %12ss %8s %6s%% %6s%% %6s\n" "$w" "$(col prof "$w" 1)" "$(slow prof "$w")" \
		"$(col prof "$w" 2)" "$(col prof "$w" 3)" "$(col prof "$w" 4)" "$a" \
		"$(awk -v a="$a" 'BEGIN { if (a == "-") print "-"; else printf "%.1f", 100 - a }')" "$(col prof "$w" 7)"
done
echo "(samples: spin's samples holding spin_a or spin_b, ~999 per second of spin; spin_b = 100 - spin_a;"
echo " lost: events lost; for bpftrace, map keys whose stack it could not look up: stack-map collisions)"
echo "(perf-prof's stop->result includes drawing the SVG; perf's ends at the folded file)"
busy=$(median <"$tmp/busy0")
awk -v b="$busy" 'BEGIN { printf "background load on CPU 0 during the unmonitored runs: %.0f%%%s\n", b * 100,
	(b > 0.1) ? " (busy host: the tools compete for CPU 0, figures are noisy)" : "" }'
if [ "$have_stat" = 1 ]; then
	echo
	echo "stat (perf bench sched pipe -l $pipe_loops timed: 2 x $pipe_loops switches of its own; counts are system-wide)"
	printf "%-10s %9s %9s %9s %13s %17s\n" way workload slowdown "tool CPU" "stop->result" "context switches"
	printf "%-10s %8ss %8sx %9s %13s %17s\n" base "$(col stat base 1)" 1.000 - - -
	for w in perf-prof perf; do
		[ -s "$tmp/stat.$w" ] || { printf "%-10s no round ran\n" "$w"; continue; }
		printf "%-10s %8ss %8sx %8ss %12ss %17s\n" "$w" "$(col stat "$w" 1)" "$(slow stat "$w")" \
			"$(col stat "$w" 2)" "$(col stat "$w" 3)" "$(col stat "$w" 4)"
	done
else
	echo
	echo "stat: not built yet ('$pp stat -h' fails): skipped"
fi

if [ -s "$tmp/failed" ]; then
	echo
	echo "failed runs (said above, run again once): $(sort "$tmp/failed" | uniq -c |
		awk '{ n = $1; $1 = ""; s = s (NR > 1 ? ", " : "") n " x" $0 } END { print s }')"
fi
echo
echo "ratios perf-prof / peer (below 1: perf-prof better; slowdown ratio of the slowdowns)"
printf "%-28s %12s %12s\n" metric "/ perf" "/ bpftrace"
row() { # LABEL KIND COLUMN|slow
	local label=$1 kind=$2 c=$3 p v out=()
	for peer in perf bpftrace; do
		if [ ! -s "$tmp/$kind.$peer" ]; then out+=(-); continue; fi
		if [ "$c" = slow ]; then p=$(slow "$kind" perf-prof); v=$(slow "$kind" "$peer")
		else p=$(col "$kind" perf-prof "$c"); v=$(col "$kind" "$peer" "$c"); fi
		out+=("$(ratio "$p" "$v")")
	done
	printf "%-28s %12s %12s\n" "$label" "${out[@]}"
}
row "profile: slowdown" prof slow
row "profile: tool CPU" prof 2
row "profile: stop->result" prof 3
if [ "$have_stat" = 1 ] && [ -s "$tmp/stat.perf-prof" ]; then
	row "stat: slowdown" stat slow
	row "stat: tool CPU" stat 2
fi

echo
# target LABEL PP PEER: perf-prof's slowdown no worse than the peer's (2% for noise)
target() {
	awk -v l="$1" -v p="$2" -v q="$3" 'BEGIN {
		if (p == "-" || q == "-") { printf "target: %s: no figure\n", l; exit }
		printf "target: %s (2%% noise): %s (%.3fx vs %.3fx)\n", l, (p <= q * 1.02) ? "met" : "MISSED", p, q }'
}
sr=$(col prof perf-prof 3)
awk -v s="$sr" 'BEGIN { printf "target: flame graph at stop in under 0.3 s: %s (%s s)\n",
	(s != "-" && s + 0 < 0.3) ? "met" : "MISSED", s }'
for peer in "${peers[@]}"; do
	target "profile slows the workload no more than $peer" "$(slow prof perf-prof)" "$(slow prof "$peer")"
done
if [ "$have_stat" = 1 ] && command -v perf >/dev/null; then
	target "stat slows the workload no more than perf stat" "$(slow stat perf-prof)" "$(slow stat perf)"
fi
