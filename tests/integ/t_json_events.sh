#!/bin/bash
# --json of the event printers: trace (tracepoints and probes), expr, signal, page-faults,
# breakpoint, irq-off, watchdog, hrtimer.  Every output line parses (jq),
# is an object whose first member is "type", and nothing else is on the
# output.  The numbers are the ground truth of the profilers' own suites
# and those of a text run of the same workload: getppid_loop's calls
# (count, pid, syscall number), write_n's 100 writes (the count field,
# printed in hex by the kernel's format, decoded from the text and from
# the JSON), sigsend's 10 SIGUSR1 and 5 SIGTERM, touch's faults inside its
# buffer, bpvar's 100 writes and 20 calls (where breakpoints fire),
# burst's 1200 calls in hrtimer's periods, irq-off's 300 samples.
# comm_esc names itself with '"', '\', a newline, a tab, an ESC, a byte
# that is not UTF-8 and an 'é': the comm and the tracepoint's string
# fields decode to exactly that name, the bad byte as U+FFFD.
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
for w in getppid_loop write_n sigsend touch comm_esc burst bpvar; do
	[ -x "$W/$w" ] || { skip "workload $w not built (make workloads)"; done_tests; exit; }
done
command -v jq >/dev/null || { skip "no jq (apt-get install jq)"; done_tests; exit; }
command -v python3 >/dev/null || { skip "no python3"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/syscalls/sys_enter_getppid ] ||
	{ skip "no syscalls tracepoints"; done_tests; exit; }

# json_ok FILE: every line parses, is an object with "type" first, and there is at least one
json_ok() {
	[ -s "$1" ] && jq -e 'type == "object"' <"$1" >/dev/null &&
		[ "$(grep -c '^{"type":"[a-z_]*"[,}]' "$1")" = "$(wc -l <"$1")" ]
}
# count FILE JQ-FILTER: the lines the filter selects
count() { jq -c "select($2)" <"$1" | wc -l; }

# --- trace: getppid_loop's calls, as JSON and as text ---
# (--order: in time order even if getppid_loop moves to another CPU)
"$PP" trace -e syscalls:sys_enter_getppid --order --json -o "$T/t.json" -- "$W/getppid_loop" 1000 >"$T/t.wl" 2>"$T/t.err"
check_eq "trace --json: exit status" $? 0
"$PP" trace -e syscalls:sys_enter_getppid -o "$T/t.txt" -- "$W/getppid_loop" 1000 >/dev/null 2>&1
check "trace --json: every line parses, type first" json_ok "$T/t.json"
check_eq "trace --json: 1000 events, as many as the text has lines" "$(count "$T/t.json" '.type == "event"')" "$(grep -c ' syscalls:sys_enter_getppid: ' "$T/t.txt")"
check_eq "trace --json: all of getppid_loop, one thread" "$(jq -r '"\(.comm) \(.pid == .tid)"' "$T/t.json" | sort -u)" "getppid_loop true"
check_eq "trace --json: event and fields.__syscall_nr (getppid is 110)" "$(jq -c '[.event, .fields]' "$T/t.json" | sort -u)" '["syscalls:sys_enter_getppid",{"__syscall_nr":110}]'
# time_ns: wall-clock ns, within the run, never decreasing for one thread
now=$(date +%s%N)
check_range "trace --json: time_ns is the wall clock (s before now)" "$(jq -s "($now - .[0].time_ns) / 1e9" "$T/t.json")" 0 60
check_eq "trace --json: time_ns in order" "$(jq -s '[.[].time_ns] | . == sort' "$T/t.json")" true
check_eq "trace --json: cpu an integer" "$(jq -r '.cpu | type' "$T/t.json" | sort -u)" number

# -g: the stack as frames
"$PP" trace -e syscalls:sys_enter_getppid -g --json -o "$T/g.json" -- "$W/getppid_loop" 10 >/dev/null 2>&1
check "trace -g --json: parses" json_ok "$T/g.json"
check_eq "trace -g --json: each event with a stack of {addr, sym, off, dso}" \
	"$(count "$T/g.json" '(.stack | length) > 0 and (.stack[0] | has("addr") and has("sym") and has("dso"))')" 10
