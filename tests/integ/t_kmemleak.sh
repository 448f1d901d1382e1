#!/bin/bash
# kmemleak against known leaks.  User space (tests/work/leak/leaks.cc):
# 10 x 4096 from leak_a (malloc), 5 x 100 from leak_b (calloc), 777 grown by
# realloc in leak_c, a new[] of 1234 in leak_d, beside 100,000 malloc/free
# pairs, a failing huge malloc, posix_memalign/aligned_alloc/new freed, and
# 1,000 blocks passed between threads: exactly those four sites of the
# workload's own functions, from -- cmd and from -p.  Kernel: 100 eventfds
# kept open show as 100 objects allocated in eventfd2; closed, none.
. "$(dirname "$0")/lib.sh"

[ -x "$W/leaks" ] && [ -x "$W/eventfds" ] || { skip "workloads not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -d /sys/bus/event_source/devices/uprobe ] || { skip "no uprobe PMU"; done_tests; exit; }

# site FILE FUNC: "bytes objects" of the rows whose stack's first frame is FUNC, summed
site() {
	awk -v f="$2" '/^ +[0-9]+ +[0-9]+ +[0-9.]+[a-z]*s/ { b = $1; o = $2; first = 1; next }
		first && NF { first = 0; if ($2 ~ "^" f "\\+") { B += b; O += o } }
		END { print B + 0, O + 0 }' "$1"
}
# rows whose first frame is in the workload's own code (not libc/ld.so/libstdc++)
own_rows() {
	awk '/^ +[0-9]+ +[0-9]+ +[0-9.]+[a-z]*s/ { first = 1; next }
		first && NF { first = 0; if ($0 ~ /work\/leaks\)$/) n++ } END { print n + 0 }' "$1"
}
user_checks() { # OUT LABEL
	check_eq "$2: leak_a 10 x 4096" "$(site "$1" leak_a)" "40960 10"
	check_eq "$2: leak_b 5 x 100" "$(site "$1" leak_b)" "500 5"
	check_eq "$2: leak_c realloc'd to 777" "$(site "$1" leak_c)" "777 1"
	check_eq "$2: leak_d new[] 1234" "$(site "$1" leak_d)" "1234 1"
	check_eq "$2: nothing else from the workload's code (churn, threads, no_leaks)" \
		"$(awk '/^ +[0-9]+ +[0-9]+ +[0-9.]+[a-z]*s/ { first = 1; next }
		first && NF { first = 0; if ($0 ~ /work\/leaks\)$/ && $2 !~ /^leak_[abcd]\+/) n++ } END { print n + 0 }' "$1")" 0
	check "$2: the stacks reach main" grep -q ' main+0x' "$1"
	check_eq "$2: one failed allocation" "$(grep -o 'failed allocations [0-9]*' "$1")" "failed allocations 1"
}

# -- command
"$PP" kmemleak --user -- "$W/leaks" >"$T/c" 2>"$T/c.err"
check_eq "--user -- cmd: exit status" $? 0
check "--user -- cmd: the workload ran" grep -q '^done$' "$T/c"
user_checks "$T/c" "-- cmd"
check "the allocations: at least the workload's 101,000 + leaks" \
	test "$(grep -o 'allocations [0-9]*' "$T/c" | head -1 | cut -d' ' -f2)" -ge 101021

# -p: the same leaks (the workload attaches after its start)
attach "$T/p" "kmemleak --user -p PID" leaks
check_eq "--user -p: exit status" "$(cat "$T/p.rc")" 0
user_checks "$T/p" "-p"

# --than: nothing older than 1 h
"$PP" kmemleak --user --than 3600s -- "$W/leaks" >"$T/t" 2>&1
check "--than 3600s: no rows" grep -q 'outstanding from 0 stacks (older than 3600' "$T/t"

# --flame-graph weights stacks by bytes
"$PP" kmemleak --user --flame-graph "$T/fg.folded" -- "$W/leaks" >/dev/null 2>&1
check_eq "flame graph: leak_a's bytes" "$(grep 'leak_a' "$T/fg.folded" | awk '{ s += $NF } END { print s }')" 40960

