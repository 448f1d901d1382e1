#!/usr/bin/env bash
# The direction of arrows: a source file may include headers of its own layer
# and of the layers below it, never of a layer above.  Layers, top first:
#   cli -> profilers -> analysis -> reports, expressions -> symbols -> engine -> utilities
# The table maps each directory (or top-level file) of src/ to its rank; a
# directory that is not in the table is an error, so a new module gets a
# place in the order when it is created.
# usage: scripts/check-layers.sh [SRC_DIR]    exit 1 on the first violation list
set -u
src=${1:-$(cd "$(dirname "$0")/.." && pwd)/src}

rank_of() { # path relative to src/ -> rank, or empty
	case $1 in
	cli/*) echo 7 ;;
	prof/* | cmd/* | profiler.h | profilers.c) echo 6 ;;
	analysis/*) echo 5 ;;
	report/* | expr/*) echo 4 ;;
	sym/*) echo 3 ;;
	engine/*) echo 2 ;;
	util/*) echo 1 ;;
	*) echo "" ;;
	esac
}
name_of() {
	case $1 in
	7) echo cli ;; 6) echo profilers ;; 5) echo analysis ;; 4) echo reports ;;
	3) echo symbols ;; 2) echo engine ;; 1) echo utilities ;;
	esac
}

bad=0
while IFS= read -r f; do
	rel=${f#"$src"/}
	own=$(rank_of "$rel")
	if [ -z "$own" ]; then
		echo "check-layers: src/$rel is in no layer (add its directory to scripts/check-layers.sh)"
		bad=1
		continue
	fi
	while IFS= read -r inc; do
		tgt=$(rank_of "$inc")
		if [ -z "$tgt" ]; then
			# a header beside the file, named without its directory
			[ -f "$(dirname "$f")/$inc" ] && continue
			echo "check-layers: src/$rel includes \"$inc\", which is in no layer"
			bad=1
		elif [ "$tgt" -gt "$own" ]; then
			echo "check-layers: src/$rel ($(name_of "$own")) includes \"$inc\" ($(name_of "$tgt")): a lower layer must not use a higher one"
			bad=1
		fi
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(find "$src" -name '*.[ch]' | sort)
if [ $bad -eq 0 ]; then
	echo "check-layers: $(find "$src" -name '*.[ch]' | wc -l) files, every include points down"
fi
exit $bad
