#!/usr/bin/env bash
# trace's compiled printer (src/engine/fastprint.c) against libtraceevent's
# (PERF_PROF_SLOWPRINT=1): exact payloads of syscalls with known arguments in
# both modes, and for busy events that cannot be replayed, the same lines
# (counts, field names, value shapes) in both.  Byte equality on random
# records of every tracepoint is tests/unit/test_fastprint.c's job.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || { skip "needs root"; done_tests; exit; }
[ -x "$PP" ] || { echo "no binary $PP"; exit 1; }
[ -x "$W/lseek_loop" ] || { echo "no workload $W/lseek_loop (make workloads)"; exit 1; }

# payload of trace lines: everything after "sys:name: "
payload() { sed -E 's/^.*\] [^ ]+: //' "$@"; }
# every line of FILE matching EVENT has payload matching ERE
all_match() { # FILE EVENT ERE
	local n bad
	n=$(grep -c " $2: " "$1")
	bad=$(grep " $2: " "$1" | payload | grep -cvE "$3")
	[ "$n" -gt 0 ] && [ "$bad" -eq 0 ] || { echo "  $2: $bad of $n lines do not match"; \
		grep " $2: " "$1" | payload | grep -vE "$3" | head -3; false; }
}
# field names of each line per event, e.g. "sched:sched_wakeup comm= pid= prio= target_cpu="
shapes() { sed -E 's/^.*\] ([^ ]+): (.*)$/\1 \2/' "$1" | awk '{
	s = $1; for (i = 2; i <= NF; i++) if (match($i, /^[a-z_]+=/)) s = s " " substr($i, 1, RLENGTH)
	print s }' | sort -u; }

lseek_ev='syscalls:sys_enter_lseek,syscalls:sys_exit_lseek,raw_syscalls:sys_enter/id==8/'
for mode in fast slow; do
	env=()
	[ $mode = slow ] && env=(PERF_PROF_SLOWPRINT=1)
	env "${env[@]}" "$PP" trace -e "$lseek_ev" -o "$T/$mode.lseek" -- "$W/lseek_loop" 500 \
		>/dev/null 2>"$T/err"
	check_eq "$mode: sys_enter_lseek lines" "$(grep -c ' syscalls:sys_enter_lseek: ' "$T/$mode.lseek")" 500
	check_eq "$mode: sys_exit_lseek lines" "$(grep -c ' syscalls:sys_exit_lseek: ' "$T/$mode.lseek")" 500
	check_eq "$mode: raw_syscalls:sys_enter lines" \
		"$(grep -c ' raw_syscalls:sys_enter: ' "$T/$mode.lseek")" 500
	check "$mode: sys_enter_lseek payload 'fd: 0x00003039, offset: 0x00010932, whence: 0x00000002'" \
		all_match "$T/$mode.lseek" syscalls:sys_enter_lseek \
		'^fd: 0x00003039, offset: 0x00010932, whence: 0x00000002$'
	check "$mode: sys_exit_lseek payload -EBADF as 0xfffffffffffffff7" \
		all_match "$T/$mode.lseek" syscalls:sys_exit_lseek '^0xfffffffffffffff7$'
	check "$mode: raw_syscalls:sys_enter payload 'NR 8 (3039, 10932, 2, ...)'" \
		all_match "$T/$mode.lseek" raw_syscalls:sys_enter \
		'^NR 8 \(3039, 10932, 2, [0-9a-f]+, [0-9a-f]+, [0-9a-f]+\)$'
done
check "lseek payloads identical in both modes (sys_enter_lseek, sys_exit_lseek)" \
	cmp -s <(grep ' syscalls:sys_e[nx]' "$T/fast.lseek" | payload) \
	<(grep ' syscalls:sys_e[nx]' "$T/slow.lseek" | payload)

# sched_switch of a context-switch-heavy workload, 2000 lines each way
if command -v perf >/dev/null; then
	sw='^prev_comm=.+ prev_pid=[0-9]+ prev_prio=-?[0-9]+ prev_state=(R|[SDTtXZPI](\|[SDTtXZPI])*)\+? ==> next_comm=.+ next_pid=[0-9]+ next_prio=-?[0-9]+$'
	for mode in fast slow; do
		env=()
		[ $mode = slow ] && env=(PERF_PROF_SLOWPRINT=1)
		env "${env[@]}" "$PP" trace -e sched:sched_switch -N 2000 -o "$T/$mode.sw" -- \
			perf bench sched pipe -l 20000 >/dev/null 2>"$T/err"
		check_eq "$mode: sched_switch -N 2000 lines" "$(wc -l <"$T/$mode.sw")" 2000
		check "$mode: every sched_switch line has the kernel's fields and value shapes" \
			all_match "$T/$mode.sw" sched:sched_switch "$sw"
		check "$mode: the workload's threads appear as prev_comm=sched-pipe" \
			grep -q 'prev_comm=sched-pipe prev_pid=' "$T/$mode.sw"
		check "$mode: sleeping prev_state=S present" grep -q ' prev_state=S ==> ' "$T/$mode.sw"
	done
	check "sched_switch: same line shapes both modes" \
		cmp -s <(shapes "$T/fast.sw") <(shapes "$T/slow.sw")

	# other busy events, system-wide while the pipe benchmark runs
	spawn bg perf bench sched pipe -l 400000 >/dev/null 2>&1
	ev='sched:sched_wakeup,sched:sched_waking,timer:hrtimer_cancel,timer:hrtimer_expire_exit'
	for mode in fast slow; do
		env=()
		[ $mode = slow ] && env=(PERF_PROF_SLOWPRINT=1)
		env "${env[@]}" timeout 20 "$PP" trace -e "$ev" -N 3000 -o "$T/$mode.busy" \
			>/dev/null 2>"$T/err"
		check_eq "$mode: busy events -N 3000 lines" "$(wc -l <"$T/$mode.busy")" 3000
		check "$mode: sched_wakeup 'comm=... pid=N prio=N target_cpu=NNN'" \
			all_match "$T/$mode.busy" sched:sched_wakeup \
			'^comm=.+ pid=[0-9]+ prio=-?[0-9]+ target_cpu=[0-9]{3}$'
		# on its own: among 3000 busy events there may be none
		env "${env[@]}" timeout 20 "$PP" trace -e timer:hrtimer_cancel -N 200 \
			-o "$T/$mode.hr" >/dev/null 2>"$T/err"
		check "$mode: hrtimer_cancel 'hrtimer=0x...'" \
			all_match "$T/$mode.hr" timer:hrtimer_cancel '^hrtimer=0x[0-9a-f]+$'
	done
	reap "$bg"
	# the runs see different events: compare the events both saw
	common=$(comm -12 <(shapes "$T/fast.busy" | cut -d' ' -f1 | sort -u) \
		<(shapes "$T/slow.busy" | cut -d' ' -f1 | sort -u) | paste -sd'|')
	check "busy events seen both ways ($common)" test -n "$common"
	check "busy events: same line shapes both modes" \
		cmp -s <(shapes "$T/fast.busy" | grep -E "^($common) ") \
		<(shapes "$T/slow.busy" | grep -E "^($common) ")
else
	skip "sched_switch and busy events: needs perf (perf bench sched pipe)"
fi
done_tests
