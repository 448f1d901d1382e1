#!/usr/bin/env bash
# Installs the Debian 12 packages perf-prof needs to build, test and benchmark.
# Safe to re-run: apt-get only installs what is missing.
set -euo pipefail
pkgs=(
	make gcc g++ pkg-config binutils clang libclang-rt-14-dev
	libtraceevent-dev libtracefs-dev libelf-dev libdw-dev uthash-dev libiberty-dev
	libc6-dbg libxml2-utils util-linux procps libgoogle-perftools4
	libbpf-dev bpftool linux-perf bpftrace stress-ng systemtap-sdt-dev bpfcc-tools
	protobuf-c-compiler libprotobuf-c-dev zlib1g-dev golang-github-google-pprof-dev protobuf-compiler
	libsqlite3-dev sqlite3 python3-dev
	jq debhelper dpkg-dev debootstrap bash-completion groff-base man-db
)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
# tracepoints live in tracefs; mount it where the kernel expects it
if [ -d /sys/kernel/tracing ] && ! mountpoint -q /sys/kernel/tracing; then
	mount -t tracefs nodev /sys/kernel/tracing
fi
