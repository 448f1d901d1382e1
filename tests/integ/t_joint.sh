#!/bin/bash
# Joint analysis: profilers inside another profiler's -e (PROFILER/OPTIONS/ATTR/)
# run in the same session and their samples reach the outer profiler too.
# Ground truth: profile/-N 10/ gives exactly 10 samples while the other
# events go on (its own report says 10 too); the profile samples in a
# multi-trace --detail timeline all lie between its two ends, and every
# sample seen in any timeline that lies between a timeline's ends is in it
# (tests/work/idle_wake: a SCHED_IDLE thread woken while its waker burns
# the CPU); lat_sleep's N sleeps of 20 ms show in trace (N entries, N
# switches out in S) and in task-state's own report (S: N calls, each
# sleep at least 20 ms).  Bad inner options are usage errors naming them.
. "$(dirname "$0")/lib.sh"

[ -x "$W/lat_sleep" ] && [ -x "$W/spin" ] && [ -x "$W/idle_wake" ] ||
	{ skip "workloads not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/syscalls/sys_enter_clock_nanosleep ] ||
	{ skip "no syscalls tracepoints"; done_tests; exit; }

# (a) -N 10 of an inner profile stops it alone
"$PP" trace -e 'raw_syscalls:sys_enter,profile/-F 5000 -N 10/' --order -- "$W/spin" 0.3 \
	>"$T/a" 2>"$T/a.err"
check_eq "trace + profile/-N 10/: exit status" "$?" 0
check_eq "trace + profile/-N 10/: nothing on stderr" "$(cat "$T/a.err")" ""
check_eq "exactly 10 profile samples printed" "$(grep -c '\] cpu-clock: *$' "$T/a")" 10
check "the other events go on after the 10th" \
	awk '/\] cpu-clock: *$/ { c++ } c == 10 && /raw_syscalls:sys_enter:/ { n++ } END { exit !(n > 0) }' "$T/a"
check "profile's own report: 10 samples" grep -q "profile: 10 samples of cpu-clock" "$T/a"
# (its line may land inside one of ours: the outputs share the file)
check "the workload ran to its end" grep -q "done$" "$T/a"

# the issue's first command line
"$PP" trace -e 'task-state,page-faults/-N 10/,raw_syscalls:sys_enter,profile/-F 5000 -N 10/' \
	--order -- cat /proc/self/maps >"$T/b" 2>"$T/b.err"
check_eq "trace + task-state, page-faults, profile: exit status" "$?" 0
check_eq "... nothing on stderr" "$(cat "$T/b.err")" ""
# trace prints page-faults' 10 events; page-faults' own line per event
# ("addr ... ip ...") is not printed inside another profiler: once each
check_eq "... page-faults/-N 10/: 10 events reach trace" "$(grep -c '\] page-faults: *$' "$T/b")" 10
check_eq "... and no line of page-faults' own (trace prints them)" \
	"$(grep -c '\] page-faults: addr ' "$T/b")" 0
check "... at most 10 profile samples" \
	awk '/\] cpu-clock: *$/ { c++ } END { exit !(c <= 10) }' "$T/b"
check "... task-state's own report" grep -q "^STATE " "$T/b"
check "... the workload's output" grep -q "/proc/self/maps\|\[stack\]" "$T/b"

# (c) nanosleep + task-state/--perins -m 64/.  task-state makes the session
# CPU-wide: every context switch and wakeup of the host flows through the
# rings and the time-order queue, so on a loaded host some may be lost, and
# perf-prof says so on stderr (its only lines then).  Its counts are ground
# truth when nothing was lost: always with task-state's kernel filter
# (--filter lat_sleep: the host's switches stay in the kernel), and for the
# issue's line as written when its stderr is empty.
case_c() { # NAME INNER-OPTIONS
	local f=$T/c.$1
	"$PP" trace -e "syscalls:sys_enter_clock_nanosleep,task-state/$2/" --order \
		-- "$W/lat_sleep" 5 20 >"$f" 2>"$f.err"
	check_eq "trace + task-state/$2/: exit status" "$?" 0
	if [ -s "$f.err" ] && [ "$1" = asis ]; then
		check "... stderr: only the loss report" awk '
			!/^perf-prof: (lost [0-9]+ events \(|dropped [0-9]+ samples and [0-9]+ other records: )/ { exit 1 }' "$f.err"
		skip "... the counts of task-state/$2/: events lost under load ($(head -c 60 "$f.err"))"
		return
	fi
	check_eq "... nothing on stderr" "$(cat "$f.err")" ""
	check_eq "... 5 sleeps entered (trace)" \
		"$(grep -c 'lat_sleep .*syscalls:sys_enter_clock_nanosleep:' "$f")" 5
	check_eq "... 5 switches out asleep (task-state's events through trace)" \
		"$(grep -c 'sched:sched_switch: prev_comm=lat_sleep .*prev_state=S ' "$f")" 5
	# (its events before the exec too: the task is the workload's from its fork)
	check_eq "... no other task's events (trace follows the workload)" \
		"$(awk '/\] sched:sched_(switch|wakeup): / { for (i = 2; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) { print $(i - 1); break } }' "$f" | sort -u | wc -l)" 1
	check_eq "... task-state --perins: S 5 calls" \
		"$(awk '$1 == "S" && $2 == "lat_sleep" { print $4 }' "$f")" 5
	# (its "sleep" part counts the sleeps whose wakeup it saw: a wakeup raised
	# in an idle CPU's context is not always delivered on VMs; not asserted)
	check "... each time asleep at least 20 ms (the S row's min)" awk '$1 == "S" && $2 == "lat_sleep" {
		v = $6; m = v ~ /ms$/ ? 1 : v ~ /us$/ ? 0.001 : v ~ /ns$/ ? 0.000001 : 1000
		f = 1; ok = (v + 0) * m >= 20 } END { exit !(f && ok) }' "$f"
}
case_c filtered '--perins -m 64 --filter lat_sleep'
case_c asis '--perins -m 64'

# A module's hook set an inner profiler registers sees that profiler's events
# only: syscalls' --detail timelines hold no sched_switch of the outer trace
"$PP" trace -e 'sched:sched_switch,syscalls/--than 1ms --detail/' -- "$W/lat_sleep" 2 5 \
	>"$T/m" 2>"$T/m.err"
check_eq "trace + syscalls/--detail/: exit status" "$?" 0
check_eq "... 2 slow clock_nanosleep timelines" "$(grep -c '^S +.*raw_syscalls:sys_enter: NR 230 ' "$T/m")" 2
check_eq "... the outer's sched_switch in none of them" \
	"$(grep -cE '^[SE ] +\+ .*sched:sched_switch' "$T/m")" 0
check "... but printed by trace" grep -q '\] sched:sched_switch: prev_comm=lat_sleep' "$T/m"

# (b) multi-trace --detail: the profile samples between the two ends
MT_E2='sched:sched_switch//key=next_pid/,profile/-F 1000 -g/untraced/'
"$PP" multi-trace -e 'sched:sched_wakeup//key=pid/' -e "$MT_E2" --than 2ms --detail \
	-- "$W/idle_wake" 20 5 >"$T/d" 2>"$T/d.err"
check_eq "multi-trace + profile/untraced/: exit status" "$?" 0
check_eq "... nothing on stderr" "$(cat "$T/d.err")" ""
# per timeline: START END and the times (us of the day) of its profile samples
awk '
function us(t,   a) { split(t, a, ":"); return (a[1] * 3600 + a[2] * 60) * 1e6 + a[3] * 1e6 }
/^sched:sched_wakeup => sched:sched_switch: / { if (n) print line; n++; line = "" ; s = e = ""; next }
{
	for (i = 1; i < NF; i++) if ($i ~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$/) break
	if (i >= NF || !n) next
	t = sprintf("%.0f", us($(i + 1)))
	if ($1 == "S") line = t " " line
	else if ($1 == "E") line = line " E" t
	else if ($0 ~ /\] cpu-clock: *$/) line = line " " t
}
END { if (n) print line }' "$T/d" >"$T/d.tl"
check "... slow pairs with profile samples in their timelines" \
	awk 'NF > 2 { f = 1 } END { exit !f }' "$T/d.tl"
