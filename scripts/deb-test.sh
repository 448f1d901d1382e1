#!/usr/bin/env bash
# CI: builds the Debian package (scripts/deb.sh), checks what it holds,
# bootstraps a minimal Debian 12 (debootstrap --variant=minbase) into a scratch
# directory and, in a copy of it, builds the package again with nothing but
# build-essential and its Build-Depends (apt-get build-dep); then installs the
# first one in the fresh root with apt (its declared dependencies must be
# enough) and runs it: perf-prof -h, perf-prof check (BPF: yes), a short
# trace, top on the BPF back end (when this build has it), then removes it.  The scratch roots are unmounted and deleted at the end, also on
# failure.  Needs root and Debian's mirror.
# usage: scripts/deb-test.sh [BUILD_DIR]          (default build)
#   PP_DEB_MIRROR=URL   the Debian mirror (default http://deb.debian.org/debian)
#   PP_DEB_NO_ROOT=1    offline: build and inspect the package, no scratch root
#                       (says so; CI does not set it)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${1:-build}
mirror=${PP_DEB_MIRROR:-http://deb.debian.org/debian}
t0=$(date +%s)
step() { echo "== deb-test [$(($(date +%s) - t0)) s] $*"; }
fail() {
	echo "deb-test: FAIL: $*" >&2
	exit 1
}

mkdir -p "$build"
step "building the package"
make --no-print-directory BUILD="$build" deb >"$build/deb.log" 2>&1 ||
	{ tail -n 40 "$build/deb.log"; fail "the package does not build (log: $build/deb.log)"; }
ver=$(dpkg-parsechangelog -S Version)
debs=("$build"/deb/perf-prof_"$ver"_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "no perf-prof_${ver}_*.deb in $build/deb"
deb=${debs[0]}
echo "$deb: $(stat -c %s "$deb") bytes"
dpkg-deb -f "$deb" Package Version Architecture Depends Suggests

step "what the package holds"
files=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $NF }')
for f in ./usr/bin/perf-prof ./usr/share/man/man1/perf-prof.1.gz \
	./usr/share/man/man1/perf-prof-trace.1.gz \
	./usr/share/bash-completion/completions/perf-prof \
	./usr/share/doc/perf-prof/copyright; do
	grep -qxF "$f" <<<"$files" || fail "$f missing from the package"
done
echo "$(grep -c '/man1/' <<<"$files") man pages"
for lib in libtracefs1 libbpf1 libsqlite3-0 libpython3.11; do
	grep -q "$lib" <<<"$(dpkg-deb -f "$deb" Depends)" ||
		fail "Depends does not name $lib (dpkg-shlibdeps?)"
done

if [ "${PP_DEB_NO_ROOT:-}" = 1 ]; then
	echo "deb-test: SKIPPED installing into a fresh Debian 12 root (PP_DEB_NO_ROOT=1)"
	exit 0
fi
[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot, mounts)"

scratch=$(mktemp -d /var/tmp/pp-deb.XXXXXX)
root=$scratch/root
broot=$scratch/build-root
mounts=()
cleanup() {
	local i m left
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		m=${mounts[i]}
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
	done
	# never delete through a mount that is still there (the host's /dev, /sys)
	left=$(awk -v r="$scratch/" 'index($2 "/", r) == 1 { print $2 }' /proc/self/mounts)
	if [ -n "$left" ]; then
		echo "deb-test: still mounted, $scratch left in place: $left" >&2
		return 1
	fi
	rm -rf --one-file-system "$scratch"
}
trap 'cleanup' EXIT
# mnt TYPE SOURCE DIR: mount into a scratch root, unmounted by cleanup;
# private, so that nothing mounted on it (devpts on the bind of /dev) reaches
# the host's mounts on a host where they are shared (systemd's default)
mnt() {
	mkdir -p "$3"
	if [ "$1" = bind ]; then mount --bind "$2" "$3"; else mount -t "$1" "$2" "$3"; fi
	mounts+=("$3")
	mount --make-private "$3"
}
apt=(apt-get -q -o APT::Sandbox::User=root)
export DEBIAN_FRONTEND=noninteractive

step "debootstrap bookworm (minbase) from $mirror"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$build/debootstrap.log" 2>&1 ||
	{ tail -n 20 "$build/debootstrap.log"; fail "debootstrap failed (network? log: $build/debootstrap.log)"; }
echo "root: $(du -sh --one-file-system "$root" | cut -f1)"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp -a "$root" "$broot"

step "building it in a copy of the fresh root from build-essential and Build-Depends"
src=$broot/src/perf-prof-$ver
scripts/deb.sh --source "$src"
mnt proc proc "$broot/proc"
log=$build/deb-build-root.log
{ chroot "$broot" "${apt[@]}" update &&
	chroot "$broot" "${apt[@]}" install -y --no-install-recommends build-essential &&
	chroot "$broot" sh -c "cd /src/perf-prof-$ver && ${apt[*]} build-dep -y --no-install-recommends ." &&
	chroot "$broot" sh -c "cd /src/perf-prof-$ver && dpkg-buildpackage -b -us -uc -J$(nproc)"; } >"$log" 2>&1 ||
	{ tail -n 30 "$log"; fail "the package does not build from its Build-Depends (log: $log)"; }
ls "$broot/src/perf-prof_${ver}_"*.deb
umount "$broot/proc"
rm -rf --one-file-system "$broot"

step "apt-get install ./$(basename "$deb") in the fresh root"
cp "$deb" "$root/tmp/"
mnt proc proc "$root/proc"
mnt sysfs sysfs "$root/sys"
mnt tracefs tracefs "$root/sys/kernel/tracing"
mnt bind /dev "$root/dev"
mnt devpts devpts "$root/dev/pts"
chroot "$root" "${apt[@]}" update >"$build/deb-apt.log" 2>&1 ||
	{ tail -n 20 "$build/deb-apt.log"; fail "apt-get update in the root failed"; }
chroot "$root" sh -c "cd /tmp && ${apt[*]} install -y \
	--no-install-recommends ./$(basename "$deb")" >>"$build/deb-apt.log" 2>&1 ||
	{ tail -n 20 "$build/deb-apt.log"; fail "apt-get install of the package failed"; }
grep -E '^(Setting up|Unpacking) ' "$build/deb-apt.log" | sed 's/^/  /'
chroot "$root" dpkg-query -W -f='${Package} ${Version} ${Status}\n' perf-prof

step "running it in the root"
out=$root/tmp/out
rc=0
chroot "$root" perf-prof -h >"$out" 2>&1 || rc=$?
[ $rc -eq 0 ] && grep -q '^Profilers:' "$out" || { cat "$out"; fail "perf-prof -h: status $rc"; }
echo "perf-prof -h: $(wc -l <"$out") lines"
rc=0
chroot "$root" perf-prof check >"$out" 2>&1 || rc=$?
cat "$out"
# 0: every profiler can run; 1: some cannot (on a host without a PMU)
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "perf-prof check: status $rc"
grep -Eq '^ *tracefs +yes +/sys/kernel/tracing' "$out" ||
	fail "perf-prof check did not find tracefs at /sys/kernel/tracing"
grep -Eq '^ *trace +ok' "$out" || fail "perf-prof check: trace is not ok"
# BPF as the host has it (this runs as root): every program type, BTF, the JIT
grep -Eq '^ *BPF +yes +tracepoint, raw_tp, tp_btf, perf_event programs load;' "$out" ||
	fail "perf-prof check: BPF is not yes (libbpf1 missing, or the host lacks something?)"
grep -Eq '^[0-9]+ ok, [0-9]+ degraded, [0-9]+ unavailable' "$out" ||
	fail "perf-prof check: no summary line"
echo "perf-prof check: status $rc"
rc=0
chroot "$root" perf-prof trace -e sched:sched_switch -N 5 >"$out" 2>&1 || rc=$?
n=$(grep -c 'sched:sched_switch:' "$out" || true)
[ $rc -eq 0 ] && [ "$n" -eq 5 ] || { cat "$out"; fail "trace -N 5: status $rc, $n events"; }
echo "perf-prof trace -e sched:sched_switch -N 5: 5 events"
head -n 2 "$out"

# sql (libsqlite3) and python (libpython3.11 and its standard library) from the package's Depends
rc=0
chroot "$root" perf-prof sql -e sched:sched_switch -N 50 --output2 /tmp/pp.db \
	--query 'SELECT count(*) AS n FROM sched_switch' >"$out" 2>&1 || rc=$?
[ $rc -eq 0 ] && [ "$(awk '$1 == "n" { getline; print $1 }' "$out")" = 50 ] ||
	{ cat "$out"; fail "sql -N 50: status $rc, not 50 rows"; }
echo "perf-prof sql -e sched:sched_switch -N 50 --query 'SELECT count(*) ...': 50"
printf '%s\n' 'n = 0' 'def sched__sched_switch(e):' '    global n' '    n += 1' \
	'def __exit__():' '    print("switches", n)' >"$root/tmp/count.py"
rc=0
chroot "$root" perf-prof python -e sched:sched_switch -N 20 /tmp/count.py >"$out" 2>&1 || rc=$?
[ $rc -eq 0 ] && grep -qx 'switches 20' "$out" || { cat "$out"; fail "python -N 20: status $rc"; }
echo "perf-prof python -e sched:sched_switch -N 20 count.py: switches 20"

# a profiler on the BPF back end: check names it; --bpf makes the ring path an error (status 2)
if chroot "$root" perf-prof top -h 2>/dev/null | grep -q -- '--no-bpf'; then
	chroot "$root" perf-prof check >"$out" 2>&1 || true
	grep -Eq '^ *BPF back end +yes +([a-z-]+, )*top[,( ]' "$out" ||
		{ grep 'BPF' "$out"; fail "perf-prof check: the BPF back end row does not name top"; }
	rc=0
	chroot "$root" timeout --preserve-status -s INT 2 perf-prof top --bpf \
		-e raw_syscalls:sys_enter -k common_pid >"$out" 2>"$out.err" || rc=$?
	[ $rc -eq 0 ] && grep -q '^common_pid ' "$out" ||
		{ cat "$out" "$out.err"; fail "top --bpf: status $rc"; }
	echo "perf-prof top --bpf -e raw_syscalls:sys_enter -k common_pid: status 0," \
		"$(awk 'f { n++ } /^common_pid / { f = 1 } END { print n + 0 }' "$out") keys"
	head -n 3 "$out"
else
	echo "deb-test: top has no BPF back end in this build: no BPF profiler run"
fi

step "apt-get remove"
chroot "$root" "${apt[@]}" remove -y perf-prof >>"$build/deb-apt.log" 2>&1 ||
	fail "apt-get remove failed"
[ ! -e "$root/usr/bin/perf-prof" ] || fail "/usr/bin/perf-prof left after remove"

step "done"
