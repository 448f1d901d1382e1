#!/usr/bin/env bash
# Issue 24 benchmark: a Python script counting events by pid over N (1M)
# syscalls:sys_enter_getppid of `getppid_loop N` (pinned to CPU 1), two ways,
# the same counting logic in each:
#   perf-prof  perf-prof python -e syscalls:sys_enter_getppid -p PID count.py
#              (live: the script's handler sees each event as it is read)
#   perf       perf record -e syscalls:sys_enter_getppid -p PID -o FILE, then
#              perf script -i FILE -s count_perf.py (its CPU: record's + script's)
# The tools run on CPU 0 with rings of -m PAGES (8192: no event lost), attach to
# the workload before it starts (it waits on a FIFO), and end when it exits.
# The figure is the tool's CPU (user + system, /usr/bin/time) per event the
# script counted; the ratio is perf-prof's over perf's.  Target: <= 0.5x.
# Each way runs ROUNDS times, interleaved; the table shows medians.
# usage: bench/python-bench.sh [BUILD_DIR] [N] [ROUNDS]
set -u
build=${1:-build}
n=${2:-1000000}
rounds=${3:-3}
pages=${PAGES:-8192}
. "$(dirname "$0")/lib.sh"
bench_build "$build"
[ -x "$pp" ] || { echo "no $pp (make BUILD=...)"; exit 1; }
wl=$build/work/getppid_loop
[ -x "$wl" ] || { echo "no $wl (make BUILD=... workloads)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
command -v perf >/dev/null || { echo "needs perf (apt-get install linux-perf)"; exit 1; }
perf version --build-options 2>/dev/null | grep -q 'libpython: \[ on' ||
	{ echo "needs perf built with libpython (perf script -s)"; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs (workload on CPU 1, tools on CPU 0)"; exit 1; }
tmp=$(mktemp -d /tmp/python-bench.XXXXXX)
trap 'exec 7>&- 2>/dev/null; kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT

cat >"$tmp/count.py" <<'EOF'
counts = {}

def syscalls__sys_enter_getppid(event):
    pid = event._pid
    counts[pid] = counts.get(pid, 0) + 1

def __exit__():
    for pid, n in sorted(counts.items()):
        print(pid, n)
EOF
cat >"$tmp/count_perf.py" <<'EOF'
counts = {}

def syscalls__sys_enter_getppid(event_name, context, common_cpu, common_secs, common_nsecs,
                                common_pid, common_comm, common_callchain, __syscall_nr,
                                perf_sample_dict=None):
    counts[common_pid] = counts.get(common_pid, 0) + 1

def trace_end():
    for pid, n in sorted(counts.items()):
        print(pid, n)
EOF

# the workload, waiting on $tmp/go until released: its pid in $wpid
start_wl() {
	rm -f "$tmp/go" "$tmp/wl"
	mkfifo "$tmp/go"
	taskset -c 1 "$wl" "$n" 0 --wait <"$tmp/go" >"$tmp/wl" &
	exec 7>"$tmp/go"
	for _ in $(seq 100); do grep -q '^ready' "$tmp/wl" && break; sleep 0.05; done
	wpid=$(awk '/^ready/ { print $2 }' "$tmp/wl")
}
go_wl() {
	echo go >&7
	exec 7>&-
}
# "U S" of /usr/bin/time's file -> seconds
cpu_of() { awk 'NR == 1 { printf "%.3f\n", $1 + $2 }' "$1"; }
# the count the script printed for pid $2 in $1
count_of() { awk -v p="$2" '$1 == p { print $2 }' "$1"; }

run_pp() {
	start_wl
	/usr/bin/time -f "%U %S" -o "$tmp/pp.time" taskset -c 0 "$pp" python -v \
		-e syscalls:sys_enter_getppid -p "$wpid" -m "$pages" "$tmp/count.py" \
		>"$tmp/pp.out" 2>"$tmp/pp.err" &
	local m=$!
	for _ in $(seq 600); do
		grep -q '^perf-prof: monitoring' "$tmp/pp.err" && break
		sleep 0.05
	done
	go_wl
	wait $m
	pp_rc=$?
	wait
	pp_cpu=$(cpu_of "$tmp/pp.time")
	pp_n=$(count_of "$tmp/pp.out" "$wpid")
	pp_lost=$(grep -o 'lost [0-9]*' "$tmp/pp.err" | head -1)
}

run_perf() {
	start_wl
	/usr/bin/time -f "%U %S" -o "$tmp/rec.time" taskset -c 0 perf record -q \
		-e syscalls:sys_enter_getppid -p "$wpid" -m "$pages" -o "$tmp/p.data" \
		>/dev/null 2>"$tmp/rec.err" &
	local m=$!
	sleep 1.5 # perf record says nothing when it is ready
	go_wl
	wait $m
	wait
	/usr/bin/time -f "%U %S" -o "$tmp/scr.time" taskset -c 0 perf script -i "$tmp/p.data" \
		-s "$tmp/count_perf.py" >"$tmp/perf.out" 2>"$tmp/scr.err"
	perf_rec=$(cpu_of "$tmp/rec.time")
	perf_scr=$(cpu_of "$tmp/scr.time")
	perf_cpu=$(awk -v a="$perf_rec" -v b="$perf_scr" 'BEGIN { printf "%.3f", a + b }')
	perf_n=$(count_of "$tmp/perf.out" "$wpid")
}

echo "python-bench: $n getppid events counted by pid, $rounds rounds, rings of $pages pages"
for r in $(seq "$rounds"); do
	if [ $((r % 2)) = 1 ]; then run_pp; run_perf; else run_perf; run_pp; fi
	printf 'round %d: perf-prof %ss (count %s%s, status %s)  perf record %ss + perf script %ss = %ss (count %s)\n' \
		"$r" "$pp_cpu" "${pp_n:-none}" "${pp_lost:+, $pp_lost}" "$pp_rc" "$perf_rec" \
		"$perf_scr" "$perf_cpu" "${perf_n:-none}"
	echo "$pp_cpu" >>"$tmp/pp.all"
	echo "$perf_cpu" >>"$tmp/perf.all"
	echo "$perf_scr" >>"$tmp/scr.all"
done
ppm=$(median <"$tmp/pp.all")
pfm=$(median <"$tmp/perf.all")
scm=$(median <"$tmp/scr.all")
echo
printf '%-34s %12s %14s\n' way "CPU s" "CPU ns/event"
printf '%-34s %12s %14s\n' "perf-prof python" "$ppm" "$(awk -v c="$ppm" -v n="$n" 'BEGIN { printf "%.0f", c * 1e9 / n }')"
printf '%-34s %12s %14s\n' "perf record + perf script -s" "$pfm" "$(awk -v c="$pfm" -v n="$n" 'BEGIN { printf "%.0f", c * 1e9 / n }')"
printf '%-34s %12s %14s\n' "  (perf script -s alone)" "$scm" "$(awk -v c="$scm" -v n="$n" 'BEGIN { printf "%.0f", c * 1e9 / n }')"
ratio=$(awk -v a="$ppm" -v b="$pfm" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')
echo
echo "ratio perf-prof / perf (CPU per event): ${ratio}x"
if awk -v r="$ratio" 'BEGIN { exit !(r > 0 && r <= 0.5) }'; then
	echo "target: python CPU per event <= 0.5x perf script's: met (${ratio}x)"
else
	echo "target: python CPU per event <= 0.5x perf script's: MISSED (${ratio}x)"
fi
