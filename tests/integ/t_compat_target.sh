#!/usr/bin/env bash
# The original's target options (issue 21), as its scripts spell them:
#  - --inherit: tasks the targets create are targets too.  -p and -- always
#    followed theirs here; --inherit adds the children of -t threads, and
#    for profilers that watch CPUs (oncpu, task-state, ...) the processes
#    that -p's processes fork;
#  - --ptrace: the targets are traced, each new task is held at its birth
#    until it is a target, everything is detached at the end (a stop signal
#    included): nothing is left stopped or traced;
#  - --cgroups NAME,...: per-CPU events of those cgroups' tasks only; a name
#    with regex characters is a pattern over the cgroup paths;
#  - the impossible combinations are one line, status 2.
. "$(dirname "$0")/lib.sh"

for w in fork_getppid getppid_loop; do
	[ -x "$W/$w" ] || { skip "workload $w not built (make workloads)"; done_tests; exit; }
done
GP='raw_syscalls:sys_enter/id==110/' # getppid (x86_64)
[ "$(uname -m)" = x86_64 ] || { skip "getppid's number is x86_64's"; done_tests; exit; }

# -v lines (the gate needs "monitoring"); anything else on stderr is a problem
problems() {
	grep -Ev "^perf-prof: (monitoring|stopped|comm cache|closing|ptrace:|cgroup |order queue|done .* after the stop signal|'.*' (exited|ended) )|^perf-prof [a-z-]+: the (BPF back end|ring path)" "$1"
}
# lines of the getppid events of task $2 in output $1
of() { awk -v t="$2" '/NR 110/ && $4 == t' "$1" | wc -l; }

# gate NP NC ARGS...: fork_getppid NP NC waits on a fifo; perf-prof ARGS -v
# (PID replaced by its pid) starts; once it monitors the workload goes.
# Leaves $T/out, $T/err, $rc, $parent, $child.
gate() {
	local np=$1 nc=$2 a args=()
	shift 2
	rm -f "$T/gate"
	mkfifo "$T/gate"
	rm -f "$T/wl" # not an earlier run's lines
	"$W/fork_getppid" "$np" "$nc" --wait <"$T/gate" >"$T/wl" &
	local gpid=$!
	exec 8>"$T/gate"
	for _ in $(seq 500); do grep -q ready "$T/wl" && break; sleep 0.02; done
	for a in "$@"; do args+=("${a//PID/$gpid}"); done
	rm -f "$T/err" # not an earlier run's "monitoring"
	"$PP" "${args[@]}" -v >"$T/out" 2>"$T/err" &
	local ppid=$!
	for _ in $(seq 1500); do grep -q '^perf-prof: monitoring' "$T/err" && break; sleep 0.02; done
	echo go >&8
	exec 8>&-
	wait $gpid
	wait $ppid
	rc=$?
	read -r _ parent child <<<"$(grep done "$T/wl")"
}

# --- --inherit under per-thread events (trace) ---
gate 30 20 trace -e "$GP" -t PID
check_eq "-t: status" $rc 0
check_eq "-t: the thread's 30 getppid" "$(of "$T/out" "$parent")" 30
check_eq "-t: not its child's" "$(of "$T/out" "$child")" 0
gate 30 20 trace -e "$GP" -t PID --inherit
check_eq "-t --inherit: status" $rc 0
check_eq "-t --inherit: the thread's 30" "$(of "$T/out" "$parent")" 30
check_eq "-t --inherit: and its child's 20" "$(of "$T/out" "$child")" 20
check_eq "-t --inherit: no problem on stderr" "$(problems "$T/err")" ""
gate 30 20 trace -e "$GP" -p PID --inherit
check_eq "-p --inherit: 30 + 20, as -p alone" "$(of "$T/out" "$parent") $(of "$T/out" "$child")" "30 20"
"$PP" trace -e "$GP" --inherit -- "$W/fork_getppid" 30 20 >"$T/out" 2>"$T/err"
check_eq "--inherit -- cmd: status" $? 0
read -r _ parent child <<<"$(grep done "$T/out")"
check_eq "--inherit -- cmd: 30 + 20" "$(of "$T/out" "$parent") $(of "$T/out" "$child")" "30 20"
check_eq "--inherit -- cmd: stderr empty" "$(cat "$T/err")" ""

