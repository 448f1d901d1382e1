#!/usr/bin/env bash
# perf-prof check: each host line against what this test measures itself
# (/proc/mounts, perf_event_paranoid, perf stat, sysfs PMUs, /proc/kallsyms,
# readelf and objdump on libc, bpftool, vmlinux BTF, the BPF sysctls, ...), also without
# CAP_BPF, as nobody and without BTF; every profiler exactly once, its verdict
# consistent with the host; the exit status; nothing left in tracefs.
. "$(dirname "$0")/lib.sh"

TR=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
dyn_state() { # check's probes in tracefs (perf_prof_PID/check; other suites may make others)
	[ -n "$TR" ] || return 0
	cat "$TR/kprobe_events" "$TR/uprobe_events" 2>/dev/null | grep '^[pr]:perf_prof_[0-9]*/check ' || true
	ls -d "$TR"/events/perf_prof_*/check 2>/dev/null || true
}
dyn_state >"$T/dyn.before"

"$PP" check >"$T/out" 2>"$T/err"
rc=$?
"$PP" check -v >"$T/outv" 2>/dev/null
"$PP" check --json >"$T/json" 2>/dev/null
rc_json=$?
cat "$T/out"

check_eq "nothing on stderr" "$(cat "$T/err")" ""
host() { # the line of host check NAME: "RESULT DETAIL"
	sed -n '/^Host:/,/^$/p' "$T/out" | awk -v n="$1" 'substr($0, 3, 20) ~ "^" n " *$" {
		print substr($0, 24) }'
}
result() { host "$1" | awk '{ print $1 }'; }

# tracefs: where /proc/mounts says
if [ -n "$TR" ]; then
	check_eq "tracefs: yes" "$(result tracefs)" yes
	check "tracefs: mounted at $TR" bash -c "[[ \"$(host tracefs)\" == *\" $TR (mounted;\"* ]]"
	# (other suites may add or remove a perf_prof_PID group meanwhile)
	nsys=$(find "$TR/events" -mindepth 1 -maxdepth 1 -type d | wc -l)
	got=$(host tracefs | sed -n 's/.*; \([0-9]*\) event systems readable)$/\1/p')
	check_range "tracefs: event systems" "${got:-0}" $((nsys - 5)) $((nsys + 5))
else
	check_eq "tracefs: no (not mounted)" "$(result tracefs)" no
fi

# permissions: root or not, perf_event_paranoid, system-wide cpu-clock as perf stat -a sees it
par=$(cat /proc/sys/kernel/perf_event_paranoid)
check "perf_event_paranoid $par" grep -q "perf_event_paranoid $par," <<<"$(host 'perf permissions')"
if [ "$(id -u)" = 0 ]; then
	check "root" grep -q '^yes *root,' <<<"$(host 'perf permissions')"
	check "root: CAP_PERFMON listed" grep -q 'CAP_PERFMON' <<<"$(host 'perf permissions')"
else
	check "uid" grep -q "uid $(id -u)," <<<"$(host 'perf permissions')"
fi
if command -v perf >/dev/null; then
	if perf stat -a -x, -e cpu-clock true >/dev/null 2>&1; then want=yes; else want=no; fi
	got=$(result 'perf permissions')
	check_eq "system-wide cpu-clock as perf stat -a" "$([ "$got" = yes ] && echo yes || echo no)" "$want"
fi

# hardware PMU: perf stat counting cycles, and the cpu PMU in sysfs
D=/sys/bus/event_source/devices
if [ -d $D/cpu ] || [ -d $D/cpu_core ] || ls -d $D/armv8_pmuv3* >/dev/null 2>&1; then pmu=yes; else pmu=no; fi
check_eq "hardware PMU: as sysfs" "$(result 'hardware PMU')" $pmu
if command -v perf >/dev/null; then
	if perf stat -x, -e cycles:u true 2>&1 | grep -q '^[0-9]'; then cyc=yes; else cyc=no; fi
	check_eq "hardware PMU: as perf stat -e cycles:u" "$(result 'hardware PMU')" $cyc
fi
[ $pmu = no ] && check "no PMU: perf_event_open cycles ENOENT" grep -q 'cycles: ENOENT' <<<"$(host 'hardware PMU')"

