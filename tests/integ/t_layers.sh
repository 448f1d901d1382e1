#!/usr/bin/env bash
# The layers point down: scripts/check-layers.sh passes on the tree and
# catches an include that points up and a directory in no layer.
. "$(dirname "$0")/lib.sh"
chk=$TOP/scripts/check-layers.sh

check "the source tree: every include points down" "$chk" "$TOP/src"

cp -r "$TOP/src" "$T/src"
echo '#include "prof/nosuch.h"' >>"$T/src/engine/ring.c"
"$chk" "$T/src" >"$T/up.out" 2>&1
check_eq "an engine file including a profiler header fails" "$?" 1
check "... naming the file, the header and both layers" grep -qF \
	'src/engine/ring.c (engine) includes "prof/nosuch.h" (profilers)' "$T/up.out"

rm -rf "$T/src" && cp -r "$TOP/src" "$T/src"
echo '#include "cli/options.h"' >>"$T/src/sym/maps.c"
"$chk" "$T/src" >/dev/null 2>&1
check_eq "a symbols file including a cli header fails" "$?" 1

# analysis (pairing, memory, cpu...) sits above reports and expressions
rm -rf "$T/src" && cp -r "$TOP/src" "$T/src"
echo '#include "analysis/latency/pairs.h"' >>"$T/src/report/hist.c"
"$chk" "$T/src" >"$T/an.out" 2>&1
check_eq "a report file including an analysis header fails" "$?" 1
check "... naming both layers" grep -qF '(reports) includes "analysis/latency/pairs.h" (analysis)' "$T/an.out"
check "an analysis file may include reports and expressions" grep -q '^#include "report/' "$TOP/src/analysis/latency/multipoint.c"

rm -rf "$T/src" && cp -r "$TOP/src" "$T/src"
mkdir "$T/src/newdir" && touch "$T/src/newdir/x.c"
"$chk" "$T/src" >"$T/dir.out" 2>&1
check_eq "a directory in no layer fails" "$?" 1
check "... and says where to add it" grep -q 'src/newdir/x.c is in no layer' "$T/dir.out"

# Option bindings are type-checked: a flag bound to a non-bool member does not compile
bind() { # TYPE MACRO: compile a table binding a member of TYPE with MACRO
	printf '#include "profiler.h"\nstruct p { %s m; };\nstatic const struct popt o[] = { { .lname = "x", %s(struct p, m) }, { 0 } };\nconst struct popt *f(void) { return o; }\n' "$1" "$2" >"$T/bind.c"
	${CC:-cc} -std=gnu11 -fsyntax-only -D_GNU_SOURCE -I"$TOP/src" $(pkg-config --cflags libtracefs libtraceevent 2>/dev/null) "$T/bind.c" 2>"$T/bind.err"
}
check "a bool bound as a flag compiles" bind bool POPT_BIND_FLAG
check "an int bound as a flag does not" eval '! bind int POPT_BIND_FLAG'
check "a bool bound as a string does not" eval '! bind bool POPT_BIND_STR'
check "an unsigned long long bound as a time compiles" bind "unsigned long long" "POPT_BIND_TIME_MS"
check "an unsigned bound as a number does not" eval '! bind unsigned POPT_BIND_UINT'

done_tests
