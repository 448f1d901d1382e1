#!/usr/bin/env bash
# trace end to end (root): exact event counts with -- CMD, -p, -t and kernel
# filters, --order across CPUs, -N, -o, -i, -g, the workload's exit status,
# and every bad input with its message and exit status, leaving nothing behind.
. "$(dirname "$0")/lib.sh"

TRACING=/sys/kernel/tracing
[ -x "$PP" ] || { echo "no binary $PP"; exit 1; }
[ -x "$W/getppid_loop" ] || { echo "no workload $W/getppid_loop (make workloads)"; exit 1; }

# Processes still running our binary or our workload.
leftovers() {
	local p e c n=0
	for p in /proc/[0-9]*; do
		e=$(readlink "$p/exe" 2>/dev/null) || continue
		# perf-prof's closer finishes the kernel's slow closes after it exited
		# (run.sh waits for it): not a leftover of the run.  A process gone
		# (or a zombie) by the time its cmdline is read is not one either.
		c=$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null) || continue
		[ -n "$c" ] || continue
		case $c in *--close-perf-fds*) continue ;; esac
		case $e in "$PP" | "$W/getppid_loop") n=$((n + 1)) ;; esac
	done
	echo $n
}

# run ARGS...: perf-prof ARGS with stdout in $T/out, stderr in $T/err, exit
# status in $rc and its pid in $ppid (to find its private ftrace instance).
run() {
	"$PP" "$@" >"$T/out" 2>"$T/err" &
	ppid=$!
	wait $ppid
	rc=$?
}

# Event lines (mawk has no {n} intervals: use grep -E for those): "DATE TIME COMM TID [CPU] sys:name: fields".
events() { grep -cE "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.]{15} .* \[[0-9]{3}\] $1: " "$2"; }

# All event lines of FILE are from TID with COMM?
all_from() { # file comm tid
	awk -v c="$2" -v t="$3" '/^[0-9][0-9][0-9][0-9]-/ { n++; if ($3 != c || $4 != t) bad[$3 " " $4]++ }
		END { for (k in bad) { printf "  %d lines from %s\n", bad[k], k; b = 1 }
		      exit !(n > 0 && !b) }' "$1"
}

# --- -- COMMAND: exactly 1000 getppid calls, with the workload's pid and comm
run trace -e syscalls:sys_enter_getppid -- "$W/getppid_loop" 1000
check_eq "-- cmd: exit status" "$rc" 0
check_eq "-- cmd: 1000 event lines" "$(events syscalls:sys_enter_getppid "$T/out")" 1000
wpid=$(awk '/^[0-9][0-9][0-9][0-9]-/ { print $4; exit }' "$T/out")
check "-- cmd: every line has comm getppid_loop and pid $wpid" all_from "$T/out" getppid_loop "$wpid"
check_eq "-- cmd: no status line on success (quiet)" "$(grep -c 'exited with status' "$T/err")" 0
check "-- cmd: workload's own output" grep -qx "done 1000" "$T/out"

# --- exec=EXPR (the original's attribute): evaluated after each event's line
if [ -d /sys/kernel/tracing/events/syscalls/sys_enter_lseek ]; then
	run trace -e 'syscalls:sys_enter_lseek/fd==12345/exec=printf("exec fd=%d off=%d pid=%d\n", fd, offset, _pid)/' \
		-- "$W/lseek_loop" 200
	check_eq "exec=: exit status" "$rc" 0
	check_eq "exec=: 200 event lines" "$(events syscalls:sys_enter_lseek "$T/out")" 200
	lpid=$(awk '/^[0-9][0-9][0-9][0-9]-/ { print $4; exit }' "$T/out")
	check_eq "exec=: printf's line after each event, with its fields and pid" \
		"$(awk '/^[0-9][0-9][0-9][0-9]-/ { ev = 1; next } ev && /^exec / { print; ev = 0 }' "$T/out" | sort | uniq -c | awk '{ $1 = $1; print }')" \
		"200 exec fd=12345 off=67890 pid=$lpid"
	run trace -e 'syscalls:sys_enter_lseek/fd==12345/exec=system("echo ran %d", fd)/' -g \
		--flame-graph "$T/ex.folded" -- "$W/lseek_loop" 5
	check_eq "exec=system() with --flame-graph: run once per event" "$(grep -c '^ran 12345$' "$T/out")" 5
	run trace -e 'syscalls:sys_enter_lseek//exec=nosuch+1/' -- true
	check_eq "exec= with an unknown field: status 2" "$rc" 2
	check "exec= with an unknown field: says which" grep -q "bad exec= on syscalls:sys_enter_lseek: expr: unknown field 'nosuch'" "$T/err"
	run trace -e 'syscalls:sys_enter_lseek//exec/' -- true
	check_eq "exec without an expression: status 2" "$rc" 2
