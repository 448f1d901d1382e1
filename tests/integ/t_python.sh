#!/bin/bash
# python: real scripts against workloads of known behaviour.  Each workload
# waits on a FIFO (a shell that reads a line, then execs it: the pid stays)
# until perf-prof, attached with -p, monitors; perf-prof ends when it exits.
#   - a handler per event sees exactly the workload's N calls, with the
#     arguments it made (lseek_loop: fd 12345, offset 67890, whence 2);
#   - __sample__ gets the events without a handler of their own, _event set;
#   - -g: the stack of stk_fp's getppid goes through lib_b, stk_a, main;
#   - event objects kept past their callback keep their own record;
#   - event.print() is trace's line for the same event;
#   - __interval__ runs once per interval (each one's events add up);
#   - sys.argv is the script and its arguments; a shebang script runs;
#   - an exception: traceback, status 1, every earlier line and __exit__'s;
#   - a stop signal during a long callback: KeyboardInterrupt, status 0;
#   - scripts that cannot load: one line, status 2 (a syntax error: its
#     traceback first);
#   - help's template; an inner profiler's samples and rows (joint analysis);
#   - a slow script: lost events counted and reported, and __lost__ called.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || { skip "needs root"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
for w in getppid_loop lseek_loop stk_fp write_n; do
	[ -x "$W/$w" ] || { skip "workload $w not built (make workloads)"; done_tests; exit; }
done
[ -d /sys/kernel/tracing/events/syscalls/sys_enter_lseek ] ||
	{ skip "no syscalls tracepoints"; done_tests; exit; }
EG=syscalls:sys_enter_getppid
EL=syscalls:sys_enter_lseek

# wl CMD...: CMD waits on $T/go until released (its pid: WL_PID)
wl() {
	rm -f "$T/go"
	mkfifo "$T/go"
	spawn WL bash -c 'cat "$0" >/dev/null; exec "$@"' "$T/go" "$@"
	WL_PID=$WL
}
# pyrun OUT ARGS...: perf-prof python -v -p WL_PID ARGS (options, then the
# script and its arguments) on the waiting workload, which goes once it
# monitors; perf-prof ends when the workload does.  OUT, OUT.err, OUT.rc.
pyrun() {
	local out=$1 p
	shift
	"$PP" python -v -p "$WL_PID" "$@" >"$out" 2>"$out.err" &
	p=$!
	wait_monitoring "$out.err" $p
	echo go >"$T/go"
	wait $p
	echo $? >"$out.rc"
	reap "$WL"
}
# the lines of stderr that are not -v's notices
errs() { grep -Ev '^perf-prof( python)?: ' "$1"; }

# 1. a handler per event: exactly the workload's calls, with their arguments
cat >"$T/lseek.py" <<'EOF'
import sys
pid = int(sys.argv[1])
n = 0
bad = 0
def syscalls__sys_enter_lseek(e):
    global n, bad
    if e._pid != pid:
        return
    n += 1
    if (e.fd, e.offset, e.whence, e.common_pid, e._tid) != (12345, 67890, 2, pid, pid):
        bad += 1
    if e['fd'] != 12345 or e.get('whence') != 2 or 'offset' not in e or 'nope' in e:
        bad += 1
def __exit__():
    print("events", n, "bad", bad)
EOF
wl "$W/lseek_loop" 300
pyrun "$T/l" -e $EL "$T/lseek.py" "$WL_PID"
check_eq "handler: status 0" "$(cat "$T/l.rc")" 0
check_eq "handler: the workload's 300 calls, each with its arguments" "$(cat "$T/l")" \
	"events 300 bad 0"
check_eq "handler: nothing on stderr but -v's notices" "$(errs "$T/l.err")" ""
# a signed field the kernel prints in hex (sys_exit's long ret, 0x%lx) is a signed int:
# lseek on a descriptor that is not open returns -EBADF
if [ -d /sys/kernel/tracing/events/syscalls/sys_exit_lseek ]; then
	cat >"$T/ret.py" <<'EOF2'
