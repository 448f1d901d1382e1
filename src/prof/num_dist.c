// SPDX-License-Identifier: GPL-2.0
/*
 * num-dist: the distribution of a number carried by events.
 *
 *   perf-prof num-dist -e 'syscalls:sys_enter_write/fd==1/num=count/'
 *
 * Each event's num=EXPR is compiled once against its format (README
 * "Expressions") and evaluated per sample.  Per event (and per CPU, or per
 * thread when -p/-t/-- choose tasks, with --perins): calls, total, min,
 * avg, p50, p95, p99, max, from the shared latency table in plain-number
 * mode (quantiles within the histogram's 0.8%); --hist adds a log2
 * histogram per event; --than N prints each event whose number exceeds N
 * as trace does, followed by " num=VALUE", with its stack under -g.
 * Negative numbers cannot go into the histograms: they are counted and
 * reported at exit.  --heatmap NAME writes each event's numbers over time
 * (report/heatmap.h's map of numbers: NAME.lat and NAME.svg, NAME-EVENT.*
 * with several events); the ring path's, each number is a line.
 */
#include <errno.h>
#include <event-parse.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency/bpf_lat.h"
#include "analysis/latency/bpf_stack.h"
#include "engine/bpf.h"
#include "engine/evspec.h"
#include "expr/expr.h"
#include "report/hist.h"
#include "profiler.h"
#include "report/evline.h"
#include "report/heatmap.h"
#include "report/outfile.h"
#include "report/lat_table.h"
#include "report/log2_hist.h"
#include "report/rtable.h"
#include "report/stats_table.h"
#include "sym/ksyms.h"
#include "sym/stack.h"
#include "util/ofile.h"

/* Per event (evsel->priv). */
struct nd_event {
	struct num_dist *nd; /* owner: evsel->priv is ours only when this matches */
	struct expr *num;
	int idx;	       /* group of its rows: events print in -e order */
	struct lat_row *row;   /* without --perins: its one row */
	struct log2_hist log2; /* --hist, per interval */
	u64 negative;	       /* values below 0, not counted (whole run) */
	struct expr *filter;   /* the BPF back end's: the event's filter, run in its program */
	struct evsel *ev;
	char *heat_name;      /* --heatmap: its files, without .lat/.svg */
	struct heatmap *heat; /* ... the .lat, opened at its first number */
	int heat_err;	      /* ... a write failed (said once): no more lines */
};

struct num_dist {
	/* options */
	bool perins, hist;
	unsigned long long than;
	const char *heatmap;

	bool per_thread; /* --perins rows are threads (-p/-t/--), else CPUs */
	int name_width;
	struct lat_table *table;
	struct ksyms *ksyms; /* only when an expression calls ksymbol() */
	bool failed_alloc;
	bool json; /* --json */
	u64 since; /* --json: where the next table's span begins */
	/* the BPF back end: the rows in the kernel (bpf_lat), read at each print */
	struct bpf_back *bpf;
	struct bpf_lat *lat;
	int neg_map;		  /* array: each event's negative values */
	struct nd_event **by_idx; /* the events by their index */
	int nr_events;
	struct session *session;   /* (set by nd_bpf) */
	int out;		   /* --than: the events copied out (bpf_back__out) */
	struct bpf_stacks *stacks; /* ... their stacks (-g) */
};

static struct nd_event *nd_of(struct num_dist *nd, struct evsel *ev)
{
	struct nd_event *e = ev->priv;

	return e && e->nd == nd ? e : NULL;
}

/* Compile num= for the events @spec matched (those without one yet). */
static int compile_spec(struct session *s, struct num_dist *nd, struct ev_spec *spec,
			const char *text, int *idx)
{
	char buf[512];

	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct nd_event *e;

		if (ev->spec != spec || ev->priv)
			continue;
		e = calloc(1, sizeof(*e));
		if (!e)
			return session__set_err(s, -ENOMEM, "out of memory");
		e->nd = nd;
		e->ev = ev;
		e->idx = (*idx)++;
		ev->priv = e;
		e->num = expr__compile(text, ev, buf, sizeof(buf));
		if (!e->num) {
			if (errno == ENOMEM)
				return session__set_err(s, -ENOMEM, "out of memory");
			return session__usage_err(s, "bad num= on %s: %s", ev->name, buf);
		}
		if (expr__is_string(e->num))
			return session__usage_err(
				s,
				"num=%s on %s is a string: num-dist needs a "
				"number (a field such as count, or an expression)",
				text, ev->name);
		if ((expr__uses(e->num) & EXPR_USES_KSYMS) && !nd->ksyms &&
		    ksyms__load(NULL, &nd->ksyms))
			nd->ksyms = NULL; /* ksymbol() then gives "[unknown]" */
	}
	return 0;
}

