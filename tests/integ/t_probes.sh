#!/bin/bash
# Dynamic probes in -e against tests/work/probe/probe_calls, which calls
# pp_add(i, 1000 + i) and pp_greet("hello-(i%3)") N times and fires the
# USDT probes ppwork:tick(i, 2i) and ppwork:sematick(i) (only while its
# semaphore is held): uprobe arguments, uretprobe return values, a typed
# string fetch, USDT operands in registers (-O2) and in memory (-O0),
# -p with the executable found by itself, the messages of bad input, and
# no tracefs probe of ours left after any exit path.
. "$(dirname "$0")/lib.sh"

X=$W/probe_calls
[ -x "$X" ] || { skip "workload probe_calls not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -d /sys/bus/event_source/devices/uprobe ] || { skip "no uprobe PMU"; done_tests; exit; }
TRACEFS=/sys/kernel/tracing
# Groups of perf-prof processes alive before the suite (another run on this
# host) are not ours; groups of dead ones are what any run removes first.
foreign=" "
for g in "$TRACEFS"/events/perf_prof_*; do
	[ -e "$g" ] || continue
	pid=${g##*_}
	[ -d "/proc/$pid" ] && foreign+="$pid "
done
ours() {
	local g n=0
	for g in "$TRACEFS"/events/perf_prof_*; do
		[ -e "$g" ] || continue
		case $foreign in *" ${g##*_} "*) continue ;; esac
		n=$((n + 1))
	done
	echo $n
}
# what dead runs left before the suite goes first (as any probe-making run does)
"$PP" trace -e "uprobe:pp_greet@\"$X\"//arg1=string/" -- "$X" 1 >/dev/null 2>&1
stale_before=0
check_eq "no group but live ones' before the tests" "$(ours)" 0

# uprobe: 1000 calls, arg1 = i (each once), arg2 = 1000 + i
"$PP" trace -e "uprobe:pp_add@\"$X\"" -- "$X" 1000 >"$T/u" 2>"$T/u.err"
check_eq "uprobe: exit status" $? 0
check_eq "uprobe: 1000 lines" "$(grep -c ' uprobe:pp_add: ' "$T/u")" 1000
# hex "0x3e8" -> 1000 (mawk has no strtonum)
HEX='function hex(s,  i, n) { n = 0; s = tolower(s); sub(/^0x/, "", s);
	for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1;
	return n }'
awk "$HEX"' / uprobe:pp_add: / { for (i = 1; i <= NF; i++) { if ($i ~ /^arg1=/) a = hex(substr($i, 6));
	if ($i ~ /^arg2=/) b = hex(substr($i, 6)) } if (b == a + 1000) print a }' "$T/u" | sort -n | uniq >"$T/u.a1"
check_eq "uprobe: arg1 = 0..999, each with arg2 = 1000 + arg1" "$(wc -l <"$T/u.a1") $(head -1 "$T/u.a1") $(tail -1 "$T/u.a1")" "1000 0 999"

# uretprobe: retval = 2i + 1000
"$PP" trace -e "uretprobe:pp_add@\"$X\"" -- "$X" 1000 >"$T/r" 2>"$T/r.err"
check_eq "uretprobe: exit status" $? 0
check_eq "uretprobe: 1000 lines" "$(grep -c ' uretprobe:pp_add: ' "$T/r")" 1000
check_eq "uretprobe: retval = 1000 + 2i for every i" "$(grep -o 'retval=0x[0-9a-f]*' "$T/r" |
	awk "$HEX"'{ v = hex(substr($0, 8)); if ((v - 1000) % 2 == 0 && v >= 1000 && v <= 2998) print v }' | sort -u | wc -l)" 1000

# system-wide: the probes go through the uprobe PMU (nothing in tracefs)
pmu_run() { # OUT SPEC
	"$PP" trace -e "$2" -N 1000 -v >"$1" 2>"$1.err" &
	local p=$! i
	for i in $(seq 100); do grep -q 'monitoring' "$1.err" && break; sleep 0.1; done
	check_eq "PMU $2: no tracefs group" "$(ours)" 0
	"$X" 1000 >/dev/null
	for i in $(seq 100); do kill -0 $p 2>/dev/null || break; sleep 0.1; done
	kill -INT $p 2>/dev/null
	wait $p
}
pmu_run "$T/pu" "uprobe:pp_add@\"$X\""
check_eq "PMU uprobe, system-wide: 1000 lines" "$(grep -c ' uprobe:pp_add: (0x' "$T/pu")" 1000
check_eq "PMU uprobe: arg1 = 0..999 with arg2 = 1000 + arg1" "$(awk "$HEX"' / uprobe:pp_add: / { for (i = 1; i <= NF; i++) { if ($i ~ /^arg1=/) a = hex(substr($i, 6));
	if ($i ~ /^arg2=/) b = hex(substr($i, 6)) } if (b == a + 1000) print a }' "$T/pu" | sort -un | wc -l)" 1000
