#!/usr/bin/env bash
# Stacks printed by `trace -g` / `--call-graph dwarf`: exact frame order and
# names for the workloads of tests/work/stk (see the expectations in their
# sources), kernel frames first, the print options, stripped binaries with
# debug files, C++ names, and a process that exits before its stacks print.
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -x "$W/stk_fp" ] || { skip "stack workloads not built (make workloads)"; done_tests; exit; }

# stack_of OUT: the frames of the first event in OUT, one per line, indent removed
first_stack() { awk '/^    / { if (seen == 1) { sub(/^    /, ""); print } ; next } { seen++ }' "$1"; }
# frames EVENT MODE CMD...: the names (no address/offset/dso) of the first stack
frames() {
	local ev=$1 mode=$2; shift 2
	timeout 60 "$PP" trace -e "$ev" $mode --no-addr --no-offset --no-dso -- "$@" \
		>"$T/out" 2>"$T/err"
	first_stack "$T/out"
}
# user_prefix N: the first N frames joined by " | "
prefix() { head -n "$1" | paste -sd'|' | sed 's/|/ | /g'; }

GP=syscalls:sys_enter_getppid

# --- frame pointers -----------------------------------------------------------
check_eq "fp: stk_fp (lib_c has no frame of its own)" \
	"$(frames $GP -g "$W/stk_fp" | prefix 4)" "getppid | lib_b | stk_a | main"
check_eq "fp: C++ names demangled" \
	"$(frames $GP -g "$W/stk_cxx" | prefix 3)" "getppid | ns::Outer<int>::run() | main"
check_eq "fp: stripped binary named from its debug file" \
	"$(frames $GP -g "$W/stk_stripped" | prefix 3)" "getppid | strip_a | main"

# --- DWARF ----------------------------------------------------------------------
if timeout 30 "$PP" trace -e $GP --call-graph dwarf -- "$W/stk_fp" >/dev/null 2>&1; then
	check_eq "dwarf: stk_fp reaches main through lib_c" \
		"$(frames $GP '--call-graph dwarf' "$W/stk_fp" | prefix 5)" \
		"getppid | lib_c | lib_b | stk_a | main"
	check_eq "dwarf: stk_nofp (no frame pointers anywhere)" \
		"$(frames $GP '--call-graph dwarf' "$W/stk_nofp" | prefix 5)" \
		"getppid | lib_c | lib_b | stk_a | main"
	check_eq "dwarf: C++" \
		"$(frames $GP '--call-graph dwarf' "$W/stk_cxx" | prefix 4)" \
		"getppid | ns::inner(int, char const*) | ns::Outer<int>::run() | main"
	check_eq "dwarf: CFI and names only in the debug file" \
		"$(frames $GP '--call-graph dwarf' "$W/stk_dbgframe" | prefix 4)" \
		"getppid | strip_b | strip_a | main"
	check_eq "dwarf: process that exited before printing" \
		"$(frames $GP '--call-graph dwarf --order' "$W/stk_exit" | prefix 4)" \
		"getppid | exit_b | exit_a | main"
	frames $GP '--call-graph dwarf' "$W/stk_fp" >"$T/f"
	check "dwarf: libc start code below main" grep -q '^__libc_start' "$T/f"
else
	skip "--call-graph dwarf does not run here"
fi
check_eq "fp: process that exited before printing" \
	"$(frames $GP '-g --order' "$W/stk_exit" | prefix 3)" "getppid | exit_a | main"

# --- kernel frames and the line format --------------------------------------------
timeout 60 "$PP" trace -e sched:sched_process_fork -g -- sh -c '/bin/true; /bin/true' \
	>"$T/out" 2>"$T/err"
first_stack "$T/out" >"$T/k"
check "format: ADDR sym+0xOFF (dso) on every line" \
	bash -c "test -s '$T/k' && ! grep -Ev '^[0-9a-f]{16} [^ ].*\+0x[0-9a-f]+ \(.+\)\$' '$T/k'"
kern_last=$(grep -n '(\[kernel.kallsyms\])$' "$T/k" | tail -n1 | cut -d: -f1)
user_first=$(grep -vn '(\[kernel.kallsyms\])$' "$T/k" | head -n1 | cut -d: -f1)
check "kernel frames first, then user frames" \
	test -n "$kern_last" -a -n "$user_first" -a "${kern_last:-0}" -lt "${user_first:-0}"
check "kernel: kernel_clone on the stack" grep -q ' kernel_clone+0x' "$T/k"
check "kernel: ends in the syscall entry" \
	bash -c "grep '(\[kernel.kallsyms\])\$' '$T/k' | tail -n1 | grep -q ' entry_SYSCALL_64'"

# --- print options ------------------------------------------------------------------
t() { timeout 60 "$PP" trace -e sched:sched_process_fork -g "$@" -- sh -c '/bin/true' \
	>"$T/o" 2>/dev/null; first_stack "$T/o"; }
t --user-stack >"$T/u"
check "--user-stack: no kernel frames" bash -c "! grep -q kallsyms '$T/u' && test -s '$T/u'"
t --kernel-stack >"$T/kk"
check "--kernel-stack: only kernel frames" \
	bash -c "test -s '$T/kk' && ! grep -vq '(\[kernel.kallsyms\])\$' '$T/kk'"
t --kernel-stack --no-addr --no-offset --no-dso >"$T/n"
check "--no-addr --no-offset --no-dso: bare names" \
	bash -c "test -s '$T/n' && ! grep -Eq '(\+0x|\(|^[0-9a-f]{16} )' '$T/n'"
t --kernel-stack --no-addr --no-offset --no-dso --reverse-stack >"$T/r"
check_eq "--reverse-stack: root first" "$(tac "$T/r" | paste -sd,)" "$(paste -sd, "$T/n")"
done_tests
