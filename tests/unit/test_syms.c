// SPDX-License-Identifier: GPL-2.0
/*
 * Symbols: demangling, ELF symbols of this very binary (PIE bias), libc
 * through its build-id debug file, a debuglink fixture made with objcopy,
 * perf-PID.map, kallsyms, hostile ELF files, process maps life cycle, the
 * stack printer, section bounds.  test_syms_dso: PLT stubs, debug files,
 * the vdso, the dso cache.
 */
#define UT_SYMS_NAME "test_syms"
#include "syms_util.h"

static void test_demangle(void)
{
	char *d = sym__demangle("_ZN2ns3FooIiE3barEi");

	CHECK_STR(d, "ns::Foo<int>::bar(int)");
	free(d);
	d = sym__demangle("_ZNK2ns3Foo3getEv");
	CHECK_STR(d, "ns::Foo::get() const");
	free(d);
	d = sym__demangle("_ZN4core3fmt5write17h0123456789abcdefE");
	CHECK_STR(d, "core::fmt::write");
	free(d);
	d = sym__demangle("_RNvCs1234_7mycrate3foo");
	CHECK_STR(d, "mycrate::foo");
	free(d);
	CHECK(sym__demangle("main") == NULL, "plain C names stay");
	CHECK(sym__demangle("_Zgarbage!") == NULL, "bad mangling is left alone");
}

/* The mapping of @addr in our own maps, the oracle for the PIE bias. */
static void test_self(void)
{
	u64 addr = (u64)(uintptr_t)&test_marker_fn, v;
	struct elfsyms *es = NULL;
	const struct sym *s;
	const unsigned char *bid;
	int len, fd;
	unsigned char bid2[BUILD_ID_MAX];

	CHECK_INT(elfsyms__open(exe, &es), 0);
	if (!es)
		return;
	CHECK(elfsyms__nr(es) > 100, "%zu symbols", elfsyms__nr(es));
	v = self_vaddr(es, addr + 2);
	s = elfsyms__find(es, v);
	CHECK(s && !strcmp(s->name, "test_marker_fn"), "got %s", s ? s->name : "NULL");
	CHECK(s && v - s->start == 2, "offset %llu", s ? (unsigned long long)(v - s->start) : 0);
	/* PIE: link-time address differs from the runtime one by the load bias */
	CHECK(v != addr, "PIE bias applied");
	bid = elfsyms__build_id(es, &len);
	fd = open(exe, O_RDONLY);
	CHECK(bid && len == 20, "build-id length %d", len);
	CHECK(elfsyms__read_build_id(fd, bid2, sizeof(bid2)) == len && bid &&
		      !memcmp(bid, bid2, len),
	      "cheap build-id read agrees");
	close(fd);
	elfsyms__delete(es);
}

static void test_libc(void)
{
	void *fn = dlsym(RTLD_DEFAULT, "getpid");
	struct dso_cache *dc = dso_cache__new();
	struct maps *m = maps__new(dc);
	struct resolved r;
	const struct map *mp;
	struct elfsyms *es;
	Dl_info info;

	CHECK(fn && dladdr(fn, &info), "dladdr getpid");
	maps__resolve(m, getpid(), (u64)(uintptr_t)fn + 4, (u64)(uintptr_t)fn + 4, &r);
	CHECK(r.sym && strstr(r.sym, "getpid"), "libc getpid -> %s", r.sym ? r.sym : "NULL");
	CHECK_INT(r.off, 4);
	CHECK(r.dso && strstr(r.dso, "libc.so"), "dso %s", r.dso ? r.dso : "NULL");
	mp = maps__find(m, getpid(), (u64)(uintptr_t)fn);
	es = mp ? dso__syms(dc, mp->dso, getpid(), mp->start, mp->end) : NULL;
	if (es && elfsyms__debug_path(es)) {
		/* libc6-dbg: found by build-id */
		CHECK(strstr(elfsyms__debug_path(es), "/usr/lib/debug/.build-id/") != NULL, "%s",
		      elfsyms__debug_path(es));
		/* .dynsym alone has ~2000 distinct function addresses */
		CHECK(elfsyms__nr(es) > 3000, "libc with debug symbols: %zu", elfsyms__nr(es));
	} else {
		printf("# libc debug file not installed: build-id lookup not checked\n");
	}
	maps__delete(m);
	dso_cache__delete(dc);
}

