#!/bin/bash
# The in-kernel sample filters of profile and hrtimer (a BPF perf_event
# program on every fd of the sampling event), against workloads whose
# truth is known: spinners at two nice levels (--prio), a SCHED_FIFO and a
# SCHED_OTHER thread (--sched_policy, --prio on both back ends; the main
# thread is SCHED_FIFO for the moment it starts the first), two
# processes (--exclude_pid), user-mode spinning (--irqs_disabled: the
# interrupt flag is always set in user mode), three spinners pinned to one
# CPU (--nr_running_*: that CPU's queue holds all three while one runs).
# Then every refusal: status 2 and one line (oncpu's filters: t_oncpu_sfilter).
. "$(dirname "$0")/lib.sh"

for w in pinned prio_pair; do
	[ -x "$W/$w" ] || { skip "workload $w not built (make workloads)"; done_tests; exit; }
done
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }

# threads with samples in a --perins profile: "comm" per "COMM:TID: N samples" line, sorted
threads() { sed -n 's/^\([a-z_0-9]*\):[0-9]*: [0-9]* samples$/\1/p' "$1" | sort -u | tr '\n' ' '; }
# the samples of thread COMM (first table)
samples_of() { sed -n "s/^$2:[0-9]*: \([0-9]*\) samples$/\1/p" "$1" | head -1; }

# ---- bad input: status 2, one line (no BPF needed) ----
usage_bad "--prio 200" "bad --prio '200'" profile --prio 200 -- true
usage_bad "--sched_policy 4" "0 NORMAL, 1 FIFO, 2 RR, 3 BATCH, 5 IDLE or 6 DEADLINE" \
	profile --sched_policy 4 -- true
usage_bad "--sched_policy 9" "bad --sched-policy '9'" profile --sched_policy 9 -- true
usage_bad "--nr_running_min 3 > max 2" "--nr-running-min 3 > --nr-running-max 2: no sample kept" \
	profile --nr_running_min 3 --nr_running_max 2 -- true
usage_bad "--nr_running_max x" "bad --nr-running-max 'x'" profile --nr_running_max x -- true
usage_bad "--irqs_disabled=2" "bad --irqs-disabled '2': 0 or 1" profile --irqs_disabled=2 -- true
usage_bad "--tif_need_resched=yes" "bad --tif-need-resched 'yes'" profile --tif_need_resched=yes -- true
usage_bad "--exclude_pid 0" "bad --exclude-pid '0'" profile --exclude_pid 0 -- true
usage_bad "--no-bpf --exclude_pid" "--exclude-pid filters samples in the kernel: not with --no-bpf" \
	profile --no-bpf --exclude_pid 1 -- true
usage_bad "hrtimer --no-bpf --prio (no ring path for it there)" \
	"--prio filters samples in the kernel: not with --no-bpf" hrtimer --no-bpf --prio 120 -- true
usage_bad "oncpu: no interrupt flag for a slice" "oncpu --irqs-disabled: a slice ends in sched_switch" \
	oncpu --irqs_disabled -- true

# ---- without the capability: status 1, naming it ----
if id nobody >/dev/null 2>&1; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
		"$PP" profile --exclude_pid 1 -C 0 -- true >/dev/null 2>"$T/cap.err"
	check_eq "not permitted: status 1" $? 1
	check "not permitted: names the capabilities" \
		grep -q -- '^perf-prof profile: --exclude-pid needs BPF: bpf(2) not permitted: .*CAP_BPF' "$T/cap.err"
fi

need_bpf profile --bpf --exclude_pid 1 -- true

# ---- --prio: nice 0 (prio 120) on CPU 0, nice 5 (prio 125) on CPU 1; both back ends ----
NICE="nice -n 5 $W/pinned 2 spin@1 & $W/pinned 2 spin@0; wait"
"$PP" profile -F 999 --perins -- sh -c "$NICE" >"$T/p0" 2>"$T/p0.err"
check_eq "no filter: both spinners" "$(threads "$T/p0" | grep -o 'spin[01]' | tr '\n' ' ')" "spin0 spin1 "
for be in --bpf --no-bpf; do
	"$PP" profile -F 999 --perins --prio 125 $be -- sh -c "$NICE" >"$T/p1" 2>"$T/p1.err"
	check_eq "--prio 125 $be: exit 0, stderr empty" "$?:$(cat "$T/p1.err")" "0:"
	check "--prio 125 $be: the nice-5 spinner's samples" grep -q '^spin1:[0-9]*: [0-9]* samples$' "$T/p1"
	check_eq "--prio 125 $be: none of the nice-0 one" "$(grep -c '^spin0:' "$T/p1")" 0
	"$PP" profile -F 999 --perins --prio 120 $be -- sh -c "$NICE" >"$T/p2" 2>&1
	check "--prio 120 $be: the nice-0 spinner's samples" grep -q '^spin0:[0-9]*: [0-9]* samples$' "$T/p2"
	check_eq "--prio 120 $be: none of the nice-5 one" "$(grep -c '^spin1:' "$T/p2")" 0
