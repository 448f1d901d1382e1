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

# wait_for FILE REGEX [PID]: until FILE has a line matching REGEX (or PID died)
wait_for() {
	local i
	for ((i = 0; i < 600; i++)); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		[ -n "${3:-}" ] && ! kill -0 "$3" 2>/dev/null && return 1
		sleep 0.1
	done
	return 1
}

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
	"$PP" top -v -i 600000 "${args[@]}" >"$out" 2>"$out.err" &
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

run_three "$T/a" -e "$G/FILTER/key=common_pid/comm=comm_get(common_pid)/"
read -r p1 p2 p3 <"$T/pids3"
check_eq "exit status" "$(cat "$T/a.rc")" 0
check "the key column is titled by the key" grep -q "^common_pid  *COMM  *$G\$" "$T/a"
check_eq "pid 1: 100 calls" "$(val "$T/a" "$p1" 3)" 100
check_eq "pid 2: 200 calls" "$(val "$T/a" "$p2" 3)" 200
check_eq "pid 3: 300 calls" "$(val "$T/a" "$p3" 3)" 300
check_eq "comm= names them" "$(val "$T/a" "$p1" 2) $(val "$T/a" "$p3" 2)" \
	"getppid_loop getppid_loop"
check_eq "largest first" "$(awk '$1 ~ /^[0-9]+$/ { print $3 }' "$T/a" | tr '\n' ' ')" \
	"300 200 100 "
check "the header counts the samples" grep -q "  samples 600  lost 0  keys 3\$" "$T/a"

# the default key is the thread, with its comm; -k gives the key of events without key=
run_three "$T/b" -e "$G/FILTER/"
read -r p1 p2 p3 <"$T/pids3"
check_eq "default key: the thread" "$(val "$T/b" "$p2" 3) $(val "$T/b" "$p2" 2)" \
	"200 getppid_loop"
check "default key: TID column" grep -q "^TID  *COMM  *$G\$" "$T/b"
run_three "$T/c" -e "$G/FILTER/alias=calls/" -k 'common_pid * 10'
read -r p1 p2 p3 <"$T/pids3"
check_eq "-k EXPR keys every event" "$(val "$T/c" $((p3 * 10)) 2)" 300
check "alias= titles the count column" grep -q "^common_pid \* 10  *calls\$" "$T/c"

# --only-comm: one row per comm
run_three "$T/d" -e "$G/FILTER/" --only-comm
check_eq "--only-comm folds the three" "$(val "$T/d" getppid_loop 2)" 600

# top-by sums a field, top-add another column; rows keyed by fd
mkfifo "$T/wf"
exec {wfd}<>"$T/wf"
spawn w "$W/write_n" "$T/wf" >"$T/w.out"
wait_for "$T/w.out" '^pid=' "$w"
wpid=$(grep -o 'pid=[0-9]*' "$T/w.out" | cut -d= -f2)
fd=$(grep -o 'fd=[0-9]*' "$T/w.out" | cut -d= -f2)
rm -f "$T/e.err" # not an earlier run's "monitoring"
"$PP" top -v -i 600000 -e "syscalls:sys_enter_write/common_pid==$wpid/key=fd/top-by=count/top-add=count>50/" \
	>"$T/e" 2>"$T/e.err" &
p=$!
wait_for "$T/e.err" '^perf-prof: monitoring:' $p
echo go >&$wfd
wait_for "$T/w.out" '^done' "$w"
sleep 0.2
kill -INT $p
wait $p
check_eq "top-by exit status" $? 0
exec {wfd}>&-
reap "$w"
check_eq "top-by=count sums the bytes" "$(val "$T/e" "$fd" 2)" 5050
check_eq "top-add=count>50 counts the big writes" "$(val "$T/e" "$fd" 3)" 50
check "columns are titled by their expressions" grep -q "^fd  *count  *count>50\$" "$T/e"

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
gone() { local p; for p in "$@"; do ! kill -0 "$p" 2>/dev/null || return 1; done; }
check "no workload left behind" gone $(cat "$T/allpids") "$w"
done_tests
