#!/usr/bin/env bash
# What perf-prof promises about the files it writes (README: Output safety):
# a run that fails leaves an old -o file as it was (and creates none); an
# output that could not be written completely is status 1 with the real
# reason (ENOSPC, not EIO) and the right file named; a symlink another user
# planted in a sticky world-writable directory is never followed; temporary
# names cannot be guessed and no temporary outlives an error or a signal.
source "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { skip "no binary $PP"; done_tests; exit; }
[ "$(id -u)" = 0 ] || { skip "needs root (events, mount, chown)"; done_tests; exit; }

# the full filesystem is unmounted whatever happens
trap 'umount "$T/full" 2>/dev/null; _cleanup' EXIT

cat >"$T/s.folded" <<'EOF'
prog;main;work 30
prog;main;idle 9
kworker;worker_thread_[k] 40
EOF
printf '1000 2000\n2000 4000\n3000 8000\n' >"$T/s.lat"
# nothing but the given files in $1 (no temporary left)
only() { local d=$1; shift; [ "$(ls -A "$d" | sort | xargs)" = "$*" ]; }
lines() { wc -l <"$1"; }

# --- a failed run does not touch -o ---
echo OLD >"$T/k.out"
$PP trace -e sched:sched_switch -o "$T/k.out" -- /nonexistent_cmd >/dev/null 2>"$T/err"
check_eq "no such command: exit 1" $? 1
check_eq "no such command: -o file kept" "$(cat "$T/k.out")" OLD
check_eq "no such command: one line" "$(lines "$T/err")" 1
echo OLD >"$T/k2.out"
$PP syscalls -o "$T/k2.out" -- /etc/passwd >/dev/null 2>"$T/err"
check_eq "command not executable: exit 1" $? 1
check_eq "command not executable: -o file kept" "$(cat "$T/k2.out")" OLD
check "command not executable: says so" grep -q "cannot run '/etc/passwd': Permission denied" "$T/err"
$PP trace -e sched:sched_switch -o "$T/none.out" -- /nonexistent_cmd >/dev/null 2>&1
check "no such command: no -o file created" test ! -e "$T/none.out"
$PP trace -e sched:sched_switch -g --flame-graph "$T/none" -o "$T/none.out" -- /nonexistent_cmd \
	>/dev/null 2>&1
check "no such command: no folded file created" test ! -e "$T/none.folded"
# a run that starts writes -o (even if nothing comes), and replaces the old file
echo OLD >"$T/k3.out"
$PP trace -e sched:sched_switch -o "$T/k3.out" -- true 2>"$T/err"
check_eq "a run that starts: exit 0" $? 0
check "a run that starts: the old -o replaced" bash -c "! grep -q OLD '$T/k3.out'"
check_eq "a run that starts: quiet" "$(cat "$T/err")" ""

# --- a failed output is an error, with its reason ---
mkdir "$T/full"
if mount -t tmpfs -o size=32k tmpfs "$T/full"; then
	dd if=/dev/zero of="$T/full/fill" bs=4k 2>/dev/null
	$PP trace -e sched:sched_switch -g --flame-graph "$T/full/fg.svg" -- sleep 0.05 \
		>/dev/null 2>"$T/err"
	check_eq "full disk: flame graph not written, exit 1" $? 1
	check "full disk: No space left on device" \
		grep -q "^perf-prof trace: writing the flame graph '$T/full/fg.svg': No space left on device$" "$T/err"
	check_eq "full disk: one line" "$(lines "$T/err")" 1
	check "full disk: no temporary left" only "$T/full" fill
	$PP trace -e sched:sched_switch -g --flame-graph "$T/full/fg" -- sleep 0.05 >/dev/null 2>"$T/err"
	check_eq "full disk: folded file not written, exit 1" $? 1
	check "full disk: folded: No space left on device" grep -q "No space left on device" "$T/err"
	check "full disk: folded: no temporary left" only "$T/full" fill
	$PP flamegraph "$T/s.folded" -o "$T/full/x.svg" 2>"$T/err"
	check_eq "flamegraph to a full disk: exit 1" $? 1
	check "flamegraph to a full disk: No space left on device" \
		grep -q "No space left on device" "$T/err"
	check "flamegraph to a full disk: no temporary left" only "$T/full" fill
	$PP heatmap "$T/s.lat" -o "$T/full/h.svg" 2>"$T/err"
	check_eq "heatmap to a full disk: exit 1" $? 1
	check "heatmap to a full disk: No space left on device" grep -q "No space left on device" "$T/err"
	umount "$T/full"
