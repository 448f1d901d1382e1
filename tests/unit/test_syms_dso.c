// SPDX-License-Identifier: GPL-2.0
/*
 * Symbols, continued (test_syms.c): PLT stubs against objdump, debug files,
 * the vdso image, nested symbols, the dso cache (retries, build ids) and
 * exec tracking.
 */
#define UT_SYMS_NAME "test_syms_dso"
#include "syms_util.h"

/*
 * Every stub objdump names "x@plt" in .plt or .plt.sec of @file resolves to
 * the same name; returns how many were compared, or -1 without objdump.
 */
static int plt_vs_objdump(const char *file)
{
	char cmd[PATH_MAX + 64], line[1024], name[512];
	struct elfsyms *es = NULL;
	unsigned long long a;
	int n = 0, bad = 0;
	FILE *fp;

	snprintf(cmd, sizeof(cmd), "objdump -d -j .plt -j .plt.sec %s 2>/dev/null", file);
	fp = popen(cmd, "r");
	if (!fp)
		return -1;
	CHECK_INT(elfsyms__open(file, &es), 0);
	while (es && fgets(line, sizeof(line), fp)) {
		const struct sym *s;

		/* PLT0 shows as "first@plt-0x10": it is no stub */
		if (sscanf(line, "%llx <%511[^>]>:", &a, name) != 2 || !strstr(name, "@plt") ||
		    strchr(name, '-'))
			continue;
		n++;
		s = elfsyms__find(es, a + 5);
		if (!s || strcmp(s->name, name) || s->start != a || s->end != a + 16) {
			if (!bad++)
				CHECK(0, "%s: %#llx is %s, objdump says %s", file, a,
				      s ? s->name : "??", name);
		}
	}
	if (pclose(fp) && !n)
		n = -1;
	CHECK(!bad, "%s: %d of %d PLT stubs differ from objdump", file, bad, n);
	printf("# %s: %d PLT stubs named as objdump names them\n", file, n - bad);
	elfsyms__delete(es);
	return n;
}

/* PLT stubs are named from .rela.plt, as objdump and perf name them. */
static void test_plt(void)
{
	static const char prog[] =
		"#include <stdio.h>\nint main(void) { puts(\"x\"); return 0; }\n";
	char src[PATH_MAX], bin[PATH_MAX], cmd[3 * PATH_MAX + 128];
	int n;

	n = plt_vs_objdump(exe);
	if (n < 0) {
		printf("# objdump not available: PLT names not checked\n");
		return;
	}
	CHECK(n > 10, "%d PLT stubs in %s", n, exe);
	/* .plt.sec (IBT): stubs without the 16-byte header */
	snprintf(src, sizeof(src), "%s/plt.c", tmpdir);
	snprintf(bin, sizeof(bin), "%s/plt_ibt", tmpdir);
	if (write_file(src, prog, strlen(prog)))
		return;
	snprintf(cmd, sizeof(cmd),
		 "cc -fcf-protection=full -Wl,-z,ibtplt -o %s %s 2>/dev/null && "
		 "objdump -h %s | grep -q ' .plt.sec '",
		 bin, src, bin);
	if (system(cmd)) {
		printf("# no IBT toolchain: .plt.sec not checked\n");
		return;
	}
	n = plt_vs_objdump(bin);
	CHECK(n >= 1, "%d PLT stubs in the IBT binary", n);
}

