#!/bin/bash
# profile --python-callchain: user stacks show CPython's Python frames (the
# "py::" symbols its perf trampolines name in /tmp/perf-PID.map with -X perf)
# in place of the interpreter's frames.  Ground truth: tests/work/py_tramp,
# which names two trampolines in its own perf map as CPython does and spins
# under them: spin, eval_frame, py::inner, eval_frame, py::outer,
# eval_frame, main (leaf first).  The live check needs a CPython with -X
# perf (3.12+); it skips otherwise, saying so.
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
X=$W/py_tramp
[ -x "$X" ] || { skip "workload py_tramp not built (make workloads)"; done_tests; exit; }

"$PP" profile --python-callchain -- true >/dev/null 2>"$T/u1"
check_eq "without -g: status 2" $? 2
check "without -g: says add -g" grep -q 'add -g' "$T/u1"
spawn sl sleep 30
"$PP" profile -g --python-callchain -p "$sl" >/dev/null 2>"$T/u2"
check_eq "a process without a perf map: status 2" $? 2
check "it names the map it looked for" grep -q "process $sl has no /tmp/perf-$sl.map" "$T/u2"
reap "$sl"

P="--no-addr --no-offset --no-dso"
# shellcheck disable=SC2086
"$PP" profile -g $P --python-callchain -- "$X" 400 >"$T/py" 2>"$T/py.err"
check_eq "status" $? 0
pid=$(sed -n 's/^pid=//p' "$T/py.err")
check_eq "nothing else on stderr" "$(grep -v '^pid=' "$T/py.err")" ""
check_eq "the workload removed its map" "$(ls "/tmp/perf-$pid.map" 2>/dev/null)" ""
n=$(grep -c '^ *spin$' "$T/py")
check_range "stacks in spin" "$n" 1 1000
check_eq "each: spin, eval_frame, py::inner, py::outer" \
	"$(awk '/^ *spin$/ { s = $1; getline; s = s " " $1; getline; s = s " " $1; getline
		print s " " $1 }' "$T/py" | sort | uniq -c | awk '{ $1 = ""; print substr($0, 2) }')" \
	"spin eval_frame py::inner:/tmp/py_tramp.py py::outer:/tmp/py_tramp.py"
check_eq "nothing below the outermost Python frame (main)" "$(grep -c '^ *main$' "$T/py")" 0
# a stack's frames follow its "SAMPLES SHARE" line
check_eq "at most one eval_frame a stack: the interpreter's others go" \
	"$(awk '/%$/ { c = 0; next } /^ *eval_frame$/ && ++c > m { m = c } END { print m }' "$T/py")" 1

# without the option: the native stack, the map's names in it
# shellcheck disable=SC2086
"$PP" profile -g $P -- "$X" 400 >"$T/nat" 2>/dev/null
check_eq "without it: every eval_frame stays (3 per stack in spin)" \
	"$(grep -c '^ *eval_frame$' "$T/nat")" "$(($(grep -c '^ *spin$' "$T/nat") * 3))"
check "without it: main below" grep -q '^ *main$' "$T/nat"

# a run without a perf map: said on stderr, the stacks native
# shellcheck disable=SC2086
"$PP" profile -g $P --python-callchain -- "$W/spin" 1 >"$T/sp" 2>"$T/sp.err"
check_eq "no map: status 0" $? 0
check "no map: says no Python frame was seen" grep -q 'no Python frame in any stack' "$T/sp.err"
check "no map: the native stacks" grep -q '^ *main$' "$T/sp"

if ! command -v python3 >/dev/null ||
	! python3 -X perf -c 'import sys; sys.exit(not hasattr(sys, "activate_stack_trampoline"))' \
		2>/dev/null; then
	skip "live CPython: $(python3 --version 2>&1) has no perf trampoline (-X perf is CPython 3.12+)"
else
	cat >"$T/busy.py" <<'PY'
import time
def inner():
    end = time.process_time() + 0.5
    while time.process_time() < end:
        pass
def outer():
    inner()
import atexit, os
atexit.register(os.unlink, "/tmp/perf-%d.map" % os.getpid())  # the test leaves nothing
outer()
PY
	"$PP" profile -g $P --python-callchain -- python3 -X perf "$T/busy.py" >"$T/live" 2>"$T/live.err"
	check_eq "live: status" $? 0
	check "live: py::inner over py::outer" grep -A1 -q 'py::inner:' "$T/live"
fi
done_tests