import collections
rets = collections.Counter()
def syscalls__sys_exit_lseek(e):
    rets[e.ret] += 1
def __exit__():
    print(" ".join("%d:%d" % kv for kv in sorted(rets.items())))
EOF2
	wl "$W/lseek_loop" 50
	pyrun "$T/ret" -e syscalls:sys_exit_lseek "$T/ret.py"
	check_eq "a signed hex field: sys_exit_lseek's ret is -9 (EBADF), 50 times" "$(cat "$T/ret")" "-9:50"
fi

# 2. __sample__: events without a handler of their own, with _event
cat >"$T/dflt.py" <<'EOF'
import sys
pid = int(sys.argv[1])
seen = {}
own = 0
def syscalls__sys_enter_getppid(e):
    global own
    own += e._pid == pid
def __sample__(e):
    if e._pid == pid:
        seen[e._event] = seen.get(e._event, 0) + 1
def __exit__():
    print("own", own, sorted(seen.items()))
EOF
wl "$W/getppid_loop" 200
pyrun "$T/d" -e "$EG,syscalls:sys_exit_getppid" "$T/dflt.py" "$WL_PID"
check_eq "__sample__: the events without a handler, named" "$(cat "$T/d")" \
	"own 200 [('syscalls:sys_exit_getppid', 200)]"

# 3. -g: the stack through the workload's known functions
cat >"$T/stk.py" <<'EOF'
import sys
pid = int(sys.argv[1])
chains = []
def syscalls__sys_enter_getppid(e):
    if e._pid == pid:
        user = [f for f in e._callchain if not f["kernel"]]
        lib_b = [f["dso"].rsplit("/", 1)[-1] for f in user if f["symbol"] == "lib_b"]
        chains.append(" ".join(f["symbol"] for f in user[:4]) + " " + ",".join(lib_b))
def __exit__():
    for c in chains:
        print(c)
EOF
wl "$W/stk_fp" 3
pyrun "$T/s" -e $EG -g "$T/stk.py" "$WL_PID"
check_eq "-g: 3 stacks" "$(wc -l <"$T/s")" 3
check_eq "-g: user frames getppid lib_b stk_a main, lib_b's dso libstk.so" \
	"$(sort -u "$T/s")" "getppid lib_b stk_a main libstk.so"

# 4. events kept past their callback keep their own record: write_n's 4096
#    writes (count 1..4096) through rings of 4 pages, which wrap again and
#    again (losses do not matter): each kept event's fields read at the end
#    are what they were in its callback
cat >"$T/keep.py" <<'EOF'
import sys
pid = int(sys.argv[1])
kept = []
def __sample__(e):
    if e._pid == pid:
        kept.append((e, e.to_dict()))
def __exit__():
    same = all(e.to_dict() == d for e, d in kept)
    counts = len(set(d.get("count") for e, d in kept))
    print("kept", counts > 10, "unchanged", same)
EOF
rm -f "$T/wgo"
mkfifo "$T/wgo"
spawn WL "$W/write_n" "$T/wgo" 4096
"$PP" python -v -p "$WL" -m 4 -e syscalls:sys_enter_write,syscalls:sys_exit_write \
	"$T/keep.py" "$WL" >"$T/k" 2>"$T/k.err" &
kp=$!
wait_monitoring "$T/k.err" $kp
echo go >"$T/wgo"
wait $kp
reap "$WL"
check_eq "kept events: their own fields after the ring moved on" "$(cat "$T/k")" \
	"kept True unchanged True"

# 5. event.print() is trace's line for the same event (both watch one run:
#    the time, each event's own clock reading, is left out)
cat >"$T/print.py" <<'EOF'
import sys
pid = int(sys.argv[1])
def syscalls__sys_enter_lseek(e):
    if e._pid == pid:
        e.print()
