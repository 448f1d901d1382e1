#!/bin/bash
# breakpoint against tests/work/bpvar: it prints the addresses of bp_var,
# bp_func, libc's getppid and opterr (libc's variable, copied into the
# program), calls bp_func and getppid N times, then writes bp_var exactly
# 100 times (in bp_bump).  First: does a hardware breakpoint fire here at all (an execute
# breakpoint on bp_func, attached with -p)?  Where it does: exact hit counts
# by name, with -p and with -- command, ips in the right functions, stacks,
# a shared library's function at the address it has in the process.
# Everywhere: the names resolve to the addresses the workload prints (-p:
# read from the process; --: placed before it runs, without ASLR), bad
# input is refused with its reason and status 2, runs end cleanly.
# Where hits fire, each write hit shows the value written: bp_bump writes
# 1, 2, ... 100 (read in the kernel by BPF; with --no-bpf: '?').
. "$(dirname "$0")/lib.sh"

[ -x "$W/bpvar" ] || { skip "workload bpvar not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -d /sys/bus/event_source/devices/breakpoint ] || { skip "no breakpoint PMU"; done_tests; exit; }

addr_of() { grep -o "$2=0x[0-9a-f]*" "$1" | head -1 | cut -d= -f2; }
said_at() { grep -o "breakpoint on $2 ([^)]*) at 0x[0-9a-f]*" "$1" | head -1 | grep -o '0x[0-9a-f]*$'; }
# head lines of hits on BREAKPOINT whose ip is in FUNCTION
hits_in() { grep -cE " $2: addr 0x[0-9a-f]* \([a-z_]*\)( value [^ ]*)? ip 0x[0-9a-f]* $3\+0x" "$1"; }
# the values of bp_var's writes by bp_bump, in decimal, one a line ('?' as is)
bump_values() {
	grep ' bp_var:w: addr .* bp_bump+0x' "$1" | sed -n 's/.* value \([^ ]*\) ip .*/\1/p' |
		while read -r v; do case $v in 0x*) echo $((v)) ;; *) echo "$v" ;; esac; done
}

# -p: the names resolve in the running process (ASLR on)
attach "$T/p" "breakpoint -p PID bp_var:w bp_func getppid opterr:w" bpvar 20
check_eq "-p: exit status" "$(cat "$T/p.rc")" 0
check "-p: the workload ran" grep -q '^done bp_var=100$' "$T/p.wl"
check_eq "-p: bp_var resolves to the address it prints" "$(said_at "$T/p.err" bp_var)" "$(addr_of "$T/p.wl" bp_var)"
check_eq "-p: bp_func too" "$(said_at "$T/p.err" bp_func)" "$(addr_of "$T/p.wl" bp_func)"
check_eq "-p: getppid, in libc, at its address there" "$(said_at "$T/p.err" getppid)" "$(addr_of "$T/p.wl" getppid_at)"
check "-p: getppid: found in libc" grep -q "breakpoint on getppid (/[^)]*/libc\.so\.6) at " "$T/p.err"
check_eq "-p: opterr: the program's copy, the one libc uses" "$(said_at "$T/p.err" opterr)" "$(addr_of "$T/p.wl" opterr)"
check "-p: an int: 4 bytes, w" grep -q "breakpoint on bp_var (.*/bpvar) at 0x[0-9a-f]* len 4 w$" "$T/p.err"
check "-p: a function: x" grep -q "breakpoint on bp_func (.*/bpvar) at 0x[0-9a-f]* len 8 x$" "$T/p.err"

# -p of a program deleted while it runs (upgraded under it): its symbols from
# the file it maps (/proc/PID/map_files), not from whatever has its path now
cp "$W/bpvar" "$T/bpvar.old"
mkfifo "$T/d.fifo"
spawn d "$T/bpvar.old" -f "$T/d.fifo" 1 >"$T/d.wl"
for i in $(seq 100); do grep -q '^pid=' "$T/d.wl" && break; sleep 0.1; done
rm -f "$T/bpvar.old"
"$PP" breakpoint -v -p "$d" bp_var:w >"$T/d" 2>"$T/d.err" &
p=$!
for i in $(seq 100); do grep -q monitoring "$T/d.err" && break; kill -0 $p 2>/dev/null || break; sleep 0.1; done
kill -INT $p 2>/dev/null
wait $p
check_eq "-p of a deleted program: exit status" $? 0
echo go >"$T/d.fifo"
check_eq "-p of a deleted program: bp_var resolves to the address it prints" "$(grep -o 'breakpoint on bp_var ([^)]*(deleted)) at 0x[0-9a-f]*' "$T/d.err" | grep -o '0x[0-9a-f]*$')" "$(addr_of "$T/d.wl" bp_var)"
reap "$d"