check_eq "trace -g --json: the leaf frame in libc (its syscall())" "$(count "$T/g.json" '.stack[0].dso | test("/libc[.-]")')" 10

# a probe's fields: libc's syscall(SYS_getppid) (arg1 110), its return (getppid's value)
if [ -d /sys/bus/event_source/devices/uprobe ]; then
	"$PP" trace -e 'uprobe:syscall@"libc.so.6"' --json -o "$T/u.json" -- "$W/getppid_loop" 3 >/dev/null 2>&1
	check_eq "uprobe --json: 3 calls, __probe_ip and arg1 = 0x6e" "$(count "$T/u.json" '.fields.arg1 == "0x6e" and (.fields.__probe_ip | startswith("0x"))')" 3
	"$PP" trace -e 'uretprobe:syscall@"libc.so.6"' --json -o "$T/ur.json" -- "$W/getppid_loop" 1 >/dev/null 2>&1 &
	p=$!
	wait $p
	check_eq "uretprobe --json: __probe_func, __probe_ret_ip, retval (getppid: perf-prof's pid)" \
		"$(jq -r '.fields | "\(.__probe_func | startswith("0x")) \(.__probe_ret_ip | startswith("0x")) \(.retval)"' "$T/ur.json")" "true true $(printf '0x%x' $p)"
else
	skip "no uprobe PMU"
fi

# --- trace and expr: write_n's 100 writes, fields decoded as the text shows them ---
if [ -d /sys/kernel/tracing/events/syscalls/sys_enter_write ]; then
	on_writes "$T/w.json" trace --json
	on_writes "$T/w.txt" trace
	check_eq "trace --json write: exit status" "$(cat "$T/w.json.rc")" 0
	check "trace --json write: parses" json_ok "$T/w.json"
	# the format prints count as 0x%08lx: a "0x.." string in JSON, the same numbers
	check_eq "trace --json write: count 1..100 (hex strings)" "$(jq -r '.fields.count' "$T/w.json" | while read -r c; do echo $((c)); done | tr '\n' ' ')" "$(seq 1 100 | tr '\n' ' ')"
	check_eq "trace write: the text's counts are the same" "$(grep -o 'count: 0x[0-9a-f]*' "$T/w.txt" | while read -r _ c; do echo $((c)); done | tr '\n' ' ')" "$(seq 1 100 | tr '\n' ' ')"
	# (two runs: the same fd, buf where ASLR put it)
	check_eq "trace --json write: fd as the text has it" \
		"$(jq -r '.fields.fd' "$T/w.json" | while read -r f; do printf 'fd: 0x%08x\n' "$f"; done | sort -u)" \
		"$(grep -o 'fd: 0x[0-9a-f]*' "$T/w.txt" | sort -u)"
	check_eq "trace --json write: buf one address, as text would print it" \
		"$(jq -r '.fields.buf' "$T/w.json" | sort -u | grep -c '^0x[0-9a-f]\{8,16\}$')" 1
	check_eq "trace --json write: __syscall_nr a number (write is 1)" "$(jq -c '.fields.__syscall_nr' "$T/w.json" | sort -u)" 1

	on_writes "$T/x.json" expr --json '(s8)(count + 120)'
	check_eq "expr --json: exit status" "$(cat "$T/x.json.rc")" 0
	check "expr --json: parses" json_ok "$T/x.json"
	want=$(awk 'BEGIN { for (n = 1; n <= 100; n++) { v = (n + 120) % 256; if (v > 127) v -= 256; printf "%d ", v } }')
	check_eq "expr --json: the signed 8-bit values" "$(jq -r .value "$T/x.json" | tr '\n' ' ')" "$want"
	check_eq "expr --json: with the event's fields" "$(count "$T/x.json" '.event == "syscalls:sys_enter_write" and (.fields | has("count"))')" 100
	on_writes "$T/y.json" expr --json '(u64)0 - count'
	# (jq 1.6 reads numbers as doubles: python's are exact)
	check_eq "expr --json: a 64-bit unsigned value, exact" \
		"$(python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).readline())["value"])' "$T/y.json")" 18446744073709551615
