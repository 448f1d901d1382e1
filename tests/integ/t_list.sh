#!/usr/bin/env bash
# perf-prof list: sections, tracepoint globs, -v fields, errors; checked
# against what sysfs and tracefs hold on this host.
. "$(dirname "$0")/lib.sh"

TR=/sys/kernel/tracing
if ! grep -q " $TR tracefs " /proc/mounts; then
	skip "tracefs is not mounted at $TR"
	done_tests
	exit
fi

# One exact tracepoint: exactly one line.
"$PP" list 'sched:sched_switch' >"$T/one" 2>"$T/err"
check_eq "list sched:sched_switch exits 0" $? 0
check_eq "list sched:sched_switch is one line" "$(wc -l <"$T/one")" 1
check_eq "list sched:sched_switch line" "$(cat "$T/one")" "sched:sched_switch [Tracepoint event]"
check_eq "nothing on stderr" "$(cat "$T/err")" ""

# A glob: the same names as the event directories it matches in tracefs.
want=$(cd "$TR/events/sched" && ls -d sched_wake*/ | sed 's|/$||; s|^|sched:|' | sort)
"$PP" list 'sched:sched_wake*' >"$T/wake"
got=$(awk '{ print $1 }' "$T/wake")
check_eq "sched:sched_wake* names" "$got" "$want"
check_eq "sched:sched_wake* count" "$(wc -l <"$T/wake")" "$(wc -l <<<"$want")"
check "sched:sched_wake* has sched_wakeup" grep -qx 'sched:sched_wakeup  *\[Tracepoint event\]' "$T/wake"
check "sched:sched_wake* has sched_wakeup_new" grep -q '^sched:sched_wakeup_new ' "$T/wake"
# sched_waking does not match sched_wake* (wak-i-ng): a glob, not a prefix.
check "sched:sched_wake* excludes sched_waking" bash -c "! grep -q sched_waking '$T/wake'"
"$PP" list 'sched:sched_wak*' >"$T/wak"
check "sched:sched_wak* has sched_waking" grep -q '^sched:sched_waking ' "$T/wak"

