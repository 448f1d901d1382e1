#!/bin/bash
# irq-off and watchdog, live.  irq-off finds a real interrupts-off period:
# a line written to /dev/kmsg is printed on the serial console with
# interrupts off (printk's legacy console path; ~9 ms for 800 characters on
# this VM's 8250): the gap is reported on the writer's CPU, with a length
# between the threshold and the write's own duration, and the stack through
# the console code.  A short line first measures the console's speed (up to
# three tries when a write is slow): the three long lines follow only where
# each would hold interrupts off 25 ms at most (a 9600-baud console would
# take 0.8 s).  The lines are at the lowest level the console prints (info
# at most); four to six lines in the kernel log are the only effect.
# watchdog, with a spinner on each CPU (an idle CPU's hrtimer samples are
# not delivered here): every CPU's watchdog hrtimer seen every 2/5 of
# watchdog_thresh, its stopper kthread runs, no warning.  Both stop cleanly
# on SIGINT, -N and at the end of a command; bad input exits 2.  The logic
# (lengths, idle gaps, warnings once per episode with the stacks) is tested
# on synthesized streams in tests/unit/test_gapwatch.c: no user program
# can hold interrupts off or keep a stopper kthread away for seconds.
#
# Spinners and background runs get a parent-death signal: they end with
# this script even if it is killed with SIGKILL (no EXIT trap runs then).
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
NCPU=$(nproc)
LAST=$((NCPU - 1))

# prefixes: the command (exec'd in place, so its parent is this script) gets
# SIGKILL, or SIGTERM (perf-prof then stops cleanly), when this script dies
if setpriv --pdeathsig KILL true 2>/dev/null; then
	DIE_KILL=(setpriv --pdeathsig KILL) DIE_TERM=(setpriv --pdeathsig TERM)
else
	DIE_KILL=() DIE_TERM=()
