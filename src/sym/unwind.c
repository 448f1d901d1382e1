// SPDX-License-Identifier: GPL-2.0
/*
 * DWARF unwinding of sampled user stacks with libdwfl.
 *
 * One Dwfl per process holds the ELF files it maps (reported at their
 * load bias) and their parsed CFI, and is "attached" once with thread
 * callbacks that answer from the sample being unwound: registers from
 * PERF_SAMPLE_REGS_USER, memory from the PERF_SAMPLE_STACK_USER copy (or
 * from the file for addresses in a mapped ELF).  libdwfl only knows the
 * modules we report, and we cannot list a process's maps, so modules are
 * added lazily: when a frame's PC lies in a mapping that the Dwfl does
 * not know (or knows at another place), the unwind stops, the module is
 * reported (or the Dwfl rebuilt) and the unwind starts again.  With warm
 * caches an unwind is one pass.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uthash.h>

#include <elfutils/libdwfl.h>

#include "sym/unwind.h"
#include "sym/unwind_elf.h"
#include "sym/vdso.h"

#ifndef __x86_64__
/* Only the x86_64 register mapping exists so far: elsewhere, say so. */
struct unwinder {
	int unused;
};

struct unwinder *unwinder__new(void)
{
	return calloc(1, sizeof(struct unwinder));
}

void unwinder__delete(struct unwinder *u)
{
	free(u);
}

int unwinder__user(struct unwinder *u, const struct sample *smp, unwind_find_map_fn find, void *arg,
		   u64 *ips, int max)
{
	(void)u, (void)smp, (void)find, (void)arg, (void)ips, (void)max;
	return -ENOTSUP;
}

void unwinder__forget(struct unwinder *u, u32 pid)
{
	(void)u, (void)pid;
}

u64 unwinder__regs_mask(void)
{
	return 0;
}

#else /* __x86_64__ */

#include <asm/perf_regs.h>

/* Processes whose Dwfl we keep; the least recently used goes first. */
#define UW_MAX_PROCS 256
/* Passes of one unwind that may each add a module or rebuild the Dwfl. */
#define UW_MAX_PASSES 8
/* Map bases (start - pgoff) under which one module was seen. */
#define UW_MOD_BASES 4

struct uw_mod {
	struct uw_mod *next;
	char *path;
	u64 bias;
	u64 bases[UW_MOD_BASES];
};

/* A mapping that could not be reported (deleted file, not ELF, ...):
 * remembered so that every sample does not try to open it again. */
struct uw_bad {
	struct uw_bad *next;
	u64 base;
	char path[];
};

struct uw_proc {
	u32 pid;
	Dwfl *dwfl;
	struct uw_mod *mods;
	struct uw_bad *bad;
	UT_hash_handle hh;
};

enum uw_action { UW_DONE, UW_REPORT, UW_REBUILD };

struct unwinder {
	struct uw_proc *procs; /* uthash, in LRU order */
	unsigned nr_procs;
	Elf *machine; /* gives libdwfl the backend before any module */
	unsigned char ehdr[sizeof(Elf64_Ehdr)];
	int vdso_fd;

	/* The unwind in progress. */
	struct uw_proc *proc;
	const struct sample *smp;
	u64 regs[64];
	u64 have_regs;
	const unsigned char *stack;
	u64 stack_len;
	unwind_find_map_fn find;
	void *arg;
	u64 *ips;
	int max, n;
	enum uw_action action;
	struct unwind_map todo;
	char todo_path[4096];
};

static int no_find_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		       char **file_name, Elf **elfp)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	*elfp = NULL;
	return -1;
}

static const Dwfl_Callbacks uw_dwfl_cbs = {
	.find_elf = no_find_elf,
	.find_debuginfo = uw_find_debuginfo,
};

/* DWARF register n of x86_64 (psABI numbering) is perf register x86_dwarf[n].
 */
static const unsigned char x86_dwarf[17] = {
	PERF_REG_X86_AX,  PERF_REG_X86_DX,  PERF_REG_X86_CX,  PERF_REG_X86_BX,	PERF_REG_X86_SI,
	PERF_REG_X86_DI,  PERF_REG_X86_BP,  PERF_REG_X86_SP,  PERF_REG_X86_R8,	PERF_REG_X86_R9,
	PERF_REG_X86_R10, PERF_REG_X86_R11, PERF_REG_X86_R12, PERF_REG_X86_R13, PERF_REG_X86_R14,
	PERF_REG_X86_R15, PERF_REG_X86_IP,
};

