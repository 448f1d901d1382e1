#!/bin/bash
# sched-migrate against tests/work/cpu_hop, whose thread "cpu_hop_t", pinned
# to CPU 0, moves itself N times with sched_setaffinity: CPU 0 -> 1, 1 -> 0,
# ...  A thread allowed one CPU is never balanced, so the kernel migrates it
# exactly N times (N/2 each way), always from the running CPU's stopper
# thread (migration/ORIG on CPU ORIG: a running task's affinity change goes
# through migration_cpu_stop; on this kernel the stopper finds the thread
# waiting for it, and the completion's wakeup places it: set_task_cpu under
# try_to_wake_up under migration_cpu_stop), whose stack names the reason
# "stopper" (the stopper's stack does not show who asked).
# Checked: the lines of --detail (count, CPUs in order, the mover), the
# tables (per task, per CPU pair, by reason, the distance as sysfs says),
# --filter (globs and the original's field filter), -g --flame-graph's
# folded stacks, --json's records, -p (the target's migrations only, a
# second cpu_hop beside it left out), and the usage errors.
. "$(dirname "$0")/lib.sh"

N=100
H=$((N / 2))
[ -x "$W/cpu_hop" ] || { skip "workload cpu_hop not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -d /sys/kernel/tracing/events/sched/sched_migrate_task ] ||
	{ skip "no sched:sched_migrate_task tracepoint"; done_tests; exit; }
online=$(cat /sys/devices/system/cpu/online)
case $online in 0-[1-9]*) ;; *)
	skip "needs CPUs 0 and 1 online (online: $online)"
	done_tests
	exit
	;;
esac

# The distance of CPUs 0 and 1 as sysfs says: an L2 shared, else an LLC, else a node.
shared() { # LEVEL: whether CPU 0's cache of LEVEL (not an instruction cache) holds CPU 1
	local d
	for d in /sys/devices/system/cpu/cpu0/cache/index*; do
		[ "$(cat "$d/level" 2>/dev/null)" = "$1" ] || continue
		[ "$(cat "$d/type")" = Instruction ] && continue
		awk -v c=1 -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-");
			if ((n == 1 && r[1] == c) || (n == 2 && r[1] <= c && c <= r[2])) f = 1 } }
			END { exit !f }' "$d/shared_cpu_list" && return 0
	done
	return 1
}
llc=$(for d in /sys/devices/system/cpu/cpu0/cache/index*; do cat "$d/level"; done 2>/dev/null |
	sort -n | tail -1)
if shared 2; then dist=l2; elif [ -n "$llc" ] && [ "$llc" -gt 2 ] && shared "$llc"; then dist=llc
else
	dist=node
	for n in /sys/devices/system/node/node*; do
		[ -e "$n/cpu0" ] && [ ! -e "$n/cpu1" ] && dist=remote
	done
fi

# field N of the first line whose first fields are A B (a table's key)
row2() { awk -v a="$2" -v b="$3" -v n="$4" '$1 == a && $2 == b { print $n; exit }' "$1"; }

# --detail: a line per migration, in time order
"$PP" sched-migrate --detail -- "$W/cpu_hop" $N >"$T/d" 2>"$T/d.err"
check_eq "--detail: exit status" $? 0
check_eq "--detail: nothing on stderr" "$(cat "$T/d.err")" ""
check_eq "the workload's hops all landed" "$(sed -n 's/^hops=//p' "$T/d")" $N
tid=$(sed -n 's/^tid=//p' "$T/d")
grep " migrate: cpu_hop_t $tid prio " "$T/d" >"$T/d.hops"
check_eq "--detail: $N migrations of the thread" "$(wc -l <"$T/d.hops")" $N
check_eq "--detail: $H from CPU 0 to 1" "$(grep -c ': CPU 0 -> 1 (' "$T/d.hops")" $H
check_eq "--detail: $H from CPU 1 to 0" "$(grep -c ': CPU 1 -> 0 (' "$T/d.hops")" $H
want=$(for ((i = 1; i <= N; i++)); do [ $((i & 1)) = 1 ] && echo "0->1" || echo "1->0"; done)
got=$(sed 's/.*: CPU \([0-9]\) -> \([0-9]\) (.*/\1->\2/' "$T/d.hops")
check_eq "--detail: in the order the thread moved (0->1 first, then back)" "$got" "$want"
check_eq "--detail: mover migration/ORIG on [ORIG]" \
	"$(grep -cE '^[0-9-]+ [0-9:.]+ +migration/0 +[0-9]+ \[000\] migrate: .*: CPU 0 -> 1 |^[0-9-]+ [0-9:.]+ +migration/1 +[0-9]+ \[001\] migrate: .*: CPU 1 -> 0 ' "$T/d.hops")" $N