# every sample inside its timeline's [start, end]
check "... each timeline's samples lie between its ends" awk '
{ s = $1 + 0; e = substr($NF, 2) + 0; for (i = 2; i < NF; i++) if ($i + 0 < s || $i + 0 > e) exit 1 }' "$T/d.tl"
# every sample seen in any timeline that lies within a timeline's ends is in it
check "... and every sample between the ends is in it" awk '
{ for (i = 2; i < NF; i++) all[$i] = $i + 0; S[NR] = $1 + 0; E[NR] = substr($NF, 2) + 0; N[NR] = NF - 2 }
END { for (r = 1; r <= NR; r++) { c = 0; for (t in all) if (all[t] >= S[r] && all[t] <= E[r]) c++; if (c != N[r]) exit 1 } }' \
	"$T/d.tl"
check "... profile's own report" grep -q "profile: [0-9]* samples of cpu-clock" "$T/d"

# the issue's command line as written (system-wide, -F 200): it runs
"$PP" multi-trace -e 'sched:sched_wakeup//key=pid/' \
	-e 'sched:sched_switch//key=next_pid/,profile/-F 200 -g/untraced/' --than 2ms --detail \
	-- sleep 0.2 >"$T/e" 2>"$T/e.err"
check_eq "multi-trace, the issue's -e: exit status" "$?" 0

