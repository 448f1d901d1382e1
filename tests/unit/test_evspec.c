// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>

#include "engine/evspec.h"
#include "ut.h"

static struct ev_spec *specs;
static int nr;

static int parse(const char *s)
{
	struct ev_spec_err err;
	int ret;

	evspec__free(specs, nr);
	specs = NULL;
	nr = 0;
	ret = evspec__parse(s, &specs, &nr, &err);
	CHECK(ret == 0, "parse '%s': %d at %d: %s", s, ret, err.pos, err.msg);
	CHECK(err.pos == -1, "pos %d after success", err.pos);
	return ret;
}

/* Expect -EINVAL at byte @pos with @word somewhere in the message. */
static void bad(const char *s, int pos, const char *word)
{
	struct ev_spec *sp = (struct ev_spec *)1;
	struct ev_spec_err err;
	int n = 77, ret;

	ret = evspec__parse(s, &sp, &n, &err);
	CHECK(ret == -EINVAL, "'%s' returned %d", s, ret);
	CHECK(err.pos == pos, "'%s': pos %d, want %d (%s)", s, err.pos, pos, err.msg);
	CHECK(strstr(err.msg, word) != NULL, "'%s': msg '%s' lacks '%s'", s, err.msg, word);
	CHECK(sp == NULL && n == 0, "'%s': outputs not reset", s);
	if (ret == 0)
		evspec__free(sp, n);
}

static void test_simple(void)
{
	if (parse("sched:sched_switch"))
		return;
	CHECK_INT(nr, 1);
	CHECK_STR(specs[0].sys, "sched");
	CHECK_STR(specs[0].name, "sched_switch");
	CHECK(specs[0].filter == NULL, "filter");
	CHECK(specs[0].alias == NULL, "alias");
	CHECK(!specs[0].stack, "stack");
	CHECK_INT(specs[0].max_stack, 0);
	CHECK_INT(specs[0].nr_attrs, 0);
	CHECK(specs[0].attrs == NULL, "attrs");
	CHECK_STR(specs[0].text, "sched:sched_switch");
}

static void test_filter_stack_list(void)
{
	if (parse("sched:sched_switch/prev_state==2/stack/,sched:sched_wakeup"))
		return;
	CHECK_INT(nr, 2);
	CHECK_STR(specs[0].sys, "sched");
	CHECK_STR(specs[0].name, "sched_switch");
	CHECK_STR(specs[0].filter, "prev_state==2");
	CHECK(specs[0].stack, "stack");
	CHECK_INT(specs[0].nr_attrs, 0);
	CHECK_STR(specs[0].text, "sched:sched_switch/prev_state==2/stack/");
	CHECK_STR(specs[1].sys, "sched");
	CHECK_STR(specs[1].name, "sched_wakeup");
	CHECK(specs[1].filter == NULL, "filter");
	CHECK(!specs[1].stack, "stack");
	CHECK_STR(specs[1].text, "sched:sched_wakeup");
}

