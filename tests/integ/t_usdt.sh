#!/bin/bash
# perf-prof usdt add|del|list against tests/work/probe/probe_calls, whose
# USDT probes are known: ppwork:tick(i, 2i) once a loop, ppwork:twice(i,
# SITE) from two sites (SITE 1 for even i, 2 for odd), ppwork:sematick(i)
# only while a tracer holds its semaphore (the workload prints how often it
# was set); probe_many, five ppmany probes whose third has a name tracefs
# refuses; and probe_names, ppname probes whose events' names meet (foo and
# foo_1; tick's second site and tick_1).  list is checked against readelf
# -n; the events add makes are fired N times through perf-prof trace and
# perf stat and must count exactly N with the right arguments; del removes
# them; add that fails half way leaves nothing; and nothing of this suite
# stays in uprobe_events, even when a check fails (the EXIT trap removes
# what is left).
. "$(dirname "$0")/lib.sh"

X=$W/probe_calls
M=$W/probe_many
N=$W/probe_names
UE=/sys/kernel/tracing/uprobe_events
[ -x "$X" ] && [ -x "$M" ] && [ -x "$N" ] ||
	{ skip "workloads probe_calls, probe_many, probe_names not built (make workloads)"; done_tests; exit; }
[ -x "$PP" ] || { skip "no $PP"; done_tests; exit; }
[ -w "$UE" ] || { skip "no tracefs uprobe_events here"; done_tests; exit; }
X=$(realpath "$X")
M=$(realpath "$M")
N=$(realpath "$N")

# our events: those on the workloads of this build
ours() { grep -F -e " $X:" -e " ${X}_O0:" -e " $M:" -e " $N:" "$UE" 2>/dev/null; }
nours() { ours | wc -l; }
leftovers() {
	local e
	for e in $(ours | sed -E 's/^[pr]:([^ ]+) .*/\1/' | sort -u); do
		echo "-:$e" >>"$UE" 2>/dev/null
	done
}
trap 'leftovers; _cleanup' EXIT
leftovers
check_eq "no event on the workloads before the suite" "$(nours)" 0

# ---- list, against readelf -n ----
"$PP" usdt list --json "$X" >"$T/l.json" 2>"$T/l.err"
check_eq "list --json: status" $? 0
check_eq "list --json: nothing on stderr" "$(cat "$T/l.err")" ""
check_eq "list --json: a line per note" "$(wc -l <"$T/l.json")" 4
check_eq "list --json: the probes, in note order" \
	"$(jq -r '"\(.provider):\(.name)"' "$T/l.json" | tr '\n' ' ')" \
	"ppwork:twice ppwork:tick ppwork:twice ppwork:sematick "
# readelf's notes: "ADDRESS SEMAPHORE ARGUMENTS" per note, in note order
readelf -n "$X" | awk '/Location:/ { gsub(",", ""); a = $2; s = $6 }
	/Arguments:/ { $1 = ""; print a, s, $0 }' >"$T/re"
jq -r '[.address, (.semaphore // "0x0"), ([.args[] | "\(if .signed then "-" else "" end)\(.size)@\(.kind)\(if .kind == "memory" then (.location | sub("\\(.*"; "")) else "" end)"] | join(" "))] | join(" ")' \
	"$T/l.json" >"$T/ours"
# readelf's operands reduced to what list says of them: size, sign, kind, displacement
while read -r loc sem args; do
	printf '0x%x 0x%x' $((loc)) $((sem))
	for o in $args; do
		op=${o#*@} d=""
		case $op in
		\$*) k=constant ;;
		*\(*) k=memory d=${op%%(*} ;;
		*) k=register ;;
		esac
		printf ' %s@%s%s' "${o%%@*}" "$k" "$d"
	done
	echo
done <"$T/re" >"$T/theirs"
check_eq "list: address, semaphore and each operand's size, sign, kind as readelf -n says" \
	"$(cat "$T/ours")" "$(cat "$T/theirs")"
check_eq "list: the two sites of twice pass 1 and 2" \
	"$(jq -r 'select(.name == "twice") | .args[1].location' "$T/l.json" | sort | tr '\n' ' ')" '$1 $2 '