static void test_debuglink(void)
{
	char cmd[8 * PATH_MAX], path[PATH_MAX], dbg[PATH_MAX];
	u64 addr = (u64)(uintptr_t)&test_marker_fn;
	struct elfsyms *full = NULL, *es = NULL;
	const struct sym *s;
	u64 v;

	snprintf(path, sizeof(path), "%s/stripped", tmpdir);
	snprintf(dbg, sizeof(dbg), "%s/.debug/stripped.dbg", tmpdir);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/.debug && objcopy --only-keep-debug %s %s && "
		 "strip --strip-all -o %s %s && "
		 "cd %s/.debug && objcopy --add-gnu-debuglink=stripped.dbg ../stripped",
		 tmpdir, exe, dbg, path, exe, tmpdir);
	if (system(cmd)) {
		printf("# objcopy/strip not available: debuglink not checked\n");
		return;
	}
	elfsyms__open(exe, &full);
	CHECK_INT(elfsyms__open(path, &es), 0);
	if (!es || !full)
		goto out;
	CHECK_STR(elfsyms__debuglink(es), "stripped.dbg");
	CHECK_STR(elfsyms__debug_path(es), str(dbg));
	v = self_vaddr(full, addr);
	s = elfsyms__find(es, v);
	CHECK(s && !strcmp(s->name, "test_marker_fn"), "stripped + debuglink: %s",
	      s ? s->name : "NULL");
	/* without the debug file only .dynsym is left */
	unlink(dbg);
	elfsyms__delete(es);
	es = NULL;
	CHECK_INT(elfsyms__open(path, &es), 0);
	CHECK(es && !elfsyms__debug_path(es), "missing debug file is no error");
	s = elfsyms__find(es, v);
	CHECK(!s || strcmp(s->name, "test_marker_fn"), "static function gone without debug file");
out:
	elfsyms__delete(es);
	elfsyms__delete(full);
}

static void test_jit(void)
{
	u32 pid = 4100000 + (getpid() % 1000);
	char path[64], text[] = "7f0000001000 100 jitted_fn_a\n"
				"0x7f0000001100 80 LazyCompile:*b script.js:3\n"
				"garbage line\n";
	struct dso_cache *dc = dso_cache__new();
	struct maps *m = maps__new(dc);
	struct resolved r;

	if (kill(pid, 0) == 0)
		return;
	snprintf(path, sizeof(path), "/tmp/perf-%u.map", pid);
	CHECK_INT(write_file(path, text, strlen(text)), 0);
	maps__resolve(m, pid, 0x7f0000001010, 0x7f0000001010, &r);
	CHECK(r.sym && !strcmp(r.sym, "jitted_fn_a"), "%s", r.sym ? r.sym : "NULL");
	CHECK_INT(r.off, 0x10);
	CHECK_STR(r.dso, str(path));
	maps__resolve(m, pid, 0x7f0000001150, 0x7f0000001150, &r);
	CHECK_STR(r.sym, "LazyCompile:*b script.js:3");
	maps__resolve(m, pid, 0x7f0000001180, 0x7f0000001180, &r);
	CHECK(r.sym == NULL, "past the last JIT symbol");
	/* the JIT appends: a miss reads what was added (at most once a second),
	 * the table grows in place and a line being written waits */
	{
		const char *more = "7f0000002000 40 jitted_later\n7f0000003000 40 jitted_pa";
		const char *first;
		FILE *fp = fopen(path, "a");

		maps__resolve(m, pid, 0x7f0000001010, 0x7f0000001010, &r);
		first = r.sym;
		fputs(more, fp);
		fflush(fp);
		usleep(1100 * 1000);
		maps__resolve(m, pid, 0x7f0000002004, 0x7f0000002004, &r);
		CHECK_STR(r.sym, "jitted_later");
		maps__resolve(m, pid, 0x7f0000003004, 0x7f0000003004, &r);
		CHECK(r.sym == NULL, "half-written line not read: %s", r.sym ? r.sym : "NULL");
		fputs("rtial\n", fp);
		fclose(fp);
		usleep(1100 * 1000);
		maps__resolve(m, pid, 0x7f0000003004, 0x7f0000003004, &r);
		CHECK_STR(r.sym, "jitted_partial");
		maps__resolve(m, pid, 0x7f0000001010, 0x7f0000001010, &r);
		CHECK(r.sym == first, "old entries were not read again (same name pointer)");
		/* rewritten shorter: read from the start, old names stay valid */
		write_file(path, "7f0000004000 40 jitted_new\n", 27);
		usleep(1100 * 1000);
		maps__resolve(m, pid, 0x7f0000004004, 0x7f0000004004, &r);
		CHECK_STR(r.sym, "jitted_new");
		CHECK_STR(first, "jitted_fn_a");
	}
	unlink(path);
	maps__delete(m);
	dso_cache__delete(dc);
}