/* A row's key: the event (and with --perins its "comm" and "tid", or its "cpu"). */
static int set_key(struct num_dist *nd, struct lat_row *r, const char *event, const char *comm,
		   u32 inst)
{
	struct rt_val v[3] = { { .s = event } };

	if (nd->perins && nd->per_thread) {
		v[1].s = comm;
		v[2].u = inst;
	} else if (nd->perins) {
		v[1].u = inst;
	}
	return lat_row__set_keys(nd->table, r, v);
}

static int make_table(struct session *s, struct num_dist *nd)
{
	const struct target_opts *t = session__conf(s)->target;
	struct rt_col keys[3] = { RT_COL("event", "EVENT", RT_STR, 0, 0, RT_LEFT) };
	int nr_keys = 1;

	nd->name_width = 5; /* "EVENT" */
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		int l = (int)strlen(ev->name);

		if (nd_of(nd, ev) && l > nd->name_width)
			nd->name_width = l < LAT_LABEL - 30 ? l : LAT_LABEL - 30;
	}
	nd->per_thread = t->nr_pids || t->nr_tids || t->argv;
	keys[0].width = nd->name_width;
	if (nd->perins && nd->per_thread) {
		keys[nr_keys++] = (struct rt_col)RT_COL("comm", "COMM", RT_STR, 0, 16, RT_LEFT);
		keys[nr_keys++] = (struct rt_col)RT_COL("tid", "TID", RT_U64, 0, 7, 0);
	} else if (nd->perins) {
		keys[nr_keys++] = (struct rt_col)RT_COL("cpu", "CPU", RT_U64, 0, 3, 0);
	}
	/*
	 * Threads come and go: --perins rows are dropped at each interval.
	 * --json: every row carries its histogram.
	 */
	nd->json = session__json(s);
	nd->table = lat_table__new("", NULL,
				   LAT_PLAIN | (nd->perins ? LAT_DROP_ROWS : 0) |
					   ((nd->perins || nd->json) && nd->hist ? LAT_LOG2 : 0));
	if (!nd->table || lat_table__set_keys(nd->table, keys, nr_keys))
		return session__set_err(s, -ENOMEM, "out of memory");
	for (struct evsel *ev = session__evsels(s); ev && !nd->perins; ev = ev->next) {
		struct nd_event *e = nd_of(nd, ev);

		if (e && (!(e->row = lat_table__row(nd->table, e->idx, e->idx, NULL)) ||
			  set_key(nd, e->row, ev->name, NULL, 0)))
			return session__set_err(s, -ENOMEM, "out of memory");
	}
	return 0;
}

static int nd_bpf(struct session *s, struct num_dist *nd, const struct opt_set *opts);
static void nd_bpf_visit(struct session *s, void *nd);

/*
 * --heatmap NAME: each event's files, NAME (one event) or NAME-EVENT
 * (its alias, or sys-name), checked now (a run that cannot write them
 * does not start), made at the first number and at the end.
 */
static int heat_names(struct session *s, struct num_dist *nd)
{
	if (!*nd->heatmap)
		return session__usage_err(s, "--heatmap: give a NAME (files NAME.lat and .svg)");
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct nd_event *e = nd_of(nd, ev);
		const char *sfx[] = { ".lat", ".svg" };
		char *file;
		int err;

		if (!e)
			continue;
		if (nd->nr_events == 1)
			e->heat_name = strdup(nd->heatmap);
		else if (asprintf(&e->heat_name, "%s-%s", nd->heatmap, ev->name) < 0)
			e->heat_name = NULL;
		if (!e->heat_name)
			return session__set_err(s, -ENOMEM, "out of memory");
		for (char *c = e->heat_name + strlen(nd->heatmap); *c; c++)
			if (*c == ':' || *c == '/')
				*c = '-';
		for (int x = 0; x < 2; x++) {
			if (asprintf(&file, "%s%s", e->heat_name, sfx[x]) < 0)
				return session__set_err(s, -ENOMEM, "out of memory");
			err = outfile__check(file);
			if (err)
				session__set_err(s, err, "cannot write the heat map '%s': %s", file,
						 ofile__strerror(-err));
			free(file);
			if (err)
				return err;
		}
	}
	return 0;
}

