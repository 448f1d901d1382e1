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

# attach OUT 'PROFILER ARGS' WORKLOAD ARGS...: the workload (which takes -f
# FIFO first, or FIFO as its first argument with WORKLOAD=xcpu_req) prints its
# pid and waits; the profiler (PID and FD in ARGS replaced) starts, and the
# workload goes once it is monitoring.  Leaves OUT, OUT.err, OUT.rc, OUT.wl.
attach() {
	local out=$1 pargs=$2 wl=$3 w p i pid fd a args=()
	shift 3
	mkfifo "$out.fifo"
	rm -f "$out.wl" # not an earlier run's lines
	if [ "$wl" = xcpu_req ]; then
		spawn w "$W/$wl" "$out.fifo" "$@" >"$out.wl"
	else
		spawn w "$W/$wl" -f "$out.fifo" "$@" >"$out.wl"
	fi
	for ((i = 0; i < 100; i++)); do
		grep -q '^pid=' "$out.wl" && break
		sleep 0.1
	done
	pid=$(grep -o 'pid=[0-9]*' "$out.wl" | cut -d= -f2)
	fd=$(grep -o 'fd=[0-9]*' "$out.wl" | cut -d= -f2)
	for a in $pargs; do a=${a//PID/$pid}; args+=("${a//FD/$fd}"); done
	rm -f "$out.err" # not an earlier run's "monitoring"
	"$PP" "${args[@]}" -v >"$out" 2>"$out.err" &
	p=$!
	for ((i = 0; i < 600; i++)); do
		grep -q '^perf-prof: monitoring: [0-9]* events enabled' "$out.err" && break
		kill -0 $p 2>/dev/null || break
		sleep 0.1
	done
	echo go >"$out.fifo"
	wait "$w"
	sleep 0.2
	kill -INT $p 2>/dev/null
	wait $p
	echo $? >"$out.rc"
	reap "$w"
}
