// SPDX-License-Identifier: GPL-2.0
/* Callchains (and DWARF-unwound user stacks) to named frames. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/json.h"
#include "sym/datasym.h"
#include "sym/ksyms.h"
#include "sym/maps.h"
#include "sym/srcline.h"
#include "sym/stack.h"

#include "sym/unwind.h"

#define MAX_FRAMES 1024
#define MAX_USER 512

static const char unknown[] = "[unknown]";

struct stack_ctx {
	unsigned flags;
	struct dso_cache *dc;
	struct maps *maps;
	struct ksyms *ks;
	bool ks_tried;
	struct unwinder *uw;
	bool uw_tried;
	struct unwind_map um;
	struct srclines *srclines; /* made on first use */
	u32 cur_pid;
	unsigned long long py_frames; /* STACK_PYTHON: kept */
	u64 uips[MAX_USER];
	struct frame buf[MAX_FRAMES];
};

struct stack_ctx *stack_ctx__new(unsigned flags)
{
	struct stack_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->flags = flags;
	ctx->dc = dso_cache__new();
	ctx->maps = ctx->dc ? maps__new(ctx->dc) : NULL;
	if (!ctx->maps) {
		stack_ctx__delete(ctx);
		errno = ENOMEM;
		return NULL;
	}
	return ctx;
}

void stack_ctx__delete(struct stack_ctx *ctx)
{
	if (!ctx)
		return;
	if (ctx->uw)
		unwinder__delete(ctx->uw);
	srclines__delete(ctx->srclines);
	maps__delete(ctx->maps);
	dso_cache__delete(ctx->dc);
	ksyms__delete(ctx->ks);
	free(ctx);
}

void stack__set_warn(void (*warn)(const char *msg))
{
	sym__set_warn(warn);
}

void stack_ctx__print_stats(struct stack_ctx *ctx, FILE *fp)
{
	u64 evicted, vanished;
	u32 live, dead;

	if (!ctx)
		return;
	maps__stats(ctx->maps, &live, &dead, &evicted, &vanished);
	fprintf(fp,
		"perf-prof: process maps: %u live, %u exited kept, %llu exited evicted, %llu "
		"found gone without an exit record\n",
		live, dead, (unsigned long long)evicted, (unsigned long long)vanished);
}

static void forget(struct stack_ctx *ctx, u32 pid)
{
	if (ctx->uw)
		unwinder__forget(ctx->uw, pid);
}

void stack_ctx__mmap2(struct stack_ctx *ctx, const struct rec_mmap2 *m)
{
	if (!ctx || !m || !(m->prot & PROT_EXEC))
		return;
	if (m->has_build_id)
		maps__mmap(ctx->maps, m->pid, m->addr, m->len, m->pgoff, m->filename, 0, 0, 0,
			   m->build_id, m->build_id_size, m->time);
	else
		maps__mmap(ctx->maps, m->pid, m->addr, m->len, m->pgoff, m->filename, m->maj,
			   m->min, m->ino, NULL, 0, m->time);
}

void stack_ctx__comm(struct stack_ctx *ctx, const struct rec_comm *c)
{
	if (!ctx || !c || !c->exec)
		return;
	maps__exec(ctx->maps, c->pid, c->time);
	forget(ctx, c->pid);
}

void stack_ctx__exit(struct stack_ctx *ctx, const struct rec_task *t)
{
	/* a thread's exit is not its process's */
	if (!ctx || !t || t->pid != t->tid)
		return;
	maps__exit(ctx->maps, t->pid);
	forget(ctx, t->pid);
}

void stack_ctx__untracked_ips(struct stack_ctx *ctx, u32 pid, const u64 *ips, int nr)
{
	if (!ctx || !nr || !maps__proc(ctx->maps, pid))
		return;
	for (int i = 0; i < nr; i++)
		if (!maps__in_exec(ctx->maps, pid, i ? ips[i] - 1 : ips[i])) {
			maps__refresh(ctx->maps, pid);
			return;
		}
}

u32 stack_ctx__image(struct stack_ctx *ctx, u32 pid)
{
	return ctx ? maps__image(ctx->maps, pid) : 0;
}