done
"$PP" profile -F 999 --perins --prio 120 -v -- sh -c "$NICE" >/dev/null 2>"$T/p3.err"
check "--prio where BPF is: filtered in the kernel (said under -v)" \
	grep -q -- "--prio: [a-z-]*'s samples filtered in the kernel (BPF)" "$T/p3.err"

# ---- prio_pair: rt_burst (SCHED_FIFO 50, prio 49) and nrm_burst (SCHED_OTHER, prio 120) ----
"$PP" profile -F 997 --perins -- "$W/prio_pair" 1 >"$T/pp" 2>&1
if grep -q '^nort:' "$T/pp"; then
	skip "SCHED_FIFO refused here: $(grep '^nort:' "$T/pp")"
else
	RTN=$(sed -n 's/^rt tid=[0-9]* naps=//p' "$T/pp")
	for be in --bpf --no-bpf; do
		"$PP" profile -F 997 --perins --prio 1-99 $be -- "$W/prio_pair" 1 >"$T/pr" 2>&1
		RTN=$(sed -n 's/^rt tid=[0-9]* naps=//p' "$T/pr")
		# (the main thread is SCHED_FIFO too while it starts rt_burst: the kernel sees it)
		check_eq "--prio 1-99 $be: no sample of nrm_burst" "$(grep -c '^nrm_burst:' "$T/pr")" 0
		check_range "--prio 1-99 $be: rt_burst's samples, ~5 per nap ($RTN naps)" \
			"$(samples_of "$T/pr" rt_burst)" $((RTN * 3)) $((RTN * 8))
	done
	"$PP" profile -F 997 --perins --sched_policy 1 -- "$W/prio_pair" 1 >"$T/s1" 2>"$T/s1.err"
	RTN=$(sed -n 's/^rt tid=[0-9]* naps=//p' "$T/s1")
	check_eq "--sched_policy 1: exit 0, stderr empty" "$?:$(cat "$T/s1.err")" "0:"
	check_eq "--sched_policy 1 (FIFO): no sample of nrm_burst" "$(grep -c '^nrm_burst:' "$T/s1")" 0
	check_range "--sched_policy 1: rt_burst's samples, ~5 per nap ($RTN naps)" \
		"$(samples_of "$T/s1" rt_burst)" $((RTN * 3)) $((RTN * 8))
	"$PP" profile -F 997 --perins --sched-policy 0 -- "$W/prio_pair" 1 >"$T/s0" 2>&1
	check "--sched-policy 0 (NORMAL; the dash spelling): nrm_burst's samples" \
		grep -q '^nrm_burst:[0-9]*: [0-9]* samples$' "$T/s0"
	check_eq "--sched-policy 0: none of rt_burst" "$(grep -c '^rt_burst:' "$T/s0")" 0
fi