# An aggregating inner profiler's rows reach trace as events: top counting
# getppid by common_pid under trace -i 200; getppid_loop makes 1000 calls,
# then its parent sleeps through two more intervals.  The rows trace prints
# for the workload's pid add up to exactly 1000; top prints no table of its
# own during the run.  Text, --json (the same rows as records with their
# fields) and --json --order (rows in time order with the samples).
TOPI='top/-e syscalls:sys_enter_getppid -k common_pid/'
rows_case() { # NAME TRACE-OPTIONS...
	local f=$T/r.$1
	shift
	"$PP" trace -i 200 "$@" -e "$TOPI" -- sh -c "'$W/getppid_loop' 1000; sleep 0.5" \
		>"$f" 2>"$f.err"
	check_eq "trace $* + $TOPI: exit status" "$?" 0
	check_eq "... nothing on stderr" "$(cat "$f.err")" ""
}
rows_case text
pid=$(awk '/ getppid_loop +[0-9]+ \[[0-9]+\] syscalls:sys_enter_getppid:/ { print $(NF - 2); exit }' "$T/r.text")
check_eq "... 1000 getppid lines of the workload (top's samples)" \
	"$(grep -c " getppid_loop *$pid \[[0-9]*\] syscalls:sys_enter_getppid: *\$" "$T/r.text")" 1000
check_eq "... top's rows for the workload's pid add up to 1000" "$(awk -v k="key=$pid" '
	/\] top:row: / { for (i = 1; i <= NF; i++) if ($i == k) { split($(i + 1), a, "="); n += a[2] } }
	END { print n + 0 }' "$T/r.text")" 1000
check "... no table of top's own during the run (its report at the end is its own)" awk '
	/\] top:row: / { last = NR } /  samples [0-9]+  lost / { h[++n] = NR }
	END { for (i = 1; i <= n; i++) if (h[i] < last) exit 1 }' "$T/r.text"
# each interval's header is a row too: top:interval lines, their samples
# (with those of top's own report at the end, if it has one) all of trace's
check "... top:interval lines in text" grep -q '\] top:interval: samples=[0-9]* lost=' "$T/r.text"
check_eq "... top:interval samples: every getppid line" "$(awk '
	/\] top:interval: / { split($7, a, "="); n += a[2] }
	/^[^ ]+ [^ ]+  samples [0-9]+  lost / { n += $4 }
	END { print n + 0 }' "$T/r.text")" "$(grep -c '\] syscalls:sys_enter_getppid:' "$T/r.text")"
