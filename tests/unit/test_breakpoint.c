// SPDX-License-Identifier: GPL-2.0
/*
 * breakpoint on an injected session: the ADDR[/LEN][:rwx] syntax (good
 * and bad, with the messages), the attributes each breakpoint gets, the
 * symbols of this very process resolved to the addresses they have here
 * (-p self) and to those a command will have (-- self, placed before it
 * runs), thread-local, IFUNC and unknown symbols refused, kernel symbols
 * read from kallsyms text, /proc/PID/maps text parsed (lines of any
 * length, the lowest offset of each file), and hits on synthesized
 * samples printed with the breakpoint's symbol, the ip's function and,
 * with -g, the stack; the end-of-run counts and the "no hit" line.
 * (Hosts whose hardware breakpoints never fire test this logic here only.)
 */
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>

#include "sym/symaddr.h"
#include "synth_run.h"
#include "ut.h"

/* ASan pads globals: their symbols' sizes grow */
#if defined(__SANITIZE_ADDRESS__)
#define UT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UT_ASAN 1
#endif
#endif

/* what the breakpoints watch: symbols of this binary */
int bp_ut_var;
long bp_ut_long;
long bp_ut_arr[4];
__thread int bp_ut_tls;

__attribute__((noinline)) int bp_ut_func(int x)
{
	bp_ut_var += x;
	return bp_ut_var;
}

static const struct profiler *prof(void)
{
	for (int i = 0; i < nr_profilers; i++)
		if (!strcmp(profilers[i]->name, "breakpoint"))
			return profilers[i];
	return NULL;
}

