#!/bin/bash
# oncpu's in-kernel filters (the BPF back end: each slice's thread tested
# where the slice is summed), against workloads whose truth is known:
# spinners at nice 0 and 5 (--prio, on both back ends), a SCHED_FIFO and a
# SCHED_OTHER thread (--sched_policy; --prio 1-99 on both back ends), two
# processes (--exclude_pid), three spinners pinned to one CPU
# (--nr_running_*: the CPU's queue holds all three as each is preempted;
# --tif_need_resched=1: their slices end preempted) beside a napper (its
# slices end asleep: --tif_need_resched=0).  Then the refusals: status 2
# and one line.  No timing bounds: amounts are compared with each other.
. "$(dirname "$0")/lib.sh"

for w in pinned prio_pair; do
	[ -x "$W/$w" ] || { skip "workload $w not built (make workloads)"; done_tests; exit; }
done
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ "$(nproc)" -ge 2 ] || { skip "needs 2 CPUs"; done_tests; exit; }

# ms NAME FILE: the whole-run ms of the per-thread rows named NAME (summed; 0 if none)
ms() { awk -v n="$1" '/oncpu: the whole run,/ { f = 1; next }
	f && index($1, n ":") == 1 { s += $2 } END { printf "%.2f\n", s + 0 }' "$2"; }
# gt A B: A > B (numbers)
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }

# ---- bad input: status 2, one line ----
usage_bad "--irqs_disabled" "oncpu --irqs-disabled: a slice ends in sched_switch, where interrupts are always disabled" \
	oncpu --irqs_disabled -- true
usage_bad "--irqs-disabled=0" "oncpu --irqs-disabled: a slice ends in sched_switch" \
	oncpu --irqs-disabled=0 -- true
usage_bad "--no-bpf --exclude_pid" "--exclude-pid filters oncpu's slices in the kernel: not with --no-bpf" \
	oncpu --no-bpf --exclude_pid 1 -- true
usage_bad "--no-bpf --sched-policy" "--sched-policy filters oncpu's slices in the kernel: not with --no-bpf" \
	oncpu --no-bpf --sched-policy 1 -- true
usage_bad "-N with --nr_running_min (samples counted in user space)" \
	"--nr-running-min filters oncpu's slices in the kernel" oncpu -N 10 --nr_running_min 1 -- true
usage_bad "--sched_policy 4" "bad --sched-policy '4'" oncpu --sched_policy 4 -- true
usage_bad "--tif_need_resched=2" "bad --tif-need-resched '2'" oncpu --tif_need_resched=2 -- true
usage_bad "--nr_running_min 3 > max 2" "--nr-running-min 3 > --nr-running-max 2" \
	oncpu --nr_running_min 3 --nr_running_max 2 -- true

need_bpf oncpu --bpf --exclude_pid 1 -- true

# ---- --prio: nice 0 (prio 120) on CPU 0, nice 5 (prio 125) on CPU 1; both back ends ----
NICE="nice -n 5 $W/pinned 2 spin@1 & $W/pinned 2 spin@0; wait"
for be in --bpf --no-bpf; do
	"$PP" oncpu $be --prio 125 -- sh -c "$NICE" >"$T/p1" 2>"$T/p1.err"
	check_eq "--prio 125 $be: exit 0, stderr empty" "$?:$(cat "$T/p1.err")" "0:"
	check "--prio 125 $be: the nice-5 spinner's time ($(ms spin1 "$T/p1") ms)" gt "$(ms spin1 "$T/p1")" 0
	check_eq "--prio 125 $be: none of the nice-0 one" "$(ms spin0 "$T/p1")" 0.00
	"$PP" oncpu $be --prio 120 -- sh -c "$NICE" >"$T/p2" 2>&1
	check "--prio 120 $be: the nice-0 spinner's time ($(ms spin0 "$T/p2") ms)" gt "$(ms spin0 "$T/p2")" 0
	check_eq "--prio 120 $be: none of the nice-5 one" "$(ms spin1 "$T/p2")" 0.00
done
"$PP" oncpu --prio 120 -v -- true >/dev/null 2>"$T/p3.err"
check "--prio where BPF is: in the kernel (said under -v)" \
	grep -qF "the BPF back end (tp_btf sched_switch: slices summed in the kernel, filtered there)" "$T/p3.err"

