#!/usr/bin/env bash
# Bash completion (completion/perf-prof): sourced with bash-completion's
# helpers, called as bash calls it (COMP_WORDS split at ':' and '=' as
# COMP_WORDBREAKS splits them, COMP_CWORD, COMP_LINE, COMP_POINT), and
# COMPREPLY checked: profilers, options, tracepoints from tracefs, CPUs,
# pids, files, option values.
. "$(dirname "$0")/lib.sh"
BC=/usr/share/bash-completion/bash_completion
if [ ! -f "$BC" ]; then
	skip "bash-completion is not installed (scripts/deps.sh installs it)"
	done_tests
	exit
fi
check "completion/perf-prof is valid bash" bash -n "$TOP/completion/perf-prof"

# comp LINE: the completions of LINE at its end, one per line
comp() {
	bash -c '
		. "$1"
		. "$2"
		compopt() { :; } # only inside a real completion
		line=$3
		words=()
		for w in $line; do
			rest=$w
			while [ -n "$rest" ]; do
				[[ $rest =~ ^([:=]+)(.*)$ ]] || [[ $rest =~ ^([^:=]+)(.*)$ ]]
				words+=("${BASH_REMATCH[1]}")
				rest=${BASH_REMATCH[2]}
			done
		done
		[[ $line == *" " ]] && words+=("")
		COMP_WORDS=("${words[@]}")
		COMP_CWORD=$((${#words[@]} - 1))
		COMP_LINE=$line
		COMP_POINT=${#line}
		COMPREPLY=()
		_perf_prof perf-prof "${words[COMP_CWORD]}" "${words[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"
		[ "$(complete -p perf-prof)" = "complete -F _perf_prof perf-prof" ] || echo NOT-REGISTERED
	' comp "$BC" "$TOP/completion/perf-prof" "$1" 2>"$T/comp.err"
}
# has LINE WORD...: every WORD is among the completions of LINE
has() {
	local line=$1 w out
	shift
	out=$(comp "$line")
	for w in "$@"; do grep -qxF -- "$w" <<<"$out" || return 1; done
	! grep -q NOT-REGISTERED <<<"$out"
}
# is LINE WORDS: the completions of LINE are exactly WORDS (sorted, space-separated)
is() { check_eq "'${1#"$PP"}' completes to '$2'" "$(comp "$1" | grep -v '^$' | sort | tr '\n' ' ' | sed 's/ $//')" "$2"; }

is "$PP tr" "trace"
all=$("$PP" --complete | sort | tr '\n' ' ' | sed 's/ $//')
is "$PP " "$all"
check "... with check, list, flamegraph, heatmap among them" has "$PP " check list flamegraph heatmap
is "$PP --sym" "--symbols"
is "$PP trace --ev" "--event"
check "'trace -' offers its options, short and long" has "$PP trace -" -e --event -C --cpu -p -o --output -g --flame-graph -h --help
is "$PP stat --peri" "--perins --period"
check "'event-care -' offers -g and the stack options" has "$PP event-care -" -g --call-graph --user-callchain
check "... and not another profiler's" eval '! has "$PP trace -" --than'
check "'task-state --' offers its own options" has "$PP task-state --" --than --filter --perins --no-interruptible
check "'sql --' offers --query and --output2" has "$PP sql --" --query --output2
is "$PP nosuch -" ""

# tracepoints from tracefs: systems, then sys:name (the part after ':' replaces the word's)
tfs=/sys/kernel/tracing
[ -d $tfs/events ] || tfs=/sys/kernel/debug/tracing
if [ -d $tfs/events/sched/sched_switch ]; then
	is "$PP trace -e sch" "sched:"
	is "$PP trace -e sched:sched_sw" "$(ls $tfs/events/sched | grep '^sched_sw' | sort | tr '\n' ' ' | sed 's/ $//')"
	check "... sched_switch among them" has "$PP trace -e sched:sched_sw" sched_switch
	is "$PP trace -e sched:sched_wakeup,sched:sched_swi" "sched_switch"
	is "$PP trace --event=sched:sched_swi" "sched_switch"
	check "'-e ' offers every system and the probe prefixes" \
		has "$PP trace -e " sched: syscalls: raw_syscalls: uprobe: usdt: kprobe:
	# in a filter, the event's fields (its format); after it, the profiler's attributes
	fields=$(sed -n 's/^[[:space:]]*field:.*[[:space:]*]\([a-z_][a-z0-9_]*\)\(\[[0-9]*\]\)*;.*/\1/p' $tfs/events/sched/sched_switch/format | grep '^prev_p' | sort)
	is "$PP trace -e sched:sched_switch/prev_p" "$(echo "$fields" | sed 's|^|sched_switch/|' | tr '\n' ' ' | sed 's/ $//')"
	check "... prev_pid among them" has "$PP trace -e sched:sched_switch/prev_p" sched_switch/prev_pid
	is "$PP trace -e 'sched:sched_switch/prev_pi" "sched:sched_switch/prev_pid"
	is "$PP trace -e sched:sched_switch/prev_pid==1&&next_co" "1&&next_comm"
	is "$PP trace --event=sched:sched_switch/next_co" "sched_switch/next_comm"
	is "$PP trace -e sched:sched_wakeup,sched:sched_switch/next_co" "sched_switch/next_comm"
	is "$PP multi-trace -e sched:sched_switch/prev_pid==1/ke" "1/key="
	is "$PP multi-trace -e 'sched:sched_switch/prev_pid==1/rol" "sched:sched_switch/prev_pid==1/role="
	is "$PP multi-trace -e 'sched:sched_switch/prev_pid==1/ro" "sched:sched_switch/prev_pid==1/role= sched:sched_switch/prev_pid==1/row="
	is "$PP multi-trace -e sched:sched_switch//un" "sched_switch//untraced"
	is "$PP trace -e sched:sched_switch//" "sched_switch//alias= sched_switch//cpus= sched_switch//exec= sched_switch//max-stack= sched_switch//stack"
	check "'--complete multi-trace -e': its attributes after the common ones" \
		test "$("$PP" --complete multi-trace -e | tr '\n' ' ')" = "stack max-stack= alias= cpus= key= role= untraced row= mark= trigger "
	is "$PP list sched:sched_switch/x" ""
	is "$PP trace -e sched:sched_switch/prev_pid==1/,sched:sched_swi" "sched_switch"
	is "$PP trace -e sched:sched_switch//,sched:sched_swi" "sched_switch"
	is "$PP stat -e sched:sched_switch/prev_p" ""
	is "$PP trace -e uprobe:malloc@/usr/lib/" ""
	is "$PP hrcount -e sched:sched_switch//" "sched_switch//alias= sched_switch//cpus="
	is "$PP sql -e sched:sched_switch//in" "sched_switch//index="
	is "$PP multi-trace -e sched:sched_wakeup -e sched:sched_swi" "sched_switch"
	is "$PP list sched:sched_swi" "sched_switch"
	check "list's patterns: systems, no probe prefix" eval 'has "$PP list sch" sched: && ! has "$PP list u" uprobe:'
	is "$PP stat -e task-cl" "task-clock"
	check "stat -e offers perf's names and tracepoints" has "$PP stat -e c" cs context-switches cpu-clock cpu-migrations
	check "... trace -e does not offer perf's names" eval '! has "$PP trace -e c" cpu-clock'
	is "$PP syscalls --syscall getpp" "getppid"
	is "$PP syscalls --syscall read,getpp" "read,getppid"
else
	skip "no tracefs with sched:sched_switch here: tracepoint completion not checked"
fi

# CPUs from /sys/devices/system/cpu/online
cpus=$(awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); for (c = r[1]; c <= r[n]; c++) print c } }' /sys/devices/system/cpu/online | sort | tr '\n' ' ' | sed 's/ $//')
is "$PP trace -C " "$cpus"
check "'-C 0,' goes on with the list" has "$PP trace -C 0," "0,0" "0,1"
check "'--cpu=' too" has "$PP stat --cpu=" 0 1

# pids: a digit prefix, or a name that completes to its pids
cp /bin/sleep "$T/ppcompsleeper"
spawn sl "$T/ppcompsleeper" 60
for i in $(seq 50); do [ "$(cat /proc/$sl/comm 2>/dev/null)" = ppcompsleeper ] && break; sleep 0.1; done
check "'-p PREFIX' offers the pid of a sleep started here" has "$PP trace -p ${sl:0:2}" "$sl"
is "$PP trace -p ppcompslee" "$sl"
is "$PP trace -p 1,ppcompslee" "1,$sl"
check "'-t' offers its thread" has "$PP trace -t $sl" "$sl"
reap "$sl"

# files where a file is expected
mkdir "$T/d"
touch "$T/d/run.folded" "$T/d/run.lat" "$T/d/notes.txt"
is "$PP trace -o $T/d/no" "$T/d/notes.txt"
is "$PP flamegraph $T/d/" "$T/d/run.folded"
is "$PP heatmap $T/d/r" "$T/d/run.lat"
is "$PP usdt " "add del list"
is "$PP usdt -v l" "list"
is "$PP usdt add $T/d/run.l" "$T/d/run.lat"
is "$PP trace -g --flame-graph $T/d/run.f" "$T/d/run.folded"
is "$PP --symbols $T/d/notes" "$T/d/notes.txt"
touch "$T/d/count.py"
is "$PP python -e sched:sched_wakeup $T/d/" "$T/d/count.py"
is "$PP python -e sched:sched_wakeup -- $T/d/count.py -x $T/d/no" "$T/d/notes.txt"

# option values
is "$PP trace --call-graph " "dwarf fp"
is "$PP trace --call-graph=dw" "dwarf"
is "$PP nested-trace --impl " "call call-delay delay"
is "$PP nested-trace --impl call-" "call-delay"
is "$PP trace --user-callchain=" "dwarf"
is "$PP multi-trace --impl " "call call-delay delay kmemprof pair syscalls"
check "'--user-callchain -': its value is optional, options follow" has "$PP trace --user-callchain -" --event
is "$PP kmemleak --preset p" "page percpu"
is "$PP flamegraph --count-name " "bytes ms samples us"
is "$PP flamegraph --title " ""
is "$PP syscalls --detail=samecpu,samep" "samecpu,samepid"
is "$PP trace -N " ""
if ls /sys/block | grep -q .; then
	d=$(ls /sys/block | head -1)
	check "'blktrace -d' offers block devices" has "$PP blktrace -d /dev/" "/dev/$d"
fi
# the command after --
check "'trace -- sle' completes commands" has "$PP trace -- sle" sleep
check "no message on stderr" [ ! -s "$T/comp.err" ]

done_tests