static void test_quotes_parens(void)
{
	if (parse("sched:sched_switch/prev_comm==\"a,b\" && (next_pid>0)/stack/max-stack=8/"
		  "alias=sw/"))
		return;
	CHECK_INT(nr, 1);
	CHECK_STR(specs[0].filter, "prev_comm==\"a,b\" && (next_pid>0)");
	CHECK(specs[0].stack, "stack");
	CHECK_INT(specs[0].max_stack, 8);
	CHECK_STR(specs[0].alias, "sw");
	CHECK_INT(specs[0].nr_attrs, 0);

	/* '/' inside quotes and parentheses; escaped quote inside a quote */
	if (parse("a:b/x==\"p/q\" || y=='r\\'/,s' || (z/2 > 1)/,c:d"))
		return;
	CHECK_INT(nr, 2);
	CHECK_STR(specs[0].filter, "x==\"p/q\" || y=='r\\'/,s' || (z/2 > 1)");
	CHECK_STR(specs[1].sys, "c");
	CHECK_STR(specs[1].name, "d");

	/* the kernel's CPUS{...} keeps its ',' and '/' (cpulist groups) */
	if (parse("a:b/cpu & CPUS{0-7:2/4,9} || x == 1/stack/,c:d"))
		return;
	CHECK_INT(nr, 2);
	CHECK_STR(specs[0].filter, "cpu & CPUS{0-7:2/4,9} || x == 1");
	CHECK(specs[0].stack, "stack");
	CHECK_STR(specs[1].name, "d");
	/* a brace without its '}' protects nothing (the filter check says so) */
	if (parse("a:b/cpu & CPUS{0-3/,c:d"))
		return;
	CHECK_INT(nr, 2);
	CHECK_STR(specs[0].filter, "cpu & CPUS{0-3");

	/* nested parentheses keep ',' and '/' inside the attribute value */
	if (parse("k:m//key=f(a,(b/c))/,x:y"))
		return;
	CHECK_INT(nr, 2);
	CHECK_STR(evspec__attr(&specs[0], "key"), "f(a,(b/c))");
	CHECK(specs[0].filter == NULL, "filter");

	/* quoted value is kept verbatim, quotes included */
	if (parse("k:m//printkey=printf(\"%d/%s\", a, b)/fmt='x,y'"))
		return;
	CHECK_INT(nr, 1);
	CHECK_STR(evspec__attr(&specs[0], "printkey"), "printf(\"%d/%s\", a, b)");
	CHECK_STR(evspec__attr(&specs[0], "fmt"), "'x,y'");
}

static void test_empty_filter_and_trailing_slash(void)
{
	if (parse("syscalls:sys_enter_read//stack/"))
		return;
	CHECK(specs[0].filter == NULL, "// is no filter");
	CHECK(specs[0].stack, "stack");

	if (parse("syscalls:sys_enter_read//"))
		return;
	CHECK(specs[0].filter == NULL, "filter");
	CHECK_INT(specs[0].nr_attrs, 0);

	if (parse("a:b/  /"))
		return;
	CHECK(specs[0].filter == NULL, "blank filter");

	if (parse("a:b/f/"))
		return;
	CHECK_STR(specs[0].filter, "f");

	/* the trailing '/' after the last attribute is optional */
	if (parse("sys:name/f/stack"))
		return;
	CHECK_STR(specs[0].filter, "f");
	CHECK(specs[0].stack, "stack");
	if (parse("sys:name/f/stack/max-stack=3"))
		return;
	CHECK(specs[0].stack, "stack");
	CHECK_INT(specs[0].max_stack, 3);
}

static void test_globs_and_chars(void)
{
	if (parse("sched:sched_wake*"))
		return;
	CHECK_STR(specs[0].name, "sched_wake*");
	if (parse("s?h*d:[ab]x-y.z_0"))
		return;
	CHECK_STR(specs[0].sys, "s?h*d");
	CHECK_STR(specs[0].name, "[ab]x-y.z_0");
	if (parse("*:*"))
		return;
	CHECK_STR(specs[0].sys, "*");
	CHECK_STR(specs[0].name, "*");
	/* the classes "perf-prof list" takes: [!x] and [^x] */
	if (parse("sched:sched_wak?[!_]*/prio<10/"))
		return;
	CHECK_STR(specs[0].name, "sched_wak?[!_]*");
	CHECK_STR(specs[0].filter, "prio<10");
	if (parse("s[^x]:a[!b-c]"))
		return;
	CHECK_STR(specs[0].sys, "s[^x]");
	CHECK_STR(specs[0].name, "a[!b-c]");
}

