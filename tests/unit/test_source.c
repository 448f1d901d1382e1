// SPDX-License-Identifier: GPL-2.0
/*
 * A second source behind struct source_ops (engine/source.h): a tiny test
 * source delivering N samples of its own event through its read op, next
 * to the injected session's replay source.  With time order the session's
 * hook sees both sources' samples merged by time, up to the horizon the
 * sources give while the run goes on, all of them at the final read;
 * without it, each as its source reads it.  The lost report and the
 * records count ask every source; closing the session closes the source.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/source.h"
#include "synth.h"
#include "ut.h"

#define N 5

/* the test source: N samples of its event at 20, 40, ... ns, on CPU 1, pid 200 */
struct tsrc {
	struct source src;
	const struct evsel *ev;
	struct synth b;
	int next;     /* the next sample to give */
	int per_read; /* samples a read gives (0: all left) */
	u64 horizon;  /* what a read that is not final says (0: nothing) */
	u64 lost_cpu[8];
	int nr_reads, nr_closes;
};

static int tsrc_read(struct source *src, unsigned how, u64 *horizon)
{
	struct tsrc *t = src->priv;
	int n = 0;

	if (how & SOURCE_READ_PULL)
		return 0;
	t->nr_reads++;
	while (t->next < N && (!t->per_read || n < t->per_read || (how & SOURCE_READ_FINAL))) {
		const struct perf_event_header *h =
			synth__sample(&t->b, t->ev,
				      &(struct synth_sample){ .pid = 200,
							      .tid = 200,
							      .cpu = 1,
							      .time = 20 * (u64)(t->next + 1) });
		int err = session__source_record(src->s, h, 1);

		if (err)
			return err;
		t->next++;
		n++;
	}
	if (!(how & SOURCE_READ_FINAL) && t->horizon && t->horizon < *horizon)
		*horizon = t->horizon;
	return 0;
}

static void tsrc_stats(struct source *src, struct source_stats *st)
{
	struct tsrc *t = src->priv;

	*st = (struct source_stats){ .lost = 3, .lost_cpu = t->lost_cpu, .nr_read = t->next };
}

static void tsrc_close(struct source *src)
{
	((struct tsrc *)src->priv)->nr_closes++;
}

static const struct source_ops tsrc_ops = {
	.name = "test",
	.read = tsrc_read,
	.stats = tsrc_stats,
	.close = tsrc_close,
};

/* What the hook saw. */
struct seen {
	int n;
	u64 time[4 * N];
	u32 pid[4 * N];
	const struct evsel *ev[4 * N];
};

static void on_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct seen *w = priv;

	(void)s;
	if (w->n < 4 * N) {
		w->time[w->n] = smp->time;
		w->pid[w->n] = smp->pid;
		w->ev[w->n] = ev;
		w->n++;
	}
}

static const struct session_ops hook = { .sample = on_sample };

struct setup {
	struct session *s;
	struct evsel *replay_ev, *test_ev;
	struct tsrc t;
	struct seen w;
	struct synth b;
	char *out;
	size_t len;
	FILE *fp;
};

static int setup(struct setup *u, bool order)
{
	struct engine_conf conf = { 0 };

	memset(u, 0, sizeof(*u));
	u->fp = open_memstream(&u->out, &u->len);
	u->s = session__new(&conf, u->fp);
	if (!u->fp || !u->s)
		return -1;
	u->replay_ev =
		session__add_event(u->s, &(struct evsel_conf){ .type = PERF_TYPE_SOFTWARE,
							       .config = PERF_COUNT_SW_CPU_CLOCK,
							       .name = "replayed" });
	u->test_ev =
		session__add_event(u->s, &(struct evsel_conf){ .type = PERF_TYPE_SOFTWARE,
							       .config = PERF_COUNT_SW_TASK_CLOCK,
							       .name = "from-test" });
	if (!u->replay_ev || !u->test_ev || session__add_ops(u->s, &hook, &u->w) ||
	    session__inject_begin(u->s))
		return -1;
	u->t.src = (struct source){ .ops = &tsrc_ops, .priv = &u->t };
	u->t.ev = u->test_ev;
	u->t.lost_cpu[1] = 3;
	if (session__add_source(u->s, &u->t.src))
		return -1;
	return order ? session__start_order(u->s) : 0;
}

