#!/bin/bash
# llcstat, tlbstat, ldlat-loads, ldlat-stores: the profilers of the CPU's
# PMU.  Without one (this VM: no /sys/bus/event_source/devices/cpu) each
# refuses in one line naming what is missing, with status 1, and check
# lists it unavailable with the reason; their arithmetic and output are
# tested on synthesized counter values and samples (test_missrate,
# test_ldlat).  With a PMU: llcstat and tlbstat count a workload that
# touches 20000 pages (accesses > 0, misses <= accesses, the ratio as
# printed), and --json's records parse.
. "$(dirname "$0")/lib.sh"

[ -x "$W/touch" ] || { echo "build the workloads first (make workloads)"; exit 1; }

"$PP" check >"$T/check" 2>&1
verdict() { sed -n '/^Profilers:/,/^$/p' "$T/check" | awk -v n="$1" '$1 == n { $1 = ""; print substr($0, 2) }'; }

# bad input, the same with or without a PMU
"$PP" llcstat --perins=x -- true >/dev/null 2>"$T/e"
check_eq "llcstat --perins=x: usage, status 2" $? 2
"$PP" tlbstat -G --exclude-guest -- true >/dev/null 2>"$T/e"
check_eq "tlbstat -G --exclude-guest: status 2" $? 2
check_eq "tlbstat -G --exclude-guest: one line" "$(wc -l <"$T/e")" 1

"$PP" ldlat-loads --ldlat 0 -- true >/dev/null 2>"$T/e"
check_eq "ldlat-loads --ldlat 0: status 2" $? 2
check_eq "ldlat-loads --ldlat 0: says the range" "$(cat "$T/e")" "perf-prof ldlat-loads: bad --ldlat '0' (1..65535)"
"$PP" ldlat-loads --ldlat 65536 -- true >/dev/null 2>&1
check_eq "ldlat-loads --ldlat 65536: status 2" $? 2
"$PP" ldlat-stores --ldlat 5 -- true >/dev/null 2>&1
check_eq "ldlat-stores --ldlat: no such option, status 2" $? 2
"$PP" ldlat-stores -T 0 -- true >/dev/null 2>&1
check_eq "ldlat-stores -T 0: status 2" $? 2

if [ ! -e /sys/bus/event_source/devices/cpu ]; then
	for p in ldlat-loads ldlat-stores; do
		"$PP" $p --than 100 -i 100 -- true >"$T/o" 2>"$T/e"
		check_eq "$p without a PMU: status 1" $? 1
		check_eq "$p without a PMU: one line" "$(wc -l <"$T/e")" 1
		check "$p without a PMU: says PEBS and the PMU are missing" \
			grep -q "^perf-prof $p: needs a hardware PMU with PEBS (Intel's .*), and this host has none (no /sys/bus/event_source/devices/cpu.*: memory access latency cannot be sampled$" "$T/e"
		check_eq "$p without a PMU: nothing on stdout" "$(wc -c <"$T/o")" 0
		check_eq "$p: check says unavailable" "$(verdict $p)" "unavailable (needs a hardware PMU)"
	done
	skip "ldlat-loads, ldlat-stores live: no hardware PMU here (sampling setup and report tested in test_ldlat)"
elif ! grep -q GenuineIntel /proc/cpuinfo || [ ! -e /sys/bus/event_source/devices/cpu/format/ldlat ]; then
	"$PP" ldlat-loads -- true >/dev/null 2>"$T/e"
	check_eq "ldlat-loads without Intel's load latency: status 1" $? 1
	check_eq "ldlat-loads without Intel's load latency: one line" "$(wc -l <"$T/e")" 1
	skip "ldlat-loads live: not an Intel CPU with the load latency facility"
else
	"$PP" ldlat-loads --ldlat 30 -T 100 -- "$W/touch" 20000 >"$T/ld" 2>"$T/e"
	check_eq "ldlat-loads: status 0" $? 0
	check "ldlat-loads: the data source table" grep -q '^DATA SOURCE  *calls  *total' "$T/ld"
fi

if [ ! -e /sys/bus/event_source/devices/cpu ]; then
	for p in llcstat tlbstat; do
		"$PP" $p -i 100 -- true >"$T/o" 2>"$T/e"
		check_eq "$p without a PMU: status 1" $? 1
		check_eq "$p without a PMU: one line" "$(wc -l <"$T/e")" 1
		check "$p without a PMU: says the PMU is missing" \
			grep -q "^perf-prof $p: needs a hardware PMU, and this host has none (no /sys/bus/event_source/devices/cpu" "$T/e"
		check_eq "$p without a PMU: nothing on stdout" "$(wc -c <"$T/o")" 0
		check_eq "$p: check says unavailable" "$(verdict $p)" "unavailable (needs a hardware PMU)"
	done
	check "llcstat: names what it cannot count" grep -q "the last-level cache's accesses and misses cannot be counted$" <("$PP" llcstat -- true 2>&1)
	check "tlbstat: names what it cannot count" grep -q "the dTLB's loads, stores and misses cannot be counted$" <("$PP" tlbstat -- true 2>&1)
	check "check: the PMU row names llcstat and tlbstat" grep -q "^  hardware PMU  *no .*unavailable: .*llcstat, tlbstat" "$T/check"
	skip "llcstat, tlbstat live counts: no hardware PMU here (counts tested in test_missrate)"
else
	check_eq "llcstat: check says ok" "$(verdict llcstat)" ""
	"$PP" llcstat --perins -- "$W/touch" 20000 >"$T/llc" 2>"$T/e"
	check_eq "llcstat: status 0" $? 0
	check_eq "llcstat: nothing on stderr" "$(wc -c <"$T/e")" 0
	check "llcstat: the table's header" grep -q '^WHO  *ACCESSES  *MISSES  *MISS%  *RUN%$' "$T/llc"
	# the total row: accesses > 0, misses <= accesses, MISS% = misses / accesses
	read -r acc mis pct < <(awk '$1 == "all" { gsub(",", "", $2); gsub(",", "", $3); sub("%", "", $4); print $2, $3, $4 }' "$T/llc" | tail -1)
	check "llcstat: accesses counted ($acc)" test "${acc:-0}" -gt 0
	check "llcstat: misses <= accesses ($mis)" test "${mis:-0}" -le "${acc:-0}"
	check "llcstat: MISS% as printed ($pct)" awk -v a="$acc" -v m="$mis" -v p="$pct" 'BEGIN { d = m * 100 / a - p; exit !(d < 0.01 && d > -0.01) }'
	"$PP" tlbstat --json -o "$T/tlb.json" -- "$W/touch" 20000 >/dev/null 2>&1
	check_eq "tlbstat --json: status 0" $? 0
	check "tlbstat --json: every line a missrate record" jq -e -s 'length > 0 and all(.[]; .type == "missrate")' "$T/tlb.json"
	check "tlbstat --json: loads counted" jq -e -s 'any(.[]; .scope == "run" and .loads > 0)' "$T/tlb.json"
fi
done_tests
