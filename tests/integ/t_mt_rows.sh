#!/bin/bash
# multi-trace row=EXPR/mark=EXPR: the pairs of two points split into rows by
# the value of row= at the start, mark= counted in a "marked" column.  This
# is kvm-exit's pairing on the BPF back end (rows by label: the exit reason
# and the guest-kernel mark kept with the start in the kernel), tested here
# on events that fire on every host: raw_syscalls:sys_enter => sys_exit
# of tests/work/getppid_loop N, keyed by its thread.  The row is shaped as
# kvm-exit's (an ISA above bit 32, the reason below): N pairs in the getppid
# row, all marked, none elsewhere; every row and count the same on the BPF
# back end (the default here) and the ring path (--no-bpf), --perins too.
# --than's slow pairs print under their row on both back ends (copied out
# of the kernel on BPF with the start's row).  Misplaced row=/mark= are
# usage errors.
. "$(dirname "$0")/lib.sh"

[ -x "$W/getppid_loop" ] && [ -x "$W/lat_sleep" ] || { skip "workload getppid_loop not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/raw_syscalls/sys_enter ] ||
	{ skip "no raw_syscalls tracepoints"; done_tests; exit; }
[ "$(uname -m)" = x86_64 ] || { skip "getppid's number is x86_64's (110)"; done_tests; exit; }

EN='raw_syscalls:sys_enter//row=(1 << 32) | (id & 0xffff)/mark=id == 110/'
EX=raw_syscalls:sys_exit
N=500
GETPPID=0x10000006e

# the rows of a table: label [key] calls marked, sorted
rows() { awk -v p="${2:-}" '$1 ~ /^(0x[0-9a-f]+|[0-9]+)$/ { print $1, (p ? $2 " " : "") $(p ? 3 : 2), $(NF - 1) }' "$1" | sort; }

# (probed on other tracepoints: see below)
bpf=1
bpf_ours multi-trace --bpf -e 'sched:sched_process_exec//row=1/' -e sched:sched_process_exit -- true || bpf=0
[ $bpf = 1 ] || skip "BPF back end: $(cat "$T/probe.err") (the default runs the ring path)"

# the ring path first: a BPF run's classic tracepoint programs stay attached
# while its events close in the background, and gate the tracepoint's
# samples for every perf user until then (README, "The BPF back end")
for be in --no-bpf ""; do
	n=${be:-default}
	"$PP" multi-trace $be -v -e "$EN" -e $EX -- "$W/getppid_loop" $N >"$T/o.$n" 2>"$T/e.$n"
	check_eq "$n: status 0, the workload's $N calls" "$?:$(grep -c "^done $N$" "$T/o.$n")" 0:1
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: on BPF" grep -q '^perf-prof multi-trace: the BPF back end: pairs timed in the kernel' "$T/e.$n"
	fi
	check_eq "$n: the title: row='s text, then a marked column" \
		"$(awk '/ calls / { print $1, $2, $3, $NF; exit }' "$T/o.$n")" "(1 << 32) marked"
	check_eq "$n: getppid's row: $N calls, all marked" "$(rows "$T/o.$n" | awk -v k=$GETPPID '$1 == k')" \
		"$GETPPID $N $N"
	check_eq "$n: no other row marked" "$(rows "$T/o.$n" | awk -v k=$GETPPID '$1 != k && $3 != 0')" ""
	check_range "$n: the workload's other syscalls" "$(rows "$T/o.$n" | grep -c -v "^$GETPPID ")" 3 100
	"$PP" multi-trace $be --perins -e "$EN" -e $EX -- "$W/getppid_loop" $N >"$T/p.$n" 2>&1
	check_eq "$n: --perins: getppid's row under one thread" \
		"$(rows "$T/p.$n" 1 | awk -v k=$GETPPID '$1 == k { print $3, $4 }')" "$N $N"
	# --than: the slow pairs copied out of the kernel with their row (3 sleeps of 30 ms)
	"$PP" multi-trace $be -e 'raw_syscalls:sys_enter//row=(1 << 32) | id/mark=id == 230/' -e $EX \
		--than 15ms -v -- "$W/lat_sleep" 20 2 0 3 30 >"$T/s.$n" 2>"$T/se.$n"
	if [ -z "$be" ] && [ $bpf = 1 ]; then
		check "$n: --than: on BPF" grep -q '^perf-prof multi-trace: the BPF back end: pairs timed in the kernel' "$T/se.$n"
	fi
	over=$(awk '$1 == "0x1000000e6" && $2 ~ /^[0-9]+$/ { print $(NF - 3) }' "$T/s.$n")
	check_range "$n: --than: the >15ms column counts the slow ones (and any a busy host slowed)" \
		"$over" 3 20
	check_eq "$n: --than: as many slow nanosleeps printed under their row, each with both events" \
		"$(grep -c '^0x1000000e6: [0-9.]*ms key [0-9]*$' "$T/s.$n"):$(grep -c 'raw_syscalls:sys_e[a-z]*: NR 230' "$T/s.$n")" \
		"${over:-0}:$((2 * ${over:-0}))"
	check_eq "$n: --than: the nanosleep row: 20 calls, all marked" \
		"$(awk '$1 == "0x1000000e6" && $2 ~ /^[0-9]+$/ { print $2, $(NF - 1) }' "$T/s.$n")" "20 20"
	# a value that fits 32 bits prints in decimal
	"$PP" multi-trace $be -e 'raw_syscalls:sys_enter//row=id/' -e $EX -- "$W/getppid_loop" $N >"$T/d.$n" 2>&1
	check_eq "$n: row=id: getppid's row is 110, no marked column" \
		"$(awk '$1 == 110 { print $2 }' "$T/d.$n"):$(grep -c marked "$T/d.$n")" "$N:0"
done
if [ $bpf = 1 ]; then
	check_eq "every row the same on both back ends" "$(rows "$T/o.default")" "$(rows "$T/o.--no-bpf")"
	check_eq "--than: the slow lines' rows the same on both back ends" \
		"$(grep -o '^0x[0-9a-f]*: ' "$T/s.default" | sort | uniq -c)" "$(grep -o '^0x[0-9a-f]*: ' "$T/s.--no-bpf" | sort | uniq -c)"
	check_eq "--perins: every row the same on both back ends" \
		"$(rows "$T/p.default" 1 | cut -d' ' -f1,3-)" "$(rows "$T/p.--no-bpf" 1 | cut -d' ' -f1,3-)"
fi

# bad input: one line, status 2
one() { # description args...
	local d=$1
	shift
	"$PP" "$@" -- true >"$T/x.out" 2>"$T/x.err"
	check_eq "$d: status 2, one line, nothing on stdout" \
		"$?:$(wc -l <"$T/x.err"):$(wc -c <"$T/x.out")" "2:1:0"
}
one "row= on the second point" multi-trace -e $EX -e 'raw_syscalls:sys_enter//row=id/'
check_eq "row= on the second point: says where it belongs" "$(cat "$T/x.err")" \
	"perf-prof multi-trace: 'raw_syscalls:sys_enter//row=id/': row= and mark= belong to the events that open a pair (the first -e)"
one "row= with three points" multi-trace -e 'raw_syscalls:sys_enter//row=id/' -e $EX -e sched:sched_switch
check_eq "row= with three points: says why" "$(cat "$T/x.err")" \
	"perf-prof multi-trace: 'raw_syscalls:sys_enter//row=id/': row= and mark= split the pairs of two points (two -e, no --cycle)"
one "mark= with --cycle" multi-trace -e 'raw_syscalls:sys_enter//mark=1/' -e $EX --cycle
"$PP" multi-trace -e 'raw_syscalls:sys_enter//row=nosuch/' -e $EX -- true >"$T/x.out" 2>"$T/x.err"
check_eq "row= of a field that is not there: status 2, as key= says it (the text under a caret)" \
	"$?:$(head -1 "$T/x.err")" "2:perf-prof multi-trace: bad row= on raw_syscalls:sys_enter: expr: unknown field 'nosuch'"
one "mpdelay takes no row=" mpdelay -e 'raw_syscalls:sys_enter//row=id/,raw_syscalls:sys_exit'

done_tests
