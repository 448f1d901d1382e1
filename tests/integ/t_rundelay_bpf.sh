#!/bin/bash
# rundelay's two back ends: on one run of lat_sleep (200 sleeps of 2 ms under
# SCHED_IDLE beside a spinner on CPU 0, as t_rundelay) the BPF back end (the
# default here) and the ring path (--no-bpf) count the same delays (counts
# equal, totals within 1%, --json too); --than prints the same slow delays
# with the same records (rd_slow's); -v says which back end ran; what BPF
# does not do goes the ring path (said under -v), or with --bpf is a usage
# error (status 2, one line naming it); a SIGKILLed run leaves no program of
# ours loaded.
. "$(dirname "$0")/lib.sh"

[ -x "$W/lat_sleep" ] || { skip "workload lat_sleep not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
need_bpf rundelay --bpf -- true

within1() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b / 100) }'; }

idle_sleeper "$T/fifo" "$T/wl"
w=$SLEEPER pid=$SLEEPER_PID
monitor "$T/b" rundelay -p "$pid"
monitor "$T/r" rundelay --no-bpf -p "$pid"
monitor "$T/bj" rundelay -p "$pid" --json
echo go >"$T/fifo"
wait "$w"
sleep 0.2
for f in b r bj; do stop "$T/$f"; done
reap "$w"

check_eq "exit statuses" "$(cat "$T/b.rc") $(cat "$T/r.rc") $(cat "$T/bj.rc")" "0 0 0"
check "-v: the BPF back end ran (tp_btf)" grep -q 'the BPF back end (tp_btf programs)' "$T/b.err"
check "-v: --no-bpf: not the BPF back end" bash -c "! grep -q 'BPF back end' '$T/r.err'"
check "--no-bpf: the ring's events opened" grep -q 'monitoring: [1-9][0-9]* events enabled' "$T/r.err"
# (a BPF program's drops are said "N events not counted in the kernel: ...")
check "BPF: nothing lost, nothing not counted" bash -c "! grep -qE 'lost|not counted' '$T/b.err'"
bw=$(line "$T/b" "wakeup => switch-in" 4)
rw=$(line "$T/r" "wakeup => switch-in" 4)
check_range "wakeups: the 200 sleeps" "$bw" 195 400
check_eq "wakeup => switch-in calls: BPF = ring" "$bw" "$rw"
bt=$(ns "$(line "$T/b" "wakeup => switch-in" 5)")
rt=$(ns "$(line "$T/r" "wakeup => switch-in" 5)")
check "wakeup => switch-in total: BPF within 1% of the ring's ($bt, $rt ns)" within1 "$bt" "$rt"
# within one: this kernel does not deliver a few sched_switch hits in a thousand to any
# tracer, and the two back ends recover those switch-ins differently (the ring path from
# the context-switch records, BPF from sched_info.run_delay); seen once, 3 against 4
bp=$(line "$T/b" "preempted => switch-in" 4)
rp=$(line "$T/r" "preempted => switch-in" 4)
bp=${bp:-0} rp=${rp:-0} # (no row: none preempted)
check "preempted => switch-in calls: BPF = ring, within one ($bp, $rp)" \
	test $((bp - rp)) -le 1 -a $((rp - bp)) -le 1
check_eq "the same rows" "$(awk '/=> switch-in/ { print $1 }' "$T/b" | sort | tr '\n' ' ')" \
	"$(awk '/=> switch-in/ { print $1 }' "$T/r" | sort | tr '\n' ' ')"
jw=$(jq -r 'select(.type == "row" and .pair == "wakeup => switch-in") | .count' "$T/bj")
check_eq "--json on BPF: the wakeup row's count" "$jw" "$bw"
check "--json on BPF: min <= p50 <= p99 <= max, avg = total / count" jq -e \
	'select(.type == "row") | .min_ns <= .p50_ns and .p50_ns <= .p99_ns and .p99_ns <= .max_ns and ((.avg_ns - .total_ns / .count) | fabs) <= 1' \
	"$T/bj"

