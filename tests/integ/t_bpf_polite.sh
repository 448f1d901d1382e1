#!/bin/bash
# A perf-prof run on BPF whose programs are classic tracepoint programs
# (top, multi-trace, num-dist) takes no sample away from the tracepoint's
# other perf users.  The kernel runs such a program before it writes any
# perf sample of the hit, for every perf user of the tracepoint on the host,
# and writes none when it returns 0.  While a BPF run counts getppid_loop's
# N calls (filtered on the loop's pid), a ring-path perf-prof (--no-bpf) on
# the same tracepoint, keyed and filtered on common_pid (which the kernel
# overwrites while a program runs, and writes again before the samples),
# sees all N, and so does a counting peer (stat); the BPF run's numbers
# stay exact (num-dist --than's line is copied out of the kernel).  Before,
# the peers saw none.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || { skip "needs root"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -x "$W/getppid_loop" ] || { skip "workloads not built (make workloads)"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/syscalls/sys_enter_getppid ] ||
	{ skip "no syscalls tracepoints"; done_tests; exit; }
[ "$(uname -m)" = x86_64 ] || { skip "getppid's number (110) is x86_64's"; done_tests; exit; }
"$PP" top --bpf -e raw_syscalls:sys_enter -- true >/dev/null 2>"$T/probe.err" ||
	{ skip "no BPF back end here: $(cat "$T/probe.err")"; done_tests; exit; }

N=300
EN=raw_syscalls:sys_enter
EX=raw_syscalls:sys_exit
G=syscalls:sys_enter_getppid

# start OUT ARGS...: perf-prof ARGS (PID stands for the loop's pid) in the
# background until it monitors; its pid in $started
start() {
	local out=$1 a args=()
	shift
	for a in "$@"; do args+=("${a//PID/$loop}"); done
	rm -f "$out.err"
	"$PP" "${args[@]}" >"$out" 2>"$out.err" &
	started=$!
	wait_for "$out.err" '^perf-prof: monitoring: [0-9]* events enabled' $started
}

# stop PID OUT: SIGINT, its exit status into OUT.rc
stop() {
	kill -INT "$1" 2>/dev/null
	wait "$1"
	echo $? >"$2.rc"
}

# polite OUT PEER-ARGS -- BPF-ARGS: getppid_loop N waits on a fifo; the BPF
# run (BPF-ARGS --bpf) starts, then its peer (PEER-ARGS); the loop runs its N
# calls; both are stopped.  Leaves OUT.bpf, OUT.peer (.err, .rc), OUT.w.
polite() {
	local out=$1 fd p b peer=()
	shift
	while [ "$1" != -- ]; do peer+=("$1"); shift; done
	shift
	mkfifo "$out.f"
	exec {fd}<>"$out.f"
	# (an & command's stdin is /dev/null unless redirected on it)
	spawn loop bash -c 'exec "$0" "$1" 0 --wait <"$2" >"$3"' "$W/getppid_loop" $N \
		"$out.f" "$out.w"
	wait_for "$out.w" '^ready' "$loop"
	start "$out.bpf" "$@" -v --bpf
	b=$started
	start "$out.peer" "${peer[@]}" -v
	p=$started
	echo go >&$fd
	wait_for "$out.w" '^done' "$loop"
	sleep 0.2 # the peer's last records reach its ring
	stop $p "$out.peer"
	stop $b "$out.bpf"
	exec {fd}>&-
	reap "$loop"
}

# the peer top's count for the loop (rows "KEY COUNT", keyed by common_pid: the loop's pid)
peer_n() { awk -v k="$loop" '$1 == k { print $2; exit }' "$1.peer"; }

# top on BPF, raw_syscalls:sys_enter (a trace event's perf handler)
polite "$T/top" top --no-bpf -i 600000 -e "$EN/id==110 && common_pid==PID/key=common_pid/" -- \
	top -i 600000 -e "$EN/id==110 && common_pid==PID/"
