#!/usr/bin/env bash
# Soak: does perf-prof's memory stay bounded when the host is busier than it?
# Three runs, each under `stress-ng --switch 2 --fork 1` plus CPU hogs competing
# for every CPU:
#   trace      perf-prof trace -e sched:sched_switch -o /dev/null
#   ts-g       perf-prof task-state -g
#   ts-dwarf   perf-prof task-state -g --call-graph dwarf
# perf-prof's RSS is sampled every STEP seconds; at the end it gets SIGINT and
# the script notes how long it took to exit and what it reported lost.
# Target (issue 7): RSS flat after the first minute (grows by at most
# SOAK_FLAT_MB, default 4 MiB), peak (VmHWM) under 64 MiB plus the ring buffers.
#
# usage: bench/soak.sh [BUILD_DIR] [DURATION_S] [STEP_S]
#        bench/soak.sh --short [BUILD_DIR]     (30 s each, a sample every 3 s)
#        bench/soak.sh --all [BUILD_DIR] [DURATION_S] [STEP_S]
# --all (issue 13): trace, task-state -g and the newer profilers (profile -g,
# oncpu, syscalls, rundelay, multi-trace, top, percpu-stat, hrcount, cpu-util,
# page-faults, kmemprof) all at once, for DURATION_S (default 1800) under the
# same load, each one's RSS every STEP_S (default 10) and what it lost.
# Extra perf-prof options for every run: SOAK_OPTS (e.g. "--order-mem 16M").
# --all runs only the monitors named in SOAK_ONLY when set (e.g.
# SOAK_ONLY="profile kmemprof"), under the same load.
# A run whose RSS passes SOAK_MAX_MB (default 3000) is stopped early.
set -u
short=0
all=0
if [ "${1:-}" = --short ]; then
	short=1
	shift
elif [ "${1:-}" = --all ]; then
	all=1
	shift
fi
build=${1:-build}
if [ $short = 1 ]; then
	dur=${2:-30}
	step=${3:-3}
elif [ $all = 1 ]; then
	dur=${2:-1800}
	step=${3:-10}
else
	dur=${2:-300}
	step=${3:-10}