else
	skip "exec=: no syscalls:sys_enter_lseek tracepoint"
fi

# --- -p / -t: the workload waits on a fifo until perf-prof is running
# attach OPT: start getppid_loop 1000 --wait, monitor it with OPT PID, let it go.
attach() {
	local fifo=$T/go start end
	rm -f "$fifo"
	mkfifo "$fifo"
	rm -f "$T/wl" # not an earlier run's lines
	"$W/getppid_loop" 1000 0 --wait <"$fifo" >"$T/wl" &
	wpid=$!
	exec 7>"$fifo"
	# attach after its exec: it says "ready PID" when it blocks on the fifo
	for _ in $(seq 100); do grep -q ready "$T/wl" && break; sleep 0.02; done
	rm -f "$T/err" # not an earlier run's "monitoring"
	"$PP" trace -e syscalls:sys_enter_getppid "$1" $wpid -v >"$T/out" 2>"$T/err" &
	ppid=$!
	# the workload goes once perf-prof says its events are on
	for _ in $(seq 600); do grep -q '^perf-prof: monitoring' "$T/err" && break; sleep 0.1; done
	echo go >&7
	exec 7>&-
	wait $wpid
	start=$(date +%s%N)
	# it ends by itself: no signal unless it is still there after 30 s (a hang)
	stopped=yes
	for _ in $(seq 300); do kill -0 $ppid 2>/dev/null || break; sleep 0.1; done
	kill -0 $ppid 2>/dev/null && stopped=no && kill -INT $ppid
	wait $ppid
	rc=$?
	echo "# $1: stopped $((($(date +%s%N) - start) / 1000000)) ms after the target"
}
for opt in -p -t; do
	attach $opt
	check_eq "$opt: exit status" "$rc" 0
	check_eq "$opt: 1000 event lines" "$(events syscalls:sys_enter_getppid "$T/out")" 1000
	check "$opt: every line has comm getppid_loop and pid $wpid" \
		all_from "$T/out" getppid_loop "$wpid"
	check_eq "$opt: stops by itself after the target exits" "$stopped" yes
	check_eq "$opt: workload ran" "$(cat "$T/wl")" "ready $wpid
done 1000"
done

# --- kernel filters cut the count exactly: dd writes 13 blocks of 7 and 5 of 9
dd_cmd="dd if=/dev/zero of=/dev/null bs=7 count=13 status=none; dd if=/dev/zero of=/dev/null bs=9 count=5 status=none"
run trace -e syscalls:sys_enter_write -- sh -c "$dd_cmd"
nall=$(grep -cE 'sys_enter_write: fd: 0x0*1, .* count: 0x0*(7|9)$' "$T/out")
check_eq "no filter: 18 writes of 7 or 9 bytes" "$nall" 18
run trace -e 'syscalls:sys_enter_write/count==7/' -- sh -c "$dd_cmd"
check_eq "filter count==7: 13 events" "$(events syscalls:sys_enter_write "$T/out")" 13
check_eq "filter count==7: all of them count 7" \
	"$(grep -c 'count: 0x0*7$' "$T/out")" 13
run trace -e 'syscalls:sys_enter_write/count==9 && fd==1/' -- sh -c "$dd_cmd"
check_eq "filter 'count==9 && fd==1': 5 events" "$(events syscalls:sys_enter_write "$T/out")" 5
# common_pid: only the second of two workloads that run at the same time.
# They exec (keeping the pid) once perf-prof runs, so COMM records name them.
sh -c "sleep 0.4; exec '$W/getppid_loop' 300" >/dev/null &
p1=$!
sh -c "sleep 0.4; exec '$W/getppid_loop' 200" >/dev/null &
p2=$!
run trace -e "syscalls:sys_enter_getppid/common_pid==$p2/" -C 0-1 -N 200
wait $p1 $p2
check_eq "filter common_pid==$p2 -C 0-1 -N 200: 200 events" \
	"$(events syscalls:sys_enter_getppid "$T/out")" 200