else
	skip "cannot mount a tmpfs"
fi
$PP flamegraph "$T/s.folded" -o /dev/full 2>"$T/err"
check_eq "flamegraph -o /dev/full: exit 1" $? 1
check_eq "flamegraph -o /dev/full: the reason" "$(cat "$T/err")" \
	"perf-prof flamegraph: $T/s.folded -> /dev/full: No space left on device"
$PP heatmap "$T/s.lat" -o /dev/full 2>"$T/err"
check_eq "heatmap -o /dev/full: exit 1" $? 1
check "heatmap -o /dev/full: the reason" grep -q "/dev/full: No space left on device" "$T/err"
$PP flamegraph "$T/s.folded" -o "$T" 2>"$T/err"
check_eq "flamegraph -o DIR: exit 1" $? 1
check_eq "flamegraph -o DIR: names the output" "$(cat "$T/err")" \
	"perf-prof flamegraph: cannot write '$T': Is a directory"
$PP heatmap "$T/s.lat" -o "$T" 2>"$T/err"
check_eq "heatmap -o DIR: names the output" "$(cat "$T/err")" \
	"perf-prof heatmap: cannot write '$T': Is a directory"

# --- planted symlinks ---
# $T/d: sticky and world-writable, like /tmp; links owned by nobody point at
# a root-owned mode-600 victim
mkdir "$T/d" && chmod 1777 "$T/d"
echo SECRET >"$T/victim" && chmod 600 "$T/victim"
plant() { ln -s "$T/victim" "$T/d/$1" && chown -h nobody "$T/d/$1"; }
victim() { head -c 16 "$T/victim" | tr -d '\0'; }
# refused DESC FILE CMD...: non-zero, victim unchanged, one line naming FILE and why
refused() {
	local desc=$1 file=$2 rc
	shift 2
	"$@" >/dev/null 2>"$T/err"
	rc=$?
	check "$desc: refused (exit $rc)" test "$rc" -ne 0
	check_eq "$desc: victim unchanged" "$(victim)" SECRET
	check_eq "$desc: one line" "$(lines "$T/err")" 1
	check "$desc: names $file and why" \
		grep -q "'$T/d/$file'.*not following a symlink another user owns" "$T/err"
	echo SECRET >"$T/victim" # for the next case, whatever this one did
}
plant k.out
refused "-o LINK" k.out $PP trace -e sched:sched_switch -o "$T/d/k.out" -- true
plant fg.svg
refused "--flame-graph LINK.svg" fg.svg \
	$PP trace -e sched:sched_switch -g --flame-graph "$T/d/fg.svg" -- sleep 0.01
plant fg.folded
refused "--flame-graph NAME (NAME.folded a link)" fg.folded \
	$PP trace -e sched:sched_switch -g --flame-graph "$T/d/fg" -- sleep 0.01
plant pp.pb.gz
refused "--pprof NAME (NAME.pb.gz a link)" pp.pb.gz \
	$PP trace -e sched:sched_switch -g --pprof "$T/d/pp" -- sleep 0.01
plant x.svg
refused "flamegraph -o LINK" x.svg $PP flamegraph "$T/s.folded" -o "$T/d/x.svg"
plant h.svg
refused "heatmap -o LINK" h.svg $PP heatmap "$T/s.lat" -o "$T/d/h.svg"
EN=syscalls:sys_enter_clock_nanosleep EX=syscalls:sys_exit_clock_nanosleep
if [ -d /sys/kernel/tracing/events/syscalls/sys_enter_clock_nanosleep ]; then
	plant hm-sys_enter_clock_nanosleep-sys_exit_clock_nanosleep.lat
	refused "multi-trace --heatmap (its .lat a link)" \
		hm-sys_enter_clock_nanosleep-sys_exit_clock_nanosleep.lat \
		$PP multi-trace -e $EN -e $EX --heatmap "$T/d/hm" -- sleep 0.01
