#!/bin/bash
# kvm-exit on a tiny guest (tests/work/kvm_guest: real-mode code doing out
# and hlt in a loop N times) gives N IO_INSTRUCTION and N HLT exits, on
# both back ends (BPF, the default, and --no-bpf) with the same numbers.
# Where the CPU has no hardware virtualization (no vmx/svm: /dev/kvm may
# exist but emulates, and kvm:kvm_exit never fires) the guest test skips;
# tests/unit/test_kvm_exit_sm.c covers pairing and reason names on
# synthesized records everywhere, tests/unit/test_expr_bpf.c the row and
# mark the BPF programs compute, and t_mt_rows the rows by label in the
# kernel (multi-trace row=/mark=, kvm-exit's pairing on events that fire).
# Here: the original's names bpf:kvm-exit and bpf:kvm_exit and --threshold,
# their usage errors, --filter's (and the filter on the guest's exits where it
# runs), the BPF choice (-v; --than/--threshold and -g with
# them on BPF, --detail on the ring path), its programs attached while it
# runs, none left after SIGKILL.
. "$(dirname "$0")/lib.sh"

[ -x "$W/kvm_guest" ] || { skip "workload kvm_guest not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }

# bad input first: these need no KVM
"$PP" kvm-exit -e sched:sched_switch -- true >/dev/null 2>"$T/u1"
check_eq "kvm-exit -e: status 2" $? 2
"$PP" kvm-exit --than 5xs -- true >/dev/null 2>"$T/u2"
check_eq "bad --than: status 2" $? 2
check "bad --than: names it" grep -q -- '--than' "$T/u2"

# --threshold TIME: --than TIME under the original's name, its unit written
one() { # description want-status args...: one line on stderr, nothing on stdout
	local d=$1 want=$2
	shift 2
	"$PP" "$@" >"$T/o" 2>"$T/e"
	check_eq "$d: status $want, one line, nothing on stdout" \
		"$?:$(wc -l <"$T/e"):$(wc -c <"$T/o")" "$want:1:0"
}
for n in kvm-exit bpf:kvm-exit bpf:kvm_exit; do
	one "$n --threshold 2000" 2 $n --threshold 2000 -- true
	cp "$T/e" "$T/th.${n/:/_}"
	one "$n --threshold 2ms --than 3ms" 2 $n --threshold 2ms --than 3ms -- true
	cp "$T/e" "$T/two.${n/:/_}"
done
check_eq "a bare --threshold: names it, asks for the unit" "$(cat "$T/th.kvm-exit")" \
	"perf-prof kvm-exit: --threshold 2000: write the unit (2ms, 500us): the original's bare number was ns, kvm-exit's --than reads us"
check_eq "--threshold and --than disagree: says so" "$(cat "$T/two.kvm-exit")" \
	"perf-prof kvm-exit: --threshold and --than give two times: give one (--threshold is --than's other name)"
for n in bpf_kvm-exit bpf_kvm_exit; do
	check "$n: kvm-exit's messages" cmp -s "$T/th.$n" "$T/th.kvm-exit"
	check "$n: kvm-exit's messages (2)" cmp -s "$T/two.$n" "$T/two.kvm-exit"
done
one "--threshold 5xs" 2 kvm-exit --threshold 5xs -- true
check "--threshold 5xs: a bad time" grep -q "^perf-prof kvm-exit: bad time '5xs' for --threshold" "$T/e"
one "--threshold 0ms" 2 kvm-exit --threshold 0ms -- true
one "bpf:kvm-exit --detail without a time" 2 bpf:kvm-exit --detail -- true
check "--detail without a time: needs --than" grep -q -- '--detail needs --than' "$T/e"
"$PP" kvm-exit --threshold 2ms --than 2000 -- true >/dev/null 2>"$T/e"
check_eq "--threshold 2ms --than 2000 (us): the same time, status 0, quiet" "$?:$(cat "$T/e")" "0:"
"$PP" bpf:kvm_exit -h >"$T/h" 2>&1
check_eq "bpf:kvm_exit -h: kvm-exit's help" "$?:$(grep -c -- '--threshold TIME' "$T/h")" "0:1"

# --filter FILTER: on kvm:kvm_exit (the original's option), a filter the kernel
# checks; its usage errors
one "--filter without a value" 2 kvm-exit --filter
if [ -d /sys/kernel/tracing/events/kvm/kvm_exit ]; then
	one "--filter on a field kvm_exit lacks" 2 kvm-exit --filter 'nosuch==1' -- true
	check "--filter nosuch==1: the kernel's reason, kvm_exit named" \
		grep -q "^perf-prof kvm-exit: filter 'nosuch==1' on kvm:kvm_exit rejected by the kernel: Field not found" "$T/e"
	one "--filter exit_reason== (no value)" 2 kvm-exit --filter 'exit_reason==' -- true
	for be in "" --no-bpf; do
		"$PP" kvm-exit $be --filter 'exit_reason==48' -- true >"$T/o" 2>"$T/e"
		check_eq "--filter exit_reason==48 ${be:-(default)}: status 0, quiet, the table's head" \
			"$?:$(cat "$T/e"):$(grep -c '^EXIT REASON ' "$T/o")" "0::1"
	done
else
	skip "--filter on kvm_exit's fields: no kvm:kvm_exit tracepoint (kvm not loaded)"
fi

# the back end: BPF by default where the host allows it, said under -v
bpf=1
bpf_ours kvm-exit --bpf -- true || bpf=0
if [ ! -d /sys/kernel/tracing/events/kvm/kvm_exit ]; then
	skip "the BPF back end: no kvm:kvm_exit tracepoint (kvm not loaded)"
elif [ $bpf = 0 ]; then
	skip "the BPF back end: $(cat "$T/probe.err") (the default runs the ring path)"
else
	BPFLINE="perf-prof kvm-exit: the BPF back end: pairs timed in the kernel (a tracepoint program on each of 2 events)"
	for n in kvm-exit bpf:kvm-exit bpf:kvm_exit; do
		"$PP" $n -v -- true >/dev/null 2>"$T/e"
		check_eq "$n -v: status 0, on BPF" "$?:$(grep -c -x -F "$BPFLINE" "$T/e")" "0:1"
	done
	"$PP" kvm-exit --no-bpf -v -- true >/dev/null 2>"$T/e"
	check_eq "--no-bpf -v: the ring path" "$?:$(grep -c 'BPF back end' "$T/e")" "0:0"
	# --threshold/--than (and -g with them): the slow exits copied out of the kernel
	for a in "--threshold 2ms" "--than 2000 -g"; do
		"$PP" bpf:kvm-exit --bpf -v $a -- true >/dev/null 2>"$T/e"
		check_eq "--bpf $a: status 0, on BPF" "$?:$(grep -c -x -F "$BPFLINE" "$T/e")" "0:1"
	done
	# the original's usage: --detail's timelines are read from the ring buffer
	"$PP" bpf:kvm-exit -i 1000 --perins --detail --threshold 2ms -v -- true >/dev/null 2>"$T/e"
	check_eq "the original's usage (--threshold, --detail): status 0, the ring path said" \
		"$?:$(grep -c -x -F "perf-prof kvm-exit: the ring path: --detail: the events around each slow exit are read from the ring buffer" "$T/e")" "0:1"
	one "--bpf --detail" 2 bpf:kvm-exit --bpf --detail --threshold 2ms -- true
	check_eq "--bpf --detail: names it" "$(cat "$T/e")" \
		"perf-prof kvm-exit: --bpf: --detail: the events around each slow exit are read from the ring buffer (run without --bpf for the ring path)"
	one "--bpf -g without a time" 2 kvm-exit --bpf -g -- true
	check "--bpf -g: names it" grep -q -- "--bpf: -g without --than: stacks are read from the ring buffer" "$T/e"
	one "--bpf --heatmap" 2 kvm-exit --bpf --heatmap "$T/hm" -- true

	# its programs attached while it runs (system-wide: kvm_exit, kvm_entry
	# and the thread exits), none left after SIGKILL
	if bpf_start "$T/k" bpf:kvm-exit -i 100000; then
		check_eq "running: attached to kvm_exit, kvm_entry, sched_process_exit" \
			"$(bpftool -j perf list | jq -r ".[] | select(.pid == $BPF_PID) | \"\(.fd_type) \(.tracepoint)\"" | sort | tr '\n' ,)" \
			"raw_tracepoint sched_process_exit,tracepoint kvm_entry,tracepoint kvm_exit,"
		check_eq "running: its programs loaded" \
			"$(for id in $BPF_IDS; do bpftool -j prog show id $id | jq -r .name; done | sort | tr '\n' ,)" \
			"pp_mt_0,pp_mt_1,pp_mt_exit,"
		bpf_kill_leaves_nothing
	fi