void stack_ctx__fork(struct stack_ctx *ctx, const struct rec_task *t)
{
	if (!ctx || !t || t->pid == t->ppid)
		return;
	maps__fork(ctx->maps, t->ppid, t->pid);
}

static struct ksyms *kernel_syms(struct stack_ctx *ctx)
{
	int err;

	if (ctx->ks_tried)
		return ctx->ks;
	ctx->ks_tried = true;
	err = ksyms__load(NULL, &ctx->ks);
	if (err == -EPERM)
		sym__warn("kernel symbols hidden (/proc/kallsyms shows zero addresses: "
			  "run as root or lower kernel.kptr_restrict); kernel frames stay "
			  "unresolved");
	else if (err)
		sym__warn("cannot read /proc/kallsyms: %s; kernel frames stay unresolved",
			  strerror(-err));
	return ctx->ks;
}

void stack_ctx__preload(struct stack_ctx *ctx)
{
	if (ctx && !(ctx->flags & STACK_USER_ONLY))
		kernel_syms(ctx);
}

int stack__data_sym(struct stack_ctx *ctx, u32 pid, u64 addr, struct data_sym *out)
{
	if (!ctx || !addr)
		return -ENOENT;
	if ((s64)addr < 0)
		return datasym__kernel(kernel_syms(ctx), addr, out);
	return datasym__user(ctx->maps, ctx->dc, pid, addr, out);
}

static void kernel_frame(struct stack_ctx *ctx, u64 addr, bool first, struct frame *f)
{
	const struct sym *s = ksyms__find(kernel_syms(ctx), first ? addr : addr - 1, &f->dso);

	f->addr = addr;
	f->kernel = true;
	f->sym = s ? s->name : unknown;
	f->off = s ? addr - s->start : 0;
}

static void user_frame(struct stack_ctx *ctx, u32 pid, u64 addr, bool first, struct frame *f,
		       struct frame_map *fm)
{
	struct resolved r;

	maps__resolve(ctx->maps, pid, addr, first ? addr : addr - 1, &r);
	f->addr = addr;
	f->kernel = false;
	f->sym = r.sym ? r.sym : unknown;
	f->off = r.sym ? r.off : 0;
	f->dso = r.dso;
	if (!fm)
		return;
	*fm = (struct frame_map){ 0 };
	if (r.map) {
		fm->start = r.map->start;
		fm->end = r.map->end;
		fm->pgoff = r.map->pgoff;
		fm->build_id = dso__build_id(r.map->dso, &fm->build_id_len);
		if (r.in_file) {
			fm->dso = r.map->dso;
			fm->vaddr = r.vaddr;
		}
	}
}

/* @path without a leading "/proc/PID/root" (a process's view, gone with it), or NULL. */
static const char *host_path(const char *path)
{
	const char *p;

	if (!path || strncmp(path, "/proc/", 6))
		return NULL;
	p = path + 6 + strspn(path + 6, "0123456789");
	return p > path + 6 && !strncmp(p, "/root/", 6) ? p + 5 : NULL;
}

int stack__srcline(struct stack_ctx *ctx, const struct frame_map *fm, struct srcline *out)
{
	const char *paths[5];

	if (!ctx || !fm || !fm->dso)
		return -ENOENT;
	if (!ctx->srclines && !(ctx->srclines = srclines__new()))
		return -ENOMEM;
	/*
	 * The debug file, else the file as it was opened, else by its name;
	 * through the process's root, else (the process is gone) the host's.
	 */
	paths[0] = dso__debug_path(fm->dso);
	paths[1] = host_path(paths[0]);
	paths[2] = dso__open_path(fm->dso);
	paths[3] = host_path(paths[2]);
	paths[4] = dso__name(fm->dso);
	for (int i = 0; i < 5; i++)
		if (paths[i] && paths[i][0] == '/' &&
		    !srclines__find(ctx->srclines, paths[i], fm->vaddr, out))
			return 0;
	return -ENOENT;
}

static const struct unwind_map *find_map(void *arg, u64 addr)
{
	struct stack_ctx *ctx = arg;
	const struct map *mp = maps__find(ctx->maps, ctx->cur_pid, addr);
	const char *path;

	if (!mp || !mp->dso)
		return NULL;
	path = !strcmp(dso__name(mp->dso), "[vdso]")
		       ? "[vdso]"
		       : dso__path_for(mp->dso, ctx->cur_pid, mp->start, mp->end);
	if (!path)
		return NULL;
	ctx->um = (struct unwind_map){ mp->start, mp->end, mp->pgoff, path };
	return &ctx->um;
}