EOF
wl "$W/lseek_loop" 5
"$PP" trace -v -p "$WL_PID" -e $EL >"$T/tr" 2>"$T/tr.err" &
tp=$!
wait_monitoring "$T/tr.err" $tp
pyrun "$T/p" -e $EL "$T/print.py" "$WL_PID"
wait $tp
check_eq "print(): 5 lines" "$(grep -c "$EL" "$T/p")" 5
check_eq "print(): trace's lines" "$(cut -d' ' -f3- "$T/p")" "$(cut -d' ' -f3- "$T/tr")"
check "print(): lines with the time first" grep -q "^[0-9-]* [0-9:.]* *lseek_loop" "$T/p"

# 6. __interval__: once per interval, the events of each adding up
cat >"$T/iv.py" <<'EOF'
import sys
pid = int(sys.argv[1])
n = 0
total = 0
iv = 0
def syscalls__sys_enter_getppid(e):
    global n
    n += e._pid == pid
def __interval__():
    global n, total, iv
    iv += 1
    total += n
    print("interval", iv, n)
    n = 0
def __exit__():
    print("end", iv, total + n)
EOF
wl "$W/getppid_loop" 300000
pyrun "$T/i" -i 10 -e $EG "$T/iv.py" "$WL_PID"
ivs=$(grep -c '^interval ' "$T/i")
check "__interval__: at least one interval" test "$ivs" -ge 1
check_eq "__interval__: numbered 1..k, once each" \
	"$(awk '/^interval/ { print $2 }' "$T/i" | paste -sd' ')" "$(seq -s' ' 1 "$ivs")"
check_eq "__interval__: __exit__ counts the same intervals and every event" \
	"$(tail -1 "$T/i")" "end $ivs 300000"

# 7. sys.argv; a shebang script (perf-prof found in PATH)
cat >"$T/argv.py" <<'EOF'
import sys
def __init__():
    print(sys.argv[1:])
    sys.exit(0)
def __exit__():
    print("exit ran")
EOF
"$PP" python -e $EG -- "$T/argv.py" a -b --c -- 'd e' >"$T/a" 2>"$T/a.err"
check_eq "sys.argv: status 0 (sys.exit(0) in __init__)" $? 0
check_eq "sys.argv: the script's arguments" "$(cat "$T/a")" \
	"['a', '-b', '--c', '--', 'd e']
exit ran"
{
	echo "#!/usr/bin/env -S perf-prof python -v -e $EL"
	cat <<'EOF'
import sys
pid, want = int(sys.argv[1]), int(sys.argv[2])
n = 0
def syscalls__sys_enter_lseek(e):
    global n
    if e._pid == pid:
        n += 1
        if n == want:
            sys.exit(0)
def __exit__():
    print(sys.argv[0].rsplit("/", 1)[-1], n)
EOF
} >"$T/sb.py"
chmod +x "$T/sb.py"
wl "$W/lseek_loop" 50
PATH="$(dirname "$PP"):$PATH" "$T/sb.py" "$WL_PID" 50 >"$T/sb" 2>"$T/sb.err" &
sp=$!
wait_monitoring "$T/sb.err" $sp
echo go >"$T/go"
wait $sp
check_eq "shebang: status 0" $? 0
check_eq "shebang: the script ran with its arguments" "$(cat "$T/sb")" "sb.py 50"
reap "$WL"

# 8. an exception: traceback, status 1, earlier lines and __exit__'s all there
cat >"$T/raise.py" <<'EOF'
import sys
pid = int(sys.argv[1])
n = 0
def syscalls__sys_enter_getppid(e):
    global n
    if e._pid != pid:
        return
    n += 1
    if n == 101:
        raise ValueError("boom at %d" % n)
    print("line", n)
def __exit__():
    print("exit ran", n)
