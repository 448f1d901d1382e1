// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of sym/unwind.c on this process's own stack: registers are
 * captured with inline asm and the stack is copied, as the kernel does for
 * PERF_SAMPLE_REGS_USER/STACK_USER, and the unwound IPs must name the
 * functions of the known call chain, also through libc's qsort, which has
 * no frame pointers.
 */
#include <asm/perf_regs.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sym/unwind.h"
#include "sym/unwind_elf.h"
#include "ut.h"

#define STACK_COPY 16384
#define MAX_MAPS 512

struct capture {
	u64 regs[PERF_REG_X86_64_MAX];
	unsigned char stack[STACK_COPY];
	u64 dyn_size;
};

static struct capture cap_chain, cap_qsort;

/* /proc/self/maps, the find-map callback's data */
static struct unwind_map maps[MAX_MAPS];
static char map_paths[MAX_MAPS][256];
static int nr_maps;
static u64 stack_end;
static int find_calls;

static void load_maps(u64 on_stack)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];

	nr_maps = 0;
	while (f && fgets(line, sizeof(line), f) && nr_maps < MAX_MAPS) {
		unsigned long long s, e, off;
		char perm[8];
		int pos = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &s, &e, perm, &off, &pos) < 4)
			continue;
		line[strcspn(line, "\n")] = 0;
		/* not "[stack]": under valgrind the stack is elsewhere */
		if (on_stack >= s && on_stack < e)
			stack_end = e;
		if (line[pos] != '/' && strcmp(line + pos, "[vdso]"))
			continue;
		snprintf(map_paths[nr_maps], sizeof(map_paths[0]), "%s", line + pos);
		maps[nr_maps] = (struct unwind_map){ s, e, off, map_paths[nr_maps] };
		nr_maps++;
	}
	if (f)
		fclose(f);
}

static const struct unwind_map *find_map(void *arg, u64 addr)
{
	int i;

	(void)arg;
	find_calls++;
	for (i = 0; i < nr_maps; i++)
		if (addr >= maps[i].start && addr < maps[i].end)
			return &maps[i];
	return NULL;
}

static const struct unwind_map *find_none(void *arg, u64 addr)
{
	(void)arg, (void)addr;
	return NULL;
}

/* A raw copy of live stack, redzones included: not for the sanitizers'
 * eyes (and no memcpy, which they intercept). */
__attribute__((no_sanitize_address, noinline)) static void copy_stack(void *dst, u64 sp, u64 len)
{
	const volatile u64 *from = (const volatile u64 *)(uintptr_t)sp;
	u64 *to = dst, i;

	for (i = 0; i < len / 8; i++)
		to[i] = from[i];
}

