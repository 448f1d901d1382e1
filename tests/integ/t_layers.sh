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

rm -rf "$T/src" && cp -r "$TOP/src" "$T/src"
mkdir "$T/src/newdir" && touch "$T/src/newdir/x.c"
"$chk" "$T/src" >"$T/dir.out" 2>&1
check_eq "a directory in no layer fails" "$?" 1
check "... and says where to add it" grep -q 'src/newdir/x.c is in no layer' "$T/dir.out"

done_tests