/* One line in the event's .lat: its time and number; an error stops that file, said once. */
static void heat_add(struct session *s, struct nd_event *e, u64 time, u64 v)
{
	if (e->heat_err || !e->heat_name)
		return;
	if (!e->heat) {
		char lat[PATH_MAX];

		snprintf(lat, sizeof(lat), "%s.lat", e->heat_name);
		if (!(e->heat = heatmap__open_numbers(lat)))
			e->heat_err = -errno;
	}
	if (e->heat && !e->heat_err)
		e->heat_err = heatmap__add(e->heat, time, v);
	if (e->heat_err)
		session__output_err(s,
				    "writing the heat map %s.lat: %s (no more numbers written "
				    "to it)",
				    e->heat_name, ofile__strerror(-e->heat_err));
}

/* The end: each .lat closed and drawn into its .svg. */
static void heat_close(struct session *s, struct nd_event *e)
{
	char *svg, title[256];
	int err;

	if (!e->heat) {
		if (e->heat_name && !e->heat_err && session__started(s))
			session__warn(s, "no numbers of %s: no heat map %s", e->ev->name,
				      e->heat_name);
		return;
	}
	if (e->heat_err || !session__started(s)) { /* said when it failed: no SVG of a short .lat */
		heatmap__close(e->heat, NULL, NULL);
		e->heat = NULL;
		return;
	}
	snprintf(title, sizeof(title), "num-dist: %s num=%s", e->ev->name, expr__text(e->num));
	if (asprintf(&svg, "%s.svg", e->heat_name) < 0)
		svg = NULL;
	err = heatmap__close(e->heat, svg, title);
	e->heat = NULL;
	if (err && err != -ENODATA)
		session__output_err(s, "writing the heat map %s (.lat, .svg): %s", e->heat_name,
				    ofile__strerror(-err));
	free(svg);
}

static int num_dist_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct event_opts *ev = session__conf(s)->events;
	struct num_dist *nd = priv;
	int idx = 0, err, n;

	if (!ev->nr_specs)
		return session__usage_err(s, "no events: give -e 'sys:name/filter/num=EXPR/' "
					     "(see: perf-prof num-dist -h)");
	for (int i = 0; i < ev->nr_specs; i++) {
		struct ev_spec *spec = &ev->specs[i];
		const char *text = evspec__attr(spec, "num");
		struct evsel_conf c = { 0 };

		if (!text || !*text)
			return session__usage_err(s,
						  "'%s' has no num=EXPR: say which number to "
						  "distribute, e.g. -e '%s:%s//num=count/'",
						  spec->text, spec->sys, spec->name);
		c.callchain = session__stacks_for_all(s);
		if (session__add_spec(s, spec, &c) < 0)
			return -1;
		n = idx;
		err = compile_spec(s, nd, spec, text, &idx);
		if (err)
			return err;
		if (idx == n) /* the engine opened it once, for an earlier item */
			return session__usage_err(s,
						  "'%s' is an event of an earlier -e item: give it "
						  "alias=NAME to count it apart, or merge the two",
						  spec->text);
	}
	nd->nr_events = idx;
	err = make_table(s, nd);
	if (!err && nd->heatmap)
		err = heat_names(s, nd);
	return err ? err : nd_bpf(s, nd, opts);
}

/*
 * The BPF back end: each event's program tests the targets and the filter,
 * computes num= and adds it to its row (the event, with --perins its CPU
 * or thread) in the kernel; --than's events alone are copied out (nd_copy),
 * to be printed as on the ring path.  The programs return 1: they keep no
 * sample from the tracepoint's other perf users (engine/bpf_attach.c).
 */
#define ND_KEY (-24) /* the row's key: the event's index, the instance */
#define ND_SCRATCH (ND_KEY - BPF_LAT_SCRATCH)
#define ND_RAW 256 /* the bytes of the trace record copied out */

static void print_than(struct session *s, struct evsel *ev, struct sample *smp,
		       const struct expr_value *v);

/*
 * An event over --than copied out: time, thread, CPU, index, num, record;
 * with -g then its stacks (bpf_stack.h's slots, kernel first).
 */
enum {
	NDO_TIME,
	NDO_IDS = 8,
	NDO_CPU = 16,
	NDO_IDX = 24,
	NDO_VAL = 32,
	NDO_RAW = 40,
	NDO_SIZE = NDO_RAW + ND_RAW
};

/* Whether perf's samples of @ev have the task's user registers (no kernel frames): syscalls:*'s. */
static bool user_regs(const struct evsel *ev)
{
	return ev->tp && ev->tp->system && !strcmp(ev->tp->system, "syscalls");
}