# kprobes, uprobes: the PMU (what perf-prof uses), else tracefs *_events (partial)
for k in kprobe uprobe; do
	if [ -d $D/$k ]; then want=yes; elif [ -n "$TR" ] && [ -e "$TR/${k}_events" ]; then want=partial; else want=no; fi
	check_eq "${k}s: as sysfs and tracefs" "$(result ${k}s)" $want
done
[ ! -d $D/kprobe ] && [ ! -e "$TR/kprobe_events" ] &&
	check "no kprobes: CONFIG_KPROBES named" grep -q 'CONFIG_KPROBES' <<<"$(host kprobes)"
[ -d $D/uprobe ] && check "uprobe PMU: opened on the binary" \
	grep -q "uprobe PMU: opened a uprobe on $(readlink -f "$PP")+0x" <<<"$(host uprobes)"
[ -n "$TR" ] && [ -w "$TR/uprobe_events" ] &&
	check "uprobe_events: made and removed" grep -q 'uprobe_events: made and removed one' <<<"$(host uprobes)"

# hardware breakpoints: the breakpoint PMU
if [ -d $D/breakpoint ]; then want=yes; else want=no; fi
check_eq "hw breakpoints: as sysfs" "$(result 'hw breakpoints')" $want

# BPF: bpftrace loads a program (its BEGIN probe is a uprobe; skip without either)
if command -v bpftrace >/dev/null && [ -d $D/uprobe ]; then
	if timeout 60 bpftrace -e 'BEGIN { exit(); }' >/dev/null 2>&1; then want=yes; else want=no; fi
	check_eq "BPF: as bpftrace" "$([ "$(result BPF)" = no ] && echo no || echo yes)" $want
else
	skip "BPF: no bpftrace (or no uprobes for its BEGIN) to compare with"
fi