static void test_ksyms(void)
{
	char path[PATH_MAX];
	const char *zeros = "0000000000000000 T _stext\n0000000000000000 t foo\n";
	const char *fake = "ffffffff81000000 T _stext\n"
			   "ffffffff81000100 t do_thing\n"
			   "ffffffff81000200 D some_data\n"
			   "ffffffff81000300 T next_fn\n"
			   "ffffffffc0001000 t mod_fn\t[ext4]\n"
			   "ffffffffc0001100 t mod_fn2\t[ext4]\n"
			   "ffffffffc0002000 t bpf_prog_x\t[bpf]\n";
	struct ksyms *ks = NULL;
	const struct sym *s;
	const char *dso;

	snprintf(path, sizeof(path), "%s/kallsyms0", tmpdir);
	write_file(path, zeros, strlen(zeros));
	CHECK_INT(ksyms__load(path, &ks), -EPERM);
	CHECK(ks == NULL, "hidden kallsyms give nothing");
	snprintf(path, sizeof(path), "%s/kallsyms", tmpdir);
	write_file(path, fake, strlen(fake));
	CHECK_INT(ksyms__load(path, &ks), 0);
	s = ksyms__find(ks, 0xffffffff81000250, &dso);
	/* data symbols are not code: do_thing runs up to next_fn */
	CHECK(s && !strcmp(s->name, "do_thing"), "%s", s ? s->name : "NULL");
	CHECK_STR(dso, "[kernel.kallsyms]");
	s = ksyms__find(ks, 0xffffffffc0001104, &dso);
	CHECK(s && !strcmp(s->name, "mod_fn2"), "%s", s ? s->name : "NULL");
	CHECK_STR(dso, "[ext4]");
	s = ksyms__find(ks, 0xffffffffc0002004, &dso);
	CHECK_STR(dso, "[bpf]");
	CHECK(ksyms__find(ks, 0xffffffff80000000, NULL) == NULL, "below the first symbol");
	ksyms__delete(ks);
	ks = NULL;
	if (geteuid() == 0 && ksyms__load(NULL, &ks) == 0) {
		char line[512], name[256];
		unsigned long long a = 0;
		FILE *fp = fopen("/proc/kallsyms", "r");

		while (fp && fgets(line, sizeof(line), fp))
			if (sscanf(line, "%llx %*c %255s", &a, name) == 2 &&
			    !strcmp(name, "schedule"))
				break;
		if (fp)
			fclose(fp);
		s = ksyms__find(ks, a + 1, &dso);
		CHECK(s && !strcmp(s->name, "schedule"), "kernel schedule: %s",
		      s ? s->name : "NULL");
		CHECK(ksyms__nr(ks) > 10000, "%zu kernel symbols", ksyms__nr(ks));
		ksyms__delete(ks);
	}
}