check_eq "list: only sematick has a semaphore" \
	"$(jq -r 'select(.semaphore != null) | .name' "$T/l.json")" sematick
"$PP" usdt list "$X" >"$T/l.txt" 2>&1
check "list: a text table with its header" grep -q '^PROBE  *ADDRESS SEMAPHORE EVENT  *FILE  *ARGUMENTS$' "$T/l.txt"
check "list: tick's operands" grep -qE '^ppwork:tick .* arg1:s64 [^,]+, arg2:s64 ' "$T/l.txt"
check "list: nothing added yet" bash -c "! grep -q 'ppwork:tick  *[0-9a-fx]*  *- ppwork' '$T/l.txt'"
a0=$(jq -r 'select(.name == "tick") | .address' "$T/l.json")
check_eq "list FILE@ADDR, FILE relative to the current directory: that note" \
	"$(cd "$W" && "$PP" usdt list --json "probe_calls@$a0" | jq -r '"\(.name) \(.file)"')" "tick $X"
check_eq "list NAME@FILE, FILE relative: that probe's notes" \
	"$(cd "$W" && "$PP" usdt list --json "twice@probe_calls" | jq -r .name | tr '\n' ' ')" "twice twice "
"$PP" usdt list --json "${X}_O0" >"$T/l0.json"
check_eq "list -O0: tick's arg1 is memory off %bp" \
	"$(jq -r 'select(.name == "tick") | .args[0] | "\(.kind) \(.fetch)"' "$T/l0.json")" \
	"memory $(jq -r 'select(.name == "tick") | .args[0].location' "$T/l0.json"):s64"

# ---- add: every probe of the file ----
"$PP" usdt add "$X" >"$T/a" 2>"$T/a.err"
check_eq "add: status" $? 0
check_eq "add: nothing on stderr" "$(cat "$T/a.err")" ""
check_eq "add: an event per probe, twice's two sites in one" "$(cat "$T/a")" \
	"added ppwork:twice (2 sites in $X)
added ppwork:tick (1 site in $X)
added ppwork:sematick (1 site in $X, its semaphore set while enabled)"
check_eq "uprobe_events: a probe per note" "$(nours)" 4
sema_off=$(jq -r 'select(.name == "sematick") | .semaphore_offset' "$T/l.json")
check "uprobe_events: sematick with its semaphore as the reference counter" \
	grep -qE "^p:ppwork/sematick $X:0x[0-9a-f]+\(${sema_off}\) arg1=" "$UE"
check "uprobe_events: tick's operands typed s64" grep -qE "^p:ppwork/tick $X:0x[0-9a-f]+ arg1=[^ ]+:s64 arg2=[^ ]+:s64$" "$UE"
check "the event's format has arg1 and arg2" \
	bash -c "grep -q 'field:s64 arg1;' /sys/kernel/tracing/events/ppwork/tick/format &&
		grep -q 'field:s64 arg2;' /sys/kernel/tracing/events/ppwork/tick/format"

# ---- fired N times: exactly N hits, the right arguments ----
"$PP" trace -e ppwork:tick,ppwork:twice,ppwork:sematick -- "$X" 300 >"$T/t" 2>"$T/t.err"
check_eq "trace the added events: status" $? 0
check_eq "tick: 300 hits" "$(grep -c ' ppwork:tick: ' "$T/t")" 300
check_eq "tick: arg1 = 0..299 once each, arg2 = 2 * arg1" \
	"$(grep ' ppwork:tick: ' "$T/t" | grep -oE 'arg1=[0-9]+ arg2=[0-9]+' |
		awk -F'[= ]' '$4 == 2 * $2 { print $2 }' | sort -un | awk 'NR == 1 { f = $1 } END { print NR, f, $1 }')" \
	"300 0 299"
check_eq "twice: 300 hits through one event, site 1 for even i and 2 for odd" \
	"$(grep ' ppwork:twice: ' "$T/t" | grep -oE 'arg1=[0-9]+ arg2=[0-9]+' |
		awk -F'[= ]' '{ n[$4 == 1 + $2 % 2 ? $4 : "bad"]++ } END { print n[1] + 0, n[2] + 0, n["bad"] + 0 }')" \
	"150 150 0"