/*
 * The event over --than (ctx in R6, num in R7, thread in R9) copied out; a
 * record the ring buffer cannot take is counted (bpf_back__out).  To @out.
 */
static void nd_copy(struct num_dist *nd, struct bpfb *c, const struct nd_event *e, int out)
{
	int taken = nd->stacks ? bpf_stacks__taken(nd->stacks) : 0;

	bpf_back__emit_reserve(nd->bpf, c, nd->out,
			       NDO_SIZE + (taken ? bpf_stacks__size(nd->stacks, taken) : 0), out);
	b_mov(c, R8, R0);
	b_call(c, BPF_FUNC_ktime_get_ns);
	b_stx(c, 8, R8, NDO_TIME, R0);
	b_stx(c, 8, R8, NDO_IDS, R9);
	b_call(c, BPF_FUNC_get_smp_processor_id);
	b_stx(c, 8, R8, NDO_CPU, R0);
	b_st(c, 8, R8, NDO_IDX, e->idx);
	b_stx(c, 8, R8, NDO_VAL, R7);
	if (taken)
		bpf_stacks__emit_take(nd->stacks, c, R6, 0, R8, NDO_SIZE, taken, user_regs(e->ev));
	b_mov(c, R1, R8);
	b_alui(c, BPF_ADD, R1, NDO_RAW);
	b_movi(c, R2, ND_RAW);
	b_mov(c, R3, R6);
	b_call(c, BPF_FUNC_probe_read_kernel);
	bpf_back__emit_submit(c, R8);
	b_ja(c, out);
}

/*
 * An event copied out (bpf_back__out's callback), printed as the ring path
 * prints its sample (bpf_back__tp_sample puts the record's common fields
 * back).
 */
static int nd_on_slow(void *arg, void *data, size_t size)
{
	struct num_dist *nd = arg;
	const u64 *w = data;
	u64 raw[ND_RAW / 8], chain[BPF_STACK_CHAIN];
	struct sample smp;
	struct expr_value v;
	struct nd_event *e;
	int taken = nd->stacks ? bpf_stacks__taken(nd->stacks) : 0;
	const void *slots = (const char *)data + NDO_SIZE;

	if (size < NDO_SIZE + (taken ? bpf_stacks__size(nd->stacks, taken) : 0) ||
	    w[NDO_IDX / 8] >= (u64)nd->nr_events)
		return 0;
	e = nd->by_idx[w[NDO_IDX / 8]];
	bpf_back__tp_sample(e->ev, &smp, w[NDO_IDS / 8], (u32)w[NDO_CPU / 8], w[NDO_TIME / 8],
			    (const char *)data + NDO_RAW, ND_RAW, ND_RAW, raw);
	bpf_stacks__sample(nd->stacks, session__stack(nd->session),
			   bpf_stacks__slot_of(nd->stacks, slots, taken, BPF_STACKS_KERNEL),
			   bpf_stacks__slot_of(nd->stacks, slots, taken, BPF_STACKS_USER), chain,
			   &smp);
	v = (struct expr_value){ .kind = EXPR_INT,
				 .is_signed = expr__is_signed(e->num),
				 .u = w[NDO_VAL / 8] };
	print_than(nd->session, e->ev, &smp, &v);
	return 0;
}

/* --than: the out, the stacks (-g); 0, -EOPNOTSUPP with @why, or -errno. */
static int nd_than_setup(struct session *s, struct num_dist *nd, unsigned entries, char *why,
			 size_t len)
{
	for (int i = 0; i < nd->nr_events; i++) {
		const struct tep_event *tp = nd->by_idx[i]->ev->tp;
		unsigned end = 0;

		for (struct tep_format_field *f = tp ? tp->format.fields : NULL; f; f = f->next) {
			if (f->flags & TEP_FIELD_IS_DYNAMIC) { /* (its data past the fixed part) */
				snprintf(why, len,
					 "--than: %.60s has a field of variable length (%.40s)",
					 nd->by_idx[i]->ev->name, f->name);
				return -EOPNOTSUPP;
			}
			if ((unsigned)(f->offset + f->size) > end)
				end = (unsigned)(f->offset + f->size);
		}
		if (end > ND_RAW) {
			snprintf(why, len, "--than: the record of %.60s is %u bytes, more than %d",
				 nd->by_idx[i]->ev->name, end, ND_RAW);
			return -EOPNOTSUPP;
		}
	}
	if (session__stacks_for_all(s)) {
		char w[160];

		/* (taken into the record: nothing kept) */
		nd->stacks = bpf_stacks__new(s, nd->bpf, entries, 4, 0, false, w, sizeof(w));
		if (!nd->stacks) {
			snprintf(why, len, "-g: %s", w);
			return -EOPNOTSUPP;
		}
	}
	nd->out = bpf_back__out(nd->bpf, "events over --than counted but not printed", nd_on_slow,
				nd);
	if (nd->out == -EOPNOTSUPP)
		snprintf(why, len, "--than: %s", bpf_back__out_why(nd->bpf));
	return nd->out < 0 ? nd->out : 0;
}