static void test_cpus(void)
{
	if (parse("a:b//cpus=0/"))
		return;
	CHECK_STR(specs[0].cpus, "0");
	CHECK_INT(specs[0].nr_attrs, 0);
	/* a ',' inside cpus=LIST does not end the event */
	if (parse("a:b/x==1/cpus=0,2-3/stack/,c:d//cpus=1,e:f"))
		return;
	CHECK_INT(nr, 3);
	CHECK_STR(specs[0].cpus, "0,2-3");
	CHECK(specs[0].stack, "stack after cpus");
	CHECK_STR(specs[1].cpus, "1");
	CHECK_STR(specs[2].sys, "e");
	CHECK(specs[2].cpus == NULL, "no cpus on e:f");
	/* attributes right after the name: no filter has a single '=' */
	if (parse("sched:sched_switch/cpus=0,1/,a:b/stack/alias=x,c:d/cpus=1"))
		return;
	CHECK_INT(nr, 3);
	CHECK(specs[0].filter == NULL, "cpus=0 is no filter");
	CHECK_STR(specs[0].cpus, "0,1");
	CHECK(specs[1].filter == NULL && specs[1].stack, "stack is no filter");
	CHECK_STR(specs[1].alias, "x");
	CHECK_STR(specs[2].cpus, "1");
	if (parse("a:b/cpus==1/,c:d/x=~\"a\"/"))
		return;
	CHECK_STR(specs[0].filter, "cpus==1");
	CHECK_STR(specs[1].filter, "x=~\"a\"");
	bad("a:b//cpus/", 9, "cpus needs a value");
	bad("a:b//cpus=0/cpus=1/", 12, "duplicate attribute 'cpus'");
	bad("a:b//cpus=x/", 10, "invalid character 'x' in cpus");
	bad("a:b//cpus=0,/", 12, "missing ':'");
}

static void test_attrs(void)
{
	if (parse("kmem:kmalloc//key=ptr/size=bytes_alloc/"))
		return;
	CHECK_INT(specs[0].nr_attrs, 2);
	CHECK_STR(specs[0].attrs[0].key, "key");
	CHECK_STR(specs[0].attrs[0].value, "ptr");
	CHECK_STR(specs[0].attrs[1].key, "size");
	CHECK_STR(specs[0].attrs[1].value, "bytes_alloc");
	CHECK_STR(evspec__attr(&specs[0], "size"), "bytes_alloc");
	CHECK(evspec__attr(&specs[0], "nope") == NULL, "absent");
	CHECK(evspec__attr(&specs[0], "stack") == NULL, "known attrs are fields");
	CHECK(evspec__attr(NULL, "key") == NULL, "NULL spec");

	/* the original's top_by= and top_add= are top-by= and top-add= */
	if (parse("a:b//top_by=x/top_add=y/top_byz=1/"))
		return;
	CHECK_INT(specs[0].nr_attrs, 3);
	CHECK_STR(specs[0].attrs[0].key, "top-by");
	CHECK_STR(specs[0].attrs[0].value, "x");
	CHECK_STR(specs[0].attrs[1].key, "top-add");
	CHECK_STR(evspec__attr(&specs[0], "top-add"), "y");
	CHECK_STR(specs[0].attrs[2].key, "top_byz");
	bad("a:b//top-by=x/top_by=y/", 14, "duplicate attribute 'top-by'");
	bad("a:b//top_add=x/top-add=y/", 15, "duplicate attribute 'top-add'");

	/* bare keys; whitespace around keys, values and '=' is trimmed */
	if (parse("a:b//ptr/ untraced / k = v w /stack"))
		return;
	CHECK_INT(specs[0].nr_attrs, 3);
	CHECK_STR(specs[0].attrs[0].key, "ptr");
	CHECK(specs[0].attrs[0].value == NULL, "bare key value");
	CHECK_STR(evspec__attr(&specs[0], "ptr"), "");
	CHECK_STR(specs[0].attrs[1].key, "untraced");
	CHECK_STR(specs[0].attrs[2].key, "k");
	CHECK_STR(specs[0].attrs[2].value, "v w");
	CHECK(specs[0].stack, "stack");

	/* value may contain '=' */
	if (parse("a:b//cond=x==1"))
		return;
	CHECK_STR(evspec__attr(&specs[0], "cond"), "x==1");

	if (parse("a:b//max-stack=1/alias=a.b-c_1,c:d//max-stack=1024/alias=z"))
		return;
	CHECK_INT(specs[0].max_stack, 1);
	CHECK_STR(specs[0].alias, "a.b-c_1");
	CHECK_INT(specs[1].max_stack, 1024);
	CHECK_STR(specs[1].alias, "z");
	CHECK(!specs[0].stack && !specs[1].stack, "max-stack does not imply stack");
}

