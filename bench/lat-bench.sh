#!/usr/bin/env bash
# The latency profilers against their peers, same workloads, one run:
#   syscalls  (the ring path, --no-bpf, and the BPF back end, --bpf) vs perf
#             trace -s and a bpftrace syscall-latency script
#   rundelay  vs perf sched record + perf sched latency and a bpftrace runqlat,
#             on the BPF back end (pp-bpf) and on the ring path (pp-ring, --no-bpf)
# Per tool: the workload's slowdown against the unmonitored run, the tool's
# CPU time (user + sys, post-processing included), the time from the stop
# signal to the result, and the numbers each gave (they must agree):
#   syscalls: getppid_loop N pinned on CPU 1 (N getppid; timed), then
#             lat_sleep (200 clock_nanosleep of 2 ms): getppid calls, and
#             the calls and average of lat_sleep's clock_nanosleep;
#   rundelay: perf bench sched pipe -l N (two threads ping-ponging on CPU 1;
#             timed), then lat_sleep under SCHED_IDLE beside a spinner on
#             CPU 1 (200 wakeups that wait for the CPU a few ms): its
#             wakeups and average scheduling delay.
# Tools are system-wide on CPU 0, started before the workload, stopped with
# SIGINT after it.  The median of ROUNDS rounds.
# usage: bench/lat-bench.sh [BUILD_DIR] [N] [ROUNDS]
# (LAT_BENCH="syscalls rundelay", the default, or one of them)
set -u
build=${1:-build}
n=${2:-1000000}
rounds=${3:-3}
parts=${LAT_BENCH:-syscalls rundelay}
. "$(dirname "$0")/lib.sh"
bench_build "$build"
gl=$build/work/getppid_loop
ls=$build/work/lat_sleep
[ -x "$pp" ] && [ -x "$gl" ] && [ -x "$ls" ] || { echo "no $pp or workloads (make; make workloads)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
command -v bpftrace >/dev/null && command -v perf >/dev/null || { echo "needs bpftrace and perf"; exit 1; }
tmp=$(mktemp -d /tmp/lat-bench.XXXXXX)
trap 'kill $(cat "$tmp/spin.pid" 2>/dev/null) 2>/dev/null; rm -rf "$tmp"' EXIT
NR_GETPPID=$(awk '$2 == "__NR_getppid" { print $3 }' /usr/include/x86_64-linux-gnu/asm/unistd_64.h)
NR_NANOSLEEP=$(awk '$2 == "__NR_clock_nanosleep" { print $3 }' /usr/include/x86_64-linux-gnu/asm/unistd_64.h)

# the workloads; each prints its elapsed seconds
wl_syscalls() {
	local t0 t1
	t0=$(now)
	taskset -c 1 "$gl" "$n" >/dev/null
	t1=$(now)
	taskset -c 1 "$ls" 200 2 >"$tmp/ls.out" &
	echo $! >"$tmp/ls.pid"
	wait $!
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}
wl_sched() {
	local t0 t1
	t0=$(now)
	taskset -c 1 perf bench sched pipe -l "$n" >/dev/null 2>&1
	t1=$(now)
	taskset -c 1 sh -c 'while :; do :; done' &
	spin=$!
	echo $spin >"$tmp/spin.pid"
	chrt -i 0 taskset -c 1 "$ls" 200 2 >"$tmp/ls.out" &
	echo $! >"$tmp/ls.pid"
	wait $!
	kill $spin
	wait $spin 2>/dev/null
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

# way NAME WORKLOAD CMD...: prints "SECONDS CPU STOP_TO_RESULT"
way() {
	local name=$1 wl=$2 mon w
	shift 2
	if [ "$name" = base ]; then
		echo "$($wl) 0 0"
		return
	fi
	/usr/bin/time -f "%U %S" -o "$tmp/$name.cpu" taskset -c 0 "$@" >"$tmp/$name.out" \
		2>"$tmp/$name.err" &
	mon=$!
	for _ in $(seq 100); do
		grep -qs "monitoring:\|Attaching\|Recording\|Summary" "$tmp/$name.err" "$tmp/$name.out" && break
		sleep 0.1
	done
	sleep 1
	w=$($wl)
	sleep 0.3
	stop_tool "$mon" "$name"
	echo "$w $(tail -n 1 "$tmp/$name.cpu" | awk '{ printf "%.3f", $1 + $2 }') $stop_s"
}

# numbers: "GETPPID_CALLS NANOSLEEP_CALLS NANOSLEEP_AVG" / "WAKEUPS AVG_DELAY" of lat_sleep
sc_numbers() {
	local p
	p=$(cat "$tmp/ls.pid")
	case $1 in
	perf-prof | pp-bpf) # --perins: SYSCALL TID calls total min avg
		awk -v p="$p" '$1 == "getppid" { g += $3 } $1 == "clock_nanosleep" && $2 == p { c = $3; a = $6 }
			END { printf "%d %d %s\n", g, c, a }' "$tmp/$1.out" ;;
	perf-trace) # per-thread sections "comm (TID), ...", rows: syscall calls errors total min avg (msec)
		awk -v p="$p" '/\([0-9]+\), / { t = $0; sub(/.*\(/, "", t); sub(/\).*/, "", t) }
			$1 == "getppid" { g += $2 } $1 == "clock_nanosleep" && t == p { c = $2; a = $6 }
			END { printf "%d %d %.3fms\n", g, c, a }' "$tmp/$1.err" "$tmp/$1.out" ;;
	bpftrace) # @n[tid, id]: count, @t[tid, id]: sum
		awk -v p="$p" -v g="$NR_GETPPID" -v s="$NR_NANOSLEEP" '
			$1 ~ "^@n\\[" && $2 == g "]:" { gc += $3 }
			$1 == "@n[" p "," && $2 == s "]:" { c = $3 } $1 == "@t[" p "," && $2 == s "]:" { t = $3 }
			END { printf "%d %d %.3fms\n", gc, c, c ? t / c / 1e6 : 0 }' "$tmp/$1.out" ;;
	esac
}
rd_numbers() {
	local p
	p=$(cat "$tmp/ls.pid")
	case $1 in
	pp-*) # --perins: "wakeup => switch-in TID calls total min avg"
		awk -v p="$p" '/^wakeup => switch-in/ && $4 == p { printf "%s %s\n", $5, $8 }' "$tmp/$1.out" ;;
	perf-sched) # "lat_sleep:PID | runtime | switches | avg: X ms | ..."
		awk -F'|' -v p="$p" '$1 ~ ":" p " *$" { n = $3 + 0; split($4, a, " "); printf "%d %.3fms\n", n, a[2] }' \
			"$tmp/$1.lat" ;;
	bpftrace) # @n[pid]: count, @t[pid]: sum of the wakeups' delays
		awk -v p="$p" '$1 == "@n[" p "]:" { n = $2 } $1 == "@t[" p "]:" { t = $2 }
			END { printf "%d %.3fms\n", n, n ? t / n / 1e6 : 0 }' "$tmp/$1.out" ;;
	esac
}

