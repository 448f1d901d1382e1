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

# bench_tmp NAME: tmp, a folder of the run's files (/tmp/NAME.XXXXXX), and mons, the
# tools started: both ended (SIGINT) and removed at the exit, whatever ends the script
bench_tmp() {
	tmp=$(mktemp -d "/tmp/$1.XXXXXX")
	mons=()
	trap bench_cleanup EXIT
}
bench_cleanup() {
	local p
	for p in "${mons[@]}"; do kill -INT "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}

# child_cpu FILE: the CPU seconds of the children waited for, from bash's `times`
# (its second line): "0m0.507s 0m0.111s" -> 0.618
child_cpu() {
	sed -n 2p "$1" | awk '{
		s = 0
		for (i = 1; i <= 2; i++) { split($i, a, "m"); sub(/s$/, "", a[2]); s += a[1] * 60 + a[2] }
		printf "%.3f", s }'
}

# wait_file FILE: until FILE is not empty (a pid written); gives up after 5 s
wait_file() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ -s "$1" ] && return 0
		sleep 0.05
	done
	return 1
}

# wait_ready PID: until PID has a perf_event fd open (its events open; enabling follows
# right after in every tool), then a little longer; gives up after 10 s
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
