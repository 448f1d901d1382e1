// SPDX-License-Identifier: GPL-2.0
/*
 * Probe placement: functions and USDT notes of this very binary (checked
 * against where /proc/self/maps says they are), the system libc found as
 * the dynamic linker would, a hand-made ELF file whose every answer is
 * known (symbol ranking, versions, notes with .stapsdt.base, hostile
 * notes, DT_NEEDED/RUNPATH), ld.so.cache buffers, the USDT operand parser
 * and the files that must be refused.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/sdt.h>
#include <sys/stat.h>
#include <unistd.h>

#include <asm/perf_regs.h>

#include "sym/probe_elf.h"
#include "tmp_tree.h"
#include "ut.h"

static char tmpdir[] = "/tmp/test_probe_elf.XXXXXX";

/* ---- What this binary has to be found ---- */

unsigned short pptest_two_semaphore __attribute__((section(".probes")));
unsigned short pptest_glob_semaphore __attribute__((section(".probes")));
long pe_global = 5;
struct {
	long a[4];
} pe_gs = { { 1, 2, 3, 4 } };

__attribute__((noinline, used)) int pe_target_fn(int x)
{
	volatile int v[8] = { 0 };

	for (int i = 0; i < 8; i++)
		v[i] = x * i;
	return v[x & 7] + 1;
}

__attribute__((noinline, used)) long pe_usdt_site(long a, int b)
{
	DTRACE_PROBE2(pptest, two, a, b);
	DTRACE_PROBE2(pptest, glob, pe_global, pe_gs.a[2]);
	__asm__ volatile("" ::: "memory");
	return a + b;
}

static long (*volatile usdt_fn)(long, int) = pe_usdt_site;

/* keeps CHECK_STR from seeing an array (always non-NULL) */
static const char *str(const char *s)
{
	return s;
}

static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

static void *read_all(const char *path, size_t *len)
{
	struct stat st;
	void *buf = NULL;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && (buf = malloc(st.st_size + 1)) &&
	    read(fd, buf, st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	*len = st.st_size;
	return buf;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static bool list_has(char **list, const char *path)
{
	for (; list && *list; list++)
		if (same_file(*list, path))
			return true;
	return false;
}

/* The file offset /proc/self/maps gives runtime address @addr: the oracle. */
static bool self_offset(const void *addr, u64 *off)
{
	unsigned long long s, e, o;
	char line[1024];
	bool ok = false;
	FILE *fp = fopen("/proc/self/maps", "r");

	while (fp && !ok && fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%llx-%llx %*s %llx", &s, &e, &o) == 3 && (uintptr_t)addr >= s &&
		    (uintptr_t)addr < e) {
			*off = o + ((uintptr_t)addr - s);
			ok = true;
		}
	}
	if (fp)
		fclose(fp);
	return ok;
}

static const struct usdt_note *note_find(const struct usdt_note *n, int nr, const char *name)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(n[i].name, name))
			return &n[i];
	return NULL;
}

static void test_self(void)
{
	struct probe_elf *pe = NULL;
	struct probe_func f;
	struct usdt_note *notes;
	const struct usdt_note *n;
	char buf[256];
	u64 off, bias = 0;
	int nr;

	CHECK_INT(probe_elf__open("/proc/self/exe", &pe), 0);
	if (!pe)
		return;
	CHECK_INT(probe_elf__func(pe, "pe_target_fn", &f), 0);
	CHECK(f.size > 0 && !f.ifunc, "size %llu", (unsigned long long)f.size);
	CHECK(self_offset((void *)pe_target_fn, &off) && off == f.offset, "offset %llx vs %llx",
	      (unsigned long long)f.offset, (unsigned long long)off);
	bias = (uintptr_t)pe_target_fn - f.vaddr;
	CHECK_INT(probe_elf__offset(pe, f.vaddr, &off), 0);
	CHECK_INT(off, f.offset);
	CHECK_INT(probe_elf__offset(pe, 0x7fffffffffffULL, &off), -ENOENT);
	CHECK_INT(probe_elf__func(pe, "pe_no_such_fn", &f), -ENOENT);
	CHECK_INT(probe_elf__func(pe, "", &f), -ENOENT);
	CHECK_INT(probe_elf__func(pe, "pe_global", &f), -ENOENT); /* data, not a function */

	probe_elf__similar(pe, "pe_target_fm", 4, buf, sizeof(buf));
	CHECK_STR(str(buf), "pe_target_fn");
	probe_elf__similar(pe, "target_fn", 4, buf, sizeof(buf));
	CHECK_STR(str(buf), "pe_target_fn");
	probe_elf__similar(pe, "zzqqxxyy", 4, buf, sizeof(buf));
	CHECK_STR(str(buf), "");
	probe_elf__similar(pe, "pe_target_fn", 4, buf, 5); /* too small: no part of a name */
	CHECK_STR(str(buf), "");

	CHECK_INT(probe_elf__usdt(pe, "pptest", "*", &notes, &nr), 0);
	CHECK_INT(nr, 2);
	n = note_find(notes, nr, "two");
	CHECK(n != NULL, "pptest:two");
	if (n) {
		u64 rt = n->vaddr + bias;

		CHECK(self_offset((void *)(uintptr_t)rt, &off) && off == n->offset, "note offset");
		CHECK(rt >= (uintptr_t)pe_usdt_site && rt < (uintptr_t)pe_usdt_site + 4096,
		      "the note is inside pe_usdt_site");
		CHECK_STR(n->provider, "pptest");
		CHECK_INT(n->sema_vaddr + bias, (uintptr_t)&pptest_two_semaphore);
		CHECK(self_offset(&pptest_two_semaphore, &off) && off == n->sema_offset,
		      "semaphore offset %llx", (unsigned long long)n->sema_offset);
		CHECK_INT(n->nr_args, 2);
		CHECK(n->args[0].size == 8 && n->args[0].is_signed, "%s", n->args_text);
		CHECK(n->args[1].size == 4 && n->args[1].is_signed, "%s", n->args_text);
	}
	n = note_find(notes, nr, "glob");
	CHECK(n != NULL && n->nr_args == 2, "pptest:glob");
	/* gcc reads globals in place ("-8@pe_global(%rip)"); another compiler may not */
	for (int i = 0; n && i < n->nr_args; i++) {
		const struct usdt_arg *a = &n->args[i];
		u64 want = i ? (uintptr_t)&pe_gs.a[2] : (uintptr_t)&pe_global;

		if (a->rip_rel)
			CHECK(a->kind == USDT_ARG_MEM && a->reg == PERF_REG_X86_IP &&
				      (u64)a->value + bias == want,
			      "%s: %llx", n->args_text, (unsigned long long)a->value);
	}
	usdt_notes__free(notes, nr);
	CHECK_INT(probe_elf__usdt(pe, "pptest", "nosuch", &notes, &nr), 0);
	CHECK(notes == NULL && nr == 0, "none");
	CHECK_INT(probe_elf__usdt(pe, "pp?est", "[gt]*", &notes, &nr), 0);
	CHECK_INT(nr, 2);
	usdt_notes__free(notes, nr);
	probe_elf__delete(pe);
	/* through a pointer: a call with constants could make a clone with its own notes */
	CHECK_INT(usdt_fn(1, 2), 3);
}