pmu_run "$T/pr" "uretprobe:pp_add@\"$X\""
check_eq "PMU uretprobe: retval = 1000 + 2i for every i" "$(grep -o 'retval=0x[0-9a-f]*' "$T/pr" |
	awk "$HEX"'{ v = hex(substr($0, 8)); if ((v - 1000) % 2 == 0 && v >= 1000 && v <= 2998) print v }' | sort -u | wc -l)" 1000

# a filter on an argument (user space: the registers are in the sample)
"$PP" trace -e "uprobe:pp_add@\"$X\"/arg1<10 && arg2>=1005/" -- "$X" 1000 >"$T/f" 2>"$T/f.err"
check_eq "filter arg1<10 && arg2>=1005: 5 lines" "$(grep -c ' uprobe:pp_add: ' "$T/f")" 5

# probes in the other profilers: a function's latency (entry => return per thread), an
# expression over its arguments
"$PP" multi-trace -e "uprobe:pp_add@\"$X\"" -e "uretprobe:pp_add@\"$X\"" -- "$X" 1000 >"$T/mt" 2>&1
check_eq "multi-trace uprobe => uretprobe: 1000 calls" "$(awk '$1 == "uprobe:pp_add" && $2 == "=>" { print $4 }' "$T/mt")" 1000
"$PP" num-dist -e "uprobe:pp_add@\"$X\"//num=arg2-arg1/" -- "$X" 1000 >"$T/nd" 2>&1
check_eq "num-dist num=arg2-arg1: 1000 calls, each 1000" "$(awk '$1 == "uprobe:pp_add" { print $2, $4, $NF }' "$T/nd")" "1000 1000 1000"

# a typed fetch: the string arg1 points to, through a tracefs event of ours
"$PP" trace -e "uprobe:pp_greet@\"$X\"//arg1=string/" -- "$X" 999 >"$T/s" 2>"$T/s.err"
check_eq "arg1=string: exit status" $? 0
check_eq "arg1=string: 333 of each name" "$(grep -o 'arg1="hello-[0-9]"' "$T/s" | sort | uniq -c | awk '{ print $1 }' | sort -u | tr '\n' ' ')" "333 "
check_eq "arg1=string: the tracefs event is gone after the run" "$(ours)" "$stale_before"
"$PP" trace -e "uprobe:pp_greet@\"$X\"/arg1==\"hello-1\"/arg1=string/" -- "$X" 999 >"$T/s2" 2>&1
check_eq "a kernel filter on the fetched string: 333 lines" "$(grep -c 'arg1="hello-1"' "$T/s2")" 333

# USDT in registers (read from the sample), and in memory (-O0: fetched by the kernel)
"$PP" trace -e "usdt:ppwork:tick@\"$X\"" -- "$X" 500 >"$T/t" 2>"$T/t.err"
check_eq "usdt (registers): 500 lines" "$(grep -c ' usdt:ppwork:tick: ' "$T/t")" 500
check_eq "usdt (registers): arg1 = i, arg2 = 2i" "$(awk '/usdt:ppwork:tick:/ { split($(NF-1), a, "="); split($NF, b, "=");
	if (b[2] == 2 * a[2]) print a[2] }' "$T/t" | sort -un | wc -l)" 500
"$PP" trace -e "usdt:ppwork:tick@\"${X}_O0\"" -- "${X}_O0" 500 >"$T/t0" 2>"$T/t0.err"
check_eq "usdt (memory, -O0): 500 lines" "$(grep -c ' usdt:ppwork:tick: ' "$T/t0")" 500
check_eq "usdt (memory, -O0): arg1 = i, arg2 = 2i" "$(grep -o 'arg1=[0-9-]* arg2=[0-9-]*' "$T/t0" |
	awk -F'[= ]' '$4 == 2 * $2 { print $2 }' | sort -un | wc -l)" 500
check_eq "usdt (memory): the tracefs event is gone" "$(ours)" "$stale_before"

# the semaphore: set while probed, so the probe fires; the workload counts it
"$PP" trace -e "usdt:ppwork:sematick@\"$X\"" -- "$X" 300 >"$T/m" 2>"$T/m.err"
check_eq "usdt semaphore: 300 lines" "$(grep -c ' usdt:ppwork:sematick: ' "$T/m")" 300
check "usdt semaphore: the workload saw it set 300 times" grep -q 'sema=300 done 300' "$T/m"
"$X" 10 >"$T/m0"
check "without the probe the semaphore is 0" grep -q 'sema=0 done 10' "$T/m0"