# ---- prio_pair: rt_burst (SCHED_FIFO 50, prio 49) and nrm_burst (SCHED_OTHER, prio 120) ----
"$PP" oncpu -- "$W/prio_pair" 1 >"$T/pp" 2>&1
if grep -q '^nort:' "$T/pp"; then
	skip "SCHED_FIFO refused here: $(grep '^nort:' "$T/pp")"
else
	check "no filter: both threads' time" \
		eval 'gt "$(ms rt_burst "$T/pp")" 0 && gt "$(ms nrm_burst "$T/pp")" 0'
	for be in --bpf --no-bpf; do
		"$PP" oncpu $be --prio 1-99 -- "$W/prio_pair" 1 >"$T/pr" 2>&1
		check_eq "--prio 1-99 $be: no time of nrm_burst" "$(ms nrm_burst "$T/pr")" 0.00
		check "--prio 1-99 $be: rt_burst's ($(ms rt_burst "$T/pr") ms)" gt "$(ms rt_burst "$T/pr")" 0
	done
	"$PP" oncpu --sched_policy 1 -- "$W/prio_pair" 1 >"$T/s1" 2>"$T/s1.err"
	check_eq "--sched_policy 1: exit 0, stderr empty" "$?:$(cat "$T/s1.err")" "0:"
	check_eq "--sched_policy 1 (FIFO): no time of nrm_burst" "$(ms nrm_burst "$T/s1")" 0.00
	check "--sched_policy 1: rt_burst's ($(ms rt_burst "$T/s1") ms)" gt "$(ms rt_burst "$T/s1")" 0
	"$PP" oncpu --sched-policy 0 -- "$W/prio_pair" 1 >"$T/s0" 2>&1
	check "--sched-policy 0 (NORMAL; the dash spelling): nrm_burst's ($(ms nrm_burst "$T/s0") ms)" \
		gt "$(ms nrm_burst "$T/s0")" 0
	check_eq "--sched-policy 0: none of rt_burst" "$(ms rt_burst "$T/s0")" 0.00
fi

# ---- --exclude_pid: two processes, one left out (per thread with -p; by CPU with -C) ----
rm -f "$T/A.wl"
spawn A "$W/pinned" 8 spin@0 >"$T/A.wl"
spawn B "$W/pinned" 8 spin@1 >"$T/B.wl"
for i in $(seq 50); do grep -q '^thread spin0 ' "$T/A.wl" && break; sleep 0.1; done
atid=$(sed -n 's/^thread spin0 tid=\([0-9]*\) .*/\1/p' "$T/A.wl")
timeout --preserve-status -s INT 1.5 "$PP" oncpu -p "$A,$B" >"$T/x0" 2>&1
timeout --preserve-status -s INT 1.5 "$PP" oncpu -p "$A,$B" --exclude_pid "$A" >"$T/x1" 2>"$T/x1.err"
check_eq "--exclude_pid: exit 0 at SIGINT, stderr empty" "$?:$(cat "$T/x1.err")" "0:"
check "without it: both spinners' time" eval 'gt "$(ms spin0 "$T/x0")" 0 && gt "$(ms spin1 "$T/x0")" 0'
check_eq "--exclude_pid A: none of A's spinner" "$(ms spin0 "$T/x1")" 0.00
check "--exclude_pid A: B's spinner ($(ms spin1 "$T/x1") ms)" gt "$(ms spin1 "$T/x1")" 0
timeout --preserve-status -s INT 1.5 "$PP" oncpu -C 0 --top 100 --exclude-pid "$A" >"$T/x2" 2>"$T/x2.err"
check_eq "-C 0 --exclude-pid A: exit 0, stderr empty" "$?:$(cat "$T/x2.err")" "0:"
check_eq "-C 0 --exclude-pid A: no row of A's spinner (spin0:$atid)" "$(grep -c " spin0:$atid " "$T/x2")" 0
# (the same without the filter: its row is there)
timeout --preserve-status -s INT 1.5 "$PP" oncpu -C 0 --top 100 >"$T/x3" 2>&1
check "-C 0: A's spinner's row (spin0:$atid)" grep -q " spin0:$atid " "$T/x3"
reap "$A"
reap "$B"