/* Truncated, corrupted and non-ELF files: an error or a table, never a crash. */
static void test_hostile(void)
{
	char path[PATH_MAX];
	unsigned char *buf, *copy;
	struct elfsyms *es;
	size_t len, cuts[] = { 0, 4, 16, 63, 64, 65, 200, 1000, 4096 }, i;
	const Elf64_Ehdr *eh;
	int ok = 0, err;

	snprintf(path, sizeof(path), "%s/hostile", tmpdir);
	write_file(path, "#!/bin/sh\necho not elf\n", 23);
	CHECK_INT(elfsyms__open(path, &es), -ENOEXEC);
	CHECK_INT(elfsyms__from_mem("\177ELF", 4, &es), -ENOEXEC);
	buf = read_all(exe, &len);
	if (!buf)
		return;
	copy = malloc(len);
	for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		write_file(path, buf, cuts[i]);
		es = NULL;
		err = elfsyms__open(path, &es);
		ok += err == 0 || err == -ENOEXEC;
		elfsyms__delete(es);
	}
	/* cut inside the section headers and inside the symbol table */
	eh = (const Elf64_Ehdr *)buf;
	write_file(path, buf, eh->e_shoff + 100 < len ? eh->e_shoff + 100 : len / 2);
	err = elfsyms__open(path, &es);
	ok += err == 0 || err == -ENOEXEC;
	if (!err)
		elfsyms__delete(es);
	write_file(path, buf, len / 2);
	err = elfsyms__open(path, &es);
	ok += err == 0 || err == -ENOEXEC;
	if (!err)
		elfsyms__delete(es);
	CHECK_INT(ok, (int)(sizeof(cuts) / sizeof(cuts[0])) + 2);
	/* random corruption of the headers and the section header table */
	srand(42);
	for (i = 0; i < 300; i++) {
		size_t k, off;

		memcpy(copy, buf, len);
		for (k = 0; k < 8; k++) {
			off = rand() % 2 ? (size_t)(rand() % 64)
					 : eh->e_shoff + rand() % (len - eh->e_shoff);
			if (off < len)
				copy[off] = rand();
		}
		es = NULL;
		if (!elfsyms__from_mem(copy, len, &es)) {
			elfsyms__find(es, rand());
			elfsyms__delete(es);
		}
	}
	CHECK(1, "survived corrupted ELF images");
	free(copy);
	free(buf);
}

/* MMAP2 / FORK / EXIT / exec through the stack_ctx API, on made-up pids. */
static void test_lifecycle(void)
{
	u32 pid = 4150000 + (getpid() % 1000), child = pid + 1;
	u64 addr = (u64)(uintptr_t)&test_marker_fn, start = 0, end = 0, off = 0;
	struct stack_ctx *ctx = stack_ctx__new(0);
	u64 ips[4];
	struct sample smp = { 0 };
	struct frame fr[8];
	struct stat st;
	char line[1024], path[PATH_MAX] = "";
	FILE *fp = fopen("/proc/self/maps", "r");
	unsigned long long s, e, o;
	int n;

	while (fp && fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095s", &s, &e, &o, path) == 4 &&
		    addr >= s && addr < e) {
			start = s, end = e, off = o;
			break;
		}
	}
	if (fp)
		fclose(fp);
	CHECK(start && !stat(path, &st), "own text mapping %s", path);
	if (!start || kill(pid, 0) == 0 || kill(child, 0) == 0)
		goto out;
	struct rec_mmap2 mm = { .pid = pid,
				.tid = pid,
				.addr = start,
				.len = end - start,
				.pgoff = off,
				.prot = PROT_READ | PROT_EXEC,
				.maj = major(st.st_dev),
				.min = minor(st.st_dev),
				.ino = st.st_ino,
				.filename = path };
	stack_ctx__mmap2(ctx, &mm);
	ips[0] = PERF_CONTEXT_USER;
	ips[1] = addr + 1;
	ips[2] = addr + 5; /* as a return address: addr + 4 is looked up */
	smp.pid = smp.tid = pid;
	smp.ips = ips;
	smp.nr_ips = 3;
	smp.sample_type = PERF_SAMPLE_CALLCHAIN;
	n = stack__frames(ctx, &smp, fr, 8);
	CHECK_INT(n, 2);
	CHECK(n >= 1 && !strcmp(fr[0].sym, "test_marker_fn") && fr[0].off == 1, "%s+%llu",
	      fr[0].sym, (unsigned long long)fr[0].off);
	CHECK(n >= 2 && fr[1].off == 5 && fr[1].addr == addr + 5,
	      "return address keeps its offset");
	CHECK_STR(fr[0].dso, str(path));
	/* the child of a fork inherits; the parent's exit keeps its maps */
	struct rec_task fk = { .pid = child, .ppid = pid, .tid = child, .ptid = pid };
	stack_ctx__fork(ctx, &fk);
	struct rec_task ex = { .pid = pid, .ppid = 1, .tid = pid, .ptid = 1 };
	stack_ctx__exit(ctx, &ex);
	n = stack__frames(ctx, &smp, fr, 8);
	CHECK(n == 2 && !strcmp(fr[0].sym, "test_marker_fn"), "exited process still resolves");
	smp.pid = smp.tid = child;
	n = stack__frames(ctx, &smp, fr, 8);
	CHECK(n == 2 && !strcmp(fr[0].sym, "test_marker_fn"), "forked child resolves");
	/* exec drops the old image */
	struct rec_comm cm = { .pid = child, .tid = child, .comm = "x", .exec = true };
	stack_ctx__comm(ctx, &cm);
	n = stack__frames(ctx, &smp, fr, 8);
	CHECK(n == 2 && !strcmp(fr[0].sym, "[unknown]") && !fr[0].dso, "after exec: %s", fr[0].sym);
	/* a deleted file that cannot be reopened: [unknown] with the dso, one warning */
	struct rec_mmap2 gone = mm;
	gone.filename = "/nonexistent/lib/libgone.so (deleted)";
	gone.pid = gone.tid = child;
	stack_ctx__mmap2(ctx, &gone);
	warnings = 0;
	n = stack__frames(ctx, &smp, fr, 8);
	n += stack__frames(ctx, &smp, fr, 8);
	CHECK(!strcmp(fr[0].sym, "[unknown]") && fr[0].dso && strstr(fr[0].dso, "libgone"),
	      "deleted: %s (%s)", fr[0].sym, fr[0].dso ? fr[0].dso : "NULL");
	CHECK_INT(warnings, 1);
	CHECK(strstr(last_warning, "libgone") != NULL, "warning names the file: %s", last_warning);
