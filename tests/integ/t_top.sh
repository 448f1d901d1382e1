#!/bin/bash
# top against known workloads: three getppid_loop processes making 100, 200
# and 300 getppid() calls show exactly those counts keyed by their pids, with
# their comm, largest first; --only-comm folds them into one row of 600;
# write_n's writes of 1..100 bytes keyed by fd sum to 5050 with top-by=count;
# mixing keyed and unkeyed events and wrong attributes are usage errors.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || { skip "needs root"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -x "$W/getppid_loop" ] && [ -x "$W/write_n" ] ||
	{ skip "workloads not built (make workloads)"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/syscalls/sys_enter_getppid ] ||
	{ skip "no syscalls tracepoints"; done_tests; exit; }

G=syscalls:sys_enter_getppid

# run_three OUT ARGS...: three getppid_loop (100, 200, 300 calls) wait on fifos;
# top (ARGS; FILTER stands for a filter on their pids) starts, then they run to
# their end and top is stopped.  Leaves OUT, OUT.err, OUT.rc, $T/pids3.
run_three() {
	local out=$1 i n p a args=() filter="" pids=()
	shift
	for i in 1 2 3; do
		n=$((i * 100))
		mkfifo "$out.f$i"
		exec {fd}<>"$out.f$i"
		# (an & command's stdin is /dev/null unless redirected on it)
		spawn p bash -c 'exec "$0" "$1" 0 --wait <"$2" >"$3"' "$W/getppid_loop" $n \
			"$out.f$i" "$out.w$i"
		eval "fd$i=$fd"
		wait_for "$out.w$i" '^ready' "$p"
		pids+=("$p")
		filter+="${filter:+ || }common_pid==$p"
	done
	echo "${pids[*]}" >"$T/pids3"
	echo "${pids[*]}" >>"$T/allpids"
	for a in "$@"; do args+=("${a//FILTER/$filter}"); done
	rm -f "$out.err" # not an earlier run's "monitoring"
	"$PP" top -v $BK -i 600000 "${args[@]}" >"$out" 2>"$out.err" &
	p=$!
	wait_for "$out.err" '^perf-prof: monitoring: [0-9]* events enabled' $p
	for i in 1 2 3; do
		eval "echo go >&\$fd$i"
	done
	for i in 1 2 3; do wait_for "$out.w$i" '^done' "${pids[i - 1]}"; done
	sleep 0.2 # the last records reach the ring
	kill -INT $p 2>/dev/null
	wait $p
	echo $? >"$out.rc"
	for i in 1 2 3; do eval "exec {fd$i}>&-"; done
	for p in "${pids[@]}"; do reap "$p"; done
}

# the value of column N of the row whose first column is KEY
val() { awk -v k="$2" -v n="$3" '$1 == k { print $n; exit }' "$1"; }

