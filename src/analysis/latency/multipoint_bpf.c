// SPDX-License-Identifier: GPL-2.0
/* multi-trace and mpdelay on the BPF back end: see multipoint_bpf.h. */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency/bpf_lat.h"
#include "analysis/latency/multipoint_bpf.h"
#include "engine/bpf.h"
#include "engine/session.h"
#include "expr/expr.h"
#include "report/hist.h"

/* The drop counts kept per point, in the counters map at what * MAX_POINTS + point. */
enum { C_REPLACED, C_BACKWARDS, C_EXITED, C_KINDS };
#define NR_COUNTERS (C_KINDS * MULTIPOINT_MAX_POINTS)

/* The frame: the back end's scratch (-8), then ours, then bpf_lat's, then the expressions'. */
enum {
	SK_KEY = -16,  /* the event's key */
	SK_SKEY = -32, /* the start map's key: point, key */
	SK_NOW = -40,  /* the event's time */
	SK_VAL = -48,  /* a new start's value */
	SK_CNT = -56,  /* a counter's index (u32) */
	SK_ROW = -72,  /* bpf_lat's row: from * 256 + to, key or 0 */
	SK_SCRATCH = SK_ROW - BPF_LAT_SCRATCH,
};

struct mpbpf {
	struct mpbpf_conf conf;
	struct bpf_back *b;
	struct bpf_lat *lat;
	int starts;   /* hash: (point, key) -> start time */
	int counters; /* per-CPU array: the drop counts */
	int drop_full;
	u64 seen[NR_COUNTERS]; /* the counts at the last read */
};

/* counters[@idx] += 1 on this CPU (uses R0-R2) */
static void emit_count(struct mpbpf *m, struct bpfb *c, int idx)
{
	int skip = bpfb__label(c);

	b_st(c, 4, R10, SK_CNT, idx);
	b_lookup(c, m->counters, SK_CNT);
	b_jmpi(c, BPF_JEQ, R0, 0, skip);
	b_ldx(c, 8, R1, R0, 0);
	b_alui(c, BPF_ADD, R1, 1);
	b_stx(c, 8, R0, 0, R1);
	bpfb__here(c, skip);
}

/* the start map's key: (@point, the event's key) */
static void emit_skey(struct bpfb *c, int point)
{
	b_st(c, 8, R10, SK_SKEY, point);
	b_ldx(c, 8, R1, R10, SK_KEY);
	b_stx(c, 8, R10, SK_SKEY + 8, R1);
}

/*
 * The pair from @from closes at @to: its start taken (deleted: another
 * CPU's end cannot take it too), end - start into the row.  Uses R8.
 */
static void emit_close(struct mpbpf *m, struct bpfb *c, int from, int to, int done)
{
	int back = bpfb__label(c);

	emit_skey(c, from);
	b_lookup(c, m->starts, SK_SKEY);
	b_jmpi(c, BPF_JEQ, R0, 0, done);
	b_ldx(c, 8, R8, R0, 0);
	b_ldmap(c, R1, m->starts);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, SK_SKEY);
	b_call(c, BPF_FUNC_map_delete_elem);
	b_jmpi(c, BPF_JNE, R0, 0, done);
	b_ldx(c, 8, R1, R10, SK_NOW);
	b_jmp(c, BPF_JLT, R1, R8, back);
	b_alu(c, BPF_SUB, R1, R8);
	b_mov(c, R8, R1);
	b_st(c, 8, R10, SK_ROW, from * 256 + to);
	if (m->conf.perins) {
		b_ldx(c, 8, R1, R10, SK_KEY);
		b_stx(c, 8, R10, SK_ROW + 8, R1);
	} else {
		b_st(c, 8, R10, SK_ROW + 8, 0);
	}
	bpf_lat__emit_record(m->lat, c, SK_ROW, R8, -1, SK_SCRATCH);
	b_ja(c, done);
	bpfb__here(c, back);
	emit_count(m, c, C_BACKWARDS * MULTIPOINT_MAX_POINTS + from);
}

