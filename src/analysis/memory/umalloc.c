// SPDX-License-Identifier: GPL-2.0
/*
 * User-space allocator probes (see umalloc.h).  An allocating function has
 * an entry probe (its size arguments, in the sample's registers) and a
 * return probe (the pointer in %rax, and the stack); a freeing one only an
 * entry probe.  Per thread, entries wait on a small stack for their
 * returns: only the outermost call of a nest counts.  A delete's free
 * inside it is recognized by its pointer.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <asm/perf_regs.h>
#include <uthash.h>

#include "analysis/memory/umalloc.h"
#include "engine/probe.h"
#include "sym/probe_elf.h"
#include "util/hash.h"

#define NEST_MAX 16
#define MEMPTR_STACK 2048 /* bytes of user stack copied at posix_memalign's return */

enum fn_kind {
	K_ALLOC,   /* size args -> pointer */
	K_REALLOC, /* old pointer, size -> pointer */
	K_MEMPTR,  /* posix_memalign: *arg1 = pointer, returns 0 */
	K_FREE,	   /* free(arg1) */
	K_DELETE,  /* operator delete(arg1): frees through free() */
	K_MMAP,	   /* mmap(addr, len, ...) -> pointer, MAP_FAILED on error */
	K_MUNMAP,  /* munmap(arg1, arg2) */
};

struct ufn {
	const char *name;
	enum fn_kind kind;
	unsigned char size, size2; /* argument numbers (1-based) of the size, 0: none */
	bool mmap;		   /* only with --mmap */
};

static const struct ufn fns[] = {
	{ "malloc", K_ALLOC, 1, 0, false },
	{ "calloc", K_ALLOC, 1, 2, false },
	{ "realloc", K_REALLOC, 2, 0, false },
	{ "reallocarray", K_REALLOC, 2, 3, false },
	{ "memalign", K_ALLOC, 2, 0, false },
	{ "aligned_alloc", K_ALLOC, 2, 0, false },
	{ "valloc", K_ALLOC, 1, 0, false },
	{ "pvalloc", K_ALLOC, 1, 0, false },
	{ "posix_memalign", K_MEMPTR, 3, 0, false },
	{ "free", K_FREE, 0, 0, false },
	{ "_Znwm", K_ALLOC, 1, 0, false },
	{ "_Znam", K_ALLOC, 1, 0, false },
	{ "_ZnwmRKSt9nothrow_t", K_ALLOC, 1, 0, false },
	{ "_ZnamRKSt9nothrow_t", K_ALLOC, 1, 0, false },
	{ "_ZnwmSt11align_val_t", K_ALLOC, 1, 0, false },
	{ "_ZnamSt11align_val_t", K_ALLOC, 1, 0, false },
	{ "_ZnwmSt11align_val_tRKSt9nothrow_t", K_ALLOC, 1, 0, false },
	{ "_ZnamSt11align_val_tRKSt9nothrow_t", K_ALLOC, 1, 0, false },
	{ "_ZdlPv", K_DELETE, 0, 0, false },
	{ "_ZdaPv", K_DELETE, 0, 0, false },
	{ "_ZdlPvm", K_DELETE, 0, 0, false },
	{ "_ZdaPvm", K_DELETE, 0, 0, false },
	{ "_ZdlPvSt11align_val_t", K_DELETE, 0, 0, false },
	{ "_ZdaPvSt11align_val_t", K_DELETE, 0, 0, false },
	{ "_ZdlPvmSt11align_val_t", K_DELETE, 0, 0, false },
	{ "_ZdaPvmSt11align_val_t", K_DELETE, 0, 0, false },
	{ "mmap", K_MMAP, 2, 0, true },
	{ "munmap", K_MUNMAP, 2, 0, true },
};

#define NR_FNS (int)(sizeof(fns) / sizeof(fns[0]))

/* What an event of ours is. */
struct uev {
	struct evsel *ev;
	int fn;
	bool ret;
};

struct call {
	int fn;
	u64 a1, size;
	u64 sp; /* at the entry: the return address's slot */
};

struct uthread {
	UT_hash_handle hh;
	u32 tid;
	int depth;
	struct call calls[NEST_MAX];
	u64 deleting; /* the pointer a delete is freeing (its free() inside is the same) */
};

struct umalloc {
	const struct umalloc_ops *ops;
	void *arg;
	struct uev *evs;
	int nr_evs, cap_evs;
	struct ev_spec *specs; /* the probes' specs: the events point at them */
	int nr_specs;
	struct uthread *threads;
	struct umalloc_stats st;
};

static bool is_alloc(enum fn_kind k)
{
	return k == K_ALLOC || k == K_REALLOC || k == K_MEMPTR || k == K_MMAP;
}

