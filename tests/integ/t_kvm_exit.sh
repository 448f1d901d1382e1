#!/bin/bash
# kvm-exit on a tiny guest (tests/work/kvm_guest: real-mode code doing out
# and hlt in a loop N times) gives N IO_INSTRUCTION and N HLT exits.  Where
# the CPU has no hardware virtualization (no vmx/svm: /dev/kvm may exist
# but emulates, and kvm:kvm_exit never fires) the guest test skips;
# tests/unit/test_kvm_exit_sm.c covers pairing and reason names on
# synthesized records everywhere.
. "$(dirname "$0")/lib.sh"

[ -x "$W/kvm_guest" ] || { skip "workload kvm_guest not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }

# bad input first: these need no KVM
"$PP" kvm-exit -e sched:sched_switch -- true >/dev/null 2>"$T/u1"
check_eq "kvm-exit -e: status 2" $? 2
"$PP" kvm-exit --than 5xs -- true >/dev/null 2>"$T/u2"
check_eq "bad --than: status 2" $? 2
check "bad --than: names it" grep -q -- '--than' "$T/u2"

if [ ! -d /sys/kernel/tracing/events/kvm/kvm_exit ]; then
	skip "no kvm:kvm_exit tracepoint (kvm not loaded)"
elif [ ! -c /dev/kvm ]; then
	skip "no /dev/kvm"
elif ! grep -qw -m1 'vmx\|svm' /proc/cpuinfo; then
	skip "no vmx/svm in /proc/cpuinfo: KVM here emulates the guest and kvm:kvm_exit never fires"
else
	attach "$T/a" "kvm-exit -p PID" kvm_guest 500
	if grep -q '^nokvm' "$T/a.wl"; then
		skip "the tiny guest cannot run: $(cat "$T/a.wl")"
	else
		row() { awk -v k="$2" -v n="$3" '$1 == k && $2 ~ /^[0-9]+$/ { print $n; exit }' "$1"; }
		check_eq "exit status" "$(cat "$T/a.rc")" 0
		check "the guest ran its 500 turns" grep -q 'io=500 hlt=500 done' "$T/a.wl"
		check_eq "IO_INSTRUCTION exits" "$(row "$T/a" IO_INSTRUCTION 2)" 500
		check_eq "HLT exits" "$(row "$T/a" HLT 2)" 500
		check_eq "real mode is not a 64-bit guest kernel" "$(row "$T/a" IO_INSTRUCTION 10)" 0
	fi
fi

done_tests