else
	skip "no syscalls:sys_enter_write tracepoint"
fi

# --- comm escaping: a name with every byte JSON must escape ---
want='a"b\\c\nd\te\x1b\ufffdz\u00e9'
# decoded FILE FILTER: the strings FILTER selects, decoded, each compared with the name
decoded() {
	python3 -c '
import json, sys
want = sys.argv[3].encode().decode("unicode_escape")
n = bad = 0
for line in open(sys.argv[1], "rb"):
    d = json.loads(line)
    for v in eval(sys.argv[2], {}, {"d": d}):
        n += 1
        bad += v != want
print(n, bad)' "$@" "$want"
}
"$PP" trace -e syscalls:sys_enter_getppid,signal:signal_generate,task:task_rename --json -o "$T/c.json" -- "$W/comm_esc" 5 >/dev/null 2>"$T/c.err"
check_eq "comm: exit status" $? 0
check "comm: every line parses" json_ok "$T/c.json"
check_eq "comm: the 5 getppid events' comm decodes to the name (n bad)" "$(decoded "$T/c.json" '[d["comm"]] if d["event"].endswith("getppid") else []')" "5 0"
check_eq "comm: task_rename's newcomm field too" "$(decoded "$T/c.json" '[d["fields"]["newcomm"]] if d["event"] == "task:task_rename" and d["fields"]["oldcomm"] == "comm_esc" else []')" "1 0"
check_eq "comm: signal_generate's comm field and the sender's" "$(decoded "$T/c.json" '[d["fields"]["comm"], d["comm"]] if d["event"] == "signal:signal_generate" and d["fields"]["sig"] == 10 else []')" "2 0"
check "comm: escaped as \\\" \\\\ \\n \\t \\u001b, the bad byte U+FFFD, é kept" \
	grep -qF '"comm":"a\"b\\c\nd\te\u001b'$'\xef\xbf\xbd''z'$'\xc3\xa9''"' "$T/c.json"
"$PP" signal --json -o "$T/cs.json" -- "$W/comm_esc" 1 >/dev/null 2>&1
check "signal --json comm: parses" json_ok "$T/cs.json"
check_eq "signal --json comm: sender and target comm decode to the name" "$(decoded "$T/cs.json" '[d["comm"], d["target_comm"]] if d["signal"] == "SIGUSR1" else []')" "2 0"

# --- signal: sigsend's 10 SIGUSR1 to sig_a, 5 SIGTERM to sig_b ---
"$PP" signal --json -o "$T/s.json" -- "$W/sigsend" >"$T/s.wl" 2>&1
check_eq "signal --json: exit status" $? 0
"$PP" signal -o "$T/s.txt" -- "$W/sigsend" >/dev/null 2>&1
check "signal --json: parses" json_ok "$T/s.json"
a=$(grep -o 'a=[0-9]*' "$T/s.wl" | cut -d= -f2)
b=$(grep -o 'b=[0-9]*' "$T/s.wl" | cut -d= -f2)
check_eq "signal --json: 10 SIGUSR1 to sig_a ($a), delivered, to the process" \
	"$(count "$T/s.json" ".signal == \"SIGUSR1\" and .sig == 10 and .target_comm == \"sig_a\" and .target_pid == $a and .process and .result == \"delivered\"")" 10
check_eq "signal --json: 5 SIGTERM to sig_b ($b)" "$(count "$T/s.json" ".signal == \"SIGTERM\" and .target_comm == \"sig_b\" and .target_pid == $b")" 5
check_eq "signal --json: as many as the text's lines" "$(count "$T/s.json" '.signal == "SIGUSR1" or .signal == "SIGTERM"')" "$(grep -c ' SIG\(USR1\|TERM\): ' "$T/s.txt")"
check_eq "signal --json: sent by sigsend" "$(jq -r 'select(.signal == "SIGUSR1" or .signal == "SIGTERM") | .comm' "$T/s.json" | sort -u)" sigsend

