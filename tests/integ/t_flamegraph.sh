#!/usr/bin/env bash
# perf-prof flamegraph (folded -> interactive SVG) and --flame-graph end to end.
source "$(dirname "$0")/lib.sh"

if [ ! -x "$PP" ]; then
	skip "no binary $PP"
	done_tests
	exit
fi

cat >"$T/small.folded" <<'EOF'
prog;main;work;-;entry_SYSCALL_64_[k];sys_write_[k] 30
prog;main;work;std::vector<int>::push_back 60
prog;main;idle 9
prog;a<b>&"c' 10
kworker/0:1;worker_thread_[k];process_one_work_[k] 40
EOF

# --- a small hand-written file: names, weights, percents, colours ---
$PP flamegraph --title 'Small & simple' --count-name bytes "$T/small.folded"
check_eq "flamegraph exits 0" $? 0
check "default output is IN.svg" test -s "$T/small.svg"
check "well-formed XML (xmllint)" xmllint --noout "$T/small.svg"
titles=$(grep -o '<title>[^<]*</title>' "$T/small.svg" | sed 's/<[^>]*>//g')
has_title() { grep -qxF -- "$1" <<<"$titles"; }
check_eq "total" "$(grep -o '<title>all ([^<]*' "$T/small.svg")" "<title>all (149 bytes, 100.00%)"
check "work: weight and percent" has_title "work (90 bytes, 60.40%)"
check "kernel frame" has_title "sys_write_[k] (30 bytes, 20.13%)"
check "separator frame" has_title "- (30 bytes, 20.13%)"
check "C++ name escaped" has_title "std::vector&lt;int&gt;::push_back (60 bytes, 40.27%)"
check "markup escaped" has_title "a&lt;b&gt;&amp;&quot;c&apos; (10 bytes, 6.71%)"
check "comm root" has_title "kworker/0:1 (40 bytes, 26.85%)"
check "title set and escaped" grep -qF '>Small &amp; simple</text>' "$T/small.svg"
check_eq "one frame per node" "$(wc -l <<<"$titles")" 13

# fill="rgb(R,G,B)" of the frame with title $1
fill_of() {
	grep -F "<title>$1 (" "$T/small.svg" | sed -E 's/.*fill="rgb\(([0-9]+),([0-9]+),([0-9]+)\)".*/\1 \2 \3/'
}
read -r r g b <<<"$(fill_of 'sys_write_[k]')"
check "kernel frames orange ($r,$g,$b)" test "$r" -ge 235 -a "$g" -ge 140 -a "$g" -le 185 -a "$b" -le 20
read -r r g b <<<"$(fill_of main)"
check "user frames red ($r,$g,$b)" test "$r" -ge 200 -a "$g" -le 105 -a "$b" -le 90
read -r r g b <<<"$(fill_of prog)"
check "comm frames blue ($r,$g,$b)" test "$b" -ge 200 -a "$r" -lt "$b"

# --- '' for --title and --count-name is their default (as before the empty-value check) ---
$PP flamegraph "$T/small.folded" -o "$T/default.svg"
$PP flamegraph --title '' --count-name '' "$T/small.folded" -o "$T/empty.svg" 2>"$T/err"
rc=$?
check_eq "--title '' --count-name '': exit 0 ($(head -c 200 "$T/err"))" $rc 0
check "--title '' --count-name '': the default graph" cmp -s "$T/default.svg" "$T/empty.svg"
check_eq "--title '': nothing on stderr" "$(wc -c <"$T/err")" 0

# --- -o, stdin, determinism ---
$PP flamegraph --title 'Small & simple' --count-name bytes "$T/small.folded" -o "$T/o.svg"
check "-o after the input" cmp -s "$T/small.svg" "$T/o.svg"
$PP flamegraph --title 'Small & simple' --count-name bytes - -o "$T/stdin.svg" <"$T/small.folded"
check "stdin input, same output" cmp -s "$T/small.svg" "$T/stdin.svg"

