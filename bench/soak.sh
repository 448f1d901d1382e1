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
# Extra perf-prof options for every run: SOAK_OPTS (e.g. "--order-mem 16M").
# A run whose RSS passes SOAK_MAX_MB (default 3000) is stopped early.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
short=0
if [ "${1:-}" = --short ]; then
	short=1
	shift
fi
build=${1:-build}
if [ $short = 1 ]; then
	dur=${2:-30}
	step=${3:-3}
else
	dur=${2:-300}
	step=${3:-10}
fi
max_mb=${SOAK_MAX_MB:-3000}
flat_mb=${SOAK_FLAT_MB:-4}
case $build in /*) ;; *) build=$top/$build ;; esac
pp=$build/perf-prof
[ "$build" = "$top/build" ] && pp=$top/perf-prof
[ -x "$pp" ] || { echo "no $pp (make BUILD=...)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
command -v stress-ng >/dev/null || { echo "needs stress-ng (apt-get install stress-ng)"; exit 1; }
tmp=$(mktemp -d /tmp/soak.XXXXXX)
load_pgid=
mon=
cleanup() {
	[ -n "$mon" ] && kill -KILL "$mon" 2>/dev/null
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

status_kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status" 2>/dev/null; }
mb() { awk -v k="${1:-0}" 'BEGIN { printf "%.1f", k / 1024 }'; }

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

printf 'soak: %ss per run, RSS every %ss, %s CPUs, ring buffers %s pages/CPU (%s MiB)\n' \
	"$dur" "$step" "$ncpu" "$pages" "$ring_mb"
printf 'load: stress-ng --switch 2 --fork 1 + %s CPU hogs; target: peak < %s MiB, flat after %ss\n' \
	"$ncpu" "$limit_mb" "$flat_at"
soak trace trace -e sched:sched_switch -o /dev/null
soak ts-g task-state -g
soak ts-dwarf task-state -g --call-graph dwarf
printf '\nsummary\n'
for r in "${results[@]}"; do
	printf '  %s\n' "$r"
done
exit 0