/* User IPs from DWARF unwinding, or -1 to use the callchain's user part. */
static int dwarf_user(struct stack_ctx *ctx, const struct sample *smp)
{
	const u64 need = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	int n;

	if ((smp->sample_type & need) != need || !smp->regs || !smp->nr_regs)
		return -1;
	if (!ctx->uw_tried) {
		ctx->uw_tried = true;
		ctx->uw = unwinder__new();
	}
	if (!ctx->uw)
		return -1;
	ctx->cur_pid = smp->pid;
	n = unwinder__user(ctx->uw, smp, find_map, ctx, ctx->uips, MAX_USER);
	return n > 0 ? n : -1;
}

static bool is_python(const struct frame *f)
{
	return !f->kernel && !strncmp(f->sym, "py::", 4);
}

/* STACK_PYTHON: from the innermost Python frame out, only Python frames. */
static int python_only(struct stack_ctx *ctx, struct frame *out, struct frame_map *maps, int n)
{
	int i = 0, j;

	while (i < n && !is_python(&out[i]))
		i++;
	for (j = i; i < n; i++) {
		if (!is_python(&out[i]))
			continue;
		if (maps)
			maps[j] = maps[i];
		out[j++] = out[i];
		ctx->py_frames++;
	}
	return j;
}

unsigned long long stack_ctx__python_frames(const struct stack_ctx *ctx)
{
	return ctx ? ctx->py_frames : 0;
}

int stack__python_map(int pid, char *path, size_t len)
{
	char alt[96];

	snprintf(alt, sizeof(alt), "/proc/%d", pid);
	if (access(alt, F_OK))
		return -ESRCH;
	snprintf(path, len, "/tmp/perf-%d.map", pid);
	if (!access(path, R_OK))
		return 0;
	/* in a container: its /tmp, under the pid it knows itself by */
	snprintf(alt, sizeof(alt), "/proc/%d/root/tmp/perf-%d.map", pid, pid);
	if (!access(alt, R_OK))
		return 0;
	return -ENOENT;
}

int stack__frames(struct stack_ctx *ctx, const struct sample *smp, struct frame *out, int max)
{
	return stack__frames_maps(ctx, smp, out, NULL, max);
}

int stack__frames_maps(struct stack_ctx *ctx, const struct sample *smp, struct frame *out,
		       struct frame_map *maps, int max)
{
	enum { C_NONE, C_KERNEL, C_USER, C_SKIP } cc = C_NONE;
	int n = 0, nu = -1, i;
	bool first = true, want_k, want_u;
	u64 k;

	if (!ctx || !smp || max <= 0)
		return 0;
	want_k = !(ctx->flags & STACK_USER_ONLY);
	want_u = !(ctx->flags & STACK_KERNEL_ONLY);
	if (want_u)
		nu = dwarf_user(ctx, smp);
	for (k = 0; smp->ips && k < smp->nr_ips && n < max; k++) {
		u64 ip = smp->ips[k];
		bool kern;

		if (ip >= PERF_CONTEXT_MAX) {
			cc = ip == PERF_CONTEXT_KERNEL ? C_KERNEL
			     : ip == PERF_CONTEXT_USER ? C_USER
						       : C_SKIP;
			first = true;
			continue;
		}
		if (cc == C_SKIP)
			continue;
		/* no marker: the address half tells */
		kern = cc == C_KERNEL || (cc == C_NONE && (s64)ip < 0);
		if (kern ? !want_k : (!want_u || nu >= 0))
			continue;
		/*
		 * The kernel walks user frame pointers blindly: through code
		 * built without them (Debian's libc) the next "return address"
		 * is whatever the register held.  An address in no executable
		 * mapping cannot be one, and nothing after it can be trusted.
		 */
		if (!kern && !first && !maps__in_exec(ctx->maps, smp->pid, ip)) {
			cc = C_SKIP;
			continue;
		}
		if (kern) {
			kernel_frame(ctx, ip, first, &out[n]);
			/*
			 * A tracepoint with another probe on it (a BPF
			 * program's) calls perf's through __traceiter_NAME:
			 * its frame comes first then, not the traced function.
			 * Left out, so a stack is the same with or without
			 * other tracers on the host.
			 */
			if (first && !strncmp(out[n].sym, "__traceiter_", 12)) {
				first = false;
				continue;
			}
			if (maps)
				maps[n] = (struct frame_map){ 0 };
		} else {
			user_frame(ctx, smp->pid, ip, first, &out[n], maps ? &maps[n] : NULL);
		}
		n++;
		first = false;
	}
	for (i = 0; i < nu && n < max; i++, n++)
		user_frame(ctx, smp->pid, ctx->uips[i], i == 0, &out[n], maps ? &maps[n] : NULL);
	if (ctx->flags & STACK_PYTHON)
		n = python_only(ctx, out, maps, n);
	return n;
}