else
	skip "no syscalls tracepoints: multi-trace --heatmap"
fi
# SIGHUP (log rotation): a link planted where the file was is not reopened
rm -f "$T/h.err" # not an earlier run's "monitoring"
spawn pp "$PP" trace -v -e sched:sched_switch -o "$T/d/log" 2>"$T/h.err"
wait_lines "$T/h.err" '^perf-prof: monitoring: [0-9]+ events enabled'
mv "$T/d/log" "$T/d/log.1"
plant log
kill -HUP "$pp"
check "SIGHUP: the planted link refused, said" wait_lines "$T/h.err" \
	"^perf-prof trace: SIGHUP: cannot reopen '$T/d/log': not following a symlink another user owns"
kill -TERM "$pp"
wait "$pp"
check_eq "SIGHUP: the run goes on, exits 0" $? 0
check_eq "SIGHUP: victim unchanged" "$(victim)" SECRET
check "SIGHUP: the old file got the events" grep -q 'sched:sched_switch:' "$T/d/log.1"
echo SECRET >"$T/victim"
# a link of our own in the same directory is followed, written in place
echo old >"$T/mine.svg"
ln -s "$T/mine.svg" "$T/d/mine.svg"
$PP flamegraph "$T/s.folded" -o "$T/d/mine.svg"
check_eq "own link: exit 0" $? 0
check "own link: the target gets the SVG" grep -q '</svg>' "$T/mine.svg"
check "own link: still a link" test -L "$T/d/mine.svg"
ln -s "$T/mine.out" "$T/d/mine.out"
$PP trace -e sched:sched_switch -o "$T/d/mine.out" -- true
check_eq "own link as -o: exit 0" $? 0
check "own link as -o: written through" test -f "$T/mine.out"
# the directory owner's link too (the kernel's rule)
mkdir "$T/nd" && chmod 1777 "$T/nd" && chown nobody "$T/nd"
ln -s "$T/owners.svg" "$T/nd/o.svg" && chown -h nobody "$T/nd/o.svg"
$PP flamegraph "$T/s.folded" -o "$T/nd/o.svg"
check_eq "the directory owner's link: followed" $? 0
check "the directory owner's link: target written" grep -q '</svg>' "$T/owners.svg"
# another user's file, or a file with other hard links, in a sticky directory:
# not written into (fs.protected_regular's rule, whatever the sysctl)
# kept DESC NAME FILE CONTENT WHY CMD...: exit 1, FILE still CONTENT, one line naming NAME and why
kept() {
	local desc=$1 name=$2 file=$3 content=$4 why=$5
	shift 5
	"$@" >/dev/null 2>"$T/err"
	check_eq "$desc: exit 1" $? 1
	check_eq "$desc: the file unchanged" "$(cat "$file")" "$content"
	check_eq "$desc: one line" "$(lines "$T/err")" 1
	check "$desc: names $name and why" grep -q "'$name': $why\$" "$T/err"
}
foreign="not writing into a file another user owns in a sticky world-writable directory"
echo NOBODY >"$T/d/theirs.svg" && chown nobody "$T/d/theirs.svg"
kept "flamegraph -o (another user's file)" "$T/d/theirs.svg" "$T/d/theirs.svg" NOBODY "$foreign" \
	$PP flamegraph "$T/s.folded" -o "$T/d/theirs.svg"
check_eq "another user's file: still theirs" "$(stat -c %U "$T/d/theirs.svg")" nobody
echo NOBODY >"$T/d/theirs.out" && chown nobody "$T/d/theirs.out"
kept "-o (another user's file)" "$T/d/theirs.out" "$T/d/theirs.out" NOBODY "$foreign" \
	$PP trace -e sched:sched_switch -o "$T/d/theirs.out" -- true
