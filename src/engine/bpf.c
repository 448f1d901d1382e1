// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF back end (bpf.h): the session's programs, maps and links, a
 * source with no events that attaches them at open, runs them between
 * enable and disable, and closes them with the session.
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "engine/bpf.h"
#include "engine/features.h"
#include "engine/session_int.h"
#include "util/units.h"

#define MAX_FDS 64
#define CPU_BITS 1024

enum attach_kind { ATTACH_PERF, ATTACH_PERF_ALL, ATTACH_RAW };

struct attach {
	enum attach_kind kind;
	struct evsel *ev; /* ATTACH_PERF */
	char tp[64];	  /* ATTACH_RAW */
	int prog;
	bool btf; /* a tp_btf program: its target is in the program (no name to open) */
};

struct bpf_back {
	struct source src;
	struct session *s;
	int fds[MAX_FDS]; /* maps and programs, closed last */
	int nr_fds;
	int links[MAX_FDS]; /* raw tracepoint links, closed first */
	int nr_links;
	int btf_progs[MAX_FDS]; /* the tp_btf programs loaded */
	int nr_btf_progs;
	struct attach att[MAX_FDS];
	int nr_att;
	int ctl;	      /* array[1] of struct ctl */
	u32 ctl_val[2];	      /* its value: running, the workload's pid (0 before its exec) */
	int drops;	      /* array[1] of u64[BPF_DROP_SLOTS] */
	char drop_what[BPF_DROP_SLOTS][80];
	int nr_drops;
	u64 drops_seen[BPF_DROP_SLOTS]; /* reported so far */
	/* targets */
	bool targets_done;
	bool follow_p; /* -p's new processes are targets too (per-thread profilers, --inherit) */
	int tgids, tids, cpus; /* maps, -1: not needed */
	int fork_prog;
	struct btf *btf; /* vmlinux, loaded once */
	bool btf_tried;
	bool attached, running;
};

/* ---- options ---- */

static const struct popt bpf_popts[] = {
	{ "bpf", 0, NULL,
	  "aggregate in the kernel with BPF, or fail (status 2) saying what does not compile "
	  "(default: BPF where the host and the request allow it)",
	  POPT_BIND_FLAG(struct bpf_opts, on) },
	{ "no-bpf", 0, NULL, "the ring path: every event crosses the ring buffer",
	  POPT_BIND_FLAG(struct bpf_opts, off) },
	{ "bpf-entries", 0, "N",
	  "keys each BPF map holds (default 65536); events of keys beyond are counted as lost",
	  POPT_BIND_UINT(struct bpf_opts, entries), POPT_RANGE(16, 1 << 24) },
	{ 0 },
};

static int bpf_check(void *data, const struct opt_set *set, char *err, size_t errlen)
{
	const struct bpf_opts *o = data;

	(void)set;
	if (o->on && o->off) {
		snprintf(err, errlen, "--bpf and --no-bpf: give one of them");
		return -1;
	}
	return 0;
}

const struct opt_group bpf_group = {
	.name = "bpf",
	.opts = bpf_popts,
	.size = sizeof(struct bpf_opts),
	.check = bpf_check,
};

unsigned bpf_back__entries(const struct opt_set *opts)
{
	const struct bpf_opts *o = opts ? opt_set__get(opts, &bpf_group) : NULL;

	return o && o->entries ? (unsigned)o->entries : BPF_DEFAULT_ENTRIES;
}

/* ---- the host ---- */

const char *bpf_back__host_why_not(void)
{
	static char why[256];
	static int done;

	/* a tracepoint program loaded and closed; if refused, the capability missing */
	if (!done) {
		done = 1;
		features__bpf_why_not(why, sizeof(why));
	}
	return why;
}

/* ---- the source ---- */

static struct bpf_back *back_of(struct session *s)
{
	for (int i = 0; i < s->nr_sources; i++)
		if (s->sources[i]->ops && !strcmp(s->sources[i]->ops->name, "bpf"))
			return s->sources[i]->priv;
	return NULL;
}

static int set_running(struct bpf_back *b, u32 on)
{
	u32 key = 0;

	if (b->ctl < 0)
		return 0;
	b->running = on;
	b->ctl_val[0] = on;
	return bpf_map_update_elem(b->ctl, &key, b->ctl_val, BPF_ANY) ? -errno : 0;
}

