// SPDX-License-Identifier: GPL-2.0
/*
 * The call tree of nested calls: nesting per key, paths as nodes, an outer
 * return that drops the calls above it, returns without entries, keys
 * forgotten and lost records, and the printed tree (children under their
 * parent, largest total first), also as --json rows.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency/calltree.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "ut.h"

static int freed;

static void count_free(void *data)
{
	freed++;
	free(data);
}

static char *print_end(struct calltree *t, bool end)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct rt_text tx;

	calltree__print(t, fp);
	calltree__emit_drops(t, rt_text__init(&tx, fp), "t", end);
	fclose(fp);
	return buf;
}

static char *print(struct calltree *t)
{
	return print_end(t, false);
}

int main(void)
{
	const char *const names[] = { "A", "B", "C", NULL };
	struct calltree *t = calltree__new(names, count_free);
	struct calltree_ret r;
	void **d;
	char *out;

	CHECK(t != NULL, "new");
	/* key 1: A(0..100) { B(10..30), B(40..50) { C(41..45) } } */
	calltree__entry(t, 1, 0, 0);
	calltree__entry(t, 1, 1, 10);
	/* key 2 interleaves: B(15..16), not nested in key 1's A */
	calltree__entry(t, 2, 1, 15);
	CHECK(calltree__exit(t, 2, 1, 16, &r) && r.depth == 0 && r.delta == 1,
	      "key 2's B at depth 0");
	CHECK(calltree__exit(t, 1, 1, 30, &r) && r.depth == 1 && r.delta == 20, "B in A");
	calltree__entry(t, 1, 1, 40);
	calltree__entry(t, 1, 2, 41);
	CHECK(calltree__exit(t, 1, 2, 45, &r) && r.depth == 2 && r.func == 2 && r.delta == 4,
	      "C in B in A");
	CHECK(calltree__exit(t, 1, 1, 50, &r) && r.delta == 10, "second B");
	CHECK(calltree__exit(t, 1, 0, 100, &r) && r.depth == 0 && r.delta == 100, "A");
	CHECK(!calltree__exit(t, 1, 0, 110, &r), "a return without its entry");
	/* an outer return drops the inner call that never returned (and its data) */
	calltree__entry(t, 3, 0, 200);
	d = calltree__entry(t, 3, 1, 210);
	*d = malloc(8);
	CHECK(calltree__exit(t, 3, 0, 300, &r) && r.delta == 100, "A returns over B");
	CHECK(freed == 1, "the dropped call's data is freed");
	/* forget and lost */
	d = calltree__entry(t, 4, 0, 400);
	*d = malloc(8);
	calltree__forget(t, 4);
	CHECK(freed == 2 && !calltree__exit(t, 4, 0, 410, &r), "forgotten key");
	calltree__entry(t, 5, 0, 500);
	calltree__lost(t);
	CHECK(!calltree__exit(t, 5, 0, 510, &r), "open calls gone after a loss");
	out = print(t);
	CHECK(out && strstr(out, "\nA   ") && strstr(out, "\n  B   ") &&
		      strstr(out, "\n    C   ") && strstr(out, "\nB   "),
	      "tree: %s", out ? out : "");
	/* A: 2 calls (100 + 100); under A, B: 2 calls; top-level B (key 2): 1 call */
	CHECK(out && strstr(out, "\nA                          2 ") &&
		      strstr(out, "\n  B                        2 ") &&
		      strstr(out, "\nB                          1 "),
	      "counts: %s", out ? out : "");
	CHECK(out && strstr(out, "A") < strstr(out, "\nB   "),
	      "A (200ns) before top-level B (1ns)");
	CHECK(out && strstr(out, "t: 1 calls dropped: an outer call returned first") &&
		      strstr(out, "t: 3 returns without their entry") &&
		      strstr(out, "t: 1 open calls dropped after lost events") &&
		      strstr(out, "t: 1 open calls dropped: their task exited"),
	      "drops: %s", out ? out : "");
	free(out);
	/* --json: the same rows, depth first, with their paths; the drops in one record */
	{
		struct stats_stamp st = { .scope = "run", .time_ns = 5, .interval_ns = 6 };
		struct rt_json js;
		size_t len = 0;
		FILE *fp;

		out = NULL;
		fp = open_memstream(&out, &len);
		calltree__emit(t, rt_json__init(&js, fp, &st));
		calltree__emit_drops(t, rt_json__init(&js, fp, &st), "t", false);
		fclose(fp);
		CHECK_STR(
			out,
			"{\"type\":\"row\",\"scope\":\"run\",\"time_ns\":5,\"interval_ns\":6,"
			"\"func\":\"A\",\"depth\":0,\"path\":[\"A\"],\"count\":2,\"total_ns\":200,"
			"\"min_ns\":100,\"avg_ns\":100,\"p50_ns\":100,\"p95_ns\":100,\"p99_ns\":"
			"100,"
			"\"max_ns\":100}\n"
			"{\"type\":\"row\",\"scope\":\"run\",\"time_ns\":5,\"interval_ns\":6,"
			"\"func\":\"B\",\"depth\":1,\"path\":[\"A\",\"B\"],\"count\":2,"
			"\"total_ns\":30,\"min_ns\":10,\"avg_ns\":15,\"p50_ns\":10,\"p95_ns\":20,"
			"\"p99_ns\":20,\"max_ns\":20}\n"
			"{\"type\":\"row\",\"scope\":\"run\",\"time_ns\":5,\"interval_ns\":6,"
			"\"func\":\"C\",\"depth\":2,\"path\":[\"A\",\"B\",\"C\"],\"count\":1,"
			"\"total_ns\":4,\"min_ns\":4,\"avg_ns\":4,\"p50_ns\":4,\"p95_ns\":4,"
			"\"p99_ns\":4,\"max_ns\":4}\n"
			"{\"type\":\"row\",\"scope\":\"run\",\"time_ns\":5,\"interval_ns\":6,"
			"\"func\":\"B\",\"depth\":0,\"path\":[\"B\"],\"count\":1,\"total_ns\":1,"
			"\"min_ns\":1,\"avg_ns\":1,\"p50_ns\":1,\"p95_ns\":1,\"p99_ns\":1,"
			"\"max_ns\":1}\n"
			"{\"type\":\"dropped\",\"scope\":\"run\",\"time_ns\":5,\"interval_ns\":6,"
			"\"what\":\"calls\",\"unwound\":1,\"orphan_exits\":3,\"lost\":1,\"exited\":"
			"1,"
			"\"too_deep\":0,\"nomem\":0}\n");
		free(out);
	}
	calltree__reset(t);
	out = print(t);
	CHECK(out && !strstr(out, "\nA "), "reset empties the rows: %s", out ? out : "");
	free(out);
	/* calls still open at the end: said in the last table only */
	calltree__entry(t, 6, 0, 600);
	calltree__entry(t, 6, 1, 610);
	calltree__entry(t, 7, 2, 620);
	CHECK(calltree__nr_open(t) == 3, "3 calls open");
	out = print(t);
	CHECK(out && !strstr(out, "still open"), "not in an interval's table: %s", out ? out : "");
	free(out);
	out = print_end(t, true);
	CHECK(out && strstr(out, "t: 3 calls still open at the end (no exit seen)\n"),
	      "at the end: %s", out ? out : "");
	free(out);
	{
		struct stats_stamp st = { .scope = "run", .time_ns = 5, .interval_ns = 6 };
		struct rt_json js;
		size_t len = 0;
		FILE *fp;

		out = NULL;
		fp = open_memstream(&out, &len);
		calltree__emit_drops(t, rt_json__init(&js, fp, &st), "t", true);
		fclose(fp);
		CHECK(out && strstr(out, ",\"nomem\":0,\"open\":3}\n"), "--json at the end: %s",
		      out ? out : "");
		free(out);
	}
	calltree__delete(t);

	/* --perins: a tree per key, keys in order, the key first on each row */
	t = calltree__new(names, NULL);
	CHECK(t != NULL, "new (perins)");
	calltree__set_perins(t, "CPU");
	calltree__entry(t, 9, 0, 0);
	calltree__entry(t, 9, 1, 5);
	calltree__entry(t, 3, 0, 2);
	CHECK(calltree__oldest_open(t, 100) == 0, "the oldest open call: key 9's A at 0");
	CHECK(calltree__exit(t, 9, 1, 7, &r) && r.depth == 1, "key 9's B in its A");
	CHECK(calltree__exit(t, 9, 0, 10, &r) && r.delta == 10, "key 9's A");
	CHECK(calltree__oldest_open(t, 100) == 2, "then key 3's A at 2");
	CHECK(calltree__exit(t, 3, 0, 32, &r) && r.delta == 30, "key 3's A");
	CHECK(calltree__oldest_open(t, 100) == 100, "none open: now");
	out = print(t);
	CHECK(out && !strncmp(out, "CPU ", 4), "the key column's title: %s", out ? out : "");
	CHECK(out && strstr(out, "\n3      A ") && strstr(out, "\n9      A ") &&
		      strstr(out, "\n9        B ") &&
		      strstr(out, "\n3      A ") < strstr(out, "\n9      A "),
	      "key 3's tree, then key 9's with B under A: %s", out ? out : "");
	CHECK(out && !strstr(out, "\n3        B "), "key 3 has no B: %s", out ? out : "");
	free(out);
	{
		struct stats_stamp st = { .scope = "run", .time_ns = 5, .interval_ns = 6 };
		struct rt_json js;
		size_t len = 0;
		FILE *fp;

		out = NULL;
		fp = open_memstream(&out, &len);
		calltree__emit(t, rt_json__init(&js, fp, &st));
		fclose(fp);
		CHECK(out && strstr(out,
				    "\"key\":9,\"func\":\"B\",\"depth\":1,\"path\":[\"A\",\"B\"],"
				    "\"count\":1,\"total_ns\":2,"),
		      "--json: the row's key: %s", out ? out : "");
		free(out);
	}
	calltree__delete(t);

	/* a recursion deeper than CALLTREE_DEPTH: the calls not kept return first */
	t = calltree__new(names, NULL);
	CHECK(t != NULL, "new (deep)");
	for (int i = 0; i < CALLTREE_DEPTH + 5; i++)
		calltree__entry(t, 1, 0, (uint64_t)i); /* A at 0, 1, 2, ... */
	for (int i = 0; i < 5; i++)
		CHECK(!calltree__exit(t, 1, 0, 100 + (uint64_t)i, &r), "exit %d: a call not kept",
		      i);
	CHECK(calltree__exit(t, 1, 0, 200, &r) && r.depth == CALLTREE_DEPTH - 1 &&
		      r.delta == 200 - (CALLTREE_DEPTH - 1),
	      "the innermost kept A: depth %d, %" PRIu64 " ns", r.depth, r.delta);
	for (int i = CALLTREE_DEPTH - 2; i > 0; i--)
		calltree__exit(t, 1, 0, 300, &r);
	CHECK(calltree__exit(t, 1, 0, 1000, &r) && r.depth == 0 && r.delta == 1000,
	      "the outermost A: from 0 to 1000 (%" PRIu64 ")", r.delta);
	calltree__delete(t);

	/*
	 * a call not kept whose exit is never seen (B past the depth): the
	 * next exit of another function is not taken for it; when a kept
	 * frame returns, the calls above it, those not kept too, are unwound
	 */
	t = calltree__new(names, NULL);
	for (int i = 0; i < CALLTREE_DEPTH; i++)
		calltree__entry(t, 2, 0, (uint64_t)i);
	calltree__entry(t, 2, 1, 500); /* B: not kept */
	CHECK(calltree__exit(t, 2, 0, 600, &r) && r.depth == CALLTREE_DEPTH - 1 &&
		      r.delta == 600 - (CALLTREE_DEPTH - 1),
	      "A's exit is A's, not B's: depth %d", r.depth);
	CHECK(calltree__exit(t, 2, 1, 700, &r) == false, "B's late exit: its frame unwound");
	calltree__delete(t);

	/* --perins over hours of threads: a reset drops the keys idle in the interval */
	t = calltree__new(names, NULL);
	CHECK(t != NULL, "new (perins, keys)");
	calltree__set_perins(t, "TID");
	for (uint64_t key = 1000; key < 11000; key++) { /* 10000 threads, one call each */
		calltree__entry(t, key, 0, key);
		calltree__exit(t, key, 0, key + 5, &r);
	}
	calltree__entry(t, 7, 0, 20000); /* key 7: a call open across the reset */
	CHECK_INT(calltree__nr_keys(t), 10001);
	calltree__reset(t); /* the interval had their calls: kept */
	CHECK_INT(calltree__nr_keys(t), 10001);
	calltree__entry(t, 1000, 0, 30000); /* key 1000: a call in the next interval */
	calltree__exit(t, 1000, 0, 30010, &r);
	calltree__reset(t);
	CHECK_INT(calltree__nr_keys(t), 2); /* 1000 (a call), 7 (open) */
	CHECK(calltree__exit(t, 7, 0, 40000, &r) && r.delta == 20000, "key 7's call ends");
	out = print(t);
	CHECK(out && strstr(out, "\n7      A ") && !strstr(out, "\n1000   A ") &&
		      !strstr(out, "\n1001 "),
	      "key 7's call, in its kept tree; key 1000's reset: %s", out ? out : "");
	free(out);
	calltree__reset(t);
	calltree__reset(t);
	CHECK_INT(calltree__nr_keys(t), 0);
	calltree__entry(t, 1001, 0, 50000); /* a key again: a new tree */
	CHECK(calltree__exit(t, 1001, 0, 50003, &r) && r.delta == 3, "key 1001 again");
	CHECK_INT(calltree__nr_keys(t), 1);
	calltree__delete(t);
	return ut_done("test_calltree");
}
