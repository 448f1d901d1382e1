#!/bin/bash
# irq-off and watchdog, live.  irq-off finds a real interrupts-off period:
# a line written to /dev/kmsg is printed on the serial console with
# interrupts off (printk's legacy console path; ~9 ms for 800 characters on
# this VM's 8250): the gap is reported on the writer's CPU, with a length
# between the threshold and the write's own duration, and the stack through
# the console code.  (Three lines in the kernel log are the only effect.)
# watchdog, with a spinner on each CPU (an idle CPU's hrtimer samples are
# not delivered here): every CPU's watchdog hrtimer seen every 2/5 of
# watchdog_thresh, its stopper kthread runs, no warning.  Both stop cleanly
# on SIGINT, -N and at the end of a command; bad input exits 2.  The logic
# (lengths, idle gaps, warnings once per episode with the stacks) is tested
# on synthesized streams in tests/unit/test_gapwatch.c: no user program
# can hold interrupts off or keep a stopper kthread away for seconds.
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
NCPU=$(nproc)
LAST=$((NCPU - 1))

# wait until a run started in the background (-v) monitors, or is gone
monitoring() {
	local i
	for i in $(seq 300); do
		grep -q '^perf-prof: monitoring' "$1" && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# --- irq-off: a real interrupts-off period from the serial console ---
console_ok() {
	# an enabled console that is not nbcon (printed by the writer itself), err level shown
	awk '{ f = $0; sub(/^[^(]*\(/, "", f); sub(/\).*/, "", f) }
		f ~ /E/ && f !~ /N/ { ok = 1 } END { exit !ok }' /proc/consoles 2>/dev/null &&
		[ "$(awk '{ print $1 }' /proc/sys/kernel/printk)" -gt 3 ] && [ -w /dev/kmsg ]
}
if console_ok; then
	# the writer's CPU kept busy: a gap during which the CPU left idle is not reported, and
	# the writer, woken from its nap, may disable interrupts before the first timer sample
	spawn busy taskset -c "$LAST" sh -c 'while :; do :; done'
	"$PP" irq-off -C "$LAST" --than 5ms -g -v >"$T/k" 2>"$T/k.err" &
	p=$!
	if monitoring "$T/k.err" $p; then
		# three lines, each write timed by the writer itself (microseconds)
		taskset -c "$LAST" bash -c 'for i in 1 2 3; do
			a=${EPOCHREALTIME/./}
			printf "<3>perf-prof t_lockup: console write %d %0800d\n" $i 0 >/dev/kmsg
			b=${EPOCHREALTIME/./}
			echo $((b - a))
			sleep 0.05
		done' >"$T/k.writes"
		sleep 0.3
	fi
	kill -INT $p 2>/dev/null
	wait $p
	check_eq "irq-off: SIGINT: exit status" $? 0
	reap "$busy"
	check "irq-off: the summary" grep -q '^total: [0-9]* irq-off periods of 5.000ms or more' "$T/k"
	longest_write=$(sort -n "$T/k.writes" | tail -n1)
	slow=$(awk '$1 >= 6000 { n++ } END { print n + 0 }' "$T/k.writes")
	if [ "$slow" -gt 0 ]; then
		# the gaps on the writer's CPU that ended in the console code
		awk -v cpu="$(printf '[%03d]' "$LAST")" '
			$0 ~ / irq-off: / && index($0, cpu) { n = $0; sub(/.* irq-off: /, "", n); sub(/ .*/, "", n); cur = n; next }
			cur != "" && /^    / && /console_|vprintk_emit|serial8250/ { print cur; cur = "" }
			!/^    / { cur = "" }' "$T/k" >"$T/k.gaps"
		n=$(wc -l <"$T/k.gaps")
		check_range "irq-off: a gap in the console code for each slow write ($slow of 3 took >= 6ms)" "$n" "$slow" 6
		len=$(ns "$(sort -n "$T/k.gaps" | tail -n1)")
		check_range "irq-off: its length (ns) between --than and the write's duration" "$len" 5000000 $((longest_write * 1000))
		check "irq-off: the stack goes up to the write(2) of /dev/kmsg" grep -q ' devkmsg_write' "$T/k"
		check_eq "irq-off: CPU $LAST only (-C)" "$(grep -c ' irq-off: \| stall: ' "$T/k")" "$(grep -c "\[$(printf %03d "$LAST")\] \(irq-off\|stall\): " "$T/k")"
	else
		skip "irq-off: console writes took under 6ms here ($(tr '\n' ' ' <"$T/k.writes")us): nothing to find"
	fi
else
	skip "irq-off: no enabled legacy console printing errors (/proc/consoles, kernel.printk): no interrupts-off period to make from user space"
fi

# --- irq-off: the ways to stop, the options ---
"$PP" irq-off -N 300 >"$T/n" 2>"$T/n.err"
check_eq "irq-off -N 300: exit status" $? 0
check "irq-off -N 300: 300 samples" grep -q '^irq-off: interrupts held off 20.000ms or more (cpu-clock every 1.000ms), 300 samples$' "$T/n"
"$PP" irq-off -L 3000 -F 2000 -- sleep 1 >"$T/c" 2>"$T/c.err"
check_eq "irq-off -- sleep 1: exit status" $? 0
check "irq-off -L 3000 -F 2000: the original's spelling (us), 500us timer" grep -q '^irq-off: interrupts held off 3.000ms or more (cpu-clock every 500.000us), [0-9]* samples$' "$T/c"
check "irq-off: a row per CPU" test "$(grep -c '^ *[0-9]\+ \+[0-9]\+ \+[0-9]\+ ' "$T/c")" -eq "$NCPU"
# a busy CPU for a second at 1 kHz: about 1000 samples
spawn w taskset -c 0 sh -c 'while :; do :; done'
"$PP" irq-off -C 0 -- sleep 1 >"$T/b" 2>&1
reap "$w"
check_range "irq-off: a busy CPU's samples in 1s at 1ms" "$(awk '$1 == "0" { print $2 }' "$T/b")" 900 1100

# --- watchdog: a spinner on each CPU, 9 s ---
thresh=$(cat /proc/sys/kernel/watchdog_thresh 2>/dev/null || echo 0)
if [ "$(cat /proc/sys/kernel/watchdog 2>/dev/null)" = 1 ] && [ "$thresh" -gt 0 ] && [ "$thresh" -le 10 ]; then
	pids=()
	for c in $(seq 0 "$LAST"); do
		spawn w taskset -c "$c" sh -c 'while :; do :; done'
		pids+=("$w")
	done
	secs=$((thresh * 2 / 5 * 2 + 1)) # two periods of the hrtimer and a bit
	"$PP" watchdog -g -- sleep "$secs" >"$T/w" 2>"$T/w.err"
	rc=$?
	for w in "${pids[@]}"; do reap "$w"; done
	check_eq "watchdog -- sleep $secs: exit status" $rc 0
	if [ -e /sys/bus/event_source/devices/cpu/events/cpu-cycles ]; then
		check_eq "watchdog: says which sample, once" "$(grep -c 'sampling cycles (an NMI) at 10 Hz' "$T/w.err")" 1
	else
		check_eq "watchdog: no PMU: cpu-clock, said once" "$(grep -c 'no hardware PMU here: sampling the cpu-clock software event at 10 Hz' "$T/w.err")" 1
	fi
	check "watchdog: the summary" grep -q "^watchdog: hard lockup after ${thresh}.000s without the watchdog hrtimer, soft lockup after $((2 * thresh)).000s" "$T/w"
	for c in $(seq 0 "$LAST"); do
		r=$(awk -v c="$c" '$1 == c && NF == 9' "$T/w")
		check_range "watchdog: CPU $c: its hrtimer every $((thresh * 2 / 5))s ($secs s)" "$(echo "$r" | awk '{ print $2 }')" 2 3
		check_range "watchdog: CPU $c: longest busy time without it (ns)" "$(ns "$(echo "$r" | awk '{ print $3 }')")" $((thresh * 4 * 100000000 - 100000000)) $((thresh * 4 * 100000000 + 100000000))
		check "watchdog: CPU $c: migration/$c ran" test "$(echo "$r" | awk '{ print $6 }')" -ge 2
		check_eq "watchdog: CPU $c: no warning" "$(echo "$r" | awk '{ print $4 + $8 }')" 0
		check_range "watchdog: CPU $c: its samples at 10 Hz (a spinner: never idle)" "$(echo "$r" | awk '{ print $9 }')" $((secs * 10 - 10)) $((secs * 10 + 10))
	done
	check_eq "watchdog: no warning line" "$(grep -c ' watchdog: CPU ' "$T/w")" 0
else
	skip "watchdog: the lockup detector is off or watchdog_thresh is not 1..10 here"
fi
"$PP" watchdog -v >"$T/i" 2>"$T/i.err" &
p=$!
monitoring "$T/i.err" $p
sleep 1
kill -INT $p
wait $p
check_eq "watchdog: SIGINT: exit status" $? 0
check "watchdog: SIGINT: the summary" grep -q '^ CPU  HRTIMER ' "$T/i"
"$PP" watchdog -N 10 >"$T/wn" 2>&1
check_eq "watchdog -N 10: exit status" $? 0

# --- bad input: one line, status 2 ---
bad() { # description expected-text args...
	local d=$1 want=$2
	shift 2
	"$PP" "$@" >"$T/e" 2>&1
	check_eq "$d: status 2" $? 2
	check "$d: says '$want'" grep -q -- "$want" "$T/e"
}
bad "irq-off --than abc" "abc" irq-off --than abc -- true
bad "irq-off --than 1ms with a 1ms timer" "period 500.000us or less" irq-off --than 1ms -- true
bad "irq-off -F 200000" "at most 100000 Hz" irq-off -F 200000 -- true
bad "irq-off -F and --period" "give one" irq-off -F 100 --period 1ms -- true
bad "irq-off -C $NCPU" "bad CPU list" irq-off -C "$NCPU" -- true
bad "irq-off -p" "not tasks" irq-off -p $$
bad "watchdog --warn 30" "from 50 to 99" watchdog --warn 30 -- true
bad "watchdog -F 20000" "at most 10000 Hz" watchdog -F 20000 -- true
bad "watchdog -C $NCPU" "bad CPU list" watchdog -C "$NCPU" -- true
done_tests