/* The args hook alone: 0, or -1 with the message in @err. */
static int parse(const char *args, char *err, size_t len)
{
	const struct profiler *p = prof();
	char *copy = strdup(args), *argv[32], *save = NULL;
	void *priv = calloc(1, p->priv_size);
	int argc = 0, ret;

	for (char *t = strtok_r(copy, " ", &save); t && argc < 31; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	err[0] = '\0';
	ret = p->args(priv, argc, argv, err, len);
	free(priv);
	free(copy);
	return ret;
}

/* Options and arguments as on the command line ("PID" becomes our pid); init's result kept. */
static int start(struct synth_run *r, const char *args)
{
	char line[4400];
	size_t n = 0;

	for (const char *a = args; *a && n + 16 < sizeof(line);) {
		if (!strncmp(a, "PID", 3) && (a == args || a[-1] == ' ') &&
		    (!a[3] || a[3] == ' ')) {
			n += snprintf(line + n, sizeof(line) - n, "%d", (int)getpid());
			a += 3;
		} else {
			line[n++] = *a++;
		}
	}
	line[n] = '\0';
	return synth_run__start(r, "breakpoint", line,
				&(struct synth_run_opts){ .init_may_fail = true });
}

static struct evsel *nth(struct synth_run *r, int n)
{
	struct evsel *ev = session__evsels(r->s);

	while (ev && n--)
		ev = ev->next;
	return ev;
}

static void hit(struct synth_run *r, struct evsel *ev, u64 t, u64 ip, const u64 *ips, u64 nr)
{
	struct synth_sample w = { .pid = (u32)getpid(),
				  .tid = (u32)getpid(),
				  .cpu = 1,
				  .time = t,
				  .ip = ip,
				  .ips = ips,
				  .nr_ips = nr };

	session__inject(r->s, synth__sample(&r->b, ev, &w), 1);
}

static void test_syntax(void)
{
	char err[512];

	CHECK(!parse("0x1000/8:w", err, sizeof(err)), "%s", err);
	CHECK(!parse("counter counter+8/2:rw ffffffff81000000:x 0x10:wr", err, sizeof(err)), "%s",
	      err);
	CHECK(parse("", err, sizeof(err)) && strstr(err, "no breakpoint: give ADDR[/LEN][:rwx]"),
	      "%s", err);
	CHECK(parse("0x1000/3:w", err, sizeof(err)) &&
		      strstr(err, "bad length '3' in '0x1000/3:w': 1, 2, 4 or 8 bytes"),
	      "%s", err);
	CHECK(parse("0x1000/:w", err, sizeof(err)) && strstr(err, "bad length ''"), "%s", err);
	CHECK(parse("x/16", err, sizeof(err)) && strstr(err, "bad length '16'"), "%s", err);
	CHECK(parse("var:q", err, sizeof(err)) && strstr(err, "bad type 'q' in 'var:q'"), "%s",
	      err);
	CHECK(parse("var:ww", err, sizeof(err)) && strstr(err, "bad type 'ww'"), "%s", err);
	CHECK(parse("var:", err, sizeof(err)) && strstr(err, "no type after ':'"), "%s", err);
	CHECK(parse("var:wx", err, sizeof(err)) && strstr(err, "x goes alone"), "%s", err);
	CHECK(parse("var:r", err, sizeof(err)) && strstr(err, "cannot watch reads alone: use :rw"),
	      "%s", err);
	CHECK(parse("f/4:x", err, sizeof(err)) && strstr(err, "an execute breakpoint covers one"),
	      "%s", err);
	CHECK(!parse("f/8:x", err, sizeof(err)), "%s", err);
	CHECK(parse("/4:w", err, sizeof(err)) && strstr(err, "no address in '/4:w'"), "%s", err);
	CHECK(parse("12ab", err, sizeof(err)) && strstr(err, "a hex address starts with 0x"), "%s",
	      err);
	CHECK(parse("0xzz", err, sizeof(err)) && strstr(err, "bad address '0xzz'"), "%s", err);
	CHECK(parse("a-b", err, sizeof(err)) && strstr(err, "bad address 'a-b'"), "%s", err);
	CHECK(parse("var+q", err, sizeof(err)) && strstr(err, "bad offset 'q' in 'var+q'"), "%s",
	      err);
	CHECK(parse("a b c d e", err, sizeof(err)) &&
		      strstr(err, "5 breakpoints: this CPU has 4 debug registers, so at most 4"),
	      "%s", err);
}

/* bp_addr, bp_len, bp_type of the @n-th event */
static bool attrs(struct synth_run *r, int n, u64 addr, u64 len, u32 type)
{
	struct evsel *ev = nth(r, n);

	if (!ev)
		return false;
	if (ev->attr.type != PERF_TYPE_BREAKPOINT || ev->attr.bp_addr != addr ||
	    ev->attr.bp_len != len || ev->attr.bp_type != type) {
		printf("# event %d: type %u addr 0x%llx len %llu bp_type %u\n", n, ev->attr.type,
		       (unsigned long long)ev->attr.bp_addr, (unsigned long long)ev->attr.bp_len,
		       ev->attr.bp_type);
		return false;
	}
	return true;
}

static void test_resolve(void)
{
	struct synth_run r;
	char err[2048];

	/* numbers: the default length is 4, or less where the address is not aligned */
	CHECK(!start(&r, "0x1000 0x1002:w 0x1008/8:w 0x2001/1:rw") && !r.init_err, "%s",
	      session__strerror(r.s) ?: "");
	CHECK(attrs(&r, 0, 0x1000, 4, HW_BREAKPOINT_RW), "0x1000: 4 bytes, rw");
	CHECK(attrs(&r, 1, 0x1002, 2, HW_BREAKPOINT_W), "0x1002: 2 bytes");
	CHECK(attrs(&r, 2, 0x1008, 8, HW_BREAKPOINT_W), "0x1008/8");
	CHECK(attrs(&r, 3, 0x2001, 1, HW_BREAKPOINT_RW), "0x2001/1");
	CHECK_STR(nth(&r, 2)->name, "0x1008/8:w");
	synth_run__finish_stderr(&r, err, sizeof(err));
	synth_run__cleanup(&r);

	CHECK(!start(&r, "0x1002/4:w") && r.init_err && session__err_is_usage(r.s) &&
		      strstr(session__strerror(r.s),
			     "'0x1002/4:w': 0x1002 is not aligned to 4 bytes"),
	      "%s", session__strerror(r.s) ?: "");
	synth_run__finish_stderr(&r, err, sizeof(err));
	synth_run__cleanup(&r);

	/* symbols of this process, at their addresses here; the default type and length */
	CHECK(!start(&r, "-p PID bp_ut_var bp_ut_func bp_ut_arr+8:w bp_ut_long:w") && !r.init_err,
	      "%s", session__strerror(r.s) ?: "");
#ifndef UT_ASAN
	CHECK(attrs(&r, 0, (u64)&bp_ut_var, 4, HW_BREAKPOINT_RW), "an int: 4 bytes, rw");
#endif
	CHECK(attrs(&r, 1, (u64)bp_ut_func, sizeof(long), HW_BREAKPOINT_X), "a function: execute");
	CHECK(attrs(&r, 2, (u64)&bp_ut_arr[1], 8, HW_BREAKPOINT_W), "SYMBOL+OFF of an array");
	CHECK(attrs(&r, 3, (u64)&bp_ut_long, 8, HW_BREAKPOINT_W), "a long: 8 bytes");
	synth_run__finish_stderr(&r, err, sizeof(err));
	synth_run__cleanup(&r);

	CHECK(!start(&r, "-p PID bp_ut_tls:w") && r.init_err && session__err_is_usage(r.s) &&
		      strstr(session__strerror(r.s), "bp_ut_tls is thread-local"),
	      "%s", session__strerror(r.s) ?: "");
	synth_run__finish_stderr(&r, err, sizeof(err));
	synth_run__cleanup(&r);

	CHECK(!start(&r, "-p PID bp_ut_nonesuch:w") && r.init_err && session__err_is_usage(r.s) &&
		      strstr(session__strerror(r.s),
			     "'bp_ut_nonesuch:w': unknown symbol: neither in the files the "
			     "target maps nor in /proc/kallsyms"),
	      "%s", session__strerror(r.s) ?: "");
	synth_run__finish_stderr(&r, err, sizeof(err));
	synth_run__cleanup(&r);

	CHECK(!start(&r, "bp_ut_var:w") && r.init_err && session__err_is_usage(r.s) &&
		      strstr(session__strerror(r.s), "needs -p PID or -- COMMAND"),
	      "no target: a program's symbol is refused: %s", session__strerror(r.s) ?: "");
	synth_run__finish_stderr(&r, err, sizeof(err));
	synth_run__cleanup(&r);

	/*
	 * An IFUNC of libc (one ASan does not intercept): its symbol is the
	 * resolver, never run again: refused, not watched in vain.
	 */
	CHECK(!start(&r, "-p PID wcsrchr") && r.init_err && session__err_is_usage(r.s) &&
		      strstr(session__strerror(r.s), "'wcsrchr': wcsrchr is an IFUNC in ") &&
		      strstr(session__strerror(r.s), "libc.so.6: its address is the resolver's"),
	      "an IFUNC: %s", session__strerror(r.s) ?: "");
	synth_run__finish_stderr(&r, err, sizeof(err));
	synth_run__cleanup(&r);
}

/* /proc/PID/maps text: each file once, at its lowest offset; lines of any length. */
static void test_maps(void)
{
	static const char head[] =
		"55d0c2c24000-55d0c2c28000 r--p 00000000 fe:00 1234       /usr/bin/prog\n"
		"55d0c2c28000-55d0c2c3e000 r-xp 00004000 fe:00 1234       /usr/bin/prog\n"
		"55d0c2c50000-55d0c2c71000 rw-p 00000000 00:00 0          [heap]\n"
		"7f0000000000-7f0000001000 rw-p 00000000 00:00 0 \n"
		"7f0000002000-7f0000003000 r-xp 00001000 fe:00 99 /usr/lib/libx.so (deleted)\n"
		"7f0000001000-7f0000002000 r--p 00000000 fe:00 99 /usr/lib/libx.so (deleted)\n"
		"7f0000005000-7f0000004000 r--p 00000000 fe:00 98 /bad/ends/before/it/starts\n"
		"garbage\n"
		"7f0000010000-7f0000011000 r--p 00000000 fe:00 7 /tmp/";
	/* a long path whose end looks like a mapping of its own: part of the path */
	static const char forged[] =
		"7f1234560000-7f1234561000 r--p 00000000 fe:00 1 /usr/lib/f.so";
	static const char tail[] = "\n7f0000020000-7f0000021000 r--p 00002000 fe:00 8 /lib/last.so";
	size_t len = strlen(head) + 6000 + strlen(forged) + strlen(tail);
	char *text = malloc(len + 1), *p = text;
	struct symaddr_file *f = NULL;
	int nr = -1;
	FILE *fp;

	if (!text)
		return;
	p = stpcpy(p, head);
	memset(p, 'a', 6000);
	p = stpcpy(p + 6000, forged);
	strcpy(p, tail);
	fp = fmemopen(text, len, "r");
	CHECK(fp && !symaddr__parse_maps(fp, &f, &nr), "parsed");
	CHECK_INT(nr, 4);
	if (nr == 4) {
		CHECK(!strcmp(f[0].path, "/usr/bin/prog") && f[0].start == 0x55d0c2c24000ULL &&
			      f[0].end == 0x55d0c2c28000ULL && f[0].pgoff == 0,
		      "the executable at its offset 0: %s 0x%llx", f[0].path,
		      (unsigned long long)f[0].start);
		CHECK(!strcmp(f[1].path, "/usr/lib/libx.so (deleted)") &&
			      f[1].start == 0x7f0000001000ULL && f[1].pgoff == 0,
		      "the lowest offset, not the first line: %s 0x%llx", f[1].path,
		      (unsigned long long)f[1].start);
		CHECK(strlen(f[2].path) == 5 + 6000 + strlen(forged) &&
			      !strcmp(f[2].path + 5 + 6000, forged) &&
			      f[2].start == 0x7f0000010000ULL,
		      "a long path whole: %.40s...", f[2].path);
		CHECK(!strcmp(f[3].path, "/lib/last.so") && f[3].pgoff == 0x2000,
		      "the last line without a newline: %s", f[3].path);
	}
	symaddr__free_files(f, nr > 0 ? nr : 0);
	symaddr__free_files(NULL, 0);
	if (fp)
		fclose(fp);
	free(text);
}

/* The lowest mapping of our executable: where its file offset 0 is. */
static u64 self_base(void)
{
	char exe[4096], line[4600];
	unsigned long long start = 0, lo = ~0ULL;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *fp = fopen("/proc/self/maps", "r");

	exe[n > 0 ? n : 0] = '\0';
	while (fp && fgets(line, sizeof(line), fp)) {
		char *path = strchr(line, '/');

		if (path && !strncmp(path, exe, strlen(exe)) && path[strlen(exe)] == '\n' &&
		    sscanf(line, "%llx-", &start) == 1 && start < lo)
			lo = start;
	}
	if (fp)
		fclose(fp);
	return lo;
}

static void test_program(void)
{
	int before = personality(0xffffffff);
	char exe[4096], args[4200], err[2048];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct symaddr sa;
	struct synth_run r;

	exe[n > 0 ? n : 0] = '\0';
	CHECK(!symaddr__program(exe, "bp_ut_var", &sa) && sa.predicted && !sa.kernel &&
		      sa.size >= sizeof(bp_ut_var),
	      "placed before it runs");
	/* the same distance from the load address as here, from the fixed base or none */
	if (sa.addr != (u64)&bp_ut_var)
		CHECK(sa.addr - 0x555555554000ULL == (u64)&bp_ut_var - self_base(),
		      "0x%llx: at the fixed base of position-independent programs",
		      (unsigned long long)sa.addr);
	CHECK(symaddr__program(exe, "bp_ut_tls", &sa) == -EMEDIUMTYPE, "thread-local");
	CHECK(symaddr__program(exe, "bp_ut_nonesuch", &sa) == -ENOENT, "no such symbol");

	snprintf(args, sizeof(args), "-q bp_ut_var/4:w -- %s", exe);
	CHECK(!start(&r, args) && !r.init_err, "-- self: %s", session__strerror(r.s) ?: "");
	CHECK(!symaddr__program(exe, "bp_ut_var", &sa) && attrs(&r, 0, sa.addr, 4, HW_BREAKPOINT_W),
	      "-- self: the address it will have");
	CHECK(personality(0xffffffff) & ADDR_NO_RANDOMIZE, "the command runs without ASLR");
	synth_run__finish_stderr(&r, err, sizeof(err));
	CHECK_INT(personality(0xffffffff), before);
	synth_run__cleanup(&r);

	/* a function of libc that ASan does not intercept (define in the executable) */
	snprintf(args, sizeof(args), "gnu_get_libc_version -- %s", exe);
	CHECK(!start(&r, args) && r.init_err && session__err_is_usage(r.s) &&
		      strstr(session__strerror(r.s), "gnu_get_libc_version is in ") &&
		      strstr(session__strerror(r.s), "libc.so.6, whose address is known only once"),
	      "a library's symbol: %s", session__strerror(r.s) ?: "");
	synth_run__finish_stderr(&r, err, sizeof(err));
	synth_run__cleanup(&r);
	CHECK_INT(personality(0xffffffff), before);
}

static void test_kernel(void)
{
	char path[] = "/tmp/test_breakpoint.XXXXXX";
	int fd = mkstemp(path);
	FILE *fp = fdopen(fd, "w");
	struct symaddr sa;

	fputs("ffffffff81000000 T _stext\n"
	      "ffffffffc0001000 d dup_name\t[ext4]\n"
	      "ffffffff82001000 D dup_name\n"
	      "ffffffffc0002000 t mod_only\t[xfs]\n"
	      "ffffffff82002000 b jiffies_like\n",
	      fp);
	fclose(fp);
	CHECK(!symaddr__kernel(path, "jiffies_like", &sa) && sa.addr == 0xffffffff82002000ULL &&
		      sa.kernel && !sa.func && !strcmp(sa.file, "[kernel.kallsyms]"),
	      "a data symbol");
	CHECK(!symaddr__kernel(path, "_stext", &sa) && sa.func, "a text symbol");
	CHECK(!symaddr__kernel(path, "dup_name", &sa) && sa.addr == 0xffffffff82001000ULL,
	      "the core kernel's before a module's");
	CHECK(!symaddr__kernel(path, "mod_only", &sa) && sa.addr == 0xffffffffc0002000ULL &&
		      !strcmp(sa.file, "[module]"),
	      "a module's");
	CHECK(symaddr__kernel(path, "dup", &sa) == -ENOENT, "whole names only");
	fp = fopen(path, "w");
	fputs("0000000000000000 T _stext\n0000000000000000 D jiffies_like\n", fp);
	fclose(fp);
	CHECK(symaddr__kernel(path, "jiffies_like", &sa) == -EPERM, "hidden addresses");
	unlink(path);

	/* the parser: a name longer than a line buffer, the last line without a newline */
	{
		static char text[4096], name[1600];
		int n = snprintf(name, sizeof(name), "long_%01500d", 7);

		snprintf(text, sizeof(text),
			 "ffffffff81000000 T %s\n"
			 "ffffffff81000030 t last_one",
			 name);
		fp = fmemopen(text, strlen(text), "r");
		CHECK(fp && !symaddr__parse_kallsyms(fp, name, &sa) &&
			      sa.addr == 0xffffffff81000000ULL,
		      "a %d-character name", n);
		if (fp)
			rewind(fp);
		CHECK(fp && symaddr__parse_kallsyms(fp, "long_", &sa) == -ENOENT,
		      "its start is no name");
		if (fp)
			rewind(fp);
		CHECK(fp && !symaddr__parse_kallsyms(fp, "last_one", &sa) &&
			      sa.addr == 0xffffffff81000030ULL,
		      "the last line, without a newline");
		if (fp)
			fclose(fp);
	}
}

static void test_hits(void)
{
	struct synth_run r;
	char err[2048], want[512];
	const char *out;
	u64 ip = (u64)bp_ut_func + 1, t = 1000000000ULL;
	u64 chain[] = { PERF_CONTEXT_USER, ip, (u64)test_hits + 8 };

	CHECK(!start(&r, "--no-bpf -p PID bp_ut_var:w 0x7000:rw bp_ut_func") && !r.init_err, "%s",
	      session__strerror(r.s) ?: "");
	hit(&r, nth(&r, 0), t, ip, NULL, 0);
	hit(&r, nth(&r, 0), t + 1000, ip, NULL, 0);
	hit(&r, nth(&r, 1), t + 2000, 0x7ff0, NULL, 0);
	hit(&r, nth(&r, 2), t + 3000, (u64)bp_ut_func, NULL, 0);
	out = synth_run__finish_stderr(&r, err, sizeof(err));
	/* the values are not read (--no-bpf): '?', never a number */
	snprintf(want, sizeof(want),
		 "[001] bp_ut_var:w: addr 0x%llx (bp_ut_var) value ? ip 0x%llx bp_ut_func+0x1 (",
		 (unsigned long long)(u64)&bp_ut_var, (unsigned long long)ip);
	CHECK(strstr(out, want) && strstr(strstr(out, want), "test_breakpoint)\n"),
	      "the breakpoint's symbol, no value, the ip's function and file: %s", out);
	CHECK(strstr(out, "[001] 0x7000:rw: addr 0x7000 value ? ip 0x7ff0\n"),
	      "a number, an ip of nothing: %s", out);
	snprintf(want, sizeof(want), "[001] bp_ut_func: addr 0x%llx (bp_ut_func) ip 0x",
		 (unsigned long long)(u64)bp_ut_func);
	CHECK(strstr(out, want), "an execute breakpoint: no value: %s", out);
	snprintf(want, sizeof(want), "bp_ut_var:w: 2 hits at 0x%llx\n",
		 (unsigned long long)(u64)&bp_ut_var);
	CHECK(strstr(out, want), "counted: %s", out);
	CHECK(strstr(out, "0x7000:rw: 1 hit at 0x7000\n"), "counted: %s", out);
	CHECK(!strstr(out, "\n    "), "no stack without -g: %s", out);
	CHECK(!strstr(err, "no hit"), "hits: %s", err);
	synth_run__cleanup(&r);

	/* -g: the stack under each hit */
	CHECK(!start(&r, "-g -p PID bp_ut_var:w") && !r.init_err, "%s",
	      session__strerror(r.s) ?: "");
	CHECK(nth(&r, 0)->attr.sample_type & PERF_SAMPLE_CALLCHAIN, "-g: callchains");
	hit(&r, nth(&r, 0), t, ip, chain, 3);
	out = synth_run__finish_stderr(&r, err, sizeof(err));
	CHECK(strstr(out, " bp_ut_func+0x1 (") && strstr(out, "\n    ") &&
		      strstr(out, " test_hits+0x8 ("),
	      "-g: the stack: %s", out);
	synth_run__cleanup(&r);

	/* no hit at all: said, as what it may mean */
	CHECK(!start(&r, "-p PID bp_ut_var:w") && !r.init_err, "%s", session__strerror(r.s) ?: "");
	out = synth_run__finish_stderr(&r, err, sizeof(err));
	CHECK(strstr(out, "bp_ut_var:w: 0 hits at "), "%s", out);
	CHECK(strstr(err, "perf-prof breakpoint: no hit: nothing touched the watched addresses"),
	      "%s", err);
	synth_run__cleanup(&r);
}

int main(void)
{
	if (!prof()) {
		CHECK(0, "no profiler 'breakpoint' in src/profilers.c");
		return ut_done("test_breakpoint");
	}
	test_syntax();
	test_resolve();
	test_program();
	test_kernel();
	test_maps();
	test_hits();
	return ut_done("test_breakpoint");
}
