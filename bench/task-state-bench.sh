#!/usr/bin/env bash
# Off-CPU flame graph of `perf bench sched messaging`, five ways in one run:
#   base      unmonitored
#   perf-prof perf-prof task-state -g --flame-graph X.svg, system-wide (user and
#             kernel stacks: the ring path)
#   pp-bpf-ks perf-prof task-state -g --kernel-stack --flame-graph X.svg (the BPF
#             back end: kernel stacks kept and summed in the kernel)
#   perf      perf record -e sched:sched_switch -e sched:sched_wakeup -a -g, then
#             perf script | awk (pair switch-out stack with switch-in time) | flamegraph
#   bpftrace  an off-CPU bpftrace script (stacks kept at switch-out, summed at switch-in)
# For each: workload time and slowdown, the monitor's CPU time while recording,
# the time from stop to a finished SVG, and lost events.
# usage: bench/task-state-bench.sh [BUILD_DIR] [ROUNDS] [GROUPS] [LOOPS]
set -u
build=${1:-build}
rounds=${2:-3}
groups=${3:-10}
loops=${4:-300}
. "$(dirname "$0")/lib.sh"
bench_build "$build"
[ -x "$pp" ] || { echo "no $pp (make BUILD=...)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
tmp=$(mktemp -d /tmp/ts-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# The workload: ROUNDS runs; prints the summed "Total time" in seconds.
workload() {
	local i t=0 r
	for ((i = 0; i < rounds; i++)); do
		r=$(perf bench sched messaging -g "$groups" -l "$loops" 2>/dev/null |
			awk '/Total time/ { print $3 }')
		t=$(awk -v a="$t" -v b="${r:-0}" 'BEGIN { print a + b }')
	done
	echo "$t"
}

# start_monitor NAME COMMAND...: run under /usr/bin/time, remember the pid
start_monitor() {
	local name=$1
	shift
	/usr/bin/time -f "%U %S" -o "$tmp/$name.cpu" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	mon=$!
	sleep 2 # let it open and enable its events
}
# stop_monitor: SIGINT the monitor (the child of time), wait for it to finish
# (t0: when the signal was sent, the tool's pid found before)
stop_monitor() {
	local pid
	pid=$(tool_pid "$mon")
	t0=$(now)
	kill -INT "$pid" 2>/dev/null
	wait "$mon" 2>/dev/null
}
cpu_of() { tail -n 1 "$tmp/$1.cpu" 2>/dev/null | awk '{ printf "%.2f", $1 + $2 }'; }

printf "perf bench sched messaging -g %s -l %s, %s rounds, %s CPUs\n\n" "$groups" "$loops" \
	"$rounds" "$(nproc)"
printf "%-10s %10s %9s %12s %14s %10s %8s\n" way workload slowdown "monitor CPU" "stop->SVG" \
	lost "SVG KB"

base=$(workload)
printf "%-10s %9ss %9s %12s %14s %10s %8s\n" base "$base" "1.00x" - - - -

report() { # name workload_secs stop_secs lost svg
	local kb=-
	[ -s "$5" ] && kb=$(($(stat -c %s "$5") / 1024))
	printf "%-10s %9ss %8sx %11ss %13ss %10s %8s\n" "$1" "$2" \
		"$(awk -v a="$2" -v b="$base" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print 0 }')" \
		"$(cpu_of "$1")" "$3" "$4" "$kb"
}

# perf-prof
start_monitor perf-prof "$pp" task-state -v -g --flame-graph "$tmp/pp.svg" ${PP_PAGES:+-m "$PP_PAGES"}
w=$(workload)
stop_monitor
t1=$(now)
lost=$(grep -oiE 'lost [0-9]+' "$tmp/perf-prof.out" "$tmp/perf-prof.err" | awk '{ s += $2 } END { print s + 0 }')
drop=$(grep -oE '[0-9]+ (pending )?intervals dropped' "$tmp/perf-prof.out" | awk '{ s += $1 } END { print s + 0 }')
report perf-prof "$w" "$(sub "$t0" "$t1")" "$lost" "$tmp/pp.svg"
rec=$(grep -oE '[0-9]+ switch-ins taken from context-switch records' "$tmp/perf-prof.out" |
	awk '{ s += $1 } END { print s + 0 }')
echo "           (intervals dropped by perf-prof, unpaired or after losses: $drop;"
echo "            closed by a context-switch record, sched_switch not delivered: $rec)"

# perf-prof, kernel stacks on the BPF back end
start_monitor pp-bpf-ks "$pp" task-state -v -g --kernel-stack --flame-graph "$tmp/ppk.svg"
w=$(workload)
stop_monitor
t1=$(now)
lost=$(grep -oiE 'lost [0-9]+' "$tmp/pp-bpf-ks.out" "$tmp/pp-bpf-ks.err" | awk '{ s += $2 } END { print s + 0 }')
report pp-bpf-ks "$w" "$(sub "$t0" "$t1")" "$lost" "$tmp/ppk.svg"
grep -q "the BPF back end" "$tmp/pp-bpf-ks.err" ||
	echo "           (not on BPF: $(grep -m1 'ring path' "$tmp/pp-bpf-ks.err"))"

# perf record + perf script + fold
if command -v perf >/dev/null; then
	start_monitor perf perf record -a -g -e sched:sched_switch -e sched:sched_wakeup \
		-o "$tmp/perf.data"
	w=$(workload)
	stop_monitor
	perf script -i "$tmp/perf.data" -F comm,tid,time,event,trace,ip,sym 2>/dev/null | awk '
	function flush() {
		if (ev == "switch") {
			if (out[next_pid] != "") {
				w[out[next_pid]] += int((t - tout[next_pid]) * 1e6)
				out[next_pid] = ""
			}
			if (prev_pid != 0 && state != "Z" && state != "X")
			{
				out[prev_pid] = prev_comm ";" stack ";" state
				tout[prev_pid] = t
			}
		}
		ev = ""; stack = ""
	}
	/sched:sched_switch:/ {
		flush(); ev = "switch"
		for (i = 1; i <= NF; i++) {
			if ($i ~ /:$/ && $i ~ /^[0-9.]+:$/) t = substr($i, 1, length($i) - 1) + 0
			if ($i ~ /^prev_comm=/) prev_comm = substr($i, 11)
			if ($i ~ /^prev_pid=/) prev_pid = substr($i, 10)
			if ($i ~ /^prev_state=/) { state = substr($i, 12); sub(/\+$/, "", state) }
			if ($i ~ /^next_pid=/) next_pid = substr($i, 10)
		}
		next
	}
	/sched:sched_wakeup:/ { flush(); next }
	/^$/ { flush(); next }
	ev == "switch" && NF >= 2 { stack = stack == "" ? $2 : $2 ";" stack }
	END { flush(); for (k in w) if (w[k] > 0) print k, w[k] }' >"$tmp/perf.folded"
	"$pp" flamegraph --title "Off-CPU Time Flame Graph" --count-name us "$tmp/perf.folded" \
		-o "$tmp/perf.svg" >/dev/null 2>&1
	t1=$(now)
	lost=$(grep -oiE 'lost [0-9]+' "$tmp/perf.err" | awk '{ s += $2 } END { print s + 0 }')
	report perf "$w" "$(sub "$t0" "$t1")" "$lost" "$tmp/perf.svg"
	echo "           (perf.data: $(($(stat -c %s "$tmp/perf.data") / 1048576)) MB)"
else
	echo "perf       not installed"
fi

# bpftrace
if command -v bpftrace >/dev/null; then
	cat >"$tmp/offcpu.bt" <<'BT'
tracepoint:sched:sched_switch
{
	if (args->prev_pid != 0) {
		@start[args->prev_pid] = nsecs;
		@ks[args->prev_pid] = kstack;
		@us[args->prev_pid] = ustack;
	}
	$s = @start[args->next_pid];
	if ($s != 0) {
		@off[args->next_comm, @us[args->next_pid], @ks[args->next_pid]] =
			sum((nsecs - $s) / 1000);
		delete(@start[args->next_pid]);
	}
}
END { clear(@start); clear(@ks); clear(@us); }
BT
	start_monitor bpftrace bpftrace "$tmp/offcpu.bt"
	w=$(workload)
	stop_monitor
	# "@off[comm, \n ustack \n, \n kstack \n]: N" -> comm;user...;kernel... N
	awk '
	/^@off\[/ { comm = substr($0, 6); sub(/,.*/, "", comm); n = 0; delete f; next }
	/^\]: / { s = comm; for (i = n; i >= 1; i--) s = s ";" f[i]; print s, $2; next }
	/^ +[^ ]/ { x = $1; sub(/\+[0-9]+$/, "", x); f[++n] = x }' "$tmp/bpftrace.out" \
		>"$tmp/bt.folded"
	"$pp" flamegraph --title "Off-CPU Time Flame Graph" --count-name us "$tmp/bt.folded" \
		-o "$tmp/bt.svg" >/dev/null 2>&1
	t1=$(now)
	lost=$(grep -oiE 'lost [0-9]+' "$tmp/bpftrace.err" | awk '{ s += $2 } END { print s + 0 }')
	report bpftrace "$w" "$(sub "$t0" "$t1")" "$lost" "$tmp/bt.svg"
else
	echo "bpftrace   not installed"
fi

# --- The BPF back end against the ring path and bpftrace, on a context-switch-bound workload ---
# perf bench sched pipe pinned to CPU 1 (two tasks, a switch per message), the
# monitors on CPU 0, ROUNDS interleaved rounds, medians.  Ways:
#   pp-ring     task-state --no-bpf (every switch crosses the ring buffer)
#   pp-bpf      task-state (BPF: paired and timed in the kernel)
#   bt-offcpu   bpftrace: the same table (per state, a histogram) in the kernel
#   pp-ring-ks  task-state --no-bpf -g --kernel-stack --flame-graph (kernel stacks)
#   pp-bpf-ks   task-state -g --kernel-stack --flame-graph (BPF: stacks in the kernel)
#   bt-kstack   bpftrace's off-CPU kstack script (kstack per switch-out, summed)
# For each: workload time, slowdown, the monitor's CPU time, the time from its
# SIGINT to its result (perf-prof's table, bpftrace's maps: polled every 5 ms)
# and to its exit (a peer that ignores the first SIGINT gets another after
# 10 s, and the column says so with a '+').
pipe_loops=${PIPE_LOOPS:-200000}
pipe() {
	taskset -c 1 perf bench sched pipe -l "$pipe_loops" 2>/dev/null |
		awk '/Total time/ { print $3 }'
}
cat >"$tmp/offcpu-nostack.bt" <<'BT'
tracepoint:sched:sched_switch
{
	if (args->prev_pid != 0) {
		@start[args->prev_pid] = nsecs;
		@state[args->prev_pid] = args->prev_state;
	}
	$s = @start[args->next_pid];
	if ($s != 0) {
		@off[@state[args->next_pid]] = hist(nsecs - $s);
		delete(@start[args->next_pid]);
	}
}
END { clear(@start); clear(@state); }
BT
cat >"$tmp/kstack.bt" <<'BT'
tracepoint:sched:sched_switch
{
	if (args->prev_pid != 0) {
		@start[args->prev_pid] = nsecs;
		@ks[args->prev_pid] = kstack;
	}
	$s = @start[args->next_pid];
	if ($s != 0) {
		@off[args->next_comm, @ks[args->next_pid]] = sum((nsecs - $s) / 1000);
		delete(@start[args->next_pid]);
	}
}
END { clear(@start); clear(@ks); }
BT
# pipe_way NAME [COMMAND...]: one round; prints "WORKLOAD_S CPU_S RESULT_S EXIT_S"
pipe_way() {
	local name=$1 w t0 t1 pid tr="" again=""
	shift
	if [ $# -eq 0 ]; then
		echo "$(pipe) 0 0 0"
		return
	fi
	/usr/bin/time -f "%U %S" -o "$tmp/$name.cpu" taskset -c 0 "$@" >"$tmp/$name.out" \
		2>"$tmp/$name.err" &
	mon=$!
	for _ in $(seq 50); do
		grep -q "monitoring:\|Attaching" "$tmp/$name.err" "$tmp/$name.out" 2>/dev/null && break
		sleep 0.1
	done
	sleep 1
	w=$(pipe)
	pid=$(tool_pid "$mon")
	t0=$(now)
	kill -INT "$pid" 2>/dev/null
	for _ in $(seq 2000); do
		[ -z "$tr" ] && grep -q '^STATE\|^@' "$tmp/$name.out" 2>/dev/null && tr=$(now)
		kill -0 "$mon" 2>/dev/null || break
		sleep 0.005
	done
	if kill -0 "$mon" 2>/dev/null; then
		again=+
		kill -INT "$pid" 2>/dev/null
	fi
	wait "$mon" 2>/dev/null
	t1=$(now)
	[ -z "$tr" ] && grep -q '^STATE\|^@' "$tmp/$name.out" 2>/dev/null && tr=$t1
	echo "$w $(cpu_of "$name") $(awk -v a="$t0" -v b="${tr:-$t1}" 'BEGIN { printf "%.3f", b - a }') $(sub "$t0" "$t1")$again"
}
echo
printf "perf bench sched pipe -l %s on CPU 1, monitors on CPU 0, %s rounds (medians)\n\n" \
	"$pipe_loops" "$rounds"
pways="base pp-ring pp-bpf pp-ring-ks pp-bpf-ks"
command -v bpftrace >/dev/null && pways="$pways bt-offcpu bt-kstack"
for ((r = 1; r <= rounds; r++)); do
	for w in $pways; do
		case $w in
		base) res=$(pipe_way base) ;;
		pp-ring) res=$(pipe_way "$w" "$pp" task-state -v --no-bpf) ;;
		pp-bpf) res=$(pipe_way "$w" "$pp" task-state -v --bpf) ;;
		pp-ring-ks) res=$(pipe_way "$w" "$pp" task-state -v --no-bpf -g --kernel-stack \
			--flame-graph "$tmp/ring-ks.svg") ;;
		pp-bpf-ks) res=$(pipe_way "$w" "$pp" task-state -v --bpf -g --kernel-stack \
			--flame-graph "$tmp/bpf-ks.svg") ;;
		bt-offcpu) res=$(pipe_way "$w" bpftrace "$tmp/offcpu-nostack.bt") ;;
		bt-kstack) res=$(pipe_way "$w" bpftrace "$tmp/kstack.bt") ;;
		esac
		echo "$res" >>"$tmp/pres.$w"
		echo "  round $r $w: $res  (workload s, monitor CPU s, stop->result s, stop->exit s)"
	done