static int perf_fd_of(struct session *s, struct evsel *ev)
{
	for (int i = 0; i < s->perf.nr_fds; i++)
		if (s->perf.fd_ev && s->perf.fd_ev[i] == ev)
			return s->perf.fds[i];
	return -1;
}

static int fill_targets(struct bpf_back *b);

/* A perf_event program on every fd of its event (each CPU, each thread). */
static int attach_all(struct session *s, struct attach *a)
{
	int n = 0;

	for (int i = 0; i < s->perf.nr_fds; i++) {
		if (!s->perf.fd_ev || s->perf.fd_ev[i] != a->ev)
			continue;
		if (ioctl(s->perf.fds[i], PERF_EVENT_IOC_SET_BPF, a->prog))
			return session__set_err(s, -errno, "BPF: cannot attach to %s: %s",
						a->ev->name, strerror(errno));
		n++;
	}
	if (!n)
		return session__set_err(s, -ENOENT, "BPF: %s was not opened: nothing to attach to",
					a->ev->name);
	return 0;
}

static int back_open(struct source *src)
{
	struct bpf_back *b = src->priv;
	struct session *s = b->s;
	int err;

	err = fill_targets(b);
	if (err)
		return err;
	for (int i = 0; i < b->nr_att; i++) {
		struct attach *a = &b->att[i];

		if (a->kind == ATTACH_PERF_ALL) {
			int err = attach_all(s, a);

			if (err)
				return err;
		} else if (a->kind == ATTACH_PERF) {
			int fd = perf_fd_of(s, a->ev);

			if (fd < 0)
				return session__set_err(s, -ENOENT,
							 "BPF: %s was not opened: nothing to attach to",
							 a->ev->name);
			if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, a->prog))
				return session__set_err(s, -errno,
							"BPF: cannot attach to %s: %s (try --no-bpf)",
							a->ev->name, strerror(errno));
		} else {
			int fd = bpf_raw_tracepoint_open(a->btf ? NULL : a->tp, a->prog);

			if (fd < 0)
				return session__set_err(s, -errno,
							"BPF: cannot attach to tracepoint %s: %s "
							"(try --no-bpf)",
							a->tp, strerror(errno));
			if (b->nr_links == MAX_FDS) {
				close(fd);
				return session__set_err(s, -EMFILE, "BPF: too many programs");
			}
			b->links[b->nr_links++] = fd;
		}
	}
	b->attached = true;
	return 0;
}

static int back_enable(struct source *src)
{
	return set_running(src->priv, 1);
}

static void back_disable(struct source *src)
{
	set_running(src->priv, 0);
}

static void back_stats(struct source *src, struct source_stats *st)
{
	struct bpf_back *b = src->priv;

	memset(st, 0, sizeof(*st));
	for (int i = 0; i < b->nr_drops; i++)
		st->lost += bpf_back__drops(b, i);
}

static void back_close(struct source *src)
{
	struct bpf_back *b = src->priv;

	/* links first: the programs stop running, then the maps they used go */
	for (int i = 0; i < b->nr_links; i++)
		close(b->links[i]);
	b->nr_links = 0;
	for (int i = 0; i < b->nr_fds; i++)
		close(b->fds[i]);
	b->nr_fds = 0;
	b->ctl = b->drops = b->tgids = b->tids = b->cpus = -1;
	btf__free(b->btf);
	b->btf = NULL;
}

static const struct source_ops bpf_ops = {
	.name = "bpf",
	.open = back_open,
	.enable = back_enable,
	.disable = back_disable,
	.stats = back_stats,
	.close = back_close,
};

void session__bpf_free(struct session *s)
{
	struct bpf_back *b = back_of(s);

	if (b) {
		back_close(&b->src);
		free(b);
	}
}

static int keep_fd(struct bpf_back *b, int fd)
{
	if (b->nr_fds == MAX_FDS) {
		close(fd);
		return session__set_err(b->s, -EMFILE, "BPF: too many maps and programs");
	}
	b->fds[b->nr_fds++] = fd;
	return fd;
}

