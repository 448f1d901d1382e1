// SPDX-License-Identifier: GPL-2.0
/*
 * analysis/stackdb on synthesized callchains: stacks held by a report
 * survive any churn, those nobody holds are dropped by the sweeps so that
 * what is kept stays bounded, the raw callchain cache stays under its cap,
 * equal frames of different processes (at other load addresses) share one
 * id, also unresolved ones of a file without symbols (by file offset), a
 * process's cached callchains are not found after its exec, exit or the
 * reuse of its pid, and memtrack's live allocations hold their stacks.
 *
 * Two made-up processes (pids above any pid_max) map this test's own
 * executable at two addresses, so that user frames resolve to its symbols
 * without reading any other process.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analysis/memory/memtrack.h"
#include "analysis/stacks/stackdb.h"
#include "ut.h"

#define PID_A 0x7ffff001u
#define PID_B 0x7ffff002u
#define DELTA 0x10000000ULL /* PID_B's load address is PID_A's + DELTA */

#define PID_C 0x7ffff003u /* PID_C, PID_D: a file without symbols */
#define PID_D 0x7ffff004u
#define PID_E 0x7ffff005u /* execs, exits, no markers */
#define PID_F 0x7ffff006u
#define NOSYM_BASE 0x500000000ULL

static u64 text_start, text_end, text_pgoff;
static char exe[4096];
static char nosym[64] = "/tmp/pp-test-stackdb-XXXXXX"; /* no ELF: no symbols */

/* The executable mapping of this test's own file in /proc/self/maps. */
static int find_text(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4200], perm[8], path[4096];
	unsigned long long s, e, off;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (!f || n <= 0)
		return -1;
	exe[n] = 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &s, &e, perm, &off, path) !=
		    5)
			continue;
		if (perm[2] == 'x' && !strcmp(path, exe)) {
			text_start = s;
			text_end = e;
			text_pgoff = off;
			break;
		}
	}
	fclose(f);
	return text_start ? 0 : -1;
}

static void map_file(struct stack_ctx *ctx, u32 pid, u64 base, u64 len, u64 pgoff, const char *path)
{
	struct rec_mmap2 m = {
		.pid = pid,
		.tid = pid,
		.addr = base,
		.len = len,
		.pgoff = pgoff,
		.prot = PROT_READ | PROT_EXEC,
		.filename = path,
	};

	stack_ctx__mmap2(ctx, &m);
}

static void map_into(struct stack_ctx *ctx, u32 pid, u64 base)
{
	map_file(ctx, pid, base, text_end - text_start, text_pgoff, exe);
}

static u64 ips[4];

/* A sample of @pid whose user stack is @leaf called from @caller (0: none). */
static struct sample smp_of(u32 pid, u64 leaf, u64 caller)
{
	struct sample s = { .pid = pid, .tid = pid, .ips = ips };

	ips[0] = (u64)PERF_CONTEXT_USER;
	ips[1] = leaf;
	ips[2] = caller;
	s.nr_ips = caller ? 3 : 2;
	s.sample_type = PERF_SAMPLE_CALLCHAIN;
	return s;
}

/* The i-th distinct stack: a leaf a byte further into the text each time. */
static u32 add_nth(struct stackdb *db, struct stack_ctx *ctx, u32 pid, u64 i)
{
	u64 base = pid == PID_B ? text_start + DELTA : text_start;
	struct sample s = smp_of(pid, base + 64 + i % (text_end - text_start - 128),
				 base + (text_end - text_start) / 2);
	u32 id = 0;

	if (stackdb__add(db, ctx, &s, &id))
		return 0;
	return id;
}

