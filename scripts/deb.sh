#!/usr/bin/env bash
# Builds the Debian package (debian/) with dpkg-buildpackage in a copy of the
# source tree, so that nothing is written into the tree, and leaves
# perf-prof_VERSION_ARCH.deb in OUTDIR (`make deb`: $(BUILD)/deb).
# usage: scripts/deb.sh [OUTDIR]
#        scripts/deb.sh --source DIR     (only copy the tree's files into DIR)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

# The tree's files: in a git checkout, the tracked and new ones git does not
# ignore (that exist); elsewhere everything but the build outputs.
copy_tree() { # DIR
	mkdir -p "$1"
	if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		(cd "$top" && git ls-files -z -co --exclude-standard |
			while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
			tar --null -T - -cf -) | tar -C "$1" -xf -
	else
		tar -C "$top" --exclude=./perf-prof --exclude=./build --exclude='./build-*' \
			--exclude=./debian/perf-prof --exclude=./debian/.debhelper -cf - . |
			tar -C "$1" -xf -
	fi
}
if [ "${1:-}" = --source ]; then
	copy_tree "$2"
	exit 0
fi

out=${1:-$top/build/deb}
mkdir -p "$out"
out=$(cd "$out" && pwd)
ver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
work=$out/src
src=$work/perf-prof-$ver
rm -rf "$work" "$out"/perf-prof_*.deb
copy_tree "$src"
(cd "$src" && dpkg-buildpackage -b -us -uc -J"$(nproc)")
mv "$work"/perf-prof_"$ver"_*.deb "$out"/
rm -rf "$work"
ls "$out"/perf-prof_"$ver"_*.deb