# kernel: 100 eventfds kept open while perf-prof stops, then closed ones
kern() { # OUT CLOSE [PROFILER ARGS...]
	local out=$1 close=$2
	shift 2
	[ $# -gt 0 ] || set -- kmemleak --preset kmalloc
	mkfifo "$out.fifo"
	rm -f "$out.wl" # not an earlier run's lines
	spawn w "$W/eventfds" -f "$out.fifo" 100 3000 "$close" >"$out.wl"
	for i in $(seq 50); do grep -q '^pid=' "$out.wl" && break; sleep 0.1; done
	local pid=$(grep -o 'pid=[0-9]*' "$out.wl" | cut -d= -f2)
	set -- "$1" "$out" "$@"
	shift 2
	"$PP" "$@" -p "$pid" -v >"$out" 2>"$out.err" &
	local p=$!
	for i in $(seq 100); do grep -q 'monitoring' "$out.err" && break; sleep 0.1; done
	echo go >"$out.fifo"
	for i in $(seq 50); do grep -q '^created' "$out.wl" && break; sleep 0.1; done
	sleep 0.5
	kill -INT $p
	wait $p
	echo $? >"$out.rc"
	reap "$w"
}
# objects of the rows allocated by do_eventfd itself (its context: the frame after the allocator)
efd() { awk '/^ +[0-9]+ +[0-9]+ +[0-9.]+[a-z]*s/ { o = $2; f = 0; next }
	NF { f++; if (f == 2 && $2 ~ /^do_eventfd\+/) n += o } END { print n + 0 }' "$1"; }
kern "$T/k1" 0
check_eq "kernel, kept open: exit status" "$(cat "$T/k1.rc")" 0
check_eq "kernel, kept open: the 100 eventfd contexts, allocated in do_eventfd" "$(efd "$T/k1")" 100
check "... their stacks hold the syscall" grep -q '__x64_sys_eventfd2' "$T/k1"
kern "$T/k2" 1
check_eq "kernel, closed: none of them" "$(efd "$T/k2")" 0
check_range "kernel, closed: ... because their frees were seen" \
	"$(grep -o 'frees [0-9]*' "$T/k2" | head -1 | cut -d' ' -f2)" 100 1000000

# kmemprof: the same 100 eventfds, allocated then freed, by stack
# the "BYTES OBJECTS" of the row of table TITLE whose second frame is FUNC
prof_row() { awk -v t="$2" -v fn="$3" '/^[A-Z]+ +BYTES/ { tab = $1; next }
	/^ +[0-9]+ +[0-9.]+% +[0-9]+$/ { b = $1; o = $3; f = 0; next }
	/^[a-z]/ { tab = "" } NF && tab == t { f++; if (f == 2 && $2 ~ "^" fn "\\+") { B += b; O += o } }
	END { print B + 0, O + 0 }' "$1"; }
kern "$T/m1" 1 kmemprof -e kmem:kmalloc -e kmem:kfree -k ptr
check_eq "kmemprof: exit status" "$(cat "$T/m1.rc")" 0
check_eq "kmemprof: allocated by do_eventfd: 100 x 64 bytes" "$(prof_row "$T/m1" ALLOCATED do_eventfd)" "6400 100"
check_eq "kmemprof: freed by eventfd_release: the same 100 x 64 bytes" "$(prof_row "$T/m1" FREED eventfd_release)" "6400 100"
check_eq "kmemprof, closed: none of them not freed" "$(efd "$T/m1")" 0
kern "$T/m2" 0 kmemprof -e kmem:kmalloc -e kmem:kfree -k ptr
check_eq "kmemprof, kept open: 100 not freed from do_eventfd" "$(efd "$T/m2")" 100
"$PP" kmemprof -e kmem:kmalloc -- true >/dev/null 2>"$T/b5"
check_eq "kmemprof with one -e: status 2" $? 2

# bad input
"$PP" kmemleak --alloc kmem:kmalloc -- true >/dev/null 2>"$T/b1"
check_eq "no --free: status 2" $? 2
check "no --free: says what is needed" grep -q 'needs --alloc EVENT and --free EVENT' "$T/b1"
"$PP" kmemleak --alloc sched:sched_switch --free kmem:kfree -- true >/dev/null 2>"$T/b2"
check_eq "no ptr field: status 2" $? 2
check "no ptr field: says ptr=EXPR" grep -q "has no field 'ptr'.*ptr=EXPR" "$T/b2"
"$PP" kmemleak --preset nosuch -- true >/dev/null 2>"$T/b3"
check_eq "unknown preset: status 2" $? 2
"$PP" kmemleak --user >/dev/null 2>"$T/b4"
check_eq "--user without a target: status 2" $? 2
check "--user without a target: says -p or --" grep -q -- '-p PID or -- COMMAND' "$T/b4"

done_tests