u64 unwinder__regs_mask(void)
{
	u64 mask = 0;
	unsigned i;

	for (i = 0; i < sizeof(x86_dwarf); i++)
		mask |= 1ull << x86_dwarf[i];
	return mask;
}

#define UW_REG_IP PERF_REG_X86_IP
#define UW_REG_SP PERF_REG_X86_SP
#define UW_MACHINE EM_X86_64

static pid_t uw_next_thread(Dwfl *dwfl, void *dwfl_arg, void **thread_argp)
{
	(void)dwfl, (void)dwfl_arg, (void)thread_argp;
	return 0;
}

static bool uw_get_thread(Dwfl *dwfl, pid_t tid, void *dwfl_arg, void **thread_argp)
{
	(void)dwfl, (void)tid;
	*thread_argp = dwfl_arg;
	return true;
}

static bool uw_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwinder *u = arg;
	u64 sp = u->regs[UW_REG_SP];

	if (addr >= sp && u->stack_len >= 8 && addr - sp <= u->stack_len - 8) {
		memcpy(result, u->stack + (addr - sp), 8);
		return true;
	}
	return uw_elf_read_word(dwfl, addr, result);
}

static bool uw_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwinder *u = arg;
	unsigned i;

	/* Only registers the sample has: a missing one must stay undefined
   * rather than become a wrong 0. */
	for (i = 0; i < sizeof(x86_dwarf); i++) {
		Dwarf_Word v = u->regs[x86_dwarf[i]];

		if ((u->have_regs >> x86_dwarf[i]) & 1 &&
		    !dwfl_thread_state_registers(thread, i, 1, &v))
			return false;
	}
	dwfl_thread_state_register_pc(thread, u->regs[UW_REG_IP]);
	return true;
}

static const Dwfl_Thread_Callbacks uw_thread_cbs = {
	.next_thread = uw_next_thread,
	.get_thread = uw_get_thread,
	.memory_read = uw_memory_read,
	.set_initial_registers = uw_set_initial_registers,
};

static void proc_clear(struct uw_proc *p)
{
	struct uw_mod *m;
	struct uw_bad *b;

	dwfl_end(p->dwfl);
	p->dwfl = NULL;
	while ((m = p->mods)) {
		p->mods = m->next;
		free(m->path);
		free(m);
	}
	while ((b = p->bad)) {
		p->bad = b->next;
		free(b);
	}
}

static void proc_delete(struct unwinder *u, struct uw_proc *p)
{
	HASH_DEL(u->procs, p);
	u->nr_procs--;
	proc_clear(p);
	free(p);
}

static int proc_init_dwfl(struct unwinder *u, struct uw_proc *p)
{
	p->dwfl = dwfl_begin(&uw_dwfl_cbs);
	if (!p->dwfl)
		return -ENOMEM;
	if (!dwfl_attach_state(p->dwfl, u->machine, p->pid, &uw_thread_cbs, u)) {
		dwfl_end(p->dwfl);
		p->dwfl = NULL;
		return -ENOTSUP;
	}
	return 0;
}

static struct uw_proc *proc_get(struct unwinder *u, u32 pid)
{
	struct uw_proc *p;

	HASH_FIND(hh, u->procs, &pid, sizeof(pid), p);
	if (p) {
		/* Move to the tail: the head is the least recently used. */
		HASH_DEL(u->procs, p);
		HASH_ADD(hh, u->procs, pid, sizeof(pid), p);
		return p;
	}
	if (u->nr_procs >= UW_MAX_PROCS)
		proc_delete(u, u->procs);
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	if (proc_init_dwfl(u, p)) {
		free(p);
		return NULL;
	}
	HASH_ADD(hh, u->procs, pid, sizeof(pid), p);
	u->nr_procs++;
	return p;
}

static bool is_vdso(const char *path)
{
	return strcmp(path, "[vdso]") == 0;
}

static bool proc_is_bad(const struct uw_proc *p, const struct unwind_map *m)
{
	const struct uw_bad *b;

	for (b = p->bad; b; b = b->next)
		if (b->base == m->start - m->pgoff && strcmp(b->path, m->path) == 0)
			return true;
	return false;
}

