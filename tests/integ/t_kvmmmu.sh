#!/bin/bash
# kvmmmu: KVM's shadow pages from the kvmmmu tracepoints.  Ground truth: the
# kvm_guest workload builds a VM; the kvm_mmu_get_page records perf-prof
# trace sees of it are what kvmmmu counts (CREATED = the records with
# created=1, --records one line per record, --detail one per live page).  Here KVM emulates (no vmx/svm):
# the guest runs and kvmmmu:kvm_mmu_get_page fires while the VM is built,
# nothing after; check says kvmmmu degraded.  The per-role counts, zaps,
# live pages, --spte and --mmio are tested on injected records (test_kvmmmu).
. "$(dirname "$0")/lib.sh"

[ -x "$W/kvm_guest" ] || { echo "build the workloads first (make workloads)"; exit 1; }
TR=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)

# bad input
"$PP" kvmmmu -G -- true >/dev/null 2>"$T/e"
check_eq "kvmmmu -G: status 2" $? 2
check_eq "kvmmmu -G: one line saying why" "$(cat "$T/e")" "perf-prof kvmmmu: tracepoints fire in the host's kernel: -G/--exclude-host leaves nothing"
"$PP" kvmmmu --spte=3 -- true >/dev/null 2>"$T/e"
check_eq "kvmmmu --spte=3: status 2" $? 2

if [ -z "$TR" ] || [ ! -d "$TR/events/kvmmmu/kvm_mmu_get_page" ]; then
	"$PP" kvmmmu -- true >/dev/null 2>"$T/e"
	check_eq "kvmmmu without kvmmmu tracepoints: status 1" $? 1
	check_eq "kvmmmu without kvmmmu tracepoints: one line" "$(wc -l <"$T/e")" 1
	skip "kvmmmu live: no kvmmmu tracepoints (kvm module not loaded?)"
	done_tests
	exit
fi

# check: degraded without vmx/svm (KVM emulates), ok with
"$PP" check >"$T/check" 2>&1
v=$(sed -n '/^Profilers:/,/^$/p' "$T/check" | awk '$1 == "kvmmmu" { $1 = ""; print substr($0, 2) }')
if grep -m1 '^flags' /proc/cpuinfo | grep -qwE 'vmx|svm'; then
	check_eq "check: kvmmmu ok (vmx/svm)" "$v" ok
else
	check_eq "check: kvmmmu degraded, and why" "$v" "degraded (kvmmmu:* fire only while a VM is built: no vmx or svm in /proc/cpuinfo, KVM emulates the guest)"
fi

"$W/kvm_guest" 1 >"$T/probe" 2>&1
if [ $? -ne 0 ]; then
	skip "kvmmmu live: kvm_guest cannot build a VM here ($(head -1 "$T/probe"))"
	done_tests
	exit
fi
"$PP" trace -e kvmmmu:kvm_mmu_get_page -- "$W/kvm_guest" 100 >"$T/trace" 2>&1
want=$(grep -c ' created=1$' "$T/trace")
if [ "$want" -eq 0 ]; then
	skip "kvmmmu live: building a VM makes no shadow page here (the TDP MMU's pages fire no kvm_mmu_get_page)"
	done_tests
	exit
fi
"$PP" kvmmmu --records --detail -- "$W/kvm_guest" 100 >"$T/out" 2>"$T/err"
check_eq "kvmmmu: status 0" $? 0
check_eq "kvmmmu: nothing on stderr" "$(cat "$T/err")" ""
got=$(awk '/^LEVEL +ROLE/ { t = 1; next } t && NF >= 5 { s += $(NF - 3) } END { print s + 0 }' "$T/out")
check_eq "kvmmmu: CREATED = trace's created=1 records ($want)" "$got" "$want"
check_eq "kvmmmu --records: a line per new page" "$(grep -c ' get_page .* new$' "$T/out")" "$want"
# --detail: the live pages (none zapped while the VM is built and run here: all of them)
live=$(awk '/^LEVEL +ROLE/ { t = 1; next } t && NF >= 5 { s += $NF } END { print s + 0 }' "$T/out")
check_eq "kvmmmu --detail: a line per live page ($live)" "$(grep -cE '^ *sp[1-5] 0x[0-9a-f]{8}-0x[0-9a-f]{8} role 0x' "$T/out")" "$live"
check "kvmmmu: the role words decoded (l<level> ... byte q<quadrant>)" grep -qE '^ +[1-5] +0x[0-9a-f]+ l[1-5] [48]-byte q[0-3]' "$T/out"
"$PP" kvmmmu --json -o "$T/json" -- "$W/kvm_guest" 100 >/dev/null 2>&1
check "kvmmmu --json: every line a kvmmmu_pages record" jq -e -s 'length > 0 and all(.[]; .type == "kvmmmu_pages")' "$T/json"
check_eq "kvmmmu --json: created adds up" "$(jq -s '[.[].created] | add' "$T/json")" "$want"
done_tests