fi
max_mb=${SOAK_MAX_MB:-3000}
flat_mb=${SOAK_FLAT_MB:-4}
. "$(dirname "$0")/lib.sh"
bench_build "$build"
[ -x "$pp" ] || { echo "no $pp (make BUILD=...)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
command -v stress-ng >/dev/null || { echo "needs stress-ng (apt-get install stress-ng)"; exit 1; }
tmp=$(mktemp -d /tmp/soak.XXXXXX)
load_pgid=
mon=
mons=()
cleanup() {
	[ -n "$mon" ] && kill -KILL "$mon" 2>/dev/null
	for m in "${mons[@]}"; do kill -KILL "$m" 2>/dev/null; done
	[ -n "$load_pgid" ] && kill -KILL -- "-$load_pgid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ncpu=$(nproc)
# "flat after the first minute"; short runs: after the first third
flat_at=60
[ "$dur" -lt 120 ] && flat_at=$((dur / 3))
pages=$("$pp" task-state -h 2>&1 | sed -n 's/.*default here \([0-9]*\).*/\1/p')
pages=${pages:-2048}
ring_mb=$(((pages + 1) * $(getconf PAGESIZE) * ncpu / 1048576))
limit_mb=$((64 + ring_mb))

start_load() {
	if [ $all = 1 ]; then
		# --all: the monitors are most of the load; process churn and 20000
		# switches/s keep every profiler's tables turning over
		setsid stress-ng --switch 1 --switch-freq 20000 --fork 1 --fork-max 4 \
			--timeout 0 >/dev/null 2>&1 &
		load_pgid=$!
		sleep 1
		return
	fi
	# its own process group: one kill ends stress-ng, its children and the hogs
	setsid bash -c '
		stress-ng --switch 2 --fork 1 --timeout 0 >/dev/null 2>&1 &
		for ((i = 0; i < '"$ncpu"'; i++)); do
			nice -n -5 bash -c "while :; do :; done" &
		done
		wait' &
	load_pgid=$!
	sleep 1
}
stop_load() {
	kill -KILL -- "-$load_pgid" 2>/dev/null
	wait "$load_pgid" 2>/dev/null
	load_pgid=
}

# builtins only (no fork): on a saturated host each fork of the sampler takes seconds
status_kb() {
	local k v _
	while read -r k v _; do
		[ "$k" = "$2:" ] && { echo "$v"; return; }
	done <"/proc/$1/status" 2>/dev/null
}
mb() {
	local k=${1:-0} s=
	[ "$k" -lt 0 ] && s=- k=$((-k))
	printf '%s%d.%d' "$s" $((k / 1024)) $((k % 1024 * 10 / 1024))
}

results=()
# soak NAME perf-prof-args...
soak() {
	local name=$1 t=0 rss hwm peak=0 at_flat= last=0 curve="" stop_ms lost verdict why
	shift
	start_load
	# shellcheck disable=SC2086
	"$pp" "$@" ${SOAK_OPTS:-} >"$tmp/$name.out" 2>"$tmp/$name.err" &
	mon=$!
	while [ "$t" -lt "$dur" ]; do
		sleep "$step"
		t=$((t + step))
		rss=$(status_kb "$mon" VmRSS)
		[ -z "$rss" ] && break
		curve="$curve $(mb "$rss")"
		last=$rss
		[ -z "$at_flat" ] && [ "$t" -ge "$flat_at" ] && at_flat=$rss
		if [ "$rss" -gt $((max_mb * 1024)) ]; then
			curve="$curve (stopped: over ${max_mb} MB)"
			break
		fi
	done
	hwm=$(status_kb "$mon" VmHWM)
	peak=${hwm:-0}
	local t0 t1
	t0=$(date +%s%N)
	kill -INT "$mon" 2>/dev/null
	for ((i = 0; i < 600; i++)); do
		kill -0 "$mon" 2>/dev/null || break
		# a zombie has exited: wait reaps it below
		[ "$(awk '{ print $3 }' "/proc/$mon/stat" 2>/dev/null)" = Z ] && break
		sleep 0.05
	done
	t1=$(date +%s%N)
	stop_ms=$(((t1 - t0) / 1000000))
	kill -KILL "$mon" 2>/dev/null
	wait "$mon" 2>/dev/null
	mon=
	stop_load
	lost=$(grep -E 'lost|dropped' "$tmp/$name.err" | tr '\n' ' ')
	verdict=met
	why=""
	if [ "$((peak / 1024))" -ge "$limit_mb" ]; then
		verdict=MISSED
		why="peak over ${limit_mb} MiB"
	fi
	if [ -n "$at_flat" ] && [ $((last - at_flat)) -gt $((flat_mb * 1024)) ]; then
		verdict=MISSED
		why="$why grew $(mb $((last - at_flat))) MiB after ${flat_at}s"
	fi
	printf '\n%s: perf-prof %s\n' "$name" "$*"
	printf '  RSS MiB every %ss:%s\n' "$step" "$curve"
	printf '  peak (VmHWM) %s MiB, after %ss %s MiB, at the end %s MiB\n' "$(mb "$peak")" \
		"$flat_at" "$(mb "${at_flat:-0}")" "$(mb "$last")"
	printf '  SIGINT -> exit %s ms; table lines %s\n' "$stop_ms" "$(wc -l <"$tmp/$name.out")"
	printf '  stderr: %s\n' "${lost:-(nothing lost)}"
	printf '  target: %s %s\n' "$verdict" "$why"
	results+=("$(printf '%-9s peak %7s MiB  growth after %3ss %6s MiB  stop %5s ms  %s' \
		"$name" "$(mb "$peak")" "$flat_at" "$(mb $((last - ${at_flat:-$last})))" \
		"$stop_ms" "$verdict")")
}

# stop PID: SIGINT; stop_ms gets the ms until it exited (SIGKILL after 30 s)
stop_mon() {
	local t0 t1 i
	t0=$(date +%s%N)
	kill -INT "$1" 2>/dev/null
	for ((i = 0; i < 600; i++)); do
		kill -0 "$1" 2>/dev/null || break
		[ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ] && break
		sleep 0.05
	done
	t1=$(date +%s%N)
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	stop_ms=$(((t1 - t0) / 1000000))
}

# --all: every monitor at once under one load; NAME=ARGS pairs
soak_all() {
	local names=() i t=0 rss n curves=() at=() last=() peak stop stop_ms lost verdict why
	local picked=() only=" ${SOAK_ONLY:-} "
	for spec in "$@"; do
		[ -n "${SOAK_ONLY:-}" ] && [ "${only/ ${spec%%=*} /}" = "$only" ] && continue
		picked+=("$spec")
	done
	[ ${#picked[@]} -eq 0 ] && { echo "SOAK_ONLY names no monitor: $SOAK_ONLY"; return; }
	set -- "${picked[@]}"
	for spec in "$@"; do names+=("${spec%%=*}"); done
	start_load
	for spec in "$@"; do
		# shellcheck disable=SC2086
		"$pp" ${spec#*=} ${SOAK_OPTS:-} >"$tmp/${spec%%=*}.out" 2>"$tmp/${spec%%=*}.err" &
		mons+=($!)
	done
	# the sampler (only: not the load and the monitors it started) keeps its steps
	renice -n -10 -p $$ >/dev/null 2>&1
	for ((i = 0; i < ${#names[@]}; i++)); do curves[i]=""; at[i]=""; last[i]=0; done
	local t0=$SECONDS
	# wall-clock seconds (a step on a saturated host may take longer than STEP)
	while [ "$t" -lt "$dur" ]; do
		sleep "$step"
		t=$((SECONDS - t0))
		n=0
		for ((i = 0; i < ${#names[@]}; i++)); do
			rss=$(status_kb "${mons[i]}" VmRSS)
			[ -z "$rss" ] && { curves[i]="${curves[i]} -"; continue; }
			n=$((n + 1))
			curves[i]="${curves[i]} $(mb "$rss")"
			last[i]=$rss
			[ -z "${at[i]}" ] && [ "$t" -ge "$flat_at" ] && at[i]=$rss
		done
		[ "$n" -eq 0 ] && break
	done
	renice -n 0 -p $$ >/dev/null 2>&1
	printf '\nRSS (MiB) every %ss, all running at once for %ss\n' "$step" "$t"
	for ((i = 0; i < ${#names[@]}; i++)); do
		peak=$(status_kb "${mons[i]}" VmHWM)
		stop_mon "${mons[i]}"
		stop=$stop_ms
		lost=$(grep -E 'lost|dropped|throttled' "$tmp/${names[i]}.err" | tr '\n' ' ')
		verdict=met
		why=""
		if [ -z "$peak" ]; then
			verdict=MISSED
			why="exited early: $(tail -1 "$tmp/${names[i]}.err")"
			peak=0
		elif [ -n "${at[i]}" ] && [ $((last[i] - at[i])) -gt $((flat_mb * 1024)) ]; then
			verdict=MISSED
			why="grew $(mb $((last[i] - at[i]))) MiB after ${flat_at}s"
		fi
		[ "$((peak / 1024))" -ge "$limit_mb" ] && verdict=MISSED why="$why peak over ${limit_mb} MiB"
		printf '\n%s: perf-prof %s\n  RSS:%s\n' "${names[i]}" "$(grep -F "${names[i]}=" <<<"$(printf '%s\n' "$@")" | cut -d= -f2-)" "${curves[i]}"
		printf '  peak %s MiB, at %ss %s MiB, at the end %s MiB; SIGINT -> exit %s ms\n' \
			"$(mb "$peak")" "$flat_at" "$(mb "${at[i]:-0}")" "$(mb "${last[i]}")" "$stop"
		printf '  stderr: %s\n  target: %s %s\n' "${lost:-(nothing lost)}" "$verdict" "$why"
		results+=("$(printf '%-12s peak %7s MiB  growth after %4ss %6s MiB  stop %5s ms  %s' \
			"${names[i]}" "$(mb "$peak")" "$flat_at" "$(mb $((last[i] - ${at[i]:-${last[i]}})))" \
			"$stop" "$verdict")")
	done
	mons=()
	stop_load
}

printf 'soak: %ss per run, RSS every %ss, %s CPUs, ring buffers %s pages/CPU (%s MiB)\n' \
	"$dur" "$step" "$ncpu" "$pages" "$ring_mb"
if [ $all = 1 ]; then
	printf 'load: stress-ng --switch 1 --switch-freq 20000 --fork 1 --fork-max 4 and the monitors; target: peak < %s MiB, flat after %ss\n' \
		"$limit_mb" "$flat_at"
else
	printf 'load: stress-ng --switch 2 --fork 1 + %s CPU hogs; target: peak < %s MiB, flat after %ss\n' \
		"$ncpu" "$limit_mb" "$flat_at"
fi
if [ $all = 1 ]; then
	soak_all "trace=trace -e sched:sched_switch -o /dev/null" \
		"task-state=task-state -g -o /dev/null" \
		"profile=profile -F 999 -g -i 10000 -o /dev/null" \
		"oncpu=oncpu -i 10000 -o /dev/null" \
		"syscalls=syscalls -i 10000 -o /dev/null" \
		"rundelay=rundelay -i 10000 -o /dev/null" \
		"multi-trace=multi-trace -e sched:sched_wakeup//key=pid/ -e sched:sched_switch//key=next_pid/ -i 10000 -o /dev/null" \
		"top=top -e sched:sched_switch//key=prev_pid/ -i 10000 -o /dev/null" \
		"percpu-stat=percpu-stat -i 10000 -o /dev/null" \
		"hrcount=hrcount --period 10ms -e context-switches -i 10000 -o /dev/null" \
		"cpu-util=cpu-util -i 10000 -o /dev/null" \
		"page-faults=page-faults -o /dev/null" \
		"kmemprof=kmemprof -e kmem:kmalloc -e kmem:kfree -k ptr -i 10000 -o /dev/null"
else
	soak trace trace -e sched:sched_switch -o /dev/null
	soak ts-g task-state -g
	soak ts-dwarf task-state -g --call-graph dwarf
fi
printf '\nsummary\n'
for r in "${results[@]}"; do
	printf '  %s\n' "$r"
done
exit 0
