#!/usr/bin/env bash
# The original's spellings about task names: `key` in top's printkey= (the
# row's key, e.g. printkey=printf("%d %s", key, comm_get(key))), a number or
# a string key; and kernel threads named, never "<...>", in a system-wide
# trace -g --call-graph dwarf of their wakeups.  Each case checks the names
# and numbers printed, stderr empty, exit 0.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || { skip "needs root"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
G=$W/getppid_loop
[ -x "$G" ] || { skip "no workload $G (make workloads)"; done_tests; exit; }

# clean NAME: exit 0 and nothing on stderr ($T/NAME.rc, $T/NAME.err)
clean() {
	check_eq "$1: exit 0" "$(cat "$T/$1.rc")" 0
	check_eq "$1: nothing on stderr" "$(cat "$T/$1.err")" ""
}
# top NAME ARGS...: perf-prof top ARGS; $T/NAME, .err, .rc
top() {
	local n=$1
	shift
	"$PP" top "$@" >"$T/$n" 2>"$T/$n.err"
	echo $? >"$T/$n.rc"
}

# printkey's `key`: the row's key.  top-add= sums the same pid, so the row's
# sum is (events) x (the pid printkey printed): the key printed is the pid.
if [ -d /sys/kernel/tracing/events/syscalls/sys_enter_getppid ]; then
	E=syscalls:sys_enter_getppid
	N=50
	top pk "-e" "$E//key=common_pid/printkey=printf(\"%d %s\", key, comm_get(key))/top-add=common_pid/" \
		-- "$G" $N
	clean pk
	read -r p c sum < <(grep -E '^[0-9]+ ' "$T/pk")
	check_eq "printkey key, comm_get(key): the comm of the key" "$c" getppid_loop
	check "printkey key: the key printed is the pid of the row's $N events ($p x $N = $sum)" \
		test -n "$p" -a "${sum:-x}" = "$((${p:-0} * N))"
	# the original's composite key: key>>32 and (int)key
	top pk2 -e "$E//key=((unsigned long)common_pid<<32)|7/printkey=printf(\"%d:%d\", key>>32, (int)key)/top-add=common_pid/" \
		-- "$G" $N
	clean pk2
	read -r l sum < <(grep -E '^[0-9]+:' "$T/pk2")
	p=${l%%:*}
	check "printkey key>>32, (int)key: PID:7 ($l, sum $sum)" \
		test -n "$p" -a "$l" = "$p:7" -a "${sum:-x}" = "$((${p:-0} * N))"
else
	skip "no syscalls:sys_enter_getppid"
fi
# the brief's line: sched_switch keyed by prev_pid, printkey with key and comm_get(key)
top sw -e 'sched:sched_switch//key=prev_pid/printkey=printf("%d %s", key, comm_get(key))/top-add=prev_pid/' \
	-- "$G" 3 100
clean sw
read -r p c sum < <(grep -E '^[0-9]+ getppid_loop ' "$T/sw")
check "sched_switch printkey: PID getppid_loop, the sum a multiple of PID ($p, $sum)" \
	test -n "$p" -a -n "$sum" -a "$((${sum:-1} % ${p:-1}))" = 0 -a "${sum:-0}" -gt 0
# a string key: key is the comm
top swc -e 'sched:sched_switch//key=prev_comm/printkey=printf("<%s>", key)/' -- "$G" 3 100
clean swc
check "printkey on a string key: <getppid_loop>" grep -qE '^<getppid_loop> +[0-9]+$' "$T/swc"
# --only-comm: the key is the comm
top swo -e 'sched:sched_switch//printkey=printf("[%s]", key)/' --only-comm -- "$G" 3 100
clean swo
check "printkey with --only-comm: [getppid_loop]" grep -qE '^\[getppid_loop\] +[0-9]+$' "$T/swo"
# no key=: the key is the thread, its comm in the COMM column
top swt -e 'sched:sched_switch//printkey=printf("tid %d", key)/' -- "$G" 3 100
clean swt
check "printkey on thread keys: tid TID getppid_loop" \
	grep -qE '^tid [0-9]+ +getppid_loop +[0-9]+$' "$T/swt"
