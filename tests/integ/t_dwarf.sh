#!/usr/bin/env bash
# DWARF unwinding of user stacks (--call-graph dwarf) on the stack workloads
# of tests/work/stk: exact frame order and names, through libc (no frame
# pointers) down to main, C++ names, stripped binaries with debug files
# (.eh_frame and .debug_frame-only), a process gone before its stacks are
# printed, and kernel frames before user frames.
source "$(dirname "$0")/lib.sh"

EV=syscalls:sys_enter_getppid
for w in stk_fp stk_nofp stk_cxx stk_stripped stk_dbgframe stk_exit; do
	[ -x "$W/$w" ] || { skip "$w not built (make workloads)"; done_tests; exit; }
done

# trace OUT EVENT CG WORKLOAD ARGS...: names only, one frame a line
trace() {
	local out=$1 ev=$2 cg=$3; shift 3
	timeout 60 "$PP" trace -e "$ev" --call-graph "$cg" --no-addr --no-offset --no-dso \
		-- "$@" >"$out" 2>"$out.err"
}
# stacks FILE: one line per event, its frames joined by ';'
stacks() {
	awk '/^    / { sub(/^    /, ""); s = s (s == "" ? "" : ";") $0; next }
	     { if (n++) print s; s = "" } END { if (n) print s }' "$1"
}
# the first N frames of every event's stack, sorted and counted
heads() { stacks "$1" | cut -d';' -f1-"$2" | sort | uniq -c | sed 's/^ *//'; }

# 1. no frame pointers anywhere: DWARF reaches main through libc
trace "$T/nofp" "$EV" dwarf "$W/stk_nofp" 3
check_eq "stk_nofp dwarf: 3 stacks getppid<-lib_c<-lib_b<-stk_a<-main" "$(heads "$T/nofp" 5)" \
	"3 getppid;lib_c;lib_b;stk_a;main"
check_eq "stk_nofp dwarf: libc start code below main" \
	"$(stacks "$T/nofp" | head -n1 | cut -d';' -f5-)" \
	"main;__libc_start_call_main;__libc_start_main;_start"
# ... where frame pointers stop at once
trace "$T/nofp_fp" "$EV" fp "$W/stk_nofp" 1
check "stk_nofp fp: frame pointers do not reach main" \
	bash -c "! grep -qx '    main' '$T/nofp_fp' && grep -qx '    getppid' '$T/nofp_fp'"

# 2. frame-pointer build: DWARF finds lib_c, which the FP chain skips
trace "$T/fp" "$EV" dwarf "$W/stk_fp" 2
check_eq "stk_fp dwarf" "$(heads "$T/fp" 5)" "2 getppid;lib_c;lib_b;stk_a;main"
trace "$T/fp_fp" "$EV" fp "$W/stk_fp" 2
check_eq "stk_fp fp (getppid has no frame: lib_c skipped)" "$(heads "$T/fp_fp" 4)" \
	"2 getppid;lib_b;stk_a;main"

# 3. C++: namespaces and templates, demangled
trace "$T/cxx" "$EV" dwarf "$W/stk_cxx" 2
check_eq "stk_cxx dwarf" "$(heads "$T/cxx" 4)" \
	"2 getppid;ns::inner(int, char const*);ns::Outer<int>::run();main"

# 4. stripped, names and (stk_dbgframe) CFI only in the .debug file
trace "$T/strip" "$EV" dwarf "$W/stk_stripped" 2
check_eq "stk_stripped dwarf" "$(heads "$T/strip" 4)" "2 getppid;strip_b;strip_a;main"
trace "$T/dbgf" "$EV" dwarf "$W/stk_dbgframe" 2
check_eq "stk_dbgframe dwarf (.debug_frame in the debug file)" "$(heads "$T/dbgf" 4)" \
	"2 getppid;strip_b;strip_a;main"

# 5. the process exits at once; its stacks (library included) still resolve
trace "$T/exit" "$EV" dwarf "$W/stk_exit" 4
check_eq "stk_exit dwarf" "$(heads "$T/exit" 4)" "4 getppid;exit_b;exit_a;main"

# 6. a tiny stack copy ends the chain early, without garbage
trace "$T/small" "$EV" dwarf,8 "$W/stk_fp" 1
check_eq "dwarf,8: getppid and its caller only" "$(stacks "$T/small")" "getppid;lib_c"

# 7. the full line format, kernel frames first: an event inside the kernel
timeout 60 "$PP" trace -e sched:sched_process_exit --call-graph dwarf -- "$W/stk_exit" 1 \
	>"$T/kern" 2>"$T/kern.err"
check "frame lines are '    ADDR sym+0xOFF (dso)'" \
	bash -c "grep '^    ' '$T/kern' | grep -qvE '^    [0-9a-f]{16} [^ ].*\+0x[0-9a-f]+ \(.+\)\$' && exit 1 || exit 0"
kinds=$(grep '^    ' "$T/kern" | sed -E 's/.*\((.*)\)$/\1/' |
	awk '{ k = ($0 == "[kernel.kallsyms]") ? "K" : "U"; if (k != last) printf "%s", k; last = k }')
check_eq "kernel frames, then user frames" "$kinds" "KU"
names=$(grep '^    ' "$T/kern" | awk '{ print $2 }' | sed 's/+0x.*//' | paste -sd';')
check "kernel part from do_exit down to the syscall entry" \
	bash -c "grep -qE '(^|;)do_exit;.*do_syscall_64;entry_SYSCALL_64[a-z_]*;' <<<'$names'"
check "user part _exit<-main by DWARF" bash -c "grep -qE ';_exit;main;' <<<'$names'"

done_tests
