# Shared helpers for integration tests.  Source it; call check/skip; end with done_tests.
set -u
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
if [ "$BUILD" = "$TOP/build" ]; then PP=$TOP/perf-prof; else PP=$BUILD/perf-prof; fi
W=$BUILD/work
T=$(mktemp -d /tmp/pp-test.XXXXXX)
_groups=()
# Anything still running in a group spawn started is killed when the suite ends.
_cleanup() {
	local g
	for g in "${_groups[@]}"; do kill -KILL -- -"$g" 2>/dev/null; done
	rm -rf "$T"
}
trap _cleanup EXIT

# spawn VAR CMD...: run CMD in the background as the leader of a process group
# of its own; VAR gets its pid (= the group id).  Workloads whose children
# outlive them (perf bench, stress-ng) must be started this way and ended with
# reap, which ends the whole group.
spawn() {
	local _v=$1
	shift
	setsid "$@" &
	printf -v "$_v" %s $!
	_groups+=($!)
}
# reap PID [SIGNAL]: send SIGNAL (TERM) to the group PID, SIGKILL what is left
# after 2 s, and wait for the leader.
reap() {
	local g=$1 sig=${2:-TERM} i
	kill -"$sig" -- -"$g" 2>/dev/null
	for i in $(seq 20); do
		kill -0 -- -"$g" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL -- -"$g" 2>/dev/null
	wait "$g" 2>/dev/null
	# ended: its id may be reused by others, which the exit cleanup must not kill
	local i2 kept=()
	for i2 in "${_groups[@]}"; do [ "$i2" = "$g" ] || kept+=("$i2"); done
	_groups=("${kept[@]}")
	return 0
}
_pass=0 _fail=0
_suite=$(basename "$0" .sh)

# check "description" COMMAND...   (passes if COMMAND exits 0)
check() {
	local d=$1; shift
	if "$@"; then _pass=$((_pass + 1)); echo "ok - $d"
	else _fail=$((_fail + 1)); echo "not ok - $d"; fi
}
# check_eq "description" ACTUAL EXPECTED
check_eq() {
	if [ "$2" = "$3" ]; then _pass=$((_pass + 1)); echo "ok - $1"
	else _fail=$((_fail + 1)); echo "not ok - $1: got '$2', expected '$3'"; fi
}
# check_range "description" VALUE MIN MAX   (numbers, floats fine)
check_range() {
	if awk -v v="$2" -v a="$3" -v b="$4" 'BEGIN { exit !(v >= a && v <= b) }'; then
		_pass=$((_pass + 1)); echo "ok - $1 ($2 in [$3, $4])"
	else _fail=$((_fail + 1)); echo "not ok - $1: $2 not in [$3, $4]"; fi
}
# A test that cannot run here says why; it is not counted as passed.
skip() { echo "skip - $*"; }
done_tests() { echo "$_suite: $_pass passed, $_fail failed"; [ "$_fail" -eq 0 ]; }

# ns "2.087ms": a time as the tables print it, in ns
ns() { awk -v v="$1" 'BEGIN { u = v; sub(/^[0-9.]+/, "", u); n = v + 0;
	m = u == "ns" ? 1 : u == "us" ? 1e3 : u == "ms" ? 1e6 : u == "s" ? 1e9 : -1;
	printf "%.0f\n", n * m }'; }

# The time the hypervisor ran something else on the host's CPUs (steal in
# /proc/stat, all CPUs), in ms.  A thread's own clock leaves it out
# (paravirt steal accounting); a profiler's time between its switches has it.
steal() { awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { printf "%.0f\n", $9 * 1000 / hz }' /proc/stat; }
STEAL=0 # set by a test: the steal during its last run
# near A B: |A - B| <= 2% of B + 2 ms; A (time between a thread's switches)
# may exceed its own clock B by the run's $STEAL besides
near() { awk -v a="$1" -v b="$2" -v s="$STEAL" 'BEGIN { d = a - b; if (d < 0) d = -d; else d -= s
	exit !(d <= b * 0.02 + 2) }'; }

# wl_start OUT WORKLOAD ARGS...: tests/work/WORKLOAD ARGS, which waits on the
# FIFO OUT.fifo (made here; given as -f FIFO first, or as the first argument
# to write_n and xcpu_req), in a process group of its own, its lines in OUT.wl,
# until it prints its pid: WL gets the group (wait, reap), WL_PID and WL_FD
# what it printed (pid=, fd=)
wl_start() {
	local out=$1 wl=$2 i
	shift 2
	rm -f "$out.fifo" "$out.wl" # not an earlier run's lines
	mkfifo "$out.fifo"
	case $wl in
	write_n | xcpu_req) spawn WL "$W/$wl" "$out.fifo" "$@" >"$out.wl" ;;
	*) spawn WL "$W/$wl" -f "$out.fifo" "$@" >"$out.wl" ;;
	esac
	for ((i = 0; i < 100; i++)); do
		grep -q '^pid=' "$out.wl" && break
		sleep 0.1
	done
	WL_PID=$(grep -o 'pid=[0-9]*' "$out.wl" | cut -d= -f2)
	WL_FD=$(grep -o 'fd=[0-9]*' "$out.wl" | cut -d= -f2)
}

