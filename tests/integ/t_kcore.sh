#!/usr/bin/env bash
# perf-prof kcore: kernel memory from /proc/kcore (an ELF core file) by address or
# symbol: a hex dump, typed values, a string.  The reading and printing are checked
# against a small core file of known contents (kcore_mk.py); the live checks run
# where /proc/kcore exists (CONFIG_PROC_KCORE) and say why they skip elsewhere.
source "$(dirname "$0")/lib.sh"

if [ ! -x "$PP" ]; then
	skip "no binary $PP"
	done_tests
	exit
fi
D=$(dirname "$0")
python3 "$D/kcore_mk.py" "$T/core" "$T/ksy"
K=(--kcore "$T/core" --kallsyms "$T/ksy")
BANNER="Linux version 9.9.9-test (pp@kcore) #1 SMP"

# --- a string, at a symbol ---
out=$($PP kcore "${K[@]}" --string linux_banner 2>"$T/err")
check_eq "--string: status 0" $? 0
check_eq "--string: the banner" "$out" "$BANNER"
check_eq "--string: nothing on stderr" "$(cat "$T/err")" ""
check_eq "--string at SYMBOL+OFF" "$($PP kcore "${K[@]}" --string jiffies_64+12)" "tail"
check_eq "--string COUNT: at most COUNT bytes" "$($PP kcore "${K[@]}" --string linux_banner 13)" \
	"Linux version"

# --- the hex dump: the bytes of the file, 16 a line, their ASCII ---
$PP kcore "${K[@]}" linux_banner 44 >"$T/dump"
check_eq "dump: status 0" $? 0
check_eq "dump: 3 lines for 44 bytes" "$(wc -l <"$T/dump")" 3
check_eq "dump: addresses" "$(awk '{ print $1 }' "$T/dump" | tr '\n' ' ')" \
	"ffffffff81000000 ffffffff81000010 ffffffff81000020 "