EOF
wl "$W/getppid_loop" 200
pyrun "$T/r" -e $EG "$T/raise.py" "$WL_PID"
check_eq "raise: status 1" "$(cat "$T/r.rc")" 1
check_eq "raise: the 100 lines before it, then __exit__'s" \
	"$(grep -c '^line ' "$T/r"):$(tail -1 "$T/r")" "100:exit ran 101"
check "raise: the traceback" grep -q '^ValueError: boom at 101$' "$T/r.err"
check "raise: the traceback names the script's line" \
	grep -q "File \"$T/raise.py\", line 10, in syscalls__sys_enter_getppid" "$T/r.err"
check "raise: perf-prof says why it stopped" \
	grep -q '^perf-prof python: stopped: syscalls:sys_enter_getppid raised an exception' "$T/r.err"

# 9. a stop signal during a callback that does not return: KeyboardInterrupt
cat >"$T/spin.py" <<'EOF'
def __sample__(e):
    print("in callback", flush=True)
    while True:
        pass
def __exit__():
    print("exit ran")
EOF
wl "$W/getppid_loop" 1
"$PP" python -v -p "$WL_PID" -e $EG "$T/spin.py" >"$T/c" 2>"$T/c.err" &
cp=$!
wait_monitoring "$T/c.err" $cp
echo go >"$T/go"
wait_for "$T/c" "in callback" $cp
kill -INT $cp
wait $cp
check_eq "stop during a callback: status 0" $? 0
check_eq "stop during a callback: __exit__ ran after it" "$(cat "$T/c")" "in callback
exit ran"
check_eq "stop during a callback: no traceback" "$(errs "$T/c.err")" ""
reap "$WL"

# 10. __print_stat__ on SIGUSR2
cat >"$T/stat.py" <<'EOF'
def __print_stat__(indent):
    print("stat", indent, flush=True)
EOF
wl "$W/getppid_loop" 1
"$PP" python -v -p "$WL_PID" -e $EG "$T/stat.py" >"$T/u" 2>"$T/u.err" &
up=$!
wait_monitoring "$T/u.err" $up
kill -USR2 $up
check "__print_stat__: called on SIGUSR2" wait_for "$T/u" "^stat 0$" $up
echo go >"$T/go"
wait $up
reap "$WL"

# 11. scripts that cannot load
usage_bad "a missing script" "cannot open script '$T/none.py': No such file or directory" \
	python -e $EG "$T/none.py"
usage_bad "a missing module" "no script file or module named 'no_such_mod_pp'" \
	python -e $EG no_such_mod_pp
usage_bad "no script" "no script" python -e $EG
printf 'def f(:\n' >"$T/syn.py"
"$PP" python -e $EG "$T/syn.py" >/dev/null 2>"$T/syn.err"
check_eq "a syntax error: status 2" $? 2
check "a syntax error: its traceback" grep -q '^SyntaxError' "$T/syn.err"
check_eq "a syntax error: then one line" "$(tail -1 "$T/syn.err")" \
	"perf-prof python: cannot load '$T/syn.py': a syntax error (see above)"
printf 'import no_such_mod_pp\n' >"$T/imp.py"
"$PP" python -e $EG "$T/imp.py" >/dev/null 2>"$T/imp.err"
check_eq "a script whose import fails: status 1" $? 1
check "... with its traceback" grep -q "^ModuleNotFoundError: No module named 'no_such_mod_pp'" \
	"$T/imp.err"
# a module by name, from the current directory
printf 'def __init__():\n    print("module", __name__)\n    raise SystemExit\n' >"$T/ppmod.py"
(cd "$T" && "$PP" python -e $EG ppmod >"$T/m" 2>"$T/m.err")
check_eq "a module name: loaded from the current directory" "$(cat "$T/m")" "module ppmod"