/* Inlined into the function whose frame is to be the innermost one. */
static inline __attribute__((always_inline)) void capture(struct capture *c)
{
	u64 *r = c->regs, sp, len;

	asm volatile("movq %%rax, %c[ax](%[r])\n\t"
		     "movq %%rbx, %c[bx](%[r])\n\t"
		     "movq %%rcx, %c[cx](%[r])\n\t"
		     "movq %%rdx, %c[dx](%[r])\n\t"
		     "movq %%rsi, %c[si](%[r])\n\t"
		     "movq %%rdi, %c[di](%[r])\n\t"
		     "movq %%rbp, %c[bp](%[r])\n\t"
		     "movq %%rsp, %c[sp](%[r])\n\t"
		     "movq %%r8, %c[r8](%[r])\n\t"
		     "movq %%r9, %c[r9](%[r])\n\t"
		     "movq %%r10, %c[r10](%[r])\n\t"
		     "movq %%r11, %c[r11](%[r])\n\t"
		     "movq %%r12, %c[r12](%[r])\n\t"
		     "movq %%r13, %c[r13](%[r])\n\t"
		     "movq %%r14, %c[r14](%[r])\n\t"
		     "movq %%r15, %c[r15](%[r])\n\t"
		     "leaq 1f(%%rip), %%rax\n\t"
		     "1: movq %%rax, %c[ip](%[r])\n\t"
		     :
		     : [r] "r"(r), [ax] "i"(PERF_REG_X86_AX * 8), [bx] "i"(PERF_REG_X86_BX * 8),
		       [cx] "i"(PERF_REG_X86_CX * 8), [dx] "i"(PERF_REG_X86_DX * 8),
		       [si] "i"(PERF_REG_X86_SI * 8), [di] "i"(PERF_REG_X86_DI * 8),
		       [bp] "i"(PERF_REG_X86_BP * 8), [sp] "i"(PERF_REG_X86_SP * 8),
		       [r8] "i"(PERF_REG_X86_R8 * 8), [r9] "i"(PERF_REG_X86_R9 * 8),
		       [r10] "i"(PERF_REG_X86_R10 * 8), [r11] "i"(PERF_REG_X86_R11 * 8),
		       [r12] "i"(PERF_REG_X86_R12 * 8), [r13] "i"(PERF_REG_X86_R13 * 8),
		       [r14] "i"(PERF_REG_X86_R14 * 8), [r15] "i"(PERF_REG_X86_R15 * 8),
		       [ip] "i"(PERF_REG_X86_IP * 8)
		     : "rax", "memory");
	/* As the kernel does: copy from sp up to the end of the stack at most. */
	sp = r[PERF_REG_X86_SP];
	len = stack_end > sp && stack_end - sp < STACK_COPY ? stack_end - sp : STACK_COPY;
	copy_stack(c->stack, sp, len);
	c->dyn_size = len;
}

static volatile int sink;

/* Built without frame pointers where the compiler allows it: the chain
 * must not depend on them. */
#if defined(__GNUC__) && !defined(__clang__)
#define NO_FP __attribute__((noinline, optimize("omit-frame-pointer")))
#else
#define NO_FP __attribute__((noinline))
#endif

__attribute__((noinline)) int test_fn3(int x)
{
	capture(&cap_chain);
	return x + sink;
}

NO_FP int test_fn2(int x)
{
	return test_fn3(x + 1) + sink;
}

__attribute__((noinline)) int test_fn1(int x)
{
	return test_fn2(x + 1) + sink;
}

static int captured_in_cmp;

__attribute__((noinline)) int test_cmp(const void *a, const void *b)
{
	if (!captured_in_cmp++)
		capture(&cap_qsort);
	return *(const int *)a - *(const int *)b;
}

__attribute__((noinline)) int test_sort(void)
{
	int v[4] = { 4, 2, 3, 1 };

	qsort(v, 4, sizeof(v[0]), test_cmp);
	return v[0] + sink;
}

/* Names from .symtab of our own executable (it need not export them). */
static const char *exe_sym(u64 addr)
{
	static Elf *elf;
	static Elf_Scn *symscn;
	static u64 bias;
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	size_t i, n;
	Dl_info di;

	if (!elf) {
		int fd = open("/proc/self/exe", O_RDONLY);

		elf_version(EV_CURRENT);
		elf = elf_begin(fd, ELF_C_READ, NULL);
		while ((scn = elf_nextscn(elf, scn)))
			if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
				symscn = scn;
		if (gelf_getehdr(elf, &eh) && eh.e_type == ET_DYN && dladdr((void *)test_fn1, &di))
			bias = (u64)(uintptr_t)di.dli_fbase;
	}
	if (!symscn || !gelf_getshdr(symscn, &sh))
		return NULL;
	data = elf_getdata(symscn, NULL);
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		GElf_Sym s;

		if (!gelf_getsym(data, i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC)
			continue;
		if (addr - bias >= s.st_value && addr - bias < s.st_value + s.st_size)
			return elf_strptr(elf, sh.sh_link, s.st_name);
	}
	return NULL;
}