# attach OUT 'PROFILER ARGS' WORKLOAD ARGS...: the workload (which takes -f
# FIFO first, or FIFO as its first argument with WORKLOAD=xcpu_req) prints its
# pid and waits; the profiler (PID and FD in ARGS replaced) starts, and the
# workload goes once it is monitoring.  Leaves OUT, OUT.err, OUT.rc, OUT.wl.
attach() { _attach "" "$@"; }
# attach_stopped OUT 'PROFILER ARGS' WORKLOAD ARGS...: as attach, but perf-prof is
# stopped (SIGSTOP) while the workload runs: nothing is read meanwhile
attach_stopped() { _attach stopped "$@"; }
_attach() {
	local stopped=$1 out=$2 pargs=$3 w p a args=()
	shift 3
	wl_start "$out" "$@"
	w=$WL
	for a in $pargs; do a=${a//PID/$WL_PID}; args+=("${a//FD/$WL_FD}"); done
	rm -f "$out.err" # not an earlier run's "monitoring"
	"$PP" "${args[@]}" -v >"$out" 2>"$out.err" &
	p=$!
	wait_monitoring "$out.err" $p
	[ -n "$stopped" ] && kill -STOP $p
	echo go >"$out.fifo"
	wait "$w"
	[ -n "$stopped" ] && kill -CONT $p
	sleep 0.2
	kill -INT $p 2>/dev/null
	wait $p
	echo $? >"$out.rc"
	reap "$w"
}

# usage_bad DESC EXPECTED-TEXT ARGS...: perf-prof ARGS is a usage error: status 2,
# one line on stderr, saying EXPECTED-TEXT
usage_bad() {
	local d=$1 want=$2
	shift 2
	"$PP" "$@" >/dev/null 2>"$T/bad.err"
	check_eq "$d: status 2" $? 2
	check_eq "$d: one line" "$(wc -l <"$T/bad.err")" 1
	check "$d: says '$want'" grep -qF -- "$want" "$T/bad.err"
}

# wait_monitoring ERR PID: until perf-prof PID, its stderr in ERR, says it monitors
# (or has ended; 60 s at the most)
wait_monitoring() {
	local i
	for ((i = 0; i < 600; i++)); do
		grep -qs '^perf-prof: monitoring: [0-9]* events enabled' "$1" && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
# wait_for FILE REGEX [PID]: until a line of FILE matches REGEX (grep's basic
# ones), 60 s at the most; fails at once when PID has ended
wait_for() {
	local i
	for ((i = 0; i < 600; i++)); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		[ -n "${3:-}" ] && ! kill -0 "$3" 2>/dev/null && return 1
		sleep 0.1
	done
	return 1
}

# wait_lines FILE REGEX [COUNT]: until FILE has COUNT (1) lines matching REGEX
# (grep -E's), 60 s at the most
wait_lines() {
	local i
	for ((i = 0; i < 600; i++)); do
		[ "$(grep -cE "$2" "$1" 2>/dev/null)" -ge "${3:-1}" ] && return 0
		sleep 0.1
	done
	return 1
}

# monitor OUT ARGS...: perf-prof ARGS -v in the background (stdout in OUT, stderr in
# OUT.err, its pid in OUT.pid), until it monitors; stop OUT: SIGINT it, wait, its
# exit status in OUT.rc
monitor() {
	local out=$1
	shift
	rm -f "$out.err" # not an earlier run's "monitoring"
	"$PP" "$@" -v >"$out" 2>"$out.err" &
	echo $! >"$out.pid"
	wait_monitoring "$out.err" $!
}
stop() {
	local p
	p=$(cat "$1.pid")
	kill -INT "$p" 2>/dev/null
	wait "$p"
	echo $? >"$1.rc"
}
# line FILE KEY N: field N of the first line of FILE that begins with KEY (a
# table's first columns, words joined by one space)
line() { awk -v k="$2" -v n="$3" 'index($0, k) == 1 { print $n; exit }' "$1"; }

# idle_sleeper FIFO OUT: tests/work/lat_sleep, 200 sleeps of 2 ms once a line comes
# in FIFO (made here), under SCHED_IDLE pinned to CPU 0 beside a spinner there, so
# that its wakeups wait for CPU 0 until the spinner's slice ends (ms, not us: two
# tools stamp their own samples of one tracepoint hit a few us apart, more when
# their probes run one after the other, BPF's beside perf's).  One process group
# (in two sessions, two autogroups, the groups would share the CPU and the wakeups
# would wait us).  Its lines in OUT; SLEEPER gets the group (wait, reap),
# SLEEPER_PID lat_sleep's pid.
idle_sleeper() {
	local i
	rm -f "$1" "$2" # not an earlier run's lines
	mkfifo "$1"
	spawn SLEEPER sh -c 'taskset -c 0 sh -c "while :; do :; done" & exec chrt -i 0 "$0" -f "$1" -c 0 200 2' \
		"$W/lat_sleep" "$1" >"$2"
	for ((i = 0; i < 100; i++)); do grep -q '^pid=' "$2" && break; sleep 0.1; done
	SLEEPER_PID=$(grep -o 'pid=[0-9]*' "$2" | cut -d= -f2)
}

# on_writes OUT PROFILER ARGS...: PROFILER -e sys_enter_write of tests/work/write_n's
# fd over its 100 writes (-v; --order: the lines in write order even if write_n
# moves to another CPU); leaves OUT, OUT.err, OUT.rc, OUT.wl, and WRITER
# (write_n's pid, ended)
on_writes() {
	local out=$1 prof=$2 p wfd
	shift 2
	wl_start "$out" write_n
	WRITER=$WL
	exec {wfd}<>"$out.fifo"
	rm -f "$out.err" # not an earlier run's "monitoring"
	"$PP" "$prof" -v --order -e "syscalls:sys_enter_write/common_pid==$WL_PID && fd==$WL_FD/" "$@" \
		>"$out" 2>"$out.err" &
	p=$!
	wait_for "$out.err" '^perf-prof: monitoring:' $p
	echo go >&$wfd
	wait_for "$out.wl" '^done' "$WRITER"
	sleep 0.2
	kill -INT $p
	wait $p
	echo $? >"$out.rc"
	exec {wfd}>&-
	reap "$WRITER"
}

# ---- BPF ----
# bpf_host [btf]: the host's word, not ours: can a tracepoint BPF program load here
# (bpftool's probe), with btf also with the kernel's BTF?  (bpftool probes tracing
# programs without a BTF target: "NOT available" for tp_btf too)
bpf_host() {
	if [ "${1:-}" = btf ]; then test -r /sys/kernel/btf/vmlinux || return 1; fi
	bpftool feature probe kernel 2>/dev/null | grep -q "program_type tracepoint is available"
}
# both_back_ends [btf] BPF-ARG: the suite's function `suite NAME BACKEND-ARG` run
# as "suite bpf BPF-ARG" where bpf_host [btf] says BPF works here (else a skip
# saying so), then as "suite ring --no-bpf"
both_back_ends() {
	local need=
	[ "$1" = btf ] && need=btf && shift
	if bpf_host $need; then
		suite bpf "$1"
	else
		skip "no BPF here: the BPF back end's checks"
	fi
	suite ring --no-bpf
}
# bpf_ours ARGS...: does perf-prof ARGS (a request with --bpf) run here?  If not,
# what it said is in $T/probe.err
bpf_ours() { "$PP" "$@" >/dev/null 2>"$T/probe.err"; }
# need_bpf ARGS...: as bpf_ours; when it does not run, the suite skips, saying why, and ends
need_bpf() {
	bpf_ours "$@" && return 0
	skip "no BPF back end here: $(head -1 "$T/probe.err")"
	done_tests
	exit
}
# bpf_prog_ids PID: the ids of the BPF programs PID holds (its fds' fdinfo; not
# other runs' on the host)
bpf_prog_ids() { cat /proc/"$1"/fdinfo/* 2>/dev/null | awk '$1 == "prog_id:" { print $2 }' | sort -u; }
# bpf_start OUT PROFILER ARGS...: perf-prof PROFILER -v ARGS (ARGS may end in
# "-- COMMAND") in the background, a process group of its own (stderr in
# OUT.err), until it monitors; BPF_PID gets its pid, BPF_IDS its programs' ids.
# Without bpftool or jq: skipped, and it fails.
bpf_start() {
	local out=$1
	shift
	if ! command -v bpftool >/dev/null || ! command -v jq >/dev/null; then
		skip "SIGKILL: no bpftool or jq"
		return 1
	fi
	rm -f "$out.err"
	spawn BPF_PID "$PP" "$1" -v "${@:2}" >/dev/null 2>"$out.err"
	wait_monitoring "$out.err" "$BPF_PID"
	BPF_IDS=$(bpf_prog_ids "$BPF_PID")
}
# bpf_kill_leaves_nothing: SIGKILL the run bpf_start began (and its workload); its
# programs are fds of ours (nothing pinned), so none of them stays in bpftool's
# list (5 s at the most for the kernel to free them)
bpf_kill_leaves_nothing() {
	local i left=0
	check "SIGKILL: a BPF run holds its programs" test -n "$BPF_IDS"
	reap "$BPF_PID" KILL
	for ((i = 0; i < 50; i++)); do
		left=$(bpftool -j prog list | jq -r '.[].id' | grep -c -x -F "$(printf '%s\n' $BPF_IDS)")
		[ "$left" -eq 0 ] && break
		sleep 0.1
	done
	check_eq "SIGKILL leaves none of its BPF programs" "$left" 0
}

# ---- profile --than against tests/work/spin ----
# than_spin DESC WL TIMES FREQ PCT: profile --than PCT at FREQ Hz printed the
# spinner's samples whose times (CLOCK_MONOTONIC ns, one a line) are in the
# file TIMES; WL is spin's output: its own CPU time in each second of that
# clock ("sec S ms=MS").  A per-thread cpu-clock samples the thread every
# 1/FREQ s of its time on a CPU: MS * FREQ / 1000 samples in second S, to
# within 5% (-F: the kernel adjusts the period to the frequency as it goes;
# CI saw 96 where 98.3 were due) and 2 (one at each edge, and spin's 3 ms
# slice when it reads the clock),
# and up to $STEAL (ms, the run's steal) * FREQ / 1000 more (the host's
# time, which the thread's own clock leaves out).  Each second is printed
# whole where its samples reach PCT% of FREQ: it must be where even the
# fewest expected do, must not be where even the most expected do not; in
# between, either, but whole.  A run in which the spinner never had
# PCT% (+ 2 samples) of a CPU in a second cannot show the printing: said
# with its seconds, as a skip.
than_spin() {
	local d=$1 wl=$2 times=$3 freq=$4 pct=$5 v busy
	v=$(awk -v freq="$freq" -v pct="$pct" -v st="${STEAL:-0}" '
		FILENAME == ARGV[1] && /^sec [0-9]+ ms=/ { s = $2; ms[s] = substr($3, 4) + 0; order[n++] = s; next }
		FILENAME == ARGV[1] { next }
		{ got[int($1 / 1e9)]++; total++ }
		END {
			thr = pct * freq / 100
			for (i = 0; i < n; i++) {
				# (-F: the kernel adjusts the period to the frequency as it goes: 5%, and
				# a sample either side of the second's bounds)
				s = order[i]; lo = ms[s] * freq / 1000 * 0.95 - 2; hi = (ms[s] + st) * freq / 1000 * 1.05 + 2
				g = got[s] + 0; seen += g
				if (lo >= thr) { want = "printed"; busy++; ok = g >= lo && g <= hi }
				else if (hi < thr) { want = "not printed"; ok = g == 0 }
				else { want = "either"; ok = g == 0 || (g >= thr && g >= lo && g <= hi) }
				printf "%s second %d: own %.0f ms, %d samples printed (%s; expected %.0f..%.0f)\n",
					ok ? "ok" : "bad", s, ms[s], g, want, lo < 0 ? 0 : lo, hi
			}
			printf "%s outside its seconds: %d samples\n", total == seen ? "ok" : "bad", total - seen
			printf "busy %d\n", busy
		}' "$wl" "$times")
	busy=$(sed -n 's/^busy //p' <<<"$v")
	sed -n 's/^\(ok\|bad\) /# /p' <<<"$v"
	check "$d: printed exactly its seconds with $pct% of a CPU by its own clock, each with its samples" \
		test -n "$busy" -a "$(grep -c '^bad ' <<<"$v")" = 0
	[ "${busy:-0}" -gt 0 ] ||
		skip "$d: the spinner never had $pct% of a CPU in a second (host busy): nothing it had to print"
}
