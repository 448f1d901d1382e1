// SPDX-License-Identifier: GPL-2.0
/*
 * User-space allocator pairing on synthesized samples: entry arguments
 * and return values per thread, calls inside calls counted once (new ->
 * malloc, delete[] -> delete -> free, a tail call new[] -> new), realloc
 * moving and freeing, failures, posix_memalign's result read from the
 * copied stack, and a call an exception left (no return) forgotten.
 */
#include <asm/perf_regs.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/memory/umalloc.h"
#include "engine/probe.h"
#include "ut.h"

/* What the pairing reported, in order. */
static struct rep {
	char what; /* 'a' alloc, 'f' free */
	u64 ptr, size;
	u32 tid;
} reps[64];
static int nr_reps;

static void on_alloc(void *arg, struct session *s, const struct sample *smp, u64 ptr, u64 size)
{
	(void)arg, (void)s;
	if (nr_reps < 64)
		reps[nr_reps++] = (struct rep){ 'a', ptr, size, smp->tid };
}

static void on_free(void *arg, struct session *s, const struct sample *smp, u64 ptr)
{
	(void)arg, (void)s;
	if (nr_reps < 64)
		reps[nr_reps++] = (struct rep){ 'f', ptr, 0, smp->tid };
}

static const struct umalloc_ops ops = { .alloc = on_alloc, .free = on_free };

#define NR_EV 32
static struct evsel evs[NR_EV];
static int nr_evs;
static struct umalloc *u;

/* The event of @fn's entry or return. */
static struct evsel *ev_of(const char *fn, bool ret)
{
	struct probe_site site = { .path = "/lib/libc.so.6", .symbol = (char *)fn, .nr_args = -1 };

	for (int i = 0; i < nr_evs; i++)
		if (!strcmp(evs[i].name, fn) && ev_probe__is_return(((int *)evs[i].priv)[0]) == ret)
			return &evs[i];
	struct evsel *e = &evs[nr_evs++];
	static int kinds[2] = { EV_UPROBE, EV_URETPROBE };

	e->name = (char *)fn;
	e->priv = &kinds[ret];
	e->probe = probe__new(ret ? EV_URETPROBE : EV_UPROBE, &site);
	CHECK(!umalloc__watch(u, e, fn, ret), "watch %s", fn);
	return e;
}

/* Registers di si dx cx r8 r9 ax sp ip, in the mask's order. */
#define MASK                                                                           \
	(1ULL << PERF_REG_X86_AX | 1ULL << PERF_REG_X86_CX | 1ULL << PERF_REG_X86_DX | \
	 1ULL << PERF_REG_X86_SI | 1ULL << PERF_REG_X86_DI | 1ULL << PERF_REG_X86_SP | \
	 1ULL << PERF_REG_X86_IP | 1ULL << PERF_REG_X86_R8 | 1ULL << PERF_REG_X86_R9)

static u64 regs[9]; /* ax cx dx si di sp ip r8 r9 */
static unsigned char stack[256];

static void fire(const char *fn, bool ret, u32 tid, u64 sp, u64 a1, u64 a2, u64 a3, u64 ax)
{
	struct sample smp = {
		.tid = tid, .pid = tid, .regs_mask = MASK, .nr_regs = 9, .regs = regs
	};

	regs[0] = ax;
	regs[1] = 0;
	regs[2] = a3;
	regs[3] = a2;
	regs[4] = a1;
	regs[5] = sp;
	if (ret) {
		smp.sample_type = PERF_SAMPLE_STACK_USER;
		smp.stack = stack;
		smp.stack_size = smp.stack_dyn_size = sizeof(stack);
	}
	CHECK(umalloc__sample(u, NULL, ev_of(fn, ret), &smp), "%s is ours", fn);
}

static bool is(int i, char what, u64 ptr, u64 size)
{
	return i < nr_reps && reps[i].what == what && reps[i].ptr == ptr && reps[i].size == size;
}