static void test_whitespace_and_list(void)
{
	/* control characters, tabs and newlines included, are refused wherever they are */
	bad("a:b,\tc:d", 4, "control character 0x09");
	bad("a:b\n", 3, "control character 0x0a");
	bad("a:b/x==1\x7f/", 8, "control character 0x7f");
	bad("a:b//alias=\x01/", 11, "control character 0x01");
	if (parse("  a:b  ,  c:d/x>1/ , e:f//stack/  "))
		return;
	CHECK_INT(nr, 3);
	CHECK_STR(specs[0].text, "a:b");
	CHECK_STR(specs[1].text, "c:d/x>1/");
	CHECK_STR(specs[1].filter, "x>1");
	CHECK_STR(specs[2].text, "e:f//stack/");
	CHECK_STR(specs[2].name, "f");
	CHECK(specs[2].stack, "stack");

	/* same event twice is allowed (different filters) */
	if (parse("a:b/x==1/,a:b/x==2/"))
		return;
	CHECK_INT(nr, 2);
	CHECK_STR(specs[1].filter, "x==2");
}

static void test_errors(void)
{
	/* empty events */
	bad("", 0, "empty event");
	bad("   ", 3, "empty event");
	bad("a:b,", 4, "empty event");
	bad("a:b, ", 5, "empty event");
	bad(",a:b", 0, "empty event");
	bad("a:b,,c:d", 4, "empty event");
	bad("a:b, ,c:d", 5, "empty event");

	/* system and name */
	bad("sched_switch", 0, "missing ':'");
	bad("  sched_switch/a:b/", 2, "missing ':'");
	bad("a:b,cd", 4, "missing ':'");
	bad(":name", 0, "empty system");
	bad("sys:", 4, "empty event name");
	bad("sys:/f/", 4, "empty event name");
	bad("a:b,x:/f/", 6, "empty event name");
	bad("s y:n", 1, "invalid character ' ' in system");
	bad("sys:na me", 6, "invalid character ' ' in event");
	bad("sys:a:b", 5, "invalid character ':' in event");
	bad("sys:a{b}", 5, "invalid character '{'");
	bad("sys:a\x01", 5, "0x01");
	bad("sys:a\"b\"", 5, "invalid character '\"'");
	bad("sys:a(b)", 5, "invalid character '('");
	bad("s$:n", 1, "in system");

	/* quotes and parentheses */
	bad("a:b/x==\"abc/", 7, "unterminated double quote");
	bad("a:b/x=='abc/", 7, "unterminated single quote");
	bad("a:b/x==\"ab\\\"/", 7, "unterminated double quote");
	bad("a:b/x==\"ab\\", 7, "unterminated double quote");
	bad("c:d,a:b/(x==1/", 8, "unbalanced '('");
	bad("a:b/((x==1)/,c:d", 4, "unbalanced '('");
	bad("a:b/x==1)/", 8, "unbalanced ')'");
	bad("a:b//k=(1))/", 10, "unbalanced ')'");
	bad("a:b//k='v/", 7, "unterminated single quote");

	/* filter */
	bad("a:b/x==1", 3, "unterminated filter");
	bad("a:b/", 3, "unterminated filter");
	bad("a:b/x==1,c:d", 3, "unterminated filter");
	bad("c:d , a:b/x==\"1/\"", 9, "unterminated filter");

	/* attributes */
	bad("a:b///", 5, "empty attribute");
	bad("a:b/f//stack/", 6, "empty attribute");
	bad("a:b//stack//", 11, "empty attribute");
	bad("a:b//stack/ /x", 12, "empty attribute");
	bad("a:b//=v/", 5, "missing attribute name");
	bad("a:b// = v/", 6, "missing attribute name");
	bad("a:b//k=/", 6, "empty value");
	bad("a:b//k= /", 6, "empty value");
	bad("a:b//k y=1/", 6, "invalid character ' ' in attribute name");
	bad("a:b//k*=1/", 6, "invalid character '*' in attribute name");
	bad("a:b//stack=1/", 10, "takes no value");
	bad("a:b//stack/stack/", 11, "duplicate attribute 'stack'");
	bad("a:b//k=1/k/", 9, "duplicate attribute 'k'");
	bad("a:b//alias=x/alias=x/", 13, "duplicate attribute 'alias'");
	bad("a:b//max-stack=2/max-stack=2/", 17, "duplicate attribute 'max-stack'");

	/* max-stack */
	bad("a:b//max-stack/", 14, "needs a value");
	bad("a:b//max-stack=0/", 15, "1..1024");
	bad("a:b//max-stack=1025/", 15, "1..1024");
	bad("a:b//max-stack=-1/", 15, "1..1024");
	bad("a:b//max-stack=+8/", 15, "1..1024");
	bad("a:b//max-stack=8x/", 15, "1..1024");
	bad("a:b//max-stack=0x10/", 15, "1..1024");
	bad("a:b//max-stack=99999999999999999999999/", 15, "1..1024");

	/* alias */
	bad("a:b//alias/", 10, "needs a value");
	bad("a:b//alias=a b/", 12, "invalid character ' ' in alias");
	bad("a:b//alias=a/,c:d//alias=a/", 25, "duplicate alias 'a'");
	bad("a:b//alias=a/,c:d,e:f//stack/alias= a", 36, "duplicate alias 'a'");
}