static void test_dedup(struct stack_ctx *ctx)
{
	struct stackdb *db = stackdb__new();
	u32 a, b, c, a2;
	int na, nb;
	const struct frame *fa, *fb;

	a = add_nth(db, ctx, PID_A, 10);
	a2 = add_nth(db, ctx, PID_A, 10);
	b = add_nth(db, ctx, PID_B, 10); /* the same code, loaded elsewhere */
	c = add_nth(db, ctx, PID_A, 11);
	CHECK(a != 0, "a stack gets an id");
	CHECK_INT(a2, a);
	CHECK_INT(b, a); /* the same symbols and offsets: one stack */
	CHECK(c != a, "a leaf elsewhere is another stack");
	fa = stackdb__frames(db, a, &na);
	fb = stackdb__frames(db, b, &nb);
	CHECK_INT(na, 2);
	CHECK(fa && fb && fa == fb, "one copy of the frames");
	CHECK(fa && strcmp(fa[0].sym, "[unknown]"), "the frames are resolved");
	CHECK(fa && fa[0].addr == text_start + 64 + 10, "the first process's addresses are shown");
	CHECK_INT(stackdb__count(db), 2);
	stackdb__delete(db);
}

static u32 add_ips(struct stackdb *db, struct stack_ctx *ctx, u32 pid, u64 leaf, u64 caller)
{
	struct sample s = smp_of(pid, leaf, caller);
	u32 id = 0;

	return stackdb__add(db, ctx, &s, &id) ? 0 : id;
}

/* A stripped binary (Debian's dash) at other load addresses: one stack by file offset. */
static void test_nosym(struct stack_ctx *ctx)
{
	struct stackdb *db = stackdb__new();
	u64 c = NOSYM_BASE, d = NOSYM_BASE + DELTA;
	u32 a, b, other;
	const struct frame *fr;
	int nr;

	map_file(ctx, PID_C, c, 0x10000, 0x1000, nosym);
	map_file(ctx, PID_D, d, 0x10000, 0x1000, nosym);
	a = add_ips(db, ctx, PID_C, c + 0x120, c + 0x480);
	b = add_ips(db, ctx, PID_D, d + 0x120, d + 0x480);
	other = add_ips(db, ctx, PID_D, d + 0x128, d + 0x480);
	fr = stackdb__frames(db, a, &nr);
	CHECK(a != 0, "a stack of a file without symbols gets an id");
	CHECK_INT(nr, 2);
	CHECK(fr && !strcmp(fr[0].sym, "[unknown]") && fr[0].dso && !strcmp(fr[0].dso, nosym),
	      "its frames are unresolved, in the file");
	CHECK_INT(b, a); /* the same file offsets in another process: one stack */
	CHECK(other != a, "another file offset is another stack");
	CHECK(fr && fr[0].addr == c + 0x120 && fr[1].addr == c + 0x480,
	      "the first process's addresses are shown");
	CHECK_INT(stackdb__count(db), 2);
	stackdb__delete(db);
}

/* The raw cache keys a pid's callchains by its image: exec, exit, reuse, no markers. */
static void test_exec(struct stack_ctx *ctx)
{
	struct stackdb *db = stackdb__new();
	struct rec_comm exec = { .pid = PID_E, .tid = PID_E, .comm = "next", .exec = true };
	struct rec_task task = { .pid = PID_E, .tid = PID_E, .ppid = PID_F, .ptid = PID_F };
	u64 leaf = text_start + 64, caller = text_start + (text_end - text_start) / 2;
	u64 len = text_end - text_start;
	const struct frame *fr;
	u32 a, b, c, d;
	int nr;

	map_into(ctx, PID_E, text_start);
	a = add_ips(db, ctx, PID_E, leaf, caller);
	fr = stackdb__frames(db, a, &nr);
	CHECK(fr && strcmp(fr[0].sym, "[unknown]"), "the first program's stack is resolved");
	stackdb__get(db, a);
	/* exec: a program without symbols at the same addresses (non-PIE) */
	stack_ctx__comm(ctx, &exec);
	map_file(ctx, PID_E, text_start, len, 0, nosym);
	b = add_ips(db, ctx, PID_E, leaf, caller);
	fr = stackdb__frames(db, b, &nr);
	CHECK(b != a, "after an exec the same addresses are another stack");
	CHECK(fr && !strcmp(fr[0].sym, "[unknown]") && fr[0].dso && !strcmp(fr[0].dso, nosym),
	      "the new program's frames");
	/* the process exits, its pid is reused by a child of PID_F running the first program */
	stack_ctx__exit(ctx, &task);
	stack_ctx__fork(ctx, &task);
	map_into(ctx, PID_E, text_start);
	c = add_ips(db, ctx, PID_E, leaf, caller);
	CHECK_INT(c, a);
	/* no PERF_CONTEXT_USER marker: user-half addresses are still the process's */
	map_file(ctx, PID_F, text_start, len, 0, nosym);
	ips[0] = leaf;
	{
		struct sample s = { .pid = PID_E, .tid = PID_E, .ips = ips, .nr_ips = 1 };
		struct sample t = { .pid = PID_F, .tid = PID_F, .ips = ips, .nr_ips = 1 };

		s.sample_type = t.sample_type = PERF_SAMPLE_CALLCHAIN;
		stackdb__add(db, ctx, &s, &c);
		stackdb__add(db, ctx, &t, &d);
	}
	fr = stackdb__frames(db, d, &nr);
	CHECK(c != d, "without markers, the same addresses of two processes are two stacks");
	CHECK(fr && nr == 1 && fr[0].dso && !strcmp(fr[0].dso, nosym),
	      "the second process's own frame");
	stackdb__put(db, a);
	stackdb__delete(db);
}