check "filter common_pid: all from $p2" all_from "$T/out" getppid_loop "$p2"

# --- --order: time order across both CPUs (each CPU busy switching)
spawn s1 taskset -c 0 stress-ng --switch 1 -t 10 -q >/dev/null 2>&1
spawn s2 taskset -c 1 stress-ng --switch 1 -t 10 -q >/dev/null 2>&1
sleep 0.5
run trace -e sched:sched_switch -C 0-1 --order -N 5000
reap "$s1"
reap "$s2"
check_eq "--order: exit status" "$rc" 0
check_eq "--order -N 5000: 5000 lines" "$(events sched:sched_switch "$T/out")" 5000
n0=$(grep -c ' \[000\] sched:sched_switch' "$T/out")
n1=$(grep -c ' \[001\] sched:sched_switch' "$T/out")
# (other load on this 2-CPU machine can starve one stress-ng for a while)
check_range "--order: events from CPU 0" "$n0" 10 4990
check_range "--order: events from CPU 1" "$n1" 10 4990
sw=$(grep -o ' \[00[01]\] sched:sched_switch' "$T/out" | uniq | wc -l)
check_range "--order: runs of one CPU's events (interleaving)" "$sw" 10 5000
# fixed-width timestamps compare as strings
check "--order: timestamps non-decreasing" sh -c "cut -c1-26 '$T/out' | LC_ALL=C sort -c"

# --- -N stops at exactly N
run trace -e syscalls:sys_enter_getppid -N 10 -- "$W/getppid_loop" 1000
check_eq "-N 10: exit status" "$rc" 0
check_eq "-N 10: 10 event lines" "$(events syscalls:sys_enter_getppid "$T/out")" 10
run trace -e sched:sched_switch -N 1
check_eq "-N 1 system-wide: 1 event line" "$(events sched:sched_switch "$T/out")" 1

# --- -o FILE: events there, none on stdout
run trace -e syscalls:sys_enter_getppid -o "$T/o.txt" -- "$W/getppid_loop" 100
check_eq "-o: exit status" "$rc" 0
check_eq "-o: 100 event lines in the file" "$(events syscalls:sys_enter_getppid "$T/o.txt")" 100
check_eq "-o: stdout holds only the workload's output" "$(cat "$T/out")" "done 100"
run trace -e syscalls:sys_enter_getppid -o /nonexistent/dir/x -- "$W/getppid_loop" 1
check "-o unwritable: fails" test "$rc" -ne 0
check "-o unwritable: says so" grep -q "/nonexistent/dir/x" "$T/err"

# --- -i: accepted; with a flame graph the later stacks get a time frame
run trace -e syscalls:sys_enter_getppid -i 100 -- "$W/getppid_loop" 100
check_eq "-i 100: 100 event lines" "$(events syscalls:sys_enter_getppid "$T/out")" 100
run trace -e syscalls:sys_enter_getppid -g --flame-graph "$T/fg" -i 200 -- \
	sh -c "'$W/getppid_loop' 100; sleep 0.5; '$W/getppid_loop' 50"
check_eq "flame -i: exit status" "$rc" 0
check "flame -i: the first 100 without a time frame" \
	grep -qE '^getppid_loop;[^ ]*syscall 100$' "$T/fg.folded"
check "flame -i: the 50 after an interval under a time frame" \
	grep -qE '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2};getppid_loop;[^ ]*syscall 50$' \
	"$T/fg.folded"
check_eq "flame -i: 150 getppid_loop samples in all" \
	"$(awk '/getppid_loop/ { s += $NF } END { print s }' "$T/fg.folded")" 150

# --- -g: kernel stack lines under each event
run trace -e sched:sched_process_exit -g -- "$W/getppid_loop" 10
check_eq "-g: one exit event" "$(events sched:sched_process_exit "$T/out")" 1
awk '/sched:sched_process_exit:/ { on = 1; next } on && /^    [0-9a-f]+ / { n++; next } { on = 0 }
	END { print n + 0 }' "$T/out" >"$T/n"