# --- --inherit for a profiler that watches CPUs: -p's new processes ---
# (-i 600000: the whole run's table only, however long a loaded host makes the run)
rows() { grep -c "^fork_getppid:$2 " "$1"; }
# (seen once in a few hundred runs: a child's row missing; say what the run saw)
why_no_row() {
	[ "$(rows "$T/out" "$child")" = 1 ] && return
	echo "# parent $parent child $child; rows: $(grep '^fork_getppid:' "$T/out" | tr '\n' '|')"
	echo "# stderr: $(tr '\n' '|' <"$T/err")"
}
gate 200000 200000 oncpu -p PID -i 600000
check_eq "oncpu -p: status" $rc 0
check_eq "oncpu -p: the process's row" "$(rows "$T/out" "$parent")" 1
check_eq "oncpu -p: no row of its child" "$(rows "$T/out" "$child")" 0
gate 200000 200000 oncpu -p PID --inherit -i 600000
check_eq "oncpu -p --inherit: status" $rc 0
check_eq "oncpu -p --inherit: the process's row" "$(rows "$T/out" "$parent")" 1
check_eq "oncpu -p --inherit: its child's row" "$(rows "$T/out" "$child")" 1
why_no_row
check_eq "oncpu -p --inherit: no problem on stderr" "$(problems "$T/err")" ""

# --- --ptrace ---
gate 200000 200000 oncpu -p PID --ptrace -i 600000
check_eq "oncpu -p --ptrace: status" $rc 0
check_eq "oncpu -p --ptrace: its child's row" "$(rows "$T/out" "$child")" 1
why_no_row
check "oncpu -p --ptrace: the child was held at birth" grep -q '^perf-prof: ptrace: 1 new tasks followed from birth, 0 not detached$' "$T/err"
check_eq "oncpu -p --ptrace: no problem on stderr" "$(problems "$T/err")" ""
# a child that does one getppid right after its fork and exits
"$PP" trace -e "$GP" --ptrace -- "$W/fork_getppid" 0 1 >"$T/out" 2>"$T/err"
check_eq "--ptrace -- cmd: status" $? 0
read -r _ parent child <<<"$(grep done "$T/out")"
check_eq "--ptrace -- cmd: the child's one getppid" "$(of "$T/out" "$child") $(of "$T/out" "$parent")" "1 0"
check_eq "--ptrace -- cmd: stderr empty" "$(cat "$T/err")" ""
"$PP" trace -e "$GP" --ptrace -- "$W/fork_getppid" 30 20 >"$T/out" 2>"$T/err"
read -r _ parent child <<<"$(grep done "$T/out")"
check_eq "--ptrace -- cmd: 30 + 20" "$(of "$T/out" "$parent") $(of "$T/out" "$child")" "30 20"
check_eq "--ptrace -- cmd (30 + 20): stderr empty" "$(cat "$T/err")" ""

# -p --ptrace stopped by SIGINT: the target runs on, untraced; a second
# tracer is refused in one line (status 1) while the first holds it
ln -s "$(command -v sleep)" "$T/pp_ptrace_sleep"
spawn sp "$T/pp_ptrace_sleep" 60
rm -f "$T/err" # not an earlier run's "monitoring"
"$PP" trace -e "$GP" --ptrace -p $sp -v >"$T/out" 2>"$T/err" &
p1=$!
for _ in $(seq 1500); do grep -q '^perf-prof: monitoring' "$T/err" && break; sleep 0.02; done
check_eq "-p --ptrace: perf-prof traces it" "$(awk '/^TracerPid:/ {print $2}' /proc/$sp/status)" $p1
"$PP" trace -e "$GP" --ptrace -p $sp >"$T/out2" 2>"$T/err2"
check_eq "a second --ptrace: status 1" $? 1
check_eq "a second --ptrace: one line" "$(cat "$T/err2")" \
	"perf-prof trace: --ptrace: cannot trace thread $sp: Operation not permitted (traced already by a debugger, or refused by kernel.yama.ptrace_scope)"