BT_SC='tracepoint:raw_syscalls:sys_enter { @s[tid] = nsecs; @i[tid] = args->id; }
tracepoint:raw_syscalls:sys_exit /@s[tid]/ { @n[tid, @i[tid]] = count(); @t[tid, @i[tid]] = sum(nsecs - @s[tid]); delete(@s[tid]); delete(@i[tid]); }
END { clear(@s); clear(@i); }'
# runqlat's events; the wakeups (@w) kept apart from preemptions and new tasks (@o)
BT_RQ='tracepoint:sched:sched_wakeup { @w[args->pid] = nsecs; }
tracepoint:sched:sched_wakeup_new { @o[args->pid] = nsecs; }
tracepoint:sched:sched_switch {
	if ((args->prev_state & 0xff) == 0) { @o[args->prev_pid] = nsecs; }
	if (@w[args->next_pid]) { @n[args->next_pid] = count(); @t[args->next_pid] = sum(nsecs - @w[args->next_pid]); delete(@w[args->next_pid]); }
	delete(@o[args->next_pid]);
}
END { clear(@w); clear(@o); }'

echo "lat-bench: N=$n, workloads on CPU 1, tools system-wide on CPU 0, $rounds rounds"
for ((r = 1; r <= rounds; r++)); do
	for w in base perf-prof pp-bpf perf-trace bpftrace; do
		[[ " $parts " == *" syscalls "* ]] || break
		case $w in
		base) res=$(way base wl_syscalls) ;;
		perf-prof) res=$(way perf-prof wl_syscalls "$pp" syscalls -v --no-bpf --perins) ;;
		pp-bpf) res=$(way pp-bpf wl_syscalls "$pp" syscalls -v --bpf --perins) ;;
		perf-trace) res=$(way perf-trace wl_syscalls perf trace -s -a) ;;
		bpftrace) res=$(way bpftrace wl_syscalls bpftrace -e "$BT_SC") ;;
		esac
		[ "$w" = base ] || res="$res $(sc_numbers $w)"
		[ "$w" = base ] && res="$res - - -"
		echo "$res" >>"$tmp/sc.$w"
		echo "  syscalls round $r $w: $res  (workload s, tool CPU s, stop->result s; getppid calls; lat_sleep nanosleep calls, avg)"
	done
	for w in base pp-bpf pp-ring perf-sched bpftrace; do
		[[ " $parts " == *" rundelay "* ]] || break
		case $w in
		base) res=$(way base wl_sched) ;;
		pp-bpf) res=$(way pp-bpf wl_sched "$pp" rundelay --bpf -v --perins) ;;
		pp-ring) res=$(way pp-ring wl_sched "$pp" rundelay --no-bpf -v -m 1024 --perins) ;;
		perf-sched) res=$(way perf-sched wl_sched perf sched record -a -o "$tmp/sched.data")
			t0=$(now)
			cpu0=$( { /usr/bin/time -f "%U %S" perf sched latency -i "$tmp/sched.data" >"$tmp/perf-sched.lat" 2>/dev/null; } 2>&1 | tail -1 | awk '{ print $1 + $2 }')
			t1=$(now)
			[ -s "$tmp/perf-sched.lat" ] || echo "  (perf sched latency wrote nothing)" >&2
			res=$(echo "$res" | awk -v c="$cpu0" -v d="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" '{ printf "%s %.3f %.3f", $1, $2 + c, $3 + d }') ;;
		bpftrace) res=$(way bpftrace wl_sched bpftrace -e "$BT_RQ") ;;
		esac
		[ "$w" = base ] || res="$res $(rd_numbers $w)"
		[ "$w" = base ] && res="$res - -"
		echo "$res" >>"$tmp/rd.$w"
		echo "  rundelay round $r $w: $res  (workload s, tool CPU s, stop->result s, wakeups, avg delay)"
	done