/* ---- The system libc ---- */

static void test_libc(void)
{
	static const char *const funcs[] = { "malloc", "free", "calloc" };
	char path[PATH_MAX], path2[PATH_MAX], self[PATH_MAX], buf[256];
	struct probe_elf *pe = NULL;
	struct probe_func f;
	char **list;
	int n;

	CHECK_INT(libpath__find("libc.so.6", 0, path, sizeof(path)), 0);
	CHECK_INT(libpath__find("libc", 0, path2, sizeof(path2)), 0);
	CHECK(same_file(path, path2), "%s vs %s", path, path2);
	CHECK_INT(libpath__find("libc.so", 0, path2, sizeof(path2)), 0);
	CHECK(same_file(path, path2), "libc.so: %s", path2);
	CHECK_INT(libpath__find("libc.so.6", 0, path2, 4), -ENAMETOOLONG);
	CHECK_INT(libpath__find("libpe_no_such_lib.so.1", 0, path2, sizeof(path2)), -ENOENT);
	CHECK_INT(libpath__find("", 0, path2, sizeof(path2)), -ENOENT);
	CHECK_INT(libpath__find("/pe/no/such/file", 0, path2, sizeof(path2)), -ENOENT);
	CHECK_INT(libpath__find("/proc/self/exe", 0, path2, sizeof(path2)), 0);
	CHECK_STR(str(path2), "/proc/self/exe");
	CHECK_INT(libpath__find("sh", 0, path2, sizeof(path2)), 0); /* through PATH */
	CHECK(strlen(path2) > 3 && !strcmp(path2 + strlen(path2) - 3, "/sh"), "%s", path2);

	CHECK_INT(probe_elf__open(path, &pe), 0);
	if (!pe)
		return;
	for (int i = 0; i < 3; i++) {
		u64 off;

		memset(&f, 0, sizeof(f));
		CHECK_INT(probe_elf__func(pe, funcs[i], &f), 0);
		CHECK(f.size > 0 && f.vaddr > 0, "%s", funcs[i]);
		CHECK(!probe_elf__offset(pe, f.vaddr, &off) && off == f.offset, "%s", funcs[i]);
	}
	CHECK_INT(probe_elf__func(pe, "pe_no_such_fn", &f), -ENOENT);
	/* memcpy@@GLIBC_2.14 (an IFUNC), not the old memcpy@GLIBC_2.2.5 beside it */
	CHECK(!probe_elf__func(pe, "memcpy", &f) && f.ifunc, "memcpy %llx",
	      (unsigned long long)f.vaddr);
	probe_elf__similar(pe, "mallocc", 4, buf, sizeof(buf));
	CHECK(!strncmp(buf, "malloc", 6) && (buf[6] == ',' || !buf[6]), "'%s'", buf);
	probe_elf__similar(pe, "malloc", 3, buf, sizeof(buf));
	CHECK(buf[0] && !strstr(buf, ",malloc,") && strncmp(buf, "malloc,", 7), "'%s'", buf);
	n = probe_elf__needed(pe, &list);
	CHECK(n >= 1 && list && !list[n], "%d", n);
	CHECK(n >= 1 && list && !strcmp(list[0], "ld-linux-x86-64.so.2"), "needs ld.so");
	probe_elf__free_list(list);
	probe_elf__delete(pe);

	/* the process's own files, through /proc/PID/root */
	n = libpath__mapped(getpid(), &list);
	CHECK(n >= 2 && list && !list[n], "%d", n);
	CHECK(list_has(list, path), "libc mapped");
	CHECK(list_has(list, "/proc/self/exe"), "exe mapped");
	snprintf(buf, sizeof(buf), "/proc/%d/root/", (int)getpid());
	for (int i = 0; i < n; i++)
		CHECK(!strncmp(list[i], buf, strlen(buf)) || strstr(list[i], "/map_files/"), "%s",
		      list[i]);
	for (int i = 0; i < n; i++)
		for (int k = i + 1; k < n; k++)
			CHECK(!same_file(list[i], list[k]), "%s twice", list[i]);
	probe_elf__free_list(list);
	CHECK_INT(libpath__mapped(0x3ffffff0, &list), -ESRCH);
	CHECK(list == NULL, "no list");

	CHECK_INT(libpath__find("libc.so.6", getpid(), path2, sizeof(path2)), 0);
	CHECK(same_file(path, path2) && !strncmp(path2, buf, strlen(buf)), "%s", path2);
	CHECK_INT(libpath__find("libc", getpid(), path2, sizeof(path2)), 0);
	CHECK(same_file(path, path2), "%s", path2);
	CHECK_INT(libpath__find("test_probe_elf", getpid(), path2, sizeof(path2)), 0);
	CHECK(same_file("/proc/self/exe", path2), "%s", path2);
	CHECK_INT(libpath__find("libpe_nothing", getpid(), path2, sizeof(path2)), -ENOENT);
	CHECK_INT(libpath__find("libc", 0x3ffffff0, path2, sizeof(path2)), -ESRCH);

	n = libpath__closure("/proc/self/exe", &list);
	CHECK(n >= 2 && list && !list[n], "%d", n);
	CHECK(n >= 1 && list && !strcmp(list[0], "/proc/self/exe"), "exe first");
	CHECK(list_has(list, path), "libc needed");
	probe_elf__free_list(list);
	if (realpath("/proc/self/exe", self)) {
		n = libpath__closure(self, &list);
		CHECK(list_has(list, path), "libc needed by %s", self);
		probe_elf__free_list(list);
	}
	CHECK_INT(libpath__closure("/pe/no/such/file", &list), -ENOENT);
}