# 12. help: a template with every callback and the events' handlers
"$PP" python -e "$EG,sched:sched_wakeup//alias=wk/" help >"$T/h" 2>"$T/h.err"
check_eq "help: status 0" $? 0
check_eq "help: the callbacks and handlers" \
	"$(sed -n 's/^def \([a-z_]*\)(.*/\1/p' "$T/h" | paste -sd' ')" \
	"__init__ __exit__ __interval__ __print_stat__ __lost__ __sample__ syscalls__sys_enter_getppid sched__wk"
check "help: the template is Python" python3 -c "import ast, sys; ast.parse(open(sys.argv[1]).read())" "$T/h"

# 13. joint analysis: top inside python's -e: its samples go to top(event),
#     its rows at each interval to top__row(event) with the row's members
#     (a shell runs getppid_loop 500, then sleeps through intervals: -p
#     follows its children; the shell's own getppid, for $PPID, is left out)
cat >"$T/joint.py" <<'EOF'
import sys
shell = int(sys.argv[1])
samples = 0
rows = 0
def top(e):
    global samples
    samples += e._pid != shell
def top__row(e):
    global rows
    if e.key != shell:
        rows += e["values"]["syscalls:sys_enter_getppid"]
def __exit__():
    print("samples", samples, "rows", rows)
EOF
wl sh -c "'$W/getppid_loop' 500 >/dev/null; sleep 0.5"
pyrun "$T/j" -i 100 -e 'top/-e syscalls:sys_enter_getppid -k common_pid/' "$T/joint.py" "$WL_PID"
check_eq "joint: top's samples to top(), its rows to top__row()" "$(cat "$T/j")" \
	"samples 500 rows 500"

# 14. a slow script loses events: counted, reported, and __lost__ is told
#     (3 x 5000 calls into a ring of one page, each callback sleeping 1 ms;
#     the kernel says how many it lost with the next event it can write:
#     the pauses between the loops give the ring room for it)
cat >"$T/lost.py" <<'EOF'
import time
n = 0
losses = []
def syscalls__sys_enter_getppid(e):
    global n
    n += 1
    time.sleep(0.001)
def __lost__(start, end):
    losses.append((start, end))
def __exit__():
    ordered = all(s <= e or e == 0 for s, e in losses)
    print("lost", len(losses) >= 1, "ordered", ordered, "fewer", n < 15000)
EOF
wl sh -c "for i in 1 2 3; do '$W/getppid_loop' 5000 >/dev/null; sleep 0.5; done"
pyrun "$T/o" -m 1 -e $EG "$T/lost.py"
check_eq "lost: __lost__ called, events fewer than the calls" "$(cat "$T/o")" \
	"lost True ordered True fewer True"
check "lost: perf-prof reports them" grep -q '^perf-prof: lost [0-9]* events' "$T/o.err"

# 15. sys.exit() while the script loads (argparse's -h): no run, its status
cat >"$T/ap.py" <<'EOF'
import argparse
p = argparse.ArgumentParser()
p.add_argument("-n", type=int)
a = p.parse_args()
def __init__():
    print("n", a.n)
    raise SystemExit
def __exit__():
    print("exit ran")
EOF
"$PP" python -e $EG "$T/ap.py" -h >"$T/ap" 2>"$T/ap.err"
check_eq "argparse -h: status 0" $? 0
check "argparse -h: its help on the output" grep -q '^usage: ap.py \[-h\] \[-n N\]$' "$T/ap"
check_eq "argparse -h: nothing else" "$(grep -c 'exit ran' "$T/ap"):$(cat "$T/ap.err")" "0:"
"$PP" python -e $EG "$T/ap.py" -n 5 >"$T/ap" 2>"$T/ap.err"
check_eq "argparse -n 5: __init__ sees it, sys.exit() there runs __exit__" "$(cat "$T/ap")" "n 5
exit ran"
printf 'raise SystemExit(3)\n' >"$T/se.py"
"$PP" python -e $EG "$T/se.py" >/dev/null 2>"$T/se.err"
check_eq "sys.exit(3) while loading: status 1" $? 1
check_eq "... said in one line" "$(cat "$T/se.err")" "perf-prof python: the script exited with status 3"
# a script that ends while loading (argparse -h) opens no event: -v says nothing of monitoring
"$PP" python -v -e $EG "$T/ap.py" -h >/dev/null 2>"$T/ap.err"
check_eq "argparse -h: status 0, no event opened" "$?:$(grep -c 'monitoring' "$T/ap.err")" "0:0"

