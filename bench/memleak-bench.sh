#!/usr/bin/env bash
# kmemleak --user against its peers, same workload, one run:
#   perf-prof kmemleak --user -p PID
#   bcc's memleak (memleak-bpfcc -p PID), or where it cannot run (it compiles
#   its BPF program against kernel headers this host may not have) an
#   equivalent bpftrace script: malloc/calloc/realloc/free, outstanding
#   bytes and objects by user stack
# The workload is tests/work/leak/leaks.cc with N malloc/free pairs plus its
# known leaks (10 x 4096 from leak_a, 5 x 100 from leak_b, 777 from leak_c,
# 1234 from leak_d); it times its own work.  Per tool: the workload's
# slowdown against the unmonitored run, the tool's CPU time (user + sys),
# how many known leaks it reported exactly (bytes and objects, by the first
# frame of their stack) and how many under a stack that holds the leaking
# function (the place a developer must fix).
# The median of ROUNDS rounds.
# usage: bench/memleak-bench.sh [BUILD_DIR] [N] [ROUNDS]
set -u
build=${1:-build}
n=${2:-1000000}
rounds=${3:-3}
. "$(dirname "$0")/lib.sh"
bench_build "$build"
wl=$build/work/leaks
[ -x "$pp" ] && [ -x "$wl" ] || { echo "no $pp or $wl (make; make workloads)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 1; }
command -v bpftrace >/dev/null || { echo "needs bpftrace"; exit 1; }
tmp=$(mktemp -d /tmp/memleak-bench.XXXXXX)
trap 'pkill -KILL -f "$tmp/" 2>/dev/null; rm -rf "$tmp"' EXIT
libc=$("$pp" list 'uprobe:malloc@"libc.so.6"' | awk '$1 == "file" { print $2 }')

cat >"$tmp/memleak.bt" <<BT
uprobe:$libc:malloc /pid == \$1/ { @sz[tid] = arg0; }
uprobe:$libc:calloc /pid == \$1/ { @sz[tid] = arg0 * arg1; }
uprobe:$libc:realloc /pid == \$1/ { @sz[tid] = arg1; @old[tid] = arg0; }
uprobe:$libc:free /pid == \$1/ { @fr[tid] = arg0; }
uretprobe:$libc:malloc,uretprobe:$libc:calloc,uretprobe:$libc:realloc /pid == \$1 && @sz[tid]/ {
	if (@old[tid] && @al[@old[tid]]) {
		@bytes[@st[@old[tid]]] = @bytes[@st[@old[tid]]] - @al[@old[tid]];
		@objs[@st[@old[tid]]] = @objs[@st[@old[tid]]] - 1;
		delete(@al[@old[tid]]); delete(@st[@old[tid]]);
	}
	if (retval) {
		@al[retval] = @sz[tid]; @st[retval] = ustack;
		@bytes[ustack] = @bytes[ustack] + @sz[tid]; @objs[ustack] = @objs[ustack] + 1;
	}
	delete(@sz[tid]); delete(@old[tid]);
}
uprobe:$libc:free /pid == \$1 && @al[arg0]/ {
	@bytes[@st[arg0]] = @bytes[@st[arg0]] - @al[arg0];
	@objs[@st[arg0]] = @objs[@st[arg0]] - 1;
	delete(@al[arg0]); delete(@st[arg0]);
}
END { clear(@sz); clear(@old); clear(@fr); clear(@al); clear(@st); }
BT

# exact OUT: how many of the 4 known leaks the report gives exactly (bytes and objects)
exact_pp() {
	awk '/^ +[0-9]+ +[0-9]+ +[0-9.]+[a-z]*s/ { b = $1; o = $2; first = 1; next }
		first && NF { first = 0; if (match($2, /^leak_[abcd]\+/)) { f = substr($2, 1, 6); B[f] += b; O[f] += o } }
		END { n = (B["leak_a"] == 40960 && O["leak_a"] == 10) + (B["leak_b"] == 500 && O["leak_b"] == 5)
			n += (B["leak_c"] == 777 && O["leak_c"] == 1) + (B["leak_d"] == 1234 && O["leak_d"] == 1); print n }' "$1"
}
# bpftrace: @bytes[stack]: N and @objs[stack]: N, first frame leak_X; leak_d's is operator
# new's (its frame-pointer walk from inside libstdc++, built without them, skips leak_d)
exact_bt() {
	awk '/^@(bytes|objs)\[/ { m = substr($1, 2, 4); first = 1; f = ""; next }
		first && NF { first = 0; if (match($1, /^leak_[abcd]\+/)) f = substr($1, 1, 6); else if ($0 ~ /^ *operator new/) f = "new" }
		/^\]: / { if (f != "") V[m, f] += $2; if (f == "new") nf = 1 }
		END { n = (V["byte", "leak_a"] == 40960 && V["objs", "leak_a"] == 10) + (V["byte", "leak_b"] == 500 && V["objs", "leak_b"] == 5)
			n += (V["byte", "leak_c"] == 777 && V["objs", "leak_c"] == 1) + (V["byte", "new"] == 1234 && V["objs", "new"] == 1); print n }' "$1"
}