static void proc_add_bad(struct uw_proc *p, const struct unwind_map *m)
{
	size_t len = strlen(m->path) + 1;
	struct uw_bad *b = malloc(sizeof(*b) + len);

	if (!b)
		return;
	b->base = m->start - m->pgoff;
	memcpy(b->path, m->path, len);
	b->next = p->bad;
	p->bad = b;
}

static int open_map(struct unwinder *u, const struct unwind_map *m)
{
	int fd;

	if (!is_vdso(m->path)) {
		unsigned pid;
		int n = 0;

		fd = open(m->path, O_RDONLY | O_CLOEXEC);
		/* /proc/PID/root/... stops opening when PID is reaped, often
		 * before its last samples are unwound: then the path as we see
		 * it is the best guess, as the symbol layer does for dead pids. */
		if (fd < 0 && sscanf(m->path, "/proc/%u/root%n", &pid, &n) == 1 && n > 0 &&
		    m->path[n] == '/')
			fd = open(m->path + n, O_RDONLY | O_CLOEXEC);
		return fd;
	}
	if (u->vdso_fd < 0)
		u->vdso_fd = vdso__fd();
	if (u->vdso_fd < 0)
		return -1;
	fd = dup(u->vdso_fd);
	if (fd >= 0)
		lseek(fd, 0, SEEK_SET);
	return fd;
}

/* Report the file of @m to @p's Dwfl.  Returns 0 or -errno. */
static int proc_report(struct unwinder *u, struct uw_proc *p, const struct unwind_map *m)
{
	struct uw_mod *um;
	Dwfl_Module *mod;
	void **slot;
	u64 bias;
	int fd, ret;

	fd = open_map(u, m);
	if (fd < 0)
		return -errno;
	ret = uw_elf_bias(fd, m, &bias);
	if (ret)
		goto err_close;
	ret = -ENOMEM;
	um = calloc(1, sizeof(*um));
	if (!um)
		goto err_close;
	um->path = strdup(m->path);
	if (!um->path)
		goto err_free;
	um->bias = bias;
	um->bases[0] = m->start - m->pgoff;
	dwfl_report_begin_add(p->dwfl);
	/* add_p_vaddr: the module's addresses are its vaddrs plus bias. */
	mod = dwfl_report_elf(p->dwfl, m->path, is_vdso(m->path) ? "[vdso]" : m->path, fd, bias,
			      true);
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!mod) {
		ret = -ENOEXEC;
		goto err_free;
	}
	dwfl_module_info(mod, &slot, NULL, NULL, NULL, NULL, NULL, NULL);
	*slot = um;
	um->next = p->mods;
	p->mods = um;
	return 0;

err_free:
	free(um->path);
	free(um);
err_close:
	close(fd);
	return ret;
}

/* Is the module libdwfl has at @addr the file that is mapped there now? */
static bool module_current(struct unwinder *u, Dwfl_Module *mod, const struct unwind_map *m)
{
	u64 base = m->start - m->pgoff, bias;
	struct uw_mod *um;
	void **slot;
	bool ok;
	int i, fd;

	dwfl_module_info(mod, &slot, NULL, NULL, NULL, NULL, NULL, NULL);
	um = *slot;
	if (!um || strcmp(um->path, m->path))
		return false;
	for (i = 0; i < UW_MOD_BASES && um->bases[i]; i++)
		if (um->bases[i] == base)
			return true;
	/* Another segment of the file, or the file mapped elsewhere. */
	fd = open_map(u, m);
	if (fd < 0)
		return true; /* cannot tell: keep what we have */
	ok = uw_elf_bias(fd, m, &bias) || bias == um->bias;
	close(fd);
	if (ok && i < UW_MOD_BASES)
		um->bases[i] = base;
	return ok;
}

