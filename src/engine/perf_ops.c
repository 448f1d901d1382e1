// SPDX-License-Identifier: GPL-2.0
/*
 * The perf ring source behind struct source_ops (engine/source.h): its
 * enable and close, and the ops table over its other parts (open.c: open;
 * loop.c: a ring's drain and the pull of full rings; overwrite.c;
 * counter.c: the counters; lost.c: the losses).  session__new adds it as
 * the first source; its state is s->perf (perf_source.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "engine/fdcloser.h"
#include "engine/session_int.h"

/* (a workload's events all enable at its exec, later) */
static int perf_source__enable(struct session *s)
{
	for (int i = 0; i < s->perf.nr_fds; i++)
		if (!(s->wl.forked && s->perf.per_thread))
			ioctl(s->perf.fds[i], PERF_EVENT_IOC_ENABLE, 0);
	return 0;
}

static void perf_source__close(struct session *s)
{
	pid_t closer = -1;

	for (int i = 0; i < s->perf.nr_fds; i++)
		ioctl(s->perf.fds[i], PERF_EVENT_IOC_DISABLE, 0);
	/*
	 * The last close of each tracepoint event waits for an RCU grace
	 * period in the kernel (12-40 ms here): with hundreds of them a
	 * helper process closes them, and ours go fast.
	 */
	/*
	 * Our own tracefs events are removed once their perf events are
	 * gone: those close here (the helper would outlive the removal).
	 */
	for (int i = 0, j = 0; s->probes.nr && i < s->perf.nr_fds; i++) {
		if (s->perf.fd_ev[i] && s->perf.fd_ev[i]->probe && s->perf.fd_ev[i]->tp)
			close(s->perf.fds[i]);
		else
			s->perf.fds[j++] = s->perf.fds[i];
		if (i == s->perf.nr_fds - 1)
			s->perf.nr_fds = j;
	}
	if (s->perf.nr_fds >= FDCLOSER_MIN_FDS) {
		closer = fdcloser__spawn(s->perf.fds, s->perf.nr_fds);
		if (closer > 0 && s->conf.log->verbose)
			fprintf(stderr, "perf-prof: closing %d events in the background (pid %d)\n",
				s->perf.nr_fds, (int)closer);
	}
	for (int i = 0; i < s->perf.nr_bufs; i++)
		ring__munmap(&s->perf.bufs[i].ring);
	free(s->perf.ow_data);
	s->perf.ow_data = NULL;
	for (int i = 0; i < s->perf.nr_fds; i++)
		close(s->perf.fds[i]);
	free(s->perf.fds);
	free(s->perf.fd_ev);
	s->perf.fd_ev = NULL;
	free(s->perf.bufs);
	free(s->perf.ids);
	free(s->perf.online);
	s->perf.online = NULL;
	s->perf.nr_online = s->perf.nr_trackers = 0;
	s->perf.fds = NULL;
	s->perf.bufs = NULL;
	s->perf.ids = NULL;
	s->perf.nr_fds = s->perf.nr_bufs = s->perf.nr_ids = 0;
	cgroups__close(&s->perf.cg); /* (the events hold their cgroups) */
}

static int perf_open(struct source *src)
{
	return perf_source__open(src->s);
}

static int perf_enable(struct source *src)
{
	return perf_source__enable(src->s);
}

/* --overwrite: the rings are read at set times only, never on a wakeup */
static int perf_poll_fds(struct source *src, int epfd, u64 tag)
{
	struct session *s = src->s;

	src->tag = tag;
	for (int i = 0; i < s->perf.nr_bufs && !s->conf.ring->overwrite; i++) {
		struct epoll_event e = { .events = EPOLLIN, .data.u64 = tag | (u64)i };

		if (epoll_ctl(epfd, EPOLL_CTL_ADD, s->perf.bufs[i].ring.fd, &e))
			return -errno;
	}
	return 0;
}

/*
 * Per-task events report EPOLLHUP once their task is gone, and keep doing
 * so.  The buffer may still be written by other threads' events (they share
 * it through SET_OUTPUT): poll the next of them, until none is left.
 */
static void watch_next(struct session *s, struct buf *b, u64 tag)
{
	struct epoll_event e = { .events = EPOLLIN, .data.u64 = tag };

	epoll_ctl(s->epfd, EPOLL_CTL_DEL, s->perf.fds[b->fd_cur], NULL);
	while (++b->fd_cur < b->fd_end)
		if (!epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->perf.fds[b->fd_cur], &e))
			return;
	b->hup = true;
}

static int perf_ready(struct source *src, u32 id, u32 events)
{
	struct session *s = src->s;
	struct buf *b = &s->perf.bufs[id];

	if (events & (EPOLLHUP | EPOLLERR)) {
		/* the watched task exited: watch another event of this buffer */
		watch_next(s, b, src->tag | id);
		return 1;
	}
	if (s->oq)
		return 1; /* ordering needs every buffer read */
	return perf_source__drain(s, b);
}

static int perf_read(struct source *src, unsigned how, u64 *horizon)
{
	struct session *s = src->s;
	int err;

	if (s->conf.ring->overwrite) {
		if (how & SOURCE_READ_FINAL)
			return session__read_overwrite(s, true);
		return how & SOURCE_READ_SNAPSHOT ? session__read_overwrite(s, false) : 0;
	}
	if (how & SOURCE_READ_PULL) {
		perf_source__pull(s);
		return 0;
	}
	for (int i = 0; i < s->perf.nr_bufs; i++) {
		err = perf_source__drain(s, &s->perf.bufs[i]);
		if (err)
			return err;
	}
	for (int i = 0; s->oq && i < s->perf.nr_bufs && !(how & SOURCE_READ_FINAL); i++)
		if (s->perf.bufs[i].read_time - s->order_margin < *horizon)
			*horizon = s->perf.bufs[i].read_time - s->order_margin;
	return 0;
}

static int perf_counters(struct source *src, struct evsel *ev, int i, struct counter_val *v)
{
	(void)src;
	return perf_source__counters(ev, i, v);
}

static void perf_stats(struct source *src, struct source_stats *st)
{
	const struct perf_source *p = &src->s->perf;

	*st = (struct source_stats){ .lost = p->lost_total,
				     .lost_cpu = p->lost_cpu,
				     .throttled = p->throttled,
				     .abandoned = p->abandoned_bytes,
				     .nr_read = p->nr_read };
}

static void perf_disable(struct source *src)
{
	struct session *s = src->s;

	for (int i = 0; i < s->perf.nr_fds; i++)
		ioctl(s->perf.fds[i], PERF_EVENT_IOC_DISABLE, 0);
}

/* (--overwrite: a second signal counted what its read left) */
static void perf_abandon(struct source *src)
{
	struct session *s = src->s;

	for (int i = 0; i < s->perf.nr_bufs && !s->conf.ring->overwrite; i++) {
		struct ring *r = &s->perf.bufs[i].ring;

		s->perf.abandoned_bytes +=
			__atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE) - r->meta->data_tail;
	}
}

static void perf_close(struct source *src)
{
	perf_source__close(src->s);
}

static const struct source_ops perf_ops = {
	.name = "perf",
	.open = perf_open,
	.enable = perf_enable,
	.poll_fds = perf_poll_fds,
	.ready = perf_ready,
	.read = perf_read,
	.counters = perf_counters,
	.stats = perf_stats,
	.disable = perf_disable,
	.abandon = perf_abandon,
	.close = perf_close,
};

int perf_source__add(struct session *s)
{
	s->perf_src = (struct source){ .ops = &perf_ops, .s = s, .priv = &s->perf };
	return session__add_source(s, &s->perf_src);
}
