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
#   BENCH_PP2=PATH runs a second perf-prof binary (another build, e.g. a base commit)
#   the same way in every round, next to the first (which of the two runs first
#   alternates): its column is "pp2", with the ratio of the first's figures to its
#   own.  BENCH_NO_PERF=1 leaves
#   perf out (the targets against it are then not reported).
set -u
build=${1:-build}
loops=${2:-200000}
rounds=${3:-5}
. "$(dirname "$0")/lib.sh"
bench_build "$build"
[ -x "$pp" ] || { echo "no $pp (make BUILD=...)"; exit 1; }
pp2=${BENCH_PP2:-}
[ -z "$pp2" ] || [ -x "$pp2" ] || { echo "no $pp2 (BENCH_PP2)"; exit 1; }
no_perf=${BENCH_NO_PERF:-0}
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
command -v perf >/dev/null || { echo "needs perf (apt-get install linux-perf: the workload is perf bench)"; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs (workload on CPU 1, tools on CPU 0)"; exit 1; }
rt=()
wrt=()
[ "${BENCH_RT:-0}" = 1 ] && rt=(chrt -f 10) && wrt=(chrt -f 5)
bench_tmp trace-bench

# The workload's own "Total time" in seconds.
workload() {
	"${wrt[@]}" taskset -c 1 perf bench sched pipe -l "$loops" 2>/dev/null | awk '/Total time/ { print $3 }'
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

run_pp() { # NAME BINARY [idle]: no workload, 1 s: the fixed cost of starting and stopping
	local sub pid w seen lost cpu name=$1 bin=$2 res=${3:-res}
	rm -f "$tmp/pp.pid" "$tmp/pp.txt" "$tmp/pp.times"
	(
		# shellcheck disable=SC2086 # PP_OPTS: words
		"${rt[@]}" taskset -c 0 "$bin" trace -e sched:sched_switch -C 1 ${PP_OPTS:-} \
			-o "$tmp/pp.txt" 2>"$tmp/pp.err" &
		echo $! >"$tmp/pp.pid"
		wait $!
		times >"$tmp/pp.times"
	) &
	sub=$!
	wait_file "$tmp/pp.pid" || return 1
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
	echo "$w $seen $lost $cpu" >>"$tmp/$name.$res"
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
	wait_file "$tmp/rec.pid" || return 1
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

tools=(pp)
[ -n "$pp2" ] && tools+=(pp2)
[ "$no_perf" = 1 ] || tools+=(perf)
label() { case $1 in pp) echo perf-prof ;; pp2) echo pp2 ;; perf) echo perf ;; esac; }
printf "trace-bench: perf bench sched pipe -l %s on CPU 1 (~%s switches), tools on CPU 0, %s rounds%s\n" \
	"$loops" "$((2 * loops))" "$rounds" "${rt[*]:+, tools under ${rt[*]}, workload under ${wrt[*]}}${PP_OPTS:+, perf-prof ${PP_OPTS}}"
echo "  perf-prof: $pp${pp2:+; pp2: $pp2}"
t_start=$(date +%s)
run_tool() { # TOOL [idle]
	case $1 in
	pp) run_pp pp "$pp" "${2:-}" || { echo "perf-prof run failed: $(cat "$tmp/pp.err")"; exit 1; } ;;
	pp2) run_pp pp2 "$pp2" "${2:-}" || { echo "pp2 run failed: $(cat "$tmp/pp.err")"; exit 1; } ;;
	perf) run_perf "${2:-}" || { echo "perf run failed: $(cat "$tmp/rec.err")"; exit 1; } ;;
	esac
}
for t in "${tools[@]}"; do run_tool "$t" idle; done
for ((r = 1; r <= rounds; r++)); do
	run_base
	line=""
	order=("${tools[@]}")
	# two perf-prof binaries: which runs first alternates from round to round
	[ -n "$pp2" ] && ((r % 2 == 0)) && order=(pp2 pp "${tools[@]:2}")
	for t in "${order[@]}"; do run_tool "$t"; done
	for t in "${tools[@]}"; do line+=", $(label "$t") $(tail -n 1 "$tmp/$t.res")"; done
	printf "  round %d: base %ss%s  (workload s, seen, lost, CPU s)\n" "$r" \
		"$(tail -n 1 "$tmp/base.res")" "$line"
done

base=$(median "$tmp/base.res" 1)
busy=$(median "$tmp/busy0" 1)
for t in "${tools[@]}"; do
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
	eval "${t}_all=\$(paste -sd/ \"\$tmp/$t.nspe\")"
done
# shellcheck disable=SC2154 # set by eval above
{
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
	slow() { awk -v a="$1" -v b="$base" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }
	# a row: TITLE VAR [ratio]: the tools' values of VAR, then perf-prof / each other tool
	row() {
		local title=$1 var=$2 how=${3:-ratio} t v line head
		line=$(printf "%-26s" "$title")
		for t in "${tools[@]}"; do
			eval "v=\${${t}_${var}}"
			[ "$how" = slow ] && v="$(slow "$v")x"
			line+=$(printf " %12s" "$v")
		done
		for t in "${tools[@]:1}"; do
			eval "v=\${${t}_${var}}"
			if [ "$how" = ratio ]; then
				line+=$(printf " %14s" "$(ratio "$(eval "echo \$pp_${var}")" "$v")")
			else
				line+=$(printf " %14s" -)
			fi
		done
		echo "$line"
	}
	echo
	head=$(printf "%-26s" "median of $rounds")
	for t in "${tools[@]}"; do head+=$(printf " %12s" "$(label "$t")"); done
	for t in "${tools[@]:1}"; do head+=$(printf " %14s" "perf-prof/$(label "$t")"); done
	echo "$head"
	row "events seen" seen
	row "events lost" lost none
	row "tool CPU time (s)" cpu
	row "tool CPU per event (ns)" nspe
	row "  idle run CPU (s)" icpu
	row "  CPU/event net of idle" net
	row "workload time (s)" w
	row "slowdown (base ${base}s)" w slow
	for t in "${tools[@]}"; do
		eval "echo \"  $(label "$t") CPU per event, each round (ns): \$${t}_all\""
	done
	echo
	verdict() { if [ "$1" = 1 ]; then echo met; else echo MISSED; fi; }
	if [ "$no_perf" != 1 ]; then
		printf "target: CPU/event <= 0.5 x perf's:        %s\n" \
			"$(verdict "$(awk -v a="$pp_nspe" -v b="$perf_nspe" 'BEGIN { print (a <= 0.5 * b) }')")"
		printf "target: slowdown <= perf record's:        %s\n" \
			"$(verdict "$(awk -v a="$pp_w" -v b="$perf_w" 'BEGIN { print (a <= b * 1.02) }')") (2% noise allowed)"
	fi
	printf "target: no lost events (default buffers): %s\n" "$(verdict "$([ "$pp_lost" = 0 ] && echo 1)")"
	printf "background load on CPU 0 during base runs: %.0f%%%s\n" "$(awk -v b="$busy" 'BEGIN { print b * 100 }')" \
		"$(awk -v b="$busy" 'BEGIN { if (b > 0.1) print " (busy host: tools compete for CPU 0, figures are noisy; try BENCH_RT=1)" }')"
	echo "total $(($(date +%s) - t_start)) s"
}
exit 0