static int uw_frame(Dwfl_Frame *state, void *arg)
{
	struct unwinder *u = arg;
	const struct unwind_map *m;
	Dwfl_Module *mod;
	Dwarf_Addr pc;
	bool act;
	u64 look;

	if (!dwfl_frame_pc(state, &pc, &act) || !pc)
		return DWARF_CB_ABORT;
	/* A return address may be one past the call's function. */
	look = act ? pc : pc - 1;
	mod = dwfl_addrmodule(u->proc->dwfl, look);
	m = u->find(u->arg, look);
	if (m && m->path && !(mod && module_current(u, mod, m))) {
		if (mod) {
			u->action = UW_REBUILD;
			return DWARF_CB_ABORT;
		}
		if ((m->path[0] == '/' || is_vdso(m->path)) && !proc_is_bad(u->proc, m) &&
		    strlen(m->path) < sizeof(u->todo_path)) {
			u->todo = *m;
			strcpy(u->todo_path, m->path);
			u->todo.path = u->todo_path;
			u->action = UW_REPORT;
			return DWARF_CB_ABORT;
		}
	}
	u->ips[u->n++] = pc;
	return u->n < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

static int load_sample(struct unwinder *u, const struct sample *smp)
{
	u64 mask = smp->regs_mask;
	u32 i = 0;
	int bit;

	if (!smp->regs || smp->regs_abi == PERF_SAMPLE_REGS_ABI_NONE)
		return -EINVAL;
	if (smp->regs_abi != PERF_SAMPLE_REGS_ABI_64)
		return -ENOTSUP;
	/* Sampled registers come packed in the order of the mask's bits. */
	u->have_regs = 0;
	for (bit = 0; bit < 64 && i < smp->nr_regs; bit++) {
		if (!((mask >> bit) & 1))
			continue;
		u->regs[bit] = smp->regs[i++];
		u->have_regs |= 1ull << bit;
	}
	if (!((u->have_regs >> UW_REG_IP) & 1) || !((u->have_regs >> UW_REG_SP) & 1))
		return -EINVAL;
	u->stack = smp->stack;
	u->stack_len = smp->stack ? smp->stack_dyn_size : 0;
	if (u->stack_len > smp->stack_size)
		u->stack_len = smp->stack_size;
	return 0;
}

int unwinder__user(struct unwinder *u, const struct sample *smp, unwind_find_map_fn find, void *arg,
		   u64 *ips, int max)
{
	struct uw_proc *p;
	int pass, ret;

	if (max <= 0)
		return 0;
	ret = load_sample(u, smp);
	if (ret)
		return ret;
	if (max == 1 || !find) {
		ips[0] = u->regs[UW_REG_IP];
		return 1;
	}
	p = proc_get(u, smp->pid);
	if (!p) {
		ips[0] = u->regs[UW_REG_IP];
		return 1;
	}
	u->proc = p;
	u->smp = smp;
	u->find = find;
	u->arg = arg;
	u->ips = ips;
	u->max = max;
	for (pass = 0; pass < UW_MAX_PASSES; pass++) {
		u->n = 0;
		u->action = UW_DONE;
		dwfl_getthread_frames(p->dwfl, smp->tid ? smp->tid : smp->pid, uw_frame, u);
		if (u->action == UW_DONE)
			break;
		if (u->action == UW_REBUILD) {
			proc_clear(p);
			if (proc_init_dwfl(u, p))
				break;
		} else if (proc_report(u, p, &u->todo)) {
			proc_add_bad(p, &u->todo);
		}
	}
	if (!p->dwfl)
		proc_delete(u, p);
	u->proc = NULL;
	if (u->n == 0) {
		ips[0] = u->regs[UW_REG_IP];
		u->n = 1;
	}
	return u->n;
}

void unwinder__forget(struct unwinder *u, u32 pid)
{
	struct uw_proc *p;

	if (!u)
		return;
	HASH_FIND(hh, u->procs, &pid, sizeof(pid), p);
	if (p)
		proc_delete(u, p);
}

struct unwinder *unwinder__new(void)
{
	struct unwinder *u;
	Elf64_Ehdr *eh;

	elf_version(EV_CURRENT);
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->vdso_fd = -1;
	/* libdwfl picks its architecture backend from an ELF header. */
	eh = (Elf64_Ehdr *)u->ehdr;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_CORE;
	eh->e_machine = UW_MACHINE;
	eh->e_version = EV_CURRENT;
	eh->e_ehsize = sizeof(*eh);
	u->machine = elf_memory((char *)u->ehdr, sizeof(u->ehdr));
	if (!u->machine) {
		free(u);
		errno = ENOMEM;
		return NULL;
	}
	return u;
}

void unwinder__delete(struct unwinder *u)
{
	struct uw_proc *p, *tmp;

	if (!u)
		return;
	HASH_ITER(hh, u->procs, p, tmp)
	{
		proc_delete(u, p);
	}
	elf_end(u->machine);
	if (u->vdso_fd >= 0)
		close(u->vdso_fd);
	free(u);
}

#endif /* __x86_64__ */