check_eq "sematick: 300 hits, arg1 = i" \
	"$(grep ' ppwork:sematick: ' "$T/t" | grep -oE 'arg1=[0-9]+' | sort -u | wc -l)" 300
check "sematick: the workload saw its semaphore set 300 times" grep -q 'sema=300 done 300' "$T/t"
"$PP" trace -e 'ppwork:tick/arg1<10 && arg2>=4/' -- "$X" 300 >"$T/tf" 2>&1
check_eq "a kernel filter on the event's fields: arg1 = 2..9" \
	"$(grep ' ppwork:tick: ' "$T/tf" | grep -oE 'arg1=[0-9]+' | tr '\n' ' ')" \
	"arg1=2 arg1=3 arg1=4 arg1=5 arg1=6 arg1=7 arg1=8 arg1=9 "
"$X" 10 >"$T/nosema"
check "the semaphore is 0 while no tracer enables the event" grep -q 'sema=0 done 10' "$T/nosema"
if command -v perf >/dev/null; then
	perf stat -x, -e ppwork:tick -e ppwork:twice -- "$X" 200 >/dev/null 2>"$T/ps"
	check_eq "perf stat counts the events: 200 ticks, 200 twice" \
		"$(awk -F, '$3 ~ /^ppwork:/ { printf "%s=%s ", $3, $1 }' "$T/ps")" \
		"ppwork:tick=200 ppwork:twice=200 "
else
	skip "no perf: the events through another tool"
fi
"$PP" trace -e "usdt:ppwork:tick@\"$X\"" -- "$X" 50 >"$T/u" 2>&1
check_eq "-e usdt: on the same note still works beside the added event" \
	"$(grep -c ' usdt:ppwork:tick: ' "$T/u")" 50

# ---- list what is added ----
"$PP" usdt list --json >"$T/all.json" 2>"$T/all.err"
check_eq "list without a file: status" $? 0
check_eq "list without a file: our four notes with their events" \
	"$(jq -r --arg f "$X" 'select(.file == $f) | "\(.event)@\(.address)"' "$T/all.json" | sort | tr '\n' ' ')" \
	"$(jq -r '"ppwork:\(.name)@\(.address)"' "$T/l.json" | sort | tr '\n' ' ')"
"$PP" usdt list "$X" >"$T/l2.txt"
check_eq "list FILE: each note names its event" "$(awk 'NR > 1 && $1 == $4 { n++ } END { print n }' "$T/l2.txt")" 4

# ---- what add refuses: one line; nothing made ----
bad() { # DESC STATUS WORDS ARGS...
	local d=$1 st=$2 w=$3
	shift 3
	"$PP" usdt "$@" >"$T/b.out" 2>"$T/b.err"
	check_eq "$d: status $st" $? "$st"
	check_eq "$d: one line" "$(wc -l <"$T/b.err")" 1
	check "$d: says '$w'" grep -qF -- "$w" "$T/b.err"
}
bad "add what is added" 1 "ppwork:tick is added already" add "ppwork:tick@$X"
bad "add the file again" 1 "is added already" add "$X"
bad "the same names from another file" 1 "an event ppwork:tick exists already, on $X (perf-prof usdt del it first)" add "tick@${X}_O0"
check_eq "... nothing more in uprobe_events" "$(nours)" 4
bad "an unknown probe" 2 "no USDT probe ppwork:nosuch in $X (see: perf-prof usdt list" add "ppwork:nosuch@$X"
bad "a file without notes" 2 "has no USDT probes (no .note.stapsdt section" add "$W/spin"
bad "not an ELF file" 2 "'/etc/hostname': /etc/hostname is not an ELF file" list /etc/hostname
bad "no such file" 2 "no file '/nonexistent/prog'" add /nonexistent/prog
bad "no note at @ADDR" 2 "no USDT probe *:* at 0x1 in $X" add "$X@0x1"
bad "an address that is not one" 2 "'0xzz' is not an address" add "$X@0xzz"
bad "an empty probe name" 2 "an empty provider or probe name" add "ppwork:@$X"
bad "no subcommand" 2 "add, del or list?"
bad "a subcommand that is none" 2 "'frob': not add, del or list" frob "$X"
bad "add without a probe" 2 "which probes?" add
bad "--json for add" 2 "--json is for usdt list" add --json "$X"