# -p: no @FILE probes the process's executable
attach "$T/p" "trace -e uretprobe:pp_add -p PID" probe_calls 200
check_eq "-p: exit status" "$(cat "$T/p.rc")" 0
check_eq "-p without @FILE: 200 returns" "$(grep -c ' uretprobe:pp_add: ' "$T/p")" 200

# a library by its name, found as the dynamic linker would: libc's getpid? use pp's libc call
"$PP" list "uprobe:malloc@\"libc.so.6\"" >"$T/l1" 2>&1
check_eq "list libc malloc: status" $? 0
check "list: the file is libc's" grep -Eq '^  file +/.*/libc\.so\.6$' "$T/l1"
check "list: the arguments are the ABI registers" grep -q 'arg1 .*register %di' "$T/l1"
"$PP" list "usdt:*:*@\"${X}_O0\"" >"$T/l2" 2>&1
check "list usdt: both probes" bash -c "grep -q '^usdt:ppwork:tick' '$T/l2' && grep -q '^usdt:ppwork:sematick' '$T/l2'"
check "list usdt: the semaphore" grep -q 'semaphore at file offset' "$T/l2"
check "list usdt: a memory operand" grep -q 'memory at -[0-9]*(%bp)' "$T/l2"
"$PP" list >"$T/l3" 2>&1
check "list: uprobes supported" grep -q 'uprobes: supported' "$T/l3"

# exit paths leave no tracefs event: SIGINT, a failing run, SIGKILL then a new run
spawn w "$PP" trace -e "uprobe:pp_greet@\"$X\"//arg1=string/" -- "$W/probe_calls" 100000000
for i in $(seq 50); do [ "$(ours)" != "$stale_before" ] && break; sleep 0.1; done
check "a running typed probe has its tracefs group" test "$(ours)" != "$stale_before"
kill -INT "$w"; wait "$w" 2>/dev/null
check_eq "SIGINT: no tracefs event left" "$(ours)" "$stale_before"
"$PP" trace -e "uprobe:pp_greet@\"$X\"//arg1=string/,sched:nosuch" -- true >/dev/null 2>&1
check_eq "a failing run: no tracefs event left" "$(ours)" "$stale_before"
spawn w "$PP" trace -e "uprobe:pp_greet@\"$X\"//arg1=string/" -- "$W/probe_calls" 100000000
for i in $(seq 50); do [ "$(ours)" != "$stale_before" ] && break; sleep 0.1; done
kill -KILL "$w"; wait "$w" 2>/dev/null
reap "$w" KILL
check "SIGKILL leaves it behind" test "$(ours)" != "$stale_before"
"$PP" trace -e "uprobe:pp_greet@\"$X\"//arg1=string/" -- "$X" 3 >/dev/null 2>&1
check_eq "... and the next run removes the dead process's group" "$(ours)" "$stale_before"

# bad input: one line, status 2 (usage) or 1 (missing kernel feature)
bad() { # DESC STATUS WORD SPEC [LINES]: an expression's error adds the text and a caret
	"$PP" trace -e "$4" -- true >/dev/null 2>"$T/bad"
	local rc=$?
	check_eq "$1: status" "$rc" "$2"
	check "$1: says '$3'" grep -q "$3" "$T/bad"
	check_eq "$1: lines" "$(wc -l <"$T/bad")" "${5:-1}"
}
bad "missing function" 2 "no function 'pp_nosuch'" "uprobe:pp_nosuch@\"$X\""
bad "missing file" 2 "no file" "uprobe:main@\"/nonexistent/bin\""
echo "not an elf" >"$T/text"
bad "not an ELF file" 2 "not an ELF file" "uprobe:main@\"$T/text\""
bad "retval on an entry probe" 2 "retval" "uprobe:pp_add@\"$X\"//retval=u32/"
bad "arg7" 2 "arg1..arg6" "uprobe:pp_add@\"$X\"/arg7==1/" 3
bad "a missing USDT probe" 2 "no USDT probe" "usdt:ppwork:nosuch@\"$X\""
if [ -d /sys/bus/event_source/devices/kprobe ]; then
	"$PP" trace -e 'kprobe:do_sys_openat2' -N 1 -- cat /dev/null >"$T/k" 2>&1
	check "kprobe: a line" grep -q 'kprobe:do_sys_openat2' "$T/k"
else
	bad "kprobe without CONFIG_KPROBES" 1 "CONFIG_KPROBES" "kprobe:do_sys_openat2"
fi

check_eq "nothing of ours left in tracefs" "$(ours)" "$stale_before"
done_tests