/* The shared debug file search: places, root prefix, build-id rule. */
static void test_debugfile(void)
{
	char cmd[8 * PATH_MAX], root[PATH_MAX], out[PATH_MAX], want[2 * PATH_MAX];
	unsigned char bid[BUILD_ID_MAX], other[BUILD_ID_MAX];
	int fd, n;

	fd = open(exe, O_RDONLY);
	n = fd >= 0 ? elfsyms__read_build_id(fd, bid, sizeof(bid)) : -1;
	if (fd >= 0)
		close(fd);
	CHECK(n == 20, "build-id of %s: %d", exe, n);
	if (n != 20)
		return;
	/* a root with the binary's debug file in its .debug/ directory */
	snprintf(root, sizeof(root), "%s/root", tmpdir);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/opt/app/.debug && cp %s %s/opt/app/app && "
		 "cp %s %s/opt/app/.debug/app.dbg",
		 root, exe, root, exe, root);
	CHECK_INT(system(cmd), 0);
	snprintf(want, sizeof(want), "%s/opt/app/.debug/app.dbg", root);
	CHECK_INT(debugfile__find("/opt/app/app", root, bid, n, "app.dbg", out, sizeof(out)), 0);
	CHECK_STR(str(out), str(want));
	/* without the root the name does not open */
	CHECK_INT(debugfile__find("/opt/app/app", "", bid, n, "app.dbg", out, sizeof(out)),
		  -ENOENT);
	/* a debug file of another build is refused; unknown build-id takes it */
	memcpy(other, bid, n);
	other[0] ^= 0xff;
	CHECK_INT(debugfile__find("/opt/app/app", root, other, n, "app.dbg", out, sizeof(out)),
		  -ENOENT);
	CHECK_INT(debugfile__find("/opt/app/app", root, NULL, 0, "app.dbg", out, sizeof(out)), 0);
	/* the file is never its own debug file; nor is a name with a '/' a link */
	CHECK_INT(debugfile__find("/opt/app/app", root, bid, n, "app", out, sizeof(out)), -ENOENT);
	CHECK_INT(debugfile__find("/opt/app/app", root, bid, n, "../app/.debug/app.dbg", out,
				  sizeof(out)),
		  -ENOENT);
	/* too small an output buffer finds nothing rather than a cut name */
	CHECK_INT(debugfile__find("/opt/app/app", root, bid, n, "app.dbg", out, 8), -ENOENT);
	/* a non-ELF candidate is skipped */
	snprintf(cmd, sizeof(cmd), "echo junk > %s/opt/app/.debug/junk.dbg", root);
	CHECK_INT(system(cmd), 0);
	CHECK_INT(debugfile__find("/opt/app/app", root, NULL, 0, "junk.dbg", out, sizeof(out)),
		  -ENOENT);
}

/* Our vdso: an ELF image, and the memfd copy holds exactly it. */
static void test_vdso(void)
{
	const void *img;
	struct stat st;
	size_t len;
	int fd;

	if (vdso__image(&img, &len)) {
		printf("# no vdso: not checked\n");
		return;
	}
	CHECK(len >= 4096 && !memcmp(img, "\177ELF", 4), "vdso of %zu bytes", len);
	fd = vdso__fd();
	CHECK(fd >= 0 && !fstat(fd, &st) && (size_t)st.st_size == len, "memfd copy of %zu bytes",
	      len);
	if (fd >= 0)
		close(fd);
}

/* The previous hit must not hide an inner symbol that starts later. */
static void test_nested_last_hit(void)
{
	struct symtab *st = symtab__new();
	const struct sym *s;

	symtab__add(st, 0x1000, 0x100, "outer", 5, 3, 0);
	symtab__add(st, 0x1040, 0x10, "inner", 5, 3, 0);
	symtab__finish(st, 0);
	s = symtab__find(st, 0x1008);
	CHECK(s && !strcmp(s->name, "outer"), "outer first");
	s = symtab__find(st, 0x1044);
	CHECK(s && !strcmp(s->name, "inner"), "then inner: %s", s ? s->name : "NULL");
	s = symtab__find(st, 0x1044);
	CHECK(s && !strcmp(s->name, "inner"), "inner again (cached)");
	symtab__delete(st);
}

/*
 * A failure that depends on the process (its /proc/PID is gone) is not
 * cached: the next process mapping the file gets symbols.  One that does
 * not (the file is not ELF) is, with one warning.
 */
