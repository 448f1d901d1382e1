#!/usr/bin/env bash
# Malformed inputs are refused or reported (issue 20): --symbols on a
# truncated or corrupted ELF file (status 1, one line naming the file and
# the fault) and bad lines on its stdin (each reported on stderr and
# answered "??", one answer per question so that pprof stays in step);
# flamegraph and heatmap inputs with bad lines (skipped lines counted, the
# first one named) or no valid line at all (status 1, one line).
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { echo "no binary $PP"; exit 1; }
command -v nm >/dev/null || { skip "nm not installed"; done_tests; exit; }
command -v readelf >/dev/null || { skip "readelf not installed"; done_tests; exit; }
BIN=$W/getppid_loop
[ -x "$BIN" ] || { echo "no workload $BIN (make workloads)"; exit 1; }

# one_line DESC WANT_RC LINE CMD...: status, exactly LINE on stderr, nothing on
# stdout; stdin from $T/ask
one_line() {
	local d=$1 want=$2 line=$3
	shift 3
	"$@" <"$T/ask" >"$T/out" 2>"$T/err"
	check_eq "$d: exit status" "$?" "$want"
	check_eq "$d: one line on stderr" "$(cat "$T/err")" "$line"
	check_eq "$d: nothing on stdout" "$(wc -c <"$T/out")" 0
}

