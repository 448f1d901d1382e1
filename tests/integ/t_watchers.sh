#!/bin/bash
# The small watchers.  signal against tests/work/sigsend (10 SIGUSR1 to its
# child sig_a, 5 SIGTERM to sig_b, each acknowledged): 15 lines with the
# right names, senders and targets.  page-faults against tests/work/touch
# (one write to each of N fresh pages): at least N faults inside its buffer.
. "$(dirname "$0")/lib.sh"

[ -x "$W/sigsend" ] && [ -x "$W/touch" ] || { skip "workloads not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }

"$PP" signal -- "$W/sigsend" >"$T/s" 2>"$T/s.err"
check_eq "signal: exit status" $? 0
a=$(grep -o 'a=[0-9]*' "$T/s" | cut -d= -f2)
b=$(grep -o 'b=[0-9]*' "$T/s" | cut -d= -f2)
check_eq "signal: 10 SIGUSR1 to sig_a ($a), delivered" "$(grep -c " SIGUSR1: to sig_a $a (process): delivered$" "$T/s")" 10
check_eq "signal: 5 SIGTERM to sig_b ($b), delivered" "$(grep -c " SIGTERM: to sig_b $b (process): delivered$" "$T/s")" 5
check_eq "signal: 15 lines of SIGUSR1 and SIGTERM" "$(grep -c ' SIG\(USR1\|TERM\): ' "$T/s")" 15
check_eq "signal: all sent by sigsend" "$(grep ' SIG\(USR1\|TERM\): ' "$T/s" | awk '{ print $3 }' | sort -u)" sigsend
check_eq "signal: the exiting children's SIGCHLD to their parent, ignored" "$(grep -c ' SIGCHLD: to sigsend [0-9]* (process): ignored$' "$T/s")" 2

# -p: only signals to that process
spawn w sleep 30
"$PP" signal -p "$w" -v >"$T/p" 2>"$T/p.err" &
p=$!
for i in $(seq 100); do grep -q monitoring "$T/p.err" && break; sleep 0.1; done
kill -CONT "$w"; kill -WINCH "$w"; bash -c 'kill -USR2 $$ 2>/dev/null; true' 2>/dev/null
sleep 0.3
kill -INT $p; wait $p
check_eq "signal -p: its SIGCONT and SIGWINCH" "$(grep -c " SIG\(CONT\|WINCH\): to sleep $w " "$T/p")" 2
check_eq "signal -p: nothing to others" "$(grep -c ' SIG' "$T/p")" 2
reap "$w"

# --filter: by comm, target or sender
"$PP" signal --filter 'sig_b' -- "$W/sigsend" >"$T/f" 2>&1
check_eq "--filter sig_b: the 5 SIGTERM to it" "$(grep -c ' SIGTERM: to sig_b ' "$T/f")" 5
check_eq "--filter sig_b: none to sig_a" "$(grep -c ' to sig_a ' "$T/f")" 0
"$PP" signal --filter 'a,,b' -- true >/dev/null 2>"$T/fe"
check_eq "a bad --filter: status 2" $? 2

"$PP" page-faults -- "$W/touch" 300 >"$T/g" 2>&1
check_eq "page-faults: exit status" $? 0
buf=$(grep -o 'buf=0x[0-9a-f]*' "$T/g" | cut -d= -f2)
len=$(grep -o 'len=[0-9]*' "$T/g" | cut -d= -f2)
inside=$(grep -o 'page-faults: addr 0x[0-9a-f]*' "$T/g" | while read -r _ _ x; do echo $((x)); done |
	awk -v b=$((buf)) -v l="$len" '$1 >= b && $1 < b + l { n++ } END { print n + 0 }')
check_range "page-faults: at least 300 faults inside the buffer" "$inside" 300 600
"$PP" page-faults -g -N 5 -- "$W/touch" 300 >"$T/g2" 2>&1
check_eq "page-faults -N 5: 5 faults" "$(grep -c 'page-faults: addr' "$T/g2")" 5
check "page-faults -g: stacks" grep -q '^    [0-9a-f]\{16\} ' "$T/g2"
"$PP" page-faults --exclude-user --exclude-kernel -- true >/dev/null 2>&1
check_eq "page-faults: nothing left: status 2" $? 2
done_tests
