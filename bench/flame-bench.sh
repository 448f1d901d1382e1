#!/usr/bin/env bash
# Flame graph speed: folding (flame__add, from the unit test) and folded ->
# SVG with `perf-prof flamegraph`, against flamegraph.pl / inferno-flamegraph
# when they are installed (Debian packages neither; put them in PATH to compare).
# usage: bench/flame-bench.sh [BUILD_DIR] [LINES...]   (default: build 100000 1000000)
set -u
build=${1:-build}
shift $(($# > 0 ? 1 : 0))
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(100000 1000000)
. "$(dirname "$0")/lib.sh"
bench_build "$build"
[ -x "$pp" ] || { echo "no $pp (make BUILD=...)"; exit 1; }
tmp=$(mktemp -d /tmp/flame-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

secs() { # COMMAND... -> wall seconds on stdout, command output discarded
	local a b
	a=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || echo "  (failed: $*)" >&2
	b=$(date +%s.%N)
	awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b - a }'
}

if [ -x "$build/tests/test_flame" ]; then
	echo "folding: $("$build/tests/test_flame" | sed -n 's/^# //p')"
fi
for n in "${sizes[@]}"; do
	# Deep stacks: a shared base, then frames from a vocabulary of 5000 names.
	awk -v n="$n" 'BEGIN {
		srand(1);
		for (i = 0; i < n; i++) {
			d = 10 + int(rand() * 30);
			s = "comm" int(rand() * 16) ";_start;__libc_start_main;main";
			for (j = 0; j < d; j++)
				s = s ";fn_" int(rand() * 5000) (j > d - 6 ? "_[k]" : "");
			print s, 1 + int(rand() * 1000);
		}
	}' >"$tmp/in.folded"
	mb=$(du -m "$tmp/in.folded" | cut -f1)
	printf "%8d lines (%d MB):  perf-prof flamegraph %ss" "$n" "$mb" \
		"$(secs "$pp" flamegraph "$tmp/in.folded" -o "$tmp/pp.svg")"
	if command -v flamegraph.pl >/dev/null; then
		printf ",  flamegraph.pl %ss" "$(secs sh -c "flamegraph.pl '$tmp/in.folded' >'$tmp/pl.svg'")"
	fi
	if command -v inferno-flamegraph >/dev/null; then
		printf ",  inferno %ss" "$(secs sh -c "inferno-flamegraph '$tmp/in.folded' >'$tmp/inf.svg'")"
	fi
	printf ",  SVG %d KB\n" "$(($(stat -c %s "$tmp/pp.svg") / 1024))"
done