done

report() {
	local kind=$1 base
	shift
	base=$(cut -d' ' -f1 "$tmp/$kind.base" | median)
	printf "\n%-10s %9s %9s %10s %13s  %s\n" way workload slowdown "tool CPU" "stop->result" "numbers (median round)"
	printf "%-10s %8ss %9s %10s %13s\n" base "$base" 1.00x - -
	for w in "$@"; do
		local ws cpu sr nums
		ws=$(cut -d' ' -f1 "$tmp/$kind.$w" | median)
		cpu=$(cut -d' ' -f2 "$tmp/$kind.$w" | median)
		sr=$(cut -d' ' -f3 "$tmp/$kind.$w" | median)
		nums=$(awk -v m="$ws" '$1 == m { $1 = $2 = $3 = ""; print; exit }' "$tmp/$kind.$w")
		printf "%-10s %8ss %8sx %9ss %12ss  %s\n" "$w" "$ws" \
			"$(awk -v a="$ws" -v b="$base" 'BEGIN { printf "%.2f", a / b }')" "$cpu" "$sr" "$nums"
	done
}
if [[ " $parts " == *" syscalls "* ]]; then
	echo; echo "syscalls (getppid_loop $n timed; numbers: getppid calls; lat_sleep's clock_nanosleep calls and avg, 200 x 2ms)"
	report sc perf-prof pp-bpf perf-trace bpftrace
fi
if [[ " $parts " == *" rundelay "* ]]; then
	echo; echo "rundelay (perf bench sched pipe -l $n timed; numbers: lat_sleep's wakeups to switch-in and avg delay beside a spinner)"
	report rd pp-bpf pp-ring perf-sched bpftrace
fi