# --than on both back ends, on one run of rd_slow (CPU 1, 10 rounds of each kind, a
# SCHED_FIFO hog spinning 20 ms a round): 10 wakeups of rd_sleeper waiting about 19 ms
# behind the hog, 10 preemptions of it by the hog of about 20 ms (its switch-in comes
# after the hog's sleep, or after other tasks' turns on a busy host).  The BPF back end
# rebuilds the trace records the ring path prints (its programs get the tracepoints'
# arguments): the same slow delays, the same event lines but their times (comm, pid, prio,
# target_cpu, prev_state, the heads' threads and CPUs), latencies within 1%, the same
# --json; with -g --kernel-stack the same kernel stacks
if [ -x "$W/rd_slow" ]; then
	mkfifo "$T/fifo2"
	rm -f "$T/sl"
	spawn s2 "$W/rd_slow" -f "$T/fifo2" 1 10 20 >"$T/sl"
	for ((i = 0; i < 100; i++)); do grep -q '^pid=' "$T/sl" && break; sleep 0.1; done
	spid=$(grep -o 'pid=[0-9]*' "$T/sl" | cut -d= -f2)
	runs="tb tr tbj tj tbg tg th thr"
	for a in tb:--bpf tr:--no-bpf tbj:--bpf tj:--no-bpf tbg:--bpf tg:--no-bpf th:--bpf thr:--no-bpf; do
		f=${a%%:*} be=${a#*:} x="--than 10ms"
		case $f in *j) x="$x --json" ;; *g) x="$x -g --kernel-stack" ;; th*) x="--heatmap $T/$f" ;; esac
		# shellcheck disable=SC2086
		monitor "$T/$f" rundelay "$be" -p "$spid" $x
	done
	echo go >"$T/fifo2"
	wait "$s2"
	sleep 0.2
	for f in $runs; do stop "$T/$f"; done
	reap "$s2"
	if grep -q '^nort' "$T/sl"; then
		skip "--than: rd_slow: $(cat "$T/sl")"
	else
		stid=$(sed -n 's/^sleeper tid=//p' "$T/sl")
		htid=$(sed -n 's/^hog tid=//p' "$T/sl")
		check "rd_slow ran to its end" grep -q '^done' "$T/sl"
		check_eq "--than, --heatmap: exit statuses" \
			"$(for f in $runs; do cat "$T/$f.rc"; done | tr '\n' ' ')" "0 0 0 0 0 0 0 0 "
		check "--than: the BPF back end ran" grep -q 'the BPF back end (tp_btf' "$T/tb.err"
		check "--than -g --kernel-stack: the BPF back end ran" grep -q 'the BPF back end (tp_btf' "$T/tbg.err"
		check "--than: nothing lost, nothing not printed" bash -c "! grep -qE 'lost|not counted|not printed' '$T/tb.err' '$T/tbg.err'"
		# A round's delay is a wakeup or a preemption, by the hog or, on a busy host, by
		# other tasks on CPU 1 too (then a wakeup where a preemption was meant, longer);
		# the other ends are then those tasks.  Each round gives the sleeper one slow delay
		# at least, each wakeup round a wakeup by the hog's timer interrupt.
		for f in tb tr; do
			# (ended by a record: a switch-in no tracer saw, closed by the context-switch
			# record on the ring path, from sched_info.run_delay on BPF; printed alike)
			nw=$(grep -c "^wakeup => switch-in: .* key $stid\( (ended by a record.*\)\?\$" "$T/$f")
			np=$(grep -c "^preempted => switch-in: .* key $stid\( (ended by a record.*\)\?\$" "$T/$f")
			ne=$(grep -c "^[a-z]* => switch-in: .* key $stid (ended by a record" "$T/$f")
			# (20 on a quiet host; a round the host delays as a whole, the hog's too, may
			# give none: the two back ends' counts are compared exactly below)
			check_range "$f: the sleeper's slow delays, one a round" $((nw + np)) 15 40
			check_range "$f: its slow wakeups, one a wakeup round" "$nw" 8 40
			check_eq "$f: the wakeups' records (comm, pid, prio, target_cpu)" \
				"$(grep -c "\] sched:sched_wakeup: comm=rd_sleeper pid=$stid prio=120 target_cpu=001\$" "$T/$f")" "$nw"
			check_range "$f: the wakeups raised by the hog (the head's thread), on CPU 1" \
				"$(grep -c "rd_hog  *$htid \[001\] sched:sched_wakeup: " "$T/$f")" 8 "$nw"
			check_eq "$f: the preemptions' records (prev_state R, or R+ by preempt_schedule)" \
				"$(grep -c "rd_sleeper  *$stid \[001\] sched:sched_switch: prev_comm=rd_sleeper prev_pid=$stid prev_prio=120 prev_state=R+\? ==> " "$T/$f")" "$np"
			check_eq "$f: the switch-ins' records" \
				"$(grep -c "\[001\] sched:sched_switch: .* ==> next_comm=rd_sleeper next_pid=$stid next_prio=120\$" "$T/$f")" $((nw + np - ne))
			check_eq "$f: the >10ms column counts the slow delays printed" \
				"$(awk '/^(wakeup|wakeup_new|preempted) => switch-in  / { n += $(NF - 1) } END { print n + 0 }' "$T/$f")" \
				"$(grep -c '=> switch-in: ' "$T/$f")"
		done
		# The same records but the times, each latency within 1% of the other's
		# (slow_match.py): the back ends stamp one tracepoint hit at different
		# points, tens of us apart, so a delay just over 10 ms (the hog's own wakeup
		# behind a kernel path that does not reschedule, on a loaded host) may be
		# printed by one only: such records are left out (counted, not compared).
		for p in text:tb:tr json:tbj:tj text:tbg:tg; do
			IFS=: read -r mode fb fr <<<"$p"
			python3 "$TOP/tests/integ/slow_match.py" "$mode" "$T/$fb" "$T/$fr" 10000000 >"$T/m-$fb" 2>&1
			rc=$?
			check_eq "--than $fb/$fr: BPF's slow delays printed as the ring path's (but the times)" \
				"$rc $(sed -n 's/^matched \([0-9]*\),.*/\1/p' "$T/m-$fb" | awk '{ print ($1 >= 15) }')" "0 1"
			[ "$(head -c 7 "$T/m-$fb")" = matched ] || cat "$T/m-$fb"
		done
		check_range "--than --json: the slow records" "$(jq -c 'select(.type == "slow")' "$T/tbj" | wc -l)" 15 60
		check_eq "--than --json: the sleeper's wakeups' fields" \
			"$(jq -c --argjson t "$stid" 'select(.type == "slow" and .pair == "wakeup => switch-in" and .tid == $t) | .start.fields' "$T/tbj" | sort -u)" \
			"{\"comm\":\"rd_sleeper\",\"pid\":$stid,\"prio\":120,\"target_cpu\":1}"
		# -g --kernel-stack: each event's kernel frames (compared above with the records)
		frames() { sed -nE 's/^ +[0-9a-f]+ ([^ +]+)\+?.*/\1/p' "$1" | grep -v '^0x'; }
		check "-g: BPF's slow delays have kernel stacks" test "$(frames "$T/tbg" | wc -l)" -ge 40
		# --heatmap: a .lat line per delay (each start's time and latency), on BPF
		# copied out; the same slow ones as the ring path's on the same run
		check "--heatmap: the BPF back end ran" grep -q 'the BPF back end (tp_btf' "$T/th.err"
		for p in sched_wakeup-sched_switch:wakeup sched_switch-sched_switch:preempted; do
			fb="$T/th-${p%%:*}.lat" fr="$T/thr-${p%%:*}.lat" row="${p#*:} => switch-in"
			check_eq "--heatmap: $row: a line per delay (the table's calls)" \
				"$(awk 'NF == 2' "$fb" | wc -l)" "$(line "$T/th" "$row" 4)"
			# (the ring path's over 10 ms: BPF's over 10.25 ms at least, over 9.75 ms at most)
			check_range "--heatmap: $row: the delays over 10 ms: the ring path's, BPF's within 250 us" \
				"$(awk '$2 > 10000000' "$fr" | wc -l)" \
				"$(awk '$2 > 10250000' "$fb" | wc -l)" "$(awk '$2 > 9750000' "$fb" | wc -l)"
		done
	fi
