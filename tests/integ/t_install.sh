#!/usr/bin/env bash
# make install / make uninstall into a scratch DESTDIR: exactly the binary,
# the man pages and the bash completion, with their modes; uninstall removes
# them all and nothing else.
. "$(dirname "$0")/lib.sh"

# the build dir as the Makefile names it (relative to the top: build, build-X)
mbuild=${BUILD#"$TOP"/}
pp_bin=$mbuild/perf-prof
[ "$mbuild" = build ] && pp_bin=perf-prof
# -o: the binary as it is (not rebuilt while the suite runs, even if a source
# changed since)
mk() { make --no-print-directory -C "$TOP" BUILD="$mbuild" -o "$pp_bin" "$@"; }

# the files under a root, as "MODE PATH" lines
files() { (cd "$1" && find . -type f -printf '%m %P\n' | LC_ALL=C sort); }

r=$T/root
mkdir -p "$r/usr/local/bin" "$r/usr/local/share/man/man1"
echo other >"$r/usr/local/bin/other"
echo other >"$r/usr/local/share/man/man1/other.1"
before=$(files "$r")

mk install DESTDIR="$r" PREFIX=/usr/local >"$T/install.log" 2>&1
check "make install DESTDIR=... PREFIX=/usr/local" [ $? -eq 0 ]
pages=$(cd "$TOP/$mbuild/man" && ls -- *.1 | LC_ALL=C sort)
check "man pages built: perf-prof.1 and perf-prof-trace.1 among $(wc -w <<<"$pages")" \
	test "$(grep -cxE 'perf-prof(-trace)?\.1' <<<"$pages")" = 2
expected=$({
	echo "$before"
	echo "755 usr/local/bin/perf-prof"
	echo "644 usr/local/share/bash-completion/completions/perf-prof"
	for p in $pages; do echo "644 usr/local/share/man/man1/$p"; done
} | LC_ALL=C sort -k2)
check_eq "installed files and modes" "$(files "$r" | LC_ALL=C sort -k2)" "$expected"
check "the installed binary is the build's" cmp -s "$r/usr/local/bin/perf-prof" "$TOP/$pp_bin"
check_eq "it runs" "$("$r/usr/local/bin/perf-prof" --version)" "$("$TOP/$pp_bin" --version)"
check "the completion is bash" bash -n "$r/usr/local/share/bash-completion/completions/perf-prof"
check "perf-prof.1 is a man page" grep -q '^\.TH' "$r/usr/local/share/man/man1/perf-prof.1"

mk install DESTDIR="$r" PREFIX=/usr/local >>"$T/install.log" 2>&1
check "install again over it" [ $? -eq 0 ]
check_eq "the same files" "$(files "$r" | LC_ALL=C sort -k2)" "$expected"

mk uninstall DESTDIR="$r" PREFIX=/usr/local >>"$T/install.log" 2>&1
check "make uninstall" [ $? -eq 0 ]
check_eq "uninstall leaves only what was there" "$(files "$r")" "$before"
check "and the directories" test -d "$r/usr/local/share/man/man1" \
	-a -d "$r/usr/local/share/bash-completion/completions"
mk uninstall DESTDIR="$r" PREFIX=/usr/local >>"$T/install.log" 2>&1
check "uninstall again: nothing to remove, no error" [ $? -eq 0 ]

# other places: PREFIX=/usr, and BINDIR/MANDIR of their own
r2=$T/root2
mk install DESTDIR="$r2" PREFIX=/usr BINDIR=/opt/pp/bin MANDIR=/opt/pp/man \
	>>"$T/install.log" 2>&1
check "install with PREFIX=/usr BINDIR=/opt/pp/bin MANDIR=/opt/pp/man" [ $? -eq 0 ]
check_eq "where the files went" "$(files "$r2" | awk '{ sub(/man1\/perf-prof-.*/, "man1/perf-prof-*", $2); print $2 }' | LC_ALL=C sort -u | tr '\n' ' ')" \
	"opt/pp/bin/perf-prof opt/pp/man/man1/perf-prof-* opt/pp/man/man1/perf-prof.1 usr/share/bash-completion/completions/perf-prof "
mk uninstall DESTDIR="$r2" PREFIX=/usr BINDIR=/opt/pp/bin MANDIR=/opt/pp/man \
	>>"$T/install.log" 2>&1
check_eq "uninstall there" "$(files "$r2")" ""

grep -E 'error|Error' "$T/install.log" | head -n 5
done_tests