/* The files whose allocators the target calls. */
static int target_files(struct session *s, char ***files)
{
	const struct target_opts *t = session__conf(s)->target;
	char path[PATH_MAX];
	int ret;

	if (t->nr_pids || t->nr_tids)
		return libpath__mapped(t->nr_pids ? t->pids[0] : t->tids[0], files);
	if (!t->argv || !t->argv[0])
		return session__usage_err(
			s, "--user probes a process's allocators: give -p PID or -- COMMAND");
	ret = libpath__command(t->argv[0], path, sizeof(path));
	if (ret)
		return session__usage_err(s, "cannot find the command '%s'", t->argv[0]);
	return libpath__closure(path, files);
}

static int add_probe(struct session *s, struct umalloc *u, const char *file, int fn, bool ret,
		     const struct evsel_conf *conf)
{
	struct ev_spec *sp = &u->specs[u->nr_specs];
	struct ev_spec_err perr;
	struct ev_spec *one = NULL;
	char text[PATH_MAX + 128];
	struct evsel *tail = NULL;
	int nr = 0, err;

	snprintf(text, sizeof(text), "%s:%s@\"%s\"", ret ? "uretprobe" : "uprobe", fns[fn].name,
		 file);
	if (evspec__parse(text, &one, &nr, &perr) || nr != 1) {
		evspec__free(one, nr);
		return session__set_err(s, -EINVAL, "cannot probe '%s': %s", text, perr.msg);
	}
	*sp = one[0]; /* the array keeps the spec: the event points at it */
	free(one);
	u->nr_specs++;
	for (struct evsel *e = session__evsels(s); e; e = e->next)
		tail = e;
	err = session__add_spec(s, sp, conf);
	if (err < 0)
		return err;
	for (struct evsel *e = tail ? tail->next : session__evsels(s); e; e = e->next) {
		if (umalloc__watch(u, e, fns[fn].name, ret))
			return session__set_err(s, -ENOMEM, "out of memory");
		if (ret && fns[fn].kind == K_MEMPTR) {
			/* *memptr is read from the caller's stack, copied with the sample */
			e->attr.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
			e->attr.sample_regs_user |= 1ULL << PERF_REG_X86_SP;
			if (!e->attr.sample_stack_user)
				e->attr.sample_stack_user = MEMPTR_STACK;
		}
	}
	u->st.probes++;
	return 0;
}

struct umalloc *umalloc__new(const struct umalloc_ops *ops, void *arg)
{
	struct umalloc *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->ops = ops;
	u->arg = arg;
	return u;
}

int umalloc__watch(struct umalloc *u, struct evsel *ev, const char *fn, bool ret)
{
	struct uev *ue;
	int f;

	for (f = 0; f < NR_FNS && strcmp(fns[f].name, fn); f++)
		;
	if (f == NR_FNS)
		return -ENOENT;
	if (u->nr_evs == u->cap_evs) {
		int cap = u->cap_evs ? u->cap_evs * 2 : 64;

		ue = realloc(u->evs, cap * sizeof(*ue));
		if (!ue)
			return -ENOMEM;
		u->evs = ue;
		u->cap_evs = cap;
	}
	ue = &u->evs[u->nr_evs++];
	ue->ev = ev;
	ue->fn = f;
	ue->ret = ret;
	return 0;
}

static const struct session_ops umalloc_ops;
static void on_uev(struct session *s, void *priv, struct evsel *ev, struct sample *smp);

int umalloc__add(struct session *s, bool mmap, const struct umalloc_ops *ops, void *arg,
		 struct umalloc **out)
{
	struct umalloc *u = umalloc__new(ops, arg);
	char **files = NULL;
	int n, err = 0;

	*out = NULL;
	if (!u)
		return session__set_err(s, -ENOMEM, "out of memory");
	n = target_files(s, &files);
	if (n < 0) {
		free(u);
		if (n == -ESRCH)
			return session__usage_err(s, "no such process");
		if (session__strerror(s))
			return n;
		return session__set_err(s, n, "cannot read the target's files: %s", strerror(-n));
	}
	/* at most every function twice per file: the events point into it, never moved */
	u->specs = calloc((size_t)(n ? n : 1) * NR_FNS * 2, sizeof(*u->specs));
	if (!u->specs)
		err = session__set_err(s, -ENOMEM, "out of memory");
	for (int i = 0; !err && i < n; i++) {
		struct probe_elf *pe;
		bool any = false;

		if (probe_elf__open(files[i], &pe))
			continue;
		for (int f = 0; !err && f < NR_FNS; f++) {
			struct probe_func pf;
			enum fn_kind k = fns[f].kind;

			if ((fns[f].mmap && !mmap) || probe_elf__func(pe, fns[f].name, &pf) ||
			    pf.ifunc)
				continue;
			any = true;
			err = add_probe(s, u, files[i], f, false,
					&(struct evsel_conf){ .callchain = false });
			if (!err && is_alloc(k))
				err = add_probe(s, u, files[i], f, true,
						&(struct evsel_conf){ .callchain = true });
		}
		u->st.files += any;
		probe_elf__delete(pe);
	}
	probe_elf__free_list(files);
	if (!err && !u->st.probes)
		err = session__usage_err(s, "no allocator (malloc, free, new...) found in the "
					    "target's files");
	for (int i = 0; !err && i < u->nr_evs; i++)
		evsel__set_handler(u->evs[i].ev, on_uev, u);
	if (!err)
		err = session__add_ops(s, &umalloc_ops, u);
	if (err) {
		umalloc__delete(u);
		return err;
	}
	*out = u;
	return 0;
}

