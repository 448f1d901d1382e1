#!/usr/bin/env bash
# Runs the unit tests (and, unless "unit" is given, the integration tests)
# and ends with one line "N passed, N failed".  Each suite's line carries its
# wall time: "t_trace: 203 passed, 0 failed (41 s)".
# usage: tests/run.sh BUILD_DIR [unit|integ] [integ-script-name...]
set -u
build=${1:-build}
what=${2:-all}
shift 2 2>/dev/null || shift $#
top=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0 failed_suites=()

tally() { # suite output-file rc seconds
	local line p f
	line=$(grep -E '^[A-Za-z0-9_.-]+: [0-9]+ passed, [0-9]+ failed' "$2" | tail -n1)
	if [ -z "$line" ]; then
		echo "FAIL $1: no result line (rc $3, $4 s)"; tail -n 20 "$2"
		fail=$((fail + 1)); failed_suites+=("$1"); return
	fi
	p=$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1/' <<<"$line")
	f=$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\2/' <<<"$line")
	if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	pass=$((pass + p)); fail=$((fail + f))
	if [ "$f" -ne 0 ]; then
		# each failure with the '# ' diagnostics printed just before it
		failed_suites+=("$1")
		awk '/^# / { c = c $0 "\n"; next } /^(not ok|FAIL)/ { printf "%s%s\n", c, $0 } { c = "" }' "$2" | head -n 40
	fi
	echo "$line ($4 s)"
}

out=$(mktemp); trap 'rm -f "$out"' EXIT

# Every process a suite starts carries PP_TEST_TOKEN in its environment; one
# still alive after the suite is a failure of that suite (and is killed).
token=pp-test-$$-$RANDOM
survivors() { # suite-token: pids of processes whose environment holds it
	grep -lsaF -- "PP_TEST_TOKEN=$1" /proc/[0-9]*/environ 2>/dev/null |
		cut -d/ -f3 | grep -vx "$$" || true
}
# perf-prof's helper that closes its perf events after it exited (each
# tracepoint's last close waits for an RCU grace period: seconds on a busy
# host) ends by itself: waited for, not counted.
closing() { grep -qF -- --close-perf-fds "/proc/$1/cmdline" 2>/dev/null; }
leftovers() { # suite-token suite output-file
	local pids i p others
	for i in $(seq 1230); do # a moment for processes that are ending, 2 min for closers
		pids=$(survivors "$1")
		[ -z "$pids" ] && return 0
		others=0
		for p in $pids; do closing "$p" || others=1; done
		[ "$others" = 1 ] && [ "$i" -ge 30 ] && break
		sleep 0.1
	done
	local list=""
	for p in $pids; do
		list+=" [$p: $(tr '\0' ' ' </proc/"$p"/cmdline 2>/dev/null)]"
	done
	echo "not ok - $2 left processes running:$list" >>"$3"
	kill -KILL $pids 2>/dev/null
	return 1
}
if [ "$what" = all ] || [ "$what" = unit ]; then
	for t in "$build"/tests/test_*; do
		[ -x "$t" ] || continue
		t0=$SECONDS
		PP_TEST_TOKEN=$token.$(basename "$t") "$t" >"$out" 2>&1; rc=$?
		leftovers "$token.$(basename "$t")" "$(basename "$t")" "$out" || rc=1
		tally "$(basename "$t")" "$out" $rc $((SECONDS - t0))
	done
fi
if [ "$what" = all ] || [ "$what" = integ ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "SKIP integration tests: they need root (perf_event_open on tracepoints system-wide)"
	else
		scripts=("$@")
		[ ${#scripts[@]} -eq 0 ] && scripts=("$top"/tests/integ/t_*.sh)
		for s in "${scripts[@]}"; do
			[ -f "$s" ] || s="$top/tests/integ/${s%.sh}.sh"
			# a hang ends here; an ASan build on a busy host needs minutes for t_memory
			n=$(basename "$s" .sh) t0=$SECONDS
			PP_TEST_TOKEN=$token.$n BUILD="$build" TOP="$top" timeout 600 bash "$s" \
				>"$out" 2>&1; rc=$?
			leftovers "$token.$n" "$n" "$out" || rc=1
			tally "$n" "$out" $rc $((SECONDS - t0))
		done
	fi
fi
[ ${#failed_suites[@]} -gt 0 ] && echo "failed suites: ${failed_suites[*]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
