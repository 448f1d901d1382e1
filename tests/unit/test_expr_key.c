// SPDX-License-Identifier: GPL-2.0
/*
 * `key` in top's printkey= (EXPR_KEY): the key of the row printed, a
 * number or (EXPR_KEY_STR) a string, read from ctx->key; without the flag
 * it is an unknown name as before; with no key given it reads as a fault.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr.h"
#include "expr_formats.h"
#include "ut.h"

static struct evsel evs[NR_EV_FORMATS];

/* Compile @text with @flags on sched_switch, evaluate with @key; what printf() wrote in @out. */
static struct expr *run(const char *text, unsigned flags, const struct expr_value *key,
			struct expr_value *v, int *faults, char *out, size_t outlen)
{
	struct expr_error err;
	struct expr *e = expr__compile_ex(text, &evs[EV_SCHED_SWITCH], flags, &err);
	struct expr_ctx ctx = { .key = key };
	char *buf = NULL;
	size_t len = 0;

	memset(v, 0, sizeof(*v));
	*faults = -1;
	out[0] = 0;
	if (!e) {
		printf("# compile '%s': %s (col %d)\n", text, err.msg, err.col);
		return NULL;
	}
	ctx.out = open_memstream(&buf, &len);
	*faults = expr__eval(e, &ctx, v);
	fclose(ctx.out);
	snprintf(out, outlen, "%s", buf ? buf : "");
	free(buf);
	return e;
}

static void test_int_key(void)
{
	struct expr_value key = { .kind = EXPR_INT, .is_signed = true, .u = (3ull << 32) | 42 }, v;
	struct expr *e;
	char out[128];
	int f;

	/* the original's example: key=(_cpu<<32)|vec/printkey=printf("%03d %d", key>>32, (int)key) */
	e = run("printf(\"  %03d      %d\", key>>32, (int)key)", EXPR_KEY, &key, &v, &f, out,
		sizeof(out));
	CHECK(e && !f && !strcmp(out, "  003      42") && v.u == strlen(out), "printed '%s' (%d)",
	      out, f);
	expr__free(e);
	e = run("key", EXPR_KEY, &key, &v, &f, out, sizeof(out));
	CHECK(e && !f && v.kind == EXPR_INT && v.u == key.u, "key = %llx", (unsigned long long)v.u);
	expr__free(e);
	e = run("printf(\"%lx\", key)", EXPR_KEY, &key, &v, &f, out, sizeof(out));
	CHECK(e && !strcmp(out, "30000002a"), "printed '%s'", out);
	expr__free(e);
	/* a number key is a name like _cpu: assigned, it reads its new value */
	e = run("key = key + 1, key", EXPR_KEY, &key, &v, &f, out, sizeof(out));
	CHECK(e && !f && v.u == key.u + 1, "key + 1 = %llx", (unsigned long long)v.u);
	expr__free(e);
	/* with the event's fields too */
	e = run("key - prev_pid", EXPR_KEY, &key, &v, &f, out, sizeof(out));
	CHECK(e != NULL, "key with a field");
	expr__free(e);
	/* no key given: 0, counted as a bad read */
	e = run("key", EXPR_KEY, NULL, &v, &f, out, sizeof(out));
	CHECK(e && f == 1 && v.u == 0, "no key: %llu, %d faults", (unsigned long long)v.u, f);
	expr__free(e);
	/* a string where a number was compiled: a fault, not a crash */
	{
		struct expr_value s = { .kind = EXPR_STR, .str = "x", .len = 1 };

		e = run("key", EXPR_KEY, &s, &v, &f, out, sizeof(out));
		CHECK(e && f == 1 && v.u == 0, "string for a number key: %d faults", f);
		expr__free(e);
	}
}

static void test_str_key(void)
{
	static const char name[11] = { 'k', 'w', 'o', 'r', 'k', 'e', 'r', '/', '0', ':', '1' };
	struct expr_value key = { .kind = EXPR_STR, .str = name, .len = sizeof(name) }, v;
	struct expr_error err;
	struct expr *e;
	char out[128];
	int f;

	e = run("printf(\"[%s]\", key)", EXPR_KEY | EXPR_KEY_STR, &key, &v, &f, out, sizeof(out));
	CHECK(e && !f && !strcmp(out, "[kworker/0:1]"), "printed '%s'", out);
	expr__free(e);
	e = run("key", EXPR_KEY | EXPR_KEY_STR, &key, &v, &f, out, sizeof(out));
	CHECK(e && !f && v.kind == EXPR_STR && v.len == 11 && !memcmp(v.str, name, 11),
	      "key as a string");
	expr__free(e);
	e = run("(key ~ \"kworker/*\") + key[1] + *key", EXPR_KEY | EXPR_KEY_STR, &key, &v, &f, out,
		sizeof(out));
	CHECK(e && !f && v.u == 1 + 'w' + 'k', "glob, subscript, deref: %llu (%d faults)",
	      (unsigned long long)v.u, f);
	expr__free(e);
	/* its bytes end at its length: key[11] is past it */
	e = run("key[11]", EXPR_KEY | EXPR_KEY_STR, &key, &v, &f, out, sizeof(out));
	CHECK(e && v.u == 0, "key[11] = %llu", (unsigned long long)v.u);
	expr__free(e);
	e = expr__compile_ex("key = 1", &evs[EV_SCHED_SWITCH], EXPR_KEY | EXPR_KEY_STR, &err);
	CHECK(!e && err.col == 0 && strstr(err.msg, "string"), "key = 1 on a string key: %s",
	      e ? "compiled" : err.msg);
	expr__free(e);
	/* a number key given where a string was compiled: "", a fault */
	{
		struct expr_value n = { .kind = EXPR_INT, .u = 5 };

		e = run("key", EXPR_KEY | EXPR_KEY_STR, &n, &v, &f, out, sizeof(out));
		CHECK(e && f == 1 && v.kind == EXPR_STR && v.len == 0, "number for a string key");
		expr__free(e);
	}
}

static void test_no_flag(void)
{
	struct expr_error err;
	struct expr *e = expr__compile_ex("printf(\"%d\", key)", &evs[EV_SCHED_SWITCH], 0, &err);

	/* only printkey= knows a key: elsewhere `key` is an unknown field as before */
	CHECK(!e && err.col == 13 && strstr(err.msg, "unknown field 'key'"), "%s (col %d)",
	      e ? "compiled" : err.msg, e ? 0 : err.col);
	expr__free(e);
}

int main(void)
{
	struct tep_handle *tep = tep_alloc();

	CHECK(tep && expr_formats__load(tep, evs) == 0, "formats");
	if (ut_fail)
		return ut_done("test_expr_key");
	test_int_key();
	test_str_key();
	test_no_flag();
	tep_free(tep);
	return ut_done("test_expr_key");
}
