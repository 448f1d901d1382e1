#!/bin/bash
# blktrace on a loop device backed by a file: 100 O_DIRECT reads of 4 KiB
# are 100 requests.  Without an I/O scheduler blk-mq issues them directly
# (getrq => issue, no insert); with mq-deadline each goes getrq => insert
# => issue.  Either way issue => complete counts 100.
. "$(dirname "$0")/lib.sh"

[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/block/block_rq_issue ] ||
	{ skip "no block tracepoints"; done_tests; exit; }
command -v losetup >/dev/null || { skip "no losetup"; done_tests; exit; }

"$PP" blktrace >/dev/null 2>"$T/u1"
check_eq "no -d: status 2" $? 2
check "no -d: says so" grep -q 'give the device: -d' "$T/u1"
"$PP" blktrace -d /dev/null -- true >/dev/null 2>"$T/u2"
check_eq "-d of a non-block device: status 2" $? 2
"$PP" blktrace -d /dev/loop0 -p 1 >/dev/null 2>"$T/u3"
check_eq "-p: status 2" $? 2

truncate -s 16M "$T/img"
L=$(losetup --find --show "$T/img") || { skip "losetup failed"; done_tests; exit; }
trap 'losetup -d "$L" 2>/dev/null; _cleanup' EXIT
# udev probes a new block device (partition tables, filesystems): not in our counts
command -v udevadm >/dev/null && udevadm settle -t 10 2>/dev/null
sleep 0.5
Q=/sys/block/$(basename "$L")/queue/scheduler
row() { awk -v a="$2" -v b="$3" -v n="$4" '$1 == a && $2 == "=>" && $3 == b { print $n; exit }' "$1"; }

# run OUT: blktrace on the loop device while dd makes 100 direct reads
run() {
	local out=$1 p i
	rm -f "$out.err" # not an earlier run's "monitoring"
	"$PP" blktrace -d "$L" -v >"$out" 2>"$out.err" &
	p=$!
	for ((i = 0; i < 600; i++)); do
		grep -qs '^perf-prof: monitoring' "$out.err" && break
		sleep 0.1
	done
	dd if="$L" of=/dev/null bs=4k count=100 iflag=direct 2>/dev/null
	sleep 0.3
	kill -INT $p
	wait $p
	echo $? >"$out.rc"
}

for sched in none mq-deadline; do
	if ! grep -qw "$sched" "$Q" || ! echo "$sched" >"$Q" 2>/dev/null; then
		skip "$sched: not offered for loop devices here"
		continue
	fi
	run "$T/$sched"
	check_eq "$sched: exit status" "$(cat "$T/$sched.rc")" 0
	check_eq "$sched: issue => complete" "$(row "$T/$sched" issue complete 4)" 100
	if [ "$sched" = none ]; then
		check_eq "none: getrq => issue (direct)" "$(row "$T/$sched" getrq issue 4)" 100
		check_eq "none: no insert" "$(grep -c '^getrq => insert\|^insert => issue' "$T/$sched")" 0
	else
		check_eq "$sched: getrq => insert" "$(row "$T/$sched" getrq insert 4)" 100
		check_eq "$sched: insert => issue" "$(row "$T/$sched" insert issue 4)" 100
	fi
	check "$sched: nothing dropped" bash -c "! grep -q dropped '$T/$sched'"
done
echo none >"$Q" 2>/dev/null

done_tests
