#!/usr/bin/env bash
# Runs the unit tests (and, unless "unit" is given, the integration tests)
# and ends with one line "N passed, N failed".
# usage: tests/run.sh BUILD_DIR [unit|integ] [integ-script-name...]
set -u
build=${1:-build}
what=${2:-all}
shift 2 2>/dev/null || shift $#
top=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0 failed_suites=()

tally() { # suite output-file rc
	local line p f
	line=$(grep -E '^[A-Za-z0-9_.-]+: [0-9]+ passed, [0-9]+ failed' "$2" | tail -n1)
	if [ -z "$line" ]; then
		echo "FAIL $1: no result line (rc $3)"; tail -n 20 "$2"
		fail=$((fail + 1)); failed_suites+=("$1"); return
	fi
	p=$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1/' <<<"$line")
	f=$(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\2/' <<<"$line")
	if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	pass=$((pass + p)); fail=$((fail + f))
	if [ "$f" -ne 0 ]; then
		failed_suites+=("$1"); grep -E '^(not ok|FAIL)' "$2" | head -n 40
	fi
	echo "$line"
}

out=$(mktemp); trap 'rm -f "$out"' EXIT
if [ "$what" = all ] || [ "$what" = unit ]; then
	for t in "$build"/tests/test_*; do
		[ -x "$t" ] || continue
		"$t" >"$out" 2>&1; rc=$?
		tally "$(basename "$t")" "$out" $rc
	done
fi
if [ "$what" = all ] || [ "$what" = integ ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "SKIP integration tests: they need root (perf_event_open on tracepoints system-wide)"
	else
		scripts=("$@")
		[ ${#scripts[@]} -eq 0 ] && scripts=("$top"/tests/integ/t_*.sh)
		for s in "${scripts[@]}"; do
			[ -f "$s" ] || s="$top/tests/integ/$s"
			BUILD="$build" TOP="$top" timeout 300 bash "$s" >"$out" 2>&1; rc=$?
			tally "$(basename "$s" .sh)" "$out" $rc
		done
	fi
fi
[ ${#failed_suites[@]} -gt 0 ] && echo "failed suites: ${failed_suites[*]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