static void test_sweep(struct stack_ctx *ctx)
{
	struct stackdb *db = stackdb__new();
	struct stackdb_stats st;
	enum { HELD = 300, CHURN = 60000 };
	u32 held[HELD], max_count = 0;
	const struct frame *fr;
	bool ok = true;
	int nr;

	for (int i = 0; i < HELD; i++) {
		held[i] = add_nth(db, ctx, PID_A, i);
		stackdb__get(db, held[i]);
	}
	/* a long run of stacks nobody keeps (a profile's reset tables, frees) */
	for (int i = 0; i < CHURN; i++) {
		u32 id = add_nth(db, ctx, PID_A, HELD + i);

		ok &= id != 0;
		if (stackdb__count(db) > max_count)
			max_count = stackdb__count(db);
	}
	CHECK(ok, "every stack got an id");
	stackdb__stats(db, &st);
	CHECK_INT(st.added, HELD + CHURN);
	CHECK_INT(st.held, HELD);
	/* a sweep when the unheld stacks doubled since the last one (4096 at least) */
	CHECK(max_count <= 2 * 4096 + HELD, "kept at most %u stacks (%u)", 2 * 4096 + HELD,
	      max_count);
	CHECK(st.dropped >= CHURN - 2 * 4096, "dropped %llu", (unsigned long long)st.dropped);
	for (int i = 0; i < HELD; i++) {
		u64 want = text_start + 64 + (u64)i;

		fr = stackdb__frames(db, held[i], &nr);
		ok &= fr && nr == 2 && fr[0].addr == want;
	}
	CHECK(ok, "the held stacks survived the churn, with their frames");
	/* a stack seen again gets its old id while it is kept */
	CHECK_INT(add_nth(db, ctx, PID_A, 5), held[5]);

	/* the report reset its table: the stacks go at later sweeps */
	for (int i = 0; i < HELD; i++)
		stackdb__put(db, held[i]);
	stackdb__stats(db, &st);
	CHECK_INT(st.held, 0);
	for (int i = 0; i < 3 * 4096; i++)
		add_nth(db, ctx, PID_A, HELD + CHURN + i);
	fr = stackdb__frames(db, held[HELD - 1], &nr);
	CHECK(!fr || fr[0].addr != text_start + 64 + (u64)(HELD - 1),
	      "an unheld stack not seen for two sweeps is dropped");
	stackdb__stats(db, &st);
	CHECK(st.stacks <= 2 * 4096, "%u stacks kept", st.stacks);
	/* ids are handed out again: the table stays as small as what is kept */
	CHECK(st.bytes < 8u << 20, "%llu bytes", (unsigned long long)st.bytes);
	stackdb__delete(db);
}

