// SPDX-License-Identifier: GPL-2.0
/*
 * kmemprof on an injected session (--json): a free of an address never
 * allocated since the start counts in older_frees; an address allocated
 * again before its free was seen counts in the summary's replaced (and is
 * one live allocation, its later free a tracked free); untracked and
 * untracked_frees stay 0 below memtrack's cap.
 */
#include <stdlib.h>
#include <string.h>

#include "fmt_common.h"
#include "synth_run.h"
#include "ut.h"

#define MS 1000000ULL
#define T0 (5000 * MS)

#define HEAD(name, id)                                                      \
	"name: " name "\n"                                                  \
	"ID: " id "\n"                                                      \
	"format:\n" FMT_COMMON_FIELDS                                       \
	"\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n" \
	"\tfield:const void * ptr;\toffset:16;\tsize:8;\tsigned:0;\n"

static const struct synth_fmt fmts[] = {
	{ "kmem", HEAD("kmalloc", "9101") "\tfield:size_t bytes_alloc;\toffset:24;\tsize:8;"
					  "\tsigned:0;\n"
					  "\n"
					  "print fmt: \"ptr=%p\", REC->ptr\n" },
	{ "kmem", HEAD("kfree", "9102") "\n"
					"print fmt: \"ptr=%p\", REC->ptr\n" },
	{ NULL, NULL }
};

static u64 t = T0;

static void ev(struct synth_run *r, const char *name, u64 ptr, u64 bytes)
{
	struct evsel *e = synth_run__evsel(r, name);
	unsigned char raw[32] = { 0 };

	if (!e)
		return;
	synth__field_u64(e, raw, "common_pid", 100);
	synth__field_u64(e, raw, "ptr", ptr);
	if (bytes)
		synth__field_u64(e, raw, "bytes_alloc", bytes);
	t += MS;
	synth_run__tp(r, e, 100, 100, 0, t, raw, sizeof(raw));
}

/* The number after "\"@key\":" in @out's first line holding @type, or -1. */
static long long member(const char *out, const char *type, const char *key)
{
	char k[64];
	const char *line = strstr(out, type), *end, *p;

	if (!line)
		return -1;
	end = strchr(line, '\n');
	snprintf(k, sizeof(k), "\"%s\":", key);
	p = strstr(line, k);
	if (!p || (end && p > end))
		return -1;
	return strtoll(p + strlen(k), NULL, 10);
}

int main(void)
{
	struct synth_run r;
	const char *out;

	CHECK(!synth_run__start(&r, "kmemprof", "-e kmem:kmalloc -e kmem:kfree --json",
				&(struct synth_run_opts){ .fmts = fmts }),
	      "%s", synth_run__err(&r));
	if (!r.s)
		return ut_done("kmemprof");
	ev(&r, "kfree", 0x9000, 0); /* allocated before the start */
	ev(&r, "kmalloc", 0x1000, 64);
	ev(&r, "kmalloc", 0x2000, 32);
	ev(&r, "kmalloc", 0x1000, 128); /* again, its free not seen */
	ev(&r, "kfree", 0x1000, 0);
	out = synth_run__finish(&r);
	CHECK(out && *out, "kmemprof printed");
	if (out) {
		CHECK_INT(member(out, "\"type\":\"interval\"", "allocated_objects"), 3);
		CHECK_INT(member(out, "\"type\":\"interval\"", "allocated_bytes"), 224);
		CHECK_INT(member(out, "\"type\":\"interval\"", "freed_objects"), 1);
		CHECK_INT(member(out, "\"type\":\"interval\"", "freed_bytes"), 128);
		CHECK_INT(member(out, "\"type\":\"interval\"", "older_frees"), 1);
		CHECK_INT(member(out, "\"type\":\"interval\"", "untracked_frees"), 0);
		CHECK_INT(member(out, "\"type\":\"summary\"", "replaced"), 1);
		CHECK_INT(member(out, "\"type\":\"summary\"", "untracked"), 0);
		if (ut_fail)
			printf("# %s\n", out);
	}
	synth_run__cleanup(&r);
	return ut_done("kmemprof");
}
