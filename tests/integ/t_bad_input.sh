#!/usr/bin/env bash
# Malformed input is refused before anything runs: status 2, one line on
# stderr, nothing on stdout, the workload never started (issue 20).
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { echo "no binary $PP"; exit 1; }

# refused DESC PHRASE ARGS...: status 2, one line with PHRASE, no output, no workload run
refused() {
	local d=$1 phrase=$2
	shift 2
	rm -f "$T/ran"
	# a guard, not a timing assertion: a refusal takes no time, a run would go on
	timeout -s INT 30 "$PP" "$@" >"$T/out" 2>"$T/err" </dev/null
	check_eq "$d: exit status" "$?" 2
	check_eq "$d: one line on stderr" "$(wc -l <"$T/err")" 1
	check "$d: says '$phrase' (stderr: $(head -c 300 "$T/err" | tr -d '\000-\011\013-\037\177'))" \
		grep -qF -- "$phrase" "$T/err"
	check_eq "$d: nothing on stdout" "$(wc -c <"$T/out")" 0
	check "$d: the workload never ran" test ! -e "$T/ran"
}
RUN=(-- sh -c "touch $T/ran")
SW=sched:sched_switch

# --- filters our language cannot parse, even when the kernel takes them
refused "filter ending in &&" "bad filter 'prev_pid > 1 &&' in '$SW/prev_pid > 1 &&/' at column 15: expected an operand, found the end" \
	trace -e "$SW/prev_pid > 1 &&/" "${RUN[@]}"
refused "filter ending in ||" "bad filter 'prev_pid == 1 ||'" trace -e "$SW/prev_pid == 1 ||/" "${RUN[@]}"
refused "filter with '='" "'=' is not an operator" trace -e "$SW/prev_pid = 1/" "${RUN[@]}"
refused "filter with two operands" "at column 9: expected an operator, found '1'" \
	trace -e "$SW/prev_pid 1/" "${RUN[@]}"
refused "filter in a list, second event" "bad filter 'pid >'" \
	trace -e "sched:sched_wakeup,sched:sched_waking/pid >/" "${RUN[@]}"

# --- control characters anywhere in an option value, -e included
refused "DEL in a filter" "bad --event: control character 0x7f at offset 30" \
	trace -e $'sched:sched_switch/prev_pid==1\x7f/' "${RUN[@]}"
refused "newline after the event" "bad --event: control character 0x0a at offset 18" \
	trace -e $'sched:sched_switch\n' "${RUN[@]}"
refused "tab in a list" "control character 0x09 at offset 1" \
	trace -e $SW -p $'1\t2' "${RUN[@]}"
refused "newline in -o" "bad --output: control character 0x0a at offset $((${#T} + 2))" \
	trace -e $SW -o "$T/x"$'\n' "${RUN[@]}"

# --- one list parser: empty items are refused everywhere, with the same words
refused "-p 1,,2" "bad pid list '1,,2': empty item at offset 2" trace -e $SW -p 1,,2
refused "-p 1," "bad pid list '1,': empty item at offset 2 (a trailing comma)" trace -e $SW -p 1,
refused "-t ,1" "bad tid list ',1': empty item at offset 0" trace -e $SW -t ,1
refused "-C 0,,1" "bad CPU list '0,,1': empty item at offset 2" trace -e $SW -C 0,,1 "${RUN[@]}"
refused "--syscall read,,write" "bad syscall list 'read,,write': empty item at offset 5" \
	syscalls --syscall read,,write "${RUN[@]}"
refused "--syscall no such name" "--syscall: 'nosuch' is not a syscall of this machine" \
	syscalls --syscall read,nosuch "${RUN[@]}"
refused "--detail samecpu,,samepid" "bad --detail list 'samecpu,,samepid': empty item at offset 8" \
	multi-trace -e sched:sched_wakeup -e $SW --than 1ms --detail=samecpu,,samepid "${RUN[@]}"
refused "-e a,,b" "bad event spec '$SW,,sched:sched_wakeup' at offset 19: empty event" trace -e "$SW,,sched:sched_wakeup" "${RUN[@]}"

# --- values that mean nothing
refused "top -k unused by every event" "-k 'nosuch' keys no event: every -e has its own key=" \
	top -e "$SW//key=prev_pid/" -k nosuch "${RUN[@]}"
refused "top -k ''" "bad --key '': needs a value (see: perf-prof top -h)" top -e "$SW//key=prev_pid/" -k '' "${RUN[@]}"
refused "multi-trace -k unused" "keys no event" \
	multi-trace -e 'sched:sched_wakeup//key=pid/' -e "$SW//key=prev_pid/" -k nosuch "${RUN[@]}"
refused "top -k with a syntax error" "bad -k 'prev_pid +' at column 10" \
	top -e "$SW" -k 'prev_pid +' "${RUN[@]}"
refused "profile -F 0" "bad --freq '0' (1..100000)" profile -F 0 "${RUN[@]}"
refused "profile --top 0" "bad --top '0' (at least 1)" profile --top 0 "${RUN[@]}"
refused "-o ''" "bad --output '': needs a value (see: perf-prof trace -h)" trace -e $SW -o '' "${RUN[@]}"

