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
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "engine/bpf_int.h"
#include "engine/features.h"
#include "util/units.h"

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

/* A CPU to open the programs' own perf events on: the first online one. */
static int first_cpu(void)
{
	char path[64];

	for (int c = 0; c < 4096; c++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", c);
		if (c == 0 && access(path, F_OK))
			return 0; /* (cpu0 without an online file cannot go offline) */
		if (!access(path, F_OK)) {
			FILE *f = fopen(path, "r");
			int on = 0;

			if (f) {
				on = fgetc(f) == '1';
				fclose(f);
			}
			if (on)
				return c;
		}
	}
	return 0;
}

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

	err = bpf_back__fill_targets(b);
	if (err)
		return err;
	for (int i = 0; i < b->nr_att; i++) {
		struct attach *a = &b->att[i];

		if (a->kind == ATTACH_PERF_ALL) {
			int err = attach_all(s, a);

			if (err)
				return err;
		} else if (a->kind == ATTACH_PERF) {
			/*
			 * A perf event of our own for the program: on one CPU,
			 * every task, not inherited and with no ring.  The
			 * tracepoint's programs run for every hit on every CPU;
			 * attached to one of the session's per-thread events, the
			 * program would go with the first inherited copy freed (a
			 * child's exit).
			 */
			struct perf_event_attr attr = {
				.type = PERF_TYPE_TRACEPOINT,
				.size = sizeof(attr),
				.config = a->ev->attr.config,
				.sample_period = 1,
			};
			int fd = (int)syscall(SYS_perf_event_open, &attr, -1, first_cpu(),
					      -1, PERF_FLAG_FD_CLOEXEC);

			if (fd < 0)
				return session__set_err(s, -errno,
							"BPF: cannot open %s for its program: %s "
							"(try --no-bpf)",
							a->ev->name, strerror(errno));
			if (b->nr_links == MAX_FDS) {
				close(fd);
				return session__set_err(s, -EMFILE, "BPF: too many programs");
			}
			b->links[b->nr_links++] = fd;
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
		st->dropped += bpf_back__drops(b, i);
}

/* The programs' drops, each kind on its line: what was not counted and why. */
static void back_report(struct source *src, FILE *fp)
{
	struct bpf_back *b = src->priv;

	for (int i = 0; i < b->nr_drops; i++) {
		u64 n = bpf_back__drops(b, i);

		if (n)
			fprintf(fp, "perf-prof: %llu events not counted in the kernel: %s\n",
				(unsigned long long)n, b->drop_what[i]);
	}
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
}

static const struct source_ops bpf_ops = {
	.name = "bpf",
	.open = back_open,
	.enable = back_enable,
	.disable = back_disable,
	.stats = back_stats,
	.report = back_report,
	.close = back_close,
};

void session__bpf_free(struct session *s)
{
	struct bpf_back *b = back_of(s);

	if (!b)
		return;
	back_close(&b->src);
	/* out of the session's list before it goes: later walks of the sources must not meet it */
	for (int i = 0; i < s->nr_sources; i++)
		if (s->sources[i] == &b->src) {
			memmove(&s->sources[i], &s->sources[i + 1],
				(size_t)(s->nr_sources - i - 1) * sizeof(s->sources[0]));
			s->nr_sources--;
			break;
		}
	free(b);
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
	/* an inner profiler (joint analysis): its events are its outer profiler's samples too */
	if (s->cur_owner >= 0 && s->cur_owner < s->nr_hooks && s->hooks[s->cur_owner].outer >= 0)
		return bpf_back__fallback(s, opts,
					  "inside another profiler's -e: its events go to that "
					  "profiler");
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

/* The kernel's BTF, libbpf's complaint when there is none left unsaid (check says it). */
static struct btf *quiet_vmlinux_btf(void)
{
	libbpf_print_fn_t print = libbpf_set_print(NULL);
	struct btf *btf = btf__load_vmlinux_btf();

	libbpf_set_print(print);
	return btf;
}

/* The kernel's BTF, parsed once for the run (tp_btf targets, struct members). */
static struct btf *kernel_btf(void)
{
	static struct btf *btf;
	static bool tried;

	if (!tried) {
		tried = true;
		btf = quiet_vmlinux_btf();
		if (btf && libbpf_get_error(btf))
			btf = NULL;
	}
	return btf;
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
		struct btf *btf = kernel_btf();
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
			int again = bpf_prog_load(type, name, "GPL", code->insn, code->n, &o);

			if (again >= 0) {
				close(again);
				log[0] = 0; /* (loaded this time: not expected) */
			}
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
	if (fd < 0)
		snprintf(err, errlen, "more than %d BPF programs and maps", MAX_FDS);
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

bool bpf_back__classic_tp(const struct evsel *ev)
{
	return ev->attr.type == PERF_TYPE_TRACEPOINT && !ev->probe && ev->tp;
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

void bpf_back__emit_running(struct bpf_back *b, struct bpfb *code, int out)
{
	b_ldvalue(code, R0, b->ctl, 0);
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
	b_ldvalue(code, R1, b->drops, slot * 8);
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