fi

if [ ! -d /sys/kernel/tracing/events/kvm/kvm_exit ]; then
	skip "no kvm:kvm_exit tracepoint (kvm not loaded)"
elif [ ! -c /dev/kvm ]; then
	skip "no /dev/kvm"
elif ! grep -qw -m1 'vmx\|svm' /proc/cpuinfo; then
	skip "no vmx/svm in /proc/cpuinfo: KVM here emulates the guest and kvm:kvm_exit never fires"
else
	row() { awk -v k="$2" -v n="$3" '$1 == k && $2 ~ /^[0-9]+$/ { print $n; exit }' "$1"; }
	for be in "" --no-bpf; do
		n=${be:-default}
		attach "$T/a" "kvm-exit $be -p PID --perins" kvm_guest 500
		if grep -q '^nokvm' "$T/a.wl"; then
			skip "the tiny guest cannot run: $(cat "$T/a.wl")"
			break
		fi
		check_eq "$n: exit status" "$(cat "$T/a.rc")" 0
		if [ -z "$be" ] && [ $bpf = 1 ]; then
			check "$n: on BPF" grep -q 'the BPF back end' "$T/a.err"
		fi
		check "$n: the guest ran its 500 turns" grep -q 'io=500 hlt=500 done' "$T/a.wl"
		# --perins: EXIT REASON, TID, calls, ... guest-kernel
		check_eq "$n: IO_INSTRUCTION exits" "$(row "$T/a" IO_INSTRUCTION 3)" 500
		check_eq "$n: HLT exits" "$(row "$T/a" HLT 3)" 500
		check_eq "$n: real mode is not a 64-bit guest kernel" "$(row "$T/a" IO_INSTRUCTION 11)" 0
		check_eq "$n: one vCPU thread" "$(awk '$1 == "IO_INSTRUCTION" { print $2 }' "$T/a" | sort -u | wc -l)" 1
		# --threshold 1ns: every IO exit printed (copied out of the kernel on BPF), no HLT
		# (the guest idling: counted in the >1ns column, not printed)
		attach "$T/t" "kvm-exit $be -p PID --threshold 1ns" kvm_guest 500
		check_eq "$n: --threshold: 500 IO exits printed, no HLT" \
			"$(grep -c '^IO_INSTRUCTION: ' "$T/t"):$(grep -c '^HLT: ' "$T/t")" "500:0"
		check_eq "$n: --threshold: 500 HLT exits over it in their row" "$(row "$T/t" HLT 10)" 500
		if [ -z "$be" ] && [ $bpf = 1 ]; then
			check "$n: --threshold on BPF" grep -q 'the BPF back end' "$T/t.err"
		fi
		# --filter exit_reason==30: the IO exits only (VMX's IO_INSTRUCTION), no HLT row
		attach "$T/f" "kvm-exit $be -p PID --filter exit_reason==30" kvm_guest 500
		check_eq "$n: --filter exit_reason==30: 500 IO exits, no HLT row" \
			"$(row "$T/f" IO_INSTRUCTION 2):$(grep -c '^HLT ' "$T/f")" "500:0"
	done
fi

done_tests