# a hard link (made by root here; by anyone with fs.protected_hardlinks=0) to a root-owned file
hard="not writing into a file with other hard links in a sticky world-writable directory"
ln "$T/victim" "$T/d/hl.svg"
kept "flamegraph -o (a hard link)" "$T/d/hl.svg" "$T/victim" SECRET "$hard" \
	$PP flamegraph "$T/s.folded" -o "$T/d/hl.svg"
ln "$T/victim" "$T/d/hl.out"
kept "-o (a hard link)" "$T/d/hl.out" "$T/victim" SECRET "$hard" \
	$PP trace -e sched:sched_switch -o "$T/d/hl.out" -- true
rm -f "$T/d/hl.svg" "$T/d/hl.out"
# our own file there is replaced as always
echo OLD >"$T/d/own.svg"
$PP flamegraph "$T/s.folded" -o "$T/d/own.svg" 2>"$T/err"
check_eq "own file in a sticky dir: exit 0" $? 0
check "own file in a sticky dir: replaced" grep -q '</svg>' "$T/d/own.svg"
check_eq "own file in a sticky dir: quiet" "$(cat "$T/err")" ""
# a real symlink loop (not sticky, no one else's link) is a loop, not a planted link
mkdir "$T/nl" && ln -s loop "$T/nl/loop"
$PP flamegraph "$T/s.folded" -o "$T/nl/loop" 2>"$T/err"
check_eq "flamegraph -o LOOP: exit 1" $? 1
check_eq "flamegraph -o LOOP: says it loops" "$(cat "$T/err")" \
	"perf-prof flamegraph: cannot write '$T/nl/loop': Too many levels of symbolic links"
$PP trace -e sched:sched_switch -o "$T/nl/loop" -- true 2>"$T/err"
check_eq "-o LOOP: exit 1" $? 1
check_eq "-o LOOP: says it loops" "$(cat "$T/err")" \
	"perf-prof trace: cannot write '$T/nl/loop': Too many levels of symbolic links"
# devices and FIFOs keep working
$PP trace -e sched:sched_switch -o /dev/null -- true
check_eq "-o /dev/null: exit 0" $? 0
check "-o /dev/null: still the null device" test -c /dev/null
$PP trace -e sched:sched_switch -N 1 -o /dev/stdout -- sleep 0.05 >"$T/stdout.out"
check_eq "-o /dev/stdout: exit 0" $? 0
check_eq "-o /dev/stdout: the event on stdout" "$(grep -c 'sched:sched_switch:' "$T/stdout.out")" 1
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/fifo.out" &
reader=$!
$PP flamegraph "$T/s.folded" -o "$T/fifo"
check_eq "-o FIFO: exit 0" $? 0
wait $reader
check "-o FIFO: the SVG through it" grep -q '</svg>' "$T/fifo.out"

# --- FIFOs: opened without hanging, written blocking, another user's refused ---
# wchan_of PID REGEX: until the process sleeps in a kernel function matching REGEX
# (at most 10 s), or is gone
wchan_of() {
	local i
	for i in $(seq 200); do
		[ -e "/proc/$1" ] || return 1
		grep -qE "$2" "/proc/$1/wchan" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}
# a reader: trace -o FIFO writes the events through it
cat "$T/fifo" >"$T/fifo.out" &
reader=$!
$PP trace -e sched:sched_switch -N 1 -o "$T/fifo" -- sleep 0.05 2>"$T/err"
check_eq "trace -o FIFO with a reader: exit 0" $? 0
wait $reader
check_eq "trace -o FIFO with a reader: the event through it" \
	"$(grep -c 'sched:sched_switch:' "$T/fifo.out")" 1
