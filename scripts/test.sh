#!/usr/bin/env bash
# The tests, each suite once: install what is missing, build (-Werror), then
#   layers      every include points down (scripts/check-layers.sh)
#   unit        the unit tests under ASan+UBSan (make check-asan)
#   integ       the integration tests against an ASan+UBSan perf-prof
#               (make check-asan-integ)
#   plain       the suites with checks an ASan build cannot pass, against the
#               -Werror binary: t_memory (RSS growth; ASan's quarantine keeps
#               freed memory)
# Each suite's line ends with its time; the last line is "N passed, N
# failed" over all of them.  CI (.ci/run) runs this, the fuzz targets and the
# Debian package test.  `make check` runs the tests against the plain build.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh || exit 1
j=-j"$(nproc)"
make "$j" WERROR=-Werror perf-prof unit workloads || exit 1
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
pass=0 fail=0 rc=0
part() { # NAME COMMAND...
	local name=$1 t0 r line
	shift
	echo "== $name: $*"
	t0=$(date +%s)
	"$@" 2>&1 | tee "$logs/$name.log"
	r=${PIPESTATUS[0]}
	echo "== $name: $(($(date +%s) - t0)) s"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$logs/$name.log" | tail -n1)
	if [ -n "$line" ]; then
		set -- $line
		pass=$((pass + $1)) fail=$((fail + $3))
	fi
	# a part that failed without a failed test (a build) counts one
	if [ "$r" -ne 0 ]; then
		rc=1
		[ -n "$line" ] && [ "${3:-0}" -gt 0 ] || fail=$((fail + 1))
	fi
}
part layers make check-layers
part unit make "$j" check-asan
part integ make "$j" check-asan-integ
part plain tests/run.sh build integ t_memory
echo "$pass passed, $fail failed"
exit $rc