kill -INT $p1
wait $p1
check_eq "-p --ptrace, SIGINT: status" $? 0
check_eq "-p --ptrace, SIGINT: no problem on stderr" "$(problems "$T/err")" ""
check_eq "-p --ptrace, SIGINT: the target is not traced any more" \
	"$(awk '/^TracerPid:/ {print $2}' /proc/$sp/status)" 0
# (not t or T: sleeping, or running a moment as the detach restarts its nanosleep)
check "-p --ptrace, SIGINT: nor stopped" grep -Eq '^State:[[:space:]]+[SR] ' /proc/$sp/status
reap $sp

# -- cmd --ptrace stopped by SIGINT: the command (sh exec'd into a sleep)
# ends, status 0; its background child (SIGINT ignored, as in any
# non-interactive sh) runs on as it would without --ptrace: not traced, not
# stopped
rm -f "$T/err" # not an earlier run's "monitoring"
"$PP" trace -e "$GP" --ptrace -v -- sh -c "\"$T/pp_ptrace_sleep\" 60 & exec \"$T/pp_ptrace_sleep\" 61" \
	>"$T/out" 2>"$T/err" &
p1=$!
for _ in $(seq 1500); do grep -q '^perf-prof: monitoring' "$T/err" && break; sleep 0.02; done
# (the comm: both sleeps exist, the exec done)
for _ in $(seq 500); do [ "$(pgrep -cx pp_ptrace_sleep)" = 2 ] && break; sleep 0.02; done
kill -INT $p1
wait $p1
check_eq "-- cmd --ptrace, SIGINT: status" $? 0
check_eq "-- cmd --ptrace, SIGINT: no problem on stderr" "$(problems "$T/err")" ""
check "-- cmd --ptrace, SIGINT: the command ended by it" grep -q "^perf-prof: 'sh' ended by the stop signal (Interrupt)" "$T/err"
left=$(pgrep -f "$T/pp_ptrace_sleep 60")
check_eq "-- cmd --ptrace, SIGINT: the background sleep is left" "$(echo $left | wc -w)" 1
for p in $left; do
	check_eq "-- cmd --ptrace, SIGINT: it is not traced" "$(awk '/^TracerPid:/ {print $2}' /proc/$p/status)" 0
	check_eq "-- cmd --ptrace, SIGINT: nor stopped" "$(awk '/^State:/ {print $2}' /proc/$p/status)" S
	kill $p
done
for _ in $(seq 100); do pgrep -f "$T/pp_ptrace_sleep" >/dev/null || break; sleep 0.05; done
check_eq "-- cmd --ptrace, SIGINT: nothing else left" "$(pgrep -f "$T/pp_ptrace_sleep")" ""

# --- --cgroups ---
# the hierarchy of the perf_event controller: a v1 mount with it, else cgroup2
cgmnt=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") break;
	if ($(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)perf_event(,|$)/) { print $5; exit } }' /proc/self/mountinfo)
[ -n "$cgmnt" ] || cgmnt=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") break;
	if ($(i + 1) == "cgroup2") { print $5; exit } }' /proc/self/mountinfo)
CGN=pp-t-$$
if [ -z "$cgmnt" ] || ! mkdir "$cgmnt/$CGN" 2>/dev/null; then
	skip "--cgroups: cannot make a cgroup here"