if command -v jq >/dev/null; then
	rows_case json --json
	# (the workload's "done 1000" shares the output)
	grep '^{' "$T/r.json" >"$T/r.jl"
	pid=$(jq -r 'select(.comm == "getppid_loop") | .tid' "$T/r.jl" | head -n1)
	check_eq "... no record of top's own before the last event" "$(jq -s '
		(map(.type == "event") | rindex(true)) as $l | .[:$l] | map(select(.type != "event")) | length' \
		"$T/r.jl")" 0
	check_eq "... top:row records for the workload's pid: 1000 calls" "$(jq -s --argjson p "$pid" '
		map(select(.event == "top:row" and .fields.key == $p) | .fields.values["syscalls:sys_enter_getppid"]) | add' \
		"$T/r.jl")" 1000
	check_eq "... top:interval records with their counts" "$(jq -s '
		map(select(.event == "top:interval")) | length > 0 and all(.fields | has("samples") and has("keys"))' \
		"$T/r.jl")" true
	# --order, rows while workloads call getppid 100,000 times (-i 50, in 5
	# bursts 100 ms apart, so that intervals end while they run whatever the
	# host's speed): each interval's rows get the time of the newest sample
	# delivered, so the output never goes back in time (with the time of the
	# tick it did, 9 times in one run); the rows and top's own report at the
	# end hold them all
	"$PP" trace -i 50 --json --order -e "$TOPI" -- sh -c \
		"for i in 1 2 3 4 5; do '$W/getppid_loop' 20000 >/dev/null; sleep 0.1; done" \
		>"$T/r.order" 2>"$T/r.order.err"
	check_eq "trace --json --order + $TOPI, 100000 calls: exit status" "$?" 0
	check_eq "... nothing on stderr" "$(cat "$T/r.order.err")" ""
	check "... top's rows among the samples" jq -es 'map(select(.event == "top:row")) | length > 1' \
		"$T/r.order"
	check_eq "... no time going back" "$(jq -s '
		map(.time_ns) as $t | [range(1; $t | length) | select($t[.] < $t[. - 1])] | length' "$T/r.order")" 0
	check_eq "... the rows and top's report at the end: 100000 calls of the 5 workloads" "$(jq -s '
		(map(select(.comm == "getppid_loop") | .tid) | unique) as $p |
		map(select((.event == "top:row" and (.fields.key as $k | $p | index($k))) or
			(.type == "row" and (.key as $k | $p | index($k))))
		    | (.fields // .).values["syscalls:sys_enter_getppid"]) | add' "$T/r.order")" 100000
else
	skip "jq not installed: trace --json with top's rows"
fi

# key= on an inner profiler's item keys its samples like any untraced event:
# pairs keyed by CPU (the wakeup's target_cpu, the switch's CPU), profile's
# samples key=_cpu; with --detail=samekey a timeline holds the samples of its
# key's CPU (idle_wake's waker burning CPU 0 while the idler waits), and with
# a key no CPU has (_cpu+1000) none.  (Before, key= there was ignored and
# samekey showed no inner sample.)
mt_key() { # PROFILE-KEY OUT
	"$PP" multi-trace -e 'sched:sched_wakeup//key=target_cpu/' \
		-e "sched:sched_switch//key=_cpu/,profile/-F 2000/untraced/key=$1/" --than 2ms \
		--detail=samekey -- "$W/idle_wake" 20 10 >"$2" 2>"$2.err"
}
# per timeline: its key, then the CPU of each of its profile samples
mt_key_cpus='/^sched:sched_wakeup => sched:sched_switch: / { if (n) print line; n++; line = $NF; next }
/\] cpu-clock: *$/ && n { for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) { line = line " " substr($i, 2, length($i) - 2) + 0; break } }
END { if (n) print line }'
mt_key _cpu "$T/k"
check_eq "multi-trace + profile/untraced/key=_cpu/: exit status" "$?" 0
check_eq "... nothing on stderr" "$(cat "$T/k.err")" ""
awk "$mt_key_cpus" "$T/k" >"$T/k.tl"
check "... samekey timelines with profile samples" awk 'NF > 1 { f = 1 } END { exit !f }' "$T/k.tl"
check "... each of them on its timeline's key CPU" \
	awk '{ for (i = 2; i <= NF; i++) if ($i != $1) exit 1 }' "$T/k.tl"