else
	skip "workload rd_slow not built (make workloads)"
fi

# what the BPF back end does not do: the ring path, said under -v; --bpf: a usage error
"$PP" rundelay --than 1s --detail -v -- true >/dev/null 2>"$T/f1"
check_eq "--detail: status 0 (the ring path)" $? 0
check "--detail: -v says the ring path and why" grep -q 'the ring path: rundelay --detail' "$T/f1"
"$PP" rundelay --bpf --than 1s --detail -- true >/dev/null 2>"$T/f2"
check_eq "--bpf --detail: status 2" $? 2
check_eq "--bpf --detail: one line" "$(wc -l <"$T/f2")" 1
check "--bpf --detail: names it" grep -q -- '--bpf: rundelay --detail' "$T/f2"
"$PP" rundelay --than 1s -g -v -- true >/dev/null 2>"$T/f6"
check_eq "--than -g (user stacks): status 0 (the ring path)" $? 0
check "--than -g (user stacks): -v says the ring path and why" \
	grep -q 'the ring path: rundelay -g with --than: user stacks' "$T/f6"
"$PP" rundelay --than 1s -v -- true >/dev/null 2>"$T/f7"
check "--than: the BPF back end (-v)" grep -q 'the BPF back end (tp_btf' "$T/f7"
"$PP" rundelay --bpf --filter 'a?c' -- true >/dev/null 2>"$T/f3"
check_eq "--bpf --filter 'a?c': status 2" $? 2
check "--bpf --filter 'a?c': names the glob" grep -q "'a?c': only NAME and PREFIX\* globs" "$T/f3"
"$PP" rundelay --bpf --prio 1-99 -- true >/dev/null 2>"$T/f4"
check_eq "--bpf --prio: status 2" $? 2
"$PP" rundelay --bpf --no-bpf -- true >/dev/null 2>"$T/f5"
check_eq "--bpf --no-bpf: status 2" $? 2

