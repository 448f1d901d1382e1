#!/usr/bin/env bash
# perf-prof misc: the kernel's side-band records.  Ground truth: a BPF program
# loaded and unloaded by bpf_load.py (its id and tag as the kernel reports them
# to the loader), a cgroup made here (its id is its directory's inode number).
source "$(dirname "$0")/lib.sh"

if [ ! -x "$PP" ]; then
	skip "no binary $PP"
	done_tests
	exit
fi
D=$(dirname "$0")
NAME=pp_misc_$$
NAME=${NAME:0:15}
CG_ROOT=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
CG=
cleanup_cg() { [ -n "$CG" ] && rmdir "$CG" 2>/dev/null; }
trap 'cleanup_cg; _cleanup' EXIT

# --- usage errors ---
usage_bad "-p" "side-band records are the whole system's" misc -p 1
usage_bad "a command" "side-band records are the whole system's" misc -- true

# --- one run: a BPF program loaded and unloaded, a cgroup made ---
monitor "$T/m" misc
check "misc starts" grep -q 'monitoring' "$T/m.err"
python3 "$D/bpf_load.py" "$NAME" >"$T/prog"
check "the program loaded" grep -q '^id=' "$T/prog"
ID=$(sed -n 's/^id=\([0-9]*\) .*/\1/p' "$T/prog")
TAG=$(sed -n 's/.* tag=\([0-9a-f]*\)$/\1/p' "$T/prog")
SYM=bpf_prog_${TAG}_$NAME
if [ -n "$CG_ROOT" ]; then
	CG=$CG_ROOT/pp-misc-test.$$
	mkdir "$CG"
	CG_ID=$(stat -c %i "$CG")
	rmdir "$CG"
	CG=
fi
wait_lines "$T/m" "misc:bpf_event: prog unload id $ID " 1
if [ -n "$CG_ROOT" ]; then wait_lines "$T/m" "misc:cgroup: id $CG_ID " 1; fi
stop "$T/m"
check_eq "misc: status 0 at SIGINT" "$(cat "$T/m.rc")" 0
check_eq "misc: no warning or error" "$(grep -c '^perf-prof misc:' "$T/m.err")" 0

# the records of this program: register, load, unregister, unload (in this order)
grep -E " ($SYM\$|id $ID tag)" "$T/m" >"$T/mine"
check_eq "4 records of the program" "$(wc -l <"$T/mine")" 4
check_eq "their order and kinds" "$(awk '{ print $6, $7, $8 }' "$T/mine" | tr '\n' '|')" \
	"misc:ksymbol: bpf register|misc:bpf_event: prog load|misc:ksymbol: bpf unregister|misc:bpf_event: prog unload|"
check_eq "load: the id and tag the loader got" \
	"$(grep -o "prog load id [0-9]* tag [0-9a-f]*" "$T/mine")" "prog load id $ID tag $TAG"
check_eq "unload: the same id and tag" \
	"$(grep -o "prog unload id [0-9]* tag [0-9a-f]*" "$T/mine")" "prog unload id $ID tag $TAG"
reg=$(grep ' register ' "$T/mine" | awk '{ print $9, $11 }')
unreg=$(grep ' unregister ' "$T/mine" | awk '{ print $9, $11 }')
check "register: a kernel address and a length" grep -qE ' register ffff[0-9a-f]{12} len [1-9][0-9]* ' "$T/mine"
check_eq "unregister: the same address and length" "$unreg" "$reg"
check_eq "the records' task: the loader" "$(awk '{ print $3 }' "$T/mine" | sort -u)" python3
check_eq "the records' time: in order" "$(awk '{ print $2 }' "$T/mine" | sort -c && echo sorted)" sorted
if [ -n "$CG_ROOT" ]; then
	check_eq "cgroup: its path and id (the inode)" \
		"$(grep -o "misc:cgroup: id [0-9]* /pp-misc-test.$$\$" "$T/m")" \
		"misc:cgroup: id $CG_ID /pp-misc-test.$$"
	check_eq "cgroup: by mkdir" "$(grep "/pp-misc-test.$$\$" "$T/m" | awk '{ print $3 }')" mkdir
else
	skip "cgroup: no cgroup2 hierarchy mounted"
fi
# text_poke: the kernel patches its text when a static key or a BPF trampoline
# changes; nothing here makes it do so for sure.  Check the records it made.
if grep -q 'misc:text_poke:' "$T/m"; then
	check "text_poke: ADDR OLD => NEW" grep -qE 'misc:text_poke: [0-9a-f]{16} [0-9a-f ]+ => [0-9a-f ]+' "$T/m"
else
	skip "text_poke: no kernel text was patched during the run (decoding tested in test_sideband)"
fi

# --- -N: the first N records, then the run ends by itself ---
rm -f "$T/n.err"
$PP misc -N 2 -v >"$T/n" 2>"$T/n.err" &
np=$!
wait_monitoring "$T/n.err" $np
python3 "$D/bpf_load.py" "$NAME" >/dev/null
for ((i = 0; i < 100; i++)); do kill -0 $np 2>/dev/null || break; sleep 0.1; done
kill -0 $np 2>/dev/null && kill -INT $np
wait $np
check_eq "-N 2: ends by itself, status 0" "$? $(grep -c 'stopped: interrupted' "$T/n.err")" "0 0"
check_eq "-N 2: two records" "$(grep -c ' misc:' "$T/n")" 2

# --- --json: the same records, as members ---
if command -v jq >/dev/null; then
	monitor "$T/j" misc --json
	python3 "$D/bpf_load.py" "$NAME" >"$T/prog2"
	ID2=$(sed -n 's/^id=\([0-9]*\) .*/\1/p' "$T/prog2")
	wait_lines "$T/j" "\"prog_id\":$ID2," 2
	stop "$T/j"
	check "json: every line parses" jq -e . "$T/j" >/dev/null
	check_eq "json: load and unload of the program" \
		"$(jq -r "select(.kind == \"bpf_event\" and .prog_id == $ID2) | \"\(.event) \(.action) \(.tag) \(.comm)\"" "$T/j" | tr '\n' '|')" \
		"misc:bpf_event load $TAG python3|misc:bpf_event unload $TAG python3|"
	check_eq "json: its ksymbols" \
		"$(jq -r "select(.kind == \"ksymbol\" and .name == \"$SYM\") | \"\(.action) \(.ksym_type) \(.len > 0)\"" "$T/j" | tr '\n' '|')" \
		"register bpf true|unregister bpf true|"
	check_eq "json: no member of another kind" \
		"$(jq -r "select(.kind == \"bpf_event\" and .prog_id == $ID2) | has(\"path\"), has(\"name\"), has(\"addr\")" "$T/j" | sort -u)" false
else
	skip "json: no jq"
fi

done_tests