# a reader that waits until the pipe is full (146 KB of SVG): the writes block, none fails
for i in $(seq 300); do echo "prog;main;f$i;g$i;h$i 10"; done >"$T/big.folded"
rm -f "$T/go"
{ until [ -e "$T/go" ]; do sleep 0.05; done; cat; } <"$T/fifo" >"$T/fifo.out" &
reader=$!
$PP flamegraph "$T/big.folded" -o "$T/fifo" 2>"$T/err" &
fg=$!
wchan_of $fg pipe_write
touch "$T/go"
wait $fg
check_eq "-o FIFO, a slow reader: exit 0" $? 0
wait $reader
check "-o FIFO, a slow reader: the whole SVG through it" grep -q '</svg>' "$T/fifo.out"
check_eq "-o FIFO, a slow reader: quiet" "$(cat "$T/err")" ""
# no reader: perf-prof waits for one (it used to hang in open(2), SIGINT and
# SIGTERM held, only SIGKILL ended it); a stop gives up: status 1, said
# nostop DESC FIFO CMD...: CMD (under timeout -s KILL 20) is stopped by SIGINT once it waits
nostop() {
	local desc=$1 fifo=$2 tpid pid rc
	shift 2
	timeout -s KILL 20 "$@" >/dev/null 2>"$T/err" &
	tpid=$!
	for i in $(seq 100); do pid=$(pgrep -P $tpid) && break; sleep 0.05; done
	wchan_of "$pid" 'nanosleep|fifo|wait_for_partner'
	kill -INT "$pid"
	wait $tpid
	rc=$?
	check_eq "$desc, no reader, SIGINT: ends by itself, exit 1" $rc 1
	check "$desc, no reader, SIGINT: says why" \
		grep -q "'$fifo': no reader of the FIFO came before the stop$" "$T/err"
	check_eq "$desc, no reader, SIGINT: one line" "$(lines "$T/err")" 1
}
nostop "trace -o FIFO" "$T/fifo" $PP trace -e sched:sched_switch -o "$T/fifo"
nostop "trace -o FIFO -- CMD" "$T/fifo" $PP trace -e sched:sched_switch -o "$T/fifo" -- sleep 30
# -o failing at the start (the FIFO given up) kills the command that already
# ran, and its children (they were left running, orphaned)
rm -f "$T/wl.pid"
timeout -s KILL 20 $PP trace -e sched:sched_switch -o "$T/fifo" -- \
	sh -c 'sleep 300 & echo $! >"$0"; wait' "$T/wl.pid" >/dev/null 2>"$T/err" &