static struct uev *find_ev(struct umalloc *u, struct evsel *ev)
{
	/* few events: a scan beats a hash here */
	for (int i = 0; i < u->nr_evs; i++)
		if (u->evs[i].ev == ev)
			return &u->evs[i];
	return NULL;
}

static struct uthread *thread(struct umalloc *u, u32 tid)
{
	struct uthread *t;

	HASH_FIND(hh, u->threads, &tid, sizeof(tid), t);
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return NULL;
		t->tid = tid;
		HASH_ADD(hh, u->threads, tid, sizeof(tid), t);
	}
	return t;
}

static u64 sp_of(const struct sample *smp)
{
	struct field f = { .in_regs = true, .valid = true, .size = 8, .reg = PERF_REG_X86_SP };
	u64 sp = 0;

	field__u64(&f, smp, &sp);
	return sp;
}

/*
 * Calls the stack has left without a return (an exception or longjmp
 * through an allocator): their slots are below @sp (the stack grows
 * down), or at it for a new call of the same function from the same
 * frame.  A call to another function at the same slot is a tail call
 * (operator new[] jumps to operator new): both return there, inner first.
 */
static void unwind_to(struct umalloc *u, struct uthread *t, u64 sp, int fn, bool entry)
{
	while (t->depth > 0 && t->depth <= NEST_MAX && sp) {
		const struct call *c = &t->calls[t->depth - 1];

		if (!c->sp ||
		    (entry ? c->sp > sp || (c->sp == sp && c->fn != fn) : c->sp + 8 >= sp))
			return;
		t->depth--;
		u->st.unwound++;
	}
}

static u64 reg_arg(const struct evsel *ev, const struct sample *smp, int n)
{
	char name[8];
	struct field f;
	u64 v = 0;

	snprintf(name, sizeof(name), "arg%d", n);
	if (probe__field(ev, name, &f, NULL) || field__u64(&f, smp, &v))
		return 0;
	return v;
}

/* *memptr of posix_memalign: from the stack copied at its return, else from the process. */
static u64 memptr_value(struct umalloc *u, const struct evsel *ev, const struct sample *smp,
			u64 memptr)
{
	struct field f = { .in_regs = true, .valid = true, .size = 8, .reg = PERF_REG_X86_SP };
	u64 sp = 0, v = 0;

	(void)ev;
	if (!field__u64(&f, smp, &sp) && smp->stack && memptr >= sp &&
	    memptr - sp + 8 <= smp->stack_dyn_size) {
		memcpy(&v, (const char *)smp->stack + (memptr - sp), 8);
		return v;
	}
	struct iovec local = { &v, 8 }, remote = { (void *)(uintptr_t)memptr, 8 };

	u->st.late_reads++;
	if (process_vm_readv((pid_t)smp->pid, &local, 1, &remote, 1, 0) != 8)
		return 0;
	return v;
}

static void entry(struct umalloc *u, struct session *s, const struct uev *ue,
		  const struct sample *smp)
{
	const struct ufn *fn = &fns[ue->fn];
	struct uthread *t = thread(u, smp->tid);
	u64 a1 = reg_arg(ue->ev, smp, 1);

	if (!t)
		return;
	unwind_to(u, t, sp_of(smp), ue->fn, true);
	/* a delete's own free() (or inner delete) comes right after it, with its pointer */
	if (t->deleting && (fn->kind == K_FREE || fn->kind == K_DELETE) && t->deleting == a1) {
		if (fn->kind == K_FREE) /* the end of the chain */
			t->deleting = 0;
		u->st.nested++;
		return;
	}
	t->deleting = 0;
	switch (fn->kind) {
	case K_FREE:
		if (t->depth) { /* inside realloc or another allocator */
			u->st.nested++;
			return;
		}
		u->ops->free(u->arg, s, smp, a1);
		return;
	case K_DELETE:
		t->deleting = a1;
		u->ops->free(u->arg, s, smp, a1);
		return;
	case K_MUNMAP:
		if (t->depth) {
			u->st.nested++;
			return;
		}
		u->ops->free(u->arg, s, smp, a1);
		return;
	default:
		break;
	}
	if (t->depth < NEST_MAX) {
		struct call *c = &t->calls[t->depth];

		c->fn = ue->fn;
		c->a1 = a1;
		c->sp = sp_of(smp);
		c->size = fn->size ? reg_arg(ue->ev, smp, fn->size) : 0;
		if (fn->size2)
			c->size *= reg_arg(ue->ev, smp, fn->size2);
	}
	if (t->depth)
		u->st.nested++;
	t->depth++;
}

