#!/bin/bash
# pprof output (--pprof NAME, --flame-graph NAME.pb.gz): the file decodes with
# protoc against the upstream profile.proto, and in the same run it carries
# what the folded file does: the same stacks with the same weights (the
# folded file's microseconds are the exact nanoseconds cut, remainder
# carried), plus the sample types, units, labels and mappings of each
# profiler.  profile against tests/work/spin (spin_a 3/4, spin_b 1/4),
# trace against getppid_loop (N calls), task-state against ts_mixed (10
# long sleeps, 100 short), kmemleak --user against leaks (leak_a 10 x 4096,
# leak_b 5 x 100).  tests/integ/pprof_check.py reads protoc's text.  When
# Go is installed, go tool pprof reads the files too.
. "$(dirname "$0")/lib.sh"

PROTO_DIR=/usr/share/gocode/src/github.com/google/pprof/proto
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
command -v protoc >/dev/null || { skip "no protoc (protobuf-compiler)"; done_tests; exit; }
[ -f "$PROTO_DIR/profile.proto" ] || { skip "no profile.proto (golang-github-google-pprof-dev)"; done_tests; exit; }
command -v python3 >/dev/null || { skip "no python3"; done_tests; exit; }
for w in spin getppid_loop ts_mixed leaks; do
	[ -x "$W/$w" ] || { skip "workload $w not built (make workloads)"; done_tests; exit; }
done
CHK=$(dirname "$0")/pprof_check.py

# decode F.pb.gz: its text beside it (F.txt); fails when gzip or protoc do
decode() {
	gzip -dc "$1" | protoc --decode perftools.profiles.Profile -I "$PROTO_DIR" profile.proto \
		>"${1%.pb.gz}.txt"
}
# q F.txt QUESTION [ARGS] [, QUESTION...]: pprof_check.py's answers
q() { local f=$1; shift; python3 "$CHK" "$@" <"$f"; }
fsum() { awk '{ s += $NF } END { print s + 0 }' "$1"; }
# the stacks of a folded file without their weights, sorted
stacks() { sed 's/ [0-9]*$//' "$1" | sort; }
gopprof() { HOME=$T GOCACHE=$T/go-cache GOFLAGS= go tool pprof "$@" 2>&1; }
have_go() { command -v go >/dev/null && gopprof -h >/dev/null 2>&1; }

# --- profile: one run writes the folded file and the pprof file ---
t0=$(date +%s%N)
"$PP" profile -F 999 -g --flame-graph "$T/p.folded" --pprof "$T/p" -- "$W/spin" 2 >"$T/p.out" 2>"$T/p.err"
check_eq "profile: exit 0" $? 0
t1=$(date +%s%N)
check "profile: NAME.pb.gz written" test -s "$T/p.pb.gz"
check "profile: gzip" gzip -t "$T/p.pb.gz"
check "profile: protoc --decode against profile.proto" decode "$T/p.pb.gz"
P=$T/p.txt
check_eq "profile: structure (ids, references, string 0 \"\")" "$(q $P check)" ok
check_eq "profile: string_table[0] is \"\"" "$(grep -m1 '^string_table:' $P)" 'string_table: ""'
check_eq "profile: sample types" "$(q $P types)" "samples/count cpu/nanoseconds"
check_eq "profile: cpu shown by default" "$(q $P default)" cpu
check_eq "profile: period 1/999 s" "$(q $P period)" "cpu/nanoseconds 1001001"
n=$(q $P total 0)
check_eq "profile: samples = the folded file's total" "$n" "$(fsum "$T/p.folded")"
check_range "profile: a run's worth of samples" "$n" 100 10000
check_eq "profile: cpu ns = samples x period" "$(q $P total 1)" $((n * 1001001))
q $P folded 0 >"$T/p.refolded"
check "profile: the same stacks with the same weights as the folded file" \
	cmp -s "$T/p.refolded" <(sort "$T/p.folded")
# spin_a's share of spin_a + spin_b: the folded file's, and about the workload's
# 3/4 (t_profile checks that closely; a loaded host skews it)
a=$(q $P share spin_a 0) b=$(q $P share spin_b 0)
fa=$(awk '/;spin_a[; ]/ { s += $NF } END { print s + 0 }' "$T/p.folded")
fb=$(awk '/;spin_b[; ]/ { s += $NF } END { print s + 0 }' "$T/p.folded")
check_eq "profile: spin_a and spin_b weigh what they do in the folded file" "$a $b" "$fa $fb"
check_range "profile: spin_a's share of spin_a + spin_b" \
	"$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", 100 * a / (a + b) }')" 60 85
check_eq "profile: the hottest leaf is spin_for" "$(q $P leaf 0)" spin_for
SPIN=$(realpath "$W/spin")
check "profile: the workload's mapping, by its path" grep -qw "$SPIN" <<<"$(q $P mappings)"
check "profile: the kernel's mapping" grep -q 'kernel.kallsyms' <<<"$(q $P mappings)"
check_eq "profile: the program's mapping first" \
	"$(awk '/^mapping \{/ { m = 1 } m && /filename:/ { print $2; exit }' $P)" \
	"$(awk -v p="$SPIN" '/^string_table:/ { if ($2 == "\"" p "\"") { print i; exit } i++ }' $P)"
