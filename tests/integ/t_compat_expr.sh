#!/usr/bin/env bash
# The original's expression language on a known workload (getppid_loop N:
# N getppid syscalls): C's pointer casts, sizeof, shifts of casts, ++ and
# assignments, the comma, comments, printf() byte for byte, system() once per
# event, 'help', out-of-record reads counted at exit, a [^...] glob left out
# of the kernel (which reads '^' as a member), new operators in -e filters
# (user space) and in top's key=.  Each case checks the printed values.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || { skip "needs root"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
G=$W/getppid_loop
[ -x "$G" ] || { skip "no workload $G (make workloads)"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/syscalls/sys_enter_getppid ] ||
	{ skip "no syscalls:sys_enter_getppid"; done_tests; exit; }
E=syscalls:sys_enter_getppid
N=50

# ex NAME EXPR: perf-prof expr over getppid_loop's N calls; $T/NAME, .err, .rc
ex() {
	"$PP" expr --order -e "$E" "$2" -- "$G" $N >"$T/$1" 2>"$T/$1.err"
	echo $? >"$T/$1.rc"
}
# values NAME: the " = VALUE" of each event line, ' '-separated
values() { sed -n "s/.* $E: .* = \(-\?[0-9]*\) (0x[0-9a-f]*)\$/\1/p" "$T/$1" | tr '\n' ' '; }
# the pid of the workload, from its event lines
wpid() { sed -n "s/.* getppid_loop *\([0-9]*\) \[[0-9]*\] $E: .*/\1/p" "$T/$1" | sort -u; }
clean() { # NAME: exit 0, nothing on stderr, N event lines
	check_eq "$1: exit 0" "$(cat "$T/$1.rc")" 0
	check_eq "$1: nothing on stderr" "$(cat "$T/$1.err")" ""
	check_eq "$1: $N events" "$(grep -c " $E: " "$T/$1")" $N
}
rep() { # VALUE: VALUE N times, ' '-separated
	local i s=
	for ((i = 0; i < N; i++)); do s+="$1 "; done
	echo "$s"
}

# *(unsigned int *)&pid == pid: the address of a field, read back through a cast
ex ptr '*(unsigned int *)&common_pid == common_pid'
clean ptr
check_eq "*(unsigned int *)&common_pid == common_pid" "$(values ptr)" "$(rep 1)"
ex ptr2 '*((unsigned char *)&common_pid + 1) == (common_pid >> 8 & 0xff)'
check_eq "a byte of common_pid through a char pointer" "$(values ptr2)" "$(rep 1)"

# sizeof of C types
ex size 'sizeof(long **) * 100 + sizeof(unsigned) * 10 + sizeof(char)'
clean size
check_eq "sizeof(long **) == 8, sizeof(unsigned) == 4, sizeof(char) == 1" "$(values size)" "$(rep 841)"

# a cast then a shift: the pid in the upper 32 bits
ex shift '(unsigned long)common_pid << 32'
clean shift
pid=$(wpid shift)
check_eq "(unsigned long)common_pid << 32" "$(values shift)" "$(rep $((pid << 32)))"

# ++ on a variable of the expression: kept from one event to the next
ex inc 'n++'
clean inc
check_eq "n++ counts the events from 0" "$(values inc)" "$(seq -s ' ' 0 $((N - 1))) "
ex dec '(--n)' # a leading '-' would read as an option
check_eq "(--n) counts down from -1" "$(values dec)" "$(seq -s ' ' -1 -1 -$N) "
# assignment, the comma, comments
ex assign 'x = common_pid, x * 2 # the rest is a comment'
clean assign
pid=$(wpid assign)
check_eq "x = common_pid, x * 2 # comment" "$(values assign)" "$(rep $((pid * 2)))"
ex cmt "common_pid - common_pid + 7 // a comment"
check_eq "// comment" "$(values cmt)" "$(rep 7)"

# printf: its text (before the event line) and its value, the bytes printed
ex pf 'printf("nr=%d pid=%-7d|%5s|%x\n", __syscall_nr, common_pid, "ab", 255)'
clean pf
pid=$(wpid pf)
line=$(printf 'nr=%d pid=%-7d|%5s|%x' 110 "$pid" ab 255)
check_eq "printf's lines, byte for byte" "$(grep -c "^$line\$" "$T/pf")" $N
check_eq "printf returns the bytes printed" "$(values pf)" "$(rep $((${#line} + 1)))"
check_eq "printf's text comes before its event's line" \
	"$(grep -A1 "^$line\$" "$T/pf" | grep -c " $E: ")" $N