fi
# spinner VAR CPU: a busy loop on CPU in a group of its own (reap VAR)
spinner() { spawn "$1" "${DIE_KILL[@]}" taskset -c "$2" sh -c 'while :; do :; done'; }

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
	# the lowest level the console prints, info at most (a test need not alarm the log's readers)
	level=$(($(awk '{ print $1 }' /proc/sys/kernel/printk) - 1))
	[ "$level" -gt 6 ] && level=6
	# the writer's CPU kept busy: a gap during which the CPU left idle is not reported, and
	# the writer, woken from its nap, may disable interrupts before the first timer sample
	spinner busy "$LAST"
	rm -f "$T/k.err" # not an earlier run's "monitoring"
	"${DIE_TERM[@]}" "$PP" irq-off -C "$LAST" --than 5ms -g -v >"$T/k" 2>"$T/k.err" &
	p=$!
	if monitoring "$T/k.err" $p; then
		# a short line first: the console's speed (the printed line has a ~15-character
		# time stamp more; up to 3 tries, the fastest: a write may be interrupted); where
		# 800 characters would hold interrupts off over 25 ms, no more; else three lines
		# of 800, each write timed by the writer (microseconds)
		taskset -c "$LAST" bash -c 'level=$1 us=
			line=$(printf "perf-prof t_lockup: console speed %040d" 0)
			for try in 1 2 3; do
				a=${EPOCHREALTIME/./}
				printf "<%d>%s\n" "$level" "$line" >/dev/kmsg
				b=${EPOCHREALTIME/./}
				[ -z "$us" ] || [ $((b - a)) -lt "$us" ] && us=$((b - a))
				[ $((us * 800 / (${#line} + 15))) -le 25000 ] && break
			done
			echo "$us $((us * 800 / (${#line} + 15) / 1000))" >"$2"
			[ $((us * 800 / (${#line} + 15))) -gt 25000 ] && exit
			for i in 1 2 3; do
				a=${EPOCHREALTIME/./}
				printf "<%d>perf-prof t_lockup: console write %d %0800d\n" "$level" $i 0 >/dev/kmsg
				b=${EPOCHREALTIME/./}
				echo $((b - a))
				sleep 0.05
			done' sh "$level" "$T/k.speed" >"$T/k.writes"
		sleep 0.3
	fi
	kill -INT $p 2>/dev/null
	wait $p
	check_eq "irq-off: SIGINT: exit status" $? 0
	reap "$busy"
	check "irq-off: the summary" grep -q '^total: [0-9]* irq-off periods of 5.000ms or more' "$T/k"
	speed_us=? ms800=0
	[ -s "$T/k.speed" ] && read -r speed_us ms800 <"$T/k.speed"
	longest_write=$(sort -n "$T/k.writes" 2>/dev/null | tail -n1)
	slow=$(awk '$1 >= 6000 { n++ } END { print n + 0 }' "$T/k.writes" 2>/dev/null)
	if [ ! -s "$T/k.speed" ]; then
		check "irq-off -C $LAST: monitoring began" false
	elif [ "$ms800" -gt 25 ]; then
		skip "irq-off: the console is slow (${speed_us}us for a line of ~90 characters: ~${ms800}ms for 800): no long line written"
	elif [ "$slow" -gt 0 ]; then
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
# (-N counts samples, and an idle CPU gives none: a busy one gives 300 in 0.3 s)
spinner w 0
"$PP" irq-off -N 300 >"$T/n" 2>"$T/n.err"
check_eq "irq-off -N 300: exit status" $? 0
reap "$w"
check "irq-off -N 300: 300 samples" grep -q '^irq-off: interrupts held off 20.000ms or more (cpu-clock every 1.000ms), 300 samples$' "$T/n"
"$PP" irq-off -L 3000 -F 2000 -- sleep 1 >"$T/c" 2>"$T/c.err"
check_eq "irq-off -- sleep 1: exit status" $? 0
check "irq-off -L 3000 -F 2000: the original's spelling (us), 500us timer" grep -q '^irq-off: interrupts held off 3.000ms or more (cpu-clock every 500.000us), [0-9]* samples$' "$T/c"
check "irq-off: a row per CPU" test "$(grep -c '^ *[0-9]\+ \+[0-9]\+ \+[0-9]\+ ' "$T/c")" -eq "$NCPU"
# a busy CPU for a second at 1 kHz: about 1000 samples (and those of the start and
# the end of sleep, slower on a loaded host)
spinner w 0
"$PP" irq-off -C 0 -- sleep 1 >"$T/b" 2>&1
reap "$w"
check_range "irq-off: a busy CPU's samples in 1s at 1ms" "$(awk '$1 == "0" { print $2 }' "$T/b")" 900 1200

# --- watchdog: a spinner on each CPU, 9 s ---
# The kernel's own trace of the watchdog's hrtimer (a tracefs instance of this
# test, the perf events not involved) is the ground truth: on this VM under
# load the hrtimer itself now and then skips a period or two (an 8 or 12 s
# gap).  Where it did not, perf-prof must see it every 4 s and warn of
# nothing; where it did, perf-prof must report that gap: warned, once.
tracefs=/sys/kernel/tracing/instances
for d in "$tracefs"/pp-t_lockup-*; do # left by a run killed with SIGKILL
	[ -d "$d" ] && ! kill -0 "${d##*-}" 2>/dev/null && rmdir "$d" 2>/dev/null
done
kernel_trace_start() {
	local fn ev
	fn=$(awk '$3 == "watchdog_timer_fn" { print $1; exit }' /proc/kallsyms)
	inst=$tracefs/pp-t_lockup-$$
	ev=$inst/events/timer/hrtimer_expire_entry
	[ -n "$fn" ] && mkdir "$inst" 2>/dev/null || return 1
	trap '_cleanup; rmdir "$inst" 2>/dev/null' EXIT
	# and a guard removes it if this script is killed with SIGKILL (no EXIT trap)
	guard=
	[ ${#DIE_TERM[@]} -gt 0 ] && spawn guard "${DIE_TERM[@]}" sh -c \
		'trap "rmdir \"$0\" 2>/dev/null; exit 0" TERM; while :; do sleep 1; done' "$inst" 2>/dev/null
	echo mono >"$inst/trace_clock" && echo "function == 0x$fn" >"$ev/filter" &&
		echo 1 >"$ev/enable" && return 0
	kernel_trace_stop /dev/null
	return 1
}
kernel_trace_stop() { # FILE
	echo 0 >"$inst/events/timer/hrtimer_expire_entry/enable" 2>/dev/null
	cat "$inst/trace" >"$1"
	rmdir "$inst"
	[ -n "$guard" ] && reap "$guard"
}
thresh=$(cat /proc/sys/kernel/watchdog_thresh 2>/dev/null || echo 0)
if [ "$(cat /proc/sys/kernel/watchdog 2>/dev/null)" = 1 ] && [ "$thresh" -gt 0 ] && [ "$thresh" -le 10 ]; then
	pids=()
	for c in $(seq 0 "$LAST"); do
		spinner w "$c"
		pids+=("$w")
	done
	secs=$((thresh * 2 / 5 * 2 + 1)) # two periods of the hrtimer and a bit
	kernel_trace_start && traced=1 || traced=0
	"${DIE_TERM[@]}" "$PP" watchdog -v -g -- sleep "$secs" >"$T/w" 2>"$T/w.err"
	rc=$?
	[ "$traced" = 1 ] && kernel_trace_stop "$T/w.kernel"
	for w in "${pids[@]}"; do reap "$w"; done
	check_eq "watchdog -- sleep $secs: exit status" $rc 0
	if [ -e /sys/bus/event_source/devices/cpu/events/cpu-cycles ]; then
		check_eq "watchdog: says which sample, once" "$(grep -c 'sampling cycles (an NMI) at 10 Hz' "$T/w.err")" 1
	else
		check_eq "watchdog: no PMU: cpu-clock, said once" "$(grep -c 'no hardware PMU here: sampling the cpu-clock software event at 10 Hz' "$T/w.err")" 1
	fi
	check "watchdog: the summary" grep -q "^watchdog: hard lockup after ${thresh}.000s without the watchdog hrtimer, soft lockup after $((2 * thresh)).000s" "$T/w"
	period=$((thresh * 4 * 100000000)) # ns
	for c in $(seq 0 "$LAST"); do
		r=$(awk -v c="$c" '$1 == c && NF == 9' "$T/w")
		longest=$(ns "$(echo "$r" | awk '{ print $3 }')")
		# the kernel's longest gap between two of CPU c's hrtimers (ns), 0 if not traced
		kgap=0
		[ -s "$T/w.kernel" ] && kgap=$(awk -v cpu="$(printf '[%03d]' "$c")" '
			$0 ~ /hrtimer_expire_entry:/ && index($0, cpu) {
				for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) t = substr($i, 1, length($i) - 1) + 0
				if (last && t - last > g) g = t - last
				last = t
			} END { printf "%.0f\n", g * 1e9 }' "$T/w.kernel")
		# each hrtimer queues a run of the stopper (the last one's may come after the end)
		check "watchdog: CPU $c: migration/$c ran after its hrtimers" test "$(echo "$r" | awk '{ print $6 }')" -ge "$(echo "$r" | awk '{ print ($2 > 2 ? $2 - 1 : 1) }')"
		check_range "watchdog: CPU $c: its samples at 10 Hz (a spinner: never idle)" "$(echo "$r" | awk '{ print $9 }')" $((secs * 10 - 10)) $((secs * 10 + 10))
		if [ "$kgap" -le $((period + 100000000)) ]; then
			check_range "watchdog: CPU $c: its hrtimer every $((thresh * 2 / 5))s ($secs s)" "$(echo "$r" | awk '{ print $2 }')" 2 3
			check_range "watchdog: CPU $c: longest busy time without it (ns)" "$longest" $((period - 100000000)) $((period + 100000000))
			check_eq "watchdog: CPU $c: no warning" "$(echo "$r" | awk '{ print $4 + $8 }')" 0
			check_eq "watchdog: CPU $c: no warning line" "$(grep -c " watchdog: CPU $c: no " "$T/w")" 0
		else
			echo "# the kernel's watchdog hrtimer on CPU $c skipped a period: a ${kgap}ns gap in its own trace"
			check "watchdog: CPU $c: its hrtimer seen" test "$(echo "$r" | awk '{ print $2 }')" -ge 1
			check_range "watchdog: CPU $c: longest busy time without it (ns), at most the kernel's gap" "$longest" $((period - 100000000)) $((kgap + 100000000))
			if [ "$longest" -ge $((thresh * 500000000)) ]; then
				check_eq "watchdog: CPU $c: the gap over 50% of watchdog_thresh: warned once" "$(grep -c " watchdog: CPU $c: no watchdog hrtimer for " "$T/w")" 1
				check_eq "watchdog: CPU $c: counted" "$(echo "$r" | awk '{ print $4 }')" 1
			else
				check_eq "watchdog: CPU $c: under 50% of watchdog_thresh here: no warning line" "$(grep -c " watchdog: CPU $c: no " "$T/w")" 0
			fi
		fi
	done
else
	skip "watchdog: the lockup detector is off or watchdog_thresh is not 1..10 here"
fi
rm -f "$T/i.err" # not an earlier run's "monitoring"
"${DIE_TERM[@]}" "$PP" watchdog -v >"$T/i" 2>"$T/i.err" &
p=$!
monitoring "$T/i.err" $p
sleep 1
kill -INT $p
wait $p
check_eq "watchdog: SIGINT: exit status" $? 0
check "watchdog: SIGINT: the summary" grep -q '^ CPU  HRTIMER ' "$T/i"
spinner w 0
"$PP" watchdog -N 10 >"$T/wn" 2>&1
check_eq "watchdog -N 10: exit status" $? 0
reap "$w"

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
