// SPDX-License-Identifier: GPL-2.0
/*
 * bench_chains [ITERATIONS] [PATHS]: deep user and kernel stacks from many
 * distinct call chains, for bench/stacks-bench.sh.
 *
 * Iteration i follows path i % PATHS (default 200 paths, 20000 iterations):
 *   main -> run_path -> step -> step -> ... (20-40 steps, alternating at random
 *   between exe_stepN here and lib_stepN in libchains.so) -> a sleeping syscall
 * (nanosleep, clock_nanosleep or select, by path % 3) issued from the last step
 * itself, so each iteration switches out once with a full kernel stack under
 * the user one.  Every path appears ITERATIONS / PATHS times.
 * Built with frame pointers, no inlining of steps and no tail calls.
 *
 * Environment:
 *   BENCH_CHAINS_LLVM=/path/libLLVM-14.so.1: every 4th iteration runs its path
 *     from a callback that libLLVM calls (llvm::sys::RunSignalHandlers, which
 *     runs and forgets the callbacks registered with AddSignalHandler), so
 *     stacks hold a frame in a 100 MB library and resolving them pays for its
 *     symbols.  libLLVM has no frame pointers: those stacks stop at that frame.
 *   BENCH_CHAINS_END=FILE: write CLOCK_REALTIME (seconds.nanoseconds) to FILE
 *     after the last iteration, so a benchmark can time what follows.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "chains.h"

static chains_step steps[CHAINS_STEPS];

#define EXE_STEP(n)                                           \
	static void exe_step##n(unsigned int path, int level) \
	{                                                     \
		CHAINS_STEP_BODY(steps, path, level);         \
	}
EXE_STEP(0)
EXE_STEP(1)
EXE_STEP(2)
EXE_STEP(3)
EXE_STEP(4)
EXE_STEP(5)
EXE_STEP(6)
EXE_STEP(7)

static void run_path(unsigned int path)
{
	steps[chains_pick(path, 0)](path, 1);
	__asm__ volatile("" ::: "memory");
}

static unsigned int llvm_path;

static void llvm_cb(void *cookie)
{
	(void)cookie;
	run_path(llvm_path);
	__asm__ volatile("" ::: "memory");
}

typedef void (*llvm_add_fn)(void (*fn)(void *), void *cookie);
typedef void (*llvm_run_fn)(void);

static llvm_add_fn llvm_add;

/* Returns RunSignalHandlers, or NULL; it runs each registered callback once. */
static llvm_run_fn llvm_setup(const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	llvm_add_fn add;
	llvm_run_fn run;

	if (!h) {
		fprintf(stderr, "bench_chains: %s\n", dlerror());
		return NULL;
	}
	llvm_add = add = (llvm_add_fn)dlsym(h, "_ZN4llvm3sys16AddSignalHandlerEPFvPvES1_");
	run = (llvm_run_fn)dlsym(h, "_ZN4llvm3sys17RunSignalHandlersEv");
	if (!add || !run) {
		fprintf(stderr, "bench_chains: no llvm::sys signal handler API in %s\n", lib);
		return NULL;
	}
	return run;
}

static void write_end(const char *file)
{
	struct timespec ts;
	FILE *f = fopen(file, "w");

	if (!f)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	fprintf(f, "%ld.%09ld\n", (long)ts.tv_sec, ts.tv_nsec);
	fclose(f);
}

int main(int argc, char **argv)
{
	static const chains_step all[CHAINS_STEPS] = {
		exe_step0, exe_step1, exe_step2, exe_step3, exe_step4, exe_step5,
		exe_step6, exe_step7, lib_step0, lib_step1, lib_step2, lib_step3,
		lib_step4, lib_step5, lib_step6, lib_step7,
	};
	long i, n = argc > 1 ? atol(argv[1]) : 20000;
	unsigned int paths = argc > 2 ? (unsigned int)atoi(argv[2]) : 200;
	const char *llvm = getenv("BENCH_CHAINS_LLVM");
	const char *end = getenv("BENCH_CHAINS_END");
	llvm_run_fn llvm_run = NULL;

	if (!paths)
		paths = 1;
	for (i = 0; i < CHAINS_STEPS; i++)
		steps[i] = all[i];
	if (llvm && *llvm && !(llvm_run = llvm_setup(llvm)))
		return 1;
	chains_lib_init(steps);
	for (i = 0; i < n; i++) {
		if (llvm_run && i % 4 == 0) {
			llvm_path = (unsigned int)(i % paths);
			llvm_add(llvm_cb, NULL);
			llvm_run();
		} else {
			run_path((unsigned int)(i % paths));
		}
	}
	if (end)
		write_end(end);
	return 0;
}