# -C 1: a spinner preempted on CPU 1 (a second spinner there), then moved to CPU 0,
# 10 times: its switch-in and its switch-out are on CPU 0, outside -C; the start
# is not closed there from its run_delay (that was one per move)
spawn hog taskset -c 1 sh -c 'while :; do :; done'
spawn mv taskset -c 1 sh -c 'while :; do :; done'
monitor "$T/c" rundelay -C 1 -p "$mv"
for ((i = 0; i < 10; i++)); do
	taskset -p -c 1 "$mv" >/dev/null
	sleep 0.1
	taskset -p -c 0 "$mv" >/dev/null
	sleep 0.05
done
stop "$T/c"
reap "$mv" KILL
reap "$hog" KILL
cu=$(sed -n 's/^rundelay: \([0-9]*\) switch-ins not traced.*/\1/p' "$T/c" "$T/c.err" | head -1)
check "-C 1: the BPF back end ran" grep -q 'the BPF back end' "$T/c.err"
check "-C 1: the 10 moves to CPU 0 not closed from run_delay (${cu:-0} closed)" test "${cu:-0}" -lt 5

# a map the kernel cannot make (here a memory cgroup's limit below the start map's
# preallocation, about 640 MB): the ring path, said under -v; with --bpf a usage error
MC=/sys/fs/cgroup/memory
if [ -w "$MC/cgroup.procs" ] && mkdir "$MC/pp-test-$$" 2>/dev/null; then
	echo $((256 << 20)) >"$MC/pp-test-$$/memory.limit_in_bytes"
	in_mc() { sh -c 'echo $$ >"$0/cgroup.procs"; exec "$@"' "$MC/pp-test-$$" "$@"; }
	in_mc "$PP" rundelay -v -m 16 --bpf-entries 8000000 -- true >/dev/null 2>"$T/m1"
	check_eq "a map it cannot make: status 0 (the ring path)" $? 0
	check "a map it cannot make: -v says the ring path and why" \
		grep -q 'the ring path: rundelay: its maps (8000000 entries): Cannot allocate memory' "$T/m1"
	in_mc "$PP" rundelay --bpf -m 16 --bpf-entries 8000000 -- true >/dev/null 2>"$T/m2"
	check_eq "--bpf, a map it cannot make: status 2" $? 2
	check_eq "--bpf, a map it cannot make: one line" "$(wc -l <"$T/m2")" 1
	for ((i = 0; i < 30; i++)); do rmdir "$MC/pp-test-$$" 2>/dev/null && break; sleep 0.1; done
else
	skip "no cgroup v1 memory controller to limit a map's memory"
fi

# SIGKILL: the programs are our fds' only (nothing pinned): none stays loaded
if bpf_start "$T/k" rundelay; then
	k=$BPF_PID
	check "a run to kill: monitoring" grep -q 'the BPF back end' "$T/k.err"
	# its latency maps, written from sched_switch, are preallocated (map_flags without
	# BPF_F_NO_PREALLOC, 1): an allocation there fails in a burst
	for m in pp_rd_rows pp_rd_hist; do
		mid=$(for id in $(cat /proc/"$k"/fdinfo/* 2>/dev/null | awk '$1 == "map_id:" { print $2 }' | sort -u); do
			bpftool -j map show id "$id" 2>/dev/null
		done | jq -r --arg m "$m" 'select(.name == $m) | "\(.flags)"')
		check_eq "while it ran: $m preallocated (flags)" "$mid" 0
	done
	check "while it ran: its programs loaded ($(echo $BPF_IDS))" test "$(echo "$BPF_IDS" | grep -c .)" -ge 3
	bpf_kill_leaves_nothing
fi

done_tests