/* "test_fn2", "[libc]" for anything in libc, or "?" */
static const char *name_of(const u64 *ips, int i)
{
	u64 look = i ? ips[i] - 1 : ips[i]; /* return addresses after frame 0 */
	const char *s = exe_sym(look);
	Dl_info di;

	if (s)
		return s;
	if (dladdr((void *)(uintptr_t)look, &di) && di.dli_fname && strstr(di.dli_fname, "libc.so"))
		return "[libc]";
	return "?";
}

static void make_sample(const struct capture *c, struct sample *s, u64 *regs)
{
	u64 mask = unwinder__regs_mask();
	int bit, n = 0;

	memset(s, 0, sizeof(*s));
	s->pid = getpid();
	s->tid = gettid();
	s->regs_abi = PERF_SAMPLE_REGS_ABI_64;
	s->regs_mask = mask;
	for (bit = 0; bit < PERF_REG_X86_64_MAX; bit++)
		if ((mask >> bit) & 1)
			regs[n++] = c->regs[bit];
	s->nr_regs = n;
	s->regs = regs;
	s->stack = c->stack;
	s->stack_size = STACK_COPY;
	s->stack_dyn_size = c->dyn_size;
}

static int unwind(struct unwinder *u, const struct capture *c, unwind_find_map_fn find, u64 *ips,
		  int max)
{
	struct sample s;
	u64 regs[64];

	make_sample(c, &s, regs);
	return unwinder__user(u, &s, find, NULL, ips, max);
}

static void dump(const char *what, const u64 *ips, int n)
{
	int i;

	printf("# %s:", what);
	for (i = 0; i < n; i++)
		printf(" %s", name_of(ips, i));
	printf("\n");
}

static int index_of(const u64 *ips, int n, int from, const char *name)
{
	int i;

	for (i = from; i < n; i++)
		if (strcmp(name_of(ips, i), name) == 0)
			return i;
	return -1;
}

static void test_chain(struct unwinder *u)
{
	u64 ips[64];
	int n = unwind(u, &cap_chain, find_map, ips, 64);

	dump("chain", ips, n);
	CHECK(n >= 4, "n = %d", n);
	if (n < 4)
		return;
	CHECK_INT(ips[0], cap_chain.regs[PERF_REG_X86_IP]);
	CHECK_STR(name_of(ips, 0), "test_fn3");
	CHECK_STR(name_of(ips, 1), "test_fn2");
	CHECK_STR(name_of(ips, 2), "test_fn1");
	CHECK_STR(name_of(ips, 3), "main");
	/* past main: libc's start code, and nothing unnamed in between */
	CHECK(n >= 5 && strcmp(name_of(ips, 4), "[libc]") == 0, "frame 4 %s",
	      n >= 5 ? name_of(ips, 4) : "-");
}

static void test_through_libc(struct unwinder *u)
{
	u64 ips[64];
	int n = unwind(u, &cap_qsort, find_map, ips, 64), sort, m;

	dump("qsort", ips, n);
	CHECK(n >= 4, "n = %d", n);
	if (n < 4)
		return;
	CHECK_STR(name_of(ips, 0), "test_cmp");
	sort = index_of(ips, n, 2, "test_sort");
	m = index_of(ips, n, 2, "main");
	CHECK(sort > 1 && m == sort + 1, "test_sort at %d, main at %d", sort, m);
	/* AddressSanitizer puts its own qsort in between instead of libc's */
	for (int i = 1; i < sort; i++)
		CHECK(!strcmp(name_of(ips, i), "[libc]") || strstr(name_of(ips, i), "qsort"),
		      "frame %d: %s", i, name_of(ips, i));
}

