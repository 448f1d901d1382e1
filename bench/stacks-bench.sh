#!/usr/bin/env bash
# Issue 3 benchmark: from the end of a capture to a finished flame graph.
# Workload: tests/work/chains/bench_chains (200 distinct call chains 20-40 frames
# deep through the executable and libchains.so, a quarter of them called back from
# inside libLLVM-14 when it is installed, each ending in a sleeping syscall), with
# every sched:sched_switch of it captured with frame-pointer callchains (kernel and
# user).  Workload pinned to CPU 1, tools to CPU 0.
#   perf-prof  perf-prof trace -e sched:sched_switch -g --flame-graph X[.svg] -- W
#   perf       perf record -g -e sched:sched_switch -- W; perf script | awk fold;
#              then SVG with flamegraph.pl if in PATH, else `perf-prof flamegraph`
# Timed from the workload's own last instruction (it writes CLOCK_REALTIME to a
# file) to the folded file / SVG being complete.  Then both folded files are
# compared after normalising, and the cold cost of loading a large library's
# symbols is timed: perf-prof --symbols against addr2line and nm.
# usage: bench/stacks-bench.sh [BUILD_DIR] [ITERATIONS] [ROUNDS]
set -u
build=${1:-build}
iters=${2:-20000}
rounds=${3:-3}
. "$(dirname "$0")/lib.sh"
bench_build "$build"
wl=$build/work/bench_chains
[ -x "$pp" ] || { echo "no $pp (make BUILD=...)"; exit 1; }
[ -x "$wl" ] || { echo "no $wl (make BUILD=... workloads)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
command -v perf >/dev/null || { echo "needs perf (apt-get install linux-perf)"; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs"; exit 1; }
llvm=
for f in /usr/lib/llvm-14/lib/libLLVM-14.so.1 /usr/lib/x86_64-linux-gnu/libLLVM-14.so.1; do
	[ -e "$f" ] && { llvm=$f; break; }
done
libc=$(ldd "$wl" | awk '/libc.so.6/ { print $3 }')
pages=${BENCH_PAGES:-1024} # same ring size for both tools: 4 MB, to compare whole stack sets
tmp=$(mktemp -d /tmp/stacks-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export BENCH_CHAINS_LLVM=$llvm BENCH_CHAINS_END=$tmp/end

now() { date +%s.%N; }
since_end() { awk -v a="$(cat "$tmp/end" 2>/dev/null || echo 0)" -v b="$1" 'BEGIN { printf "%.3f", b - a }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }'; }
lost_of() { grep -ohE 'lost [0-9]+' "$@" 2>/dev/null | awk '{ s += $2 } END { print s + 0 }'; }

# perf script -F comm,ip,sym,dso -> folded like perf-prof's: comm;user...;-;kernel_[k]... N
fold_perf() {
	awk '
	function flush(   s, i) {
		if (comm == "") return
		s = comm
		for (i = nu; i >= 1; i--) s = s ";" u[i]
		if (nk) {
			s = s ";-"
			for (i = nk; i >= 1; i--) s = s ";" k[i] "_[k]"
		}
		cnt[s]++
		comm = ""; nu = nk = 0
	}
	/^[^\t]/ { flush(); comm = $0; sub(/ +$/, "", comm); next }
	/^$/ { flush(); next }
	{
		line = $0; sub(/^[ \t]+[0-9a-f]+ /, "", line)
		dso = line; sub(/.* \(/, "", dso); sub(/\)$/, "", dso)
		sym = line; sub(/ \([^(]*\)$/, "", sym)
		if (dso ~ /^\[kernel/) k[++nk] = sym; else u[++nu] = sym
	}
	END { flush(); for (s in cnt) print s, cnt[s] }'
}

# Comparable form: only the workload, no [unknown] frames, no C++ parameter lists.
norm() {
	awk '$1 ~ /^bench_chains;/ {
		n = $NF; st = $0; sub(/ [0-9]+$/, "", st)
		m = split(st, f, ";"); s = ""
		for (i = 1; i <= m; i++) {
			x = f[i]
			if (x ~ /^\[unknown\]/) continue
			gsub(/\([^()]*\)/, "", x); gsub(/\([^()]*\)/, "", x)
			s = s == "" ? x : s ";" x
		}
		c[s] += n
	} END { for (s in c) print s, c[s] }' "$1" | sort
}

printf "stacks-bench: bench_chains %s iterations (200 chains, 20-40 user frames%s), %s rounds\n" \
	"$iters" "${llvm:+, 1 in 4 through libLLVM-14}" "$rounds"
printf "  sched:sched_switch -g, workload on CPU 1, tools on CPU 0, %s-page buffers\n" "$pages"
t_start=$(date +%s)
for ((r = 1; r <= rounds; r++)); do
	# perf-prof -> folded
	rm -f "$tmp/end" "$tmp/pp.folded"
	taskset -c 0 "$pp" trace -e sched:sched_switch -g -m "$pages" --flame-graph "$tmp/pp" \
		-- taskset -c 1 "$wl" "$iters" >/dev/null 2>"$tmp/pp.err" ||
		{ echo "perf-prof failed: $(cat "$tmp/pp.err")"; exit 1; }
	t=$(now)
	[ -s "$tmp/pp.folded" ] || { echo "perf-prof wrote no folded file"; exit 1; }
	since_end "$t" >>"$tmp/pp_folded.t"
	echo >>"$tmp/pp_folded.t"
	lost_of "$tmp/pp.err" >>"$tmp/pp.lost"
	# perf-prof -> SVG
	rm -f "$tmp/end" "$tmp/pp.svg"
	taskset -c 0 "$pp" trace -e sched:sched_switch -g -m "$pages" --flame-graph "$tmp/pp.svg" \
		-- taskset -c 1 "$wl" "$iters" >/dev/null 2>"$tmp/pp2.err" ||
		{ echo "perf-prof failed: $(cat "$tmp/pp2.err")"; exit 1; }
	t=$(now)
	since_end "$t" >>"$tmp/pp_svg.t"
	echo >>"$tmp/pp_svg.t"

	# perf record + perf script + fold + SVG
	rm -f "$tmp/end" "$tmp/perf.data" "$tmp/perf.folded" "$tmp/perf.svg"
	taskset -c 0 perf record -q -g -m "$pages" -e sched:sched_switch -o "$tmp/perf.data" \
		-- taskset -c 1 "$wl" "$iters" >/dev/null 2>"$tmp/rec.err" ||
		{ echo "perf record failed: $(cat "$tmp/rec.err")"; exit 1; }
	t1=$(now)
	taskset -c 0 perf script -i "$tmp/perf.data" -F comm,ip,sym,dso 2>"$tmp/script.err" |
		taskset -c 0 bash -c "$(declare -f fold_perf); fold_perf" >"$tmp/perf.folded"
	t2=$(now)
	if command -v flamegraph.pl >/dev/null; then
		svgtool=flamegraph.pl
		taskset -c 0 flamegraph.pl "$tmp/perf.folded" >"$tmp/perf.svg" 2>/dev/null
	else
		svgtool="perf-prof flamegraph"
		taskset -c 0 "$pp" flamegraph "$tmp/perf.folded" -o "$tmp/perf.svg" >/dev/null 2>&1
	fi
	t3=$(now)
	{ since_end "$t1"; echo; } >>"$tmp/perf_rec.t"
	{ since_end "$t2"; echo; } >>"$tmp/perf_folded.t"
	{ since_end "$t3"; echo; } >>"$tmp/perf_svg.t"
	lost_of "$tmp/rec.err" "$tmp/script.err" >>"$tmp/perf.lost"
	printf "  round %d: perf-prof folded %ss svg %ss; perf record done %ss folded %ss svg %ss\n" "$r" \
		"$(tail -n 1 "$tmp/pp_folded.t")" "$(tail -n 1 "$tmp/pp_svg.t")" \
		"$(tail -n 1 "$tmp/perf_rec.t")" "$(tail -n 1 "$tmp/perf_folded.t")" \
		"$(tail -n 1 "$tmp/perf_svg.t")"
done
ppf=$(median <"$tmp/pp_folded.t")
pps=$(median <"$tmp/pp_svg.t")
pfr=$(median <"$tmp/perf_rec.t")
pff=$(median <"$tmp/perf_folded.t")
pfs=$(median <"$tmp/perf_svg.t")
echo
printf "%-36s %10s %10s %10s\n" "capture end -> (median, s)" perf-prof perf "perf/pp"
printf "%-36s %10s %10s %10s\n" "  perf.data written (perf only)" - "$pfr" -
printf "%-36s %10s %10s %10s\n" "  folded file" "$ppf" "$pff" "$(ratio "$pff" "$ppf")x"
printf "%-36s %10s %10s %10s\n" "  SVG ($svgtool for perf)" "$pps" "$pfs" "$(ratio "$pfs" "$pps")x"
printf "%-36s %10s %10s\n" "lost events (last round)" "$(tail -n 1 "$tmp/pp.lost")" "$(tail -n 1 "$tmp/perf.lost")"
printf "%-36s %10s %10s\n" "perf.data size (MB)" - "$(($(stat -c %s "$tmp/perf.data") / 1048576))"
awk -v a="$ppf" -v b="$pff" -v c="$pps" -v d="$pfs" 'BEGIN {
	printf "target: perf-prof >= 5x faster end to end: %s\n",
		(b >= 5 * a && d >= 5 * c) ? "met" : "MISSED" }'

# Same stacks?  Last round's folded files, normalised.
norm "$tmp/pp.folded" >"$tmp/pp.n"
norm "$tmp/perf.folded" >"$tmp/perf.n"
echo
awk '
	FNR == NR { n = $NF; s = $0; sub(/ [0-9]+$/, "", s); a[s] = n; ta += n; next }
	{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); b[s] = n; tb += n }
	END {
		for (s in a) { na++; if (s in b) { common++; ca += a[s]; cb += b[s] } }
		for (s in b) nb++
		for (s in a) if ((s in b) && a[s] >= 20) {
			d = a[s] / ta - b[s] / tb; if (d < 0) d = -d
			r = d / (a[s] / ta); if (r > worst) worst = r
		}
		printf "stacks of bench_chains (normalised: no [unknown], no C++ parameters):\n"
		printf "  perf-prof %d stacks, %d samples; perf %d stacks, %d samples; %d stacks in both\n",
			na, ta, nb, tb, common
		printf "  samples on common stacks: perf-prof %.1f%%, perf %.1f%%\n",
			ta ? 100 * ca / ta : 0, tb ? 100 * cb / tb : 0
		printf "  largest difference in a common stack'"'"'s share (stacks >= 20 samples): %.1f%%\n",
			100 * worst
	}' "$tmp/pp.n" "$tmp/perf.n"
echo "  top stack by samples (first 3 and last 4 frames):"
for f in pp perf; do
	awk '{ print $NF, $0 }' "$tmp/$f.n" | sort -nr | head -n 1 | awk -v t="$f" '{
		m = split($2, x, ";")
		printf "    %-5s %s;%s;%s;...;%s;%s;%s;%s %d\n", t, x[1], x[2], x[3],
			x[m - 3], x[m - 2], x[m - 1], x[m], $1 }'
done

# Cold start: symbols of a large library, in a fresh process each time.
echo
echo "cold start: resolve addresses in a large library (fresh process, median of 3):"
symtime() { # OUT COMMAND... (stdin from $tmp/addrs)
	local out=$1 i a b
	shift
	for ((i = 0; i < 3; i++)); do
		a=$(now)
		"$@" <"$tmp/addrs" >"$tmp/$out" 2>/dev/null
		b=$(now)
		awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f\n", b - a }'
	done | median
}
for lib in $llvm $libc; do # sl: the file with the symbols
	sl=$lib
	dbg=$(readelf -n "$lib" 2>/dev/null | awk '/Build ID/ { print "/usr/lib/debug/.build-id/" substr($3, 1, 2) "/" substr($3, 3) ".debug" }')
	[ -e "$dbg" ] && sl=$dbg || dbg=
	# every 40th function symbol, +4 into it
	nmd= # .symtab (maybe from the debug file), else .dynsym
	nm --defined-only "$sl" 2>/dev/null | awk '$2 ~ /^[Tt]$/' >"$tmp/fn"
	[ -s "$tmp/fn" ] || { sl=$lib nmd=-D; nm -D --defined-only "$lib" | awk '$2 ~ /^[Tt]$/' >"$tmp/fn"; }
	awk 'NR % 40 == 0 { print $1 }' "$tmp/fn" >"$tmp/starts"
	while read -r a; do
		printf "0x%x\n" $((16#$a + 4))
	done <"$tmp/starts" >"$tmp/addrs"
	na=$(wc -l <"$tmp/addrs")
	printf "  %s (%d MB%s), %d addresses, %d function symbols:\n" "$lib" \
		"$(($(stat -Lc %s "$lib") / 1048576))" "${dbg:+, debug file $(($(stat -c %s "$dbg") / 1048576)) MB}" \
		"$na" "$(wc -l <"$tmp/fn")"
	tp=$(symtime pp.sym "$pp" --symbols "$lib")
	ta=$(symtime a2l.sym addr2line -f -C -e "$lib")
	# the classic script way starts by dumping the whole table: its cost alone
	tn=$(symtime nm.sym bash -c "nm $nmd -C --defined-only '$sl' | sort")
	# Correct answers: every alias at that start (names compared without parameters
	# or template arguments), or none if the function is 4 bytes or less.
	nm $nmd -S -C --defined-only "$sl" | awk '$3 ~ /^[TtWwi]$/' >"$tmp/nm.tab"
	agree=$(paste -d'\t' "$tmp/starts" "$tmp/pp.sym" | awk -F'\t' '
		function short(x) {
			sub(/\(.*/, "", x); sub(/\+0x[0-9a-f]+$/, "", x)
			while (gsub(/<[^<>]*>/, "", x)) ;
			return x
		}
		FILENAME == ARGV[1] {
			split($0, f, " "); n = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ /, "", n); sub(/@.*/, "", n)
			names[f[1]] = names[f[1]] "\t" short(n) "\t"
			if (f[2] ~ /^0*[0-4]$/) tiny[f[1]] = 1
			next
		}
		{
			if (index(names[$1], "\t" short($2) "\t") || (($1 in tiny) && $2 !~ /[a-z]/)) ok++
			else if (bad++ < 3) print "      mismatch: 0x" $1 "+4 -> " $2 > "/dev/stderr"
		}
		END { print ok + 0 }' "$tmp/nm.tab" -)
	printf "    %-28s %8ss\n" "perf-prof --symbols" "$tp"
	printf "    %-28s %8ss  (%sx perf-prof's)\n" "addr2line -f -C" "$ta" "$(ratio "$ta" "$tp")"
	printf "    %-28s %8ss  (%sx perf-prof's)\n" "nm${nmd:+ $nmd} -C | sort (table only)" "$tn" "$(ratio "$tn" "$tp")"
	printf "    perf-prof names right (nm -S; any alias): %d of %d\n" "$agree" "$na"
done
echo "total $(($(date +%s) - t_start)) s"
exit 0
