#!/bin/bash
# num-dist against tests/work/write_n.c, which calls write(fd, buf, n) for
# n = 1..100 on /dev/null: the distribution of count is known exactly
# (calls 100, total 5050, min 1, max 100, p50 50, log2 slots 1,2,4,...,37),
# --than 90 prints the 10 writes of 91..100, a filter the kernel refuses
# (count>fd) runs in user space with exact counts, and bad num= expressions
# are usage errors; --heatmap NAME writes the 100 numbers over time, a map of
# numbers whose rows hold the log2 slots' counts (1, 2, 4, ... 32, 37).
. "$(dirname "$0")/lib.sh"

[ -x "$W/write_n" ] || { skip "workload write_n not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/syscalls/sys_enter_write ] ||
	{ skip "no syscalls:sys_enter_write tracepoint"; done_tests; exit; }

# field N of the table row whose first column is KEY
row() { awk -v k="$2" -v n="$3" '$1 == k { print $n; exit }' "$1"; }

# run_nd OUT ARGS...: the workload waits on a fifo with its fd open and its pid
# known; num-dist (ARGS, where PID and FD stand for its pid and fd) filters on both, and
# the writes start once it says it is monitoring.  Leaves OUT (stdout),
# OUT.err, OUT.rc.
run_nd() {
	local out=$1 w p a args=()
	shift
	wl_start "$out" write_n
	w=$WL
	for a in "$@"; do a=${a//PID/$WL_PID}; args+=("${a//FD/$WL_FD}"); done
	rm -f "$out.err" # not an earlier run's "monitoring"
	"$PP" num-dist -v $BK "${args[@]}" >"$out" 2>"$out.err" &
	p=$!
	wait_monitoring "$out.err" $p
	echo go >"$out.fifo"
	wait "$w"
	kill -INT $p 2>/dev/null
	wait $p
	echo $? >"$out.rc"
	reap "$w"
	echo "$w" >>"$T/pids"
}

EV='syscalls:sys_enter_write/fd==FD && common_pid==PID/num=count/'
E=syscalls:sys_enter_write

# the checks, on each back end: the kernel's maps (BPF, the default where the
# host has it) and the ring path (--no-bpf); -v says which ran
suite() {
bk=$1
BK=$2
# the statistics and the histogram
run_nd "$T/$bk.a" -e "$EV" --hist
check_eq "[$bk] exit status" "$(cat "$T/$bk.a.rc")" 0
check "[$bk] workload ran to its end" grep -q '^done 100' "$T/$bk.a.wl"
check_eq "[$bk] calls" "$(row "$T/$bk.a" $E 2)" 100
check_eq "[$bk] total" "$(row "$T/$bk.a" $E 3)" 5050
check_eq "[$bk] min" "$(row "$T/$bk.a" $E 4)" 1
check_eq "[$bk] avg" "$(row "$T/$bk.a" $E 5)" 50.50
# the histogram's stated error: 2^-7 of the value
check_range "[$bk] p50 within 0.8% of 50" "$(row "$T/$bk.a" $E 6)" 49.6 50.4
check_range "[$bk] p95 within 0.8% of 95" "$(row "$T/$bk.a" $E 7)" 94.2 95.8
check_range "[$bk] p99 within 0.8% of 99" "$(row "$T/$bk.a" $E 8)" 98.2 99.8
check_eq "[$bk] max" "$(row "$T/$bk.a" $E 9)" 100
check_eq "[$bk] histogram lines sum to 100" \
	"$(awk '$2 == "->" && $4 == ":" { n += $5 } END { print n }' "$T/$bk.a")" 100
check_eq "[$bk] histogram slots 1,2,4,...,32,37" \
	"$(awk '$2 == "->" { printf "%s-%s:%s ", $1, $3, $5 }' "$T/$bk.a")" \
	"0-1:1 2-3:2 4-7:4 8-15:8 16-31:16 32-63:32 64-127:37 "

# --than: the events above N, as trace prints them, with num=
run_nd "$T/$bk.b" -e "$EV" --than 90
check_eq "[$bk] --than exit status" "$(cat "$T/$bk.b.rc")" 0
check_eq "[$bk] --than 90 prints 10 lines" "$(grep -c " $E: .* num=[0-9]*$" "$T/$bk.b")" 10
check_eq "[$bk] --than lines carry 91..100" \
	"$(grep -o ' num=[0-9]*$' "$T/$bk.b" | cut -d= -f2 | tr '\n' ' ')" \
	"91 92 93 94 95 96 97 98 99 100 "
check "[$bk] --than lines name the workload" grep -q " write_n *[0-9]* \[[0-9]*\] $E: " "$T/$bk.b"
check_eq "[$bk] --than keeps the table" "$(row "$T/$bk.b" $E 2)" 100

# alias= names the row; --perins splits by thread (by CPU without -p/-t/--)
run_nd "$T/$bk.c" -e "${EV%/}/alias=wr/" --perins -p PID
check_eq "[$bk] alias and --perins: calls of the thread" \
	"$(awk '$1 == "wr" && $2 == "write_n" { print $4 }' "$T/$bk.c")" 100

# --perins --hist: a log2 histogram per thread, under its name
run_nd "$T/$bk.h" -e "$EV" --perins --hist -p PID
pid=$(grep -o 'pid=[0-9]*' "$T/$bk.h.wl" | cut -d= -f2)
check "[$bk] --perins --hist: a histogram titled by the thread" \
	grep -qx "$E write_n $pid (EVENT COMM TID)" "$T/$bk.h"
check_eq "[$bk] --perins --hist: its lines sum to 100" \
	"$(awk '$2 == "->" && $4 == ":" { n += $5 } END { print n }' "$T/$bk.h")" 100
check_eq "[$bk] --perins --hist: slots 1,2,4,...,32,37" \
	"$(awk '$2 == "->" { printf "%s-%s:%s ", $1, $3, $5 }' "$T/$bk.h")" \
	"0-1:1 2-3:2 4-7:4 8-15:8 16-31:16 32-63:32 64-127:37 "

# a filter the kernel refuses (a field compared with a field) runs in user space,
# exactly: of the writes of 1..100 bytes, those with count > fd
run_nd "$T/$bk.u" -e "${EV%%/num=*}"' && count>fd/num=count/'
fd=$(grep -o 'fd=[0-9]*' "$T/$bk.u.wl" | cut -d= -f2)
check_eq "[$bk] user-space filter: exit status" "$(cat "$T/$bk.u.rc")" 0
if [ "$bk" = ring ]; then
	check "[$bk] user-space filter: said once" \
		test "$(grep -c "filter '.*count>fd' on $E runs in user space" "$T/$bk.u.err")" -eq 1
	wpid=$(grep -o 'pid=[0-9]*' "$T/$bk.u.wl" | cut -d= -f2)
	check "[$bk] user-space filter: the kernel keeps the clauses it takes" \
		grep -q "(the kernel keeps 'fd==$fd && common_pid==$wpid')" "$T/$bk.u.err"
else # the program runs the whole filter: no perf event of the tracepoint is opened
	check_eq "[$bk] user-space filter: none (the program runs it)" \
		"$(grep -c "runs in user space" "$T/$bk.u.err")" 0
fi
check_eq "[$bk] user-space filter: calls 100 - fd" "$(row "$T/$bk.u" $E 2)" $((100 - fd))
check_eq "[$bk] user-space filter: total" "$(row "$T/$bk.u" $E 3)" $((5050 - fd * (fd + 1) / 2))
check_eq "[$bk] user-space filter: min fd + 1" "$(row "$T/$bk.u" $E 4)" $((fd + 1))

# a workload whose first child exits before the counted calls: every call counted
"$PP" num-dist $BK -e 'syscalls:sys_enter_getppid//num=1/' -- \
	sh -c "/bin/true; '$W/getppid_loop' 1000" >"$T/$bk.fk" 2>&1
check_eq "[$bk] after a child's exit: every call counted" \
	"$(row "$T/$bk.fk" syscalls:sys_enter_getppid 2)" 1001
# --perins rows of threads that came and went: 30 threads one after another, each
# its row; on BPF the rows leave a map of 16 once it is half full, so all are counted
"$PP" num-dist $BK --perins --bpf-entries 16 -i 100 -e 'syscalls:sys_enter_clock_nanosleep//num=1/' \
	-- "$W/thread_churn" 30 3 >"$T/$bk.ch" 2>"$T/$bk.ch.err"
check_eq "[$bk] --perins, churning threads: every thread's sleep counted, nothing said" \
	"$(awk '$2 ~ /^churn-/ { s += $4 } END { print s + 0 }' "$T/$bk.ch") $(wc -c <"$T/$bk.ch.err")" "30 0"
# the same without -i: on BPF the maps are read every second as the run goes
# (BPF_READ_MS), 30 threads over 6 s, a row each (prctl: a tracepoint no other
# suite watches with a BPF program, which would keep the ring path's samples from it)
"$PP" num-dist $BK --perins --bpf-entries 16 -e 'syscalls:sys_enter_prctl//num=1/' \
	-- "$W/thread_churn" 30 6 >"$T/$bk.ch0" 2>"$T/$bk.ch0.err"
check_eq "[$bk] --perins, churning threads without -i: each thread's prctl, a row each, nothing said" \
	"$(awk '$1 == "syscalls:sys_enter_prctl" { n++; c += $4 } END { print n + 0, c + 0 }' \
		"$T/$bk.ch0") $(wc -c <"$T/$bk.ch0.err")" "30 30 0"
if [ "$bk" = bpf ]; then
	check "[$bk] -v: counted in the kernel" grep -q "the BPF back end: the numbers counted in the kernel" "$T/$bk.a.err"
else
	check "[$bk] -v: no BPF" test "$(grep -c "BPF back end" "$T/$bk.a.err")" -eq 0
fi
}
# on both back ends: BPF where a tracepoint BPF program loads here (the host's word)
both_back_ends ""

# --heatmap NAME: write_n's numbers 1..100 over time (the ring path: -v says
# the BPF back end leaves it), a map of numbers whose rows hold the log2 slots
BK=""
run_nd "$T/hm" -e "$EV" --heatmap "$T/nd"
check_eq "--heatmap: exit status" "$(cat "$T/hm.rc")" 0
check_eq "--heatmap: the table as without it" "$(row "$T/hm" $E 2):$(row "$T/hm" $E 3)" "100:5050"
if bpf_host; then
	check "--heatmap: the ring path, said under -v" \
		grep -q "the ring path: --heatmap: each number is written from the ring buffer" "$T/hm.err"
fi
check_eq "--heatmap: the .lat says it holds numbers" "$(head -n1 "$T/nd.lat")" \
	"# perf-prof heat map of numbers"
check_eq "--heatmap: a line per write, its number: 1..100 in order" \
	"$(awk 'NR > 1 { printf "%s ", $2 }' "$T/nd.lat" | md5sum)" "$(seq 1 100 | tr '\n' ' ' | md5sum)"
check "--heatmap: times in order" awk 'NR > 1 { if ($1 < t) exit 1; t = $1 }' "$T/nd.lat"
check "--heatmap: the SVG, well-formed" xmllint --noout "$T/nd.svg"
# the cells' counts per row: the slots of 1..100 (1, 2, 4, ... 32, 37)
check_eq "--heatmap: events per value row" \
	"$(grep -o 'value [0-9]*\.\.[0-9]*: [0-9]* event' "$T/nd.svg" |
		awk '{ split($2, r, "[.][.]"); n[r[1]] += $3 } END { for (k in n) print k ":" n[k] }' |
		sort -n | tr '\n' ' ')" "0:1 2:2 4:4 8:8 16:16 32:32 64:37 "
check_eq "--heatmap: rows labelled by value" \
	"$(sed -n 's/.*text-anchor="end">\([^<]*\)<.*/\1/p' "$T/nd.svg" | tr '\n' ' ')" \
	"0 2 4 8 16 32 64 128 "
check "--heatmap: titled by the event and num=" \
	grep -qF ">num-dist: $E num=count</text>" "$T/nd.svg"
check "--heatmap: 100 events, values 1..100" grep -qF ">100 events over " "$T/nd.svg"
check "--heatmap: value 1..100 in the subtitle" grep -qF ", value 1..100 (first event at " "$T/nd.svg"
# the heatmap command draws the same map from the .lat (it says it holds numbers)
"$PP" heatmap "$T/nd.lat" --title "num-dist: $E num=count" -o "$T/nd2.svg" 2>"$T/hm2.err"
check_eq "heatmap NAME.lat: exit status" $? 0
check "heatmap NAME.lat: the profiler's map" cmp -s "$T/nd.svg" "$T/nd2.svg"
# two events: NAME-EVENT each (aliases here)
run_nd "$T/hm3" -e "${EV%/}/alias=a/,${EV%/}/alias=b/" --heatmap "$T/two"
check_eq "--heatmap, two events: NAME-ALIAS.lat and .svg each, 100 numbers each" \
	"$(for a in a b; do test -s "$T/two-$a.svg" && grep -vc '^#' "$T/two-$a.lat"; done | tr '\n' ' ')" "100 100 "
# usage errors
"$PP" num-dist -e "$E//num=count/" --heatmap "" >"$T/e4" 2>&1
check_eq "--heatmap '': exits 2" $? 2
check "--heatmap '': needs a value" grep -q -- "bad --heatmap '': needs a value" "$T/e4"
if bpf_host; then
	"$PP" num-dist --bpf -e "$E//num=count/" --heatmap "$T/x" >"$T/e5" 2>&1
	check_eq "--bpf --heatmap: exits 2" $? 2
	check "--bpf --heatmap: says why" grep -q -- "--heatmap: each number is written from the ring buffer" "$T/e5"
fi
"$PP" num-dist -e "$E//num=count/" --heatmap "$T/nodir/x" -- true >"$T/e6" 2>&1
check_eq "--heatmap in a missing directory: exits 1, before the run" "$?:$(test -e "$T/nodir" && echo made)" "1:"
check "--heatmap in a missing directory: names the file" grep -qF "cannot write the heat map '$T/nodir/x.lat'" "$T/e6"

# usage errors: status 2 and the message
"$PP" num-dist -e "$E//num=cnt+1/" >"$T/e1" 2>&1
check_eq "bad num= exits 2" $? 2
check "bad num= names the field" grep -q "unknown field 'cnt'" "$T/e1"
check "bad num= shows a caret under it" grep -qx '  \^' "$T/e1"
"$PP" num-dist -e "$E/fd==1/" >"$T/e2" 2>&1
check_eq "missing num= exits 2" $? 2
check "missing num= says so" grep -q "has no num=EXPR" "$T/e2"
"$PP" num-dist -e "$E//num=count/key=fd/" >"$T/e3" 2>&1
check_eq "an attribute num-dist does not take exits 2" $? 2
gone() { local p; for p in $(cat "$T/pids"); do ! kill -0 "$p" 2>/dev/null || return 1; done; }
check "no workload left behind" gone
done_tests