done
pbase=$(cut -d' ' -f1 "$tmp/pres.base" | median)
printf "\n%-12s %10s %9s %12s %13s %12s\n" way workload slowdown "monitor CPU" "stop->result" \
	"stop->exit"
printf "%-12s %9ss %9s %12s %13s %12s\n" base "$pbase" "1.00x" - - -
for w in $pways; do
	[ "$w" = base ] && continue
	ws=$(cut -d' ' -f1 "$tmp/pres.$w" | median)
	cpu=$(cut -d' ' -f2 "$tmp/pres.$w" | median)
	res=$(cut -d' ' -f3 "$tmp/pres.$w" | median)
	stop=$(cut -d' ' -f4 "$tmp/pres.$w" | tr -d + | median)
	grep -q '+' "$tmp/pres.$w" && stop="$stop+"
	sd=$(awk -v a="$ws" -v b="$pbase" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print 0 }')
	printf "%-12s %9ss %8sx %11ss %12ss %11ss\n" "$w" "$ws" "$sd" "$cpu" "$res" "$stop"
	echo "$w $sd $res $stop" >>"$tmp/pslow"
done
sd() { awk -v w="$1" '$1 == w { print $2 }' "$tmp/pslow"; }
echo
# the back end each perf-prof way ran on, as its -v said
for w in pp-bpf pp-bpf-ks; do
	grep -q "the BPF back end" "$tmp/$w.err" || echo "note: $w did not run on BPF: $(grep -m1 'ring path' "$tmp/$w.err")"
done
target() { # text a b: met when a <= b (slowdowns)
	awk -v t="$1" -v a="$2" -v b="$3" 'BEGIN { printf "target: %s: %s (%.2fx vs %.2fx)\n", t, (a <= b) ? "met" : "MISSED", a, b }'
}
if command -v bpftrace >/dev/null; then
	target "task-state -g --kernel-stack (BPF) no slower than bpftrace's off-CPU kstack script" \
		"$(sd pp-bpf-ks)" "$(sd bt-kstack)"
	target "task-state without stacks (BPF) below bpftrace's off-CPU script" \
		"$(sd pp-bpf)" "$(sd bt-offcpu)"
fi
target "task-state without stacks (BPF) no slower than the ring path (--no-bpf)" "$(sd pp-bpf)" "$(sd pp-ring)"
for w in pp-bpf pp-bpf-ks; do
	awk -v w="$w" -v s="$(awk -v w="$w" '$1 == w { print $3 }' "$tmp/pslow")" 'BEGIN { printf "target: task-state (%s) result at the stop in under 50 ms: %s (%.0f ms)\n", w, (s < 0.05) ? "met" : "MISSED", s * 1000 }'
done