static int nd_program(struct num_dist *nd, struct nd_event *e, char *why, size_t len)
{
	struct expr_bpf_env env = {
		.ctx_reg = R6, .pid_tgid_reg = R9, .stack_lo = -512, .stack_hi = ND_SCRATCH
	};
	struct bpfb c;
	char err[160], buf[512];
	int out, fd, ret;

	if (!bpf_back__classic_tp(e->ev)) {
		snprintf(why, len, "%.60s: a probe's programs are not generated yet", e->ev->name);
		return -EOPNOTSUPP;
	}
	if (e->ev->filter &&
	    !(e->filter = expr__compile_filter(e->ev->filter, e->ev, buf, sizeof(buf)))) {
		snprintf(why, len, "the filter of %.60s: %.160s", e->ev->name, buf);
		return -EOPNOTSUPP;
	}
	bpfb__init(&c);
	out = bpfb__label(&c);
	b_mov(&c, R6, R1);
	bpf_back__emit_running(nd->bpf, &c, out);
	b_call(&c, BPF_FUNC_get_current_pid_tgid);
	b_mov(&c, R9, R0);
	b_mov(&c, R8, R0);
	b_alui(&c, BPF_RSH, R8, 32);
	b_mov(&c, R7, R9);
	b_alui(&c, BPF_LSH, R7, 32);
	b_alui(&c, BPF_RSH, R7, 32);
	ret = bpf_back__emit_target(nd->bpf, &c, R8, R7, out, why, len);
	if (!ret && e->filter) {
		ret = expr__bpf(e->filter, &c, &env, why, len);
		b_jmpi(&c, BPF_JEQ, R0, 0, out);
	}
	if (!ret)
		ret = expr__bpf(e->num, &c, &env, why, len);
	if (ret) {
		bpfb__free(&c);
		return ret == -EINVAL ? -EOPNOTSUPP : ret;
	}
	b_mov(&c, R7, R0);
	if (expr__is_signed(e->num)) { /* a negative value is counted apart */
		int pos = bpfb__label(&c);

		b_jmpi(&c, BPF_JSGE, R7, 0, pos);
		b_ldvalue(&c, R1, nd->neg_map, e->idx * 8);
		b_movi(&c, R2, 1);
		b_xadd(&c, R1, 0, R2);
		b_ja(&c, out);
		bpfb__here(&c, pos);
	}
	b_st(&c, 8, R10, ND_KEY, e->idx);
	if (nd->perins && nd->per_thread) {
		b_mov(&c, R1, R9);
		b_alui(&c, BPF_LSH, R1, 32);
		b_alui(&c, BPF_RSH, R1, 32);
		b_stx(&c, 8, R10, ND_KEY + 8, R1);
	} else if (nd->perins) {
		b_call(&c, BPF_FUNC_get_smp_processor_id);
		b_stx(&c, 8, R10, ND_KEY + 8, R0);
	} else {
		b_st(&c, 8, R10, ND_KEY + 8, 0);
	}
	bpf_lat__emit_record(nd->lat, &c, ND_KEY, R7, -1, ND_SCRATCH);
	if (nd->than) {
		b_ld64(&c, R1, nd->than);
		b_jmp(&c, BPF_JLE, R7, R1, out);
		nd_copy(nd, &c, e, out);
	}
	bpfb__here(&c, out);
	b_ret(&c, 1); /* every hit goes on to the tracepoint's other perf users */
	fd = bpf_back__load(nd->bpf, BPF_PROG_TYPE_TRACEPOINT, "pp_numdist", &c, NULL, err,
			    sizeof(err));
	bpfb__free(&c);
	if (fd < 0) {
		snprintf(why, len, "the kernel refused the program of %.60s: %.160s", e->ev->name,
			 err);
		return -EOPNOTSUPP;
	}
	return bpf_back__attach_perf(nd->bpf, e->ev, fd);
}