# put FILE OFFSET VALUE BYTES: VALUE little-endian into FILE at OFFSET
put() {
	local s="" i
	for ((i = 0; i < $4; i++)); do s+=$(printf '\\x%02x' $((($3 >> (8 * i)) & 255))); done
	printf "$s" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
u() { od -An -t u"$3" -j "$2" -N "$3" "$1" | tr -d ' '; }

# ---- --symbols on a damaged copy of a workload binary
size=$(stat -c %s "$BIN")
shoff=$(u "$BIN" 40 8)
symtab=$(readelf -SW "$BIN" | awk '$2 == ".symtab" { gsub(/[][]/, "", $1); print $1 + 0; exit }')
[ -z "$symtab" ] && symtab=$(readelf -SW "$BIN" | awk '$3 == ".symtab" { print $2 + 0; exit }')
sh=$((shoff + symtab * 64)) # the .symtab section header (ELF64)
symoff=$(u "$BIN" $((sh + 24)) 8)
symsize=$(u "$BIN" $((sh + 32)) 8)
if [ "$(u "$BIN" 4 1)" != 2 ] || [ -z "$symtab" ] || [ "$symsize" -eq 0 ]; then
	check "$BIN is ELF64 with a .symtab" false
fi
printf '0x1000\n' >"$T/ask"
bad_elf() { # NAME LINE: --symbols on $T/NAME
	one_line "--symbols $1" 1 "perf-prof --symbols: $T/$1: $2" "$PP" --symbols "$T/$1"
}
cp "$BIN" "$T/magic" && put "$T/magic" 1 0x58 1
bad_elf magic "not an ELF file"
head -c 40 "$BIN" >"$T/header40"
bad_elf header40 "truncated ELF header (40 of 64 bytes)"
cp "$BIN" "$T/class" && put "$T/class" 4 7 1
bad_elf class "corrupt ELF header: class 7"
head -c $((size / 2)) "$BIN" >"$T/half"
bad_elf half "truncated: section header table at offset $shoff, past the end ($((size / 2)) bytes)"
cp "$BIN" "$T/shoff" && put "$T/shoff" 40 $((1 << 40)) 8
bad_elf shoff "truncated: section header table at offset $((1 << 40)), past the end ($size bytes)"
cp "$BIN" "$T/shnum" && put "$T/shnum" 60 30000 2
bad_elf shnum "truncated: section header table (30000 entries at offset $shoff) ends past the end ($size bytes)"
cp "$BIN" "$T/shentsize" && put "$T/shentsize" 58 16 2
bad_elf shentsize "corrupt ELF header: section header size 16 (not 64)"
# .symtab running past the end of the file: a cut-short symbol table
cp "$BIN" "$T/symtab" && put "$T/symtab" $((sh + 32)) $((size - symoff + 24)) 8
bad_elf symtab "truncated: section [$symtab] .symtab ($((size - symoff + 24)) bytes at offset $symoff) ends past the end ($size bytes)"
cp "$BIN" "$T/symtab2" && put "$T/symtab2" $((sh + 32)) $((symsize - 5)) 8
bad_elf symtab2 "corrupt symbol table [$symtab] .symtab: $((symsize - 5)) bytes of 24-byte entries"
cp "$BIN" "$T/symlink" && put "$T/symlink" $((sh + 40)) 0 4
bad_elf symlink "corrupt symbol table [$symtab] .symtab: its string table [0] is not one"
# the undamaged copy still answers
cp "$BIN" "$T/good"
main=$(nm "$BIN" | awk '$3 == "main" { print $1; exit }')
check_eq "--symbols undamaged copy: main" "$(printf '0x%s\n' "$main" | "$PP" --symbols "$T/good")" main

# ---- --symbols: bad lines on stdin among good addresses
other=$(nm "$BIN" | awk '$2 ~ /^[Tt]$/ && $3 != "main" && $3 !~ /^_/ { print $1, $3; exit }')
oname=${other#* }
oaddr=${other%% *}
{
	printf '0x%x\n' $((0x$main + 1)) # 1
	printf 'hello\n'                 # 2
	printf '\n'                      # 3: blank, no question
	printf '12345\n'                 # 4: decimal
	printf '0xZZ\n'                  # 5
	printf '0x%s\n' "$oaddr"         # 6
	printf '0x11112222333344445\n'   # 7: more than 64 bits
	printf '0x%s\r\n' "$main"        # 8
} >"$T/mixed"
"$PP" --symbols "$BIN" <"$T/mixed" >"$T/out" 2>"$T/err"
check_eq "--symbols mixed stdin: status 0 (some addresses answered)" "$?" 0
check_eq "--symbols mixed stdin: one answer per question, in order" "$(tr '\n' ' ' <"$T/out")" \
	"main ?? ?? ?? $oname ?? main "
check_eq "--symbols mixed stdin: each bad line on stderr" "$(cat "$T/err")" \
"perf-prof --symbols: stdin line 2: not a 0x address or a maps line: 'hello'
perf-prof --symbols: stdin line 4: not a 0x address or a maps line: '12345'
perf-prof --symbols: stdin line 5: not a 0x address or a maps line: '0xZZ'
perf-prof --symbols: stdin line 7: address of more than 64 bits: '0x11112222333344445'"
# only bad lines: each answered, and the run is an error
printf 'a\x01b\nfoo bar\n' | "$PP" --symbols "$BIN" >"$T/out" 2>"$T/err"
check_eq "--symbols only bad lines: status 1" "$?" 1
check_eq "--symbols only bad lines: ?? for each" "$(tr '\n' ' ' <"$T/out")" "?? ?? "
check_eq "--symbols only bad lines: stderr" "$(cat "$T/err")" \
"perf-prof --symbols: stdin line 1: not a 0x address or a maps line: 'a\\x01b'
perf-prof --symbols: stdin line 2: not a 0x address or a maps line: 'foo bar'
perf-prof --symbols: no address on stdin, 2 bad lines"
# many bad lines: the first 20 named, then the count; answers for all
{ seq 1 30; printf '0x%s\n' "$main"; } | "$PP" --symbols "$BIN" >"$T/out" 2>"$T/err"
check_eq "--symbols 30 bad lines: status 0" "$?" 0
check_eq "--symbols 30 bad lines: 31 answers" "$(wc -l <"$T/out")" 31
check_eq "--symbols 30 bad lines: last answer" "$(tail -1 "$T/out")" main
check_eq "--symbols 30 bad lines: 20 named + a count" "$(wc -l <"$T/err")" 21
check_eq "--symbols 30 bad lines: the count" "$(tail -1 "$T/err")" \
	"perf-prof --symbols: 30 bad lines on stdin (the first 20 shown)"
# long lines are whole lines (no split into several questions)
{ printf '0x%s ' "$main"; head -c 20000 /dev/zero | tr '\0' x; printf '\n'; } |
	"$PP" --symbols "$BIN" >"$T/out" 2>"$T/err"
check_eq "--symbols a 20000-byte line: one answer" "$(cat "$T/out")" main
check_eq "--symbols a 20000-byte line: quiet" "$(wc -c <"$T/err")" 0
# empty stdin: nothing asked, nothing answered
"$PP" --symbols "$BIN" </dev/null >"$T/out" 2>"$T/err"
check_eq "--symbols empty stdin: status 0, quiet" "$?:$(wc -c <"$T/out"):$(wc -c <"$T/err")" 0:0:0

# ---- flamegraph: 200 KB of random bytes (a fixed seed: the same bytes every
# run; the baseline drew a 12-sample graph of garbage frames from them)
LC_ALL=C awk 'BEGIN { s = 4; for (i = 0; i < 204800; i++) {
	s = (s * 69069 + 1) % 4294967296; printf "%c", int(s / 16777216) } }' >"$T/random.folded"
