#!/usr/bin/env bash
# The BPF back end's targets (issue 23), one summary: runs the benchmarks that
# compare a BPF profiler with its peers on the same workload in the same run
# (bench/top-bench.sh, bench/lat-bench.sh, bench/task-state-bench.sh) and
# prints each one's table and its "target:" lines, met or MISSED.
# usage: bench/bpf-bench.sh [BUILD_DIR] [ROUNDS]
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
rounds=${2:-3}
out=$(mktemp -d /tmp/bpf-bench.XXXXXX)
trap 'rm -rf "$out"' EXIT

run() { # name script args...
	local name=$1
	shift
	echo "== $name: $*"
	bash "$@" >"$out/$name" 2>&1
	# the table (from its "way" header) and the targets
	sed -n '/^way /,$p' "$out/$name" | grep -v '^$'
}
run top "$here/top-bench.sh" "$build" 2000000 "$rounds"
run lat "$here/lat-bench.sh" "$build" 1000000 "$rounds"
run task-state "$here/task-state-bench.sh" "$build" "$rounds"
echo
echo "== targets"
cat "$out"/* | grep '^target' | sed 's/^/  /'
n=$(cat "$out"/* | grep -c '^target.*MISSED')
echo "$n target(s) missed"