# A bare system name lists the system; a bare event glob searches every system.
nr_sched=$(ls -d "$TR"/events/sched/*/ | wc -l)
check_eq "list sched: every sched event" "$("$PP" list sched | wc -l)" "$nr_sched"
check_eq "list 'sched_wake*' = list 'sched:sched_wake*'" "$("$PP" list 'sched_wake*')" \
	"$(cat "$T/wake")"
check_eq "list 'sys_enter_getppid'" "$("$PP" list sys_enter_getppid | awk '{ print $1 }')" \
	"syscalls:sys_enter_getppid"

# -v: id, fields with offsets, sizes, signedness, and the print format.
"$PP" list -v sched:sched_switch >"$T/v"
check_eq "list -v exits 0" $? 0
id=$(cat "$TR/events/sched/sched_switch/id")
check "-v prints the id" grep -qx "  id: $id" "$T/v"
for f in prev_comm prev_pid prev_state next_pid next_comm common_pid; do
	fmt=$(grep -o "field:[^;]* $f\(\[[0-9]*\]\)\?;[^	]*	offset:[0-9]*;	size:[0-9]*;	signed:[01]" \
		"$TR/events/sched/sched_switch/format")
	off=$(sed -E 's/.*offset:([0-9]+).*/\1/' <<<"$fmt")
	size=$(sed -E 's/.*size:([0-9]+).*/\1/' <<<"$fmt")
	sgn=$(sed -E 's/.*signed:([01]).*/\1/' <<<"$fmt")
	[ "$sgn" = 1 ] && sgn=signed || sgn=unsigned
	line=$(awk -v f="$f" '$NF == f' "$T/v")
	check_eq "-v field $f offset/size/sign" "$(awk '{ print $1, $2, $3 }' <<<"$line")" \
		"$off $size $sgn"
done
check "-v prev_comm is char[16]" grep -q ' char\[16\]  *prev_comm$' "$T/v"
check "-v prints the kernel's print fmt" grep -qF \
	"$(grep '^print fmt:' "$TR/events/sched/sched_switch/format")" "$T/v"
check_eq "--fields = -v" "$("$PP" list --fields sched:sched_switch)" "$(cat "$T/v")"
# A __data_loc string field is labelled as such.
"$PP" list -v sched:sched_process_exec >"$T/exec"
check "-v marks __data_loc fields" grep -q '__data_loc char\[\]  *filename' "$T/exec"

# The full listing: sections, and one line per tracepoint libtracefs can
# enable (ftrace's internal events have no "enable" file and cannot be
# opened as perf tracepoints, so they are not listed).
"$PP" list >"$T/all" 2>"$T/allerr"
check_eq "list exits 0" $? 0
for s in "Software events:" "Hardware events:" "PMUs in /sys/bus/event_source/devices:" \
	"Dynamic probes:" "Tracepoints:"; do
	check "section '$s'" grep -qx "$s" "$T/all"
done
nr_tp=$(ls "$TR"/events/*/*/enable | wc -l)
check_eq "tracepoint count = event dirs in tracefs" \
	"$(grep -c '\[Tracepoint event\]$' "$T/all")" "$nr_tp"
check "tracepoints sorted" bash -c "awk '/\[Tracepoint event\]/ { print \$1 }' '$T/all' | sort -c"
for e in "cpu-clock" "task-clock" "context-switches OR cs" "cpu-migrations OR migrations" \
	"page-faults OR faults" "minor-faults" "major-faults" "alignment-faults" \
	"emulation-faults" "dummy" "bpf-output"; do
	check "software event '$e'" grep -q "^  $e  *\[Software event\]$" "$T/all"
done
for d in /sys/bus/event_source/devices/*; do
	p=$(basename "$d")
	check "PMU $p with its type" grep -qE "^  $p +type $(cat "$d/type")$" "$T/all"
	if [ -d "$d/events" ]; then
		for e in $(ls "$d/events" | grep -v '\.'); do
			check "PMU event $p/$e/" grep -qE "^    $p/$e/ +\[Kernel PMU event\]$" "$T/all"
		done
	fi
done
if [ -d /sys/bus/event_source/devices/cpu ] || [ -d /sys/bus/event_source/devices/cpu_core ]; then
	check "hardware events listed" grep -q '^  cpu-cycles OR cycles  *\[Hardware event\]$' \
		"$T/all"
else
	check "no hardware events without a CPU PMU" \
		bash -c "! grep -q 'Hardware event\]' '$T/all'"
	check "no-PMU hint" grep -q '^  none: no hardware PMU on this host.*use cpu-clock$' "$T/all"
fi
if [ -e "$TR/uprobe_events" ] && [ -d /sys/bus/event_source/devices/uprobe ]; then
	check_eq "uprobes line" "$(grep '^  uprobes:' "$T/all")" \
		"  uprobes: supported (tracefs uprobe_events, PMU uprobe type $(cat /sys/bus/event_source/devices/uprobe/type))"
fi
if [ ! -e "$TR/kprobe_events" ] && [ ! -d /sys/bus/event_source/devices/kprobe ]; then
	check_eq "kprobes line" "$(grep '^  kprobes:' "$T/all")" \
		"  kprobes: not supported by this kernel (no CONFIG_KPROBES)"
elif [ -e "$TR/kprobe_events" ]; then
	check "kprobes supported" grep -q '^  kprobes: supported (tracefs kprobe_events' "$T/all"
fi
check_eq "list: nothing on stderr" "$(cat "$T/allerr")" ""

# Speed: plain listing only reads directories.
start=$(date +%s%N)
for i in 1 2 3 4 5; do "$PP" list >/dev/null; done
ms=$((($(date +%s%N) - start) / 5000000))
# speed is no assertion here: a timed check flips on a busy host
echo "# list: $ms ms per run"

# Bad patterns: one stderr line, exit 1, nothing on stdout.
"$PP" list 'x:y' >"$T/out" 2>"$T/err"
check_eq "x:y exits 1" $? 1
check_eq "x:y stdout empty" "$(cat "$T/out")" ""
check_eq "x:y message" "$(cat "$T/err")" \
	"no tracepoint matches 'x:y': no system 'x' (try: perf-prof list)"
"$PP" list 'sched:nosuch*' >"$T/out" 2>"$T/err"
check_eq "sched:nosuch* exits 1" $? 1
check_eq "sched:nosuch* message" "$(cat "$T/err")" \
	"no tracepoint matches 'sched:nosuch*' (try: perf-prof list 'sched:*')"
"$PP" list 'nosuch_event_xyz' >"$T/out" 2>"$T/err"
check_eq "bare no-match exits 1" $? 1
check_eq "bare no-match is one line" "$(wc -l <"$T/err")" 1
check_eq "bare no-match message" "$(cat "$T/err")" \
	"no tracepoint matches 'nosuch_event_xyz' (try: perf-prof list)"
check_eq "bare near-miss suggests a glob" "$("$PP" list 'sched_wakeu' 2>&1 >/dev/null)" \
	"no tracepoint matches 'sched_wakeu' (try: perf-prof list '*sched_wakeu*')"
check_eq "wrong system, known event" "$("$PP" list 'schd:sched_switch' 2>&1 >/dev/null)" \
	"no tracepoint matches 'schd:sched_switch': no system 'schd' (try: perf-prof list 'sched_switch')"
# One good and one bad pattern: the good one is listed, the exit status is 1.
"$PP" list 'sched:sched_switch' 'x:y' >"$T/out" 2>"$T/err"
check_eq "mixed patterns exit 1" $? 1
check_eq "mixed patterns list the match" "$(awk '{ print $1 }' "$T/out")" "sched:sched_switch"

# tracefs not mounted: in a private mount namespace, so the host keeps it.
if unshare -m true 2>/dev/null; then
	unshare -m bash -c "umount $TR 2>/dev/null; grep -q ' tracefs ' /proc/mounts && exit 3
		'$PP' list sched:sched_switch >'$T/out' 2>'$T/err'; rc=\$?
		grep -q ' tracefs ' /proc/mounts && exit 4; exit \$rc"
	rc=$?
	if [ $rc -eq 3 ]; then
		skip "could not unmount tracefs in a private namespace"
	else
		check_eq "no tracefs: exit 1 (and not mounted behind our back)" $rc 1
		check_eq "no tracefs: message" "$(cat "$T/err")" \
			"tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing"
	fi
else
	skip "unshare -m not permitted"
fi

# Not root: a permission hint, not "no match".
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if ! command -v setpriv >/dev/null || [ "$(id -u)" -ne 0 ]; then
	skip "non-root check needs root and setpriv"
elif ! nobody test -x "$PP"; then
	skip "$PP is not executable by nobody"
else
	nobody "$PP" list sched >"$T/out" 2>"$T/err"
	check_eq "non-root: exit 1" $? 1
	check "non-root: permission hint" grep -q '^permission denied on .*run as root$' "$T/err"
	check_eq "non-root: one line" "$(wc -l <"$T/err")" 1
fi

# A full disk is an error, not a complete listing.
if [ -w /dev/full ]; then
	"$PP" list >/dev/full 2>"$T/err"
	check_eq "list > /dev/full: exit 1" $? 1
	check "list > /dev/full: says why" grep -q "No space left on device" "$T/err"
	"$PP" list sched:sched_switch >/dev/full 2>"$T/err"
	check_eq "list PATTERN > /dev/full: exit 1" $? 1
else
	skip "no writable /dev/full"
fi

done_tests
