// SPDX-License-Identifier: GPL-2.0
/*
 * py_tramp MS: a stand-in for CPython 3.12's perf trampolines (-X perf).
 * Two trampolines are copied into anonymous executable memory and named in
 * /tmp/perf-PID.map as CPython names them ("py::outer:/tmp/py_tramp.py",
 * "py::inner:/tmp/py_tramp.py"); each calls the native eval_frame(), which
 * enters the next one, as the interpreter does, and the last one spins
 * in spin() for MS milliseconds of CPU.  A frame-pointer stack of a sample
 * in spin is, leaf first:
 *   spin, eval_frame, py::inner, eval_frame, py::outer, eval_frame, main.
 * The map is removed at exit.  Prints "pid=PID" on stderr first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* push %rbp; mov %rsp,%rbp; call *%rsi; pop %rbp; ret: tramp(depth, eval) calls eval(depth) */
static const unsigned char stub[] = { 0x55, 0x48, 0x89, 0xe5, 0xff, 0xd6, 0x5d, 0xc3 };

typedef long (*tramp_fn)(long depth, long (*eval)(long));

static tramp_fn tramp[2];
static long spin_ms;
static volatile unsigned long sink;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) long spin(void)
{
	double end = now_ms() + (double)spin_ms;

	while (now_ms() < end)
		for (int i = 0; i < 10000; i++)
			sink += (unsigned long)i;
	return 0;
}

__attribute__((noinline)) long eval_frame(long depth)
{
	long r;

	if (depth == 2)
		r = spin();
	else
		r = tramp[depth](depth + 1, eval_frame);
	__asm__ volatile("" ::: "memory");
	return r;
}

int main(int argc, char **argv)
{
	char path[64];
	unsigned char *p;
	FILE *fp;
	long r;

	spin_ms = argc > 1 ? atol(argv[1]) : 500;
	fprintf(stderr, "pid=%d\n", (int)getpid());
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	memcpy(p, stub, sizeof(stub));
	memcpy(p + 64, stub, sizeof(stub));
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC))
		return 1;
	tramp[0] = (tramp_fn)(void *)p;
	tramp[1] = (tramp_fn)(void *)(p + 64);
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	fp = fopen(path, "w");
	if (!fp)
		return 1;
	fprintf(fp, "%lx %zx py::outer:/tmp/py_tramp.py\n", (unsigned long)p, sizeof(stub));
	fprintf(fp, "%lx %zx py::inner:/tmp/py_tramp.py\n", (unsigned long)(p + 64), sizeof(stub));
	fclose(fp);
	r = eval_frame(0);
	unlink(path);
	return (int)r;
}