# the checks, on each back end: the kernel's maps (BPF, the default where
# the host has it) and the ring path (--no-bpf); -v says which ran
suite() {
bk=$1
BK=$2
run_three "$T/$bk.a" -e "$G/FILTER/key=common_pid/comm=comm_get(common_pid)/"
read -r p1 p2 p3 <"$T/pids3"
check_eq "[$bk] exit status" "$(cat "$T/$bk.a.rc")" 0
check "[$bk] the key column is titled by the key" grep -q "^common_pid  *COMM  *$G\$" "$T/$bk.a"
check_eq "[$bk] pid 1: 100 calls" "$(val "$T/$bk.a" "$p1" 3)" 100
check_eq "[$bk] pid 2: 200 calls" "$(val "$T/$bk.a" "$p2" 3)" 200
check_eq "[$bk] pid 3: 300 calls" "$(val "$T/$bk.a" "$p3" 3)" 300
check_eq "[$bk] comm= names them" "$(val "$T/$bk.a" "$p1" 2) $(val "$T/$bk.a" "$p3" 2)" \
	"getppid_loop getppid_loop"
check_eq "[$bk] largest first" "$(awk '$1 ~ /^[0-9]+$/ { print $3 }' "$T/$bk.a" | tr '\n' ' ')" \
	"300 200 100 "
check "[$bk] the header counts the samples" grep -q "  samples 600  lost 0  keys 3\$" "$T/$bk.a"

# the default key is the thread, with its comm; -k gives the key of events without key=
run_three "$T/$bk.b" -e "$G/FILTER/"
read -r p1 p2 p3 <"$T/pids3"
check_eq "[$bk] default key: the thread" "$(val "$T/$bk.b" "$p2" 3) $(val "$T/$bk.b" "$p2" 2)" \
	"200 getppid_loop"
check "[$bk] default key: TID column" grep -q "^TID  *COMM  *$G\$" "$T/$bk.b"
run_three "$T/$bk.c" -e "$G/FILTER/alias=calls/" -k 'common_pid * 10'
read -r p1 p2 p3 <"$T/pids3"
check_eq "[$bk] -k EXPR keys every event" "$(val "$T/$bk.c" $((p3 * 10)) 2)" 300
check "[$bk] alias= titles the count column" grep -q "^common_pid \* 10  *calls\$" "$T/$bk.c"

# --only-comm: one row per comm
run_three "$T/$bk.d" -e "$G/FILTER/" --only-comm
check_eq "[$bk] --only-comm folds the three" "$(val "$T/$bk.d" getppid_loop 2)" 600

# top-by sums a field, top-add another column; rows keyed by fd
wl_start "$T/$bk.w" write_n
exec {wfd}<>"$T/$bk.w.fifo"
w=$WL wpid=$WL_PID fd=$WL_FD
rm -f "$T/$bk.e.err" # not an earlier run's "monitoring"
"$PP" top -v $BK -i 600000 -e "syscalls:sys_enter_write/common_pid==$wpid/key=fd/top-by=count/top-add=count>50/" \
	>"$T/$bk.e" 2>"$T/$bk.e.err" &
p=$!
wait_for "$T/$bk.e.err" '^perf-prof: monitoring:' $p
echo go >&$wfd
wait_for "$T/$bk.w.wl" '^done' "$w"
sleep 0.2
kill -INT $p
wait $p
check_eq "[$bk] top-by exit status" $? 0
exec {wfd}>&-
reap "$w"
check_eq "[$bk] top-by=count sums the bytes" "$(val "$T/$bk.e" "$fd" 2)" 5050
check_eq "[$bk] top-add=count>50 counts the big writes" "$(val "$T/$bk.e" "$fd" 3)" 50
check "[$bk] columns are titled by their expressions" grep -q "^fd  *count  *count>50\$" "$T/$bk.e"

# a workload and the processes it starts (followed at fork); -C: only that CPU's events
"$PP" top $BK -e "$G//" -- bash -c "'$W/getppid_loop' 300 & '$W/getppid_loop' 200; wait" \
	>"$T/$bk.f" 2>"$T/$bk.f.err"
check_eq "[$bk] -- CMD: its children counted" \
	"$(awk '$2 == "getppid_loop" { print $3 }' "$T/$bk.f" | sort -n | tr '\n' ' ')" "200 300 "
"$PP" top $BK -e "$G//" -C 1 -- taskset -c 1 "$W/getppid_loop" 300 >"$T/$bk.g" 2>&1
check_eq "[$bk] -C 1, the workload on CPU 1" "$(awk '$2 == "getppid_loop" { print $3 }' "$T/$bk.g")" 300
"$PP" top $BK -e "$G//" -C 0 -- taskset -c 1 "$W/getppid_loop" 300 >"$T/$bk.h" 2>&1
check_eq "[$bk] -C 0, the workload on CPU 1" "$(grep -c getppid_loop "$T/$bk.h")" 0
# -p PID: the processes it creates after the start are counted too
rm -f "$T/$bk.fg.fifo" "$T/$bk.fg.out" "$T/$bk.fg.err"
mkfifo "$T/$bk.fg.fifo"
exec {ffd}<>"$T/$bk.fg.fifo"
spawn fg bash -c 'exec "$0" 500 1000 --wait <"$1" >"$2"' "$W/fork_getppid" "$T/$bk.fg.fifo" \
	"$T/$bk.fg.wl"
wait_for "$T/$bk.fg.wl" '^ready' "$fg"
"$PP" top -v $BK -e "$G//" -p "$fg" >"$T/$bk.fg.out" 2>"$T/$bk.fg.err" &
k=$!
wait_for "$T/$bk.fg.err" '^perf-prof: monitoring:' $k
echo go >&$ffd
wait $k
exec {ffd}>&-
reap "$fg"
check_eq "[$bk] -p: its child's calls counted too" \
	"$(awk '$2 == "fork_getppid" { s += $3 } END { print s + 0 }' "$T/$bk.fg.out")" 1500
if [ "$bk" = bpf ]; then
	check "[$bk] -v: counted in the kernel" grep -q "the BPF back end: keys counted in the kernel" "$T/$bk.a.err"
	check "[$bk] -v: --only-comm goes the ring path, saying why" grep -q "the ring path: --only-comm" "$T/$bk.d.err"
else
	check "[$bk] -v: no BPF" test "$(grep -c "BPF back end" "$T/$bk.a.err")" -eq 0
fi
}
# on both back ends: BPF where a tracepoint BPF program loads here (the host's word)
both_back_ends ""

