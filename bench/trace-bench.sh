#!/usr/bin/env bash
# Issue 2 benchmark: every sched:sched_switch of a context-switch-heavy workload
# written to a file, three ways, in one run:
#   base       `perf bench sched pipe -l LOOPS` pinned to CPU 1, unmonitored
#   perf-prof  perf-prof trace -e sched:sched_switch -C 1 -o FILE      (pinned to CPU 0)
#   perf       perf record -e sched:sched_switch -C 1 -o - | perf script > FILE
#              (record and script both pinned to CPU 0, their CPU times summed)
# Both tasks of the pipe benchmark share CPU 1, so every round trip is two switches
# there; the tools run on CPU 0 and are started (events open and enabled) before
# the workload and stopped with SIGINT after it.  Each configuration runs ROUNDS
# times, interleaved; the table shows medians.
# usage: bench/trace-bench.sh [BUILD_DIR] [LOOPS] [ROUNDS]
#   BENCH_RT=1 runs both tools at SCHED_FIFO 10 and the workload at SCHED_FIFO 5,
#   to take other load on the two CPUs out of the comparison (both tools get the
#   same treatment).
#   PP_OPTS adds options to perf-prof's command line (PP_OPTS=--order: through the
#   time order, as perf script's output is).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
loops=${2:-200000}
rounds=${3:-5}
case $build in /*) ;; *) build=$top/$build ;; esac
pp=$build/perf-prof
[ "$build" = "$top/build" ] && pp=$top/perf-prof
[ -x "$pp" ] || { echo "no $pp (make BUILD=...)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
command -v perf >/dev/null || { echo "needs perf (apt-get install linux-perf)"; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs (workload on CPU 1, tools on CPU 0)"; exit 1; }
rt=()
wrt=()
[ "${BENCH_RT:-0}" = 1 ] && rt=(chrt -f 10) && wrt=(chrt -f 5)
tmp=$(mktemp -d /tmp/trace-bench.XXXXXX)
mons=()
cleanup() {
	local p
	for p in "${mons[@]}"; do kill -INT "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# The workload's own "Total time" in seconds.
workload() {
	"${wrt[@]}" taskset -c 1 perf bench sched pipe -l "$loops" 2>/dev/null | awk '/Total time/ { print $3 }'
}

# bash `times`, second line (children waited for): "0m0.507s 0m0.111s" -> 0.618
child_cpu() {
	sed -n 2p "$1" | awk '{
		s = 0
		for (i = 1; i <= 2; i++) { split($i, a, "m"); sub(/s$/, "", a[2]); s += a[1] * 60 + a[2] }
		printf "%.3f", s }'
}

# Wait until PID has a perf_event fd open (events open, enable follows right after
# in both tools), then a little longer; give up after 10 s.
wait_ready() {
	local pid=$1 i
	for ((i = 0; i < 100; i++)); do
		if ls -l "/proc/$pid/fd" 2>/dev/null | grep -q 'perf_event'; then
			sleep 0.3
			return 0
		fi
		sleep 0.1
	done
	echo "  ($pid never opened its events)" >&2
	return 1
}
wait_pidfile() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ -s "$1" ] && return 0
		sleep 0.05
	done
	return 1
}

# CPU 0 busy fraction while only the base workload runs (it is on CPU 1), i.e. load
# that competes with the tools.
cpu0_ticks() { awk '$1 == "cpu0" { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat; }

# Results: one line per round in $tmp/NAME.res: workload_s seen lost cpu_s
run_base() {
	local a b w
	a=$(cpu0_ticks)
	w=$(workload)
	b=$(cpu0_ticks)
	echo "$w" >>"$tmp/base.res"
	echo "$a $b" | awk '{ if ($4 > $2) printf "%.3f\n", ($3 - $1) / ($4 - $2) }' >>"$tmp/busy0"
}

run_pp() { # [idle]: no workload, 1 s: the fixed cost of starting and stopping
	local sub pid w seen lost cpu res=${1:-res}
	rm -f "$tmp/pp.pid" "$tmp/pp.txt" "$tmp/pp.times"
	(
		# shellcheck disable=SC2086 # PP_OPTS: words
		"${rt[@]}" taskset -c 0 "$pp" trace -e sched:sched_switch -C 1 ${PP_OPTS:-} \
			-o "$tmp/pp.txt" 2>"$tmp/pp.err" &
		echo $! >"$tmp/pp.pid"
		wait $!
		times >"$tmp/pp.times"
	) &
	sub=$!
	wait_pidfile "$tmp/pp.pid" || return 1
	pid=$(cat "$tmp/pp.pid")
	mons+=("$pid")
	wait_ready "$pid" || return 1
	if [ "$res" = idle ]; then sleep 1; w=0; else w=$(workload); fi
	sleep 0.1
	kill -INT "$pid"
	wait "$sub"
	seen=$(grep -c 'sched:sched_switch' "$tmp/pp.txt")
	lost=$(grep -oE 'lost [0-9]+ events' "$tmp/pp.err" | awk '{ s += $2 } END { print s + 0 }')
	cpu=$(child_cpu "$tmp/pp.times")
	echo "$w $seen $lost $cpu" >>"$tmp/pp.$res"
}

run_perf() { # [idle]: no workload, 1 s: the fixed cost of starting and stopping
	local sub pid w seen lost cpu res=${1:-res}
	rm -f "$tmp/rec.pid" "$tmp/perf.txt" "$tmp/perf.times" "$tmp/fifo"
	mkfifo "$tmp/fifo"
	(
		"${rt[@]}" taskset -c 0 perf record -e sched:sched_switch -C 1 -o - \
			>"$tmp/fifo" 2>"$tmp/rec.err" &
		echo $! >"$tmp/rec.pid"
		"${rt[@]}" taskset -c 0 perf script --show-lost-events -i - <"$tmp/fifo" \
			>"$tmp/perf.txt" 2>"$tmp/script.err"
		wait
		times >"$tmp/perf.times"
	) &
	sub=$!
	wait_pidfile "$tmp/rec.pid" || return 1
	pid=$(cat "$tmp/rec.pid")
	mons+=("$pid")
	wait_ready "$pid" || return 1
	if [ "$res" = idle ]; then sleep 1; w=0; else w=$(workload); fi
	sleep 0.1
	kill -INT "$pid"
	wait "$sub"
	seen=$(grep -c 'sched:sched_switch:' "$tmp/perf.txt")
	lost=$(grep -oE 'PERF_RECORD_LOST lost [0-9]+' "$tmp/perf.txt" |
		awk '{ s += $3 } END { print s + 0 }')
	cpu=$(child_cpu "$tmp/perf.times")
	echo "$w $seen $lost $cpu" >>"$tmp/perf.$res"
}

median() { # FILE COLUMN
	awk -v c="$2" '{ print $c }' "$1" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf "trace-bench: perf bench sched pipe -l %s on CPU 1 (~%s switches), tools on CPU 0, %s rounds%s\n" \
	"$loops" "$((2 * loops))" "$rounds" "${rt[*]:+, tools under ${rt[*]}, workload under ${wrt[*]}}${PP_OPTS:+, perf-prof ${PP_OPTS}}"
t_start=$(date +%s)
run_pp idle || { echo "perf-prof run failed: $(cat "$tmp/pp.err")"; exit 1; }
run_perf idle || { echo "perf run failed: $(cat "$tmp/rec.err")"; exit 1; }
for ((r = 1; r <= rounds; r++)); do
	run_base
	run_pp || { echo "perf-prof run failed: $(cat "$tmp/pp.err")"; exit 1; }
	run_perf || { echo "perf run failed: $(cat "$tmp/rec.err")"; exit 1; }
	printf "  round %d: base %ss, perf-prof %s, perf %s  (workload s, seen, lost, CPU s)\n" "$r" \
		"$(tail -n 1 "$tmp/base.res")" "$(tail -n 1 "$tmp/pp.res")" "$(tail -n 1 "$tmp/perf.res")"
done

base=$(median "$tmp/base.res" 1)
busy=$(median "$tmp/busy0" 1)
for t in pp perf; do
	eval "${t}_w=\$(median \"\$tmp/$t.res\" 1)"
	eval "${t}_seen=\$(median \"\$tmp/$t.res\" 2)"
	eval "${t}_lost=\$(median \"\$tmp/$t.res\" 3)"
	eval "${t}_cpu=\$(median \"\$tmp/$t.res\" 4)"
	# CPU per event from the per-round figures, then the median
	awk '{ if ($2 > 0) printf "%.0f\n", $4 * 1e9 / $2 }' "$tmp/$t.res" >"$tmp/$t.nspe"
	eval "${t}_nspe=\$(median \"\$tmp/$t.nspe\" 1)"
	# the same without the fixed cost of an idle run (startup, teardown)
	read -r _ iseen _ icpu <"$tmp/$t.idle"
	awk -v s="$iseen" -v c="$icpu" '{ if ($2 > s) printf "%.0f\n", ($4 - c) * 1e9 / ($2 - s) }' \
		"$tmp/$t.res" >"$tmp/$t.net"
	eval "${t}_net=\$(median \"\$tmp/$t.net\" 1)"
	eval "${t}_icpu=\$icpu"
done
# shellcheck disable=SC2154 # set by eval above
{
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
	slow() { awk -v a="$1" -v b="$base" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }
	echo
	printf "%-26s %12s %12s %14s\n" "median of $rounds" perf-prof perf "perf-prof/perf"
	printf "%-26s %12s %12s %14s\n" "events seen" "$pp_seen" "$perf_seen" "$(ratio "$pp_seen" "$perf_seen")"
	printf "%-26s %12s %12s %14s\n" "events lost" "$pp_lost" "$perf_lost" -
	printf "%-26s %12s %12s %14s\n" "tool CPU time (s)" "$pp_cpu" "$perf_cpu" "$(ratio "$pp_cpu" "$perf_cpu")"
	printf "%-26s %12s %12s %14s\n" "tool CPU per event (ns)" "$pp_nspe" "$perf_nspe" \
		"$(ratio "$pp_nspe" "$perf_nspe")"
	printf "%-26s %12s %12s %14s\n" "  idle run CPU (s)" "$pp_icpu" "$perf_icpu" "$(ratio "$pp_icpu" "$perf_icpu")"
	printf "%-26s %12s %12s %14s\n" "  CPU/event net of idle" "$pp_net" "$perf_net" "$(ratio "$pp_net" "$perf_net")"
	printf "%-26s %12s %12s %14s\n" "workload time (s)" "$pp_w" "$perf_w" "$(ratio "$pp_w" "$perf_w")"
	printf "%-26s %12s %12s %14s\n" "slowdown (base ${base}s)" "$(slow "$pp_w")x" "$(slow "$perf_w")x" -
	echo
	verdict() { if [ "$1" = 1 ]; then echo met; else echo MISSED; fi; }
	printf "target: CPU/event <= 0.5 x perf's:        %s\n" \
		"$(verdict "$(awk -v a="$pp_nspe" -v b="$perf_nspe" 'BEGIN { print (a <= 0.5 * b) }')")"
	printf "target: slowdown <= perf record's:        %s\n" \
		"$(verdict "$(awk -v a="$pp_w" -v b="$perf_w" 'BEGIN { print (a <= b * 1.02) }')") (2% noise allowed)"
	printf "target: no lost events (default buffers): %s\n" "$(verdict "$([ "$pp_lost" = 0 ] && echo 1)")"
	printf "background load on CPU 0 during base runs: %.0f%%%s\n" "$(awk -v b="$busy" 'BEGIN { print b * 100 }')" \
		"$(awk -v b="$busy" 'BEGIN { if (b > 0.1) print " (busy host: tools compete for CPU 0, figures are noisy; try BENCH_RT=1)" }')"
	echo "total $(($(date +%s) - t_start)) s"
}
exit 0