/* ---- A hand-made ELF file ---- */

struct blob {
	unsigned char b[16384];
	size_t len;
};

static size_t put(struct blob *x, const void *p, size_t n, size_t align)
{
	size_t at = (x->len + align - 1) & ~(align - 1);

	if (at + n > sizeof(x->b))
		abort();
	memcpy(x->b + at, p, n);
	x->len = at + n;
	return at;
}

struct strs {
	char s[1024];
	size_t len;
};

static u32 str_add(struct strs *t, const char *s)
{
	size_t at = t->len ? t->len : 1; /* offset 0 is "" */

	memcpy(t->s + at, s, strlen(s) + 1);
	t->len = at + strlen(s) + 1;
	return (u32)at;
}

static size_t note_put(unsigned char *p, const char *owner, u32 type, const void *desc, u32 dlen)
{
	u32 nlen = (u32)strlen(owner) + 1, h[3] = { nlen, dlen, type };
	size_t at = 0;

	memcpy(p, h, 12);
	at = 12;
	memcpy(p + at, owner, nlen);
	at += (nlen + 3) & ~3u;
	memcpy(p + at, desc, dlen);
	return at + ((dlen + 3) & ~3u);
}

/* A stapsdt descriptor: pc, base, semaphore, strings (args NULL: none at all). */
static size_t sdt_put(unsigned char *p, u64 pc, u64 sema, const char *prov, const char *name,
		      const char *args)
{
	unsigned char d[512];
	u64 base = 0x400080;
	size_t n = 24;

	memcpy(d, &pc, 8);
	memcpy(d + 8, &base, 8);
	memcpy(d + 16, &sema, 8);
	memcpy(d + n, prov, strlen(prov) + 1);
	n += strlen(prov) + 1;
	memcpy(d + n, name, strlen(name) + 1);
	n += strlen(name) + 1;
	if (args) {
		memcpy(d + n, args, strlen(args) + 1);
		n += strlen(args) + 1;
	}
	return note_put(p, "stapsdt", 3, d, (u32)n);
}

static Elf64_Sym sym(u32 name, int bind, int type, int shndx, u64 value, u64 size)
{
	Elf64_Sym s = { name, (unsigned char)ELF64_ST_INFO(bind, type), 0, (uint16_t)shndx, value,
			size };

	return s;
}

#define SY_BASE 1 /* with .stapsdt.base */
#define SY_DYN 2  /* with .dynamic */

/*
 * Two PT_LOADs: 0x400000 at offset 0 (0x1000 bytes) and 0x601000 at
 * 0x1000 (0x200 in the file, 0x2000 in memory).  Sections: .text .data
 * .symtab .strtab .dynsym .dynstr [.dynamic] .note.stapsdt [.stapsdt.base]
 * .shstrtab.  .stapsdt.base sits 0x100 above the notes' base.
 */
