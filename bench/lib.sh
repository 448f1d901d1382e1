# shellcheck shell=bash
# Shared by the benchmarks: where perf-prof is, the median, a clock without a
# fork, and the stop of a tool run under /usr/bin/time, timed from the signal
# to its exit.
#
# The stop used to be timed around `pkill -INT -P MON` (a scan of /proc:
# about 30 ms here) and, in some scripts, a `kill -0` poll every 100 ms:
# both were in the "stop->result" figure of every tool.  Now the tool's pid
# is found before the clock starts, the signal is one kill(2), and the wait
# returns at the exit.

# now: seconds since the epoch, microseconds (bash's own clock: no fork)
now() { echo "$EPOCHREALTIME"; }

# tool_pid MON: the tool's pid, the child of /usr/bin/time MON (MON if none)
tool_pid() {
	local p
	p=$(pgrep -P "$1" | head -n 1)
	echo "${p:-$1}"
}

# stop_tool MON [NAME]: SIGINT to the tool under MON, again after 10 s if it
# did not end (said on stderr: a peer that misses its first SIGINT), wait;
# sets stop_s to the seconds from the first signal to the exit.  Call it in
# the shell that started MON (not in $(...): a subshell cannot wait for it).
stop_tool() {
	local mon=$1 name=${2:-tool} pid t0 t1 dog
	pid=$(tool_pid "$mon")
	sleep 10 &
	dog=$!
	t0=$(now)
	kill -INT "$pid" 2>/dev/null
	wait -n "$mon" "$dog" 2>/dev/null
	if kill -0 "$mon" 2>/dev/null && ! kill -0 "$dog" 2>/dev/null; then
		echo "  ($name missed its first SIGINT: sent another after 10 s)" >&2
		kill -INT "$pid" 2>/dev/null
	fi
	wait "$mon" 2>/dev/null
	t1=$(now)
	kill "$dog" 2>/dev/null
	wait "$dog" 2>/dev/null
	stop_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
}

# bench_build BUILD: sets build (BUILD made absolute: a folder of the tree
# unless it begins with /) and pp, its perf-prof (the tree's own for build)
bench_build() {
	local top
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	build=$1
	case $build in /*) ;; *) build=$top/$build ;; esac
	pp=$build/perf-prof
	[ "$build" = "$top/build" ] && pp=$top/perf-prof
}

# median: the middle of the numbers on stdin, one a line (the lower one of an even count)
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