static void test_dso_retry(void)
{
	struct dso_cache *dc = dso_cache__new();
	u32 dead = 4160000 + (getpid() % 1000), self = getpid();
	char path[PATH_MAX], name[PATH_MAX + 32];
	struct elfsyms *es;
	struct dso *d;
	struct stat st;
	void *map;
	long pg = sysconf(_SC_PAGESIZE);
	u64 start;
	int fd;

	snprintf(path, sizeof(path), "%s/retry.so", tmpdir);
	if (kill(dead, 0) == 0 || copy_file(exe, path) || stat(path, &st)) {
		CHECK(0, "setup %s", path);
		goto out;
	}
	fd = open(path, O_RDONLY);
	map = mmap(NULL, pg, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	start = (u64)(uintptr_t)map;
	/* a name that only the process's mapping opens (another mount namespace) */
	snprintf(name, sizeof(name), "/nonexistent/ns%s", path);
	d = dso_cache__get(dc, name, major(st.st_dev), minor(st.st_dev), st.st_ino, NULL, 0);
	warnings = 0;
	CHECK(dso__syms(dc, d, dead, start, start + pg) == NULL, "exited pid: no file");
	CHECK(dso__syms(dc, d, dead, start, start + pg) == NULL, "same pid: not retried");
	es = dso__syms(dc, d, self, start, start + pg);
	CHECK(es && elfsyms__nr(es) > 10, "next pid mapping it loads the symbols");
	CHECK_INT(warnings, 1);
	CHECK(dso__open_path(d) && strstr(dso__open_path(d), "/map_files/"), "opened as %s",
	      dso__open_path(d) ? dso__open_path(d) : "NULL");
	/* opened through a process that then exits: re-resolved through another */
	{
		char name2[PATH_MAX + 32], want[64];
		struct dso *d2;
		pid_t child;

		snprintf(name2, sizeof(name2), "/nonexistent/ns2%s", path);
		d2 = dso_cache__get(dc, name2, major(st.st_dev), minor(st.st_dev), st.st_ino, NULL,
				    0);
		child = fork();
		if (child == 0) {
			pause();
			_exit(0);
		}
		CHECK(dso__syms(dc, d2, child, start, start + pg) != NULL, "through the child");
		snprintf(want, sizeof(want), "/proc/%d/map_files/", child);
		CHECK(dso__open_path(d2) && strstr(dso__open_path(d2), want), "child's path");
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		snprintf(want, sizeof(want), "/proc/%u/map_files/", self);
		CHECK(dso__path_for(d2, self, start, start + pg) &&
			      strstr(dso__path_for(d2, self, start, start + pg), want),
		      "re-resolved: %s", dso__open_path(d2) ? dso__open_path(d2) : "NULL");
	}
	/* not ELF: the same for every process, cached at once */
	snprintf(path, sizeof(path), "%s/notelf.so", tmpdir);
	write_file(path, "not an ELF file at all", 22);
	stat(path, &st);
	d = dso_cache__get(dc, path, major(st.st_dev), minor(st.st_dev), st.st_ino, NULL, 0);
	warnings = 0;
	CHECK(dso__syms(dc, d, dead, 0, 0) == NULL, "not ELF");
	copy_file(exe, path); /* would load if it were retried */
	CHECK(dso__syms(dc, d, self, 0, 0) == NULL, "not ELF is not retried");
	CHECK_INT(warnings, 1);
	munmap(map, pg);
out:
	dso_cache__delete(dc);
}

/*
 * With attr.build_id MMAP2 has a build-id and no inode: a file replaced at
 * its path must not be loaded as the mapped one.
 */
static void test_dso_build_id(void)
{
	struct dso_cache *dc = dso_cache__new();
	unsigned char bid[BUILD_ID_MAX], other[BUILD_ID_MAX];
	char path[PATH_MAX], tmp[PATH_MAX];
	u32 self = getpid();
	long pg = sysconf(_SC_PAGESIZE);
	struct elfsyms *es;
	struct dso *d;
	void *map = MAP_FAILED;
	u64 start;
	int fd, n, on;

	snprintf(path, sizeof(path), "%s/bid.so", tmpdir);
	snprintf(tmp, sizeof(tmp), "%s/bid.new", tmpdir);
	fd = copy_file(exe, path) ? -1 : open(path, O_RDONLY);
	n = fd >= 0 ? elfsyms__read_build_id(fd, bid, sizeof(bid)) : -1;
	if (fd >= 0) {
		map = mmap(NULL, pg, PROT_READ, MAP_PRIVATE, fd, 0);
		close(fd);
	}
	fd = copy_file("/bin/true", tmp) ? -1 : open(tmp, O_RDONLY);
	on = fd >= 0 ? elfsyms__read_build_id(fd, other, sizeof(other)) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0 || on <= 0 || map == MAP_FAILED || (n == on && !memcmp(bid, other, n))) {
		CHECK(0, "setup: build-ids %d %d", n, on);
		goto out;
	}
	start = (u64)(uintptr_t)map;
	/* replaced at its path: the mapping still has the right one */
	rename(tmp, path);
	d = dso_cache__get(dc, path, 0, 0, 0, bid, n);
	es = dso__syms(dc, d, self, start, start + pg);
	CHECK(es && elfsyms__find(es, self_vaddr(es, (u64)(uintptr_t)&test_marker_fn)),
	      "replaced file: the mapped one is loaded");
	CHECK(dso__open_path(d) && strstr(dso__open_path(d), "/map_files/"), "through %s",
	      dso__open_path(d) ? dso__open_path(d) : "NULL");
	/* replaced, and no mapping to fall back to: unknown, one warning */
	d = dso_cache__get(dc, path, 0, 0, 0, bid + 1, n - 1);
	warnings = 0;
	CHECK(dso__syms(dc, d, 0, 0, 0) == NULL, "build-id mismatch: no symbols");
	CHECK(dso__syms(dc, d, 0, 0, 0) == NULL, "again");
	CHECK_INT(warnings, 1);
	CHECK(strstr(last_warning, "build-id") != NULL, "warning: %s", last_warning);
	/* the right build-id at the path: loaded */
	d = dso_cache__get(dc, path, 0, 0, 0, other, on);
	CHECK(dso__syms(dc, d, 0, 0, 0) != NULL, "matching build-id loads");
out:
	if (map != MAP_FAILED)
		munmap(map, pg);
	dso_cache__delete(dc);
}

