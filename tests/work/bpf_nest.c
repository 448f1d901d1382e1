// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_nest MS: another tool's BPF program, so a test can see what perf-prof
 * says of the hits its own programs miss.  Attaches a perf_event program to
 * a 1 kHz cpu-clock of this thread; the program counts its runs in an
 * array map and calls bpf_trace_printk(), which fires the tracepoint
 * bpf_trace:bpf_trace_printk inside it.  A classic tracepoint program (a
 * BPF profiler's) on that tracepoint cannot run there: the kernel runs one
 * such program at a time on a CPU, and counts the hit as the program's
 * miss.  A perf event's sample of it is written.  Spins MS milliseconds,
 * then prints "ran N" (the program's runs: the tracepoint's hits) and exits
 * (the program and map go with its fds).  Prints "nobpf REASON" and exits
 * 0 where it cannot load or attach.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

static long bpf(int cmd, union bpf_attr *a)
{
	return syscall(SYS_bpf, cmd, a, sizeof(*a));
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 200;
	char log[4096] = "";
	union bpf_attr a;
	struct perf_event_attr pa;
	int map, pfd, efd;
	uint32_t zero = 0;
	uint64_t ran = 0;
	volatile unsigned long spin = 0;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = 4;
	a.value_size = 8;
	a.max_entries = 1;
	map = (int)bpf(BPF_MAP_CREATE, &a);
	if (map < 0) {
		printf("nobpf map: %s\n", strerror(errno));
		return 0;
	}
	/* runs++ in the map; bpf_trace_printk("nest\n"); return 1 (the sample stays) */
	struct bpf_insn prog[] = {
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, 0),
		INSN(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, map),
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 0, BPF_ADD),
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -16, 0x7473656e), /* "nest" */
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -12, 0x0a),	/* "\n" */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, -16),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 2, 0, 0, 6),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_trace_printk),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 1),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_PERF_EVENT;
	a.insns = (uintptr_t)prog;
	a.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	a.license = (uintptr_t) "GPL";
	a.log_buf = (uintptr_t)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	pfd = (int)bpf(BPF_PROG_LOAD, &a);
	if (pfd < 0) {
		printf("nobpf load: %s %s\n", strerror(errno), log);
		return 0;
	}
	memset(&pa, 0, sizeof(pa));
	pa.type = PERF_TYPE_SOFTWARE;
	pa.size = sizeof(pa);
	pa.config = PERF_COUNT_SW_CPU_CLOCK;
	pa.sample_period = 1000000; /* 1 ms of this thread's CPU time */
	pa.disabled = 1;
	efd = (int)syscall(SYS_perf_event_open, &pa, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (efd < 0 || ioctl(efd, PERF_EVENT_IOC_SET_BPF, pfd) ||
	    ioctl(efd, PERF_EVENT_IOC_ENABLE, 0)) {
		printf("nobpf attach: %s\n", strerror(errno));
		return 0;
	}
	for (double end = now() + ms / 1e3; now() < end;)
		for (int i = 0; i < 100000; i++)
			spin++;
	ioctl(efd, PERF_EVENT_IOC_DISABLE, 0);
	memset(&a, 0, sizeof(a));
	a.map_fd = map;
	a.key = (uintptr_t)&zero;
	a.value = (uintptr_t)&ran;
	if (bpf(BPF_MAP_LOOKUP_ELEM, &a)) {
		printf("nobpf read: %s\n", strerror(errno));
		return 0;
	}
	printf("ran %llu\n", (unsigned long long)ran);
	return 0;
}