# 16. a compiled extension module (.so), by path and by module name
cat >"$T/ext.c" <<'EOF'
#include <Python.h>
static struct PyModuleDef def = { PyModuleDef_HEAD_INIT, "ppext", NULL, -1, NULL };
PyMODINIT_FUNC PyInit_ppext(void)
{
	PyObject *m = PyModule_Create(&def), *r;

	if (!m)
		return NULL;
	r = PyRun_String("def __init__():\n    print('extension', __name__)\n    raise SystemExit\n",
			 Py_file_input, PyModule_GetDict(m), PyModule_GetDict(m));
	if (!r) {
		Py_DECREF(m);
		return NULL;
	}
	Py_DECREF(r);
	return m;
}
EOF
if cc -shared -fPIC $(pkg-config --cflags python3-embed) -o "$T/ppext.cpython-311-x86_64-linux-gnu.so" \
	"$T/ext.c" 2>/dev/null; then
	"$PP" python -e $EG "$T/ppext.cpython-311-x86_64-linux-gnu.so" >"$T/x" 2>&1
	check_eq "an extension module by path: loaded, __init__ ran" "$?:$(cat "$T/x")" "0:extension ppext"
	(cd "$T" && "$PP" python -e $EG ppext >"$T/x" 2>&1)
	check_eq "an extension module by name" "$?:$(cat "$T/x")" "0:extension ppext"
else
	skip "no C compiler or Python headers: extension modules"
fi

# 17. events kept while the handlers' slots move: getppid (idx 0) kept in
#     __sample__, then lseek (idx 17, after 16 events that do not happen)
#     has its first sample, which grows the slots; the kept events' fields
#     and _event, read at the end, are still theirs (ASan: no use after free)
cat >"$T/grow.py" <<'EOF'
kept = []
def __sample__(e):
    kept.append((e, e.to_dict()))
def syscalls__sys_enter_lseek(e):
    pass
def __exit__():
    same = all(e.to_dict() == d and e._event == "syscalls:sys_enter_getppid" for e, d in kept)
    print("kept", len(kept) >= 3, "unchanged", same)
EOF
fill=
for f in acct add_key adjtimex alarm bind bpf capget capset chroot clock_adjtime clock_settime \
	creat accept accept4 epoll_create eventfd; do
	fill=$fill,syscalls:sys_enter_$f
done
wl sh -c "'$W/getppid_loop' 3 >/dev/null; '$W/lseek_loop' 3 >/dev/null"
pyrun "$T/g" -e "$EG$fill,$EL" "$T/grow.py"
check_eq "kept events after the slots grew: status 0" "$(cat "$T/g.rc")" 0
check_eq "kept events after the slots grew: fields and _event unchanged" "$(cat "$T/g")" \
	"kept True unchanged True"

# 18. a handler that rebinds itself and __exit__: the functions perf-prof
#     resolved stay alive and are the ones called (no use of a freed function)
cat >"$T/rebind.py" <<'EOF'
import sys
pid = int(sys.argv[1])
n = 0
def __exit__():
    print("events", n)
def syscalls__sys_enter_getppid(e):
    global n, syscalls__sys_enter_getppid, __exit__
    n += e._pid == pid
    syscalls__sys_enter_getppid = None
    __exit__ = None
EOF
wl "$W/getppid_loop" 200
pyrun "$T/rb" -e $EG "$T/rebind.py" "$WL_PID"
check_eq "a handler that rebinds itself: status 0" "$(cat "$T/rb.rc")" 0
check_eq "a handler that rebinds itself: still called, and the old __exit__" "$(cat "$T/rb")" \
	"events 200"