/* After an exec seen with MMAP2 tracking, /proc (maybe of a later exec) is not read. */
static void test_exec_tracking(void)
{
	struct dso_cache *dc = dso_cache__new();
	struct maps *m = maps__new(dc);
	u32 pid = getpid();
	u64 addr = (u64)(uintptr_t)&test_marker_fn;
	const struct map *mp;

	mp = proc__find(maps__proc(m, pid), addr);
	CHECK(mp && mp->dso, "pre-existing process: /proc read");
	maps__exec(m, pid, 0);
	maps__mmap(m, pid, 0x10000, 0x1000, 0, "/new/image", 0, 0, 0, NULL, 0, 0);
	mp = proc__find(maps__proc(m, pid), 0x10010);
	CHECK(mp && !strcmp(dso__name(mp->dso), "/new/image"), "MMAP2 of the new image");
	mp = proc__find(maps__proc(m, pid), addr);
	CHECK(mp == NULL, "the old image is not read back from /proc: %s",
	      mp && mp->dso ? dso__name(mp->dso) : "-");
	maps__delete(m);
	dso_cache__delete(dc);
}
/*
 * Without --order an exec's COMM record can come after the MMAP2 records of
 * the new image (the process moved CPU right after its exec), and an MMAP2
 * of the old image after the exec: their times decide.
 */
static void test_exec_out_of_order(void)
{
	struct dso_cache *dc = dso_cache__new();
	struct maps *m = maps__new(dc);
	const u32 pid = 999999;
	const struct map *mp;

	maps__mmap(m, pid, 0x10000, 0x1000, 0, "/old/image", 0, 0, 0, NULL, 0, 50);
	maps__mmap(m, pid, 0x20000, 0x1000, 0, "", 0, 0, 0, NULL, 0, 150); /* //anon, new */
	maps__mmap(m, pid, 0x30000, 0x1000, 0, "/new/lib", 0, 0, 0, NULL, 0, 160);
	maps__exec(m, pid, 100);
	mp = proc__find(maps__proc(m, pid), 0x20010);
	CHECK(mp && !mp->dso, "anonymous memory mapped after the exec, seen before it: kept");
	mp = proc__find(maps__proc(m, pid), 0x30010);
	CHECK(mp && !strcmp(dso__name(mp->dso), "/new/lib"), "a library mapped after it: kept");
	CHECK(proc__find(maps__proc(m, pid), 0x10010) == NULL, "the old image's mapping: gone");
	maps__mmap(m, pid, 0x40000, 0x1000, 0, "/old/late", 0, 0, 0, NULL, 0, 90);
	CHECK(proc__find(maps__proc(m, pid), 0x40010) == NULL,
	      "an MMAP2 older than the exec, seen after it: the old image's, not added");
	maps__exec(m, pid, 0);
	CHECK(proc__find(maps__proc(m, pid), 0x30010) == NULL, "an exec without a time: all go");
	/* a child's copies of its parent's mappings go at its exec, whatever their time */
	maps__mmap(m, pid, 0x50000, 0x1000, 0, "/parent/late", 0, 0, 0, NULL, 0, 500);
	maps__fork(m, pid, pid + 1);
	maps__exec(m, pid + 1, 200);
	CHECK(proc__find(maps__proc(m, pid + 1), 0x50010) == NULL, "the parent's, copied: gone");
	maps__delete(m);
	dso_cache__delete(dc);
}