/* A pair opens from @k: the start's time under (k, key), over a pending one (counted). */
static void emit_open(struct mpbpf *m, struct bpfb *c, int k, int done)
{
	int make = bpfb__label(c), have = bpfb__label(c), drop = bpfb__label(c);

	emit_skey(c, k);
	b_lookup(c, m->starts, SK_SKEY);
	b_jmpi(c, BPF_JEQ, R0, 0, make);
	bpfb__here(c, have);
	b_ldx(c, 8, R1, R10, SK_NOW);
	b_stx(c, 8, R0, 0, R1);
	emit_count(m, c, C_REPLACED * MULTIPOINT_MAX_POINTS + k);
	b_ja(c, done);
	bpfb__here(c, make);
	b_ldx(c, 8, R1, R10, SK_NOW);
	b_stx(c, 8, R10, SK_VAL, R1);
	b_ldmap(c, R1, m->starts);
	b_mov(c, R2, R10);
	b_alui(c, BPF_ADD, R2, SK_SKEY);
	b_mov(c, R3, R10);
	b_alui(c, BPF_ADD, R3, SK_VAL);
	b_movi(c, R4, BPF_NOEXIST);
	b_call(c, BPF_FUNC_map_update_elem);
	b_jmpi(c, BPF_JEQ, R0, 0, done);
	/* another CPU made it just now: this start replaces that one */
	b_jmpi(c, BPF_JNE, R0, -EEXIST, drop);
	b_lookup(c, m->starts, SK_SKEY);
	b_jmpi(c, BPF_JNE, R0, 0, have);
	bpfb__here(c, drop); /* the map is full: counted, said as lost */
	bpf_back__emit_drop(m->b, c, m->drop_full);
}

/* @why prefixed with what of @ev did not compile ("role= of sched:sched_switch: ..."). */
static int bad(char *why, size_t len, int err, const char *what, const struct evsel *ev)
{
	if (err == -EOPNOTSUPP || err == -EINVAL) {
		char tmp[200];

		snprintf(tmp, sizeof(tmp), "%s", why);
		snprintf(why, len, "%s of %.60s: %s", what, ev->name, tmp);
		return -EOPNOTSUPP;
	}
	return err;
}

/* The program of event @e; its fd, or -EOPNOTSUPP with @why set, or -errno. */
static int program(struct mpbpf *m, struct session *s, const struct mpbpf_event *e, char *why,
		   size_t len)
{
	const struct mpbpf_conf *cf = &m->conf;
	struct expr_bpf_env env = {
		.ctx_reg = R6,
		.pid_tgid_reg = R9,
		.stack_lo = -512,
		.stack_hi = SK_SCRATCH,
	};
	int n = cf->nr_points, k = e->point, from = (k + n - 1) % n;
	bool closes = k >= 0 && multipoint__opens(cf->mt, from);
	bool opens = k >= 0 && multipoint__opens(cf->mt, k);
	struct expr *filter = NULL;
	char err[200], name[16];
	struct bpfb c;
	int out, open_part, fd, ret = 0;

	bpfb__init(&c);
	out = bpfb__label(&c);
	open_part = bpfb__label(&c);
	if (k < 0) /* untraced: nothing, no sample */
		goto done;
	if (e->ev->filter) {
		filter = expr__compile_filter(e->ev->filter, e->ev, err, sizeof(err));
		if (!filter) {
			snprintf(why, len, "the filter of %.60s: %.160s", e->ev->name, err);
			ret = -EOPNOTSUPP;
			goto fail;
		}
	}
	b_mov(&c, R6, R1);
	bpf_back__emit_running(m->b, &c, out);
	b_call(&c, BPF_FUNC_get_current_pid_tgid);
	b_mov(&c, R9, R0);
	b_mov(&c, R8, R0);
	b_alui(&c, BPF_RSH, R8, 32);
	b_mov(&c, R7, R9);
	b_alui(&c, BPF_LSH, R7, 32);
	b_alui(&c, BPF_RSH, R7, 32);
	if ((ret = bpf_back__emit_target(m->b, &c, R8, R7, out, why, len)))
		goto fail;
	if (filter) {
		if ((ret = expr__bpf(filter, &c, &env, why, len))) {
			ret = bad(why, len, ret, "the filter", e->ev);
			goto fail;
		}
		b_jmpi(&c, BPF_JEQ, R0, 0, out);
	}
	switch (cf->key_mode) {
	case MPBPF_KEY_EXPR:
		if ((ret = expr__bpf(e->key, &c, &env, why, len))) {
			ret = bad(why, len, ret, "key=", e->ev);
			goto fail;
		}
		break;
	case MPBPF_KEY_THREAD:
		b_mov(&c, R0, R7);
		break;
	case MPBPF_KEY_CPU:
		b_call(&c, BPF_FUNC_get_smp_processor_id);
		break;
	}
	b_stx(&c, 8, R10, SK_KEY, R0);
	if (e->role) {
		if ((ret = expr__bpf(e->role, &c, &env, why, len))) {
			ret = bad(why, len, ret, "role=", e->ev);
			goto fail;
		}
		b_mov(&c, R7, R0);
	} else {
		b_movi(&c, R7, 3);
	}
	b_call(&c, BPF_FUNC_ktime_get_ns);
	b_stx(&c, 8, R10, SK_NOW, R0);
	if (closes) {
		b_mov(&c, R1, R7);
		b_alui(&c, BPF_AND, R1, 2);
		b_jmpi(&c, BPF_JEQ, R1, 0, open_part);
		emit_close(m, &c, from, k, open_part);
	}
	bpfb__here(&c, open_part);
	if (opens) {
		b_mov(&c, R1, R7);
		b_alui(&c, BPF_AND, R1, 1);
		b_jmpi(&c, BPF_JEQ, R1, 0, out);
		emit_open(m, &c, k, out);
	}
done:
	bpfb__here(&c, out);
	b_ret(&c, 0);
	snprintf(name, sizeof(name), "pp_mt_%u", k < 0 ? 99u : (unsigned)k % 100);
	fd = bpf_back__load(m->b, BPF_PROG_TYPE_TRACEPOINT, name, &c, NULL, err, sizeof(err));
	bpfb__free(&c);
	expr__free(filter);
	if (fd < 0) {
		snprintf(why, len, "the kernel refused the program of %.60s: %.160s", e->ev->name,
			 err);
		return -EOPNOTSUPP;
	}
	(void)s;
	return fd;
fail:
	bpfb__free(&c);
	expr__free(filter);
	return ret;
}

