#!/usr/bin/env bash
# The tests: install what is missing, build, run unit and integration tests.
# Ends with one line "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
make -j"$(nproc)" perf-prof unit workloads
make check
