#!/usr/bin/env bash
# Expression evaluation per record: perf-prof's compiled filters and keys
# against libtraceevent's tep_filter_match on the same sched_switch records
# (this host's format).  Prints ns/record and the ratio (libtraceevent /
# perf-prof: above 1 means perf-prof is faster).
# usage: bench/expr-bench.sh [BUILD] [RECORDS] [ROUNDS]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
records=${2:-4096}
rounds=${3:-7}
cd "$top"
make -s BUILD="$build" "$build/libpp.a" >/dev/null
mkdir -p "$build/bench"
pkgs="libtracefs libtraceevent libelf libdw"
# shellcheck disable=SC2046
cc -O2 -g -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -Isrc $(pkg-config --cflags $pkgs) \
	-o "$build/bench/expr_bench" bench/expr_bench.c "$build/libpp.a" \
	$(pkg-config --libs $pkgs) -liberty -lm
"$build/bench/expr_bench" "$records" "$rounds"