int bpf_back__map(struct bpf_back *b, enum bpf_map_type type, const char *name, unsigned key_size,
		  unsigned value_size, unsigned max_entries, unsigned flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = flags);
	int fd = bpf_map_create(type, name, key_size, value_size, max_entries, &o);

	if (fd < 0)
		return session__set_err(b->s, -errno, "BPF: cannot create map %s (%u keys): %s",
					name, max_entries, strerror(errno));
	return keep_fd(b, fd);
}

static struct bpf_back *back_new(struct session *s)
{
	struct bpf_back *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->s = s;
	b->ctl = b->drops = b->tgids = b->tids = b->cpus = b->fork_prog = -1;
	b->src.ops = &bpf_ops;
	b->src.s = s;
	b->src.priv = b;
	if (session__add_source(s, &b->src)) {
		free(b);
		return NULL;
	}
	return b;
}

static int back_get(struct session *s, const struct bpf_opts *o, struct bpf_back **out);

int bpf_back__get(struct session *s, const struct opt_set *opts, struct bpf_back **out)
{
	const struct bpf_opts *o = opts ? opt_set__get(opts, &bpf_group) : NULL;

	*out = NULL;
	if (o && o->off)
		return 0;
	/* what counts samples in user space */
	if (s->conf.run && s->conf.run->max_samples)
		return bpf_back__fallback(s, opts, "-N counts samples in user space");
	if (s->conf.run && s->conf.run->sampling_limit)
		return bpf_back__fallback(s, opts, "--sampling-limit limits samples in user space");
	if (s->conf.run && (s->conf.run->nr_eval_cpus || s->conf.run->nr_eval_pids))
		return bpf_back__fallback(s, opts, "--perfeval-* measures samples in user space");
	return back_get(s, o, out);
}

int bpf_back__get_filter(struct session *s, const struct opt_set *opts, struct bpf_back **out)
{
	const struct bpf_opts *o = opts ? opt_set__get(opts, &bpf_group) : NULL;

	*out = NULL;
	if (o && o->off)
		return 0;
	return back_get(s, o, out);
}

static int back_get(struct session *s, const struct bpf_opts *o, struct bpf_back **out)
{
	const char *why;
	struct bpf_back *b;

	why = bpf_back__host_why_not();
	if (*why) {
		if (o && o->on)
			return session__usage_err(s, "--bpf: %s", why);
		session__notice(s, "the ring path: %s", why);
		return 0;
	}
	b = back_of(s);
	if (!b) {
		b = back_new(s);
		if (!b)
			return session__set_err(s, -ENOMEM, "out of memory");
		b->ctl = bpf_back__map(b, BPF_MAP_TYPE_ARRAY, "pp_ctl", 4, sizeof(b->ctl_val), 1, 0);
		if (b->ctl < 0)
			return b->ctl;
		b->drops = bpf_back__map(b, BPF_MAP_TYPE_ARRAY, "pp_drops", 4,
					 8 * BPF_DROP_SLOTS, 1, 0);
		if (b->drops < 0)
			return b->drops;
	}
	*out = b;
	return 1;
}

int bpf_back__fallback(struct session *s, const struct opt_set *opts, const char *fmt, ...)
{
	const struct bpf_opts *o = opts ? opt_set__get(opts, &bpf_group) : NULL;
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (o && o->on)
		return session__usage_err(s, "--bpf: %s (run without --bpf for the ring path)", why);
	session__notice(s, "the ring path: %s", why);
	return 0;
}

/* ---- programs ---- */

static struct btf *vmlinux_btf(struct bpf_back *b)
{
	if (!b->btf_tried) {
		b->btf_tried = true;
		b->btf = btf__load_vmlinux_btf();
		if (!b->btf || libbpf_get_error(b->btf))
			b->btf = NULL;
	}
	return b->btf;
}

/* The verifier's reason: its last line that is not its statistics ("processed N insns"). */
static void last_line(const char *log, char *out, size_t len)
{
	const char *end = log + strlen(log), *p;

	for (;;) {
		while (end > log && (end[-1] == '\n' || end[-1] == ' '))
			end--;
		for (p = end; p > log && p[-1] != '\n'; p--)
			;
		if (p == log || (strncmp(p, "processed ", 10) && strncmp(p, "verification time", 17)))
			break;
		end = p;
	}
	snprintf(out, len, "%.*s", (int)(end - p), p);
}