"$PP" flamegraph "$T/random.folded" -o "$T/random.svg" 2>"$T/err" >"$T/out"
check_eq "flamegraph random bytes: status 1" "$?" 1
check "flamegraph random bytes: one line" grep -qx "perf-prof flamegraph: $T/random.folded: no 'STACK COUNT' line ([0-9]* lines, none a stack and a whole number)" "$T/err"
check_eq "flamegraph random bytes: only that line, nothing on stdout" "$(wc -l <"$T/err"):$(wc -c <"$T/out")" 1:0
check "flamegraph random bytes: no SVG" test ! -e "$T/random.svg"

# weights that are not whole numbers, among good lines: the total is the good lines' sum
printf '%s\n' 'main;a 7' 'main;b 1.5' 'main;b 11' 'main;c 1e308' 'main;c nan' 'main;c inf' \
	'main;c -3' '' 'main;a;x 123456' 'main;d +4' 'main;e 0x10' $'main;\x1b[1mbold 5' \
	'main;c 18446744073709551615x' >"$T/mixed.folded"
"$PP" flamegraph "$T/mixed.folded" -o "$T/mixed.svg" 2>"$T/err"
check_eq "flamegraph mixed weights: status 0" "$?" 0
check_eq "flamegraph mixed weights: the skipped lines counted, the first named" "$(cat "$T/err")" \
	"perf-prof flamegraph: $T/mixed.folded: skipped 9 lines that are not 'STACK COUNT' (first: line 2)"
check_eq "flamegraph mixed weights: total = 7 + 11 + 123456" \
	"$(grep -o '<title>all ([^)]*)' "$T/mixed.svg")" "<title>all (123,474 samples, 100.00%)"
check "flamegraph mixed weights: no frame from a bad line" \
	bash -c "! grep -qE '<title>(c|d|e|bold|.\\[1mbold) ' '$T/mixed.svg'"

# counts that overflow: refused with the line number (a bad line before it does not hide it)
printf 'a 1.5\na 18446744073709551615\nb 1\n' >"$T/over.folded"
one_line "flamegraph sum overflow" 1 \
	"perf-prof flamegraph: $T/over.folded:3: weight overflows 64 bits (alone or added to the lines before)" \
	"$PP" flamegraph "$T/over.folded" -o "$T/over.svg"
# every count 0: nothing to draw
printf 'a;b 0\nc 0\n' >"$T/zero.folded"
one_line "flamegraph all counts 0" 1 "perf-prof flamegraph: $T/zero.folded: every count is 0: nothing to draw" \
	"$PP" flamegraph "$T/zero.folded" -o "$T/zero.svg"
# a comm with control characters, as perf-prof writes it (they become '?'), reads back whole
printf 'e???\tf\xff;leaf 3\n' >"$T/comm.folded"
"$PP" flamegraph "$T/comm.folded" -o "$T/comm.svg" 2>"$T/err"
check_eq "flamegraph odd bytes in a frame: status 0, quiet" "$?:$(wc -c <"$T/err")" 0:0
check "flamegraph odd bytes in a frame: drawn, 0xff as '?'" grep -qF "<title>e???	f? (3 samples" "$T/comm.svg"

# ---- heatmap: the same rules for .lat lines
LC_ALL=C awk 'BEGIN { s = 4; for (i = 0; i < 204800; i++) {
	s = (s * 69069 + 1) % 4294967296; printf "%c", int(s / 16777216) } }' >"$T/random.lat"
"$PP" heatmap "$T/random.lat" -o "$T/random.svg" 2>"$T/err" >"$T/out"
check_eq "heatmap random bytes: status 1" "$?" 1
check "heatmap random bytes: says so" grep -qx "perf-prof heatmap: $T/random.lat: no 'TIME LATENCY' line ([0-9]* lines, none two whole numbers of nanoseconds)" "$T/err"
check_eq "heatmap random bytes: only that line" "$(wc -l <"$T/err")" 1
printf '%s\n' '# time latency' '1000 5' '2000 1.5' '3000 nan' '4000 -3' '5000 6' '6000 7 8' >"$T/mixed.lat"
"$PP" heatmap "$T/mixed.lat" -o "$T/mixed.svg" 2>"$T/err"
check_eq "heatmap bad lines: status 0" "$?" 0
check_eq "heatmap bad lines: counted, the first named" "$(cat "$T/err")" \
	"perf-prof heatmap: $T/mixed.lat: skipped 4 lines that are not 'TIME LATENCY' (first: line 3)"
check "heatmap bad lines: the 2 good pairs drawn" grep -q '>2 pairs over' "$T/mixed.svg"

done_tests
