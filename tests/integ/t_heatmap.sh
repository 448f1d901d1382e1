#!/usr/bin/env bash
# perf-prof heatmap: a .lat file ("TIME LATENCY" lines, ns) -> SVG latency heat map.
source "$(dirname "$0")/lib.sh"

if [ ! -x "$PP" ]; then
	skip "no binary $PP"
	done_tests
	exit
fi

# 1000 pairs over 10 s (one every 10 ms from an arbitrary clock origin),
# alternately in two bands: ~1 ms (2^19..2^20 ns rows, 524us..1.048ms) and
# ~100 us (2^16..2^17, 65.536us..131.072us).
awk 'BEGIN {
	srand(3);
	for (i = 0; i < 1000; i++) {
		t = 86400000000000 + i * 10000000;
		l = (i % 2) ? 600000 + int(rand() * 400000) : 70000 + int(rand() * 50000);
		printf "%.0f %.0f\n", t, l;
	}
}' >"$T/run.lat"

# titles of the cells: "time +A..+B, latency L1..L2: N pairs"
titles() { grep -o '<rect [^>]*><title>[^<]*</title>' "$1" | sed 's/.*<title>//; s/<\/title>//'; }
sum_counts() { titles "$1" | sed -E 's/.*: ([0-9]+) pairs?$/\1/' | awk '{ s += $1 } END { print s + 0 }'; }

# --- the default output name, a well-formed SVG, the counts ---
$PP heatmap "$T/run.lat"
check_eq "heatmap exits 0" $? 0
check "default output is IN.svg (.lat replaced)" test -s "$T/run.svg"
check "well-formed XML (xmllint)" xmllint --noout "$T/run.svg"
check_eq "counts in the titles sum to 1000" "$(sum_counts "$T/run.svg")" 1000
# 10 s in 50 ms columns: 200 columns, 5 pairs each (2 or 3 per band), one row per band
check "columns of 50 ms" grep -qF "columns of 50.000ms" "$T/run.svg"
check_eq "one cell per column and band" "$(titles "$T/run.svg" | wc -l)" 400
# --title '' is the default title (as before the empty-value check)
$PP heatmap --title '' "$T/run.lat" -o "$T/notitle.svg" 2>"$T/err"
rc=$?
check_eq "--title '': exit 0 ($(head -c 200 "$T/err"))" $rc 0
check "--title '': the default map" cmp -s "$T/run.svg" "$T/notitle.svg"
check_eq "every cell in one of the two bands" \
	"$(titles "$T/run.svg" | grep -cE 'latency (524\.288us\.\.1\.048ms|65\.536us\.\.131\.072us):')" 400
check "first column's ~100 us cell" grep -qF \
	"<title>time +0.000s..+0.050s, latency 65.536us..131.072us: 3 pairs</title>" "$T/run.svg"
check "last column's ~1 ms cell" grep -qF \
	"<title>time +9.950s..+10.000s, latency 524.288us..1.048ms: 3 pairs</title>" "$T/run.svg"
check "default title" grep -qF ">Latency Heat Map</text>" "$T/run.svg"
# the rows' labels read at a glance, the exact bounds in the titles above
check_eq "row labels from 64us to 1ms" \
	"$(sed -n 's/.*text-anchor="end">\([^<]*\)<.*/\1/p' "$T/run.svg" | tr '\n' ' ')" \
	"64us 128us 256us 512us 1ms "
check "subtitle: pairs and span" grep -qF "1000 pairs over 9.990s" "$T/run.svg"