check_range "-g: indented stack lines after the event" "$(cat "$T/n")" 3 64
check "-g: the stack goes through do_exit" grep -qE '^    [0-9a-f]{16} do_exit\+0x' "$T/out"
check "-g: the event names the workload" \
	grep -qE 'sched_process_exit: comm=getppid_loop pid=[0-9]+ ' "$T/out"

# --- the workload's exit status becomes ours
run trace -e syscalls:sys_enter_getppid -- sh -c 'exit 3'
check_eq "exit 3: perf-prof exits 3" "$rc" 3
check "exit 3: reported" grep -qE "^perf-prof: 'sh' exited with status 3$" "$T/err"

# --- bad input: exit status, message, nothing on stdout, nothing left behind
# bad DESC RC PHRASE ARGS...
bad() {
	local d=$1 want=$2 phrase=$3
	shift 3
	run "$@"
	check_eq "$d: exit status" "$rc" "$want"
	if grep -qF -- "$phrase" "$T/err"; then check "$d: says '$phrase'" true
	else check "$d: says '$phrase' (stderr: $(head -c 300 "$T/err"))" false; fi
	[ "${MULTI:-}" ] || check_eq "$d: one-line error" "$(grep -c 'perf-prof' "$T/err")" 1
	check_eq "$d: nothing on stdout" "$(wc -c <"$T/out")" 0
	check "$d: no ftrace instance left" test ! -e "$TRACING/instances/perf-prof-$ppid"
	check_eq "$d: no process left" "$(leftovers)" 0
}
bad "unknown event" 2 "see: perf-prof list 'sched:*'" trace -e sched:no_such_event -- true
bad "unknown subsystem" 2 "unknown tracepoint 'nosys:foo'" trace -e nosys:foo -- true
bad "unmatched glob" 2 "no tracepoint matches" trace -e 'sched:zz_nothing*' -- true
bad "unterminated filter" 2 "at offset 18: unterminated filter" \
	trace -e 'sched:sched_switch/prev_state==2' -- true
bad "empty event in list" 2 "at offset 27: empty event" trace -e 'sched:sched_switch//stack/,' -- true
bad "unknown attribute" 2 "unknown attribute 'bogus'" \
	trace -e 'sched:sched_switch/prev_state==2/bogus=1/' -- true
bad "filter on a missing field" 2 "rejected by the kernel: Field not found" \
	trace -e 'sched:sched_switch/no_field==1/' -- true
bad "the rejected clause of a filter is named" 2 \
	"filter clause 'nosuch==3' on sched:sched_switch rejected by the kernel: Field not found" \
	trace -e 'sched:sched_switch/prev_pid>0 && (prev_state==1 || prev_state==2) && nosuch==3/' -- true
bad "malformed filter" 2 "filter 'prev_state===1' on sched:sched_switch rejected by the kernel" \
	trace -e 'sched:sched_switch/prev_state===1/' -- true
bad "-C 9999" 2 "bad CPU list '9999'" trace -e sched:sched_switch -C 9999 -N 1
bad "-C 1-0" 2 "bad CPU list '1-0'" trace -e sched:sched_switch -C 1-0 -N 1
bad "-C abc" 2 "bad CPU list 'abc'" trace -e sched:sched_switch -C abc -N 1
bad "-p 999999" 1 "no such process: 999999" trace -e sched:sched_switch -p 999999
bad "-p abc" 2 "bad pid 'abc'" trace -e sched:sched_switch -p abc
bad "-t 999999" 1 "no such thread: 999999" trace -e sched:sched_switch -t 999999
bad "unknown option" 2 "unknown or incomplete option '--bogus'" trace -e sched:sched_switch --bogus
bad "-- without command" 2 "'--' must be followed by a command" trace -e sched:sched_switch --
bad "command not found" 1 "cannot run 'no_such_command_xyz': No such file or directory" \
	trace -e sched:sched_switch -- no_such_command_xyz
bad "-m 3" 2 "bad -m '3' (a power of two" trace -e sched:sched_switch -m 3 -N 1
bad "--flame-graph without -g" 2 "--flame-graph needs stacks: add -g" \
	trace -e sched:sched_switch --flame-graph "$T/x" -N 1
bad "no -e" 2 "no events: give -e" trace -N 1