# on a terminal: each table clears the screen and fits its height (8 rows: the
# header, the titles, 5 rows and "... N more"); many keys from _time
if command -v script >/dev/null; then
	# 2 s of 200 ms tables (perf-prof's own syscalls alone give several keys each)
	timeout 60 script -qfec "stty rows 8 cols 100; timeout -s INT 2 '$PP' top -e 'raw_syscalls:sys_enter//key=_time%100000/' -i 200" \
		/dev/null >"$T/tty" 2>&1
	check "terminal: the screen is cleared for each table" \
		test "$(grep -a -o $'\033\[H\033\[2J' "$T/tty" | wc -l)" -ge 2
	check "terminal: a table longer than the screen is cut" grep -a -q '^\.\.\. [0-9]* more' "$T/tty"
	check_eq "terminal: no frame is taller than the screen" \
		"$(awk 'BEGIN { RS = "\033\\[H\033\\[2J" } NR > 1 { n = split($0, l, "\n"); if (n - 1 > 8) bad++ } END { print bad + 0 }' "$T/tty")" 0
else
	skip "no script(1): the terminal view is not tested"
fi

# --bpf: what the kernel cannot do is a usage error naming it; SIGKILL leaves no program
if bpf_host; then
	"$PP" top --bpf -e "$G//" --only-comm -i 100 >"$T/fb" 2>&1
	check_eq "--bpf with --only-comm: status 2" $? 2
	check_eq "--bpf with --only-comm: one line naming it" \
		"$(grep -c -- "--bpf: --only-comm: its keys are strings" "$T/fb") $(wc -l <"$T/fb")" "1 1"
	bpf_start "$T/k" top -e "$G//" -i 100000 && bpf_kill_leaves_nothing

	# a request that falls back after its first event compiled: no program of ours
	# stays attached (it would keep that event's samples from the ring)
	"$PP" top -v -e "$G//key=common_pid/,syscalls:sys_enter_getpid//key=common_pid+(long)_time*0/" \
		-- "$W/getppid_loop" 100 >"$T/rb" 2>"$T/rb.err"
	check "fallback: said under -v" grep -q "the ring path: .*_time" "$T/rb.err"
	check_eq "fallback: the first event still counted" \
		"$(awk '$1 ~ /^[0-9]+$/ { print $2 }' "$T/rb")" 100

	# a full map: the events of keys beyond --bpf-entries are counted and said
	"$PP" top --bpf --bpf-entries 16 -e 'syscalls:sys_enter_write/fd>2/key=count/' -- \
		bash -c 'echo go | "$0" /dev/stdin' "$W/write_n" \
		>"$T/full" 2>"$T/full.err"
	check_eq "full map: the keys kept" "$(grep -c -E '^[0-9]+ +[0-9]+$' "$T/full")" 16
	check "full map: the others said on stderr" \
		grep -q "^perf-prof: [0-9]* events not counted in the kernel: keys not kept: BPF map full (--bpf-entries)" "$T/full.err"
	check_eq "full map: kept and not counted add up to every write" \
		"$(($(awk '/^[0-9]+ +[0-9]+$/ { s += $2 } END { print s + 0 }' "$T/full") + $(sed -n 's/^perf-prof: \([0-9]*\) events not counted.*/\1/p' "$T/full.err")))" 100

	# keys of threads that came and went leave the map once it is half full: 30
	# threads one after another, each its own key, all counted in a map of 16
	"$PP" top --bpf --bpf-entries 16 -i 100 -e syscalls:sys_enter_clock_nanosleep -- \
		"$W/thread_churn" 30 3 >"$T/churn" 2>"$T/churn.err"
	check_eq "churning keys: every thread's sleep counted in a map of 16, nothing said" \
		"$(awk '$2 ~ /^churn-/ { s += $3 } END { print s + 0 }' "$T/churn") $(wc -c <"$T/churn.err")" "30 0"

	# with an interval longer than the run (top's default is 1 s), the map is still
	# read every second as the run goes (BPF_READ_MS): 30 threads over 6 s, more
	# than a map of 16 holds at once, each its key, all counted, nothing said; the
	# ring path counts the same (prctl: a tracepoint no other suite watches with a
	# BPF program, which would keep the ring path's samples from it)
	for b in --bpf --no-bpf; do
		"$PP" top $b --bpf-entries 16 -i 10000 -e syscalls:sys_enter_prctl -- \
			"$W/thread_churn" 30 6 >"$T/churn0$b" 2>"$T/churn0$b.err"
		check_eq "[$b] churning keys, -i 10000: each thread's prctl, a key each, nothing said" \
			"$(awk '$1 ~ /^[0-9]+$/ && NF >= 3 { n++; c += $NF } END { print n + 0, c + 0 }' \
				"$T/churn0$b") $(wc -c <"$T/churn0$b.err")" "30 30 0"
	done

	# hits our program missed (another tool's BPF program running on the CPU: here
	# bpf_nest's perf_event program calls bpf_trace_printk) are said, not silent;
	# the ring path counts them all
	"$PP" top --bpf -e bpf_trace:bpf_trace_printk -- "$W/bpf_nest" 200 >"$T/nest" 2>"$T/nest.err"
	if grep -q '^nobpf' "$T/nest"; then
		skip "bpf_nest cannot run its program: $(grep '^nobpf' "$T/nest")"
	else
		ran=$(awk '$1 == "ran" { print $2 }' "$T/nest")
		check "missed hits: bpf_nest's program ran" test "${ran:-0}" -gt 0
		check_eq "missed hits: none counted in the kernel, all said" \
			"$(awk '$2 == "bpf_nest" { s += $3 } END { print s + 0 }' "$T/nest") $(sed -n 's/^perf-prof: \([0-9]*\) tracepoint hits (of any task) not seen: the kernel did not run our program, another BPF program was running on that CPU$/\1/p' "$T/nest.err")" \
			"0 $ran"
		"$PP" top --no-bpf -e bpf_trace:bpf_trace_printk -- "$W/bpf_nest" 200 >"$T/nest" 2>"$T/nest.err"
		check_eq "missed hits: the ring path counts them" \
			"$(awk '$2 == "bpf_nest" { s += $3 } END { print s + 0 }' "$T/nest")" \
			"$(awk '$1 == "ran" { print $2 }' "$T/nest")"
	fi

	# both back ends count the same syscalls of a workload and its children, from its exec
	for b in --bpf --no-bpf; do
		"$PP" top $b -e 'raw_syscalls:sys_enter//key=id/' -- sh -c 'ls / >/dev/null; /bin/true' \
			2>&1 | sed 1d | sort >"$T/same$b"
	done
	check "the same syscalls by number on both back ends" cmp -s "$T/same--bpf" "$T/same--no-bpf"
	check "... and many of them" test "$(wc -l <"$T/same--bpf")" -gt 10

	# the workload's children are followed in the kernel and leave at their exit
	rm -f "$T/x.err" "$T/x.out"
	"$PP" top -v -e "$G//" -i 100000 -- bash -c "sleep 0.2 & wait; echo bash=\$\$; sleep 30" \
		>"$T/x.out" 2>"$T/x.err" &
	k=$!
	wait_for "$T/x.out" '^bash=' $k
	tg=""
	for id in $(cat /proc/$k/fdinfo/* 2>/dev/null | awk '$1 == "map_id:" { print $2 }' | sort -u); do
		bpftool -j map show id "$id" | jq -e '.name == "pp_tgids"' >/dev/null &&
			tg=$(bpftool -j map dump id "$id" | jq -r '.[].key | join(" ")' |
				while read -r a b c d; do echo $((a + 256 * b + 65536 * c + 16777216 * d)); done |
				sort -n | tr '\n' ' ' | sed 's/ $//')
	done
	check_eq "followed: the child that exited has left, the workload stays" "$tg" \
		"$(sed -n 's/^bash=//p' "$T/x.out")"
	pkill -INT -P $k sleep 2>/dev/null
	kill -INT $k 2>/dev/null
	wait $k 2>/dev/null
fi

# the original's other spellings: top_by= and top_add= (the workload's writes to
# /dev/null, fd 3, of 1..100 bytes once the fifo says go)
rm -f "$T/sp.fifo"
mkfifo "$T/sp.fifo"
(sleep 0.3; echo go >"$T/sp.fifo") &
sp=$!
"$PP" top -e "syscalls:sys_enter_write//key=fd/top_by=count/top_add=count>50/" \
	-- "$W/write_n" "$T/sp.fifo" >"$T/sp" 2>"$T/sp.err"
check_eq "top_by=/top_add=: exit status" $? 0
wait $sp
spfd=$(sed -n 's/^pid=[0-9]* fd=\([0-9]*\)$/\1/p' "$T/sp")
check_eq "top_by=count sums the bytes" "$(val "$T/sp" "$spfd" 2)" 5050
check_eq "top_add=count>50 counts the big writes" "$(val "$T/sp" "$spfd" 3)" 50
check "top_by= sorts: the 5050 row first" \
	test "$(awk '$1 ~ /^[0-9]+$/ && NF == 3 { print $1; exit }' "$T/sp")" = "$spfd"

# usage errors: status 2 and one line naming the problem
usage() { # description expected-text ARGS...
	local d=$1 want=$2 rc
	shift 2
	"$PP" top "$@" >"$T/u" 2>&1
	rc=$?
	check "$d: status 2 and the message" \
		test $rc -eq 2 -a "$(grep -c -- "$want" "$T/u")" -eq 1
}
usage "keyed and unkeyed events" "some events have key= and some not" \
	-e "$G//key=common_pid/,syscalls:sys_enter_getpid" -N 1
usage "top-by of a string" "is a string" -e "sched:sched_switch//top-by=prev_comm/" -N 1
usage "bad key=" "unknown field 'nosuch'" -e "$G//key=nosuch/" -N 1
usage "an attribute top does not take" "unknown attribute 'num'" -e "$G//num=1/" -N 1
usage "--only-comm with a key" "--only-comm aggregates by comm" -e "$G//key=1/" --only-comm
usage "no events" "no events" -N 1
usage "two items of one event" "is an event of an earlier -e item" \
	-e "$G//key=common_pid/,$G//key=common_pid/top-add=1/" -N 1
usage "a stack attribute" "takes no stacks" -e "$G//stack/" -N 1
usage "top_by= and top-by= are one attribute" "duplicate attribute 'top-by'" \
	-e "$G//key=common_pid/top_by=1/top-by=1/" -N 1
gone() { local p; for p in "$@"; do ! kill -0 "$p" 2>/dev/null || return 1; done; }
check "no workload left behind" gone $(cat "$T/allpids") "$w"
done_tests