static int nd_bpf(struct session *s, struct num_dist *nd, const struct opt_set *opts)
{
	char why[256] = "", err[160];
	int ret, mark;

	if (nd->heatmap) /* (as multipoint's on its ring path) */
		return bpf_back__fallback(s, opts,
					  "--heatmap: each number is written from the ring buffer");
	ret = bpf_back__get(s, opts, &nd->bpf);
	if (ret <= 0)
		return ret;
	ret = 0;
	mark = bpf_back__mark(nd->bpf);
	nd->session = s;
	nd->by_idx = calloc(nd->nr_events, sizeof(*nd->by_idx));
	if (!nd->by_idx)
		return session__set_err(s, -ENOMEM, "out of memory");
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct nd_event *e = nd_of(nd, ev);

		if (e)
			nd->by_idx[e->idx] = e;
	}
	/* preallocated: tracepoints in interrupts (timer:*, irq:*) cannot allocate (multipoint_bpf.c) */
	nd->lat =
		bpf_lat__new_sized(nd->bpf, "pp_nd", bpf_lat__rows_for(opts, nd->perins),
				   bpf_lat__buckets_for(opts, nd->perins), true, err, sizeof(err));
	if (!nd->lat)
		return session__set_err(s, -ENOMEM, "BPF: %s", err);
	nd->neg_map =
		bpf_back__map(nd->bpf, BPF_MAP_TYPE_ARRAY, "pp_nd_neg", 4, 8 * nd->nr_events, 1, 0);
	if (nd->neg_map < 0)
		return nd->neg_map;
	if (nd->than)
		ret = nd_than_setup(s, nd, bpf_back__entries(opts), why, sizeof(why));
	for (int i = 0; i < nd->nr_events && !ret; i++)
		ret = nd_program(nd, nd->by_idx[i], why, sizeof(why));
	if (!ret) {
		session__notice(s, "the BPF back end: the numbers counted in the kernel");
		/* without -i too, the maps are read (and idle rows taken out) as it goes */
		return bpf_back__on_read(nd->bpf, nd_bpf_visit, nd);
	}
	bpf_back__rollback(nd->bpf, mark);
	bpf_stacks__delete(nd->stacks);
	nd->stacks = NULL;
	bpf_lat__delete(nd->lat);
	nd->lat = NULL;
	nd->bpf = NULL;
	if (ret != -EOPNOTSUPP)
		return ret;
	return bpf_back__fallback(s, opts, "%s", why);
}

static void log2_add(uint64_t lo, uint64_t n, void *arg)
{
	log2_hist__add_n(arg, lo, n);
}

/* A row the kernel added to since the last read, into the table. */
static void nd_bpf_row(void *arg, const uint64_t key[2], const struct hist *h, uint64_t marked)
{
	struct num_dist *nd = arg;
	struct nd_event *e = key[0] < (u64)nd->nr_events ? nd->by_idx[key[0]] : NULL;
	struct lat_row *r;

	(void)marked;
	if (!e)
		return;
	r = e->row;
	if (nd->perins) {
		u32 inst = (u32)key[1];

		r = lat_table__row(nd->table, (u64)e->idx << 32 | inst, e->idx, NULL);
		if (r && set_key(nd, r, e->ev->name,
				 nd->per_thread ? session__comm(nd->session, inst) : NULL, inst))
			nd->failed_alloc = true;
	}
	if (!r || lat_table__merge(nd->table, r, h, 0))
		nd->failed_alloc = true;
	if (nd->hist && !nd->perins && !nd->json)
		hist__for_each(h, log2_add, &e->log2);
}

static void nd_bpf_read(struct session *s, struct num_dist *nd, unsigned flags)
{
	int err;

	if (!nd->lat)
		return;
	nd->session = s;
	err = bpf_lat__read(nd->lat, flags, nd_bpf_row, nd);
	if (err)
		session__warn(s, "reading the BPF maps: %s", strerror(-err));
}

static void nd_bpf_visit(struct session *s, void *nd)
{
	nd_bpf_read(s, nd, 0);
}

/* The negative values the kernel counted, per event. */
static void nd_bpf_negative(struct num_dist *nd)
{
	u64 *v;

	if (!nd->lat || !(v = calloc(nd->nr_events, sizeof(u64))))
		return;
	if (!bpf_back__array_read(nd->bpf, nd->neg_map, v))
		for (int i = 0; i < nd->nr_events; i++)
			nd->by_idx[i]->negative = v[i];
	free(v);
}