check_eq "top: both ran and ended" "$(cat "$T/top.bpf.rc") $(cat "$T/top.peer.rc")" "0 0"
check "top: the loop made its calls" grep -q "^done $N" "$T/top.w"
check_eq "top: the ring-path peer sees all $N, under the loop's common_pid" "$(peer_n "$T/top")" $N
check_eq "top: the BPF run counts $N" \
	"$(awk '$2 == "getppid_loop" { s += $3 } END { print s + 0 }' "$T/top.bpf")" $N
check "top: the BPF run was on BPF" grep -q 'the BPF back end' "$T/top.bpf.err"

# top on BPF, syscalls:sys_enter_getppid (the syscalls' own perf handler)
polite "$T/sc" top --no-bpf -i 600000 -e "$G/common_pid==PID/key=common_pid/" -- \
	top -i 600000 -e "$G/common_pid==PID/"
check_eq "syscalls:*: the ring-path peer sees all $N" \
	"$(peer_n "$T/sc")" $N
check_eq "syscalls:*: the BPF run counts $N" \
	"$(awk '$2 == "getppid_loop" { s += $3 } END { print s + 0 }' "$T/sc.bpf")" $N

# a counting peer (stat, as perf stat: no sample, the kernel counts): gated as well before
polite "$T/st" stat -e $G -p PID -- top -i 600000 -e "$G/common_pid==PID/"
check_eq "stat: both ran and ended" "$(cat "$T/st.bpf.rc") $(cat "$T/st.peer.rc")" "0 0"
check_eq "stat: the counting peer counts all $N" \
	"$(awk -v e=$G '$2 == e { gsub(",", "", $1); print $1; exit }' "$T/st.peer")" $N
check_eq "stat: the BPF run counts $N" \
	"$(awk '$2 == "getppid_loop" { s += $3 } END { print s + 0 }' "$T/st.bpf")" $N

# multi-trace on BPF: enter => exit of each call, both tracepoints gated before
polite "$T/mt" multi-trace --no-bpf -e "$EN/id==110 && common_pid==PID/" \
	-e "$EX/id==110 && common_pid==PID/" -- \
	multi-trace -e "$EN/id==110 && common_pid==PID/" -e "$EX/id==110 && common_pid==PID/"
check_eq "multi-trace: both ran and ended" "$(cat "$T/mt.bpf.rc") $(cat "$T/mt.peer.rc")" "0 0"
check_eq "multi-trace: the ring-path peer pairs all $N" \
	"$(awk -v k=$EN '$1 == k && $3 !~ /:$/ { print $4; exit }' "$T/mt.peer")" $N
check_eq "multi-trace: the BPF run pairs $N" \
	"$(awk -v k=$EN '$1 == k && $3 !~ /:$/ { print $4; exit }' "$T/mt.bpf")" $N
check "multi-trace: the BPF run was on BPF" grep -q 'the BPF back end' "$T/mt.bpf.err"

# num-dist on BPF with --than: the getppid calls are counted, not printed
# (before, its program let through only what --than prints); the loop's
# exit_group (231) is over 200: its line is copied out of the kernel
polite "$T/nd" top --no-bpf -i 600000 -e "$EN/id==110 && common_pid==PID/key=common_pid/" -- \
	num-dist -e "$EN/(id==110 || id==231) && common_pid==PID/num=id/" --than 200
check_eq "num-dist: both ran and ended" "$(cat "$T/nd.bpf.rc") $(cat "$T/nd.peer.rc")" "0 0"
check_eq "num-dist: the ring-path peer sees all $N" "$(peer_n "$T/nd")" $N
check_eq "num-dist: the BPF run counts $N + 1" \
	"$(awk -v k=$EN '$1 == k { print $2; exit }' "$T/nd.bpf")" $((N + 1))
check_eq "num-dist: --than prints one line, the loop's exit_group, num=231" \
	"$(grep -c " num=[0-9]*$" "$T/nd.bpf"):$(grep -c "getppid_loop *$loop \[[0-9]*\] $EN: .* num=231$" "$T/nd.bpf")" "1:1"
check "num-dist: the BPF run was on BPF" grep -q 'the BPF back end' "$T/nd.bpf.err"

done_tests