# ---- del while a tracer has the event open: refused, nothing changed ----
mkfifo "$T/go"
spawn tr sh -c "exec \"$PP\" trace -e ppwork:tick -- \"$X\" -f \"$T/go\" 10 >\"$T/busy\" 2>&1"
# the workload says its pid, then waits on the fifo: the tracer has the event open
for i in $(seq 300); do grep -q '^pid=' "$T/busy" 2>/dev/null && break; sleep 0.1; done
bad "del an event a tracer has open" 1 "cannot remove ppwork:tick: Device or resource busy (a tracer has it open: stop it first)" del "ppwork:tick@$X"
check_eq "... it stays" "$(nours)" 4
echo go >"$T/go"
for i in $(seq 300); do kill -0 "$tr" 2>/dev/null || break; sleep 0.1; done
reap "$tr"
check_eq "... and the tracer counts its 10 hits" "$(grep -c ' ppwork:tick: ' "$T/busy")" 10

# ---- del: one site, then the rest ----
a1=$(jq -r 'select(.name == "twice") | .address' "$T/l.json" | head -1)
s1=$(jq -r --arg a "$a1" 'select(.address == $a) | .args[1].location' "$T/l.json")
"$PP" usdt del "ppwork:twice@$X@$a1" >"$T/d1" 2>&1
check_eq "del one site of twice (@ADDR): status" $? 0
check_eq "... says so" "$(cat "$T/d1")" "removed 1 of the 2 sites of ppwork:twice (in $X)"
check_eq "... the other site stays" "$(ours | grep -c '^p:ppwork/twice ')" 1
check "... in an event whose fields keep their names" \
	bash -c "grep -q 'field:s64 arg1;' /sys/kernel/tracing/events/ppwork/twice/format &&
		grep -q 'field:s32 arg2;' /sys/kernel/tracing/events/ppwork/twice/format"
"$PP" trace -e ppwork:twice -- "$X" 100 >"$T/t2" 2>&1
check_eq "twice fires from the other site only: 50 hits, none with ${s1#\$}" \
	"$(grep ' ppwork:twice: ' "$T/t2" | grep -oE 'arg2=[0-9]+' | sort | uniq -c | awk '{ print $1, $2 }')" \
	"50 arg2=$((3 - ${s1#\$}))"
"$PP" usdt del -v "$X" >"$T/d2" 2>"$T/d2.err"
check_eq "del the file: status" $? 0
check_eq "del the file: nothing on stderr" "$(cat "$T/d2.err")" ""
check_eq "del the file: each event removed (in uprobe_events' order)" "$(grep '^removed' "$T/d2" | sort)" \
	"removed ppwork:sematick (1 site in $X)
removed ppwork:tick (1 site in $X)
removed ppwork:twice (1 site in $X)"
check_eq "-v: the lines written" "$(grep -c '^    -:ppwork/' "$T/d2")" 3
check_eq "nothing of ours left in uprobe_events" "$(nours)" 0
check "the events are gone from tracefs" test ! -e /sys/kernel/tracing/events/ppwork
bad "del what is not added" 1 "ppwork:tick is not added for $X" del "ppwork:tick@$X"
bad "del a file none of whose probes is added" 1 "none of the USDT probes of $X is added" del "$X"

# ---- a probe by name, globs ----
"$PP" usdt add "sematick@$X" >"$T/a2"
check_eq "add NAME@FILE: that probe only" "$(ours | sed -E 's/ .*//')" "p:ppwork/sematick"
"$X" 5 >"$T/ns2"
check "its semaphore is still 0 while not enabled" grep -q 'sema=0 done 5' "$T/ns2"
"$PP" usdt del "ppwork:sematick@$X" >/dev/null
"$PP" usdt add "ppwork:t*@$X" >"$T/a3"
check_eq "add a glob: tick and twice" "$(ours | sed -E 's/ .*//' | sort -u | tr '\n' ' ')" "p:ppwork/tick p:ppwork/twice "
"$PP" usdt del "ppwork:t*@$X" >/dev/null
check_eq "del the glob: nothing left" "$(nours)" 0

