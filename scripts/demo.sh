#!/usr/bin/env bash
# The main job: install what is missing, build, and show perf-prof at work on this host.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
make -j"$(nproc)" perf-prof workloads >/dev/null
pp=./perf-prof
echo "== perf-prof list 'sched:sched_s*'"
$pp list 'sched:sched_s*'
echo
echo "== every getppid() of a program, with its stack (DWARF unwinding through libc)"
$pp trace -e syscalls:sys_enter_getppid --call-graph dwarf -- build/work/stk_nofp 2
echo
echo "== who sleeps, how long, where: task-state on a workload (100 x 5 ms sleeps)"
$pp task-state -g --than 4ms -- build/work/ts_sleep 100 5 | tail -n 12
echo
echo "== an off-CPU flame graph of the same workload: /tmp/perf-prof-demo.svg"
$pp task-state -g --flame-graph /tmp/perf-prof-demo.svg -- build/work/ts_mixed >/dev/null
ls -l /tmp/perf-prof-demo.svg