static int synth_elf(const char *path, int flags)
{
	struct blob *x = calloc(1, sizeof(*x));
	struct strs strtab = { 0 }, dynstr = { 0 }, shstr = { 0 };
	Elf64_Shdr sh[12];
	Elf64_Sym syms[16], dsyms[6];
	uint16_t versym[6] = { 0, 1, 1, 0x8002, 3 };
	unsigned char notes[2048];
	Elf64_Ehdr *eh;
	Elf64_Phdr ph[2];
	size_t nn = 0, off[12] = { 0 };
	int ns = 0, nd = 0, nsh = 1, err;

	memset(sh, 0, sizeof(sh));
	memset(&syms[ns++], 0, sizeof(syms[0]));
	syms[ns++] = sym(str_add(&strtab, "dup"), STB_LOCAL, STT_FUNC, 1, 0x400110, 4);
	syms[ns++] = sym(str_add(&strtab, "dup"), STB_GLOBAL, STT_FUNC, 1, 0x400120, 8);
	syms[ns++] = sym(str_add(&strtab, "wdup"), STB_WEAK, STT_FUNC, 1, 0x400124, 4);
	syms[ns++] = sym(str_add(&strtab, "wdup"), STB_LOCAL, STT_FUNC, 1, 0x400128, 4);
	syms[ns++] = sym(str_add(&strtab, "ifn"), STB_GLOBAL, STT_GNU_IFUNC, 1, 0x400130, 8);
	syms[ns++] = sym(str_add(&strtab, "vfn@VER_1"), STB_GLOBAL, STT_FUNC, 1, 0x400140, 4);
	syms[ns++] = sym(str_add(&strtab, "vfn@@VER_2"), STB_GLOBAL, STT_FUNC, 1, 0x400150, 4);
	syms[ns++] = sym(str_add(&strtab, "undef_fn"), STB_GLOBAL, STT_FUNC, SHN_UNDEF, 0, 0);
	syms[ns++] = sym(str_add(&strtab, "gvar"), STB_GLOBAL, STT_OBJECT, 2, 0x601010, 8);
	syms[ns++] = sym(str_add(&strtab, "far_fn"), STB_GLOBAL, STT_FUNC, 1, 0x700000, 4);
	syms[ns++] = sym(1000, STB_GLOBAL, STT_FUNC, 1, 0x400100, 4); /* name out of range */
	memset(&dsyms[nd++], 0, sizeof(dsyms[0]));
	dsyms[nd++] = sym(str_add(&dynstr, "donly"), STB_GLOBAL, STT_FUNC, 1, 0x400160, 4);
	dsyms[nd++] = sym(str_add(&dynstr, "dup"), STB_GLOBAL, STT_FUNC, 1, 0x400170, 4);
	/* the same name twice in .dynsym: .gnu.version hides the first (0x8000) */
	dsyms[nd++] = sym(str_add(&dynstr, "hv"), STB_GLOBAL, STT_FUNC, 1, 0x400180, 4);
	dsyms[nd++] = sym(str_add(&dynstr, "hv"), STB_GLOBAL, STT_FUNC, 1, 0x400184, 4);

	/* the notes' base is 0x400080, .stapsdt.base is at 0x400180: +0x100 */
	nn += sdt_put(notes + nn, 0x400160, 0x601020, "prov", "p1",
		      "-4@%edi 8@gvar+8(%rip) 4@$5 -8@-32(%rbp)");
	nn += sdt_put(notes + nn, 0x400170, 0, "prov", "p2", "8@%xmm0 4@$1");
	nn += sdt_put(notes + nn, 0x400178, 0x601300, "other", "p1", "");
	{
		unsigned char d[40] = { 0 };

		nn += note_put(notes + nn, "GNU", 3, d, sizeof(d)); /* another owner */
		nn += note_put(notes + nn, "stapsdt", 3, d, 10);    /* too short */
		nn += note_put(notes + nn, "stapsdt", 4, d, 40);    /* another type */
		memcpy(d + 24, "prov", 4);			    /* strings without their NUL */
		nn += note_put(notes + nn, "stapsdt", 3, d, 28);
	}
	nn += sdt_put(notes + nn, 0x900000, 0, "prov", "far", "");
	nn += sdt_put(notes + nn, 0x400180, 0, "prov", "p3", NULL);
	nn += sdt_put(notes + nn, 0x400190, 0, "prov", "many",
		      "1@%al 2@%bx 4@%ecx 8@%rdx 1@%sil 2@%di 4@%ebp 8@%rsp 1@%r8b 2@%r9w "
		      "4@%r10d 8@%r11 8@%r12 8@%r13");

	eh = (Elf64_Ehdr *)x->b;
	x->len = 0x1200; /* .text and .data contents are zeros */
	off[3] = put(x, syms, sizeof(syms[0]) * ns, 8);
	off[4] = put(x, strtab.s, strtab.len, 1);
	off[5] = put(x, dsyms, sizeof(dsyms[0]) * nd, 8);
	if (flags & SY_DYN) {
		Elf64_Dyn dyn[6] = {
			{ DT_NEEDED, { str_add(&dynstr, "libfoo.so.1") } },
			{ DT_RPATH, { str_add(&dynstr, "/pe/nope") } },
			{ DT_NEEDED, { str_add(&dynstr, "libbar.so") } },
			{ DT_RUNPATH, { str_add(&dynstr, "$ORIGIN/lib:/pe/nope") } },
			{ DT_NEEDED, { 5000 } }, /* out of the string table: left out */
			{ DT_NULL, { 0 } },
		};

		off[7] = put(x, dyn, sizeof(dyn), 8);
	}
	off[6] = put(x, dynstr.s, dynstr.len, 1);
	off[8] = put(x, notes, nn, 4);
	off[11] = put(x, versym, sizeof(versym[0]) * nd, 2);

	/* section headers: name, type, flags, addr, offset, size, link, info, align, entsize */
#define SH(n, nm, ty, fl, ad, of, sz, lk, al, es)                                       \
	sh[n] = (Elf64_Shdr){ str_add(&shstr, nm), ty, fl, ad, of, sz, lk, 0, al, es }; \
	nsh = (n) + 1
	SH(1, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x400100, 0x100, 0x200, 0, 16, 0);
	SH(2, ".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0x601000, 0x1000, 0x200, 0, 16, 0);
	SH(3, ".symtab", SHT_SYMTAB, 0, 0, off[3], sizeof(syms[0]) * ns, 4, 8, sizeof(syms[0]));
	SH(4, ".strtab", SHT_STRTAB, 0, 0, off[4], strtab.len, 0, 1, 0);
	SH(5, ".dynsym", SHT_DYNSYM, SHF_ALLOC, 0, off[5], sizeof(dsyms[0]) * nd, 6, 8,
	   sizeof(dsyms[0]));
	SH(6, ".dynstr", SHT_STRTAB, SHF_ALLOC, 0, off[6], dynstr.len, 0, 1, 0);
	SH(7, (flags & SY_DYN) ? ".dynamic" : ".comment", (flags & SY_DYN) ? SHT_DYNAMIC : SHT_NULL,
	   0, 0, off[7], (flags & SY_DYN) ? 6 * sizeof(Elf64_Dyn) : 0, 6, 8, sizeof(Elf64_Dyn));
	SH(8, ".note.stapsdt", SHT_NOTE, 0, 0, off[8], nn, 0, 4, 0);
	SH(9, (flags & SY_BASE) ? ".stapsdt.base" : ".rodata", SHT_PROGBITS, SHF_ALLOC, 0x400180,
	   0x180, 1, 0, 1, 0);
	SH(11, ".gnu.version", SHT_GNU_versym, SHF_ALLOC, 0, off[11], 2 * nd, 5, 2, 2);
	SH(10, ".shstrtab", SHT_STRTAB, 0, 0, 0, 0, 0, 1, 0);
	nsh = 12;
#undef SH
	sh[10].sh_offset = put(x, shstr.s, shstr.len, 1);
	sh[10].sh_size = shstr.len;

	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_DYN;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_ehsize = sizeof(*eh);
	eh->e_phoff = sizeof(*eh);
	eh->e_phentsize = sizeof(ph[0]);
	eh->e_phnum = 2;
	eh->e_shentsize = sizeof(sh[0]);
	eh->e_shnum = (uint16_t)nsh;
	eh->e_shstrndx = 10;
	ph[0] = (Elf64_Phdr){ PT_LOAD, PF_R | PF_X, 0, 0x400000, 0x400000, 0x1000, 0x1000, 0x1000 };
	ph[1] = (Elf64_Phdr){ PT_LOAD,	PF_R | PF_W, 0x1000, 0x601000,
			      0x601000, 0x200,	     0x2000, 0x1000 };
	memcpy(x->b + sizeof(*eh), ph, sizeof(ph));
	eh->e_shoff = put(x, sh, sizeof(sh[0]) * nsh, 8);
	err = write_file(path, x->b, x->len);
	free(x);
	return err;
}

static void test_synth(void)
{
	char path[PATH_MAX], path2[PATH_MAX], buf[256], **list;
	struct probe_elf *pe = NULL;
	struct usdt_note *notes;
	const struct usdt_note *n;
	struct probe_func f;
	int nr;

	snprintf(path, sizeof(path), "%s/synth.elf", tmpdir);
	CHECK_INT(synth_elf(path, SY_BASE | SY_DYN), 0);
	CHECK_INT(probe_elf__open(path, &pe), 0);
	if (!pe)
		return;
	/* the global of two, .symtab before .dynsym */
	CHECK(!probe_elf__func(pe, "dup", &f) && f.vaddr == 0x400120 && f.size == 8 &&
		      f.offset == 0x120,
	      "dup %llx", (unsigned long long)f.vaddr);
	CHECK(!probe_elf__func(pe, "wdup", &f) && f.vaddr == 0x400124, "weak before local");
	CHECK(!probe_elf__func(pe, "ifn", &f) && f.ifunc, "ifunc");
	CHECK(!probe_elf__func(pe, "vfn", &f) && f.vaddr == 0x400150, "default version");
	CHECK(!probe_elf__func(pe, "vfn@VER_1", &f) && f.vaddr == 0x400140, "named version");
	CHECK(!probe_elf__func(pe, "donly", &f) && f.vaddr == 0x400160, ".dynsym");
	CHECK(!probe_elf__func(pe, "hv", &f) && f.vaddr == 0x400184, "the default version");
	CHECK_INT(probe_elf__func(pe, "undef_fn", &f), -ENOENT);
	CHECK_INT(probe_elf__func(pe, "gvar", &f), -ENOENT);
	CHECK_INT(probe_elf__func(pe, "far_fn", &f), -ENOENT); /* outside the PT_LOADs */
	CHECK_INT(probe_elf__func(pe, "vf", &f), -ENOENT);
	probe_elf__similar(pe, "dupx", 8, buf, sizeof(buf));
	CHECK_STR(str(buf), "dup,wdup");
	probe_elf__similar(pe, "vfm", 8, buf, sizeof(buf));
	CHECK_STR(str(buf), "vfn,ifn");
	probe_elf__similar(pe, "dupx", 1, buf, sizeof(buf));
	CHECK_STR(str(buf), "dup");

	CHECK_STR(probe_elf__runpath(pe), "$ORIGIN/lib:/pe/nope");
	nr = probe_elf__needed(pe, &list);
	CHECK_INT(nr, 2);
	CHECK(nr == 2 && !strcmp(list[0], "libfoo.so.1") && !strcmp(list[1], "libbar.so") &&
		      !list[2],
	      "needed");
	probe_elf__free_list(list);

	CHECK_INT(probe_elf__usdt(pe, "prov", "*", &notes, &nr), 0);
	CHECK_INT(nr, 4);
	CHECK(nr >= 4 && !strcmp(notes[0].name, "p1") && !strcmp(notes[1].name, "p2") &&
		      !strcmp(notes[2].name, "p3") && !strcmp(notes[3].name, "many"),
	      "note order");
	n = note_find(notes, nr, "p1");
	if (n) {
		CHECK_INT(n->vaddr, 0x400260);
		CHECK_INT(n->offset, 0x260);
		CHECK_INT(n->sema_vaddr, 0x601120);
		CHECK_INT(n->sema_offset, 0x1120);
		CHECK_INT(n->nr_args, 4);
		CHECK(n->args[0].kind == USDT_ARG_REG && n->args[0].reg == PERF_REG_X86_DI &&
			      n->args[0].size == 4 && n->args[0].is_signed,
		      "arg 0");
		CHECK(n->args[1].kind == USDT_ARG_MEM && n->args[1].rip_rel &&
			      n->args[1].value == 0x601018 && n->args[1].reg == PERF_REG_X86_IP,
		      "arg 1 %llx", (unsigned long long)n->args[1].value);
		CHECK(n->args[2].kind == USDT_ARG_IMM && n->args[2].value == 5, "arg 2");
		CHECK(n->args[3].kind == USDT_ARG_MEM && n->args[3].value == -32, "arg 3");
	}
	n = note_find(notes, nr, "p2");
	CHECK(n && n->nr_args == 0 && !strcmp(n->args_text, "8@%xmm0 4@$1"), "unreadable args");
	n = note_find(notes, nr, "p3");
	CHECK(n && n->nr_args == 0 && !strcmp(n->args_text, "") && n->sema_vaddr == 0, "no args");
	n = note_find(notes, nr, "many");
	CHECK(n && n->nr_args == USDT_MAX_ARGS, "12 of 14");
	if (n && n->nr_args == USDT_MAX_ARGS) {
		CHECK(n->args[0].reg == PERF_REG_X86_AX && n->args[0].size == 1, "al");
		CHECK(n->args[7].reg == PERF_REG_X86_SP && n->args[7].size == 8, "rsp");
		CHECK(n->args[10].reg == PERF_REG_X86_R10 && n->args[10].size == 4, "r10d");
		CHECK(n->args[11].reg == PERF_REG_X86_R11, "r11");
	}
	usdt_notes__free(notes, nr);
	CHECK_INT(probe_elf__usdt(pe, "*", "p1", &notes, &nr), 0);
	CHECK_INT(nr, 2);
	n = note_find(notes, nr, "p1");
	if (nr == 2) {
		/* a semaphore past the file part of its segment has no file offset */
		CHECK(!strcmp(notes[1].provider, "other") && notes[1].sema_vaddr == 0x601400 &&
			      notes[1].sema_offset == 0,
		      "other:p1");
	}
	usdt_notes__free(notes, nr);
	CHECK_INT(probe_elf__usdt(pe, NULL, NULL, &notes, &nr), 0);
	CHECK_INT(nr, 5);
	usdt_notes__free(notes, nr);
	probe_elf__delete(pe);

	/* without .stapsdt.base the addresses are taken as written */
	CHECK_INT(synth_elf(path, 0), 0);
	CHECK_INT(probe_elf__open(path, &pe), 0);
	if (pe) {
		CHECK_INT(probe_elf__usdt(pe, "prov", "p1", &notes, &nr), 0);
		CHECK(nr == 1 && notes[0].vaddr == 0x400160 && notes[0].offset == 0x160 &&
			      notes[0].sema_offset == 0x1020,
		      "unadjusted");
		usdt_notes__free(notes, nr);
		nr = probe_elf__needed(pe, &list);
		CHECK(nr == 0 && list && !list[0], "no DT_NEEDED: empty list");
		probe_elf__free_list(list);
		CHECK(probe_elf__runpath(pe) == NULL, "no runpath");
		probe_elf__delete(pe);
	}

	/* $ORIGIN/lib: the closure finds libfoo.so.1 there (which needs itself) */
	CHECK_INT(synth_elf(path, SY_BASE | SY_DYN), 0);
	snprintf(path2, sizeof(path2), "%s/lib", tmpdir);
	mkdir(path2, 0755);
	snprintf(path2, sizeof(path2), "%s/lib/libfoo.so.1", tmpdir);
	CHECK_INT(synth_elf(path2, SY_DYN), 0);
	nr = libpath__closure(path, &list);
	CHECK_INT(nr, 2);
	CHECK(nr == 2 && !strcmp(list[0], path) && same_file(list[1], path2), "closure");
	probe_elf__free_list(list);

	/* LD_LIBRARY_PATH, an exact name and another spelling; a text file passed over */
	snprintf(path2, sizeof(path2), "%s/lib/libpetest.so.3", tmpdir);
	CHECK_INT(synth_elf(path2, 0), 0);
	snprintf(path2, sizeof(path2), "%s/lib/libpetxt.so.1", tmpdir);
	CHECK_INT(write_file(path2, "hello\n", 6), 0);
	snprintf(path2, sizeof(path2), "/pe/nope::%s/lib", tmpdir);
	setenv("LD_LIBRARY_PATH", path2, 1);
	CHECK_INT(libpath__find("libpetest.so.3", 0, buf, sizeof(buf)), 0);
	snprintf(path2, sizeof(path2), "%s/lib/libpetest.so.3", tmpdir);
	CHECK_STR(str(buf), str(path2));
	CHECK_INT(libpath__find("libpetest", 0, buf, sizeof(buf)), 0);
	CHECK_STR(str(buf), str(path2));
	CHECK_INT(libpath__find("libpetest.so", 0, buf, sizeof(buf)), 0);
	CHECK_STR(str(buf), str(path2));
	CHECK_INT(libpath__find("libpetxt.so.1", 0, buf, sizeof(buf)), -ENOENT);
	CHECK_INT(libpath__find("libpete", 0, buf, sizeof(buf)), -ENOENT);
	unsetenv("LD_LIBRARY_PATH");
	CHECK_INT(libpath__find("libpetest.so.3", 0, buf, sizeof(buf)), -ENOENT);
}

/* An executable mapping of a file unlinked since: reached through map_files. */
static void test_deleted(void)
{
	char path[PATH_MAX], **list;
	struct stat st;
	bool found = false;
	void *map;
	int fd, n;

	snprintf(path, sizeof(path), "%s/deleted.so", tmpdir);
	if (synth_elf(path, 0) || (fd = open(path, O_RDONLY)) < 0) {
		CHECK(0, "cannot make %s", path);
		return;
	}
	map = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	fstat(fd, &st);
	close(fd);
	unlink(path);
	if (map == MAP_FAILED) {
		printf("skip: the deleted mapping (mmap: %s)\n", strerror(errno));
		return;
	}
	n = libpath__mapped(getpid(), &list);
	for (int i = 0; i < n; i++) {
		struct stat s2;

		CHECK(!strstr(list[i], "(deleted)"), "%s", list[i]);
		if (!stat(list[i], &s2) && s2.st_ino == st.st_ino && s2.st_dev == st.st_dev)
			found = true;
	}
	/* map_files is for root (CAP_SYS_ADMIN) only: others leave the file out */
	if (geteuid() == 0)
		CHECK(found, "the deleted file is listed");
	probe_elf__free_list(list);
	munmap(map, 4096);
}

/* The test binary without section headers: DT_NEEDED through PT_DYNAMIC. */
static void test_no_sections(void)
{
	char path[PATH_MAX], **list, **want = NULL;
	struct probe_elf *pe = NULL;
	struct probe_func f;
	struct usdt_note *notes;
	Elf64_Ehdr *eh;
	size_t len;
	void *buf = read_all("/proc/self/exe", &len);
	int n, nw = -1;

	if (!buf || len < sizeof(*eh)) {
		CHECK(0, "cannot read /proc/self/exe");
		free(buf);
		return;
	}
	if (!probe_elf__open("/proc/self/exe", &pe)) {
		nw = probe_elf__needed(pe, &want);
		probe_elf__delete(pe);
	}
	eh = buf;
	eh->e_shoff = 0;
	eh->e_shnum = 0;
	eh->e_shstrndx = 0;
	snprintf(path, sizeof(path), "%s/nosections", tmpdir);
	CHECK_INT(write_file(path, buf, len), 0);
	free(buf);
	CHECK_INT(probe_elf__open(path, &pe), 0);
	if (!pe) {
		probe_elf__free_list(want);
		return;
	}
	n = probe_elf__needed(pe, &list);
	CHECK(n > 0 && n == nw, "%d vs %d", n, nw);
	for (int i = 0; i < n && i < nw; i++)
		CHECK_STR(list[i], want[i]);
	probe_elf__free_list(list);
	if (nw >= 0)
		probe_elf__free_list(want);
	CHECK_INT(probe_elf__func(pe, "pe_target_fn", &f), -ENOENT);
	CHECK_INT(probe_elf__usdt(pe, "*", "*", &notes, &n), 0);
	CHECK_INT(n, 0);
	probe_elf__delete(pe);
}

/* ---- Files that are refused ---- */

static void test_refused(void)
{
	unsigned char h[64] = { 0x7f, 'E', 'L', 'F', ELFCLASS64, ELFDATA2LSB, EV_CURRENT };
	char path[PATH_MAX], path2[PATH_MAX];
	struct probe_elf *pe = (struct probe_elf *)1;

	CHECK_INT(probe_elf__open("/pe/no/such/file", &pe), -ENOENT);
	CHECK(pe == NULL, "*out cleared");
	CHECK_INT(probe_elf__open(tmpdir, &pe), -EISDIR);
	CHECK_INT(probe_elf__open("/dev/null", &pe), -ENOEXEC);
	snprintf(path, sizeof(path), "%s/fifo", tmpdir);
	if (!mkfifo(path, 0600)) /* no writer: an open that waits for one would hang */
		CHECK_INT(probe_elf__open(path, &pe), -ENOEXEC);
	snprintf(path, sizeof(path), "%s/text", tmpdir);
	write_file(path, "#!/bin/sh\necho this is not an ELF file\n", 39);
	CHECK_INT(probe_elf__open(path, &pe), -ENOEXEC);
	write_file(path, "", 0);
	CHECK_INT(probe_elf__open(path, &pe), -ENOEXEC);
	write_file(path, "\177ELF", 4);
	CHECK_INT(probe_elf__open(path, &pe), -ENOEXEC);

	h[16] = ET_EXEC;
	h[18] = EM_AARCH64;
	h[20] = EV_CURRENT;
	h[52] = 64; /* e_ehsize */
	snprintf(path, sizeof(path), "%s/aarch64", tmpdir);
	CHECK_INT(write_file(path, h, sizeof(h)), 0);
	CHECK_INT(probe_elf__open(path, &pe), -EPROTONOSUPPORT);
	CHECK_INT(libpath__find(path, 0, path2, sizeof(path2)), 0); /* a path is taken as is */
	h[EI_CLASS] = ELFCLASS32;
	h[18] = EM_386;
	h[40] = 52; /* e_ehsize of a 32-bit header */
	CHECK_INT(write_file(path, h, sizeof(h)), 0);
	CHECK_INT(probe_elf__open(path, &pe), -EPROTONOSUPPORT);
	unlink(path);
	if (geteuid() != 0) {
		snprintf(path, sizeof(path), "%s/noperm", tmpdir);
		write_file(path, "x", 1);
		chmod(path, 0);
		CHECK_INT(probe_elf__open(path, &pe), -EACCES);
	}
	probe_elf__delete(NULL);
	usdt_notes__free(NULL, 0);
	probe_elf__free_list(NULL);
}

/* ---- /etc/ld.so.cache ---- */

struct cache_ent {
	u32 flags;
	const char *key, *val;
	u64 hwcap;
};

static size_t cache_make(unsigned char *b, const struct cache_ent *e, int n)
{
	size_t str = 48 + 24 * (size_t)n;
	u32 v;

	memset(b, 0, str);
	memcpy(b, "glibc-ld.so.cache1.1", 20);
	v = (u32)n;
	memcpy(b + 20, &v, 4);
	b[28] = 2;
	for (int i = 0; i < n; i++) {
		unsigned char *p = b + 48 + 24 * i;

		memcpy(p, &e[i].flags, 4);
		v = (u32)str;
		memcpy(p + 4, &v, 4);
		memcpy(b + str, e[i].key, strlen(e[i].key) + 1);
		str += strlen(e[i].key) + 1;
		v = (u32)str;
		memcpy(p + 8, &v, 4);
		memcpy(b + str, e[i].val, strlen(e[i].val) + 1);
		str += strlen(e[i].val) + 1;
		memcpy(p + 16, &e[i].hwcap, 8);
	}
	return str;
}

static void test_cache(void)
{
	static const struct cache_ent ents[] = {
		{ 0x0303, "libx.so.1", "/a/libx.so.1", 0 },
		{ 0x0003, "liby.so.1", "/lib32/liby.so.1", 0 },
		{ 0x0303, "libz.so.2", "/hw/libz.so.2", 1ULL << 62 },
		{ 0x0303, "libz.so.2", "/base/libz.so.2", 0 },
		{ 0x0303, "libx.so", "/a/libx.so", 0 },
	};
	unsigned char b[1024];
	char out[64], path[PATH_MAX];
	size_t len = cache_make(b, ents, 5), clen;
	void *real;
	u32 v;

	CHECK_INT(libpath__cache_lookup(b, len, "libx.so.1", out, sizeof(out)), 0);
	CHECK_STR(str(out), "/a/libx.so.1");
	CHECK_INT(libpath__cache_lookup(b, len, "libx", out, sizeof(out)), 0);
	CHECK_STR(str(out), "/a/libx.so.1");
	CHECK_INT(libpath__cache_lookup(b, len, "libx.so", out, sizeof(out)), 0);
	CHECK_STR(str(out), "/a/libx.so");
	CHECK_INT(libpath__cache_lookup(b, len, "liby.so.1", out, sizeof(out)), -ENOENT);
	CHECK_INT(libpath__cache_lookup(b, len, "libz.so.2", out, sizeof(out)), 0);
	CHECK_STR(str(out), "/base/libz.so.2");
	CHECK_INT(libpath__cache_lookup(b, len, "libw", out, sizeof(out)), -ENOENT);
	CHECK_INT(libpath__cache_lookup(b, len, "libx.so.1", out, 5), -ENAMETOOLONG);
	/* the strings cut off: entries whose strings are past the end are left out */
	CHECK_INT(libpath__cache_lookup(b, len - 20, "libx.so.1", out, sizeof(out)), 0);
	CHECK_INT(libpath__cache_lookup(b, len - 20, "libx.so", out, sizeof(out)), 0);
	CHECK_STR(str(out), "/a/libx.so.1");
	CHECK_INT(libpath__cache_lookup(b, 47, "libx.so.1", out, sizeof(out)), -EINVAL);
	CHECK_INT(libpath__cache_lookup(b, 48 + 24 * 4, "libx.so.1", out, sizeof(out)), -EINVAL);
	v = 0xffffffffu;
	memcpy(b + 20, &v, 4);
	CHECK_INT(libpath__cache_lookup(b, len, "libx.so.1", out, sizeof(out)), -EINVAL);
	len = cache_make(b, ents, 5);
	v = 0x7fffffffu;
	memcpy(b + 48 + 4, &v, 4); /* a key offset far outside */
	CHECK_INT(libpath__cache_lookup(b, len, "libx.so.1", out, sizeof(out)), -ENOENT);
	b[28] = 3; /* big endian */
	CHECK_INT(libpath__cache_lookup(b, len, "libz.so.2", out, sizeof(out)), -EINVAL);
	memcpy(b, "ld.so-1.7.0", 11);
	CHECK_INT(libpath__cache_lookup(b, len, "libz.so.2", out, sizeof(out)), -EINVAL);
	CHECK_INT(libpath__cache_lookup(NULL, 0, "libz.so.2", out, sizeof(out)), -EINVAL);

	real = read_all("/etc/ld.so.cache", &clen);
	if (real) {
		CHECK_INT(libpath__cache_lookup(real, clen, "libc.so.6", path, sizeof(path)), 0);
		CHECK(access(path, F_OK) == 0, "%s", path);
		free(real);
	}
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_cache();
	test_refused();
	test_self();
	test_no_sections();
	test_synth();
	test_deleted();
	test_libc();
	tmp_tree__remove(tmpdir);
	return ut_done("test_probe_elf");
}