# --- page-faults: touch's 300 pages ---
"$PP" page-faults --json -o "$T/p.json" -- "$W/touch" 300 >"$T/p.wl" 2>&1
check_eq "page-faults --json: exit status" $? 0
check "page-faults --json: parses" json_ok "$T/p.json"
buf=$(grep -o 'buf=0x[0-9a-f]*' "$T/p.wl" | cut -d= -f2)
len=$(grep -o 'len=[0-9]*' "$T/p.wl" | cut -d= -f2)
inside=$(jq -r 'select(.event == "page-faults") | .addr' "$T/p.json" | while read -r x; do echo $((x)); done |
	awk -v b=$((buf)) -v l="$len" '$1 >= b && $1 < b + l { n++ } END { print n + 0 }')
check_range "page-faults --json: at least 300 faults inside the buffer" "$inside" 300 600
"$PP" page-faults -g -N 5 --json -o "$T/p5.json" -- "$W/touch" 300 >/dev/null 2>&1
check_eq "page-faults -g -N 5 --json: 5 faults with ip and stack" "$(count "$T/p5.json" '.event == "page-faults" and (.ip | startswith("0x")) and (.stack | length) > 0')" 5

# --- hrtimer: burst's 1200 calls on CPU 1 in 10 ms periods ---
if [ "$(nproc)" -ge 2 ]; then
	attach "$T/h.json" "hrtimer -C 1 --period 10ms -e syscalls:sys_enter_getppid/common_pid==PID/alias=gp/ gp>0 --json" burst -c 1 6 200 500
	check_eq "hrtimer --json: exit status" "$(cat "$T/h.json.rc")" 0
	check "hrtimer --json: parses" json_ok "$T/h.json"
	check_eq "hrtimer --json: the counts add up to the 1200 calls" "$(jq -s '[.[] | select(.type == "event") | .counts.gp] | add' "$T/h.json")" 1200
	check_eq "hrtimer --json: on CPU 1, over one period or more" "$(count "$T/h.json" '.type == "event" and (.cpu != 1 or .periods < 1 or .counts.gp < 1)')" 0
	check_eq "hrtimer --json: the summary counts the events" \
		"$(jq -s '([.[] | select(.type == "event")] | length) == ([.[] | select(.type == "summary")][0].printed)' "$T/h.json")" true
	check_eq "hrtimer --json: the summary's expression" "$(jq -r 'select(.type == "summary") | .expr' "$T/h.json")" "gp>0"
else
	skip "hrtimer: needs CPU 1"
fi

# a spinner on CPU 0 for irq-off's samples (an idle CPU gives none) and watchdog
if setpriv --pdeathsig KILL true 2>/dev/null; then DIE=(setpriv --pdeathsig KILL); else DIE=(); fi
spawn spin "${DIE[@]}" taskset -c 0 sh -c 'while :; do :; done'

# --- irq-off: 300 samples, a row per CPU and the summary ---
"$PP" irq-off -N 300 --json -o "$T/i.json" 2>"$T/i.err"
check_eq "irq-off --json: exit status" $? 0
check "irq-off --json: parses" json_ok "$T/i.json"
check_eq "irq-off --json: the summary: 300 samples, 20ms, 1ms" "$(jq -c 'select(.type == "summary") | [.samples, .than_ns, .period_ns]' "$T/i.json")" "[300,20000000,1000000]"
check_eq "irq-off --json: the rows' samples add up to it" "$(jq -s '[.[] | select(.type == "row") | .samples] | add' "$T/i.json")" 300
# (a CPU that took no sample, idle all along, has no row)
check_eq "irq-off --json: a row for CPU 0, the busy one" "$(count "$T/i.json" '.type == "row" and .cpu == 0 and .samples > 0')" 1