# system: once per event, formatted
ex sys "system(\"echo %d >> $T/sys.out\", common_pid)"
clean sys
pid=$(wpid sys)
check_eq "system ran once per event" "$(wc -l <"$T/sys.out")" $N
check_eq "system's command was formatted" "$(sort -u "$T/sys.out")" "$pid"
check_eq "system returns the status" "$(values sys)" "$(rep 0)"

# out-of-record reads: 0, counted, one line at exit
ex fault '*(unsigned long *)0 + 1'
check_eq "fault: exit 0" "$(cat "$T/fault.rc")" 0
check_eq "fault: the reads give 0" "$(values fault)" "$(rep 1)"
check_eq "fault: one line on stderr" "$(wc -l <"$T/fault.err")" 1
check "fault: counts the $N reads" grep -q " $N reads outside the event" "$T/fault.err"

# help: the fields with their types, the variables, the functions; exit 0
"$PP" expr -e "$E" help >"$T/help" 2>"$T/help.err"
check_eq "help: exit 0" $? 0
check_eq "help: nothing on stderr" "$(cat "$T/help.err")" ""
check "help: a field and its type" grep -qE '^ +__syscall_nr +int$' "$T/help"
check "help: the variables" grep -qE '^ +_cpu ' "$T/help"
check "help: printf" grep -qF 'int printf(char *fmt, ...)' "$T/help"
check "help: system, with its privileges" grep -qF "perf-prof's own privileges" "$T/help"
check "help: exit_reason_str" grep -qF 'exit_reason_str(int isa, int val)' "$T/help"

# -e filters with the new operators run in user space with the same meaning
"$PP" trace -e "$E/*(unsigned int *)&common_pid == common_pid && n++ < 10/" -- "$G" $N \
	>"$T/tf" 2>"$T/tf.err"
check_eq "trace filter with & * ++: exit 0" $? 0
check_eq "trace filter with & * ++: the first 10 events" "$(grep -c " $E: " "$T/tf")" 10
# [^...]: not handed to the kernel, which reads '^' as a member of the class
"$PP" trace -e 'sched:sched_process_exit/comm ~ "[^g]etppid_loop"/' -- "$G" 5 >"$T/g1" 2>&1
check_eq "[^g]etppid_loop leaves getppid_loop out" "$(grep -c 'sched_process_exit: ' "$T/g1")" 0
"$PP" trace -e 'sched:sched_process_exit/comm ~ "[^x]etppid_loop"/' -- "$G" 5 >"$T/g2" 2>&1
check_eq "[^x]etppid_loop keeps it" "$(grep -c 'sched_process_exit: comm=getppid_loop' "$T/g2")" 1
"$PP" trace -e 'sched:sched_process_exit/comm ~ "[!g]etppid_loop"/' -- "$G" 5 >"$T/g3" 2>&1
check_eq "[!g]etppid_loop leaves it out too" "$(grep -c 'sched_process_exit: ' "$T/g3")" 0

# top: key= with a cast and a shift, one key per pid
"$PP" top -e "$E//key=(unsigned long)common_pid << 32/" -- "$G" $N >"$T/top" 2>"$T/top.err"
check_eq "top key=cast<<32: exit 0" $? 0
check_eq "top key=cast<<32: nothing on stderr" "$(cat "$T/top.err")" ""
k=$(awk '$1 ~ /^[0-9]+$/ && $2 == '$N' { print $1 }' "$T/top")
check "top key=cast<<32: the key is a pid << 32 with $N events" \
	test -n "$k" -a "$((k & 0xffffffff))" -eq 0 -a "$((k >> 32))" -gt 0
# top printkey=printf(...): what printf prints is the key's label
"$PP" top -e "$E//key=common_pid/printkey=printf(\"pid:%d\", common_pid)/" -- "$G" $N \
	>"$T/tpk" 2>"$T/tpk.err"
check_eq "top printkey=printf: exit 0" $? 0
check_eq "top printkey=printf: nothing on stderr" "$(cat "$T/tpk.err")" ""
check "top printkey=printf: the label is printf's text, $N events" \
	grep -qE "^pid:[0-9]+ +$N\$" "$T/tpk"
done_tests