# --- expr: an expression that starts with '-'
refused "expr -e EV '-pid'" "bad pid 'id'" expr -e sched:sched_process_exec '-pid' "${RUN[@]}"
check "expr '-pid': the hint says where it goes" \
	grep -qF "(an expression that starts with '-' goes after --: -- '-x')" "$T/err"
"$PP" expr -e sched:sched_process_exec -N 1 -- '-pid' -- /bin/true >"$T/out" 2>"$T/err"
check_eq "expr -- '-pid' -- CMD: exit status" "$?" 0
check "expr -- '-pid' -- CMD: the value is -pid" grep -qE 'pid=([0-9]+) .* = -\1 ' "$T/out"
refused "expr -- '-pid' CMD without the second --" "options go before --, a command after a second '--'" \
	expr -e sched:sched_process_exec -- '-pid' sh

# --- what the kernel's filter syntax users rely on still runs
for f in 'prev_pid > 0 || prev_pid == 0' 'prev_comm ~ "*" && prev_state & 0x7fff || 1' \
	'!(prev_pid == 0) || common_pid >= 0' "prev_comm != 'no such' || prev_prio < 200" \
	'common_cpu & CPUS{0} || prev_pid >= 0' 'prev_comm == bash || prev_pid >= 0'; do
	"$PP" trace -e "$SW/$f/" -N 1 -- sh -c 'sleep 0.01' >"$T/out" 2>"$T/err"
	check_eq "filter '$f' runs" "$?" 0
done
# filters the build before the syntax check ran (the kernel's, or bare
# words and globs read in user space) still run; the kernel's CPU lists
# whole, their ',' and '/' included
for f in 'prev_comm==kworker:0 || prev_pid >= 0' 'prev_comm ~ b[a]sh || prev_pid >= 0' \
	'prev_comm == bash! || prev_pid >= 0' 'prev_comm==ba=sh || prev_pid >= 0' \
	'prev_comm ~ a?b || prev_pid >= 0' 'prev_comm == "a\q" || prev_pid >= 0' \
	'comm != bash && prev_pid >= 0' '!(prev_pid == 0) || prev_prio<100&&next_prio>=120' \
	'prev_state & 0x1f || prev_pid > -1' 'common_cpu & CPUS{0-N} || prev_pid >= 0' \
	'common_cpu & CPUS{0,N} || prev_pid >= 0' 'common_cpu & CPUS{0-N:1/2,N} || prev_pid >= 0' \
	'CPU & CPUS{ all } || prev_pid >= 0'; do
	"$PP" trace -e "$SW/$f/" -N 1 -- sh -c 'sleep 0.01' >"$T/out" 2>"$T/err"
	rc=$?
	check_eq "filter '$f' runs (stderr: $(head -c 200 "$T/err"))" "$rc" 0
done
"$PP" top -e "$SW" -k 'prev_pid ? prev_comm : "idle"' -N 1 -- true >"$T/out" 2>"$T/err"
rc=$?
check_eq "-k with a string ?: runs (stderr: $(head -c 200 "$T/err"))" "$rc" 0
refused "CPUS{} empty" "at column 18: bad CPU list in CPUS{...}" trace -e "$SW/common_cpu & CPUS{}/" "${RUN[@]}"
refused "CPUS{} group without its size" "at column 23: bad CPU list in CPUS{...}" \
	trace -e "$SW/common_cpu & CPUS{0-N:1}/" "${RUN[@]}"
refused "bare word then a second word" "at column 15: expected an operator, found 'b'" \
	trace -e "$SW/prev_comm == a b/" "${RUN[@]}"

# --- the clock options (issue 21): values, combinations, what the host cannot do
refused "--clock-offset not a number" "bad --clock-offset '12abc' (an integer added to every time" \
	trace -e "$SW" --clock-offset 12abc "${RUN[@]}"
refused "--kvmclock not a UUID" "bad --kvmclock '8ab13543' (a guest's UUID" \
	trace -e "$SW" --kvmclock 8ab13543 "${RUN[@]}"
refused "--kvmclock of no guest" "--kvmclock: no KVM guest with UUID 0badc0de-95fc-4a78-9056-d605a03e9033" \
	trace -e "$SW" --kvmclock 0badc0de-95fc-4a78-9056-d605a03e9033 "${RUN[@]}"
refused "--tsc with --kvmclock" "--tsc and --kvmclock exclude each other" \
	trace -e "$SW" --tsc --kvmclock 0badc0de-95fc-4a78-9056-d605a03e9033 "${RUN[@]}"
refused "--monotonic with --tsc" "--monotonic and --tsc exclude each other" \
	trace -e "$SW" --monotonic --tsc "${RUN[@]}"
case $("$W/perf_caps" 2>/dev/null) in
*cap_user_time_zero=0*)
	refused "--tsc on a host without the conversion" "--tsc: this host gives no conversion of perf time to TSC" \
		trace -e "$SW" --tsc "${RUN[@]}" ;;
esac

# spaces around list items are trimmed, as around -e items
"$PP" trace -e "$SW" -C ' 0 , 0' -N 1 -- true >/dev/null 2>"$T/err"
check_eq "-C ' 0 , 0': spaces around items are fine" "$?" 0

done_tests