# BPF, fact by fact (--json's members, and the text): each program type and per-CPU map
# as bpftool's probe finds it; tp_btf (bpftool 7.1 cannot probe it) when vmlinux BTF has the
# tracepoint's typedef btf_trace_sched_switch and raw tracepoints load; BTF's types as
# bpftool counts them; the JIT as its sysctl says
if command -v jq >/dev/null; then
	jq -c 'select(.type == "host" and .check == "BPF")' "$T/json" >"$T/bpf.json"
	bj() { jq -r "$1" "$T/bpf.json"; }
	check_eq "BPF: json result = text" "$(bj .result)" "$(result BPF)"
	check_eq "BPF: json detail = text" "$(bj .detail)" "$(host BPF | sed 's/^[a-z]* *//')"
	if command -v bpftool >/dev/null && [ "$(id -u)" = 0 ]; then
		bpftool feature probe kernel >"$T/bpffeat" 2>/dev/null
		avail() { grep -q "^eBPF $1 is available" "$T/bpffeat" && echo ok || echo no; }
		okno() { [ "$1" = ok ] && echo ok || echo no; }
		check_eq "BPF: tracepoint programs as bpftool" "$(okno "$(bj .programs.tracepoint)")" \
			"$(avail 'program_type tracepoint')"
		check_eq "BPF: raw_tp programs as bpftool" "$(okno "$(bj .programs.raw_tp)")" \
			"$(avail 'program_type raw_tracepoint')"
		check_eq "BPF: perf_event programs as bpftool" "$(okno "$(bj .programs.perf_event)")" \
			"$(avail 'program_type perf_event')"
		check_eq "BPF: per-CPU hash map as bpftool" "$(okno "$(bj .percpu_hash)")" \
			"$(avail 'map_type percpu_hash')"
		check_eq "BPF: per-CPU array map as bpftool" "$(okno "$(bj .percpu_array)")" \
			"$(avail 'map_type percpu_array')"
		want=no
		[ -r /sys/kernel/btf/vmlinux ] && [ "$(avail 'program_type raw_tracepoint')" = ok ] &&
			bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null |
			grep -q "TYPEDEF 'btf_trace_sched_switch'" && want=ok
		check_eq "BPF: tp_btf as vmlinux BTF has btf_trace_sched_switch" \
			"$(okno "$(bj .programs.tp_btf)")" $want
	else
		skip "BPF: program types (needs bpftool and root)"
	fi
	if [ -r /sys/kernel/btf/vmlinux ]; then
		check_eq "BPF: BTF loads" "$(bj .btf)" ok
		if command -v bpftool >/dev/null; then
			n=$(bpftool btf dump file /sys/kernel/btf/vmlinux | grep -c '^\[')
			check_eq "BPF: BTF types as bpftool counts them" "$(bj .btf_types)" "$n"
			check "BPF: text says BTF (vmlinux, $n types)" \
				grep -qF "; BTF (vmlinux, $n types)" <<<"$(host BPF)"
		fi
	else
		check "BPF: no vmlinux BTF" grep -q '; no BTF (/sys/kernel/btf/vmlinux' <<<"$(host BPF)"
	fi
	jit=$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null || echo null)
	check_eq "BPF: jit as net.core.bpf_jit_enable" "$(bj .jit)" "$jit"
	case $jit in
	null) check "BPF: no JIT said" grep -q '; no JIT\|; JIT: ' <<<"$(host BPF)" ;;
	0) check "BPF: JIT off said" grep -q '; JIT off (net.core.bpf_jit_enable=0' <<<"$(host BPF)" ;;
	*) check "BPF: JIT on said" grep -q '; JIT on' <<<"$(host BPF)" ;;
	esac
	check_eq "BPF: unprivileged_bpf_disabled as its sysctl" "$(bj .unprivileged_bpf_disabled)" \
		"$(cat /proc/sys/kernel/unprivileged_bpf_disabled 2>/dev/null || echo null)"
	# yes: all of it; no: tracepoint programs do not load (and why); partial otherwise
	all=$(bj '[.programs.tracepoint, .programs.raw_tp, .programs.tp_btf, .programs.perf_event,
		.percpu_hash, .percpu_array, .btf] | all(. == "ok")')
	if [ "$(bj .programs.tracepoint)" != ok ]; then
		want=no
	elif [ "$all" = true ] && [ "$jit" != null ] && [ "$jit" -gt 0 ]; then
		want=yes
	else
		want=partial
	fi
	check_eq "BPF: $want from its facts" "$(result BPF)" $want
	if [ $want = no ]; then
		check "BPF: no: why said" test -n "$(bj .why)"
	else
		check_eq "BPF: nothing missing" "$(bj .why)" ""
		loaded=$(bj '[.programs | to_entries[] | select(.key != "socket_filter" and .value == "ok")
			| .key] | join(", ")')
		check "BPF: text lists $loaded" grep -qE "^(yes|partial) +$loaded programs? loads?" <<<"$(host BPF)"
	fi
else
	skip "BPF facts: no jq"
fi

# without vmlinux BTF (an empty file bound over it in a mount namespace of its own, gone
# with it): partial, tp_btf does not load, BTF named, nothing on stderr (libbpf silenced)
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && [ -r /sys/kernel/btf/vmlinux ] &&
	[ "$(result BPF)" = yes ]; then
	unshare -m sh -c 'mount --make-rprivate / && mount --bind /dev/null /sys/kernel/btf/vmlinux &&
		exec "$0" check' "$PP" >"$T/nobtf" 2>"$T/nobtf.err"
	check_eq "no BTF: nothing on stderr" "$(cat "$T/nobtf.err")" ""
	check "no BTF: partial, tp_btf does not load, BTF named" grep -qE \
		'^  BPF +partial +tracepoint, raw_tp, perf_event programs load, tp_btf: [A-Z0-9]+ \(no BTF\); .*; no BTF \(/sys/kernel/btf/vmlinux: ' "$T/nobtf"
	check_eq "no BTF: the host's still there" "$(wc -c </sys/kernel/btf/vmlinux)" "$(stat -c %s /sys/kernel/btf/vmlinux)"
else
	skip "no BTF: needs root, unshare, vmlinux BTF and BPF yes"
fi