/* The event as trace prints it, then " num=VALUE" (JSON: "num", signed or not), its stack. */
static const struct rt_col than_cols[] = {
	{ .type = RT_ROW },
	RT_COL("fields", NULL, RT_FIELDS, 0, 0, 0),
	RT_COL("num", NULL, RT_S64, 0, 0, RT_NO_TEXT | RT_OMIT_EMPTY),
	RT_COL("num", NULL, RT_U64, 0, 0, RT_NO_TEXT | RT_OMIT_EMPTY),
	RT_COL(NULL, NULL, RT_STR, 0, 0, RT_NO_JSON),
	EVL_STACK_COL,
};
static const struct rt_desc than_desc = { .type = "event", .cols = than_cols, .ncols = 6 };

static void print_than(struct session *s, struct evsel *ev, struct sample *smp,
		       const struct expr_value *v)
{
	struct rt_val e[EVL_NCOLS];
	struct rt_stack stk;
	char num[32];

	evline__row(e, &stk, s, ev, smp, NULL, NULL);
	if (v->is_signed)
		snprintf(num, sizeof(num), " num=%" PRId64, (int64_t)v->u);
	else
		snprintf(num, sizeof(num), " num=%" PRIu64, v->u);
	evline__emit(s, session__out(s), &than_desc,
		     (struct rt_val[]){ { .row = { &evline_head, e } },
					e[EVL_FIELDS],
					{ .i = (int64_t)v->u, .null = !v->is_signed },
					{ .u = v->u, .null = v->is_signed },
					{ .s = num },
					e[EVL_STACK] });
}

static struct lat_row *inst_row(struct session *s, struct num_dist *nd, struct nd_event *e,
				struct evsel *ev, struct sample *smp)
{
	u32 inst = nd->per_thread ? smp->tid : smp->cpu;
	const char *comm = nd->per_thread ? session__comm_at(s, smp->tid, smp->time) : NULL;
	struct lat_row *r;

	if (!nd->perins)
		return e->row;
	r = lat_table__row(nd->table, (u64)e->idx << 32 | inst, e->idx, NULL);
	if (r && set_key(nd, r, ev->name, comm, inst))
		nd->failed_alloc = true;
	return r;
}

static void num_dist_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct num_dist *nd = priv;
	struct nd_event *e = nd_of(nd, ev);
	struct expr_ctx ctx = { .smp = smp, .session = s, .ksyms = nd->ksyms };
	struct expr_value v;
	struct lat_row *row;

	if (!e || nd->lat) /* BPF: the kernel counts (its events are not opened: no sample comes) */
		return;
	expr__eval(e->num, &ctx, &v); /* faults read as 0, counted by the expression */
	if (v.is_signed && (int64_t)v.u < 0) {
		e->negative++;
		return;
	}
	row = inst_row(s, nd, e, ev, smp);
	if (!row || lat_table__record(nd->table, row, v.u, NULL))
		nd->failed_alloc = true;
	if (nd->hist && !nd->perins && !nd->json)
		log2_hist__add(&e->log2, v.u);
	if (nd->than && v.u > nd->than)
		print_than(s, ev, smp, &v);
	if (nd->heatmap)
		heat_add(s, e, smp->time, v.u);
}

/* The table (text: with --hist the histograms under it), the notes (stats_note). */
static void print_stats(struct session *s, struct num_dist *nd, int when)
{
	FILE *out = session__out(s);
	struct stats_stamp st;
	union rt_sinks u;

	lat_table__emit(nd->table, stats_stamp__sink(s, &u, &st, &nd->since, when));
	if (nd->perins && nd->hist && !nd->json) /* one per CPU or thread */
		lat_table__print_log2(nd->table, out, NULL, "value");
	for (struct evsel *ev = session__evsels(s); ev && nd->hist && !nd->perins; ev = ev->next) {
		struct nd_event *e = nd_of(nd, ev);

		if (!e || !log2_hist__count(&e->log2)) /* (--json: none, the rows carry them) */
			continue;
		fprintf(out, "\n%s num=%s\n", ev->name, expr__text(e->num));
		log2_hist__print(&e->log2, "value", out);
	}
	if (nd->failed_alloc)
		stats_note(s, "num-dist", "out of memory, some values were not counted");
	fflush(out);
}

static void reset_stats(struct session *s, struct num_dist *nd)
{
	lat_table__reset(nd->table);
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct nd_event *e = nd_of(nd, ev);

		if (e)
			log2_hist__reset(&e->log2);
	}
}

static void num_dist_interval(struct session *s, void *priv)
{
	nd_bpf_read(s, priv, BPF_LAT_NEXT_INTERVAL);
	print_stats(s, priv, STATS_INTERVAL);
	reset_stats(s, priv);
}