# 'help' lists key
"$PP" expr -e sched:sched_switch help >"$T/help" 2>&1
check "expr help lists key for printkey=" grep -q '^    key .*printkey=' "$T/help"
# key is printkey's only: elsewhere an unknown field as before
top bad -e 'sched:sched_switch//key=key/' -- "$G" 1
check_eq "key= cannot read key: exit 2" "$(cat "$T/bad.rc")" 2
check "key= cannot read key: unknown field 'key'" grep -q "unknown field 'key'" "$T/bad.err"
check_eq "key= cannot read key: one line and its caret" "$(wc -l <"$T/bad.err")" 3
# a string key cannot change
top bad2 -e 'sched:sched_switch//key=prev_comm/printkey=key++/' -- "$G" 1
check_eq "printkey=key++ on a string key: exit 2" "$(cat "$T/bad2.rc")" 2
check "printkey=key++ on a string key: said so" \
	grep -q "bad printkey= on sched:sched_switch: expr: '++' on key: the key is a string here" \
	"$T/bad2.err"
check_eq "printkey=key++ on a string key: nothing on stdout" "$(cat "$T/bad2")" ""

# Kernel threads and short-lived tasks are named, never "<...>": wake_names
# N times forks on CPU 1 a child that names itself "short_waker" there, then
# wakes the main thread on CPU 0 and exits at once; the main thread's moves
# from CPU 0 make the stopper migration/0 run.  -C 0: the child's FORK and
# COMM happen on a CPU not monitored (before: its wakeups printed "<...>").
WN=$W/wake_names
if [ ! -x "$WN" ]; then
	skip "no workload $WN (make workloads)"
elif [ ! -d /sys/devices/system/cpu/cpu1 ] ||
	[ "$(cat /sys/devices/system/cpu/cpu1/online 2>/dev/null || echo 1)" != 1 ]; then
	skip "CPU 1 is not online"
else
	N=20
	# names RUN EVENT: the task column of RUN's EVENT lines, "NAME COUNT ..."
	names() { awk -v e=" $2: " 'index($0, e) { print $3 }' "$T/$1" | sort | uniq -c |
		awk '{ printf "%s %s ", $2, $1 }'; }
	# lines RUN EVENT NAME: how many of RUN's EVENT lines have NAME as their task
	lines() { awk -v e=" $2: " -v n="$3" 'index($0, e) && $3 == n' "$T/$1" | wc -l; }
	all=$(cat /sys/devices/system/cpu/online)
	for run in "kt0:0" "ktall:$all"; do
		n=${run%%:*} cpus=${run#*:}
		"$PP" trace -C "$cpus" -e 'sched:sched_wakeup/comm=="wake_names"/' -g \
			--call-graph dwarf -- "$WN" $N >"$T/$n" 2>"$T/$n.err"
		echo $? >"$T/$n.rc"
		clean "$n"
		got=$(names "$n" sched:sched_wakeup)
		check_eq "$n (-C $cpus): no <...> among the wakers ($got)" \
			"$(lines "$n" sched:sched_wakeup "<...>")" 0
		check "$n: short_waker, forked and named on CPU 1, woke it ($got)" \
			test "$(lines "$n" sched:sched_wakeup short_waker)" -ge 1
	done
	# the kernel thread as the task of its own events: migration/0 switching out
	"$PP" trace -C 0 -e 'sched:sched_switch/prev_comm ~ "migration/*"/' -g --call-graph dwarf \
		-- "$WN" $N >"$T/mig" 2>"$T/mig.err"
	echo $? >"$T/mig.rc"
	clean mig
	got=$(names mig sched:sched_switch)
	check "migration/0 printed as itself, once per move at least ($got)" \
		test "$(lines mig sched:sched_switch migration/0)" -ge $N
	check_eq "migration/0 switching out: every line is migration/0 ($got)" \
		"$(lines mig sched:sched_switch migration/0)" \
		"$(grep -c ' sched:sched_switch: ' "$T/mig")"
fi

done_tests