int bpf_back__load(struct bpf_back *b, enum bpf_prog_type type, const char *name,
		   struct bpfb *code, const char *btf_tp, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_prog_load_opts, o);
	char *log = NULL;
	int fd;

	err[0] = 0;
	if (bpfb__finish(code)) {
		snprintf(err, errlen, "%s", code->what);
		return code->err;
	}
	if (btf_tp) {
		struct btf *btf = vmlinux_btf(b);
		char tname[96];
		int id;

		if (!btf) {
			snprintf(err, errlen, "no kernel BTF (/sys/kernel/btf/vmlinux)");
			return -ENOENT;
		}
		snprintf(tname, sizeof(tname), "btf_trace_%s", btf_tp);
		id = btf__find_by_name_kind(btf, tname, BTF_KIND_TYPEDEF);
		if (id < 0) {
			snprintf(err, errlen, "no BTF for tracepoint %s", btf_tp);
			return -ENOENT;
		}
		o.attach_btf_id = id;
		o.expected_attach_type = BPF_TRACE_RAW_TP;
	}
	fd = bpf_prog_load(type, name, "GPL", code->insn, code->n, &o);
	if (fd < 0) {
		int e = errno;
		size_t loglen = 1 << 20;

		/* again with the verifier's log, to say why */
		log = calloc(1, loglen);
		if (log) {
			o.log_buf = log;
			o.log_size = loglen;
			o.log_level = 1;
			if (bpf_prog_load(type, name, "GPL", code->insn, code->n, &o) >= 0)
				log[0] = 0; /* (loaded this time: not expected) */
			last_line(log, err, errlen);
			if (session__verbose(b->s) > 1)
				fprintf(stderr, "BPF verifier log of %s:\n%s\n", name, log);
			free(log);
		}
		if (!err[0] || !log)
			snprintf(err, errlen, "%s", strerror(e));
		return -e;
	}
	fd = keep_fd(b, fd);
	if (fd >= 0 && btf_tp && b->nr_btf_progs < MAX_FDS)
		b->btf_progs[b->nr_btf_progs++] = fd;
	return fd;
}

static int add_attach(struct bpf_back *b, struct attach a)
{
	if (b->nr_att == MAX_FDS)
		return session__set_err(b->s, -EMFILE, "BPF: too many programs");
	b->att[b->nr_att++] = a;
	return 0;
}

int bpf_back__mark(struct bpf_back *b)
{
	return b->nr_att;
}

void bpf_back__rollback(struct bpf_back *b, int mark)
{
	if (mark >= 0 && mark < b->nr_att)
		b->nr_att = mark;
}

int bpf_back__attach_perf(struct bpf_back *b, struct evsel *ev, int prog)
{
	return add_attach(b, (struct attach){ .kind = ATTACH_PERF, .ev = ev, .prog = prog });
}

int bpf_back__attach_perf_all(struct bpf_back *b, struct evsel *ev, int prog)
{
	return add_attach(b, (struct attach){ .kind = ATTACH_PERF_ALL, .ev = ev, .prog = prog });
}

int bpf_back__attach_raw(struct bpf_back *b, const char *tp, int prog)
{
	struct attach a = { .kind = ATTACH_RAW, .prog = prog };

	snprintf(a.tp, sizeof(a.tp), "%s", tp ? tp : "");
	for (int i = 0; i < b->nr_btf_progs; i++)
		a.btf |= b->btf_progs[i] == prog;
	return add_attach(b, a);
}

/* R@dst = &map's value at @off (an array map: BPF_PSEUDO_MAP_VALUE, no helper call) */
static void ld_value(struct bpfb *code, int dst, int map, int off)
{
	b_ldvalue(code, dst, map, off);
}

void bpf_back__emit_running(struct bpf_back *b, struct bpfb *code, int out)
{
	ld_value(code, R0, b->ctl, 0);
	b_ldx(code, 4, R0, R0, 0);
	b_jmpi(code, BPF_JEQ, R0, 0, out);
}

