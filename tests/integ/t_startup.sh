#!/usr/bin/env bash
# A stop signal at any moment of start-up ends the run cleanly (issue 20):
# 50 runs per signal per profiler, each signal at a random 0-100 ms after
# main started (sigstorm): none dies by a signal, none hangs, each exits 0
# and leaves no probe behind.  A script's background job starts with SIGINT
# ignored: a SIGINT then still ends the run.  SIGPIPE sent by kill is not a
# stop.  A run killed by SIGKILL leaves its tracefs probe: the next run of
# any profiler, and check, remove it.
. "$(dirname "$0")/lib.sh"

S=$W/sigstorm
[ -x "$S" ] || { skip "workload sigstorm not built (make workloads)"; done_tests; exit; }
[ -x "$W/ts_sleep" ] || { skip "workload ts_sleep not built (make workloads)"; done_tests; exit; }
UP=/sys/kernel/tracing/uprobe_events

# storm NAME SIGNAL RUNS [-i] -- ARGS...: "runs=N exit0=N ..." of sigstorm
storm() {
	local name=$1 sig=$2 runs=$3 opt=()
	shift 3
	[ "$1" = -i ] && { opt=(-i); shift; }
	shift # --
	"$S" "${opt[@]}" -l "$T/$name.log" -p "$T/$name.pids" -s "$RANDOM" "$sig" "$runs" 100 -- \
		"$PP" "$@" >"$T/$name.res"
	grep '^run ' "$T/$name.res" | head -n 5 | sed 's/^/# /'
	tail -n 1 "$T/$name.res"
}
# every run exited 0 by itself
all_clean() { # NAME RUNS
	check_eq "$1: $2 runs, each exit 0 (none killed by a signal, none hung)" \
		"$(tail -n 1 "$T/$1.res")" "runs=$2 exit0=$2 exit_other=0 signaled=0 hung=0"
}

for sig in INT TERM HUP QUIT; do
	storm "trace-$sig" "$sig" 50 -- trace -e sched:sched_switch >/dev/null
	all_clean "trace-$sig" 50
	storm "ts-$sig" "$sig" 50 -- task-state -g >/dev/null
	all_clean "ts-$sig" 50
done
# -o FILE: SIGHUP reopens it (log rotation), the others stop
for sig in INT TERM; do
	storm "trace-o-$sig" "$sig" 20 -- trace -e sched:sched_switch -o "$T/o.out" >/dev/null
	all_clean "trace-o-$sig" 20
done
check "... stderr said nothing in those runs" bash -c "! cat '$T'/trace-o-*.log | grep -q ."

# a script's background job: SIGINT and SIGQUIT ignored from the start
storm trace-ign INT 20 -i -- trace -e sched:sched_switch >/dev/null
all_clean trace-ign 20
storm ts-ign INT 20 -i -- task-state -g >/dev/null
all_clean ts-ign 20

# SIGPIPE from kill: ignored (a closed pipe is seen as EPIPE), then SIGINT ends the run
storm trace-pipe PIPE 20 -- trace -e sched:sched_switch >/dev/null
all_clean trace-pipe 20
storm ts-pipe PIPE 20 -- task-state -g >/dev/null
all_clean ts-pipe 20

# a tracefs uprobe (-p: the events must follow new threads): made and removed
# whenever the stop comes
"$W/ts_sleep" 100000 10 >/dev/null &
tgt=$!
for sig in INT TERM; do
	storm "up-$sig" "$sig" 20 -- trace -e 'uprobe:nanosleep@"libc.so.6"' -p "$tgt" >/dev/null
	all_clean "up-$sig" 20
done
# the groups of those runs (perf_prof_PID): none left
gone=0
for p in $(cat "$T"/up-*.pids); do
	grep -q "perf_prof_$p/" "$UP" 2>/dev/null && gone=$((gone + 1))
done
check_eq "uprobe runs: no probe of a finished run left in tracefs" "$gone" 0