# ---- --exclude_pid: two processes, one left out ----
spawn A "$W/pinned" 9 spin@0 >"$T/a.wl"
spawn B "$W/pinned" 9 spin@1 >"$T/b.wl"
wait_for "$T/a.wl" '^thread spin0 tid=' "$A"
wait_for "$T/b.wl" '^thread spin1 tid=' "$B"
# A's spinner by its tid: -C 0 sees the whole CPU, where another run's spin0 may be
ATID=$(sed -n 's/^thread spin0 tid=\([0-9]*\) .*/\1/p' "$T/a.wl")
timeout --preserve-status -s INT 1.5 "$PP" profile -F 999 --perins -p "$A,$B" >"$T/x0" 2>&1
timeout --preserve-status -s INT 1.5 "$PP" profile -F 999 --perins -p "$A,$B" --exclude_pid "$A" >"$T/x1" 2>"$T/x1.err"
check_eq "--exclude_pid: exit 0 at SIGINT, stderr empty" "$?:$(cat "$T/x1.err")" "0:"
check_eq "without it: both processes' spinners" "$(threads "$T/x0" | grep -o 'spin[01]' | tr '\n' ' ')" "spin0 spin1 "
check_eq "--exclude_pid A: only B's spinner" "$(threads "$T/x1")" "spin1 "
# hrtimer: the periods it closes are the samples the filter keeps
timeout --preserve-status -s INT 1.5 "$PP" hrtimer -C 0 --period 10ms >"$T/h0" 2>&1
timeout --preserve-status -s INT 1.5 "$PP" hrtimer -C 0 --period 10ms --exclude-pid "$A" >"$T/h1" 2>"$T/h1.err"
check_eq "hrtimer --exclude-pid: exit 0, stderr empty" "$?:$(cat "$T/h1.err")" "0:"
# (A ran through both runs: its absence from the second is the filter's)
check "hrtimer --exclude-pid: A's spinner still ran after both runs" kill -0 "$A"
check "hrtimer: without it, periods that interrupted A's spinner ($ATID)" grep -q " spin0 *${ATID:-x} \[000\] hrtimer: " "$T/h0"
check_eq "hrtimer --exclude-pid A: none of its spinner's" "$(grep -c " spin0 *${ATID:-x} \[000\] hrtimer: " "$T/h1")" 0
check "hrtimer --exclude-pid A: the summary" grep -q '^hrtimer: [0-9]* samples closed [0-9]* periods' "$T/h1"
reap "$A"
reap "$B"

# ---- --irqs_disabled: a user-mode spinner always runs with interrupts enabled ----
"$PP" profile -F 999 --perins --irqs_disabled -- "$W/pinned" 1 spin@0 >"$T/i1" 2>"$T/i1.err"
check_eq "--irqs_disabled: exit 0, stderr empty" "$?:$(cat "$T/i1.err")" "0:"
check_eq "--irqs_disabled: no user-mode sample of the spinner" "$(grep -c ' work (.*/pinned)$' "$T/i1")" 0
"$PP" profile -F 999 --perins --irqs-disabled=0 -- "$W/pinned" 1 spin@0 >"$T/i0" 2>&1
check "--irqs-disabled=0: the spinner's user-mode samples" grep -q ' work (.*/pinned)$' "$T/i0"

# ---- --nr_running_*: three spinners on CPU 1 (4 s: at their start and end the queue is shorter) ----
"$PP" profile -F 999 --perins --nr_running_min 3 -- "$W/pinned" 1 spin@1 spin@1 spin@1 >"$T/n3" 2>&1
check_range "--nr_running_min 3: the spinners' samples" "$(samples_of "$T/n3" spin1)" 20 100000
"$PP" profile -F 999 --perins --nr-running-max 2 -- "$W/pinned" 1 spin@1 spin@1 spin@1 >"$T/n2" 2>&1
check_range "--nr-running-max 2: (almost) none (their start and end aside)" \
	"$(grep '^spin1:' "$T/n2" | awk '{ s += $2 } END { print s + 0 }')" 0 3

# ---- --tif_need_resched: loads and runs (the bit is rarely set where a sample lands) ----
"$PP" profile -F 999 --perins --tif_need_resched -v -- "$W/pinned" 1 spin@0 >"$T/t1" 2>"$T/t1.err"
check_eq "--tif_need_resched: exit 0" $? 0
check "--tif_need_resched: the program loaded and was attached" \
	grep -q -- "--tif-need-resched: .*'s samples filtered in the kernel (BPF)" "$T/t1.err"
"$PP" profile -F 999 --perins --tif_need_resched=0 -- "$W/pinned" 1 spin@0 >"$T/t0" 2>&1
check "--tif_need_resched=0: the spinner's samples" grep -q '^spin0:[0-9]*: [0-9]* samples$' "$T/t0"

# ---- the outputs keep their shape ----
head_re='^[0-9-]* [0-9:.]* profile: [0-9]* samples of [a-z-]* at 999 Hz, [0-9]* functions$'
check "text: the summary line" grep -q "$head_re" "$T/i0"
"$PP" profile -F 999 --json -- "$W/pinned" 1 spin@0 >"$T/j0" 2>&1
"$PP" profile -F 999 --json --exclude_pid 1 -- "$W/pinned" 1 spin@0 >"$T/j1" 2>&1
keys() { grep '^{' "$1" | jq -c '[.type, keys]' | sort -u; }
check_eq "--json: the same records and keys with a filter" "$(keys "$T/j1")" "$(keys "$T/j0")"
done_tests