int bpf_back__drop_slot(struct bpf_back *b, const char *what)
{
	for (int i = 0; i < b->nr_drops; i++)
		if (!strcmp(b->drop_what[i], what))
			return i;
	if (b->nr_drops == BPF_DROP_SLOTS)
		return BPF_DROP_SLOTS - 1;
	snprintf(b->drop_what[b->nr_drops], sizeof(b->drop_what[0]), "%s", what);
	return b->nr_drops++;
}

void bpf_back__emit_drop(struct bpf_back *b, struct bpfb *code, int slot)
{
	ld_value(code, R1, b->drops, slot * 8);
	b_movi(code, R2, 1);
	b_xadd(code, R1, 0, R2);
}

u64 bpf_back__drops(struct bpf_back *b, int slot)
{
	u64 v[BPF_DROP_SLOTS] = { 0 };
	u32 key = 0;

	if (b->drops < 0 || slot < 0 || slot >= BPF_DROP_SLOTS ||
	    bpf_map_lookup_elem(b->drops, &key, v))
		return 0;
	return v[slot];
}

int bpf_back__array_read(struct bpf_back *b, int map, void *value)
{
	u32 key = 0;

	(void)b;
	return bpf_map_lookup_elem(map, &key, value) ? -errno : 0;
}

int bpf_back__nr_cpus(void)
{
	static int n;

	if (!n)
		n = libbpf_num_possible_cpus();
	return n > 0 ? n : 1;
}

int bpf_back__percpu_sum(struct bpf_back *b, int map, const void *key, u64 *sum, int nwords)
{
	int ncpu = bpf_back__nr_cpus();
	u64 *v = calloc((size_t)ncpu * nwords, sizeof(u64));

	(void)b;
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(map, key, v)) {
		int e = errno;

		free(v);
		return -e;
	}
	memset(sum, 0, sizeof(u64) * nwords);
	for (int c = 0; c < ncpu; c++)
		for (int w = 0; w < nwords; w++)
			sum[w] += v[c * nwords + w];
	free(v);
	return 0;
}

/* vmlinux BTF, loaded at the first use, kept for the process's life */
static struct btf *kernel_btf(void)
{
	static struct btf *btf;
	static bool tried;

	if (!tried) {
		tried = true;
		btf = btf__load_vmlinux_btf();
		if (btf && libbpf_get_error(btf))
			btf = NULL;
	}
	return btf;
}

int bpf_back__btf_tp_args(const char *tp)
{
	struct btf *btf = kernel_btf();
	const struct btf_type *t;
	char name[96];
	int id;

	if (!btf)
		return -ENOENT;
	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	if (id < 0)
		return -ENOENT;
	/* typedef -> pointer -> prototype (void *__data, the tracepoint's arguments) */
	t = btf__type_by_id(btf, id);
	t = t ? btf__type_by_id(btf, t->type) : NULL;
	t = t && btf_is_ptr(t) ? btf__type_by_id(btf, t->type) : NULL;
	if (!t || !btf_is_func_proto(t) || btf_vlen(t) < 1)
		return -ENOENT;
	return btf_vlen(t) - 1;
}

int bpf_back__btf_member(const char *type, const char *member, unsigned *size)
{
	struct btf *btf = kernel_btf();
	const struct btf_type *t;
	int id;

	if (!btf)
		return -ENOENT;
	id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	if (id < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, id);
	for (int i = 0; i < btf_vlen(t); i++) {
		const struct btf_member *m = btf_members(t) + i;

		if (strcmp(btf__name_by_offset(btf, m->name_off), member))
			continue;
		if (btf_member_bitfield_size(t, i))
			return -EINVAL; /* a bit field: not a plain load */
		if (size) {
			__s64 sz = btf__resolve_size(btf, m->type);

			*size = sz > 0 ? (unsigned)sz : 0;
		}
		return (int)(btf_member_bit_offset(t, i) / 8);
	}
	return -ENOENT;
}

/* ---- targets ---- */

static bool all_cpus(struct session *s)
{
	const struct target_opts *tg = s->conf.target;
	int online = 0;

	if (!tg->cpus_given)
		return true;
	for (int c = 0; c < CPU_BITS; c++) {
		char path[96];

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", c);
		if (!access(path, F_OK))
			online++;
	}
	return tg->nr_cpus >= online;
}