void stack__print(struct stack_ctx *ctx, const struct sample *smp, FILE *fp, const char *indent)
{
	if (!ctx || !fp)
		return;
	stack__print_frames(ctx, ctx->buf, stack__frames(ctx, smp, ctx->buf, MAX_FRAMES), fp,
			    indent);
}

void stack__print_frames(struct stack_ctx *ctx, const struct frame *frames, int n, FILE *fp,
			 const char *indent)
{
	if (!ctx || !fp)
		return;
	if (!indent)
		indent = "";
	for (int i = 0; i < n; i++) {
		const struct frame *f = &frames[ctx->flags & STACK_REVERSE ? n - 1 - i : i];

		fputs(indent, fp);
		if (!(ctx->flags & STACK_NO_ADDR))
			fprintf(fp, "%016llx ", (unsigned long long)f->addr);
		fputs(f->sym, fp);
		if (!(ctx->flags & STACK_NO_OFFSET) && f->sym != unknown && strcmp(f->sym, unknown))
			fprintf(fp, "+0x%llx", (unsigned long long)f->off);
		if (!(ctx->flags & STACK_NO_DSO)) {
			fputs(" (", fp);
			fputs(f->dso ? f->dso : unknown, fp);
			fputc(')', fp);
		}
		fputc('\n', fp);
	}
}

void stack__json(struct stack_ctx *ctx, const struct sample *smp, struct json *j, const char *key)
{
	if (!ctx || !j)
		return;
	stack__json_frames(ctx, ctx->buf, stack__frames(ctx, smp, ctx->buf, MAX_FRAMES), j, key);
}

void stack__json_frames(struct stack_ctx *ctx, const struct frame *frames, int n, struct json *j,
			const char *key)
{
	if (!ctx || !j)
		return;
	json__arr(j, key);
	for (int i = 0; i < n; i++) {
		const struct frame *f = &frames[ctx->flags & STACK_REVERSE ? n - 1 - i : i];

		json__obj(j, NULL);
		json__hex(j, "addr", f->addr);
		json__str(j, "sym", f->sym);
		if (f->sym != unknown && strcmp(f->sym, unknown))
			json__u64(j, "off", f->off);
		json__str(j, "dso", f->dso);
		json__close(j);
	}
	json__close(j);
}

static u64 maps_now(void *s)
{
	return session__now(s);
}

/* (the records' clock for the maps read from /proc: set where a record gives the session) */
static void on_mmap2(struct session *s, void *priv, const struct rec_mmap2 *m)
{
	struct stack_ctx *ctx = priv;

	if (ctx)
		maps__set_clock(ctx->maps, maps_now, s);
	stack_ctx__mmap2(ctx, m);
}

static void on_comm(struct session *s, void *priv, const struct rec_comm *c)
{
	struct stack_ctx *ctx = priv;

	if (ctx)
		maps__set_clock(ctx->maps, maps_now, s);
	stack_ctx__comm(ctx, c);
}

static void on_exit_rec(struct session *s, void *priv, const struct rec_task *t)
{
	(void)s;
	stack_ctx__exit(priv, t);
}

static void on_fork(struct session *s, void *priv, const struct rec_task *t)
{
	(void)s;
	stack_ctx__fork(priv, t);
}

const struct session_ops stack_ctx__ops = {
	.mmap2 = on_mmap2,
	.comm = on_comm,
	.exit = on_exit_rec,
	.fork = on_fork,
};