/* Short-lived processes, each with the same few stacks: one stack each, a bounded cache. */
static void test_raw_cache(struct stack_ctx *ctx)
{
	struct stackdb *db = stackdb__new();
	struct stackdb_stats st;
	u32 first = 0, max_raws = 0;
	bool same = true;

	for (u32 p = 0; p < 20000; p++) {
		u32 pid = 0x7fff0000u + p;

		for (int i = 0; i < 4; i++) {
			/* a leaf outside any mapping: "[unknown]", the same in every process */
			struct sample s = smp_of(pid, 0x1000 + (u64)i * 16, 0);
			u32 id;

			if (stackdb__add(db, ctx, &s, &id))
				same = false;
			if (!p && !i)
				first = id;
			if (!i)
				same &= id == first;
		}
		stackdb__stats(db, &st);
		if (st.raws > max_raws)
			max_raws = st.raws;
	}
	stackdb__stats(db, &st);
	CHECK(same, "every process's stack is the same one");
	CHECK_INT(st.stacks, 4);
	CHECK_INT(st.added, 4);
	CHECK(max_raws <= STACKDB_RAW_MAX, "raw cache at most %u (%u)", STACKDB_RAW_MAX, max_raws);
	CHECK(st.raws_dropped >= 80000 - STACKDB_RAW_MAX, "%llu raw callchains dropped",
	      (unsigned long long)st.raws_dropped);
	stackdb__delete(db);
}

/* memtrack's live allocations hold their stacks; freed ones let them go. */
static void test_memtrack(struct stack_ctx *ctx)
{
	struct stackdb *db = stackdb__new();
	struct memtrack *mt = memtrack__new(0);
	struct memtrack_group *g = NULL;
	struct stackdb_stats st;
	bool ok = true;
	int n;

	memtrack__set_stackdb(mt, db);
	/* 100 leaks among 40000 allocations that are freed at once */
	for (int i = 0; i < 40000; i++) {
		u32 id = add_nth(db, ctx, PID_A, i);
		u64 ptr = 0x1000 + (u64)i * 64;

		ok &= !memtrack__alloc(mt, ptr, 32, i, id, NULL);
		if (i % 400)
			ok &= memtrack__free(mt, ptr, NULL);
	}
	/* an address allocated again before its free was seen: the new stack held */
	ok &= !memtrack__alloc(mt, 0x1000, 32, 1, add_nth(db, ctx, PID_A, 50000), NULL);
	CHECK(ok, "allocations and frees");
	stackdb__stats(db, &st);
	CHECK_INT(st.held, 100);
	CHECK(st.stacks <= 2 * 4096 + 100, "%u stacks kept", st.stacks);
	n = memtrack__groups(mt, 0, 0, false, &g);
	CHECK_INT(n, 100);
	for (int i = 0; i < n; i++) {
		int nr;
		const struct frame *fr = stackdb__frames(db, g[i].stack, &nr);
		/* the leak allocated at time t has the t-th leaf; time 1: the one at 0x1000 again */
		u64 t = g[i].oldest;
		u64 want = text_start + 64 + (t == 1 ? 50000 : t);

		ok &= t == 1 || t % 400 == 0;

		ok &= fr && nr == 2 && fr[0].addr == want;
	}
	CHECK(ok, "every leak's stack is there for the report, its own frames");
	free(g);
	memtrack__delete(mt);
	stackdb__delete(db);
}

static void quiet(const char *msg)
{
	(void)msg; /* "no symbols for ...": the file without symbols is meant */
}

int main(void)
{
	struct stack_ctx *ctx = stack_ctx__new(STACK_USER_ONLY);
	static char zeros[0x11000];
	int fd;

	if (!ctx || find_text()) {
		printf("not ok: no stack context or no text mapping of %s\n", exe);
		return 1;
	}
	map_into(ctx, PID_A, text_start);
	map_into(ctx, PID_B, text_start + DELTA);
	fd = mkstemp(nosym);
	if (fd < 0 || write(fd, zeros, sizeof(zeros)) != (ssize_t)sizeof(zeros)) {
		printf("not ok: no temporary file %s\n", nosym);
		return 1;
	}
	close(fd);
	stack__set_warn(quiet);
	test_dedup(ctx);
	test_nosym(ctx);
	test_exec(ctx);
	test_sweep(ctx);
	test_raw_cache(ctx);
	test_memtrack(ctx);
	stack_ctx__delete(ctx);
	unlink(nosym);
	return ut_done("stackdb");
}