# 19. a script named after a module Python has loaded already (time.py) runs
#     in a module of its own: the stdlib's time is left alone
mkdir "$T/own"
cat >"$T/own/time.py" <<'EOF'
import time as t
monotonic = "mine"
def __init__():
    print(__name__, type(t.monotonic()).__name__, monotonic, "sleep" in globals())
    raise SystemExit
EOF
"$PP" python -e $EG "$T/own/time.py" >"$T/tm" 2>"$T/tm.err"
check_eq "a script named time.py: status 0" $? 0
check_eq "a script named time.py: its own module, time's untouched" "$(cat "$T/tm")" \
	"time float mine False"

# 20. sys.exit() with a code beyond an int: status 1, __exit__ runs cleanly
cat >"$T/huge.py" <<'EOF'
def __sample__(e):
    raise SystemExit(10**30)
def __exit__():
    print("exit ran")
EOF
wl "$W/getppid_loop" 1
pyrun "$T/hg" -e $EG "$T/huge.py"
check_eq "sys.exit(10**30): status 1" "$(cat "$T/hg.rc")" 1
check_eq "sys.exit(10**30): __exit__ ran" "$(cat "$T/hg")" "exit ran"
check_eq "sys.exit(10**30): said in one line, nothing else" \
	"$(grep -v '^perf-prof: \|^perf-prof python: loaded ' "$T/hg.err")" \
	"perf-prof python: the script exited with status 1"

# 21. a module that puts another object in sys.modules in its place: the
#     callbacks are that object's
cat >"$T/ppself.py" <<'EOF'
import sys, types
def _init():
    print("replaced")
    raise SystemExit
sys.modules[__name__] = types.SimpleNamespace(__init__=_init)
EOF
(cd "$T" && "$PP" python -e $EG ppself >"$T/ps" 2>"$T/ps.err")
check_eq "a module replaced in sys.modules: status 0, its object's __init__" "$?:$(cat "$T/ps")" \
	"0:replaced"

# 22. SIGHUP (no output file) during a callback that does not return:
#     KeyboardInterrupt too (a minute at the most, then SIGKILL: a failure)
wl "$W/getppid_loop" 1
"$PP" python -v -p "$WL_PID" -e $EG "$T/spin.py" >"$T/hu" 2>"$T/hu.err" &
hp=$!
wait_monitoring "$T/hu.err" $hp
echo go >"$T/go"
wait_for "$T/hu" "in callback" $hp
kill -HUP $hp
for ((i = 0; i < 600; i++)); do kill -0 $hp 2>/dev/null || break; sleep 0.1; done
kill -KILL $hp 2>/dev/null
wait $hp
check_eq "SIGHUP during a callback: status 0" $? 0
check_eq "SIGHUP during a callback: __exit__ ran after it" "$(cat "$T/hu")" "in callback
exit ran"
reap "$WL"

# 23. a stop signal while __exit__ runs (one that never returns) interrupts
#     it: status 0 (a minute at the most, then SIGKILL: a failure)
cat >"$T/exitspin.py" <<'EOF'
def __exit__():
    print("in exit", flush=True)
    while True:
        pass
EOF
wl "$W/getppid_loop" 1
"$PP" python -v -p "$WL_PID" -e $EG "$T/exitspin.py" >"$T/xs" 2>"$T/xs.err" &
xp=$!
wait_monitoring "$T/xs.err" $xp
echo go >"$T/go"
wait_for "$T/xs" "in exit" $xp
kill -INT $xp
for ((i = 0; i < 600; i++)); do kill -0 $xp 2>/dev/null || break; sleep 0.1; done
kill -KILL $xp 2>/dev/null
wait $xp
check_eq "stop during __exit__: status 0" $? 0
check_eq "stop during __exit__: no traceback" "$(errs "$T/xs.err")" ""
reap "$WL"

done_tests