# ---- three spinners on CPU 1, and a napper (its slices end asleep) ----
RUN3="$W/pinned 2 spin@1 spin@1 spin@1 nap@1"
"$PP" oncpu -- $RUN3 >"$T/n" 2>&1
"$PP" oncpu --nr_running_min 3 -- $RUN3 >"$T/n3" 2>&1
"$PP" oncpu --nr-running-max 2 -- $RUN3 >"$T/n2" 2>&1
all=$(ms spin1 "$T/n") min3=$(ms spin1 "$T/n3") max2=$(ms spin1 "$T/n2")
check "--nr_running_min 3: the spinners' time ($min3 ms of $all without a filter)" gt "$min3" 0
check "--nr-running-max 2: (almost) none of theirs ($max2 ms: under a tenth of --nr_running_min 3's)" \
	gt "$(awk -v m="$min3" 'BEGIN { print m / 10 }')" "$max2"
"$PP" oncpu --tif_need_resched -- $RUN3 >"$T/t1" 2>"$T/t1.err"
check_eq "--tif_need_resched: exit 0, stderr empty" "$?:$(cat "$T/t1.err")" "0:"
"$PP" oncpu --tif-need-resched=0 -- $RUN3 >"$T/t0" 2>&1
t1s=$(ms spin1 "$T/t1") t0s=$(ms spin1 "$T/t0") t1n=$(ms napper "$T/t1") t0n=$(ms napper "$T/t0")
check "--tif_need_resched (=1, left runnable): the spinners' time ($t1s ms)" gt "$t1s" 0
check "--tif_need_resched=0 (left blocked): (almost) none of theirs ($t0s ms: under a tenth of =1's)" \
	gt "$(awk -v m="$t1s" 'BEGIN { print m / 10 }')" "$t0s"
check "--tif_need_resched=0: the napper's time ($t0n ms; =1: $t1n ms)" gt "$t0n" "$t1n"

# ---- JSON keeps its shape with a filter, and on both back ends ----
"$PP" oncpu --json -- "$W/pinned" 1 spin@0 >"$T/j0" 2>&1
"$PP" oncpu --json --exclude_pid 1 -- "$W/pinned" 1 spin@0 >"$T/j1" 2>&1
"$PP" oncpu --json --no-bpf -- "$W/pinned" 1 spin@0 >"$T/j2" 2>&1
# (the members a row has only with a value, RT_OMIT_EMPTY, left out: an "[other]" row or
# "... N more" comes with the host's other tasks, not with the back end or the filter)
keys() {
	grep '^{' "$1" | jq -c 'del(.other, .comm, .tid, .pid, .exited, .more_threads,
		.more_exited_threads, .cpu_pct) | [.type, keys]' | sort -u
}
check_eq "--json: the same records and keys with a filter" "$(keys "$T/j1")" "$(keys "$T/j0")"
check_eq "--json: the same records and keys on the ring path" "$(keys "$T/j2")" "$(keys "$T/j0")"

# ---- what goes the ring path says why under -v; with --bpf it is a usage error ----
"$PP" oncpu -v --ptrace -- true >/dev/null 2>"$T/r.err"
check "--ptrace: the ring path, said under -v" \
	grep -qF "perf-prof oncpu: the ring path: oncpu: --ptrace: the tasks it holds at birth are followed in user space" "$T/r.err"
usage_bad "--bpf --ptrace" "--bpf: oncpu: --ptrace: the tasks it holds at birth are followed in user space" \
	oncpu --bpf --ptrace -- true
usage_bad "--ptrace --sched-policy" "--sched-policy filters oncpu's slices in the kernel: --ptrace" \
	oncpu --ptrace --sched-policy 1 -- true

# ---- a full map: 41 processes' slices, 16 (CPU, thread) sums kept; the rest said ----
MANY='for i in $(seq 40); do /bin/true; done'
"$PP" oncpu --bpf-entries 16 -- sh -c "$MANY" >/dev/null 2>"$T/f.err"
check_eq "--bpf-entries 16: exit 0" $? 0
check "--bpf-entries 16: the slices not counted are said" \
	grep -qE '^perf-prof: [0-9]+ events not counted in the kernel: slices not counted: thread map full \(--bpf-entries\)$' "$T/f.err"
"$PP" oncpu --bpf-entries 16 --json -- sh -c "$MANY" 2>/dev/null | grep '"type":"lost"' >"$T/f.json"
check "--bpf-entries 16 --json: dropped_in_kernel ($(jq .dropped_in_kernel "$T/f.json" 2>/dev/null))" \
	test "$(jq .dropped_in_kernel "$T/f.json" 2>/dev/null)" -gt 0

# ---- SIGKILL: the programs are fds of ours, nothing stays loaded ----
bpf_start "$T/k" oncpu -- "$W/pinned" 10 sleep && bpf_kill_leaves_nothing
done_tests
