#!/usr/bin/env bash
# perf-prof --symbols as PPROF_PATH for gperftools' heap checker (the seed's
# 5.4): LD_PRELOAD=libtcmalloc.so HEAPCHECK=... PPROF_PATH=perf-prof PROG.
# leaky leaks 10 x 4096 bytes from main -> leak_outer -> leak_inner; the
# leak report must name those frames, at addresses that agree with nm.
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -x "$W/leaky" ] || { skip "no $W/leaky (make workloads)"; done_tests; exit; }
command -v nm >/dev/null || { skip "nm not installed"; done_tests; exit; }
TC=$(ldconfig -p 2>/dev/null | awk '$1 == "libtcmalloc.so.4" && /x86-64|x86_64/ { print $NF; exit }')
for f in /usr/lib/x86_64-linux-gnu/libtcmalloc.so.4 /usr/lib64/libtcmalloc.so.4 /lib64/libtcmalloc.so; do
	[ -n "$TC" ] && break
	[ -f "$f" ] && TC=$f
done
[ -n "$TC" ] || { skip "libtcmalloc not installed (Debian: libgoogle-perftools4)"; done_tests; exit; }

# heapcheck MODE PPROF_PATH OUT: the heap checker's report on stderr
heapcheck() {
	LD_PRELOAD=$TC HEAPCHECK=$1 PPROF_PATH=$2 "$W/leaky" 2>"$3"
}

# frames OUT BYTES OBJECTS: "ADDR NAME" of each frame of that leak
frames() {
	awk -v h="Leak of $2 bytes in $3 objects allocated from:" '
		$0 == h { on = 1; next }
		on && /^\t@ / { print $2, $3; next }
		{ on = 0 }' "$1"
}

# Names and runtime addresses against nm: all frames in leaky itself share
# one page-aligned load base and each address lies inside the named function.
nm -S --defined-only "$W/leaky" | awk 'NF == 4 { print $4, $1, $2 }' >"$T/nm"
agree_with_nm() {
	local base="" a n start size bad=0
	while read -r a n; do
		read -r start size < <(awk -v n="$n" '$1 == n { print $2, $3; exit }' "$T/nm")
		[ -n "$start" ] || continue
		[ -n "$base" ] || base=$(((0x$a - 0x$start) & ~0xfff))
		if (((0x$a - base) <= 0x$start || (0x$a - base) > 0x$start + 0x$size)); then
			echo "# 0x$a is not in $n (base $(printf %x $base))"
			bad=$((bad + 1))
		fi
	done <"$1"
	[ -n "$base" ] && [ "$bad" -eq 0 ]
}

heapcheck normal "$PP" "$T/normal"
check_eq "HEAPCHECK=normal: exit status 1 for a leak" "$?" 1
check "whole-program leak total" grep -qx "Leak check _main_ detected leaks of 40960 bytes in 10 objects" "$T/normal"
check_eq "one leak report, the 10 x 4096 bytes" "$(grep '^Leak of' "$T/normal")" \
	"Leak of 40960 bytes in 10 objects allocated from:"
frames "$T/normal" 40960 10 >"$T/f"
check_eq "leak stack names (perf-prof as PPROF_PATH)" \
	"$(head -3 "$T/f" | awk '{ print $2 }' | tr '\n' ' ')" "leak_inner leak_outer main "
head -3 "$T/f" >"$T/f3"
check "leak frame addresses lie in those functions (nm)" agree_with_nm "$T/f3"
check "no ?? for frames in leaky" bash -c "! grep -q '^[0-9a-f]* ??\$' '$T/f3'"

# draconian: the block kept in a global is reported too (its own stack).
heapcheck draconian "$PP" "$T/drac"
frames "$T/drac" 40960 10 | awk '{ print $2 }' | head -3 | tr '\n' ' ' >"$T/d1"
check_eq "HEAPCHECK=draconian: leak stack" "$(cat "$T/d1")" "leak_inner leak_outer main "
frames "$T/drac" 1000 1 >"$T/f"
check_eq "draconian: reachable 1000-byte block from keep_outer" \
	"$(head -2 "$T/f" | awk '{ print $2 }' | tr '\n' ' ')" "keep_outer main "
head -2 "$T/f" >"$T/f2"
check "keep_outer frame addresses (nm)" agree_with_nm "$T/f2"
check "draconian: freed block not reported" bash -c "! grep -q freed_block '$T/drac'"

# Control: without a symbolizer the frames have addresses only.
heapcheck normal /bin/false "$T/none"
check_eq "control: PPROF_PATH=/bin/false leaves frames unnamed" \
	"$(frames "$T/none" 40960 10 | awk 'NF > 1' | wc -l)" 0

# The real pprof, where installed (Debian: google-perftools), names them alike.
if command -v google-pprof >/dev/null; then
	heapcheck normal "$(command -v google-pprof)" "$T/real"
	check_eq "same leak stack names as google-pprof" \
		"$(frames "$T/real" 40960 10 | head -3 | awk '{ print $2 }' | tr '\n' ' ')" \
		"leak_inner leak_outer main "
else
	skip "google-pprof not installed: no side-by-side comparison"
fi
done_tests