# -- command: placed before it runs, without address randomization
"$PP" breakpoint -v bp_var:w bp_func -- "$W/bpvar" 20 >"$T/c" 2>"$T/c.err"
check_eq "--: exit status" $? 0
check "--: the workload ran" grep -q '^done bp_var=100$' "$T/c"
check_eq "--: bp_var placed where the program has it" "$(said_at "$T/c.err" bp_var)" "$(addr_of "$T/c" bp_var)"
check_eq "--: bp_func too" "$(said_at "$T/c.err" bp_func)" "$(addr_of "$T/c" bp_func)"
check "--: says the command runs without ASLR" grep -q "runs without address randomization" "$T/c.err"
check_eq "--: the exec check found nothing wrong" "$(grep -c 'watches the wrong address' "$T/c.err")" 0

fired=$(hits_in "$T/p" bp_func bp_func)
if [ "$fired" -eq 0 ]; then
	skip "hit counts: hardware breakpoints do not fire on this host (an execute breakpoint on bp_func, called 20 times, saw no hit)"
	check "-p: no hit is said, with what it may mean" grep -q 'perf-prof breakpoint: no hit: nothing touched the watched addresses' "$T/p.err"
	check "-p: the counts at the end" grep -q '^bp_var:w: 0 hits at 0x' "$T/p"