got=$(cut -c18-66 "$T/dump" | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')
want=$({ printf '%s\n' "$BANNER"; printf '\0'; } | od -An -tx1 | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')
check_eq "dump: the bytes" "$got" "$want"
check_eq "dump: the ASCII of line 1" "$(head -1 "$T/dump" | sed 's/.*|\(.*\)|$/\1/')" "Linux version 9."
check_eq "dump: the last line's ASCII (newline, NUL as '.')" \
	"$(tail -1 "$T/dump" | sed 's/.*|\(.*\)|$/\1/')" "re) #1 SMP.."
check "dump: the last line padded to the ASCII column" \
	test "$(tail -1 "$T/dump" | cut -c69)" = "|"
check_eq "dump: default 64 bytes" "$($PP kcore "${K[@]}" linux_banner | wc -l)" 4
# across the two segments (they follow each other): banner, NUL, then bytes 0, 1, ...
check_eq "dump across segments" \
	"$($PP kcore "${K[@]}" 0xffffffff810000f8 16 | cut -c18-66 | tr -s ' ')" \
	" cc cd ce cf d0 d1 d2 d3 88 77 66 55 44 33 22 11"

# --- typed values ---
check_eq "-8: hex and decimal" "$($PP kcore "${K[@]}" -8 jiffies_64)" \
	"ffffffff81000100  0x1122334455667788  1234605616436508552"
check_eq "-4 at SYMBOL+8" "$($PP kcore "${K[@]}" -4 jiffies_64+8)" \
	"ffffffff81000108  0xdeadbeef  3735928559"
check_eq "-2 COUNT 4" "$($PP kcore "${K[@]}" -2 jiffies_64 4 | awk '{ print $2 }' | tr '\n' ' ')" \
	"0x7788 0x5566 0x3344 0x1122 "
check_eq "-1 COUNT 2 at an address" "$($PP kcore "${K[@]}" -1 0xffffffff81000000 2 | awk '{ print $1, $2, $3 }' | tr '\n' ' ')" \
	"ffffffff81000000 0x4c 76 ffffffff81000001 0x69 105 "
check_eq "--u64, a 16-digit address" "$($PP kcore "${K[@]}" --u64 ffffffff81000100 | awk '{ print $2 }')" \
	"0x1122334455667788"
# a segment that ends at the top of the address space (its end wraps to 0)
check_eq "-8 in the segment at the top of the address space" \
	"$($PP kcore "${K[@]}" -8 0xfffffffffffffff0 2 2>&1 | awk '{ print $1, $2 }' | tr '\n' ' ')" \
	"fffffffffffffff0 0x0123456789abcdef fffffffffffffff8 0xfedcba9876543210 "
check_eq "dump of the last byte of the address space" \
	"$($PP kcore "${K[@]}" 0xffffffffffffffff 1 2>&1 | cut -c1-20)" "ffffffffffffffff  fe"

# --- --json, -o ---
if command -v jq >/dev/null; then
	$PP kcore "${K[@]}" --json -8 jiffies_64 >"$T/j"
	check_eq "json -8: addr and size" "$(jq -r '"\(.type) \(.addr) \(.size)"' "$T/j")" \
		"kcore 0xffffffff81000100 8"
	# (jq reads numbers as doubles: the 64-bit value as written)
	check_eq "json -8: the value" "$(grep -o '"value":[0-9]*' "$T/j")" '"value":1234605616436508552'
	check_eq "json --string" "$($PP kcore "${K[@]}" --json --string linux_banner | jq -r .string)" \
		"$BANNER"
	check_eq "json dump: the lines' bytes" "$($PP kcore "${K[@]}" --json linux_banner 20 | jq -r '.hex' | tr '\n' ' ')" \
		"4c 69 6e 75 78 20 76 65 72 73 69 6f 6e 20 39 2e 39 2e 39 2d "
else
	skip "json: no jq"
fi
$PP kcore "${K[@]}" -8 jiffies_64 -o "$T/o.txt"
check_eq "-o: the file" "$(awk '{ print $2 }' "$T/o.txt")" "0x1122334455667788"

# --- run-time errors: status 1, one line ---
bad1() { # DESC EXPECTED ARGS...
	local d=$1 want=$2
	shift 2
	"$PP" kcore "$@" >"$T/b.out" 2>"$T/b.err"
	check_eq "$d: status 1" $? 1
	check_eq "$d: one line" "$(wc -l <"$T/b.err")" 1
	check_eq "$d: nothing on stdout" "$(cat "$T/b.out")" ""
	check "$d: says '$want'" grep -qF -- "$want" "$T/b.err"
}
bad1 "an address in no segment" "not all in the kernel memory that kcore maps" "${K[@]}" 0xffffffff81000200
bad1 "a range past the last segment" "0xffffffff810001f8..0xffffffff81000207" "${K[@]}" 0xffffffff810001f8 16
bad1 "a low address" "not a kernel virtual address" "${K[@]}" -8 0x1000
printf 'not an ELF file\n' >"$T/notelf"
bad1 "not an ELF core" "not a 64-bit ELF core file" --kcore "$T/notelf" --kallsyms "$T/ksy" linux_banner
bad1 "a missing --kcore file" "No such file" --kcore "$T/nope" 0xffffffff81000000
bad1 "a missing --kallsyms file" "cannot read $T/nope: No such file" --kcore "$T/core" --kallsyms "$T/nope" linux_banner
bad1 "the top of the address space" "0xffffffffffffffff..0xffffffffffffffff:" "${K[@]}" 0xffffffffffffffff 2
# a truncated copy: the file's fault, said as such; no partial string passed for the whole
head -c $((64 + 4 * 56 + 20)) "$T/core" >"$T/trunc"
bad1 "a truncated copy: --string" "$T/trunc ends before the segment that holds them does" \
	--kcore "$T/trunc" --kallsyms "$T/ksy" --string linux_banner
bad1 "a truncated copy: -8" "0xffffffff81000100..0xffffffff81000107: $T/trunc ends before" \
	--kcore "$T/trunc" --kallsyms "$T/ksy" -8 jiffies_64
# stdout that cannot be written: one line that says why
"$PP" kcore "${K[@]}" linux_banner 256 >/dev/full 2>"$T/full.err"
check_eq "stdout full: status 1" $? 1
check_eq "stdout full: one line that says why" "$(cat "$T/full.err")" \
	"perf-prof kcore: cannot write to stdout: No space left on device"
# a pipe whose reader is gone, SIGPIPE ignored (python's children inherit that): EPIPE
got=$(python3 -c 'import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE, restore_signals=False)
print(p.returncode, p.stderr.decode().strip())' "$PP" kcore "${K[@]}" linux_banner 16)
check_eq "stdout a closed pipe: status 1 and why" "$got" \
	"1 perf-prof kcore: cannot write to stdout: Broken pipe"

# --- usage errors: status 2, one line ---
usage_bad "no argument" "no address or symbol" kcore "${K[@]}"
usage_bad "three arguments" "too many arguments" kcore "${K[@]}" linux_banner 1 2
usage_bad "a malformed address" "bad address: 0xzz" kcore "${K[@]}" 0xzz
usage_bad "digits and letters" "bad address: 12abc" kcore "${K[@]}" 12abc
usage_bad "a malformed symbol" "bad symbol" kcore "${K[@]}" 'foo-bar'
usage_bad "a bad offset" "bad symbol" kcore "${K[@]}" 'jiffies_64+x'
usage_bad "an unknown symbol" "unknown symbol 'no_such_sym'" kcore "${K[@]}" no_such_sym
usage_bad "COUNT 0" "bad COUNT" kcore "${K[@]}" linux_banner 0
usage_bad "COUNT 1x" "bad COUNT" kcore "${K[@]}" linux_banner 1x
usage_bad "COUNT x" "bad COUNT" kcore "${K[@]}" linux_banner x
usage_bad "COUNT too large" "COUNT too large" kcore "${K[@]}" -8 linux_banner 200000
usage_bad "two sizes" "one value size at most" kcore "${K[@]}" -4 -8 linux_banner
usage_bad "--string and a size" "no value size with it" kcore "${K[@]}" --string -8 linux_banner

# --- the live kernel ---
if [ ! -e /proc/kcore ]; then
	bad1 "no /proc/kcore" "no such file (a kernel built without CONFIG_PROC_KCORE)" jiffies
	skip "live: no /proc/kcore here (CONFIG_PROC_KCORE off): jiffies and linux_banner not read"
else
	lock=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/security/lockdown 2>/dev/null)
	if [ "$lock" = confidentiality ]; then
		bad1 "lockdown" "kernel lockdown (confidentiality)" jiffies
	elif ! grep -qE ' (jiffies_64|jiffies|linux_banner)$' /proc/kallsyms; then
		skip "live: no data symbols in /proc/kallsyms (CONFIG_KALLSYMS_ALL off)"
	else
		j=jiffies_64
		grep -qE ' jiffies_64$' /proc/kallsyms || j=jiffies
		a=$($PP kcore -8 $j | awk '{ print $3 }')
		sleep 0.1
		b=$($PP kcore -8 $j | awk '{ print $3 }')
		check "live: $j grows ($a -> $b)" test "$b" -gt "$a"
		s=$($PP kcore --string linux_banner)
		check_eq "live: linux_banner is /proc/version's start" "$s" "$(head -c ${#s} /proc/version)"
		got=$($PP kcore linux_banner 32 | cut -c18-66 | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')
		want=$(head -c 32 /proc/version | od -An -tx1 | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')
		check_eq "live: the dump's bytes are /proc/version's" "$got" "$want"
	fi
fi
# without root: the reason, whichever this host's is
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$PP" kcore jiffies >/dev/null 2>"$T/u.err"
	check_eq "non-root: status 1" $? 1
	if [ -e /proc/kcore ]; then
		check "non-root: needs CAP_SYS_RAWIO" grep -qF "needs root (CAP_SYS_RAWIO)" "$T/u.err"
	else
		check "non-root: the missing file first" grep -qF "CONFIG_PROC_KCORE" "$T/u.err"
	fi
else
	skip "non-root: no setpriv, or not root"
fi

done_tests