check "profile: the workload's build-id" grep -q 'build_id: [1-9]' $P
# source files and lines from the workload's DWARF (built with -g)
SRC=$(realpath "$(dirname "$0")/../work/spin.c")
check_eq "profile: spin_for's source file and first line" "$(q $P srcfile spin_for)" \
	"$SRC:$(grep -n '^__attribute__((noinline)) void spin_for' "$SRC" | cut -d: -f1)"
# (the loop's two lines: gcc puts the hot instructions on the body, clang on the for)
hot=$(q $P hotline spin_for 0)
check "profile: spin_for's hottest line is its inner loop's ($hot)" \
	grep -qx "$hot" <(grep -n 'for (int i = 0; i < [0-9]*; i++)\|sink += ' "$SRC" | cut -d: -f1)
check "profile: the workload's mapping has file names and lines" grep -q 'has_line_numbers: true' $P
check_eq "profile: labels" "$(q $P labels)" "comm pid tid"
check "profile: the spinner thread by comm" grep -q 'spinner=[1-9]' <<<"$(q $P label comm 0)"
read -r tn dn <<<"$(q $P time)"
check "profile: time_nanos within the run" test "$tn" -ge "$t0" -a "$tn" -le "$t1"
check_range "profile: duration_nanos (2 s run)" "$dn" 1900000000 $((t1 - t0))
check_eq "profile: comment" "$(q $P comments)" "perf-prof profile"
if have_go; then
	gopprof -top "$T/p.pb.gz" >"$T/p.go"
	check "go tool pprof -top: reads it, spin_for on top" \
		grep -qE '^ +[0-9.]+m?s +[0-9.]+% +[0-9.]+% .* spin_for$' "$T/p.go"
	check "go tool pprof: Type cpu" grep -q '^Type: cpu' "$T/p.go"
	check "go tool pprof: the program's file" grep -q "^File: spin" "$T/p.go"
	gopprof -traces -tagfocus comm=spinner "$T/p.pb.gz" >"$T/p.tr"
	check "go tool pprof -tagfocus comm=spinner: spin_a stacks" grep -q 'spin_a$' "$T/p.tr"
	gopprof -list '^spin_for$' "$T/p.pb.gz" >"$T/p.list"
	check "go tool pprof -list spin_for: its source, from the file named" \
		grep -q "ROUTINE =* spin_for in $SRC" "$T/p.list"
else
	skip "go not installed (golang-go): go tool pprof not run"
fi

# --- trace: --flame-graph NAME.pb.gz writes pprof and no folded file ---
"$PP" trace -e syscalls:sys_enter_getppid -g --flame-graph "$T/t.pb.gz" -- "$W/getppid_loop" 300 \
	>"$T/t.out" 2>&1
check_eq "trace --flame-graph x.pb.gz: exit 0" $? 0
check "trace: no folded file beside it" test ! -e "$T/t.pb.gz.folded" -a ! -e "$T/t.folded"
check "trace: decodes" decode "$T/t.pb.gz"
check_eq "trace: structure" "$(q $T/t.txt check)" ok
check_eq "trace: one sample type" "$(q $T/t.txt types)" "samples/count"
check_eq "trace: no period" "$(q $T/t.txt period)" none
check_eq "trace: the workload's 300 getppid calls" \
	"$(q $T/t.txt label comm 0 | tr ' ' '\n' | grep '^getppid_loop=')" "getppid_loop=300"
check_eq "trace: libc's syscall() in every stack" "$(q $T/t.txt share syscall 0)" 300

# --- task-state: off-CPU nanoseconds, exact, and the state as a label ---
sfx=$(($$ % 100000))
MX=ts_mixed_$sfx
ln -s "$W/ts_mixed" "$T/$MX"
run_ts() { # OUT: task-state -g on $MX with a flame graph and pprof
	local p i
	rm -f "$1.err" # not an earlier run's "monitoring"
	"$PP" task-state -v --filter "$MX" -g --flame-graph "$1" --pprof "$1" >"$1.out" 2>"$1.err" &
	p=$!
	for ((i = 0; i < 600; i++)); do
		grep -q '^perf-prof: monitoring' "$1.err" && break
		sleep 0.1
	done
	"$T/$MX" >"$1.wl"
	sleep 0.3
	kill -INT $p
	wait $p
}
for i in 1 2 3; do # again while the tool says it dropped intervals
	run_ts "$T/ts"
	grep -qhE 'dropped|lost [0-9]' "$T/ts.out" "$T/ts.err" || break