static bool has_pids(struct session *s)
{
	const struct target_opts *tg = s->conf.target;

	return tg->nr_pids || tg->nr_tids || (tg->argv && tg->argv[0]);
}

/* The fork follower: a new process of a followed one (or with --inherit, of a -t thread) joins. */
static int fork_program(struct bpf_back *b)
{
	const struct target_opts *tg = b->s->conf.target;
	int tgid_off = bpf_back__btf_member("task_struct", "tgid", NULL);
	int pid_off = bpf_back__btf_member("task_struct", "pid", NULL);
	struct bpfb c;
	char err[160] = "";
	int out, join, fd;

	if (tgid_off < 0 || pid_off < 0)
		return session__set_err(b->s, -ENOENT,
					"BPF: no task_struct in the kernel's BTF: cannot follow "
					"the workload's children (try --no-bpf)");
	bpfb__init(&c);
	out = bpfb__label(&c);
	join = bpfb__label(&c);
	/* args: struct task_struct *parent, struct task_struct *child */
	b_ldx(&c, 8, R6, R1, 0);
	b_ldx(&c, 8, R7, R1, 8);
	b_ldx(&c, 4, R8, R6, (short)tgid_off); /* the parent's process */
	b_stx(&c, 4, R10, -4, R8);
	b_lookup(&c, b->tgids, -4);
	if (tg->inherit && b->tids >= 0) {
		int thread = bpfb__label(&c);

		b_jmpi(&c, BPF_JEQ, R0, 0, thread);
		b_ja(&c, join);
		bpfb__here(&c, thread); /* --inherit: a -t thread's new process joins */
		b_ldx(&c, 4, R8, R6, (short)pid_off);
		b_stx(&c, 4, R10, -4, R8);
		b_lookup(&c, b->tids, -4);
		b_jmpi(&c, BPF_JEQ, R0, 0, out);
	} else {
		b_jmpi(&c, BPF_JEQ, R0, 0, out);
		/* -p's processes (1) bring their children only with --inherit; followed ones (2) */
		if (!tg->inherit) {
			b_ldx(&c, 1, R1, R0, 0);
			b_jmpi(&c, BPF_JNE, R1, 2, out);
		}
	}
	bpfb__here(&c, join);
	b_ldx(&c, 4, R8, R7, (short)tgid_off); /* the child's process */
	b_stx(&c, 4, R10, -4, R8);
	b_st(&c, 1, R10, -8, 2);
	b_ldmap(&c, R1, b->tgids);
	b_mov(&c, R2, R10);
	b_alui(&c, BPF_ADD, R2, -4);
	b_mov(&c, R3, R10);
	b_alui(&c, BPF_ADD, R3, -8);
	b_movi(&c, R4, BPF_NOEXIST);
	b_call(&c, BPF_FUNC_map_update_elem);
	bpfb__here(&c, out);
	b_ret(&c, 0);
	fd = bpf_back__load(b, BPF_PROG_TYPE_TRACING, "pp_fork", &c, "sched_process_fork", err,
			    sizeof(err));
	bpfb__free(&c);
	if (fd < 0)
		return session__set_err(b->s, fd, "BPF: the fork follower does not load: %s", err);
	b->fork_prog = fd;
	return bpf_back__attach_raw(b, "sched_process_fork", fd);
}

/*
 * The exit follower: a followed process (2) leaves the set with its last
 * thread, since its pid may be reused by anyone.  The last thread: the
 * signal struct's live count is 0 at sched_process_exit.
 */
