#!/usr/bin/env bash
# Errors as promised (root): bad --symbols binaries, flamegraph inputs that
# are directories or whose weights overflow, a full -o device (its errno, not
# a later one), and no warning for memory that is no file (//anon, memfd,
# /dev/zero) in stacks, named alike on both back ends.
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { echo "no binary $PP"; exit 1; }
[ -x "$W/anon_exec" ] || { echo "no workload $W/anon_exec (make workloads)"; exit 1; }

# one_line DESC WANT_RC PHRASE CMD...: status, one line on stderr with PHRASE, nothing on stdout
one_line() {
	local d=$1 want=$2 phrase=$3
	shift 3
	"$@" >"$T/out" 2>"$T/err" </dev/null
	check_eq "$d: exit status" "$?" "$want"
	check_eq "$d: one line on stderr" "$(grep -c . "$T/err")" 1
	check "$d: says '$phrase' (stderr: $(head -c 200 "$T/err"))" grep -qF -- "$phrase" "$T/err"
	check_eq "$d: nothing on stdout" "$(wc -c <"$T/out")" 0
}

# --- --symbols BINARY that cannot be read
: >"$T/empty"
echo 'not an elf file' >"$T/text"
one_line "--symbols /nonexistent" 1 "perf-prof --symbols: /nonexistent: No such file or directory" \
	"$PP" --symbols /nonexistent
one_line "--symbols DIR" 1 "perf-prof --symbols: $T: Is a directory" "$PP" --symbols "$T"
one_line "--symbols /dev/zero" 1 "perf-prof --symbols: /dev/zero: not a regular file" \
	"$PP" --symbols /dev/zero
one_line "--symbols empty file" 1 "perf-prof --symbols: $T/empty: empty file" \
	"$PP" --symbols "$T/empty"
one_line "--symbols non-ELF" 1 "perf-prof --symbols: $T/text: not an ELF file" \
	"$PP" --symbols "$T/text"
check_eq "--symbols a real binary still answers" \
	"$(echo 0x1 | "$PP" --symbols "$W/getppid_loop" 2>/dev/null)" "??"

# --- flamegraph inputs
mkdir -p "$T/dir"
one_line "flamegraph DIR" 1 "perf-prof flamegraph: $T/dir: Is a directory" \
	"$PP" flamegraph "$T/dir" -o "$T/x.svg"
printf 'a;b 1\na;c 18446744073709551616\n' >"$T/big.folded"
one_line "flamegraph: a weight of 2^64" 1 "$T/big.folded:2: weight overflows 64 bits" \
	"$PP" flamegraph "$T/big.folded" -o "$T/x.svg"
printf 'a;b 18446744073709551615\n\nmain;x 1\n' >"$T/sum.folded"
one_line "flamegraph: weights whose sum overflows" 1 "$T/sum.folded:3: weight overflows 64 bits" \
	"$PP" flamegraph "$T/sum.folded" -o "$T/x.svg"
printf 'a;b 18446744073709551614\nmain;x 1\n' >"$T/max.folded"
"$PP" flamegraph "$T/max.folded" -o "$T/max.svg" 2>"$T/err"
check_eq "flamegraph: 2^64-1 in all fits" "$?" 0

# --- -o /dev/full: the write's own errno, whatever ran after it (/proc reads of
# exiting tasks gave ENOENT or EAGAIN)
ok=0
for i in 1 2 3 4 5 6 7 8; do
	"$PP" trace -e 'sched:sched_wakeup_new,sched:sched_switch/prev_state==16/' -o /dev/full \
		-- sh -c 'for i in $(seq 200); do /bin/true & done; wait' 2>"$T/err" >/dev/null
	rc=$?
	[ "$rc" -eq 1 ] && grep -qE "^perf-prof trace: writing .* failed: No space left on device$" "$T/err" &&
		ok=$((ok + 1))
done
check_eq "-o /dev/full with exiting tasks: 8 of 8 runs say No space left on device" "$ok" 8

# --- memory that is no file: stacks through JIT-like code, no warning; on both back
# ends (BPF: the stacks copied out of the kernel, the maps read from /proc)
for be in "" --no-bpf; do
	n=anon_exec${be:+ $be}
	# (-S: the sleeps only; a busy host may preempt it over 5 ms too)
	"$PP" task-state $be -S -g --than 5ms -- "$W/anon_exec" 3 >"$T/out" 2>"$T/err"
	check_eq "$n: exit status" "$?" 0
	check_eq "$n: no 'no symbols' warning" "$(grep -c 'no symbols' "$T/err")" 0
	# anonymous memory is "//anon" in MMAP2 records, and so when read from /proc/PID/maps
	# (nameless there)
	for m in '(//anon)' '(/memfd:anon_exec (deleted))' '(/dev/zero (deleted))'; do
		check_eq "$n: 3 frames in $m" "$(grep -cF " [unknown] $m" "$T/out")" 3
	done
	check "$n: the caller below it still resolves" grep -q '__libc_start_call_main' "$T/out"
done

done_tests