done
check "task-state: decodes" decode "$T/ts.pb.gz"
S=$T/ts.txt
check_eq "task-state: structure" "$(q $S check)" ok
check_eq "task-state: sample types" "$(q $S types)" "samples/count off_cpu/nanoseconds"
check_eq "task-state: off_cpu shown by default" "$(q $S default)" off_cpu
ns_total=$(q $S total 1)
check_eq "task-state: the folded microseconds are the exact nanoseconds, cut" \
	"$(fsum "$T/ts.folded")" $((ns_total / 1000))
check "task-state: the folded file's stacks (state as the leaf) are pprof's" \
	test -z "$(comm -23 <(stacks "$T/ts.folded") <(q $S folded 0 state | sed 's/ [0-9]*$//'))"
check_eq "task-state: labels" "$(q $S labels)" "comm pid state tid"
check_eq "task-state: 110 sleeps counted in state S" \
	"$(q $S label state 0 | tr ' ' '\n' | grep '^S=')" "S=110"
long=$(grep -o 'long_ns=[0-9]*' "$T/ts.wl" | cut -d= -f2)
check_range "task-state: sleep_long's off-CPU ns / the workload's long sleeps" \
	"$(awk -v a="$(q $S share sleep_long 1)" -v b="$long" 'BEGIN { printf "%.4f", a / b }')" 0.98 1.01

# --- kmemleak: leaked bytes and objects per stack ---
if [ -d /sys/bus/event_source/devices/uprobe ]; then
	"$PP" kmemleak --user --flame-graph "$T/k.folded" --pprof "$T/k.pb.gz" -- "$W/leaks" >"$T/k.out" 2>&1
	check_eq "kmemleak: exit 0" $? 0
	check "kmemleak: decodes" decode "$T/k.pb.gz"
	K=$T/k.txt
	check_eq "kmemleak: structure" "$(q $K check)" ok
	check_eq "kmemleak: sample types" "$(q $K types)" "objects/count space/bytes"
	check_eq "kmemleak: space shown by default" "$(q $K default)" space
	check_eq "kmemleak: bytes = the folded file's total" "$(q $K total 1)" "$(fsum "$T/k.folded")"
	check "kmemleak: the same stacks with the same bytes as the folded file" \
		cmp -s <(q $K folded 1) <(sort "$T/k.folded")
	check_eq "kmemleak: leak_a 10 x 4096" "$(q $K share leak_a 1 , share leak_a 0 | tr '\n' ' ')" "40960 10 "
	check_eq "kmemleak: leak_b 5 x 100" "$(q $K share leak_b 1 , share leak_b 0 | tr '\n' ' ')" "500 5 "
	check "kmemleak: the workload's mapping" grep -qw "$W/leaks" <<<"$(q $K mappings)"
else
	skip "no uprobe PMU: kmemleak --user not run"
fi

# --- -i: one profile for the run, each interval's stacks labelled with its time ---
"$PP" profile -F 499 -g -i 1000 --flame-graph "$T/i.folded" --pprof "$T/i" -- "$W/spin" 3 >/dev/null 2>&1
check "-i: decodes" decode "$T/i.pb.gz"
check_eq "-i: samples = the folded file's total" "$(q $T/i.txt total 0)" "$(fsum "$T/i.folded")"
check_eq "-i: the folded file's time roots are pprof's time labels" \
	"$(q $T/i.txt values time)" "$(cut -d';' -f1 "$T/i.folded" | sort -u | wc -l)"
check_range "-i: 3 s in 1 s intervals" "$(q $T/i.txt values time)" 3 5

# --- names that are not UTF-8 come out as UTF-8 (protobuf strings must be) ---
bad=$(printf 'gp\377n')
ln -s "$W/getppid_loop" "$T/$bad"
"$PP" trace -e syscalls:sys_enter_getppid -g --pprof "$T/u" -- "$T/$bad" 10 >/dev/null 2>&1
check "bad UTF-8 comm: decodes" decode "$T/u.pb.gz"
check "bad UTF-8 comm: U+FFFD in its place" grep -qF 'string_table: "gp\357\277\275n"' "$T/u.txt"
check_eq "bad UTF-8 comm: its 10 calls" "$(q $T/u.txt total 0)" 10

# --- mistakes ---
"$PP" task-state --pprof "$T/x" -C 0 >"$T/e1" 2>&1
check_eq "--pprof without -g: usage error" $? 2
check "--pprof without -g: says why" grep -q -- '--pprof needs stacks: add -g' "$T/e1"
"$PP" profile -g --flame-graph "$T/x.pb.gz" --pprof "$T/y" -- "$W/spin" 1 >"$T/e2" 2>&1
check_eq "--flame-graph x.pb.gz with --pprof: usage error" $? 2
check "... says there would be two pprof files" grep -q 'two pprof files' "$T/e2"
"$PP" profile -g --pprof /proc/no/such -- "$W/spin" 1 >"$T/e3" 2>&1
check_eq "--pprof into a directory that is not there: fails" $? 1
check "... before the run, naming the file" grep -q "cannot write the pprof file '/proc/no/such.pb.gz'" "$T/e3"
check "... and the workload never ran" test -z "$(grep '^done' "$T/e3")"

done_tests