static int exit_program(struct bpf_back *b)
{
	int tgid_off = bpf_back__btf_member("task_struct", "tgid", NULL);
	int sig_off = bpf_back__btf_member("task_struct", "signal", NULL);
	int live_off = bpf_back__btf_member("signal_struct", "live", NULL);
	struct bpfb c;
	char err[160] = "";
	int out, fd;

	if (tgid_off < 0 || sig_off < 0 || live_off < 0)
		return 0; /* (followed processes then stay in the set) */
	bpfb__init(&c);
	out = bpfb__label(&c);
	b_ldx(&c, 8, R6, R1, 0); /* struct task_struct *p */
	b_ldx(&c, 4, R7, R6, (short)tgid_off);
	b_stx(&c, 4, R10, -4, R7);
	b_lookup(&c, b->tgids, -4);
	b_jmpi(&c, BPF_JEQ, R0, 0, out);
	b_ldx(&c, 1, R1, R0, 0);
	b_jmpi(&c, BPF_JNE, R1, 2, out);
	b_ldx(&c, 8, R1, R6, (short)sig_off);
	b_ldx(&c, 4, R1, R1, (short)live_off);
	b_jmpi(&c, BPF_JNE, R1, 0, out);
	b_ldmap(&c, R1, b->tgids);
	b_mov(&c, R2, R10);
	b_alui(&c, BPF_ADD, R2, -4);
	b_call(&c, BPF_FUNC_map_delete_elem);
	bpfb__here(&c, out);
	b_ret(&c, 0);
	fd = bpf_back__load(b, BPF_PROG_TYPE_TRACING, "pp_exit", &c, "sched_process_exit", err,
			    sizeof(err));
	bpfb__free(&c);
	if (fd < 0) {
		session__notice(b->s, "BPF: the exit follower does not load (%s): processes "
				      "followed stay targets after their exit", err);
		return 0;
	}
	return bpf_back__attach_raw(b, "sched_process_exit", fd);
}

/* The workload joins the targets at its exec (its pid is in the control map's second word). */
static int exec_program(struct bpf_back *b)
{
	int tgid_off = bpf_back__btf_member("task_struct", "tgid", NULL);
	struct bpfb c;
	char err[160] = "";
	int out, fd;

	if (tgid_off < 0)
		return session__set_err(b->s, -ENOENT,
					"BPF: no task_struct in the kernel's BTF: cannot follow "
					"the workload (try --no-bpf)");
	bpfb__init(&c);
	out = bpfb__label(&c);
	b_ldx(&c, 8, R6, R1, 0); /* struct task_struct *p */
	b_ldx(&c, 4, R7, R6, (short)tgid_off);
	ld_value(&c, R1, b->ctl, 4);
	b_ldx(&c, 4, R1, R1, 0);
	b_jmp(&c, BPF_JNE, R7, R1, out);
	b_stx(&c, 4, R10, -4, R7);
	b_st(&c, 1, R10, -8, 2);
	b_ldmap(&c, R1, b->tgids);
	b_mov(&c, R2, R10);
	b_alui(&c, BPF_ADD, R2, -4);
	b_mov(&c, R3, R10);
	b_alui(&c, BPF_ADD, R3, -8);
	b_movi(&c, R4, BPF_NOEXIST);
	b_call(&c, BPF_FUNC_map_update_elem);
	bpfb__here(&c, out);
	b_ret(&c, 0);
	fd = bpf_back__load(b, BPF_PROG_TYPE_TRACING, "pp_exec", &c, "sched_process_exec", err,
			    sizeof(err));
	bpfb__free(&c);
	if (fd < 0)
		return session__set_err(b->s, fd, "BPF: the exec follower does not load: %s", err);
	return bpf_back__attach_raw(b, "sched_process_exec", fd);
}

/* Create the target maps (in init, before any program is built). */
static int make_targets(struct bpf_back *b)
{
	struct session *s = b->s;
	const struct target_opts *tg = s->conf.target;
	unsigned n = 16384;

	if (b->targets_done)
		return 0;
	b->targets_done = true;
	if (has_pids(s)) {
		b->tgids = bpf_back__map(b, BPF_MAP_TYPE_HASH, "pp_tgids", 4, 1, n, 0);
		if (b->tgids < 0)
			return b->tgids;
		if (tg->nr_tids) {
			b->tids = bpf_back__map(b, BPF_MAP_TYPE_HASH, "pp_tids", 4, 1, n, 0);
			if (b->tids < 0)
				return b->tids;
		}
		/*
		 * As the ring path: per-thread events follow what -p's processes
		 * create (perf's inherit); CPU-wide profilers' target set only
		 * with --inherit.
		 */
		b->follow_p = tg->nr_pids && (!s->cpu_wide || tg->inherit);
		if ((tg->argv && tg->argv[0]) || tg->inherit || b->follow_p) {
			int err = fork_program(b);

			if (!err)
				err = exit_program(b);
			if (!err && tg->argv && tg->argv[0])
				err = exec_program(b);
			if (err)
				return err;
		}
	}
	if (!all_cpus(s)) {
		b->cpus = bpf_back__map(b, BPF_MAP_TYPE_ARRAY, "pp_cpus", 4, CPU_BITS / 8, 1, 0);
		if (b->cpus < 0)
			return b->cpus;
	}
	return 0;
}