static void test_limits(struct unwinder *u)
{
	struct capture *junk = malloc(sizeof(*junk));
	struct sample s;
	u64 ips[64], regs[64];
	int n, i;

	/* max is honoured */
	n = unwind(u, &cap_chain, find_map, ips, 2);
	CHECK_INT(n, 2);
	n = unwind(u, &cap_chain, find_map, ips, 1);
	CHECK_INT(n, 1);
	CHECK_INT(ips[0], cap_chain.regs[PERF_REG_X86_IP]);
	CHECK_INT(unwind(u, &cap_chain, find_map, ips, 0), 0);

	/* no maps known: at least the sampled IP, no crash */
	n = unwind(u, &cap_chain, find_none, ips, 64);
	CHECK(n >= 1 && ips[0] == cap_chain.regs[PERF_REG_X86_IP], "n = %d", n);

	/* a stack copy cut short ends the chain early but correctly */
	make_sample(&cap_chain, &s, regs);
	s.stack_dyn_size = 16;
	unwinder__forget(u, getpid());
	n = unwinder__user(u, &s, find_map, NULL, ips, 64);
	CHECK(n >= 1 && n < 4, "n = %d", n);
	CHECK_STR(name_of(ips, 0), "test_fn3");

	/* no registers (kernel thread), 32-bit process */
	make_sample(&cap_chain, &s, regs);
	s.regs_abi = PERF_SAMPLE_REGS_ABI_NONE;
	CHECK_INT(unwinder__user(u, &s, find_map, NULL, ips, 64), -EINVAL);
	s.regs_abi = PERF_SAMPLE_REGS_ABI_32;
	CHECK_INT(unwinder__user(u, &s, find_map, NULL, ips, 64), -ENOTSUP);
	s.regs_abi = PERF_SAMPLE_REGS_ABI_64;
	s.regs_mask = 1ull << PERF_REG_X86_IP;
	s.nr_regs = 1;
	CHECK_INT(unwinder__user(u, &s, find_map, NULL, ips, 64), -EINVAL);

	/* garbage registers and stack: terminates, no crash */
	srand(1);
	for (int round = 0; round < 200; round++) {
		for (i = 0; i < PERF_REG_X86_64_MAX; i++)
			junk->regs[i] = ((u64)rand() << 32) ^ rand();
		for (i = 0; i < STACK_COPY; i++)
			junk->stack[i] = rand();
		/* half of them with an IP that really is code */
		if (round & 1)
			junk->regs[PERF_REG_X86_IP] = (u64)(uintptr_t)test_fn2 + 3;
		junk->dyn_size = (round * 97) % STACK_COPY;
		n = unwind(u, junk, find_map, ips, 64);
		CHECK(n >= 1 && n <= 64, "round %d n = %d", round, n);
	}
	free(junk);
}

