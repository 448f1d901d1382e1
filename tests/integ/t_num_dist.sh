#!/bin/bash
# num-dist against tests/work/write_n.c, which calls write(fd, buf, n) for
# n = 1..100 on /dev/null: the distribution of count is known exactly
# (calls 100, total 5050, min 1, max 100, p50 50, log2 slots 1,2,4,...,37),
# --than 90 prints the 10 writes of 91..100, a filter the kernel refuses
# (count>fd) runs in user space with exact counts, and bad num= expressions
# are usage errors.
. "$(dirname "$0")/lib.sh"

[ -x "$W/write_n" ] || { skip "workload write_n not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/syscalls/sys_enter_write ] ||
	{ skip "no syscalls:sys_enter_write tracepoint"; done_tests; exit; }

# field N of the table row whose first column is KEY
row() { awk -v k="$2" -v n="$3" '$1 == k { print $n; exit }' "$1"; }

# run_nd OUT ARGS...: the workload waits on a fifo with its fd open and its pid
# known; num-dist (ARGS, where PID and FD stand for its pid and fd) filters on both, and
# the writes start once it says it is monitoring.  Leaves OUT (stdout),
# OUT.err, OUT.rc.
run_nd() {
	local out=$1 w p i pid fd a args=()
	shift
	mkfifo "$out.fifo"
	rm -f "$out.wl" # not an earlier run's lines
	spawn w "$W/write_n" "$out.fifo" >"$out.wl"
	for ((i = 0; i < 100; i++)); do
		grep -q '^pid=' "$out.wl" && break
		sleep 0.1
	done
	pid=$(grep -o 'pid=[0-9]*' "$out.wl" | cut -d= -f2)
	fd=$(grep -o 'fd=[0-9]*' "$out.wl" | cut -d= -f2)
	for a in "$@"; do a=${a//PID/$pid}; args+=("${a//FD/$fd}"); done
	rm -f "$out.err" # not an earlier run's "monitoring"
	"$PP" num-dist -v $BK "${args[@]}" >"$out" 2>"$out.err" &
	p=$!
	for ((i = 0; i < 600; i++)); do
		grep -q '^perf-prof: monitoring: [0-9]* events enabled' "$out.err" && break
		kill -0 $p 2>/dev/null || break
		sleep 0.1
	done
	echo go >"$out.fifo"
	wait "$w"
	kill -INT $p 2>/dev/null
	wait $p
	echo $? >"$out.rc"
	reap "$w"
	echo "$w" >>"$T/pids"
}

EV='syscalls:sys_enter_write/fd==FD && common_pid==PID/num=count/'
E=syscalls:sys_enter_write

# the checks, on each back end: the kernel's maps (BPF, the default where the
# host has it) and the ring path (--no-bpf); -v says which ran
suite() {
bk=$1
BK=$2
# the statistics and the histogram
run_nd "$T/$bk.a" -e "$EV" --hist
check_eq "[$bk] exit status" "$(cat "$T/$bk.a.rc")" 0
check "[$bk] workload ran to its end" grep -q '^done 100' "$T/$bk.a.wl"
check_eq "[$bk] calls" "$(row "$T/$bk.a" $E 2)" 100
check_eq "[$bk] total" "$(row "$T/$bk.a" $E 3)" 5050
check_eq "[$bk] min" "$(row "$T/$bk.a" $E 4)" 1
check_eq "[$bk] avg" "$(row "$T/$bk.a" $E 5)" 50.50
# the histogram's stated error: 2^-7 of the value
check_range "[$bk] p50 within 0.8% of 50" "$(row "$T/$bk.a" $E 6)" 49.6 50.4
check_range "[$bk] p95 within 0.8% of 95" "$(row "$T/$bk.a" $E 7)" 94.2 95.8
check_range "[$bk] p99 within 0.8% of 99" "$(row "$T/$bk.a" $E 8)" 98.2 99.8
check_eq "[$bk] max" "$(row "$T/$bk.a" $E 9)" 100
check_eq "[$bk] histogram lines sum to 100" \
	"$(awk '$2 == "->" && $4 == ":" { n += $5 } END { print n }' "$T/$bk.a")" 100
check_eq "[$bk] histogram slots 1,2,4,...,32,37" \
	"$(awk '$2 == "->" { printf "%s-%s:%s ", $1, $3, $5 }' "$T/$bk.a")" \
	"0-1:1 2-3:2 4-7:4 8-15:8 16-31:16 32-63:32 64-127:37 "

# --than: the events above N, as trace prints them, with num=
run_nd "$T/$bk.b" -e "$EV" --than 90
check_eq "[$bk] --than exit status" "$(cat "$T/$bk.b.rc")" 0
check_eq "[$bk] --than 90 prints 10 lines" "$(grep -c " $E: .* num=[0-9]*$" "$T/$bk.b")" 10
check_eq "[$bk] --than lines carry 91..100" \
	"$(grep -o ' num=[0-9]*$' "$T/$bk.b" | cut -d= -f2 | tr '\n' ' ')" \
	"91 92 93 94 95 96 97 98 99 100 "
check "[$bk] --than lines name the workload" grep -q " write_n *[0-9]* \[[0-9]*\] $E: " "$T/$bk.b"
check_eq "[$bk] --than keeps the table" "$(row "$T/$bk.b" $E 2)" 100

# alias= names the row; --perins splits by thread (by CPU without -p/-t/--)
run_nd "$T/$bk.c" -e "${EV%/}/alias=wr/" --perins -p PID
check_eq "[$bk] alias and --perins: calls of the thread" \
	"$(awk '$1 == "wr" && $2 == "write_n" { print $4 }' "$T/$bk.c")" 100

# --perins --hist: a log2 histogram per thread, under its name
run_nd "$T/$bk.h" -e "$EV" --perins --hist -p PID
pid=$(grep -o 'pid=[0-9]*' "$T/$bk.h.wl" | cut -d= -f2)
check "[$bk] --perins --hist: a histogram titled by the thread" \
	grep -qx "$E write_n $pid (EVENT COMM TID)" "$T/$bk.h"
check_eq "[$bk] --perins --hist: its lines sum to 100" \
	"$(awk '$2 == "->" && $4 == ":" { n += $5 } END { print n }' "$T/$bk.h")" 100
check_eq "[$bk] --perins --hist: slots 1,2,4,...,32,37" \
	"$(awk '$2 == "->" { printf "%s-%s:%s ", $1, $3, $5 }' "$T/$bk.h")" \
	"0-1:1 2-3:2 4-7:4 8-15:8 16-31:16 32-63:32 64-127:37 "

# a filter the kernel refuses (a field compared with a field) runs in user space,
# exactly: of the writes of 1..100 bytes, those with count > fd
run_nd "$T/$bk.u" -e "${EV%%/num=*}"' && count>fd/num=count/'
fd=$(grep -o 'fd=[0-9]*' "$T/$bk.u.wl" | cut -d= -f2)
check_eq "[$bk] user-space filter: exit status" "$(cat "$T/$bk.u.rc")" 0
check "[$bk] user-space filter: said once" \
	test "$(grep -c "filter '.*count>fd' on $E runs in user space" "$T/$bk.u.err")" -eq 1
wpid=$(grep -o 'pid=[0-9]*' "$T/$bk.u.wl" | cut -d= -f2)
check "[$bk] user-space filter: the kernel keeps the clauses it takes" \
	grep -q "(the kernel keeps 'fd==$fd && common_pid==$wpid')" "$T/$bk.u.err"
check_eq "[$bk] user-space filter: calls 100 - fd" "$(row "$T/$bk.u" $E 2)" $((100 - fd))
check_eq "[$bk] user-space filter: total" "$(row "$T/$bk.u" $E 3)" $((5050 - fd * (fd + 1) / 2))
check_eq "[$bk] user-space filter: min fd + 1" "$(row "$T/$bk.u" $E 4)" $((fd + 1))

if [ "$bk" = bpf ]; then
	check "[$bk] -v: counted in the kernel" grep -q "the BPF back end: the numbers counted in the kernel" "$T/$bk.a.err"
else
	check "[$bk] -v: no BPF" test "$(grep -c "BPF back end" "$T/$bk.a.err")" -eq 0
fi
}
# the host's word, not ours: can a tracepoint BPF program load here?
if bpftool feature probe kernel 2>/dev/null | grep -q "program_type tracepoint is available"; then
	suite bpf ""
else
	skip "no BPF here: the BPF back end's checks"
fi
suite ring --no-bpf

# usage errors: status 2 and the message
"$PP" num-dist -e "$E//num=cnt+1/" >"$T/e1" 2>&1
check_eq "bad num= exits 2" $? 2
check "bad num= names the field" grep -q "unknown field 'cnt'" "$T/e1"
check "bad num= shows a caret under it" grep -qx '  \^' "$T/e1"
"$PP" num-dist -e "$E/fd==1/" >"$T/e2" 2>&1
check_eq "missing num= exits 2" $? 2
check "missing num= says so" grep -q "has no num=EXPR" "$T/e2"
"$PP" num-dist -e "$E//num=count/key=fd/" >"$T/e3" 2>&1
check_eq "an attribute num-dist does not take exits 2" $? 2
gone() { local p; for p in $(cat "$T/pids"); do ! kill -0 "$p" 2>/dev/null || return 1; done; }
check "no workload left behind" gone
done_tests