# ---- all or nothing: the third of five refused, the two made before removed ----
"$PP" usdt add -v "$M" >"$T/m" 2>"$T/m.err"
check_eq "add five, the third refused: status 1" $? 1
check_eq "... one line on stderr" "$(wc -l <"$T/m.err")" 1
check "... with the kernel's reason" grep -q "p:ppmany/a_probe_name_much_longer.*: Event name is too long$" "$T/m.err"
check_eq "... the two before it were made (-v)" "$(grep -c '^    p:ppmany/' "$T/m")" 2
check_eq "... and removed again (-v)" "$(grep '^    -:ppmany/' "$T/m" | sort | tr '\n' ' ')" \
	"    -:ppmany/one     -:ppmany/two "
check_eq "... and nothing said added" "$(grep -c '^added' "$T/m")" 0
check_eq "... and nothing left in uprobe_events" "$(nours)" 0
check "... nor in tracefs's events" test ! -e /sys/kernel/tracing/events/ppmany
# ---- an undo that cannot remove an event it made: a line for it, and how ----
# libbusy_write.so answers EBUSY to "-:ppmany/one" as the kernel does while
# a tracer has the event open (a real tracer would have to open it within
# the undo's retries: a race, not a test)
BUSY_WRITE=-:ppmany/one LD_PRELOAD=$W/libbusy_write.so "$PP" usdt add "$M" >"$T/bw" 2>"$T/bw.err"
check_eq "add five, the third refused, one not removable: status 1" $? 1
check_eq "... two lines on stderr" "$(wc -l <"$T/bw.err")" 2
check_eq "... first the kernel's refusal" \
	"$(head -1 "$T/bw.err" | grep -c "^perf-prof usdt add: '$M': the kernel refused 'p:ppmany/a_probe.*: Event name is too long$")" 1
check_eq "... then the event left behind, and how to remove it" "$(sed -n 2p "$T/bw.err")" \
	"perf-prof usdt add: ppmany:one, made before the failure, stays: cannot remove it: Device or resource busy (a tracer has it open; when it is closed: perf-prof usdt del ppmany:one@$M)"
check_eq "... one stays in uprobe_events, two is gone" "$(ours | sed -E 's/ .*//')" "p:ppmany/one"
check_eq "... nothing said added" "$(cat "$T/bw")" ""
"$PP" usdt del "ppmany:one@$M" >/dev/null 2>&1
check_eq "the command it names removes it" "$? $(nours)" "0 0"
"$PP" usdt add "ppmany:one@$M" "ppmany:five@$M" "one@$M" >"$T/m2" 2>&1
check_eq "several arguments, one named twice: two events" "$(grep -c '^added ppmany:' "$T/m2")" 2
"$PP" trace -e ppmany:one,ppmany:five -- "$M" 40 >"$T/m3" 2>&1
check_eq "... each fired 40 times" "$(grep -oE ' ppmany:(one|five): ' "$T/m3" | sort | uniq -c | awk '{ print $1 }' | tr '\n' ' ')" "40 40 "
"$PP" usdt del "$M" >/dev/null 2>&1
check_eq "del: nothing left" "$(nours)" 0

# ---- del NAME: that probe's events only, not those of a probe NAME_1 ----
"$PP" usdt add "ppname:foo*@$N" >"$T/n1" 2>&1
check_eq "add foo and foo_1: two events" "$(ours | sed -E 's/ .*//' | sort | tr '\n' ' ')" \
	"p:ppname/foo p:ppname/foo_1 "
"$PP" usdt del "ppname:foo@$N" >"$T/n2" 2>&1
check_eq "del foo: status 0, foo removed" "$? $(cat "$T/n2")" "0 removed ppname:foo (1 site in $N)"
check_eq "... foo_1's event stays" "$(ours | sed -E 's/ .*//')" "p:ppname/foo_1"
"$PP" usdt del "ppname:foo_1@$N" >/dev/null 2>&1
check_eq "del foo_1: nothing left" "$(nours)" 0

# ---- a site that needs an event of its own: EVENT_N named by no other probe ----
# tick's second site (operands s64, s32) cannot join tick's event (s64); a
# probe tick_1 of the same operand types has the event tick_1
"$PP" usdt add "ppname:tick*@$N" >"$T/n3" 2>"$T/n3.err"
check_eq "add tick's two sites and tick_1: status 0, nothing on stderr" "$? $(cat "$T/n3.err")" "0 "
check_eq "... tick's second site is tick_2, tick_1 stays tick_1's" "$(cat "$T/n3")" \
	"added ppname:tick (1 site in $N)