out:
	stack_ctx__delete(ctx);
}

static void test_print(void)
{
	u64 addr = (u64)(uintptr_t)&test_marker_fn;
	u64 ips[] = { PERF_CONTEXT_KERNEL, 0, PERF_CONTEXT_USER, addr + 3, addr + 9 };
	struct sample smp = { .sample_type = PERF_SAMPLE_CALLCHAIN, .ips = ips, .nr_ips = 5 };
	char *text = NULL, expect[3 * PATH_MAX];
	size_t len, k;
	FILE *fp;
	struct stack_ctx *ctx;
	struct timespec t0, t1;
	struct frame fr[8];
	double ns;
	const int loops = 200000;
	int n;

	smp.pid = smp.tid = getpid();
	/* a kernel address that resolves: that of "schedule" if we can read kallsyms */
	{
		char line[512], name[256];
		unsigned long long a = 0;
		FILE *k = fopen("/proc/kallsyms", "r");

		while (k && fgets(line, sizeof(line), k))
			if (sscanf(line, "%llx %*c %255s", &a, name) == 2 &&
			    !strcmp(name, "schedule"))
				break;
		if (k)
			fclose(k);
		ips[1] = a ? a + 0x10 : 0xffffffff81000010ull;
	}
	ctx = stack_ctx__new(0);
	fp = open_memstream(&text, &len);
	stack__print(ctx, &smp, fp, "    ");
	fclose(fp);
	if (geteuid() == 0) {
		snprintf(expect, sizeof(expect),
			 "    %016llx schedule+0x10 ([kernel.kallsyms])\n"
			 "    %016llx test_marker_fn+0x3 (%s)\n"
			 "    %016llx test_marker_fn+0x9 (%s)\n",
			 (unsigned long long)ips[1], (unsigned long long)addr + 3, exe,
			 (unsigned long long)addr + 9, exe);
		CHECK_STR(text, str(expect));
	}
	free(text);
	/* hot path: every frame already cached */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (k = 0; k < (size_t)loops; k++)
		n = stack__frames(ctx, &smp, fr, 8);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / loops / n;
	printf("# %.1f ns per cached frame\n", ns);
	stack_ctx__delete(ctx);

	ctx = stack_ctx__new(STACK_NO_ADDR | STACK_NO_OFFSET | STACK_REVERSE | STACK_USER_ONLY |
			     STACK_NO_DSO);
	fp = open_memstream(&text, &len);
	stack__print(ctx, &smp, fp, "");
	fclose(fp);
	CHECK_STR(text, "test_marker_fn\ntest_marker_fn\n");
	free(text);
	stack_ctx__delete(ctx);

	ctx = stack_ctx__new(STACK_KERNEL_ONLY | STACK_NO_ADDR);
	n = stack__frames(ctx, &smp, fr, 8);
	CHECK(n == 1 && fr[0].kernel, "kernel only: %d frames", n);
	stack_ctx__delete(ctx);
}

