#!/usr/bin/env bash
# What is captured, not only what is printed: --kernel-stack/--user-stack and
# the original's --[no-]user-callchain/--[no-]kernel-callchain set the
# kernel's exclude_callchain_* bits and drop the DWARF stack copy (checked in
# the attr that -vv shows and in the frames that come back); --watermark sets
# the wakeup point; frame-pointer user stacks through code without frame
# pointers end where the walk leaves the executable mappings.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || { skip "needs root"; done_tests; exit; }
[ -x "$PP" ] || { echo "no binary $PP"; exit 1; }
[ -x "$W/stk_fp" ] || { echo "no workload $W/stk_fp (make workloads)"; exit 1; }

# attr OPTIONS...: the -vv line of sched:sched_switch's attr for task-state OPTIONS -- true
attr() {
	"$PP" task-state --no-bpf -vv "$@" -- true 2>&1 >/dev/null | grep '^perf-prof: event sched:sched_switch:'
}
has() { grep -qw -- "$2" <<<"$1" || { echo "  '$2' not in: $1"; false; }; }
hasnt() { ! grep -qw -- "$2" <<<"$1" || { echo "  '$2' in: $1"; false; }; }

a=$(attr -g)
check "-g: kernel and user frames captured" \
	has "$a" "exclude_callchain_user 0 exclude_callchain_kernel 0"
check "-g: CALLCHAIN sampled" has "$a" "sample_type TID|TIME|CALLCHAIN|CPU|RAW|IDENTIFIER"
for o in --kernel-stack --no-user-callchain; do
	a=$(attr -g $o)
	check "-g $o: user frames not captured" \
		has "$a" "exclude_callchain_user 1 exclude_callchain_kernel 0"
done
for o in --user-stack --no-kernel-callchain; do
	a=$(attr -g $o)
	check "-g $o: kernel frames not captured" \
		has "$a" "exclude_callchain_user 0 exclude_callchain_kernel 1"
done
a=$(attr --call-graph dwarf)
check "--call-graph dwarf: registers and 8192 stack bytes copied" has "$a" "sample_stack_user 8192"
check "--call-graph dwarf: REGS_USER|STACK_USER sampled" has "$a" "REGS_USER|STACK_USER"
a=$(attr --call-graph dwarf --kernel-stack)
check "--call-graph dwarf --kernel-stack: no user stack copy" has "$a" "sample_stack_user 0"
check "--call-graph dwarf --kernel-stack: no REGS_USER" hasnt "$a" "REGS_USER"
a=$(attr --user-callchain=dwarf,4096)
check "--user-callchain=dwarf,4096 is --call-graph dwarf,4096" has "$a" "sample_stack_user 4096"
a=$(attr -g --kernel-stack --user-callchain)
check "a later --user-callchain takes user frames back" has "$a" "exclude_callchain_user 0"
a=$(attr -g -m 64 --watermark 25)
check "--watermark 25 with -m 64: wake at 64 KiB" has "$a" "wakeup_watermark $((64 * 4096 / 4))"
a=$(attr -g --watermark 0)
check "--watermark 0: wake at every event" has "$a" "wakeup_events 1"

# usage errors: exit 2, one line naming the problem
usage() { # expected-text OPTIONS...
	local want=$1 rc; shift
	"$PP" task-state --no-bpf "$@" -- true >"$T/out" 2>"$T/err"; rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q -- "$want" "$T/err" ||
		{ echo "  rc $rc: $(cat "$T/err")"; false; }
}
check "--no-user-callchain without -g is a usage error" usage "add -g" --no-user-callchain
check "both halves excluded is a usage error" usage "no stack half left" \
	-g --no-user-callchain --no-kernel-callchain
check "--watermark 101 is a usage error" usage "bad --watermark" --watermark 101
check "--user-callchain=lbr is a usage error" usage "bad --call-graph" --user-callchain=lbr

# frames that come back: sched_process_exit has kernel frames (do_exit) under user ones (_exit)
frames() { # OPTIONS...: the first event's frames, "K name" or "U name" per line
	"$PP" trace -e sched:sched_process_exit "$@" --no-addr --no-offset -- true 2>/dev/null |
		awk '/^    / { k = ($NF == "([kernel.kallsyms])") ? "K" : "U"; print k, $1 }'
}
f=$(frames -g)
check "-g: kernel frames (do_exit) come back" grep -q '^K do_exit$' <<<"$f"
check "-g: user frames (_exit) come back" grep -q '^U _exit$' <<<"$f"
f=$(frames -g --no-user-callchain)
check "--no-user-callchain: kernel frames only" \
	test -n "$f" -a "$(grep -c '^U' <<<"$f")" -eq 0 -a "$(grep -c '^K do_exit$' <<<"$f")" -eq 1
f=$(frames -g --no-kernel-callchain)
check "--no-kernel-callchain: user frames only" \
	test -n "$f" -a "$(grep -c '^K' <<<"$f")" -eq 0 -a "$(grep -c '^U _exit$' <<<"$f")" -eq 1

# A frame-pointer walk out of Debian's libc (built without frame pointers):
# sleep 0.1 leaves 100000000 (its tv_nsec) in %rbp, which the kernel takes
# for a frame.  No "[unknown] ([unknown])" frame after clock_nanosleep.
"$PP" trace -e syscalls:sys_enter_clock_nanosleep -g --no-addr --no-offset -- sleep 0.1 \
	>"$T/ns" 2>/dev/null
check_eq "fp through libc: the user stack ends at clock_nanosleep" \
	"$(awk '/^    / { print $1, $2 }' "$T/ns" | paste -sd' ')" \
	"clock_nanosleep (/usr/lib/x86_64-linux-gnu/libc.so.6)"
# an FP-built program calling an FP-built library keeps its whole chain
"$PP" trace -e syscalls:sys_enter_getppid -g --no-addr --no-offset --no-dso -- "$W/stk_fp" \
	>"$T/fp" 2>/dev/null
check_eq "fp: a chain that stays in mapped code is kept whole" \
	"$(awk '/^    / { print $1 } /^[0-9]/ { if (n++) exit }' "$T/fp" | head -4 | paste -sd' ')" \
	"getppid lib_b stk_a main"

# --watermark 0 delivers every event
"$PP" trace -e syscalls:sys_enter_getppid --watermark 0 -o "$T/wm" -- "$W/getppid_loop" 200 \
	>/dev/null 2>&1
check_eq "--watermark 0: all 200 getppid events" "$(grep -c sys_enter_getppid "$T/wm")" 200

done_tests
