#!/usr/bin/env bash
# multi-trace's pairing against bpftrace doing the same: getppid_loop N on
# CPU 1 (N getppid, timed), its syscalls:sys_enter_getppid ->
# sys_exit_getppid pairs keyed by the thread, under
#   pp-ring  multi-trace --no-bpf (every event a sample, paired in user space)
#   pp-bpf   multi-trace --bpf (starts in a kernel map, the table in the kernel)
#   bpftrace @s[tid] = nsecs at the enter; count, sum and hist at the exit
# Per tool: the workload's slowdown against the unmonitored run, the tool's
# CPU time, the time from the stop signal to the result, the pairs it
# counted and their average.  Then one more run watched by pp-bpf and
# bpftrace at once: their counts of the same run (they must agree: N).
# Tools are system-wide on CPU 0, started before the workload, stopped with
# SIGINT after it.  The median of ROUNDS rounds.
# usage: bench/mt-bench.sh [BUILD_DIR] [N] [ROUNDS]
set -u
build=${1:-build}
n=${2:-1000000}
rounds=${3:-3}
. "$(dirname "$0")/lib.sh"
bench_build "$build"
gl=$build/work/getppid_loop
[ -x "$pp" ] && [ -x "$gl" ] || { echo "no $pp or workloads (make; make workloads)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
command -v bpftrace >/dev/null || { echo "needs bpftrace"; exit 1; }
tmp=$(mktemp -d /tmp/mt-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

wl() {
	local t0 t1
	t0=$(now)
	taskset -c 1 "$gl" "$n" >/dev/null
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

EN=syscalls:sys_enter_getppid
EX=syscalls:sys_exit_getppid
MT=(multi-trace -v -e "$EN//key=common_pid/" -e "$EX//key=common_pid/")
BT='tracepoint:syscalls:sys_enter_getppid { @s[tid] = nsecs; }
tracepoint:syscalls:sys_exit_getppid /@s[tid]/ { $d = nsecs - @s[tid]; @n = count(); @t = sum($d); @h = hist($d); delete(@s[tid]); }
END { clear(@s); }'

# start NAME CMD...: the tool on CPU 0, back when it is ready
start() {
	local name=$1
	shift
	/usr/bin/time -f "%U %S" -o "$tmp/$name.cpu" taskset -c 0 "$@" >"$tmp/$name.out" \
		2>"$tmp/$name.err" &
	echo $! >"$tmp/$name.pid"
	for _ in $(seq 100); do
		grep -qs "monitoring:\|Attaching" "$tmp/$name.err" "$tmp/$name.out" && break
		sleep 0.1
	done
	sleep 1
}
# stop NAME: SIGINT (again after 10 s if it did not end); stop_s: the stop-to-result seconds
stop() {
	stop_tool "$(cat "$tmp/$1.pid")" "$1"
}
# numbers NAME: "PAIRS AVG"
numbers() {
	case $1 in
	pp-*) awk -v k=$EN '$1 == k && $2 == "=>" { print $4, $7; exit }' "$tmp/$1.out" ;;
	bpftrace) awk '$1 == "@n:" { c = $2 } $1 == "@t:" { t = $2 }
		END { printf "%d %.3fus\n", c, c ? t / c / 1e3 : 0 }' "$tmp/$1.out" ;;
	esac
}

echo "mt-bench: N=$n getppid pairs, workload on CPU 1, tools system-wide on CPU 0, $rounds rounds"
for ((r = 1; r <= rounds; r++)); do
	for w in base pp-ring pp-bpf bpftrace; do
		case $w in
		base) echo "$(wl) 0 0 - -" >>"$tmp/r.$w"; continue ;;
		pp-ring) start $w "$pp" "${MT[@]}" --no-bpf ;;
		pp-bpf) start $w "$pp" "${MT[@]}" --bpf ;;
		bpftrace) start $w bpftrace -e "$BT" ;;
		esac
		ws=$(wl)
		sleep 0.3
		stop $w
		sr=$stop_s
		res="$ws $(awk '{ printf "%.3f", $1 + $2 }' "$tmp/$w.cpu") $sr $(numbers $w)"
		echo "$res" >>"$tmp/r.$w"
		echo "  round $r $w: $res  (workload s, tool CPU s, stop->result s, pairs, avg)"
	done
done

base=$(cut -d' ' -f1 "$tmp/r.base" | median)
printf "\n%-9s %9s %9s %10s %13s  %s\n" way workload slowdown "tool CPU" "stop->result" "pairs avg (median round)"
printf "%-9s %8ss %9s\n" base "$base" 1.00x
for w in pp-ring pp-bpf bpftrace; do
	ws=$(cut -d' ' -f1 "$tmp/r.$w" | median)
	printf "%-9s %8ss %8sx %9ss %12ss  %s\n" "$w" "$ws" \
		"$(awk -v a="$ws" -v b="$base" 'BEGIN { printf "%.2f", a / b }')" \
		"$(cut -d' ' -f2 "$tmp/r.$w" | median)" "$(cut -d' ' -f3 "$tmp/r.$w" | median)" \
		"$(awk -v m="$ws" '$1 == m { print $4, $5; exit }' "$tmp/r.$w")"
done
slow() { awk -v a="$(cut -d' ' -f1 "$tmp/r.$1" | median)" -v b="$base" 'BEGIN { print a / b }'; }
awk -v p="$(slow pp-bpf)" -v b="$(slow bpftrace)" \
	'BEGIN { printf "target: multi-trace on BPF below the slowdown under bpftrace: %.2fx vs %.2fx: %s\n", p, b, p < b ? "met" : "MISSED" }'

# one run, both watching: the same pairs
start pp-bpf "$pp" "${MT[@]}" --bpf
start bpftrace bpftrace -e "$BT"
wl >/dev/null
sleep 0.3
stop pp-bpf
stop bpftrace
echo "same run, both at once: pp-bpf $(numbers pp-bpf), bpftrace $(numbers bpftrace) (pairs, avg; N=$n)"