added ppname:tick_2 (1 site in $N)
added ppname:tick_1 (1 site in $N)"
"$PP" trace -e ppname:tick_1,ppname:tick_2 -- "$N" 20 >"$T/n4" 2>&1
check_eq "... fired 20 times: tick_1 only with its arg2=2, tick_2 only with tick's arg2=1" \
	"$(grep -oE ' ppname:tick_[12]: .* arg2=[0-9]+' "$T/n4" | awk '{ print $1, $NF }' | sort | uniq -c |
		awk '{ printf "%s %s %s; ", $1, $2, $3 }')" \
	"20 ppname:tick_1: arg2=2; 20 ppname:tick_2: arg2=1; "
"$PP" usdt del "ppname:tick@$N" >"$T/n5" 2>&1
check_eq "del tick: its two events, not tick_1's" "$(sort "$T/n5")" \
	"removed ppname:tick (1 site in $N)
removed ppname:tick_2 (1 site in $N)"
check_eq "... tick_1's stays" "$(ours | sed -E 's/ .*//')" "p:ppname/tick_1"
# tick alone first: its second site takes tick_1; the probe tick_1 then finds its name
# taken by that site, and says which probe to delete (its del then removes both)
"$PP" usdt del "$N" >/dev/null 2>&1
"$PP" usdt add "ppname:tick@$N" >"$T/n6" 2>&1
check_eq "add tick alone: its second site is tick_1" "$(sort "$T/n6")" \
	"added ppname:tick (1 site in $N)
added ppname:tick_1 (1 site in $N)"
"$PP" usdt add "ppname:tick_1@$N" >"$T/n7" 2>&1
check_eq "add the probe tick_1 then: status 1" $? 1
check "... its name is another site's: probe tick's, to delete first" grep -qF \
	"an event ppname:tick_1 exists already, for another site of $N (offset 0x" "$T/n7"
check "... the hint names probe tick" grep -qF "probe tick's, which needed an event of its own; perf-prof usdt del ppname:tick@$N first)" "$T/n7"
"$PP" usdt del "ppname:tick@$N" >/dev/null 2>&1
"$PP" usdt add "ppname:tick_1@$N" >"$T/n8" 2>&1
check_eq "... after the del the hint gives, tick_1 adds" "$? $(cat "$T/n8")" "0 added ppname:tick_1 (1 site in $N)"
"$PP" usdt del "$N" >/dev/null 2>&1
check_eq "del the file: nothing left" "$(nours)" 0

# ---- no tracefs: a mount namespace without it ----
if unshare -m true 2>/dev/null; then
	unshare -m sh -c "umount /sys/kernel/tracing 2>/dev/null; umount /sys/kernel/debug/tracing 2>/dev/null
		umount /sys/kernel/debug 2>/dev/null; \"$PP\" usdt add \"$X\"" >"$T/nt" 2>"$T/nt.err"
	check_eq "no tracefs: status 1" $? 1
	check "... saying so, with the mount to do" grep -qx 'perf-prof usdt add: no tracefs mounted (mount -t tracefs nodev /sys/kernel/tracing, then try again)' "$T/nt.err"
	unshare -m sh -c "umount /sys/kernel/tracing 2>/dev/null; umount /sys/kernel/debug/tracing 2>/dev/null
		umount /sys/kernel/debug 2>/dev/null; \"$PP\" usdt list --json \"$X\"" >"$T/nt2" 2>"$T/nt2.err"
	check_eq "no tracefs: list FILE still lists its notes (status 0, four)" "$? $(wc -l <"$T/nt2")" "0 4"
else
	skip "unshare -m is not allowed: no tracefs-less namespace to try"
fi

# ---- check lists it ----
"$PP" check >"$T/c" 2>/dev/null
check "check: usdt ok (tracefs and uprobes here)" grep -qE '^  usdt +ok$' "$T/c"

check_eq "nothing of this suite left in uprobe_events" "$(nours)" 0
done_tests