/* The replay source's samples: at 10, 30, ... ns on CPU 0, pid 100. */
static void inject_replayed(struct setup *u)
{
	for (int i = 0; i < N; i++)
		session__inject(u->s,
				synth__sample(&u->b, u->replay_ev,
					      &(struct synth_sample){ .pid = 100,
								      .tid = 100,
								      .cpu = 0,
								      .time = 10 + 20 * (u64)i }),
				0);
}

static void teardown(struct setup *u)
{
	session__delete(u->s);
	if (u->fp)
		fclose(u->fp);
	free(u->out);
}

/* Merged by time, each sample with its own event: 10 (replay), 20 (test), 30, ... */
static void test_ordered(void)
{
	struct setup u;

	CHECK_INT(setup(&u, true), 0);
	inject_replayed(&u);
	CHECK_INT(u.w.n, 0); /* queued: the order waits for every source */
	u.t.per_read = 2;
	u.t.horizon = 45; /* the test source has given everything before 45 ns */
	CHECK_INT(session__read_sources(u.s, 0), 0);
	CHECK_INT(u.w.n, 4); /* 10, 20, 30, 40: not beyond the horizon */
	CHECK_INT(session__read_sources(u.s, SOURCE_READ_FINAL), 0);
	CHECK_INT(u.w.n, 2 * N);
	for (int i = 0; i < u.w.n; i++) {
		bool replayed = i % 2 == 0;

		CHECK(u.w.time[i] == 10 * (u64)(i + 1), "sample %d at %llu", i,
		      (unsigned long long)u.w.time[i]);
		CHECK_INT(u.w.pid[i], replayed ? 100 : 200);
		CHECK(u.w.ev[i] == (replayed ? u.replay_ev : u.test_ev), "sample %d's event", i);
	}
	CHECK_INT(u.t.nr_reads, 2);
	teardown(&u);
}

/* Without time order each source's samples are delivered as it reads them. */
static void test_unordered(void)
{
	struct setup u;

	CHECK_INT(setup(&u, false), 0);
	inject_replayed(&u);
	CHECK_INT(u.w.n, N); /* the replay source delivers at once, as before */
	CHECK_INT(session__read_sources(u.s, 0), 0);
	CHECK_INT(u.w.n, 2 * N);
	for (int i = 0; i < N; i++) {
		CHECK_INT(u.w.pid[i], 100);
		CHECK_INT(u.w.pid[N + i], 200);
		CHECK_INT(u.w.time[N + i], 20 * (i + 1));
	}
	teardown(&u);
}

/* The lost report and the records count are every source's; close reaches the source. */
static void test_stats_close(void)
{
	struct setup u;
	struct tsrc *t;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	CHECK_INT(setup(&u, false), 0);
	CHECK_INT(session__read_sources(u.s, SOURCE_READ_FINAL), 0);
	CHECK_INT(session__lost(u.s), 3);
	CHECK_INT(session__records_read(u.s), N);
	fp = open_memstream(&buf, &len);
	session__print_lost(u.s, fp);
	fclose(fp);
	CHECK_STR(buf, "perf-prof: lost 3 events (CPU1: 3); a bigger buffer (-m PAGES) or a "
		       "kernel filter helps\n");
	free(buf);
	t = &u.t;
	session__delete(u.s);
	CHECK_INT(t->nr_closes, 1);
	u.s = NULL;
	teardown(&u);
}

int main(void)
{
	test_ordered();
	test_unordered();
	test_stats_close();
	return ut_done("source");
}