# BPF back end: the profilers that take --no-bpf (-h lists their options), in -h's order;
# those that take it for their sample filters only (profile, hrtimer: oncpu has the filters
# too, for its slices summed in the kernel) after, then those that read at each sample
# (breakpoint: the values at its hits)
for p in $("$PP" -h | sed -n '/^Profilers:/,/^$/p' | awk 'NF && !/:$/ { print $1 }'); do
	"$PP" "$p" -h >"$T/ph" 2>/dev/null
	grep -q -- '--no-bpf' "$T/ph" || continue
	case $p in profile | hrtimer) echo "$p" >>"$T/sfprof" ;; breakpoint) echo "$p" >>"$T/rdprof" ;; *) echo "$p" ;; esac
done >"$T/bpfprof"
sfnames=$(paste -sd, "$T/sfprof" 2>/dev/null | sed 's/,/, /g')
rdnames=$(paste -sd, "$T/rdprof" 2>/dev/null | sed 's/,/, /g')
bpfnames=$(paste -sd, "$T/bpfprof" | sed 's/,/, /g')
if [ ! -s "$T/bpfprof" ]; then
	check_eq "BPF back end: none" "$(result 'BPF back end')" none
elif [ "$(result BPF)" = no ]; then
	check_eq "BPF back end: no (BPF no)" "$(result 'BPF back end')" no
	check "BPF back end: $bpfnames on the ring path" \
		grep -qF " - the ring path: $bpfnames" <<<"$(host 'BPF back end')"
else
	check_eq "BPF back end: yes" "$(result 'BPF back end')" yes
	check "BPF back end: $bpfnames" grep -qE "^yes +$bpfnames \(by default; the ring path: --no-bpf\)${sfnames:+; sample filters: $sfnames}${rdnames:+; reads at each sample: $rdnames}$" \
		<<<"$(host 'BPF back end')"
fi
if command -v jq >/dev/null; then
	check_eq "BPF back end: json profilers" \
		"$(jq -r 'select(.check == "BPF back end") | .profilers | join(", ")' "$T/json")" "$bpfnames"
	[ "$(result BPF)" = no ] && want= || want=$bpfnames
	check_eq "BPF back end: json backend bpf exactly for them" \
		"$(jq -r 'select(.type == "profiler" and .backend == "bpf") | .name' "$T/json" | paste -sd, | sed 's/,/, /g')" \
		"$want"
fi

# KVM: /dev/kvm opens; without vmx/svm in the CPU's flags KVM emulates and
# no VM exit happens (kvm:kvm_exit never fires): partial, kvm-exit degraded
hwvirt=no
grep -m1 '^flags' /proc/cpuinfo | grep -qwE 'vmx|svm' && hwvirt=yes
grep -q '^flags' /proc/cpuinfo || hwvirt=yes # no flags line: not known missing
if [ -c /dev/kvm ] && { exec 3<>/dev/kvm; } 2>/dev/null; then
	exec 3>&-
	[ $hwvirt = yes ] && want=yes || want=partial
else
	want=no
fi
check_eq "KVM: /dev/kvm (vmx/svm: $hwvirt)" "$(result KVM)" $want
if [ $want = partial ]; then
	check "KVM partial: says why" grep -q "but no vmx or svm in /proc/cpuinfo's flags.*: KVM emulates the guest, no VM exit happens: kvm:kvm_exit never fires, kvmmmu:\* only while a VM is built" <<<"$(host KVM)"
	check "KVM partial: names kvm-exit degraded" grep -q -- "- degraded: .*kvm-exit" <<<"$(host KVM)"
fi

# schedstats: the sysctl
if [ -e /proc/sys/kernel/sched_schedstats ]; then
	[ "$(cat /proc/sys/kernel/sched_schedstats)" = 1 ] && want=yes || want=no
	check_eq "schedstats: the sysctl" "$(result schedstats)" $want
else
	check_eq "schedstats: no sysctl" "$(result schedstats)" no
	check "schedstats: CONFIG_SCHEDSTATS named" grep -q CONFIG_SCHEDSTATS <<<"$(host schedstats)"
fi