static void ret(struct umalloc *u, struct session *s, const struct uev *ue,
		const struct sample *smp)
{
	const struct ufn *fn = &fns[ue->fn];
	struct uthread *t = thread(u, smp->tid);
	struct sample copy = *smp;
	struct call *c;
	u64 ptr = 0;
	struct field f;

	if (!t)
		return;
	t->deleting = 0;
	unwind_to(u, t, sp_of(smp), ue->fn, false);
	if (!t->depth || (t->depth <= NEST_MAX && t->calls[t->depth - 1].fn != ue->fn)) {
		u->st.unmatched++;
		t->depth = 0;
		return;
	}
	if (--t->depth)
		return; /* nested: the outer call counts */
	c = &t->calls[0];
	if (!probe__field(ue->ev, "retval", &f, NULL))
		field__u64(&f, smp, &ptr);
	/* the stack copy was for *memptr only, unless it is a DWARF unwind's */
	if (!(smp->sample_type & PERF_SAMPLE_STACK_USER) ||
	    ue->ev->attr.sample_stack_user == MEMPTR_STACK) {
		copy.sample_type &= ~(u64)PERF_SAMPLE_STACK_USER;
		copy.stack = NULL;
		copy.stack_size = copy.stack_dyn_size = 0;
	}
	switch (fn->kind) {
	case K_MEMPTR:
		if (ptr != 0) { /* an error number: it failed */
			ptr = 0;
			break;
		}
		ptr = memptr_value(u, ue->ev, smp, c->a1);
		if (!ptr) { /* succeeded, but the result could not be read */
			u->st.unreadable++;
			return;
		}
		break;
	case K_MMAP:
		if (ptr == (u64)-1)
			ptr = 0;
		break;
	case K_REALLOC:
		/* realloc(p, 0) frees p and may return NULL: not a failure */
		if (c->a1 && (ptr || !c->size))
			u->ops->free(u->arg, s, smp, c->a1);
		if (!ptr && !c->size)
			return;
		break;
	default:
		break;
	}
	u->ops->alloc(u->arg, s, &copy, ptr, c->size);
}

bool umalloc__sample(struct umalloc *u, struct session *s, struct evsel *ev,
		     const struct sample *smp)
{
	struct uev *ue = u ? find_ev(u, ev) : NULL;

	if (!ue)
		return false;
	if (ue->ret)
		ret(u, s, ue, smp);
	else
		entry(u, s, ue, smp);
	return true;
}

void umalloc__lost(struct umalloc *u)
{
	struct uthread *t, *tmp;

	HASH_ITER(hh, u->threads, t, tmp)
	{
		t->depth = 0;
		t->deleting = 0;
	}
}

void umalloc__exit(struct umalloc *u, u32 tid)
{
	struct uthread *t;

	if (!u)
		return;
	HASH_FIND(hh, u->threads, &tid, sizeof(tid), t);
	if (t) {
		HASH_DEL(u->threads, t);
		free(t);
	}
}

/* The module's hooks (umalloc__add registers them): its probes' handler, lost records, exits. */
static void on_uev(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	umalloc__sample(priv, s, ev, smp);
}

static void on_lost(struct session *s, void *priv, int cpu, u64 nr)
{
	(void)s, (void)cpu, (void)nr;
	umalloc__lost(priv);
}

static void on_exit_rec(struct session *s, void *priv, const struct rec_task *t)
{
	(void)s;
	umalloc__exit(priv, t->tid);
}

static const struct session_ops umalloc_ops = { .lost = on_lost, .exit = on_exit_rec };

void umalloc__stats(const struct umalloc *u, struct umalloc_stats *st)
{
	*st = u->st;
}

void umalloc__delete(struct umalloc *u)
{
	if (!u)
		return;
	HASH_FREE_ALL(hh, u->threads);
	/* the specs' contents: the array itself was allocated whole */
	for (int i = 0; i < u->nr_specs; i++)
		evspec__clear(&u->specs[i]);
	free(u->specs);
	free(u->evs);
	free(u);
}