/*
 * sched_process_exit (raw tracepoint, in the exiting thread): keys are
 * threads, the thread's pending pairs are dropped (counted as exited), as
 * the ring path does at the task's exit record.
 */
static int exit_program(struct mpbpf *m, char *why, size_t len)
{
	struct bpfb c;
	char err[200];
	int out, fd;

	bpfb__init(&c);
	out = bpfb__label(&c);
	bpf_back__emit_running(m->b, &c, out);
	b_call(&c, BPF_FUNC_get_current_pid_tgid);
	b_alui(&c, BPF_LSH, R0, 32);
	b_alui(&c, BPF_RSH, R0, 32);
	b_stx(&c, 8, R10, SK_KEY, R0);
	for (int k = 0; k < m->conf.nr_points; k++) {
		int next = bpfb__label(&c);

		if (!multipoint__opens(m->conf.mt, k))
			continue;
		emit_skey(&c, k);
		b_ldmap(&c, R1, m->starts);
		b_mov(&c, R2, R10);
		b_alui(&c, BPF_ADD, R2, SK_SKEY);
		b_call(&c, BPF_FUNC_map_delete_elem);
		b_jmpi(&c, BPF_JNE, R0, 0, next);
		emit_count(m, &c, C_EXITED * MULTIPOINT_MAX_POINTS + k);
		bpfb__here(&c, next);
	}
	bpfb__here(&c, out);
	b_ret(&c, 0);
	fd = bpf_back__load(m->b, BPF_PROG_TYPE_RAW_TRACEPOINT, "pp_mt_exit", &c, NULL, err,
			    sizeof(err));
	bpfb__free(&c);
	if (fd < 0) {
		snprintf(why, len, "the kernel refused the exit program: %.160s", err);
		return -EOPNOTSUPP;
	}
	return bpf_back__attach_raw(m->b, "sched_process_exit", fd);
}

/* A row read from bpf_lat into multipoint's table. */
static void read_row(void *arg, const uint64_t key[2], const struct hist *h, uint64_t marked)
{
	struct mpbpf *m = arg;

	multipoint__record_hist(m->conf.mt, (int)(key[0] >> 8), (int)(key[0] & 0xff), key[1], NULL,
				h, marked);
}