static void test_forget(struct unwinder *u)
{
	u64 ips[64];
	int n;

	unwinder__forget(u, getpid());
	unwinder__forget(u, 999999); /* unknown pid: nothing */
	n = unwind(u, &cap_chain, find_map, ips, 64);
	CHECK(n >= 4 && strcmp(name_of(ips, 3), "main") == 0, "n = %d", n);
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void test_speed(struct unwinder *u)
{
	u64 ips[64];
	double t0, cold, warm;
	int i, loops = getenv("UT_QUICK") ? 200 : 20000;

	unwinder__forget(u, getpid());
	t0 = now_us();
	unwind(u, &cap_qsort, find_map, ips, 64);
	cold = now_us() - t0;
	find_calls = 0;
	t0 = now_us();
	for (i = 0; i < loops; i++)
		unwind(u, &cap_qsort, find_map, ips, 64);
	warm = (now_us() - t0) / loops;
	printf("# unwind: cold %.0f us, warm %.2f us/sample (%d frames, %.1f find "
	       "calls)\n",
	       cold, warm, unwind(u, &cap_qsort, find_map, ips, 64), (double)find_calls / loops);
}

/*
 * A PT_LOAD whose p_offset is near 2^64: offset + 8 wraps to a small number,
 * which must not pass as "inside the file".  The good segment is the control.
 */
static void test_hostile_phdr(void)
{
	char path[] = "/tmp/test_unwind_phdr.XXXXXX";
	struct {
		Elf64_Ehdr eh;
		Elf64_Phdr ph[2];
		u64 data[2];
	} img = { 0 };
	Dwfl_Callbacks cb = { .find_elf = dwfl_build_id_find_elf,
			      .find_debuginfo = dwfl_standard_find_debuginfo };
	Dwarf_Addr bias = 0;
	Dwarf_Word w = 0;
	Dwfl_Module *mod;
	Dwfl *dwfl;
	int fd;

	memcpy(img.eh.e_ident, ELFMAG, SELFMAG);
	img.eh.e_ident[EI_CLASS] = ELFCLASS64;
	img.eh.e_ident[EI_DATA] = ELFDATA2LSB;
	img.eh.e_ident[EI_VERSION] = EV_CURRENT;
	img.eh.e_type = ET_DYN;
	img.eh.e_machine = EM_X86_64;
	img.eh.e_version = EV_CURRENT;
	img.eh.e_phoff = offsetof(typeof(img), ph);
	img.eh.e_ehsize = sizeof(img.eh);
	img.eh.e_phentsize = sizeof(img.ph[0]);
	img.eh.e_phnum = 2;
	img.ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD,
				  .p_offset = 0xfffffffffffffff8ull,
				  .p_vaddr = 0x1000,
				  .p_filesz = 16,
				  .p_memsz = 16,
				  .p_align = 8 };
	img.ph[1] = (Elf64_Phdr){ .p_type = PT_LOAD,
				  .p_offset = offsetof(typeof(img), data),
				  .p_vaddr = 0x2000,
				  .p_filesz = 16,
				  .p_memsz = 16,
				  .p_align = 8 };
	img.data[0] = 0x1122334455667788ull;
	img.data[1] = 0x99aabbccddeeff00ull;
	fd = mkstemp(path);
	if (fd < 0 || write(fd, &img, sizeof(img)) != (ssize_t)sizeof(img)) {
		CHECK(0, "write %s", path);
		return;
	}
	dwfl = dwfl_begin(&cb);
	dwfl_report_begin(dwfl);
	mod = dwfl_report_elf(dwfl, "hostile", path, fd, 0x10000, false);
	CHECK(mod != NULL, "report hostile ELF: %s", dwfl_errmsg(-1));
	dwfl_report_end(dwfl, NULL, NULL);
	if (mod && dwfl_module_getelf(mod, &bias)) {
		CHECK(!uw_elf_read_word(dwfl, bias + 0x1000, &w),
		      "wrapping p_offset refused (got %#llx)", (unsigned long long)w);
		CHECK(!uw_elf_read_word(dwfl, bias + 0x1008, &w),
		      "wrapping p_offset refused at +8");
		CHECK(uw_elf_read_word(dwfl, bias + 0x2008, &w) && w == 0x99aabbccddeeff00ull,
		      "good segment reads %#llx", (unsigned long long)w);
		CHECK(!uw_elf_read_word(dwfl, bias + 0x200c, &w), "read past the segment refused");
	}
	dwfl_end(dwfl);
	close(fd);
	unlink(path);
}

int main(void)
{
	struct unwinder *u;
	int here;

	load_maps((u64)(uintptr_t)&here);
	test_fn1(1);
	test_sort();
	test_hostile_phdr();
	CHECK(unwinder__regs_mask() & (1ull << PERF_REG_X86_IP), "mask");
	u = unwinder__new();
	CHECK(u != NULL, "unwinder__new: %s", strerror(errno));
	if (!u)
		return ut_done("unwind");
	test_chain(u);
	test_through_libc(u);
	test_limits(u);
	test_forget(u);
	test_speed(u);
	unwinder__delete(u);
	unwinder__delete(NULL);
	return ut_done("unwind");
}
