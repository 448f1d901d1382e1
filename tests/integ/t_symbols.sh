#!/usr/bin/env bash
# perf-prof --symbols BINARY (pprof --symbols protocol) against nm:
# link-time addresses, a stripped binary with a debug link, C++ names in
# pprof's short form, and runtime addresses with the process's maps.
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
command -v nm >/dev/null || { skip "nm not installed"; done_tests; exit; }

# Up to 40 function symbols "ADDR NAME" of $1 (nm -S: only sized ones),
# with the address in the middle of the function.  C names only: perf-prof
# prints C++ names demangled in pprof's short form (t_pprof checks those),
# nm mangled (an ASan build links the sanitizers' C++ runtime).
pick() {
	nm -S --defined-only "$1" |
		awk 'NF == 4 && $3 ~ /^[TtWw]$/ && $4 !~ /^_Z/ { print $1, $2, $4 }' |
		sort -u -k1,1 >"$T/sized"
	awk -v step=$(($(wc -l <"$T/sized") / 40 + 1)) 'NR % step == 0' "$T/sized" |
		while read -r a s n; do
			[ $((0x$s)) -ge 2 ] && printf '%x %s\n' $((0x$a + 0x$s / 2)) "$n"
		done
}
# Every name at the address of each of those (aliases are all fine).
names_at() { nm --defined-only "$1" | awk '{ print $1, $3 }'; }

# compare BINARY NM_SOURCE: --symbols BINARY on link-time addresses vs nm of NM_SOURCE
compare() {
	local bin=$1 src=$2 what=$3 bad=0 total=0 a n got
	pick "$src" >"$T/pick"
	[ -s "$T/pick" ] || { check "$what: nm lists functions" false; return; }
	awk '{ print "0x" $1 }' "$T/pick" | "$PP" --symbols "$bin" >"$T/out" 2>"$T/err"
	check_eq "$what: one line per address" "$(wc -l <"$T/out")" "$(wc -l <"$T/pick")"
	names_at "$src" >"$T/all"
	while read -r a n && read -r got <&3; do
		total=$((total + 1))
		# the function containing a: the nm symbol with the greatest start <= a
		if [ "$got" != "$n" ]; then
			local start
			start=$(awk -v n="$n" '$2 == n { print $1; exit }' "$T/all")
			if ! awk -v s="$start" -v g="$got" '$1 == s && $2 == g { f = 1 } END { exit !f }' "$T/all"; then
				bad=$((bad + 1)); echo "# $what: 0x$a: got '$got', nm says '$n'"
			fi
		fi
	done <"$T/pick" 3<"$T/out"
	check_eq "$what: $total addresses agree with nm" "$bad" 0
}

compare "$PP" "$PP" "perf-prof itself"
[ -x "$W/stk_stripped" ] && [ -f "$W/stk_stripped.debug" ] &&
	compare "$W/stk_stripped" "$W/stk_stripped.debug" "stripped + .gnu_debuglink"

# C++: pprof prints names without arguments and template parameters.
if [ -x "$W/stk_cxx" ]; then
	nm -C "$W/stk_cxx" | awk '$2 ~ /^[TtWw]$/' >"$T/cxx"
	run=$(grep -F 'ns::Outer<int>::run()' "$T/cxx" | awk '{ print $1 }')
	inner=$(grep -F 'ns::inner(int, char const*)' "$T/cxx" | awk '{ print $1 }')
	if [ -n "$run" ] && [ -n "$inner" ]; then
		printf '0x%x\n0x%x\n0x1\n' $((0x$run + 1)) $((0x$inner + 1)) |
			"$PP" --symbols "$W/stk_cxx" >"$T/out"
		check_eq "C++ short names, ?? for no symbol" "$(tr '\n' ' ' <"$T/out")" \
			"ns::Outer::run ns::inner ?? "
	else
		skip "stk_cxx symbols not as expected"
	fi
fi

# Runtime addresses of a live PIE process and its shared library, with its
# maps first: what the heap checker sends.
if [ -x "$W/stk_fp" ] && [ -f "$W/libstk.so" ]; then
	"$W/stk_fp" 1000000000 &
	pid=$!
	# its maps once the dynamic loader has mapped the library
	for _ in $(seq 300); do grep -q libstk.so "/proc/$pid/maps" 2>/dev/null && break; sleep 0.02; done
	cp "/proc/$pid/maps" "$T/maps"
	base_exe=$(awk -v f="$(readlink -f "$W/stk_fp")" '$6 == f && $3 == "00000000" { split($1, r, "-"); print r[1]; exit }' "$T/maps")
	base_lib=$(awk -v f="$(readlink -f "$W/libstk.so")" '$6 == f && $3 == "00000000" { split($1, r, "-"); print r[1]; exit }' "$T/maps")
	kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
	sa=$(nm "$W/stk_fp" | awk '$3 == "stk_a" { print $1 }')
	lb=$(nm "$W/libstk.so" | awk '$3 == "lib_b" { print $1 }')
	if [ -n "$base_exe" ] && [ -n "$base_lib" ] && [ -n "$sa" ] && [ -n "$lb" ]; then
		{ cat "$T/maps"
		  printf '0x%x\n' $((0x$base_exe + 0x$sa + 4)) $((0x$base_lib + 0x$lb + 4)) 
		  printf '0x%x\n' $((0x$base_exe + 0x$sa)); } | "$PP" --symbols "$W/stk_fp" >"$T/out"
		check_eq "maps + runtime addresses (PIE and shared library)" \
			"$(tr '\n' ' ' <"$T/out")" "stk_a lib_b stk_a "
	else
		check "stk_fp maps readable" false
	fi
fi
# A binary that cannot be read: an error of one line (t_errors.sh has the other kinds).
printf '0x1000\n0x2000\n' | "$PP" --symbols /nonexistent/bin >"$T/out" 2>"$T/err"
check_eq "missing binary: exit 1" $? 1
check_eq "missing binary: nothing on stdout" "$(wc -c <"$T/out")" 0
check_eq "missing binary: one line" "$(grep -c '^perf-prof --symbols: /nonexistent/bin: No such file or directory$' "$T/err")" 1
done_tests