# sites OUT pp|bt: how many of the 4 known leaks have their bytes under a stack holding their
# own function (leak_a..leak_d): the report names the right place
sites() {
	awk -v fmt="$2" '
		function add(   k) { for (k in F) S[k] += b; delete F }
		fmt == "pp" && /^ +[0-9]+ +[0-9]+ +[0-9.]+[a-z]*s/ { add(); b = $1; next }
		fmt == "pp" && match($2, /^leak_[abcd]\+/) { F[substr($2, 1, 6)] = 1 }
		fmt == "bt" && /^@bytes\[/ { inb = 1; delete F; next }
		fmt == "bt" && /^@/ { inb = 0 }
		fmt == "bt" && inb && match($1, /^leak_[abcd]\+/) { F[substr($1, 1, 6)] = 1 }
		fmt == "bt" && inb && /^\]: / { b = $2; add(); inb = 0 }
		END { if (fmt == "pp") add(); print (S["leak_a"] == 40960) + (S["leak_b"] == 500) + (S["leak_c"] == 777) + (S["leak_d"] == 1234) }' "$1"
}

# run NAME [TOOL...]: the workload (attached to by TOOL, PID replaced); prints "SECONDS CPU EXACT SITES"
run() {
	local name=$1 w p i args=() a
	shift
	rm -f "$tmp/fifo"
	mkfifo "$tmp/fifo"
	"$wl" -f "$tmp/fifo" -n "$n" -s 2 >"$tmp/$name.wl" &
	w=$!
	for i in $(seq 50); do grep -q '^pid=' "$tmp/$name.wl" && break; sleep 0.1; done
	if [ $# -gt 0 ]; then
		for a in "$@"; do args+=("${a//PID/$w}"); done
		/usr/bin/time -f "%U %S" -o "$tmp/$name.cpu" "${args[@]}" >"$tmp/$name.out" 2>"$tmp/$name.err" &
		p=$!
		for i in $(seq 300); do
			grep -qs "monitoring:\|Attaching" "$tmp/$name.err" "$tmp/$name.out" && break
			sleep 0.1
		done
		sleep 0.5
	fi
	echo go >"$tmp/fifo"
	for i in $(seq 600); do grep -q '^done' "$tmp/$name.wl" && break; sleep 0.1; done
	if [ $# -gt 0 ]; then
		# /usr/bin/time does not pass SIGINT on: the tool itself gets it
		pkill -INT -P "$p"
		wait "$p"
	fi
	wait "$w"
	local s cpu=0 ex=- si=-
	s=$(awk -F= '/^elapsed_ns=/ { printf "%.4f\n", $2 / 1e9 }' "$tmp/$name.wl")
	if [ $# -gt 0 ]; then
		cpu=$(awk '{ printf "%.2f\n", $1 + $2 }' "$tmp/$name.cpu" 2>/dev/null)
		if [ "$name" = perf-prof ]; then
			ex=$(exact_pp "$tmp/$name.out")
			si=$(sites "$tmp/$name.out" pp)
		else
			ex=$(exact_bt "$tmp/$name.out")
			si=$(sites "$tmp/$name.out" bt)
		fi
	fi
	echo "$s $cpu $ex $si"
}

peer=bpftrace
peer_cmd=(bpftrace "$tmp/memleak.bt" PID)
if timeout 30 memleak-bpfcc -p $$ 1 1 >/dev/null 2>&1; then
	echo "note: memleak-bpfcc runs here, but its report format is not parsed: bpftrace is used"
else
	echo "memleak-bpfcc cannot run here (it compiles BPF against kernel headers): the bpftrace equivalent"
fi
printf '%d malloc/free pairs plus the 4 known leaks, median of %d rounds\n' "$n" "$rounds"
for tool in base perf-prof $peer; do
	: >"$tmp/$tool.all"
	for r in $(seq "$rounds"); do
		case $tool in
		base) run base ;;
		perf-prof) run perf-prof "$pp" kmemleak --user -p PID -v ;;
		bpftrace) run bpftrace "${peer_cmd[@]}" ;;
		esac >>"$tmp/$tool.all"
	done
done
b=$(awk '{ print $1 }' "$tmp/base.all" | median)
printf '%-10s %10s %9s %10s %12s %12s\n' TOOL "WORKLOAD" SLOWDOWN "TOOL CPU" "EXACT LEAKS" "RIGHT SITE"
for tool in base perf-prof $peer; do
	s=$(awk '{ print $1 }' "$tmp/$tool.all" | median)
	c=$(awk '{ print $2 }' "$tmp/$tool.all" | median)
	e=$(awk '{ print $3 }' "$tmp/$tool.all" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
	si=$(awk '{ print $4 }' "$tmp/$tool.all" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
	printf '%-10s %9.3fs %8.1fx %9.2fs %10s/4 %10s/4\n' "$tool" "$s" \
		"$(awk -v s="$s" -v b="$b" 'BEGIN { print s / b }')" "$c" "$e" "$si"
done