else
	trap 'rmdir "$cgmnt/$CGN" 2>/dev/null; _cleanup' EXIT
	# cg_run ARGS...: getppid_loop 300 in the cgroup, 500 outside, both gated
	cg_run() {
		rm -f "$T/g1" "$T/g2"
		mkfifo "$T/g1" "$T/g2"
		"$W/getppid_loop" 300 0 --wait <"$T/g1" >"$T/in.wl" &
		inpid=$!
		"$W/getppid_loop" 500 0 --wait <"$T/g2" >"$T/out.wl" &
		outpid=$!
		exec 8>"$T/g1" 9>"$T/g2"
		for _ in $(seq 500); do grep -q ready "$T/in.wl" && grep -q ready "$T/out.wl" && break; sleep 0.02; done
		echo $inpid >"$cgmnt/$CGN/cgroup.procs"
		rm -f "$T/err" # not an earlier run's "monitoring"
		"$PP" "$@" -v >"$T/out" 2>"$T/err" &
		local p=$!
		for _ in $(seq 1500); do grep -q '^perf-prof: monitoring' "$T/err" && break; sleep 0.02; done
		echo go >&8
		echo go >&9
		exec 8>&- 9>&-
		wait $inpid $outpid
		kill -INT $p
		wait $p
		rc=$?
	}
	cg_run trace -e "$GP" --cgroups $CGN
	check_eq "--cgroups NAME: status" $rc 0
	check_eq "--cgroups NAME: the 300 getppid of the task inside" "$(of "$T/out" $inpid)" 300
	check_eq "--cgroups NAME: none of the task outside" "$(of "$T/out" $outpid)" 0
	check_eq "--cgroups NAME: nothing else" "$(grep -c 'NR 110' "$T/out")" 300
	check_eq "--cgroups NAME: no problem on stderr" "$(problems "$T/err")" ""
	cg_run trace -e "$GP" --cgroups "^pp-t-[0-9]*$"
	check_eq "--cgroups PATTERN: status" $rc 0
	check "--cgroups PATTERN: it matched the cgroup" grep -qx "perf-prof: cgroup $cgmnt/$CGN" "$T/err"
	check_eq "--cgroups PATTERN: the task inside" "$(of "$T/out" $inpid)" 300
	check_eq "--cgroups PATTERN: not the one outside" "$(of "$T/out" $outpid)" 0
	rmdir "$cgmnt/$CGN"
	check "the test's cgroup is gone" test ! -e "$cgmnt/$CGN"
fi

# --- bad input: one line, status 2, nothing on stdout ---
refused() {
	local label=$1 want=$2
	shift 2
	"$PP" "$@" >"$T/r.out" 2>"$T/r.err"
	check_eq "$label: status 2" $? 2
	check_eq "$label: one line" "$(cat "$T/r.err")" "$want"
	check_eq "$label: nothing on stdout" "$(cat "$T/r.out")" ""
}
mnt=${cgmnt:-/sys/fs/cgroup}
refused "--cgroups NOSUCH" \
	"perf-prof trace: --cgroups: no cgroup 'pp-no-such-cg' under $mnt (ls $mnt)" \
	trace -e "$GP" --cgroups pp-no-such-cg
refused "--cgroups PATTERN matching nothing" \
	"perf-prof trace: --cgroups: pattern '^pp-no-such-cg.*$' matches no cgroup under $mnt" \
	trace -e "$GP" --cgroups '^pp-no-such-cg.*$'
refused "--cgroups bad pattern" \
	"perf-prof trace: --cgroups: bad pattern 'pp[': Invalid regular expression (a POSIX basic regular expression, matched anywhere in the cgroup's path; ^...$ anchors it)" \
	trace -e "$GP" --cgroups 'pp['
refused "--cgroups ../x" "perf-prof trace: --cgroups: '../x' leaves the cgroup mount" \
	trace -e "$GP" --cgroups ../x
refused "--cgroups with -p" "perf-prof trace: --cgroups watches CPUs: it does not go with -p (drop one)" \
	trace -e "$GP" --cgroups x -p 1
refused "--cgroups with -- cmd" \
	"perf-prof trace: --cgroups watches CPUs: it does not go with -- COMMAND (drop one)" \
	trace -e "$GP" --cgroups x -- true
refused "--cgroups empty item" "perf-prof trace: bad cgroup list 'a,,b': empty item at offset 2" \
	trace -e "$GP" --cgroups a,,b
refused "--ptrace alone" "perf-prof trace: --ptrace follows the tasks of -p, -t or -- COMMAND: give one" \
	trace -e "$GP" --ptrace
refused "--ptrace -C" "perf-prof trace: --ptrace follows the tasks of -p, -t or -- COMMAND: give one" \
	trace -e "$GP" --ptrace -C 0
refused "--inherit alone" "perf-prof trace: --inherit applies to -p, -t or -- COMMAND: give one" \
	trace -e "$GP" --inherit

done_tests