# kallsyms: a non-zero address among the first lines, the number of symbols
first=$(awk '$1 !~ /^0+$/ { print $1; exit }' /proc/kallsyms)
if [ -n "$first" ]; then
	check_eq "kallsyms: real addresses" "$(result kallsyms)" yes
	check "kallsyms: first address $first" grep -q "(first ${first#"${first%%[!0]*}"})" <<<"$(host kallsyms)"
	n=$(wc -l </proc/kallsyms)
	got=$(host kallsyms | sed -n 's/^yes *\([0-9]*\) symbols.*/\1/p')
	check_range "kallsyms: symbols" "${got:-0}" $((n - 500)) $((n + 500))
else
	check_eq "kallsyms: addresses hidden" "$(result kallsyms)" no
fi

# libc: its build-id's debug file; frame-pointer prologues counted by objdump
libc=$(ldd "$PP" | awk '/libc\.so/ { print $3; exit }')
libc=$(readlink -f "$libc")
bid=$(readelf -n "$libc" | awk '/Build ID/ { print $3 }')
dbg=/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug
if [ -n "$bid" ] && [ -e "$dbg" ]; then
	check_eq "libc debug file: present" "$(result 'libc debug file')" yes
	check "libc debug file: $dbg" grep -qF "$dbg" <<<"$(host 'libc debug file')"
else
	check_eq "libc debug file: none" "$(result 'libc debug file')" no