static void test_symbols_main(void)
{
	u64 addr = (u64)(uintptr_t)&test_marker_fn;
	char *in_text = NULL, *out_text = NULL, line[1024];
	size_t in_len, out_len;
	FILE *in, *out, *maps = fopen("/proc/self/maps", "r");

	in = open_memstream(&in_text, &in_len);
	while (maps && fgets(line, sizeof(line), maps))
		fputs(line, in);
	if (maps)
		fclose(maps);
	fprintf(in, "0x%llx\n0x%llx\n0x1\n", (unsigned long long)addr + 2,
		(unsigned long long)(uintptr_t)dlsym(RTLD_DEFAULT, "getpid"));
	fclose(in);
	in = fmemopen(in_text, in_len, "r");
	out = open_memstream(&out_text, &out_len);
	CHECK_INT(symbols__main(exe, in, out, NULL, NULL), 0);
	fclose(in);
	fclose(out);
	CHECK(out_text && !strncmp(out_text, "test_marker_fn\n", 15), "got '%s'", out_text);
	CHECK(out_text && strstr(out_text, "getpid\n") && strstr(out_text, "\n??\n"), "got '%s'",
	      out_text);
	free(in_text);
	free(out_text);
}

/*
 * Bad lines on stdin: each answered "??" in its place and reported; maps
 * lines and blank lines get no answer; the counts say what was read.
 */
static void test_symbols_bad_lines(void)
{
	static const char in_text[] = "00400000-00401000 r-xp 00000000 08:01 12 /nonexistent/x\n"
				      "0x1\nhello\n\n0x\n  0x2 extra words\n1234\r\n"
				      "0x100000000000000000\n0x0000000000000000000003\nx\0y\n";
	char *out_text = NULL, *err_text = NULL;
	size_t out_len, err_len;
	struct symbols_stats ss;
	FILE *in = fmemopen((void *)in_text, sizeof(in_text) - 1, "r");
	FILE *out = open_memstream(&out_text, &out_len);
	FILE *err = open_memstream(&err_text, &err_len);

	CHECK_INT(symbols__main(exe, in, out, err, &ss), 0);
	fclose(in);
	fclose(out);
	fclose(err);
	CHECK_STR(out_text, "??\n??\n??\n??\n??\n??\n??\n??\n");
	CHECK_INT(ss.addrs, 3);
	CHECK_INT(ss.maps, 1);
	CHECK_INT(ss.bad, 5);
	CHECK_INT(ss.first_bad, 3);
	CHECK_STR(err_text,
		  "perf-prof --symbols: stdin line 3: not a 0x address or a maps line: 'hello'\n"
		  "perf-prof --symbols: stdin line 5: not a 0x address or a maps line: '0x'\n"
		  "perf-prof --symbols: stdin line 7: not a 0x address or a maps line: '1234'\n"
		  "perf-prof --symbols: stdin line 8: address of more than 64 bits: "
		  "'0x100000000000000000'\n"
		  "perf-prof --symbols: stdin line 10: a NUL byte: 'x\\x00y'\n");
	free(out_text);
	free(err_text);
}