static void test_api_edges(void)
{
	struct ev_spec_err err;
	struct ev_spec *sp = NULL;
	int n = 0;

	CHECK_INT(evspec__parse(NULL, &sp, &n, &err), -EINVAL);
	CHECK(sp == NULL && n == 0, "outputs on NULL input");
	/* err may be NULL */
	CHECK_INT(evspec__parse("bad", &sp, &n, NULL), -EINVAL);
	CHECK_INT(evspec__parse("a:b", &sp, &n, NULL), 0);
	CHECK_INT(n, 1);
	evspec__free(sp, n);
	evspec__free(NULL, 3);
}

static void test_check_attrs(void)
{
	static const char *const allowed[] = { "key", "size", NULL };
	static const char *const none[] = { NULL };
	struct ev_spec_err err;

	if (parse("kmem:kmalloc//key=ptr/size=bytes_alloc/stack/alias=k/max-stack=4,"
		  "kmem:kfree//key=ptr/bogus=1/"))
		return;
	CHECK_INT(evspec__check_attrs(&specs[0], allowed, &err), 0);
	CHECK_INT(err.pos, -1);
	CHECK_INT(evspec__check_attrs(&specs[1], allowed, &err), -EINVAL);
	CHECK(strstr(err.msg, "'bogus'") != NULL, "msg '%s'", err.msg);
	CHECK(strstr(err.msg, "kmem:kfree") != NULL, "msg '%s'", err.msg);
	CHECK_INT(evspec__check_attrs(&specs[0], none, &err), -EINVAL);
	CHECK(strstr(err.msg, "'key'") != NULL, "msg '%s'", err.msg);
	CHECK_INT(evspec__check_attrs(&specs[1], allowed, NULL), -EINVAL);

	if (parse("a:b//stack/alias=q"))
		return;
	/* stack, max-stack and alias are always allowed */
	CHECK_INT(evspec__check_attrs(&specs[0], none, &err), 0);
	CHECK_INT(evspec__check_attrs(&specs[0], NULL, &err), 0);
}