mt_key '_cpu+1000' "$T/k2"
check_eq "multi-trace + profile/untraced/key=_cpu+1000/: exit status" "$?" 0
check "... slow pairs" grep -q '^sched:sched_wakeup => sched:sched_switch: ' "$T/k2"
check_eq "... no profile sample in a samekey timeline" "$(grep -c '\] cpu-clock: *$' "$T/k2")" 0
# a key the inner profiler's events cannot compute, and role=: usage errors
"$PP" multi-trace -e 'sched:sched_wakeup//key=pid/' \
	-e 'sched:sched_switch//key=next_pid/,profile/-F 99/untraced/key=pid/' -- true \
	>"$T/bk" 2>"$T/bk.err"
check_eq "key=pid on profile's cpu-clock: exit 2" "$?" 2
check_eq "... says so" "$(head -n1 "$T/bk.err")" \
	"perf-prof multi-trace: bad key= on cpu-clock: expr: unknown field 'pid'"

# any number of inner profilers (each has a tap of its output: 16 once were the most)
ES=$(for i in $(seq 20); do printf '%s,' "$TOPI"; done)
"$PP" trace -i 200 -e "${ES%,}" -- "$W/getppid_loop" 10 >"$T/n20" 2>"$T/n20.err"
check_eq "trace with 20 top inside: exit status" "$?" 0
check_eq "... each of the 10 getppid once per top: 200 lines" \
	"$(grep -c '\] syscalls:sys_enter_getppid: *$' "$T/n20")" 200

# bad input: one line naming it, exit 2
bad() {
	local what=$1 want=$2
	shift 2
	"$PP" "$@" >"$T/bad" 2>"$T/bad.err"
	check_eq "$what: exit 2" "$?" 2
	check_eq "$what: one line" "$(wc -l <"$T/bad.err")" 1
	check "$what: says '$want'" grep -qF -- "$want" "$T/bad.err"
}
bad "-C inside" "perf-prof profile: --cpu in 'profile/-C 0/': the outer profiler's option, give it to trace" \
	trace -e 'profile/-C 0/' -- true
bad "-i inside" "--interval in 'profile/-i 100/'" trace -e 'profile/-i 100/' -- true
bad "-o inside" "--output in" trace -e 'profile/-o x/' -- true
bad "an unknown inner option" "perf-prof profile: unknown or incomplete option '-Z'" \
	trace -e 'profile/-Z/' -- true
bad "a bad inner value" "perf-prof profile:" trace -e 'profile/-F 0/' -- true
bad "an unknown profiler" "missing ':' between system and name" trace -e 'nosuch/-F 1/' -- true
bad "unterminated options" "unterminated options" trace -e 'profile/-F 99' -- true
bad "stack on a profiler" "a profiler's stacks are its -g" trace -e 'profile/-F 99/stack/' -- true
bad "an outer without profilers" "top takes no profiler as an event source" \
	top -e 'sched:sched_switch//key=prev_pid/,profile' -- true
bad "a traced profiler in multi-trace" "a profiler in -e is not a point" \
	multi-trace -e sched:sched_wakeup -e 'sched:sched_switch,profile/-F 99/' -- true
bad "role= on a profiler in multi-trace" "an untraced event takes no role=" \
	multi-trace -e sched:sched_wakeup//key=pid/ -e 'sched:sched_switch//key=next_pid/,profile/-F 99/untraced/role=1/' -- true
bad "-- inside" "'--' in 'profile/-F 99 -- ls/'" trace -e 'profile/-F 99 -- ls/' -- true

done_tests