check_eq "--detail: the distance as sysfs says ($dist)" "$(grep -c ": CPU [01] -> [01] ($dist)\$" "$T/d.hops")" $N
# (its start, still named cpu_hop, and its pinning to CPU 0 as hop_prep may
# have moved it too: lines say so)
prep=$(grep -E " migrate: [^ ]+ $tid prio " "$T/d" | grep -vc " migrate: cpu_hop_t ")
check_eq "the task's row: $N and the $prep before" \
	"$(awk -v t="$tid" '$1 == t && $2 == "cpu_hop_t" { print $3 }' "$T/d")" $((N + prep))
check "the task table's header" grep -qE '^    TID COMM             MIGRATIONS OUT_OF_LLC( CROSS_NODE)?$' "$T/d"
check "the summary line" grep -qE "^migrations [0-9]+, same L2 [0-9]+ \([0-9.]+%\), same LLC [0-9]+ " "$T/d"

# --filter on the comm, -g: the tables hold that thread's migrations only, the reason from the stack
"$PP" sched-migrate --filter cpu_hop_t -g -- "$W/cpu_hop" $N >"$T/f" 2>"$T/f.err"
check_eq "--filter -g: exit status" $? 0
check_eq "--filter -g: nothing on stderr" "$(cat "$T/f.err")" ""
tid=$(sed -n 's/^tid=//p' "$T/f")
check "--filter: the summary counts $N" grep -q "^migrations $N, " "$T/f"
check_eq "--filter: one task row" "$(awk '$2 == "cpu_hop_t" || $2 == "cpu_hop" || $2 == "hop_prep"' "$T/f" | wc -l)" 1
check_eq "--filter: its $N migrations" "$(awk -v t="$tid" '$1 == t && $2 == "cpu_hop_t" { print $3 }' "$T/f")" $N
check_eq "--filter: $H from 0 to 1" "$(row2 "$T/f" 0 1 3)" $H
check_eq "--filter: $H from 1 to 0" "$(row2 "$T/f" 1 0 3)" $H
check_eq "--filter: the pair's distance" "$(row2 "$T/f" 0 1 4)" $dist
check_eq "-g: all $N by the stopper" "$(awk '$1 == "stopper" { print $2 }' "$T/f")" $N
check_eq "-g: no other reason" "$(awk 'f && NF == 2 { n++ } /^REASON/ { f = 1 } END { print n }' "$T/f")" 1

# the original's filter over the event's fields
"$PP" sched-migrate --filter 'comm=="cpu_hop_t" && orig_cpu==1' -- "$W/cpu_hop" $N >"$T/e" 2>"$T/e.err"
check_eq "field filter: exit status" $? 0
check "field filter: $H migrations, all from CPU 1" grep -q "^migrations $H, " "$T/e"
check_eq "field filter: no pair from CPU 0" "$(row2 "$T/e" 0 1 3)" ""
# a clause the kernel cannot take (arithmetic) runs in user space, the rest in the kernel
"$PP" sched-migrate --filter 'dest_cpu+1==2 && comm=="cpu_hop_t"' -- "$W/cpu_hop" $N >"$T/u" 2>"$T/u.err"
check_eq "user-space filter: exit status" $? 0
check_eq "user-space filter: nothing on stderr without -v" "$(cat "$T/u.err")" ""
check "user-space filter: $H migrations, all to CPU 1" grep -q "^migrations $H, " "$T/u"
check_eq "user-space filter: the pair 0 -> 1" "$(row2 "$T/u" 0 1 3)" $H

# -g --flame-graph: the folded stacks, under the task's comm, through migration_cpu_stop
"$PP" sched-migrate --filter cpu_hop_t -g --flame-graph "$T/m.folded" -- "$W/cpu_hop" $N \
	>"$T/g" 2>"$T/g.err"
check_eq "--flame-graph: exit status" $? 0
check_eq "--flame-graph: nothing on stderr" "$(cat "$T/g.err")" ""
check_eq "--flame-graph: $N stacks folded" "$(awk '{ n += $NF } END { print n }' "$T/m.folded")" $N
check_eq "--flame-graph: each under cpu_hop_t, through migration_cpu_stop" \
	"$(awk '/^cpu_hop_t;/ && /;migration_cpu_stop_\[k\];/ { n += $NF } END { print n }' "$T/m.folded")" $N