/* A long list: realloc growth and per-event positions far into the input. */
static void test_long_list(void)
{
	char buf[8192];
	size_t off = 0;
	struct ev_spec_err err;
	struct ev_spec *sp;
	int n;

	for (int i = 0; i < 200; i++)
		off += snprintf(buf + off, sizeof(buf) - off, "%ssys%d:ev%d//alias=a%d/",
				i ? "," : "", i, i, i);
	if (parse(buf))
		return;
	CHECK_INT(nr, 200);
	CHECK_STR(specs[199].sys, "sys199");
	CHECK_STR(specs[199].alias, "a199");
	snprintf(buf + off, sizeof(buf) - off, ",x:y/(");
	CHECK_INT(evspec__parse(buf, &sp, &n, &err), -EINVAL);
	CHECK_INT(err.pos, (int)off + 5);
}

/* Joint analysis: PROFILER[/OPTIONS/[ATTR/...]] where the names are given. */
static void test_joint(void)
{
	static const char *const names[] = { "profile", "task-state", NULL };
	struct ev_spec *sp = NULL;
	struct ev_spec_err err;
	int n = 0, ret;

	ret = evspec__parse_joint("task-state,a:b,profile/-F 200 -g/untraced/key=pid/", names, &sp,
				  &n, &err);
	CHECK(ret == 0 && n == 3, "parse: %d %d %s", ret, n, err.msg);
	if (ret)
		return;
	CHECK_STR(sp[0].profiler, "task-state");
	CHECK(!sp[0].options && !sp[0].sys && !sp[0].filter, "bare profiler");
	CHECK(!sp[1].profiler, "a:b is an event");
	CHECK_STR(sp[2].profiler, "profile");
	CHECK_STR(sp[2].options, "-F 200 -g");
	CHECK(!sp[2].filter, "options are no filter");
	CHECK(evspec__attr(&sp[2], "untraced") && !strcmp(evspec__attr(&sp[2], "key"), "pid"),
	      "attributes after the options");
	CHECK_STR(sp[2].text, "profile/-F 200 -g/untraced/key=pid/");
	evspec__free(sp, n);
	/* quotes protect '/' and ',' in the options; "//": none */
	ret = evspec__parse_joint("profile/--flame-graph 'a/b,c'/,profile//", names, &sp, &n, &err);
	CHECK(ret == 0 && n == 2, "quoted: %d %d %s", ret, n, err.msg);
	if (!ret) {
		CHECK_STR(sp[0].options, "--flame-graph 'a/b,c'");
		CHECK(!sp[1].options, "empty options");
		evspec__free(sp, n);
	}
	ret = evspec__parse_joint("profile/-F 99", names, &sp, &n, &err);
	CHECK(ret == -EINVAL && strstr(err.msg, "unterminated options") && err.pos == 7,
	      "unterminated: %d %d %s", ret, err.pos, err.msg);
	/* not a name given: as before */
	ret = evspec__parse_joint("top/-F 99/", names, &sp, &n, &err);
	CHECK(ret == -EINVAL && strstr(err.msg, "missing ':'"), "unknown: %s", err.msg);
	bad("profile/-F 99/", 0, "missing ':'");
}

int main(void)
{
	test_simple();
	test_filter_stack_list();
	test_quotes_parens();
	test_empty_filter_and_trailing_slash();
	test_globs_and_chars();
	test_attrs();
	test_cpus();
	test_whitespace_and_list();
	test_errors();
	test_api_edges();
	test_check_attrs();
	test_long_list();
	test_joint();
	evspec__free(specs, nr);
	return ut_done("evspec");
}