# --- watchdog: the limits from watchdog_thresh, a row per CPU ---
thresh=$(cat /proc/sys/kernel/watchdog_thresh 2>/dev/null || echo 0)
if [ "$(cat /proc/sys/kernel/watchdog 2>/dev/null)" = 1 ] && [ "$thresh" -gt 0 ]; then
	"$PP" watchdog -N 10 --json -o "$T/d.json" 2>"$T/d.err"
	check_eq "watchdog --json: exit status" $? 0
	check "watchdog --json: parses" json_ok "$T/d.json"
	check_eq "watchdog --json: the summary's limits" "$(jq -c 'select(.type == "summary") | [.hard_limit_ns, .soft_limit_ns, .warn_pct]' "$T/d.json")" "[$((thresh * 1000000000)),$((thresh * 2000000000)),50]"
	check_eq "watchdog --json: a row per CPU, its kthread" "$(jq -r 'select(.type == "row") | "\(.cpu) \(.kthread)"' "$T/d.json" | tr '\n' ' ')" "$(for c in $(seq 0 $(($(nproc) - 1))); do printf '%d %s/%d ' "$c" "$(jq -r 'select(.type == "summary") | .kthread' "$T/d.json")" "$c"; done)"
else
	skip "watchdog: the lockup detector is off here"
fi
reap "$spin"

# --- breakpoint: bpvar's 100 writes of bp_var and 20 calls of bp_func ---
if [ -d /sys/bus/event_source/devices/breakpoint ]; then
	"$PP" breakpoint --json -o "$T/b.json" bp_var:w bp_func -- "$W/bpvar" 20 >"$T/b.wl" 2>"$T/b.err"
	check_eq "breakpoint --json: exit status" $? 0
	"$PP" breakpoint -o "$T/b.txt" bp_var:w bp_func -- "$W/bpvar" 20 >/dev/null 2>&1
	check "breakpoint --json: parses" json_ok "$T/b.json"
	check_eq "breakpoint --json: the summaries' addresses are the program's" \
		"$(jq -r 'select(.type == "summary") | "\(.breakpoint)=\(.addr)"' "$T/b.json" | tr '\n' ' ')" \
		"bp_var:w=$(grep -o 'bp_var=0x[0-9a-f]*' "$T/b.wl" | cut -d= -f2) $(grep -o 'bp_func=0x[0-9a-f]*' "$T/b.wl") "
	if [ "$(count "$T/b.json" '.event == "bp_func"')" -eq 0 ]; then
		skip "breakpoint hits: hardware breakpoints do not fire on this host"
	else
		check_eq "breakpoint --json: 20 calls of bp_func, at its first instruction" "$(count "$T/b.json" '.event == "bp_func" and .ip_sym == "bp_func" and .ip_off == 0 and .addr_sym == "bp_func"')" 20
		check_eq "breakpoint --json: 100 writes by bp_bump" "$(count "$T/b.json" '.event == "bp_var:w" and .ip_sym == "bp_bump" and (.ip_dso | endswith("/bpvar"))')" 100
		check_eq "breakpoint --json: the summary's hits are the events'" \
			"$(jq -s '. as $all | [.[] | select(.type == "summary") | . as $s | .hits == ([$all[] | select(.type == "event" and .event == $s.breakpoint)] | length)] | all' "$T/b.json")" true
		check_eq "breakpoint --json: the same hits as the text" \
			"$(jq -r 'select(.type == "summary") | "\(.breakpoint): \(.hits)"' "$T/b.json" | tr '\n' ' ')" \
			"$(sed -n 's/^\([a-z_:]*\): \([0-9]*\) hits\? at .*/\1: \2/p' "$T/b.txt" | tr '\n' ' ')"
	fi
else
	skip "breakpoint: no breakpoint PMU"
fi

# --- nothing but JSON on the output, even for a run that sees nothing ---
"$PP" trace -e syscalls:sys_enter_getppid --json -- true >"$T/e.json" 2>/dev/null
check_eq "trace --json with no event: empty output" "$(wc -c <"$T/e.json")" 0
done_tests