/* What the maps gained since the last read: rows into the table, drops into the counts. */
static void mpbpf_read(struct session *s, struct mpbpf *m, bool next_interval)
{
	int err = bpf_lat__read(m->lat, next_interval, read_row, m);
	u64 d[C_KINDS];

	if (err)
		session__warn(s, "reading the BPF maps: %s", strerror(-err));
	for (int k = 0; k < m->conf.nr_points; k++) {
		for (int w = 0; w < C_KINDS; w++) {
			u32 idx = (u32)(w * MULTIPOINT_MAX_POINTS + k);
			u64 now = 0;

			d[w] = 0;
			if (bpf_back__percpu_sum(m->b, m->counters, &idx, &now, 1) ||
			    now <= m->seen[idx])
				continue;
			d[w] = now - m->seen[idx];
			m->seen[idx] = now;
		}
		if (d[C_REPLACED] || d[C_BACKWARDS])
			multipoint__add_dropped(m->conf.mt, k, d[C_REPLACED], d[C_BACKWARDS]);
		if (d[C_EXITED])
			multipoint__add_exited(m->conf.mt, k, d[C_EXITED]);
	}
}

static void on_interval(struct session *s, void *priv)
{
	mpbpf_read(s, priv, true);
}

static void on_snapshot(struct session *s, void *priv)
{
	mpbpf_read(s, priv, false);
}

/* before multipoint's, which print the table */
static const struct session_ops mpbpf_ops = {
	.interval = on_interval,
	.snapshot = on_snapshot,
};

void mpbpf__delete(struct mpbpf *m)
{
	if (!m)
		return;
	bpf_lat__delete(m->lat);
	free(m);
}

void mpbpf__finish(struct mpbpf *m, struct session *s)
{
	u64 key[2], next[2], open = 0;
	void *prev = NULL;

	if (!m || !session__started(s))
		return;
	mpbpf_read(s, m, false);
	/* the starts left: pairs still open */
	while (!bpf_map_get_next_key(m->starts, prev, next)) {
		memcpy(key, next, sizeof(key));
		prev = key;
		open++;
	}
	multipoint__add_open(m->conf.mt, open);
}

int mpbpf__new(struct session *s, const struct opt_set *opts, const struct mpbpf_conf *conf,
	       struct mpbpf **out)
{
	struct bpf_back *b;
	struct mpbpf *m;
	char why[320] = "", err[200] = "";
	int ret, *fds;

	*out = NULL;
	if ((ret = bpf_back__get(s, opts, &b)) <= 0)
		return ret;
	m = calloc(1, sizeof(*m));
	fds = calloc((size_t)conf->nr_events + 1, sizeof(*fds));
	if (!m || !fds) {
		free(m);
		free(fds);
		return session__set_err(s, -ENOMEM, "out of memory");
	}
	m->conf = *conf;
	m->b = b;
	m->starts = bpf_back__map(m->b, BPF_MAP_TYPE_HASH, "pp_mt_starts", 16, 8,
				  bpf_back__entries(opts), 0);
	m->counters = m->starts < 0 ? m->starts
				    : bpf_back__map(m->b, BPF_MAP_TYPE_PERCPU_ARRAY, "pp_mt_drops",
						    4, 8, NR_COUNTERS, 0);
	if (m->counters < 0) {
		ret = bpf_back__fallback(s, opts, "multi-trace's maps: %s", strerror(-m->counters));
		goto out;
	}
	m->drop_full = bpf_back__drop_slot(m->b, "pairs not timed: start map full "
						 "(--bpf-entries)");
	m->lat = bpf_lat__new(m->b, "pp_mt", bpf_back__entries(opts), err, sizeof(err));
	if (!m->lat) {
		ret = bpf_back__fallback(s, opts, "%s", err);
		goto out;
	}
	ret = 0;
	for (int i = 0; i < conf->nr_events && ret >= 0; i++) {
		ret = program(m, s, &conf->events[i], why, sizeof(why));
		fds[i] = ret;
	}
	if (ret >= 0 && conf->key_mode == MPBPF_KEY_THREAD)
		ret = exit_program(m, why, sizeof(why));
	if (ret < 0) {
		if (session__err_is_usage(s))
			goto out;
		ret = ret == -EOPNOTSUPP ? bpf_back__fallback(s, opts, "%s", why)
					 : session__set_err(s, ret, "BPF: %s", why);
		goto out;
	}
	for (int i = 0; i < conf->nr_events; i++)
		if ((ret = bpf_back__attach_perf(m->b, conf->events[i].ev, fds[i])))
			goto out;
	if ((ret = session__add_ops(s, &mpbpf_ops, m)))
		goto out;
	session__notice(s,
			"the BPF back end: pairs timed in the kernel (a tracepoint program "
			"on each of %d events)",
			conf->nr_events);
	free(fds);
	*out = m;
	return 1;
out:
	free(fds);
	mpbpf__delete(m);
	return ret;
}