# a stop right as main starts (task-state -g takes tens of ms to start): the
# run never starts, so its outputs are left as they were and its command is
# not run
echo OLD >"$T/keep.out"
echo OLD >"$T/keep.svg"
"$S" -l "$T/early.log" INT 5 0 -- "$PP" task-state -g -o "$T/keep.out" --flame-graph "$T/keep.svg" \
	-- touch "$T/ran" >"$T/early.res"
check_eq "stop at start: each run exit 0" "$(tail -n 1 "$T/early.res")" \
	"runs=5 exit0=5 exit_other=0 signaled=0 hung=0"
check_eq "... -o FILE left as it was" "$(cat "$T/keep.out")" OLD
check_eq "... the flame graph left as it was" "$(cat "$T/keep.svg")" OLD
check "... the command never ran" test ! -e "$T/ran"

# a command: a stop before it started means it is not run; after, it gets the
# signal and dies of it: either way the run's own end, exit 0, stderr quiet
# (issue 21: "stopped before 'sleep' was started" only with -v)
storm wl INT 20 -- trace -e sched:sched_switch -- sleep 5 >/dev/null
all_clean wl 20
check "workload: stderr said nothing in those runs (the log has their events)" \
	bash -c "! grep -q '^perf-prof' '$T/wl.log'"
storm wl-v INT 10 -- trace -v -e sched:sched_switch -- sleep 5 >/dev/null
all_clean wl-v 10
check "workload -v: each run says how its command ended (not run, or ended by the stop)" \
	test "$(grep -cE "^perf-prof: (stopped before 'sleep' was started|'sleep' ended by the stop signal \(Interrupt\))$" "$T/wl-v.log")" -eq 10

# --- SIGKILL leaves the probe; the next run (any profiler) and check remove it ---
# killed_run ERR: a run with a tracefs uprobe, SIGKILLed once monitoring; kp gets its pid
killed_run() {
	local i
	rm -f "$T/$1" # not an earlier run's "monitoring"
	"$PP" trace -v -e 'uprobe:nanosleep@"libc.so.6"' -p "$tgt" -o /dev/null 2>"$T/$1" &
	kp=$!
	for i in $(seq 600); do
		grep -q '^perf-prof: monitoring' "$T/$1" && break
		kill -0 "$kp" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$kp"
	wait "$kp" 2>/dev/null
}
killed_run k.err
# SIGKILL leaves its group (unless another perf-prof on the host removed it
# already: then there is nothing to name)
grep -q "perf_prof_$kp/" "$UP" && left=1 || left=0
timeout --preserve-status -s INT 1 "$PP" trace -v -e sched:sched_switch -o /dev/null 2>"$T/k2.err"
check_eq "the next run (trace sched_switch, no probe of its own) exits 0" "$?" 0
if [ "$left" = 1 ]; then
	check "... and says with -v what it removed" \
		grep -qE "^perf-prof: removed [0-9]+ probes? left by perf-prof runs that are gone: .*perf_prof_$kp/nanosleep" \
		"$T/k2.err"
else
	skip "... naming it: another perf-prof run on this host removed it first"
fi
check "... the group is gone" bash -c "! grep -q 'perf_prof_$kp/' $UP"
# again, for check
killed_run k3.err
grep -q "perf_prof_$kp/" "$UP" && left=1 || left=0
"$PP" check >"$T/check.out" 2>&1
if [ "$left" = 1 ]; then
	check "check: reports the leftover it removed" \
		grep -qE "^  leftover probes +removed +removed [0-9]+ probes? of perf-prof runs that are gone: .*perf_prof_$kp/nanosleep" \
		"$T/check.out"
else
	skip "check naming it: another perf-prof run on this host removed it first"
fi
check "... the group is gone" bash -c "! grep -q 'perf_prof_$kp/' $UP"
"$PP" check >"$T/check2.out" 2>&1
check "check: a leftover row the second time, without this run's group" \
	bash -c "grep -qE '^  leftover probes +(none|removed) ' '$T/check2.out' && ! grep -q 'perf_prof_$kp/' '$T/check2.out'"
kill "$tgt"
wait "$tgt" 2>/dev/null
done_tests