tpid=$!
for i in $(seq 200); do [ -s "$T/wl.pid" ] && break; sleep 0.05; done
pid=$(pgrep -P $tpid)
wchan_of "$pid" nanosleep
kill -INT "$pid"
wait $tpid
check_eq "-o given up with a command running: exit 1" $? 1
gchild=$(cat "$T/wl.pid")
# gone, or a zombie not reaped yet
gone() { [ ! -e "/proc/$1" ] || grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat"; }
for i in $(seq 40); do gone "$gchild" && break; sleep 0.05; done
check "-o given up with a command running: the command's child killed too" gone "$gchild"
kill -KILL "$gchild" 2>/dev/null
# the flame graph at the end of a run (written in place: a FIFO)
mkfifo "$T/fg.svg"
nostop "--flame-graph FIFO" "$T/fg.svg" \
	$PP trace -e sched:sched_switch -g --flame-graph "$T/fg.svg" -- true
check_eq "FIFO, no reader: no process left" "$(pgrep -f "$T/(fifo|fg.svg)" | wc -l)" 0
# another user's FIFO in a sticky world-writable directory: refused, reader or not
mkfifo "$T/d/ff" && chown nobody "$T/d/ff"
fifo_msg="cannot write '$T/d/ff': not opening a FIFO another user owns in a sticky world-writable directory"
timeout -s KILL 20 $PP trace -e sched:sched_switch -o "$T/d/ff" -- true 2>"$T/err"
check_eq "another user's FIFO: exit 1" $? 1
check_eq "another user's FIFO: says why" "$(cat "$T/err")" "perf-prof trace: $fifo_msg"
timeout 20 cat "$T/d/ff" >"$T/ff.out" &
reader=$!
timeout -s KILL 20 $PP flamegraph "$T/s.folded" -o "$T/d/ff" 2>"$T/err"
check_eq "another user's FIFO with a reader: exit 1" $? 1
check_eq "another user's FIFO with a reader: says why" "$(cat "$T/err")" "perf-prof flamegraph: $fifo_msg"
# lets the reader go if it still waits (O_RDWR does not wait for a reader)
exec 9<>"$T/d/ff"
exec 9>&-
wait $reader
check_eq "another user's FIFO with a reader: nothing written to it" "$(wc -c <"$T/ff.out")" 0

# --- temporary names cannot be guessed: 100 names planted as the old scheme made them ---
mkdir "$T/p"
# the command runs as the shell's pid: NAME.tmpPID.0..99 all taken
bash -c 'for i in $(seq 0 99); do ln -s /nonexistent "$1.tmp$$.$i"; done; exec "$0" flamegraph "$2" -o "$1"' \
	"$PP" "$T/p/g.svg" "$T/s.folded" 2>"$T/err"
check_eq "100 planted temporary names: flamegraph exit 0" $? 0
check "100 planted temporary names: the SVG written" grep -q '</svg>' "$T/p/g.svg"
check_eq "100 planted temporary names: quiet" "$(cat "$T/err")" ""
bash -c 'for i in $(seq 0 99); do ln -s /nonexistent "$1.tmp$$.$i"; done
	exec "$0" trace -e sched:sched_switch -g --flame-graph "$1" -- sleep 0.01' \
	"$PP" "$T/p/t.svg" >/dev/null 2>"$T/err"
check_eq "100 planted temporary names: trace --flame-graph exit 0" $? 0
check "100 planted temporary names: its SVG written" grep -q '</svg>' "$T/p/t.svg"
check_eq "100 planted temporary names: trace quiet" "$(cat "$T/err")" ""
check_eq "no temporary of ours left beside them" "$(ls -A "$T/p" | grep -c '^\.')" 0

# --- no temporary outlives a fatal signal ---
mkdir "$T/sig"
# a file size limit: SIGXFSZ in the middle of the SVG
(ulimit -f 1; exec "$PP" flamegraph "$T/s.folded" -o "$T/sig/big.svg") 2>/dev/null
check_eq "SIGXFSZ while writing: dies of it" $? $((128 + 25))
check "SIGXFSZ while writing: no temporary, no SVG" only "$T/sig"
# a profiler run is not killed by SIGXFSZ (its probes and temporaries would
# stay): the write fails with EFBIG, the run reports it, status 1
(ulimit -f 1; exec "$PP" trace -e sched:sched_switch -o "$T/sig/big.out" -- \
	sh -c 'i=0; while [ $i -lt 200 ]; do sleep 0.001; i=$((i + 1)); done') 2>"$T/err"
check_eq "trace -o past ulimit -f: exit 1" $? 1
check_eq "trace -o past ulimit -f: File too large" "$(cat "$T/err")" \
	"perf-prof trace: writing the output failed: File too large"
check_eq "trace -o past ulimit -f: no process left" "$(pgrep -f "$T/sig/big.out" | wc -l)" 0
rm -f "$T/sig/big.out"
(ulimit -f 1; exec "$PP" trace -e sched:sched_switch -g --flame-graph "$T/sig/fg.svg" -- \
	sleep 0.05) >/dev/null 2>"$T/err"
check_eq "--flame-graph past ulimit -f: exit 1" $? 1
check "--flame-graph past ulimit -f: File too large" \
	grep -q "'$T/sig/fg.svg': File too large$" "$T/err"
check "--flame-graph past ulimit -f: no temporary, no SVG" only "$T/sig"
# SIGINT and SIGTERM while the first write is held (strace delays it)
if command -v strace >/dev/null; then
	for sig in INT TERM; do
		env --default-signal=INT strace -qq -o /dev/null -e trace=write \
			-e inject=write:delay_enter=5000000:when=1 \
			"$PP" flamegraph "$T/s.folded" -o "$T/sig/$sig.svg" &
		st=$!
		for i in $(seq 200); do [ -n "$(ls -A "$T/sig")" ] && break; sleep 0.05; done
		check "SIG$sig: the temporary exists while writing" test -n "$(ls -A "$T/sig")"
		kill -$sig "$(pgrep -P $st)"
		wait $st
		check_eq "SIG$sig while writing: dies of it" $? $((128 + $(kill -l $sig)))
		check "SIG$sig while writing: no temporary, no SVG" only "$T/sig"
	done
else
	skip "no strace: SIGINT/SIGTERM during a write"
fi

done_tests