static u64 clock_at;
static u64 fixed_clock(void *arg)
{
	(void)arg;
	return clock_at;
}

/* /proc's mappings are as of when it was read: an exec older than that keeps them */
static void test_exec_after_proc(void)
{
	struct dso_cache *dc = dso_cache__new();
	struct maps *m = maps__new(dc);
	u32 pid = getpid();
	u64 addr = (u64)(uintptr_t)&test_marker_fn;

	maps__set_clock(m, fixed_clock, NULL);
	/* MMAP2 records come (of another process): an exec's maps are not read from /proc again */
	maps__mmap(m, 4242, 0x10000, 0x1000, 0, "/other", 0, 0, 0, NULL, 0, 1);
	clock_at = 500;
	CHECK(proc__find(maps__proc(m, pid), addr) != NULL, "/proc read (at 500)");
	maps__exec(m, pid, 300);
	CHECK(proc__find(maps__proc(m, pid), addr) != NULL, "an exec at 300, read after: kept");
	maps__exec(m, pid, 600);
	CHECK(proc__find(maps__proc(m, pid), addr) == NULL, "an exec at 600: gone");
	maps__delete(m);
	dso_cache__delete(dc);
}

/*
 * Anonymous executable memory read from /proc (nameless there) is "//anon", as in MMAP2
 * records; maps__refresh finds a mapping made after the first read (no MMAP2 records:
 * a BPF session's stacks), and does nothing once records follow the maps.
 */
static void test_anon_refresh(void)
{
	struct dso_cache *dc = dso_cache__new();
	struct maps *m = maps__new(dc);
	u32 pid = getpid();
	static char line[] = "7f0000000000-7f0000001000 r-xp 00000000 00:00 0 \n";
	FILE *fp = fmemopen(line, sizeof(line) - 1, "r");
	struct maps *m2 = maps__new(dc);
	const struct map *mp;
	void *code;
	u64 addr;

	CHECK(fp && maps__load_text(m, 777, fp) == 1, "a nameless executable mapping read");
	if (fp)
		fclose(fp);
	mp = proc__find(maps__proc(m, 777), 0x7f0000000010);
	CHECK(mp && mp->dso && !strcmp(dso__name(mp->dso), "//anon"), "named //anon");
	CHECK(maps__proc(m, pid) != NULL, "this process's maps read");
	code = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(code != MAP_FAILED, "an executable page mapped after");
	addr = (u64)(uintptr_t)code + 16;
	CHECK(maps__in_exec(m, pid, addr) == 0, "not in the maps read before");
	CHECK(maps__refresh(m, pid) > 0, "/proc read again");
	mp = proc__find(maps__proc(m, pid), addr);
	CHECK(mp && mp->dso && !strcmp(dso__name(mp->dso), "//anon"), "found then, as //anon");
	CHECK(maps__refresh(m, pid) == 0, "not again within the second");
	/* (another session's maps, whose MMAP2 records came: those follow the process) */
	maps__mmap(m2, 4242, 0x10000, 0x1000, 0, "/other", 0, 0, 0, NULL, 0, 1);
	CHECK(maps__proc(m2, pid) != NULL, "read in a session with MMAP2 records");
	CHECK(maps__refresh(m2, pid) == 0, "not read again there");
	munmap(code, 4096);
	maps__delete(m2);
	maps__delete(m);
	dso_cache__delete(dc);
}

int main(void)
{
	if (syms_setup())
		return 1;
	test_nested_last_hit();
	test_plt();
	test_debugfile();
	test_vdso();
	test_dso_retry();
	test_dso_build_id();
	test_exec_tracking();
	test_exec_out_of_order();
	test_exec_after_proc();
	test_anon_refresh();
	syms_cleanup();
	return ut_done("test_syms_dso");
}