# --- bad input ---
# outputs a rename would destroy are written in place: a device, a symlink
$PP flamegraph "$T/small.folded" -o /dev/null
check_eq "-o /dev/null: exit 0" $? 0
check "-o /dev/null: still the null device" test -c /dev/null
$PP flamegraph "$T/small.folded" -o - >"$T/stdout.svg"
check_eq "-o -: exit 0" $? 0
check "-o -: the SVG on stdout" grep -q '</svg>' "$T/stdout.svg"
check "-o -: /dev/stdout still a symlink" test -L /dev/stdout
ln -s "$T/target.svg" "$T/link.svg"
$PP flamegraph "$T/small.folded" -o "$T/link.svg"
check "-o SYMLINK: the link is kept" test -L "$T/link.svg"
check "-o SYMLINK: its target gets the SVG" grep -q '</svg>' "$T/target.svg"
$PP flamegraph "$T/missing.folded" 2>"$T/err"
check_eq "missing input: exit 1" $? 1
check "missing input: says why" grep -q "No such file" "$T/err"
printf 'hello\nworld\n' >"$T/junk.folded"
$PP flamegraph "$T/junk.folded" 2>"$T/err"
check_eq "not a folded file: exit 1" $? 1
$PP flamegraph 2>/dev/null
check_eq "no input: usage, exit 2" $? 2
rm -f "$T/empty.svg"
$PP flamegraph /dev/null -o "$T/empty.svg" 2>"$T/err"
check_eq "empty input: exit 1" $? 1
check "empty input: says so" grep -q "no folded stacks in /dev/null" "$T/err"
check "empty input: no SVG" test ! -e "$T/empty.svg"

# --- the script in the SVG: hover, zoom, reset, search (node stands in for a browser) ---
if command -v node >/dev/null; then
	node "$TOP/tests/integ/flame_svg_check.js" "$T/small.svg" work 'sys_|idle' 26.2 >"$T/js" 2>&1
	check "SVG script: zoom and search work" grep -qx 'svg script: passed' "$T/js" ||
		cat "$T/js"
else
	skip "node not installed: SVG script not exercised"
fi

# --- a big file: 100k distinct stacks ---
awk 'BEGIN {
	srand(42);
	for (i = 0; i < 100000; i++) {
		d = 8 + int(rand() * 24);
		s = "comm" int(rand() * 8);
		for (j = 0; j < d; j++)
			s = s ";" (j < 4 ? "f" j "_" int(rand() * 3) : "fn_" int(rand() * 2000) "_" j);
		s = s ";leaf" i;
		w = 1 + int(rand() * 100);
		sum += w;
		print s, w;
	}
	print sum > "/dev/stderr";
}' >"$T/big.folded" 2>"$T/big.sum"
start=$(date +%s.%N)
$PP flamegraph "$T/big.folded"
rc=$?
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
check_eq "100k lines: exit 0" $rc 0
# speed is bench/flame-bench.sh's job: a timed assertion flips on a busy host
echo "# 100k lines converted in $secs s"
check "100k lines: well-formed XML" xmllint --noout --huge "$T/big.svg"
total=$(sed -E ':a; s/([0-9])([0-9]{3})($|,)/\1,\2\3/; ta' "$T/big.sum") # 1,234,567
check "100k lines: total $total" grep -qF "<title>all ($total samples, 100.00%)" "$T/big.svg"
frames=$(grep -c '<title>' "$T/big.svg")
check_range "100k lines: narrow frames left out (frames drawn)" "$frames" 50 20000

# --- --flame-graph end to end: a known call chain (tests/work/stk) ---
if [ -x "$W/stk_fp" ] && $PP trace -h 2>&1 | grep -q -- --flame-graph; then
	$PP trace -e syscalls:sys_enter_getppid -g --flame-graph "$T/e2e" -- "$W/stk_fp" 7 \
		>/dev/null 2>&1
	check "trace --flame-graph NAME writes NAME.folded" test -s "$T/e2e.folded"
	check "folded line of the known stack" grep -qE \
		'^stk_fp;(.*;)?main;stk_a;lib_b;getppid(;-;[^ ]*_\[k\])? 7$' "$T/e2e.folded" ||
		cat "$T/e2e.folded"
	$PP trace -e syscalls:sys_enter_getppid -g --call-graph dwarf --flame-graph "$T/e2e.svg" \
		-- "$W/stk_fp" 3 >/dev/null 2>&1
	check "trace --flame-graph NAME.svg: well-formed" xmllint --noout "$T/e2e.svg"
	for f in main stk_a lib_b lib_c getppid; do
		check "SVG has $f (3 samples)" grep -qF "<title>$f (3 samples, 100.00%)</title>" "$T/e2e.svg"
	done
else
	skip "stk_fp workload or trace --flame-graph missing (make workloads)"
fi

done_tests