# a -p target that exits mid-run: perf-prof ends by itself, cleanly, and not before it
gone() { [ ! -e "/proc/$1" ] || [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ]; }
# run_gated FIFO ARGS...: perf-prof ARGS -v; once it monitors, the target reading FIFO exits
run_gated() {
	local fifo=$1
	shift
	rm -f "$T/err" # not an earlier run's "monitoring"
	"$PP" "$@" -v >"$T/out" 2>"$T/err" &
	ppid=$!
	for _ in $(seq 600); do grep -q '^perf-prof: monitoring' "$T/err" && break; sleep 0.1; done
	echo go >"$fifo"
	wait $ppid
	rc=$?
}
mkfifo "$T/pg"
(read -r _ <"$T/pg") &
spid=$!
run_gated "$T/pg" trace -e sched:sched_switch -p $spid
check_eq "-p target exits: exit status 0" "$rc" 0
check "-p target exits: stops after it" gone $spid
check "-p target exits: no ftrace instance left" test ! -e "$TRACING/instances/perf-prof-$ppid"
check_eq "-p target exits: no process left" "$(leftovers)" 0

# a -p target that exits but is never reaped (a zombie) counts as gone
# (its parent sleeps on and never waits for it)
mkfifo "$T/zg"
bash -c "(read -r _ <'$T/zg') & echo \$! >'$T/zpid'; exec sleep 120" &
zparent=$!
for _ in $(seq 50); do [ -s "$T/zpid" ] && break; sleep 0.02; done
run_gated "$T/zg" trace -e sched:sched_switch -p "$(cat "$T/zpid")"
check_eq "-p zombie target: exit status 0" "$rc" 0
check "-p zombie target: stops after it exits" gone "$(cat "$T/zpid")"
check "-p zombie target: ... not when it is reaped (its parent still sleeps)" kill -0 $zparent
kill $zparent 2>/dev/null
wait $zparent 2>/dev/null

# not root: tracefs is root-only here, so the formats are unreadable
if command -v setpriv >/dev/null; then
	# a copy that nobody may run: build dirs may sit below private directories
	mkdir -p "$T/nobody" && cp "$PP" "$T/nobody/perf-prof" && chmod 755 "$T" "$T/nobody"
	for ev in sched:sched_switch 'sched:sched_sw*'; do
		setpriv --reuid=65534 --regid=65534 --clear-groups "$T/nobody/perf-prof" trace \
			-e "$ev" -N 1 >"$T/out" 2>"$T/err"
		rc=$?
		check "not root ($ev): non-zero exit" test "$rc" -ne 0
		check "not root ($ev): permission denied, run as root" \
			grep -qE '^perf-prof trace: permission denied .*: run as root' "$T/err"
		check_eq "not root ($ev): nothing on stdout" "$(wc -c <"$T/out")" 0
	done
else
	skip "not root: setpriv missing"
fi

# tracefs not mounted: libtracefs mounts it itself where it can ...
if unshare -m true 2>/dev/null; then
	unshare -m sh -c "umount $TRACING && ! grep -q ' $TRACING tracefs' /proc/mounts &&
		'$PP' trace -e sched:sched_switch -N 1" >"$T/out" 2>"$T/err"
	check_eq "tracefs unmounted: mounted again by libtracefs, runs" \
		"$(events sched:sched_switch "$T/out")" 1
	# ... and where it cannot (no /sys/kernel/tracing to mount on), says how
	unshare -m sh -c "umount $TRACING && mount -t tmpfs -o ro,size=4k none /sys/kernel &&
		'$PP' trace -e sched:sched_switch -N 1" >"$T/out" 2>"$T/err"
	rc=$?
	check_eq "no tracefs: exit status" "$rc" 1
	check "no tracefs: says how to mount it" \
		grep -qF "tracefs is not mounted: run 'mount -t tracefs nodev /sys/kernel/tracing'" \
		"$T/err"
	check "tracefs still mounted out here" grep -q " $TRACING tracefs" /proc/mounts
else
	skip "tracefs not mounted: unshare -m not available"
fi