/* At open: the -p, -t and workload pids, the -C CPUs, into the maps. */
static int fill_targets(struct bpf_back *b)
{
	struct session *s = b->s;
	const struct target_opts *tg = s->conf.target;
	unsigned char one = 1, followed = 2;

	if (!b->targets_done)
		return 0;
	for (int i = 0; b->tgids >= 0 && i < tg->nr_pids; i++) {
		u32 k = (u32)tg->pids[i];

		/* (2: followed, its children join at fork and it leaves at its exit) */
		if (bpf_map_update_elem(b->tgids, &k, b->follow_p ? &followed : &one, BPF_ANY))
			return session__set_err(s, -errno, "BPF: target map: %s", strerror(errno));
	}
	for (int i = 0; b->tids >= 0 && i < tg->nr_tids; i++) {
		u32 k = (u32)tg->tids[i];

		if (bpf_map_update_elem(b->tids, &k, &one, BPF_ANY))
			return session__set_err(s, -errno, "BPF: target map: %s", strerror(errno));
	}
	/* the workload is a target from its exec on (exec_program), as perf's enable_on_exec */
	if (b->tgids >= 0 && s->wl.forked) {
		u32 key = 0;

		b->ctl_val[1] = (u32)s->wl.proc.pid;
		if (bpf_map_update_elem(b->ctl, &key, b->ctl_val, BPF_ANY))
			return session__set_err(s, -errno, "BPF: control map: %s", strerror(errno));
	}
	if (b->cpus >= 0) {
		unsigned char bits[CPU_BITS / 8] = { 0 };
		u32 key = 0;

		for (int i = 0; i < tg->nr_cpus; i++)
			if (tg->cpus[i] >= 0 && tg->cpus[i] < CPU_BITS)
				bits[tg->cpus[i] / 8] |= (unsigned char)(1u << (tg->cpus[i] % 8));
		if (bpf_map_update_elem(b->cpus, &key, bits, BPF_ANY))
			return session__set_err(s, -errno, "BPF: CPU map: %s", strerror(errno));
	}
	return 0;
}

int bpf_back__emit_target(struct bpf_back *b, struct bpfb *code, int tgid_reg, int tid_reg,
			  int out, char *why, size_t len)
{
	const struct target_opts *tg = b->s->conf.target;
	int err;

	if (tg->cgroups) {
		snprintf(why, len, "--cgroups is not tested in the kernel yet");
		return -EOPNOTSUPP;
	}
	err = make_targets(b);
	if (err) {
		snprintf(why, len, "%s", session__strerror(b->s));
		return err;
	}
	if (b->cpus >= 0) {
		b_call(code, BPF_FUNC_get_smp_processor_id);
		b_jmpi(code, BPF_JGE, R0, CPU_BITS, out);
		b_mov(code, R1, R0);
		b_alui(code, BPF_RSH, R1, 3);
		ld_value(code, R2, b->cpus, 0);
		b_alu(code, BPF_ADD, R2, R1);
		b_ldx(code, 1, R1, R2, 0);
		b_alui(code, BPF_AND, R0, 7);
		b_alu(code, BPF_RSH, R1, R0);
		b_alui(code, BPF_AND, R1, 1);
		b_jmpi(code, BPF_JEQ, R1, 0, out);
	}
	if (b->tgids >= 0) {
		int ok = bpfb__label(code);

		b_stx(code, 4, R10, -4, tgid_reg);
		b_lookup(code, b->tgids, -4);
		if (b->tids >= 0) {
			b_jmpi(code, BPF_JNE, R0, 0, ok);
			b_stx(code, 4, R10, -4, tid_reg);
			b_lookup(code, b->tids, -4);
		}
		b_jmpi(code, BPF_JEQ, R0, 0, out);
		bpfb__here(code, ok);
	}
	return 0;
}
