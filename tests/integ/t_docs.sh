#!/usr/bin/env bash
# Documentation that cannot drift: perf-prof --man writes a page for every
# profiler and command (and perf-prof(1)) from the tables -h prints and the
# hand-written page beside each; every option -h lists is in its page with a
# description; every profiler and command has its line in the README's table,
# and the README stays a front door (under 400 lines); groff renders every
# page without a warning;
# a missing page, section or -e attribute makes --man fail.
. "$(dirname "$0")/lib.sh"

names=$("$PP" --complete)
nr=$(wc -w <<<"$names")
check "profilers and commands listed by --complete" [ "$nr" -ge 30 ]
check "--complete lists what -h lists" \
	[ "$(echo $names)" = "$("$PP" -h | awk '/^(Profilers|Commands)/ { on = 1; next } on && /^  [a-z]/ { printf "%s%s", n++ ? " " : "", $1 }')" ]

"$PP" --man "$TOP/src" "$T/man" 2>"$T/man.err"
check_eq "--man writes every page" "$?" 0
check_eq "... saying nothing" "$(cat "$T/man.err")" ""
check_eq "one page per profiler and command, and perf-prof(1)" \
	"$(ls "$T/man" | wc -l)" "$((nr + 1))"

# every option -h lists: in the page's OPTIONS, followed by a description
missing=() nodesc=() nosect=()
for n in $names; do
	page=$T/man/perf-prof-$n.1
	[ -f "$page" ] || { missing+=("$n"); continue; }
	for s in DESCRIPTION OPTIONS OUTPUT EXAMPLES "SEE ALSO"; do
		grep -qx ".SH $s" "$page" || nosect+=("$n:$s")
	done
	"$PP" "$n" -h | sed -n '/^Options:/,/^$/p' |
		grep -oE '^ +(-[a-zA-Z0-9], )?--[a-z0-9-]+' | sed 's/.*--//' | sort -u >"$T/opts"
	[ -s "$T/opts" ] || nodesc+=("$n:(no options parsed from -h)")
	while read -r o; do
		r=$(sed 's/-/\\\\-/g' <<<"$o")
		# .TP, then the tag naming --o, then a description line (text, not a macro)
		awk -v tag="\\\\fB\\\\-\\\\-$r\\\\fR" '
			prev2 == ".TP" && index(prev1, tag) && $0 != "" && $0 !~ /^\./ { found = 1 }
			{ prev2 = prev1; prev1 = $0 }
			END { exit !found }' "$page" || nodesc+=("$n:--$o")
	done <"$T/opts"
done
check_eq "every profiler and command has a page" "${missing[*]}" ""
check_eq "every page has its sections" "${nosect[*]}" ""
check_eq "every option -h lists is in its page with a description" "${nodesc[*]}" ""

# the README is the front door: a table row per profiler and command, each
# linking its page's source, and no more than a front door's length
norow=()
for n in $names; do
	grep -qE "^\| \[\`$n\`\]\(src/(prof|cmd)/${n//-/_}\.man\.md\) \| [^|]+ \|$" "$TOP/README.md" ||
		norow+=("$n")
done
check_eq "every profiler and command has its line in the README's table" "${norow[*]}" ""
check "the README is under 400 lines" [ "$(wc -l <"$TOP/README.md")" -lt 400 ]
nocount=() unlisted=()
for n in $names; do
	case $n in list | flamegraph | heatmap | check | usdt) ;; # commands: no counting
	*) grep -qx '.SH HOW IT COUNTS' "$T/man/perf-prof-$n.1" 2>/dev/null || nocount+=("$n") ;;
	esac
	grep -qF "\\fBperf\\-prof\\-${n//-/\\-}\\fR(1)" "$T/man/perf-prof.1" || unlisted+=("$n")
done
check_eq "every profiler's page says how it counts" "${nocount[*]}" ""
check_eq "perf-prof(1) lists every profiler and command" "${unlisted[*]}" ""
check "perf-prof(1) documents SIGHUP's reopen of -o FILE" grep -q 'reopen' "$T/man/perf-prof.1"

# groff renders each page without a warning
if command -v groff >/dev/null; then
	warn=()
	for p in "$T"/man/*.1; do
		out=$(groff -man -Tutf8 -ww -z "$p" 2>&1)
		[ -z "$out" ] || warn+=("$(basename "$p"): $out")
	done
	check_eq "groff -ww: no warning on any page" "${warn[*]}" ""
	groff -man -Tascii -P-cbou "$T/man/perf-prof-trace.1" >"$T/trace.txt" 2>/dev/null
	check "perf-prof-trace(1) renders its name, options and examples" \
		grep -q -- '--event EVENT,...' "$T/trace.txt"
	check "... and the hand-written parts" grep -q 'HOW IT COUNTS' "$T/trace.txt"
else
	skip "groff is not installed (scripts/deps.sh installs groff-base)"
fi

# drift: what must make --man fail
drift() { # DESCRIPTION EXPECTED-MESSAGE: run --man on $T/src, want status 1 and the message
	"$PP" --man "$T/src" "$T/drift" >"$T/drift.out" 2>&1
	local rc=$?
	check_eq "$1: --man fails" "$rc" 1
	check "... saying: $2" grep -qF -- "$2" "$T/drift.out"
	rm -rf "$T/src" "$T/drift"
	mkdir -p "$T/drift" "$T/src/prof" "$T/src/cmd" "$T/src/cli"
	cp "$TOP"/src/prof/*.man.md "$T/src/prof/"
	cp "$TOP"/src/cmd/*.man.md "$T/src/cmd/"
	cp "$TOP"/src/cli/*.man.md "$T/src/cli/"
}
mkdir -p "$T/drift" "$T/src/prof" "$T/src/cmd" "$T/src/cli"
cp "$TOP"/src/prof/*.man.md "$T/src/prof/"
cp "$TOP"/src/cmd/*.man.md "$T/src/cmd/"
cp "$TOP"/src/cli/*.man.md "$T/src/cli/"
"$PP" --man "$T/src" "$T/drift" 2>/dev/null
check_eq "the copied pages pass" "$?" 0

rm "$T/src/prof/task_state.man.md"
drift "a profiler without its page" "task_state.man.md: No such file or directory (task-state needs its hand-written page)"
sed -i '/^# HOW IT COUNTS/,$d' "$T/src/prof/trace.man.md"
drift "a page without HOW IT COUNTS" "no section HOW IT COUNTS"
sed -i 's/`num=EXPR`/`number=EXPR`/' "$T/src/prof/num_dist.man.md"
drift "an -e attribute left out" "the -e attribute 'num' is not in its EVENT ATTRIBUTES section"
printf '# OPTIONS\nmine\n' >>"$T/src/cmd/list.man.md"
drift "a generated section written by hand" "section OPTIONS is generated"
printf '```\nunclosed\n' >>"$T/src/cli/perf-prof.man.md"
drift "an unclosed verbatim block" "a \`\`\` block is not closed"

"$PP" --man "$T/src" "$T/drift" nosuch 2>"$T/err"
check_eq "--man with an unknown name fails" "$?" 1
check "... naming it" grep -q "'nosuch' is no profiler or command" "$T/err"
"$PP" --man "$T/src" 2>/dev/null
check_eq "--man without OUTDIR is a usage error" "$?" 2

done_tests