# --- -o and --title, -o before the input, a name without .lat, stdin ---
$PP heatmap -o "$T/o.svg" --title 'Reads <& "writes">' "$T/run.lat"
check_eq "-o: exit 0" $? 0
check "-o: written" xmllint --noout "$T/o.svg"
check "--title escaped" grep -qF ">Reads &lt;&amp; &quot;writes&quot;&gt;</text>" "$T/o.svg"
cp "$T/run.lat" "$T/pairs.txt"
$PP heatmap "$T/pairs.txt"
check "no .lat suffix: .svg appended" test -s "$T/pairs.txt.svg"
check "same input, same cells" cmp -s <(titles "$T/run.svg") <(titles "$T/pairs.txt.svg")
$PP heatmap - -o "$T/stdin.svg" <"$T/run.lat"
check_eq "stdin (-): exit 0" $? 0
check "stdin (-): same SVG" cmp -s "$T/run.svg" "$T/stdin.svg"
cat "$T/run.lat" | $PP heatmap - -o "$T/pipe.svg"
check_eq "a pipe: exit 0" $? 0
check "a pipe: same SVG" cmp -s "$T/run.svg" "$T/pipe.svg"

# --- errors: one line, status 1; usage: status 2 ---
$PP heatmap "$T/missing.lat" 2>"$T/err"
check_eq "missing input: exit 1" $? 1
check_eq "missing input: one line" "$(wc -l <"$T/err")" 1
check "missing input: says why" grep -q "^perf-prof heatmap: .*missing.lat.*No such file" "$T/err"
check "missing input: no SVG" test ! -e "$T/missing.svg"
# malformed lines are skipped and reported (count, first line); the rest is drawn
{ head -n 41 "$T/run.lat"; echo "12 34 56"; echo "1.5 2"; tail -n 5 "$T/run.lat"; } >"$T/bad.lat"
$PP heatmap "$T/bad.lat" 2>"$T/err"
check_eq "malformed lines: exit 0" $? 0
check_eq "malformed lines: counted, the first named" "$(cat "$T/err")" \
	"perf-prof heatmap: $T/bad.lat: skipped 2 lines that are not 'TIME LATENCY' (first: line 42)"
check "malformed lines: the others drawn" grep -q "46 pairs over" "$T/bad.svg"
# no valid line at all: refused, the old SVG kept
printf '12 34 56\nx\n' >"$T/bad.lat"
echo old >"$T/bad.svg"
$PP heatmap "$T/bad.lat" 2>"$T/err"
check_eq "no valid line: exit 1" $? 1
check_eq "no valid line: one line" "$(cat "$T/err")" \
	"perf-prof heatmap: $T/bad.lat: no 'TIME LATENCY' line (2 lines, none two whole numbers of nanoseconds)"
check_eq "no valid line: the old SVG kept" "$(cat "$T/bad.svg")" old
: >"$T/empty.lat"
$PP heatmap "$T/empty.lat" 2>"$T/err"
check_eq "empty input: exit 1" $? 1
check "empty input: says so" grep -q "^perf-prof heatmap: no pairs in .*empty.lat" "$T/err"
check "empty input: no SVG" test ! -e "$T/empty.svg"
$PP heatmap 2>"$T/err"
check_eq "no input: usage, exit 2" $? 2
check "no input: says so" grep -q "^perf-prof heatmap: no input file" "$T/err"
$PP heatmap "$T/run.lat" "$T/pairs.txt" 2>/dev/null
check_eq "two inputs: usage, exit 2" $? 2
$PP heatmap - 2>/dev/null </dev/null
check_eq "stdin without -o: usage, exit 2" $? 2
$PP heatmap "$T/run.lat" -o "$T/nodir/x.svg" 2>"$T/err"
check_eq "unwritable output: exit 1" $? 1
check_eq "unwritable output: one line" "$(wc -l <"$T/err")" 1

# --- a big file: memory and output do not grow with the lines ---
awk 'BEGIN { srand(5); for (i = 0; i < 1000000; i++)
	printf "%.0f %.0f\n", i * 3000, 1 + int(rand() * rand() * 50000000) }' >"$T/big.lat"
$PP heatmap "$T/big.lat" -o "$T/big.svg"
check_eq "1M lines: exit 0" $? 0
check "1M lines: well-formed XML" xmllint --noout "$T/big.svg"
check_eq "1M lines: counts sum to 1000000" "$(sum_counts "$T/big.svg")" 1000000
check_range "1M lines: cells within the 200 x 64 grid" "$(titles "$T/big.svg" | wc -l)" 200 12800

done_tests