int main(void)
{
	struct umalloc_stats st;
	struct evsel other = { .name = "other" };

	u = umalloc__new(&ops, NULL);
	/* malloc(100) = 0x1000, free(0x1000) */
	fire("malloc", false, 1, 0x7000, 100, 0, 0, 0);
	fire("malloc", true, 1, 0x7008, 0, 0, 0, 0x1000);
	fire("free", false, 1, 0x7000, 0x1000, 0, 0, 0);
	CHECK(is(0, 'a', 0x1000, 100) && is(1, 'f', 0x1000, 0), "malloc then free");
	/* calloc(5, 20) = 0x2000 */
	fire("calloc", false, 1, 0x7000, 5, 20, 0, 0);
	fire("calloc", true, 1, 0x7008, 0, 0, 0, 0x2000);
	CHECK(is(2, 'a', 0x2000, 100), "calloc: nmemb * size");
	/* new(1234) -> malloc(1234) = 0x3000: once, as new */
	fire("_Znwm", false, 1, 0x7000, 1234, 0, 0, 0);
	fire("malloc", false, 1, 0x6f00, 1234, 0, 0, 0);
	fire("malloc", true, 1, 0x6f08, 0, 0, 0, 0x3000);
	fire("_Znwm", true, 1, 0x7008, 0, 0, 0, 0x3000);
	CHECK(nr_reps == 4 && is(3, 'a', 0x3000, 1234), "new -> malloc counts once: %d", nr_reps);
	/* new[](50): a tail call into new (same slot), then malloc */
	fire("_Znam", false, 1, 0x7000, 50, 0, 0, 0);
	fire("_Znwm", false, 1, 0x7000, 50, 0, 0, 0);
	fire("malloc", false, 1, 0x6f00, 50, 0, 0, 0);
	fire("malloc", true, 1, 0x6f08, 0, 0, 0, 0x4000);
	fire("_Znwm", true, 1, 0x7008, 0, 0, 0, 0x4000);
	fire("_Znam", true, 1, 0x7008, 0, 0, 0, 0x4000);
	CHECK(nr_reps == 5 && is(4, 'a', 0x4000, 50), "new[] -> new -> malloc counts once");
	/* delete[](0x4000) -> delete -> free: one free */
	fire("_ZdaPv", false, 1, 0x7000, 0x4000, 0, 0, 0);
	fire("_ZdlPv", false, 1, 0x7000, 0x4000, 0, 0, 0);
	fire("free", false, 1, 0x6f00, 0x4000, 0, 0, 0);
	CHECK(nr_reps == 6 && is(5, 'f', 0x4000, 0), "delete[] -> delete -> free: one free");
	/* a later free of the same address (reused) is a free again */
	fire("free", false, 1, 0x7000, 0x4000, 0, 0, 0);
	CHECK(nr_reps == 7 && is(6, 'f', 0x4000, 0), "the next free of it is not nested");
	/* realloc(0x2000, 777) = 0x5000: free of the old, then the new */
	fire("realloc", false, 1, 0x7000, 0x2000, 777, 0, 0);
	fire("realloc", true, 1, 0x7008, 0, 0, 0, 0x5000);
	CHECK(is(7, 'f', 0x2000, 0) && is(8, 'a', 0x5000, 777), "realloc moves");
	/* realloc(0x5000, 0) = NULL: a free, no failure */
	fire("realloc", false, 1, 0x7000, 0x5000, 0, 0, 0);
	fire("realloc", true, 1, 0x7008, 0, 0, 0, 0);
	CHECK(nr_reps == 10 && is(9, 'f', 0x5000, 0), "realloc(p, 0) frees");
	/* a failed realloc keeps the old block: NULL reported, no free */
	fire("realloc", false, 1, 0x7000, 0x3000, 1ULL << 60, 0, 0);
	fire("realloc", true, 1, 0x7008, 0, 0, 0, 0);
	CHECK(nr_reps == 11 && is(10, 'a', 0, 1ULL << 60), "a failed realloc frees nothing");
	/* posix_memalign(&p, 64, 300): p on the caller's stack, copied at the return */
	u64 p = 0x6000;

	memcpy(stack + 0x40, &p, 8);
	fire("posix_memalign", false, 1, 0x7000, 0x7008 + 0x40, 64, 300, 0);
	fire("posix_memalign", true, 1, 0x7008, 0, 0, 0, 0);
	CHECK(nr_reps == 12 && is(11, 'a', 0x6000, 300), "posix_memalign: *memptr from the stack");
	/* ... and a failing one (ENOMEM) */
	fire("posix_memalign", false, 1, 0x7000, 0x7008 + 0x40, 64, 1ULL << 60, 0);
	fire("posix_memalign", true, 1, 0x7008, 0, 0, 0, 12);
	CHECK(nr_reps == 13 && is(12, 'a', 0, 1ULL << 60), "a failed posix_memalign: NULL");
	/* threads pair apart: malloc entries of two threads, returns crossed */
	fire("malloc", false, 2, 0x9000, 10, 0, 0, 0);
	fire("malloc", false, 3, 0xa000, 20, 0, 0, 0);
	fire("malloc", true, 3, 0xa008, 0, 0, 0, 0xb000);
	fire("malloc", true, 2, 0x9008, 0, 0, 0, 0xc000);
	CHECK(is(13, 'a', 0xb000, 20) && reps[13].tid == 3 && is(14, 'a', 0xc000, 10),
	      "per thread");
	/* an exception leaves new without a return; the next new from that frame counts */
	fire("_Znwm", false, 4, 0x7000, 1 << 30, 0, 0, 0);
	fire("malloc", false, 4, 0x6f00, 1 << 30, 0, 0, 0);
	fire("malloc", true, 4, 0x6f08, 0, 0, 0, 0);
	fire("_Znwm", false, 4, 0x7000, 16, 0, 0, 0);
	fire("malloc", false, 4, 0x6f00, 16, 0, 0, 0);
	fire("malloc", true, 4, 0x6f08, 0, 0, 0, 0xd000);
	fire("_Znwm", true, 4, 0x7008, 0, 0, 0, 0xd000);
	fire("free", false, 4, 0x7100, 0xd000, 0, 0, 0);
	CHECK(nr_reps == 17 && is(15, 'a', 0xd000, 16) && is(16, 'f', 0xd000, 0),
	      "after an exception: counted, and its free too (%d)", nr_reps);
	/* a return without its entry (its entry lost) */
	fire("calloc", true, 5, 0x7008, 0, 0, 0, 0xe000);
	umalloc__stats(u, &st);
	CHECK_INT(st.unmatched, 1);
	CHECK_INT(st.unwound, 1);
	CHECK(st.nested >= 6, "nested %llu", (unsigned long long)st.nested);
	CHECK(!umalloc__sample(u, NULL, &other, &(struct sample){ 0 }), "not ours");
	CHECK_INT(umalloc__watch(u, &other, "nosuch", false), -ENOENT);
	umalloc__exit(u, 1);
	umalloc__lost(u);
	umalloc__delete(u);
	for (int i = 0; i < nr_evs; i++)
		probe__free(&evs[i]);
	return ut_done("test_umalloc");
}