# Attaching without a race, however slow the host: the workload waits on a
# fifo ("ready PID" first); perf-prof -v says when its events are enabled.
# gate_start CMD...: start CMD gated; its pid in $gpid
gate_start() {
	rm -f "$T/gate"
	mkfifo "$T/gate"
	rm -f "$T/gate.out" # not an earlier run's lines
	"$@" <"$T/gate" >"$T/gate.out" &
	gpid=$!
	exec 8>"$T/gate"
	for _ in $(seq 500); do grep -q ready "$T/gate.out" && break; sleep 0.02; done
}
# gate_run ARGS...: perf-prof ARGS -v; once it monitors, open the gate; wait for both
gate_run() {
	rm -f "$T/err" # not an earlier run's "monitoring"
	"$PP" "$@" -v >"$T/out" 2>"$T/err" &
	ppid=$!
	for _ in $(seq 1500); do grep -q '^perf-prof: monitoring' "$T/err" && break; sleep 0.02; done
	echo go >&8
	exec 8>&-
	wait $gpid
	wait $ppid
	rc=$?
}

# -p of a process whose main thread has exited: followed until its last thread ends
gate_start "$W/mt_exit" 20 0 --wait
gate_run trace -e syscalls:sys_enter_getppid -p $gpid
check_eq "-p, main thread gone: every event of the other thread" "$(events syscalls:sys_enter_getppid "$T/out")" 20

# -p A -t B: A's threads created later are still followed
spawn spid2 sleep 3
gate_start "$W/mt_exit" 20 0 --wait
gate_run trace -e syscalls:sys_enter_getppid -p $gpid -t $spid2
reap "$spid2"
check_eq "-p A -t B: A's new thread followed" "$(events syscalls:sys_enter_getppid "$T/out")" 20

# the same thread named twice (-p X,X; -p X -t X) is monitored once
gate_start "$W/getppid_loop" 100 0 --wait
gate_run trace -e syscalls:sys_enter_getppid -p $gpid,$gpid -t $gpid
check_eq "-p X,X -t X: each event once" "$(events syscalls:sys_enter_getppid "$T/out")" 100

# -N ends the workload and everything it started; exit 0, and -v says so
# (a notice: nothing on stderr without -v, issue 21)
run trace -e sched:sched_process_exec -N 1 -- sh -c 'sleep 30; echo done'
check_eq "-N with a workload: exit status" "$rc" 0
check_eq "-N with a workload: nothing on stderr" "$(cat "$T/err")" ""
run trace -v -e sched:sched_process_exec -N 1 -- sh -c 'sleep 30; echo done'
check_eq "-N -v with a workload: exit status" "$rc" 0
check "-N -v with a workload: says it stopped it" grep -q "stopped 'sh'" "$T/err"
# ours only (PP_TEST_TOKEN is in their environment): other runs may sleep 30 too
ours_sleeping() {
	for p in $(pgrep -f 'sleep 30'); do
		grep -qsaF "PP_TEST_TOKEN=${PP_TEST_TOKEN:-none}" /proc/$p/environ && echo $p
	done | wc -l
}
for _ in $(seq 50); do [ "$(ours_sleeping)" = 0 ] && break; sleep 0.1; done
check_eq "-N with a workload: no process of it left" "$(ours_sleeping)" 0

# SIGTERM to perf-prof goes to the workload, which dies of it: the run's own
# end (issue 21), exit 0; -v says so
rm -f "$T/err" # not an earlier run's "monitoring"
"$PP" trace -e sched:sched_switch -o /dev/null -v -- sleep 30 2>"$T/err" &
tpid=$!
for _ in $(seq 600); do grep -q '^perf-prof: monitoring' "$T/err" && break; sleep 0.1; done
kill -TERM $tpid
wait $tpid
check_eq "SIGTERM: the workload ended by it, exit 0" "$?" 0
check "SIGTERM: -v says the workload ended by the stop" grep -q "^perf-prof: 'sleep' ended by the stop signal (Terminated)$" "$T/err"
check_eq "SIGTERM: no exit status reported" "$(grep -c 'exited with status' "$T/err")" 0

# a full output device is an error, not a silent success
run trace -e sched:sched_switch -N 50 -o /dev/full
check_eq "-o /dev/full: exit status" "$rc" 1
check "-o /dev/full: says why" grep -q "No space left on device" "$T/err"

check_eq "no perf-prof or workload left at the end" "$(leftovers)" 0
done_tests
