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