fi
if [ "$(uname -m)" = x86_64 ] && command -v objdump >/dev/null; then
	readelf -W --dyn-syms "$libc" |
		awk '$4 == "FUNC" && $3 != "0" && $7 != "UND" { a = $2; sub(/^0+/, "", a); print a }' |
		sort -u >"$T/funcs"
	nf=$(wc -l <"$T/funcs")
	# a function whose first instructions are [endbr64;] push %rbp; mov %rsp,%rbp
	nfp=$(objdump -d "$libc" | awk -v F="$T/funcs" '
		BEGIN { while ((getline l < F) > 0) f[l] = 1 }
		/^ *[0-9a-f]+:\t/ {
			split($0, p, "\t"); a = p[1]; sub(/^ */, "", a); sub(/:$/, "", a)
			b = p[2]; sub(/ *$/, "", b)
			n++; A[n % 4] = a; B[n % 4] = b
			if (n >= 2 && (A[(n - 1) % 4] in f) && B[(n - 1) % 4] == "55" && b == "48 89 e5") fp++
			if (n >= 3 && (A[(n - 2) % 4] in f) && B[(n - 2) % 4] == "f3 0f 1e fa" &&
			    B[(n - 1) % 4] == "55" && b == "48 89 e5") fp++
		}
		END { print fp + 0 }')
	check "libc frame pointers: $nfp of $nf functions (objdump)" \
		grep -q "^[a-z]* *$nfp of the $nf functions of $libc begin with" <<<"$(host 'libc frame pointers')"
	[ $((2 * nfp)) -gt "$nf" ] && want=yes || want=no
	check_eq "libc frame pointers: $want" "$(result 'libc frame pointers')" $want
else
	skip "libc frame pointers: needs x86-64 and objdump"
fi

# tracepoints: each one -v names opens exactly when tracefs has it
sed -n '/^  tracepoints /,/^$/p' "$T/outv" | awk 'NR > 1 && NF == 2 { print $1, $2 }' >"$T/tps"
check "tracepoints: -v lists them" test -s "$T/tps"
bad=0
while read -r tp res; do
	if [ -d "$TR/events/${tp%%:*}/${tp#*:}" ]; then want=opened; else want=ENOENT; fi
	[ "$res" = "$want" ] || { echo "# $tp: $res, tracefs says $want"; bad=1; }
done <"$T/tps"
check_eq "tracepoints: opened = present in tracefs" $bad 0
ntp=$(wc -l <"$T/tps")
nok=$(grep -c ' opened$' "$T/tps")
check "tracepoints: $nok of the $ntp" grep -q "$nok of the $ntp the profilers name" <<<"$(host tracepoints)"

# profilers: each exactly once, as -h lists them, and the commands that need something of the
# host (usdt: tracefs uprobe events)
{
	"$PP" -h | sed -n '/^Profilers:/,/^$/p' | awk 'NF && !/:$/ { print $1 }'
	echo usdt
} | sort >"$T/names.h"
sed -n '/^Profilers:/,/^$/p' "$T/out" | awk 'NF && !/:$/ { print $1 }' | sort >"$T/names"
check_eq "every profiler once" "$(cat "$T/names")" "$(cat "$T/names.h")"
check "28 or more profilers" test "$(wc -l <"$T/names")" -ge 28
verdict() { sed -n '/^Profilers:/,/^$/p' "$T/out" | awk -v n="$1" '$1 == n { print $2 }'; }
why() { sed -n '/^Profilers:/,/^$/p' "$T/out" | awk -v n="$1" '$1 == n { $1 = $2 = ""; print }'; }
check "verdicts are ok/degraded/unavailable" bash -c "! sed -n '/^Profilers:/,/^\$/p' '$T/out' |
	awk 'NF && !/:\$/ { print \$2 }' | grep -vqxE 'ok|degraded|unavailable'"

# verdicts follow the host
if [ "$(result 'perf permissions')" = yes ]; then
	if [ $pmu = no ]; then
		check_eq "no PMU: hwstat unavailable" "$(verdict hwstat)" unavailable
		check "no PMU: hwstat needs a hardware PMU" grep -q '(needs a hardware PMU)' <<<"$(why hwstat)"
		check_eq "no PMU: split-lock unavailable" "$(verdict split-lock)" unavailable
		check_eq "no PMU: profile degraded" "$(verdict profile)" degraded
		check "no PMU: profile uses cpu-clock" grep -q '(uses cpu-clock: no PMU)' <<<"$(why profile)"
	else
		check_eq "PMU: hwstat ok" "$(verdict hwstat)" ok
		check_eq "PMU: profile ok" "$(verdict profile)" ok
	fi
	if [ -n "$TR" ]; then
		check_eq "tracefs: trace ok" "$(verdict trace)" ok
		if [ -d "$TR/events/kvm/kvm_exit" ] && [ -d "$TR/events/kvm/kvm_entry" ]; then
			[ $hwvirt = yes ] && want=ok || want=degraded
		else
			want=unavailable
		fi
		check_eq "kvm-exit: $want as tracefs has kvm_exit/kvm_entry, vmx/svm: $hwvirt" "$(verdict kvm-exit)" $want
		if [ $want = degraded ]; then
			check_eq "kvm-exit degraded: why" "$(why kvm-exit | sed 's/^ *//')" \
				"(kvm:kvm_exit never fires: no vmx or svm in /proc/cpuinfo, KVM emulates the guest)"
		fi
		check_eq "task-state ok (sched tracepoints)" "$(verdict task-state)" ok
	fi
	check_eq "page-faults ok (a software event)" "$(verdict page-faults)" ok
	if [ ! -d $D/kprobe ] && [ -d $D/breakpoint ]; then
		check_eq "no kprobes: breakpoint degraded" "$(verdict breakpoint)" degraded
	fi
fi

# exit status: 1 exactly when a profiler is unavailable
if grep -q ' unavailable (' "$T/out"; then want=1; else want=0; fi
check_eq "exit status" $rc $want
n_un=$(sed -n '/^Profilers:/,/^$/p' "$T/out" | grep -c ' unavailable (')
check "summary line" grep -qE "^[0-9]+ ok, [0-9]+ degraded, $n_un unavailable$" "$T/out"

# --json: every line parses, the same verdicts, the same exit status
if command -v jq >/dev/null; then
	check "json: every line parses" jq -e . "$T/json" >/dev/null
	jq -r 'select(.type == "profiler") | "\(.name) \(.status)"' "$T/json" | sort >"$T/jv"
	sed -n '/^Profilers:/,/^$/p' "$T/out" | awk 'NF && !/:$/ { print $1, $2 }' | sort >"$T/tv"
	check_eq "json: the same verdicts" "$(cat "$T/jv")" "$(cat "$T/tv")"
	check_eq "json: host results" "$(jq -r 'select(.type == "host") | .result' "$T/json" | tr '\n' ' ')" \
		"$(sed -n '/^Host:/,/^$/p' "$T/out" | awk 'NF > 1 { print substr($0, 24) }' | awk '{ print $1 }' | tr '\n' ' ')"
	check_eq "json: summary" "$(jq -r 'select(.type == "summary") | .unavailable' "$T/json")" "$n_un"
	check_eq "json: exit status" $rc_json $rc
else
	skip "json: no jq"
fi

# -v: each profiler's needs
check "-v: needs of task-state" grep -q 'needs: tp:sched:sched_switch tp:sched:sched_wakeup cpu-wide' "$T/outv"
check "-v: page-faults needs perf_event_open only" grep -q 'needs: perf_event_open only' "$T/outv"

# nothing left behind in tracefs (kprobe/uprobe events, perf_prof_PID groups)
dyn_state >"$T/dyn.after"
check_eq "no dynamic event left" "$(diff "$T/dyn.before" "$T/dyn.after")" ""

# root without CAP_BPF and CAP_SYS_ADMIN (dropped from the bounding set): BPF no, naming
# CAP_BPF; the profilers with the BPF back end degraded to the ring path, none unavailable
# for it: the exit status is what the other profilers make it (degraded does not count)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && [ "$(result BPF)" != no ] &&
	setpriv --inh-caps=-bpf,-sys_admin --bounding-set=-bpf,-sys_admin true 2>/dev/null; then
	setpriv --inh-caps=-bpf,-sys_admin --bounding-set=-bpf,-sys_admin "$PP" check \
		>"$T/nobpf" 2>"$T/nobpf.err"
	rc_nobpf=$?
	nb() { sed -n '/^Host:/,/^$/p' "$T/nobpf" | awk -v n="$1" 'substr($0, 3, 20) ~ "^" n " *$" {
		print substr($0, 24) }'; }
	check_eq "no CAP_BPF: nothing on stderr" "$(cat "$T/nobpf.err")" ""
	check "no CAP_BPF: BPF no, CAP_BPF named" grep -qE '^no +bpf\(2\) not permitted: no CAP_BPF \(needs CAP_BPF and CAP_PERFMON, or root\)' <<<"$(nb BPF)"
	check "no CAP_BPF: perf permissions without CAP_BPF" bash -c "! grep -q CAP_BPF <<<'$(nb 'perf permissions')'"
	for p in $(cat "$T/bpfprof"); do
		check "no CAP_BPF: $p on the ring path" grep -qE "^  $p +(degraded \((.*; )?uses the ring path: no BPF|unavailable)" \
			<(sed -n '/^Profilers:/,/^$/p' "$T/nobpf")
	done
	for p in $(cat "$T/rdprof" 2>/dev/null); do
		check "no CAP_BPF: $p degraded, without values" grep -qE "^  $p +degraded \((.*; )?no values at the hits \(value \?\): no BPF" \
			<(sed -n '/^Profilers:/,/^$/p' "$T/nobpf")
	done
	if [ -s "$T/bpfprof" ]; then
		check "no CAP_BPF: BPF back end unavailable here" \
			grep -qE "^no +unavailable here: bpf\(2\) not permitted: no CAP_BPF .* - the ring path: $bpfnames${sfnames:+; sample filters: $sfnames}${rdnames:+; reads at each sample: $rdnames}$" <<<"$(nb 'BPF back end')"
	fi
	check "no CAP_BPF: no profiler unavailable for BPF" \
		bash -c "! grep -E ' unavailable \(.*BPF' '$T/nobpf'"
	if grep -q ' unavailable (' "$T/nobpf"; then want=1; else want=0; fi
	check_eq "no CAP_BPF: exit status $want" $rc_nobpf $want
	[ $rc = 0 ] && check_eq "no CAP_BPF: exit 0 as with it" $rc_nobpf 0
	# at run time, the same words: --bpf one line and status 2; without it, the ring path (-v)
	if grep -qx top "$T/bpfprof"; then
		nocap=(setpriv --inh-caps=-bpf,-sys_admin --bounding-set=-bpf,-sys_admin)
		"${nocap[@]}" "$PP" top --bpf -e raw_syscalls:sys_enter -k common_pid -- true \
			>/dev/null 2>"$T/topbpf.err"
		check_eq "no CAP_BPF: top --bpf: exit 2" $? 2
		check_eq "no CAP_BPF: top --bpf: one line naming CAP_BPF" "$(cat "$T/topbpf.err")" \
			"perf-prof top: --bpf: $(nb BPF | sed -n 's/^no *\(bpf(2) not permitted: [^;]*\(; kernel[^;]*\)\?\);.*/\1/p')"
		"${nocap[@]}" "$PP" top -v -e raw_syscalls:sys_enter -k common_pid -- true \
			>/dev/null 2>"$T/topring.err"
		check_eq "no CAP_BPF: top runs (the ring path)" $? 0
		check "no CAP_BPF: top -v says the ring path and why" \
			grep -q '^perf-prof top: the ring path: bpf(2) not permitted: no CAP_BPF ' "$T/topring.err"
	fi
else
	skip "no CAP_BPF: not root, no setpriv, or no BPF here"
fi

# an unprivileged user: the profilers count the kernel too, which perf_event_paranoid
# >= 2 refuses (1: own threads, 0 or -1: system-wide too); tracefs is root's
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all test -x "$PP"; then
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$PP" check >"$T/user" 2>&1
	rc_user=$?
	got=$(sed -n '/^Host:/,/^$/p' "$T/user" | awk 'substr($0, 3, 20) ~ /^perf permissions *$/ {
		print substr($0, 24) }')
	if [ "$par" -ge 2 ]; then want=no; elif [ "$par" = 1 ]; then want=partial; else want=yes; fi
	check_eq "nobody: perf permissions (perf_event_paranoid $par)" "$(awk '{ print $1 }' <<<"$got")" $want
	check "nobody: uid 65534" grep -q 'uid 65534, ' <<<"$got"
	# BPF: both capabilities missing; with CAP_PERFMON (ambient), CAP_BPF alone
	ub=$(sed -n '/^Host:/,/^$/p' "$T/user" | awk 'substr($0, 3, 20) ~ /^BPF *$/ { print substr($0, 24) }')
	ubd=$(cat /proc/sys/kernel/unprivileged_bpf_disabled 2>/dev/null || echo 0)
	check "nobody: BPF no, CAP_BPF and CAP_PERFMON named" grep -qE \
		'^no +bpf\(2\) not permitted: no CAP_BPF, no CAP_PERFMON \(needs CAP_BPF and CAP_PERFMON, or root\)' <<<"$ub"
	if [ "$ubd" -gt 0 ]; then
		check "nobody: unprivileged_bpf_disabled=$ubd said" grep -qF "; kernel.unprivileged_bpf_disabled=$ubd;" <<<"$ub"
	fi
	if setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all,+perfmon \
		--ambient-caps=+perfmon true 2>/dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all,+perfmon \
			--ambient-caps=+perfmon "$PP" check >"$T/userpm" 2>&1
		check "nobody with CAP_PERFMON: BPF says CAP_BPF only" grep -qE \
			'^  BPF +no +bpf\(2\) not permitted: no CAP_BPF \(needs CAP_BPF and CAP_PERFMON, or root\)' "$T/userpm"
		check "nobody with CAP_PERFMON: perf permissions list it" \
			grep -qE '^  perf permissions +yes +uid 65534, .*CAP_PERFMON' "$T/userpm"
	else
		skip "nobody with CAP_PERFMON: no ambient capabilities"
	fi
	if [ $want = no ]; then
		check_eq "nobody: every profiler unavailable" \
			"$(sed -n '/^Profilers:/,/^$/p' "$T/user" | grep -c ' unavailable (needs perf_event_open (EACCES')" \
			"$(wc -l <"$T/names")"
		check_eq "nobody: exit 1" $rc_user 1
	fi
	if [ -n "$TR" ] && ! setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		ls "$TR/events" >/dev/null 2>&1; then
		check "nobody: tracefs events not readable" grep -q '^  tracefs  *no .*EACCES' "$T/user"
	fi
else
	skip "nobody: not root, no setpriv, or the binary is not reachable by nobody"
fi

# arguments are an error
"$PP" check extra >/dev/null 2>"$T/err2"
check_eq "an argument: exit 2" $? 2
check "an argument: one line" grep -q 'takes no arguments' "$T/err2"

done_tests