/* pprof's ShortFunctionName rules, and conversion operators kept whole. */
static void test_short_name(void)
{
	static const char *const cases[][2] = {
		{ "main", "main" },
		{ "ns::inner(int, char const*)", "ns::inner" },
		{ "ns::Outer<int>::run() const", "ns::Outer::run" },
		{ "std::vector<int, std::allocator<int> >::push_back(int const&)",
		  "std::vector::push_back" },
		{ "int ns::tmpl<int>(int)", "ns::tmpl" },
		{ "operator new(unsigned long)", "operator new" },
		{ "llvm::MachO::ArchitectureSet::operator std::__cxx11::basic_string<char, "
		  "std::char_traits<char>, std::allocator<char> >() const",
		  "llvm::MachO::ArchitectureSet::operator std::__cxx11::basic_string" },
		{ "ns::C::operator ns::D*() const", "ns::C::operator ns::D*" },
		{ "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > "
		  "ns::C::name<int>() const",
		  "ns::C::name" },
		{ "ns::Cooperator std::x", "std::x" },
	};
	char buf[256];
	const char *got = buf; /* CHECK_STR tests its arguments for NULL */
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		symbols__short_name(cases[i][0], buf, sizeof(buf));
		CHECK_STR(got, cases[i][1]);
	}
	symbols__short_name("ns::a_rather_long_name", buf, 8);
	CHECK_STR(got, "ns::a_r");
}

/* Size-0 ELF symbols end at their section's end, not at the next symbol. */
static void test_section_bounds(void)
{
	struct symtab *st = symtab__new();
	const struct sym *s;
	struct elfsyms *es = NULL;
	u64 plt = 0, fini_end = 0;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	Elf *elf;
	int fd;

	symtab__add_upto(st, 0x1000, 0x101b, "_init", 5, 3, 0);
	symtab__add(st, 0x2000, 0x50, "main", 4, 3, 0);
	symtab__add_upto(st, 0x2100, 0x2200, "a", 1, 3, 0);
	symtab__add_upto(st, 0x2180, 0x2200, "b", 1, 3, 0);
	symtab__add_upto(st, 0x3000, 0x300d, "_fini", 5, 3, 0);
	symtab__finish(st, 0);
	s = symtab__find(st, 0x101a);
	CHECK(s && !strcmp(s->name, "_init"), "inside _init");
	CHECK(symtab__find(st, 0x1030) == NULL, "past .init is not _init");
	s = symtab__find(st, 0x217f);
	CHECK(s && !strcmp(s->name, "a") && s->end == 0x2180, "a ends at b");
	s = symtab__find(st, 0x21ff);
	CHECK(s && !strcmp(s->name, "b") && s->end == 0x2200, "b ends at the section end");
	CHECK(symtab__find(st, 0x2200) == NULL, "gap after the section");
	s = symtab__find(st, 0x300c);
	CHECK(s && !strcmp(s->name, "_fini"), "inside _fini");
	CHECK(symtab__find(st, 0x300d) == NULL, "past .fini is nothing, not _fini");
	CHECK(symtab__find(st, ~0ull) == NULL, "the last symbol does not reach ~0");
	symtab__delete(st);

	/* the same on this binary: its PLT stubs and the end of .fini */
	fd = open(exe, O_RDONLY);
	elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	if (!elf || elf_getshdrstrndx(elf, &shstrndx)) {
		CHECK(0, "libelf on %s", exe);
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (!strcmp(name, ".plt") && sh.sh_size > 16)
			plt = sh.sh_addr + 16;
		if (!strcmp(name, ".fini"))
			fini_end = sh.sh_addr + sh.sh_size;
	}
	if (!elfsyms__open(exe, &es)) {
		s = plt ? elfsyms__find(es, plt) : NULL;
		CHECK(plt && (!s || strstr(s->name, "@plt")), "PLT stub at %#llx is %s",
		      (unsigned long long)plt, s ? s->name : "??");
		s = fini_end ? elfsyms__find(es, fini_end + 8) : NULL;
		CHECK(fini_end && !s, "past .fini (%#llx) is %s", (unsigned long long)fini_end,
		      s ? s->name : "??");
		s = elfsyms__find(es, self_vaddr(es, (u64)(uintptr_t)&test_marker_fn));
		CHECK(s && !strcmp(s->name, "test_marker_fn"), "control: test_marker_fn");
		elfsyms__delete(es);
	}
out:
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}
int main(void)
{
	if (syms_setup())
		return 1;
	test_demangle();
	test_self();
	test_libc();
	test_debuglink();
	test_jit();
	test_ksyms();
	test_hostile();
	test_lifecycle();
	test_print();
	test_symbols_main();
	test_symbols_bad_lines();
	test_short_name();
	test_section_bounds();
	syms_cleanup();
	return ut_done("test_syms");
}