static void num_dist_snapshot(struct session *s, void *priv)
{
	nd_bpf_read(s, priv, 0);
	print_stats(s, priv, STATS_SO_FAR);
}

/* What the numbers leave out: negatives, faults of the expressions. */
static void print_left_out(struct session *s, struct num_dist *nd)
{
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct nd_event *e = nd_of(nd, ev);
		struct expr_faults f;

		if (!e || !e->num)
			continue;
		if (e->negative)
			session__warn(s, "%" PRIu64 " negative values of num=%s on %s not counted",
				      e->negative, expr__text(e->num), ev->name);
		expr__faults(e->num, &f);
		if (f.bad_reads || f.div_zero)
			session__warn(s,
				      "num=%s on %s: %" PRIu64 " reads outside the event, %" PRIu64
				      " divisions by zero (each read as 0)",
				      expr__text(e->num), ev->name, f.bad_reads, f.div_zero);
	}
}

static void num_dist_deinit(struct session *s, void *priv)
{
	struct num_dist *nd = priv;

	if (session__started(s) && nd->table) {
		nd_bpf_read(s, nd, BPF_LAT_LAST);
		nd_bpf_negative(nd);
		print_stats(s, nd, STATS_END);
		print_left_out(s, nd);
	}
	for (struct evsel *ev = session__evsels(s); ev; ev = ev->next) {
		struct nd_event *e = nd_of(nd, ev);

		if (!e)
			continue;
		heat_close(s, e);
		free(e->heat_name);
		expr__free(e->num);
		expr__free(e->filter);
		free(e);
		ev->priv = NULL;
	}
	bpf_lat__delete(nd->lat);
	nd->lat = NULL;
	bpf_stacks__delete(nd->stacks);
	nd->stacks = NULL;
	free(nd->by_idx);
	nd->by_idx = NULL;
	lat_table__delete(nd->table);
	nd->table = NULL;
	ksyms__delete(nd->ksyms);
	nd->ksyms = NULL;
}

static const struct popt num_dist_opts[] = {
	{ .lname = "perins",
	  .help = "statistics per CPU (per thread with -p, -t or -- command)",
	  POPT_BIND_FLAG(struct num_dist, perins) },
	{ .lname = "hist",
	  .help = "a log2 histogram of each event's numbers",
	  POPT_BIND_FLAG(struct num_dist, hist) },
	{ .lname = "than",
	  .argname = "N",
	  .help = "print each event whose number exceeds N (with its stack under -g)",
	  POPT_BIND_UINT(struct num_dist, than) },
	{ .lname = "heatmap",
	  .argname = "NAME",
	  .help = "each event's numbers over time: NAME.lat and a heat map NAME.svg (NAME-EVENT.* "
		  "with several events)",
	  POPT_BIND_STR(struct num_dist, heatmap) },
	{ 0 },
};

static const char *const num_dist_attrs[] = { "num", NULL };

const struct profiler prof_num_dist = {
	.name = "num-dist",
	.needs = (const char *const[]){ "tracefs", NULL },
	.desc = "distribution of a number carried by events (num=EXPR): percentiles, histogram",
	.synopsis = "perf-prof num-dist -e 'sys:name/filter/num=EXPR/'[,...] [--perins] [--hist] "
		    "[--than N [-g]] [--heatmap NAME] [-C CPUS|-p PID|-t TID|-- CMD] [-i MS]",
	.examples =
		"perf-prof num-dist -e 'syscalls:sys_enter_write//num=count/' --hist\n"
		"  perf-prof num-dist -e 'syscalls:sys_enter_read/fd==0/num=count/' -p 1234 "
		"--perins\n"
		"  perf-prof num-dist -e 'kmem:kmalloc//num=bytes_alloc/alias=kmalloc/' -i 1000\n"
		"  perf-prof num-dist -e 'sched:sched_switch//num=prev_prio/' --than 120 -g\n"
		"Columns: calls, total, min, avg, p50, p95, p99, max of the numbers, per event\n"
		"(per CPU or thread with --perins); quantiles are within 0.8%.",
	.groups = (const struct opt_group *const[]){ &event_group, &target_group, &run_group,
						     &ring_group, &bpf_group, &output_group,
						     &stack_group, &exclude_tp_group, NULL },
	.own = num_dist_opts,
	.ev_attrs = num_dist_attrs,
	.priv_size = sizeof(struct num_dist),
	.init = num_dist_init,
	.ops = { .sample = num_dist_sample,
		 .interval = num_dist_interval,
		 .snapshot = num_dist_snapshot },
	.deinit = num_dist_deinit,
};