else
	check_eq "-p: bp_func called 20 times: 20 hits at its first instruction" "$fired" 20
	check_eq "-p: getppid of libc called 20 times: 20 hits there" "$(hits_in "$T/p" getppid '_*getppid')" 20
	check_eq "-p: opterr never written: no hit" "$(grep -c ' opterr:w: addr' "$T/p")" 0
	check_eq "-p: bp_var written 100 times: 100 hits in bp_bump" "$(hits_in "$T/p" bp_var:w bp_bump)" 100
	check_eq "-p: no other hit" "$(grep -c ' bp_var:w: addr' "$T/p")" 100
	check "-p: the counts at the end" grep -q '^bp_var:w: 100 hits at 0x' "$T/p"
	check_eq "-p: nothing said of no hits" "$(grep -c 'no hit' "$T/p.err")" 0
	if grep -q "'bp_var:w': the value at each hit read in the kernel (BPF)" "$T/p.err"; then
		check_eq "-p: the 100 values written by bp_bump: 1, 2, ... 100" "$(bump_values "$T/p" | tr '\n' ' ')" "$(seq -s ' ' 100) "
		check_eq "--: the same" "$(bump_values "$T/c" | tr '\n' ' ')" "$(seq -s ' ' 100) "
		# the kernel's writes at exec are to the program's page (a user address, read from the kernel's hit): zeroed
		kw=$(grep ' bp_var:w: addr' "$T/c" | sed '/ bp_bump+0x/,$d' | tail -1)
		if [ -n "$kw" ]; then
			check_eq "--: the kernel's last write at exec leaves 0" "$(grep -o ' value [^ ]* ip 0xffff' <<<"$kw")" " value 0x0 ip 0xffff"
		else
			skip "--: the kernel did not write bp_var at exec (its .bss page is not the file's)"
		fi
		"$PP" breakpoint --order bp_var:w -- "$W/bpvar" 1 >"$T/o" 2>"$T/o.err"
		check_eq "--order: the same values" "$(bump_values "$T/o" | tr '\n' ' ')" "$(seq -s ' ' 100) "
		"$PP" breakpoint --json bp_var:w -- "$W/bpvar" 1 >"$T/j" 2>"$T/j.err"
		check_eq "--json: the values, as hex strings" "$(grep "^{" "$T/j" | jq -r 'select(.type == "event" and .ip_sym == "bp_bump") | .value' | tr '\n' ' ')" "$(printf '0x%x ' $(seq 100))"
		"$PP" breakpoint -v --bpf bp_var:w bp_var/1:rw -- "$W/bpvar" 1 >"$T/v" 2>"$T/v.err"
		check_eq "--bpf, two breakpoints: exit status" $? 0
		check_eq "two breakpoints: each its own values (4 bytes: 1..100)" "$(bump_values "$T/v" | tr '\n' ' ')" "$(seq -s ' ' 100) "
		check_eq "two breakpoints: /1:rw: the byte after each read and write by bp_bump (1 byte: 0..99 read, 1..100 written)" \
			"$(grep ' bp_var/1:rw: addr .* bp_bump+0x' "$T/v" | sed -n 's/.* value \([^ ]*\) ip .*/\1/p' | while read -r v; do echo $((v)); done | tr '\n' ' ')" \
			"$(for i in $(seq 100); do printf '%d %d ' $((i - 1)) $i; done)"
	else
		skip "values: BPF cannot read them here ($(grep -o "values at the hits are unavailable.*" "$T/p.err"))"
	fi
	# a hex address: named by the variable it lies in (the symbols' data lookup), also
	# after the program exited (its mappings from the records)
	if command -v setarch >/dev/null; then
		a=$(addr_of "$T/c" bp_var)
		"$PP" breakpoint "$a:w" -- setarch -R "$W/bpvar" 1 >"$T/h" 2>"$T/h.err"
		check_eq "a hex address: exit status" $? 0
		check_eq "a hex address: its 100 writes by bp_bump name bp_var" "$(grep -c " $a:w: addr $a (bp_var+0x0) .* bp_bump+0x" "$T/h")" 100
		# CPU-wide (the events not inherited): each sample paired with its record by the
		# hit's number (the event's count), not by time
		if grep -q "value at each hit read in the kernel" "$T/p.err"; then
			"$PP" breakpoint -v "$a:w" >"$T/cw" 2>"$T/cw.err" &
			p=$!
			for i in $(seq 100); do grep -q monitoring "$T/cw.err" && break; kill -0 $p 2>/dev/null || break; sleep 0.1; done
			setarch -R "$W/bpvar" 1 >"$T/cw.wl"
			kill -INT $p 2>/dev/null
			wait $p
			check_eq "CPU-wide: exit status" $? 0
			cpid=$(sed -n 's/^pid=\([0-9]*\) .*/\1/p' "$T/cw.wl")
			check_eq "CPU-wide: the workload's 100 values, 1..100, paired by the hits' numbers" \
				"$(grep " $cpid \[.* $a:w: addr .* bp_bump+0x" "$T/cw" | sed -n 's/.* value 0x\([^ ]*\) ip .*/\1/p' | while read -r v; do echo $((16#$v)); done | tr '\n' ' ')" "$(seq -s ' ' 100) "
		fi
	else
		skip "a hex address: no setarch to run the workload without ASLR"
	fi
	"$PP" breakpoint -v --no-bpf bp_var:w -- "$W/bpvar" 1 >"$T/n" 2>"$T/n.err"
	check_eq "--no-bpf: exit status" $? 0
	check "--no-bpf: -v says the values are unavailable" grep -q "'bp_var:w': the values at the hits are unavailable (value ?): --no-bpf" "$T/n.err"
	check_eq "--no-bpf: every hit line says 'value ?', none a number" "$(grep ' bp_var:w: addr' "$T/n" | grep -vc ' value ? ip ')" 0
	check_eq "--no-bpf: 100 hits by bp_bump still" "$(hits_in "$T/n" bp_var:w bp_bump)" 100
	check_eq "--: 20 hits on bp_func" "$(hits_in "$T/c" bp_func bp_func)" 20
	check_eq "--: 100 writes by bp_bump" "$(hits_in "$T/c" bp_var:w bp_bump)" 100
	# enabled at exec: the kernel's zeroing of the .bss page at exec may write it too
	check_eq "--: any other write is the kernel's" "$(grep ' bp_var:w: addr' "$T/c" | grep -v ' bp_bump+0x' | grep -vc ' ip 0xffff')" 0
	attach "$T/g" "breakpoint -g -N 3 -p PID bp_var:w" bpvar 1
	check_eq "-g -N 3: 3 hits" "$(grep -c ' bp_var:w: addr' "$T/g")" 3
	if grep -q "value at each hit read in the kernel" "$T/g.err"; then
		check_eq "-g: the values 1, 2, 3 (with stacks)" "$(bump_values "$T/g" | tr '\n' ' ')" "1 2 3 "
	fi
	check_eq "-g: each with its stack: bp_bump, called by main" \
		"$(grep -A2 ' bp_var:w: addr' "$T/g" | grep -A1 '^    [0-9a-f]* bp_bump+0x' | grep -c '^    [0-9a-f]* main+0x')" 3
	# --flame-graph: the hits' stacks folded, the breakpoint their leaf
	"$PP" breakpoint -g --flame-graph "$T/fg" bp_var:w -- "$W/bpvar" 1 >"$T/fg.out" 2>"$T/fg.err"
	check_eq "--flame-graph: exit status" $? 0
	check_eq "--flame-graph: no line per hit" "$(grep -c ' bp_var:w: addr' "$T/fg.out")" 0
	check "--flame-graph: the 100 writes of bp_bump, called by main, in one folded stack" \
		grep -qE '^bpvar;([^ ]*;)?main;bp_bump;bp_var:w 100$' "$T/fg.folded"
	check_eq "--flame-graph: the folded hits are the hits counted" \
		"$(awk '{ s += $NF } END { print s }' "$T/fg.folded")" \
		"$(sed -n 's/^bp_var:w: \([0-9]*\) hits at 0x.*/\1/p' "$T/fg.out")"
fi
check_eq "nothing left running" "$(pgrep -fc "^$W/bpvar" || true)" 0

# a kernel address, all CPUs: starts and stops cleanly
k=$(awk '$2 ~ /^[DdBb]$/ && $1 !~ /^0+$/ { print $3; exit }' /proc/kallsyms)
if [ -n "$k" ]; then
	"$PP" breakpoint -v "$k:w" >"$T/k" 2>"$T/k.err" &
	p=$!
	for i in $(seq 100); do grep -q monitoring "$T/k.err" && break; kill -0 $p 2>/dev/null || break; sleep 0.1; done
	sleep 0.3
	kill -INT $p 2>/dev/null
	wait $p
	check_eq "kernel symbol $k, all CPUs: exit status" $? 0
	check "kernel symbol: resolved from kallsyms" grep -q "breakpoint on $k (\[kernel.kallsyms\]) at 0x$(grep " $k\$" /proc/kallsyms | head -1 | cut -d' ' -f1 | sed 's/^0*//') len [1248] w" "$T/k.err"
	check "kernel symbol: the count at the end" grep -q "^$k:w: [0-9]* hits\? at 0x" "$T/k"
else
	skip "no kernel data symbol in /proc/kallsyms"
fi

# a kernel variable's value at each write: jiffies, written at each tick, grows by 1 or more
if grep -q ' jiffies$' /proc/kallsyms && grep -q "value at each hit read in the kernel" "$T/p.err" 2>/dev/null; then
	"$PP" breakpoint -N 10 jiffies/8:w >"$T/jf" 2>"$T/jf.err"
	check_eq "jiffies: exit status" $? 0
	vals=$(sed -n 's/.* jiffies\/8:w: addr .* value \(0x[0-9a-f]*\) ip .*/\1/p' "$T/jf" | while read -r v; do printf '%d\n' "$v"; done)
	check_eq "jiffies: 10 values read" "$(echo "$vals" | grep -c .)" 10
	check_eq "jiffies: each greater than the one before" "$(echo "$vals" | awk 'NR > 1 && $1 <= p { bad++ } { p = $1 } END { print bad + 0 }')" 0
else
	skip "a kernel variable's values: no jiffies in /proc/kallsyms (no CONFIG_KALLSYMS_ALL), or no values read here"
fi

# bad input: the reason, status 2, nothing started
bad() {
	local what=$1 msg=$2
	shift 2
	"$PP" breakpoint "$@" >"$T/b.out" 2>"$T/b.err"
	check_eq "$what: status 2" $? 2
	check "$what: says '$msg'" grep -qF "$msg" "$T/b.err"
	check_eq "$what: nothing printed" "$(wc -c <"$T/b.out")" 0
}
bad "a bad address" "bad address '0xfoo' in '0xfoo:w': not a hex number" 0xfoo:w -- "$W/bpvar"
bad "a bad length" "bad length '3' in 'bp_var/3:w': 1, 2, 4 or 8 bytes" bp_var/3:w -- "$W/bpvar"
bad "a bad type" "bad type 'q' in 'bp_var:q': r, w, rw or x" bp_var:q -- "$W/bpvar"
bad "an unknown symbol" "'nonesuch:w': unknown symbol: neither in '$W/bpvar' nor in /proc/kallsyms" nonesuch:w -- "$W/bpvar"
bad "a library's symbol before it runs" "malloc is in " malloc:w -- "$W/bpvar"
bad "misaligned" "is not aligned to 4 bytes" bp_var+2/4:w -- "$W/bpvar"
bad "5 breakpoints" "5 breakpoints: this CPU has 4 debug registers, so at most 4" 0x1000 0x2000 0x3000 0x4000 0x5000
bad "no breakpoint" "no breakpoint: give ADDR[/LEN][:rwx]" -- "$W/bpvar"
bad "a symbol without a target" "needs -p PID or -- COMMAND" bp_var:w
bad "--flame-graph without -g" ": --flame-graph needs stacks: add -g" --flame-graph "$T/x" bp_var:w -- "$W/bpvar"
check_eq "bad input: the workload never ran" "$(pgrep -fc "^$W/bpvar" || true)" 0
done_tests
