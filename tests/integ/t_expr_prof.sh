#!/bin/bash
# expr against tests/work/write_n (write(fd, buf, n) for n = 1..100): each
# event prints as trace prints it, then "= VALUE": the values of a signed
# narrow cast, of a 64-bit unsigned wrap, and of a string are checked for
# all 100 events; errors are usage errors with a caret.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || { skip "needs root"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -x "$W/write_n" ] || { skip "workload write_n not built (make workloads)"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/syscalls/sys_enter_write ] ||
	{ skip "no syscalls:sys_enter_write tracepoint"; done_tests; exit; }
E=syscalls:sys_enter_write

# run_expr OUT EXPR: expr over write_n's 100 writes; OUT, OUT.err, OUT.rc
run_expr() {
	on_writes "$1" expr "$2"
	echo "$WRITER" >>"$T/pids"
}

# (s8)(count + 120): 121..127, then -128.. (wraps at 128)
run_expr "$T/a" '(s8)(count + 120)'
check_eq "exit status" "$(cat "$T/a.rc")" 0
check_eq "100 lines" "$(grep -c " $E: .* = " "$T/a")" 100
check_eq "lines are trace's, then = VALUE" \
	"$(grep -c "^.* write_n *[0-9]* \[[0-9]*\] $E: fd: 0x.*count: 0x[0-9a-f]* = -\?[0-9]* (0x[0-9a-f]*)\$" "$T/a")" 100
want=$(awk 'BEGIN { for (n = 1; n <= 100; n++) { v = (n + 120) % 256; if (v > 127) v -= 256; printf "%d ", v } }')
check_eq "signed 8-bit values" "$(sed -n 's/.* = \(-\?[0-9]*\) (0x[0-9a-f]*)$/\1/p' "$T/a" | tr '\n' ' ')" "$want"
check "a negative value's hex is its 64 bits" grep -q ' = -128 (0xffffffffffffff80)$' "$T/a"

# (u64)0 - count wraps: 2^64 - n
run_expr "$T/b" '(u64)0 - count'
check_eq "unsigned wrap: first" "$(sed -n '1s/.* = \([0-9]*\) .*/\1/p' "$T/b")" 18446744073709551615
check_eq "unsigned wrap: last" "$(sed -n '100s/.* = \([0-9]*\) (\(0x[0-9a-f]*\))$/\1 \2/p' "$T/b")" \
	"18446744073709551516 0xffffffffffffff9c"

# a string: the comm cache's name of the writer
run_expr "$T/c" 'comm_get(common_pid)'
check_eq "strings in quotes" "$(grep -c ' = "write_n"$' "$T/c")" 100

# usage errors
"$PP" expr -e "$E" 'count +' >"$T/e1" 2>&1
check_eq "a syntax error exits 2" $? 2
check "the error has a caret" grep -q '^ *\^$' "$T/e1"
"$PP" expr -e "$E" >"$T/e2" 2>&1
check_eq "no expression exits 2" $? 2
check "no expression says so" grep -q "no expression" "$T/e2"
"$PP" expr -e "$E" 'count' 'fd' >"$T/e3" 2>&1
check_eq "two expressions exit 2" $? 2
"$PP" expr 'count' >"$T/e4" 2>&1
check_eq "no events exits 2" $? 2
gone() { local p; for p in $(cat "$T/pids"); do ! kill -0 "$p" 2>/dev/null || return 1; done; }
check "no workload left behind" gone
done_tests
