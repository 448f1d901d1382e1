#!/usr/bin/env bash
# top counting syscalls by pid, against bpftrace's in-kernel @[pid] = count()
# and perf record of the same tracepoint (the kernel's sampling path that top
# stands on, for reference), on the same workload in one run: getppid_loop N (one raw syscall per
# iteration) pinned on CPU 1, the tools on CPU 0, started with their events
# on before the workload and stopped with SIGINT after it.  Per way, the
# median of ROUNDS interleaved rounds: workload time and slowdown against
# the unmonitored run, the tool's CPU time (user + sys of its processes) and
# per event, and the count the tool gave for the workload's pid (it must be
# N + a few: the exit path's own syscalls).
# usage: bench/top-bench.sh [BUILD_DIR] [N] [ROUNDS]
set -u
build=${1:-build}
n=${2:-2000000}
rounds=${3:-3}
. "$(dirname "$0")/lib.sh"
bench_build "$build"
wl=$build/work/getppid_loop
[ -x "$pp" ] && [ -x "$wl" ] || { echo "no $pp or $wl (make; make workloads)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
command -v bpftrace >/dev/null || { echo "needs bpftrace"; exit 1; }
tmp=$(mktemp -d /tmp/top-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# run the workload on CPU 1; prints "SECONDS PID"
workload() {
	local t0 t1 pid
	t0=$(now)
	taskset -c 1 "$wl" "$n" >/dev/null &
	pid=$!
	wait $pid
	t1=$(now)
	awk -v a="$t0" -v b="$t1" -v p="$pid" 'BEGIN { printf "%.3f %d\n", b - a, p }'
}

# one round of one way: prints "SECONDS CPU COUNT"
way() {
	local name=$1 mon w pid count=-
	shift
	if [ "$name" = base ]; then
		read -r w pid < <(workload)
		echo "$w 0 -"
		return
	fi
	/usr/bin/time -f "%U %S" -o "$tmp/$name.cpu" taskset -c 0 "$@" >"$tmp/$name.out" \
		2>"$tmp/$name.err" &
	mon=$!
	for _ in $(seq 30); do
			grep -q "monitoring:\|Attaching\|Performance counter\|time " "$tmp/$name.err" "$tmp/$name.out" 2>/dev/null && break
		sleep 0.1
	done
	sleep 0.5
	read -r w pid < <(workload)
	sleep 0.3
	stop_tool "$mon" "$name"
	# the workload's count: perf-prof's rows are "PID COMM COUNT", bpftrace's "@[PID]: COUNT"
	count=$(awk -v p="$pid" '$1 == p { s += $3 } $1 == "@[" p "]:" { s += $2 } END { print s + 0 }' \
		"$tmp/$name.out")
	[ "$name" = perf-record ] && count=- # perf.data: no per-pid count here
	[ "$name" = perf-stat ] && count=- # a count of every task's: the floor, not a per-pid count
	echo "$w $(tail -n 1 "$tmp/$name.cpu" | awk '{ printf "%.3f", $1 + $2 }') $count"
}


echo "top-bench: getppid_loop $n on CPU 1 (raw syscalls), tools on CPU 0, $rounds rounds"
for ((r = 1; r <= rounds; r++)); do
	for w in base perf-prof pp-ring bpftrace perf-stat perf-record; do
		case $w in
		base) res=$(way base) ;;
		perf-prof) res=$(way perf-prof "$pp" top -v --bpf -i 1000 \
			-e 'raw_syscalls:sys_enter//key=common_pid/comm=comm_get(common_pid)/') ;;
		pp-ring) res=$(way pp-ring "$pp" top -v --no-bpf -i 1000 \
			-e 'raw_syscalls:sys_enter//key=common_pid/comm=comm_get(common_pid)/') ;;
		perf-stat) res=$(way perf-stat perf stat -e raw_syscalls:sys_enter -a -I 100000) ;;
		bpftrace) res=$(way bpftrace bpftrace -e \
			'tracepoint:raw_syscalls:sys_enter { @[pid] = count(); }
			 interval:s:1 { print(@); clear(@); } END { print(@); clear(@); }') ;;
		perf-record) res=$(way perf-record perf record -q -e raw_syscalls:sys_enter -a \
			-o "$tmp/perf.data") ;;
		esac
		echo "$res" >>"$tmp/res.$w"
		echo "  round $r $w: $res  (workload s, tool CPU s, count)"
	done
done

base=$(cut -d' ' -f1 "$tmp/res.base" | median)
printf "\n%-10s %10s %9s %12s %14s %12s\n" way workload slowdown "tool CPU" "CPU/event" count
printf "%-10s %9ss %9s %12s %14s %12s\n" base "$base" 1.00x - - -
for w in perf-prof pp-ring bpftrace perf-stat perf-record; do
	ws=$(cut -d' ' -f1 "$tmp/res.$w" | median)
	cpu=$(cut -d' ' -f2 "$tmp/res.$w" | median)
	count=$(cut -d' ' -f3 "$tmp/res.$w" | median)
	printf "%-10s %9ss %8sx %11ss %12sns %12s\n" "$w" "$ws" \
		"$(awk -v a="$ws" -v b="$base" 'BEGIN { printf "%.2f", a / b }')" "$cpu" \
		"$(awk -v c="$cpu" -v n="$n" 'BEGIN { printf "%.0f", c * 1e9 / n }')" "$count"
	echo "$w $ws" >>"$tmp/slow"
done
pw=$(awk '$1 == "perf-prof" { print $2 }' "$tmp/slow")
bw=$(awk '$1 == "bpftrace" { print $2 }' "$tmp/slow")
sw=$(awk '$1 == "perf-stat" { print $2 }' "$tmp/slow")
echo
awk -v p="$pw" -v b="$bw" 'BEGIN { printf "target: top (BPF) slows the workload less than bpftrace: %s (%.3f vs %.3f s)\n", (p < b) ? "met" : "MISSED", p, b }'
awk -v p="$pw" -v f="$sw" -v z="$base" 'BEGIN { printf "target: top (BPF) slowdown within 1.3x of the counting floor (perf stat): %s (%.2fx vs %.2fx: %.2f)\n", ((p / z) <= 1.3 * (f / z)) ? "met" : "MISSED", p / z, f / z, (p / z) / (f / z) }'