check "--flame-graph: set_task_cpu at the leaf" grep -q ';set_task_cpu_\[k\] [0-9]*$' "$T/m.folded"

# --json: the same counts in the records
"$PP" sched-migrate --filter cpu_hop_t --detail -g --json -o "$T/j" -- "$W/cpu_hop" $N \
	>"$T/j.wl" 2>"$T/j.err"
check_eq "--json: exit status" $? 0
check_eq "--json: nothing on stderr" "$(cat "$T/j.err")" ""
parses() { jq -e . "$1" >/dev/null; }
check "--json: every line parses" parses "$T/j"
tid=$(sed -n 's/^tid=//p' "$T/j.wl")
ev() { jq -r "select(.type == \"event\") | $1" "$T/j"; }
check_eq "--json: $N event records" "$(ev .task_pid | grep -cx "$tid")" $N
check_eq "--json: $H 0 -> 1" "$(ev 'select(.orig_cpu == 0 and .dest_cpu == 1) | .task_comm' | grep -cx cpu_hop_t)" $H
check_eq "--json: the movers" \
	"$(ev 'select(.comm == "migration/\(.orig_cpu)" and .cpu == .orig_cpu) | .tid' | wc -l)" $N
check_eq "--json: reason and distance" \
	"$(ev 'select(.reason == "stopper" and .distance == "'$dist'") | .prio' | grep -c .)" $N
check_eq "--json: the stacks have migration_cpu_stop" \
	"$(ev 'any(.stack[]; .sym == "migration_cpu_stop")' | grep -c true)" $N
check_eq "--json: summary" "$(jq -r 'select(.type == "summary") | "\(.scope) \(.migrations)"' "$T/j")" "run $N"
cross=0
[ $dist = remote ] && cross=$N
check_eq "--json: task" \
	"$(jq -r 'select(.type == "task") | "\(.tid) \(.comm) \(.migrations) \(.cross_node)"' "$T/j")" \
	"$tid cpu_hop_t $N $cross"
check_eq "--json: pairs" \
	"$(jq -r 'select(.type == "pair") | "\(.orig_cpu)>\(.dest_cpu) \(.migrations) \(.distance)"' "$T/j" | sort)" \
	"$(printf '0>1 %s %s\n1>0 %s %s' $H $dist $H $dist)"
check_eq "--json: reason" "$(jq -r 'select(.type == "reason") | "\(.reason) \(.migrations)"' "$T/j")" \
	"stopper $N"

# -p: the target's migrations only, whoever moves them; a second cpu_hop hops meanwhile
wl_start "$T/p" cpu_hop $N
mkfifo "$T/other.fifo"
spawn OTHER "$W/cpu_hop" -f "$T/other.fifo" $N >"$T/other.wl"
wait_for "$T/other.wl" '^tid=' "$OTHER"
wait_for "$T/p.wl" '^tid=' "$WL"
monitor "$T/p.out" sched-migrate -p "$WL_PID"
echo go >"$T/other.fifo"
echo go >"$T/p.fifo"
wait "$WL"
wait "$OTHER"
stop "$T/p.out"
reap "$WL"
reap "$OTHER"
check_eq "-p: exit status" "$(cat "$T/p.out.rc")" 0
check_eq "-p: the other's hops landed" "$(sed -n 's/^hops=//p' "$T/other.wl")" $N
tid=$(sed -n 's/^tid=//p' "$T/p.wl")
otid=$(sed -n 's/^tid=//p' "$T/other.wl")
tasks() { awk '/^ *TID COMM/ { f = 1; next } /^$/ { f = 0 } f' "$1"; }
check_eq "-p: the thread's $N migrations" "$(tasks "$T/p.out" | awk -v t="$tid" '$1 == t { print $3 }')" $N
check_eq "-p: only the process's threads" \
	"$(tasks "$T/p.out" | awk -v p="$WL_PID" -v t="$tid" '$1 != p && $1 != t')" ""
check_eq "-p: not the other cpu_hop's" "$(tasks "$T/p.out" | awk -v t="$otid" '$1 == t')" ""

usage_bad "a glob the kernel reads otherwise" "bad --filter 'a[^b]'" sched-migrate --filter 'a[^b]'
usage_bad "a field the event lacks" "rejected by the kernel" sched-migrate --filter 'nosuch==1' -- true
usage_bad "an empty --filter" "bad --filter ''" sched-migrate --filter ''
usage_bad "--exclude-kernel" "exclude-kernel" sched-migrate --exclude-kernel
usage_bad "--cgroups: it would select the movers" "--cgroups: the event fires in the context" \
	sched-migrate --cgroups /

done_tests
