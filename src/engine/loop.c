// SPDX-License-Identifier: GPL-2.0
/*
 * The event loop: epoll over the ring buffers, a signalfd (SIGINT, SIGTERM,
 * SIGQUIT, SIGHUP, SIGUSR1, SIGUSR2, SIGCHLD), a 100 ms drain tick, the -i
 * interval timer and the --usage-self timer.  Records go to
 * the profiler directly, or through the order queue with --order.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>

#include "engine/clockopt.h"
#include "engine/procfs.h"
#include "engine/rate.h"
#include "engine/session_int.h"
#include "engine/target.h"
#include "util/json.h"
#include "util/stopsig.h"
#include "util/units.h"

#define TICK_MS 100

u64 session__now(struct session *s)
{
	struct timespec ts;

	/* --tsc: the events run on perf's own clock, read through the TSC */
	if (s && s->conf.clock && (s->conf.clock->tsc || s->conf.clock->kvmclock))
		return clock__tsc_perf_now(&s->conf.clock->conv);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

u64 session__epoch_ns(struct session *s, u64 time)
{
	return (u64)((long long)time + s->wall_offset);
}

u64 session__wall_ns(struct session *s, u64 time)
{
	const struct clock_opts *c = s->conf.clock;

	if (c->tsc)
		return clock__perf_to_tsc(&c->conv, time) + c->offset;
	if (c->kvmclock) { /* 0 before the guest's first pvclock update: unknown */
		u64 ns;

		return session__wall_kvmclock(s, time, &ns) ? 0 : ns + c->offset;
	}
	return session__epoch_ns(s, time) + c->offset;
}

void session__fmt_time(struct session *s, u64 time, char *buf, size_t len)
{
	session__fmt_wall(s, session__wall_ns(s, time), buf, len);
}

void session__fmt_wall(struct session *s, u64 wall_ns, char *buf, size_t len)
{
	long long wall, sec, ns;
	long usec;

	if (s->conf.clock->tsc || s->conf.clock->kvmclock) {
		/* the original's form: ticks (kvmclock ns) / 10^9 as SECONDS.USEC */
		u64 t = wall_ns;

		snprintf(buf, len, "%llu.%06llu", (unsigned long long)(t / 1000000000ULL),
			 (unsigned long long)(t % 1000000000ULL / 1000));
		return;
	}
	wall = (long long)wall_ns;
	sec = wall / 1000000000LL;
	ns = wall % 1000000000LL;
	if (ns < 0) { /* before the epoch (a --clock-offset): round down */
		ns += 1000000000LL;
		sec--;
	}
	usec = (long)(ns / 1000);
	/* localtime_r is costly per event; the seconds part rarely changes */
	if (sec != s->cached_sec) {
		time_t t = (time_t)sec;
		struct tm tm;

		localtime_r(&t, &tm);
		strftime(s->cached_prefix, sizeof(s->cached_prefix), "%Y-%m-%d %H:%M:%S", &tm);
		s->cached_sec = sec;
	}
	if (len < 27) {
		if (len)
			buf[0] = 0;
		return;
	}
	/* per event: no printf */
	memcpy(buf, s->cached_prefix, 19);
	buf[19] = '.';
	for (int i = 25; i >= 20; i--, usec /= 10)
		buf[i] = (char)('0' + usec % 10);
	buf[26] = 0;
}

bool session__json(struct session *s)
{
	return s && s->out.json;
}

void session__set_json(struct session *s, bool on)
{
	s->out.json = on;
}

int session__workload_status(struct session *s)
{
	return s->wl.forked && s->wl.proc.exited ? s->wl.proc.status : -1;
}

bool session__is_target(struct session *s, u32 pid, u32 tid)
{
	return target_set__has(s->targets, pid, tid);
}

bool session__per_thread(const struct session *s)
{
	return s->perf.per_thread;
}

pid_t session__workload_pid(struct session *s)
{
	return s->wl.forked ? s->wl.proc.pid : -1;
}

void session__stop(struct session *s)
{
	s->stop = true;
	if (!s->stop_reason) /* (-v's "stopped: ...") */
		s->stop_reason = "the profiler's end (its -N or condition)";
}

/* A task record's time, from its sample_id (0: none) */
static u64 task_rec_time(const struct perf_event_header *h)
{
	struct sample id;

	return sample__parse_id(h, BASE_SAMPLE_TYPE, &id) ? 0 : id.time;
}

/*
 * The names a COMM or FORK record gives, at the record's time: a child
 * that never execs keeps the name its parent had when it forked.  Applying
 * a record twice changes nothing (see prescan_names).
 */
static void apply_names(struct session *s, const struct perf_event_header *h)
{
	struct sample id;
	u64 time = sample__parse_id(h, BASE_SAMPLE_TYPE, &id) ? 0 : id.time;

	if (h->type == PERF_RECORD_COMM) {
		struct rec_comm c;

		if (!rec__comm(h, &c))
			comm_map__set_at(s->comms, c.tid, c.comm, time ? time : 1);
	} else if (h->type == PERF_RECORD_FORK) {
		struct rec_task t;
		char comm[16];

		if (rec__task(h, &t))
			return;
		snprintf(comm, sizeof(comm), "%s", comm_map__get_at(s->comms, t.ptid, t.time));
		comm_map__set_at(s->comms, t.tid, comm, t.time ? t.time : 1);
	}
}

/*
 * Without --order each buffer is processed on its own: a sample read from
 * one CPU's buffer may come before the COMM record, in another CPU's, of
 * the rename its thread did just before (set the name on CPU 1, run on
 * CPU 0).  Before a buffer is processed, the COMM and FORK records of the
 * others, as far as they are written, update the (time-kept) names; each
 * record is looked at once here, and its processing later changes nothing.
 */
static void prescan_names(struct session *s, struct buf *self)
{
	for (int i = 0; i < s->perf.nr_bufs; i++) {
		struct buf *b = &s->perf.bufs[i];
		const struct perf_event_header *h;

		if (b == self)
			continue;
		if (!ring__begin(&b->ring))
			continue;
		if (b->scanned > b->ring.pos && b->scanned <= b->ring.head)
			b->ring.pos = b->scanned;
		while ((h = ring__next(&b->ring)))
			if (h->type == PERF_RECORD_COMM || h->type == PERF_RECORD_FORK)
				apply_names(s, h);
		b->scanned = b->ring.pos;
		/* no ring__end: the records stay for this buffer's own drain */
	}
}

/*
 * A sample of a task past its exit carries tid -1: the tracepoint's own
 * common_pid says which task it was, and its name is the event's comm
 * field of that task (prev_comm for prev_pid, comm for pid), if any.
 */
static void exiting_task(struct session *s, struct evsel *ev, struct sample *smp)
{
	struct field pid_f, f;
	u64 pid, v;
	const char *comm;
	int len;

	if (evsel__field(ev, "common_pid", &pid_f) || field__u64(&pid_f, smp, &pid))
		return;
	smp->tid = (u32)pid;
	for (struct tep_format_field *tf = ev->tp->format.fields; tf; tf = tf->next) {
		const char *name = tf->name;
		size_t n = strlen(name);
		char pid_name[64];

		if (n < 4 || strcmp(name + n - 4, "comm") || n - 4 + 4 >= sizeof(pid_name))
			continue;
		snprintf(pid_name, sizeof(pid_name), "%.*spid", (int)(n - 4), name);
		if (evsel__field(ev, pid_name, &f) || field__u64(&f, smp, &v) || v != pid ||
		    evsel__field(ev, name, &f) || !(comm = field__str(&f, smp, &len)) || len <= 0)
			continue;
		{
			char buf[16];

			snprintf(buf, sizeof(buf), "%.*s", len, comm);
			comm_map__set_at(s->comms, smp->tid, buf, smp->time ? smp->time : 1);
			comm_map__exit(s->comms, smp->tid, smp->time);
		}
		return;
	}
}

/* A sample to the profiler: true when it was handled (delivered or filtered). */
static bool dispatch_sample(struct session *s, const struct perf_event_header *h,
			    struct sample *smp)
{
	struct evsel *ev;
	u64 id;

	if (s->stop && s->conf.run->max_samples && s->nr_samples >= s->conf.run->max_samples)
		return false;
	memcpy(&id, h + 1, sizeof(id)); /* PERF_SAMPLE_IDENTIFIER comes first */
	ev = session__evsel_by_id(s, id);
	if (!ev || sample__parse_intr(h, ev->attr.sample_type, ev->attr.read_format,
				      ev->attr.sample_regs_user, ev->attr.sample_regs_intr, smp))
		return false;
	if (ev == s->perf.kvm_ev) { /* --kvmclock's: the clock's, no profiler's */
		session__kvmclock_sample(s, ev, smp);
		return false;
	}
	if (smp->tid == (u32)-1 && ev->tp)
		exiting_task(s, ev, smp);
	if (ev->tp)
		session__learn_names(s, ev, smp);
	if (ev->ufilter && !s->uf_ops->match(ev->ufilter, s, smp)) {
		ev->nr_ufiltered++;
		return true;
	}
	/* an event of one profiler of several (engine/joint.c) */
	if (ev->owner >= 0 && !session__owner_takes(s, ev, smp))
		return true;
	ev->nr_samples++;
	s->nr_samples++;
	if (ev->owner >= 0) {
		session__deliver(s, ev, smp);
	} else {
		SESSION_CALL(s, sample, ev, smp);
		if (ev->handler)
			ev->handler(s, ev->priv, ev, smp);
	}
	if (s->conf.run->max_samples && s->nr_samples >= s->conf.run->max_samples) {
		s->stop = true;
		s->stop_reason = "sample limit (-N) reached";
	}
	return true;
}

void session__dispatch(struct session *s, const struct perf_event_header *h, int cpu)
{
	struct sample smp;

	switch (h->type) {
	case PERF_RECORD_SAMPLE: {
		u64 t0;

		if (!rate__evaluates(s->rate)) {
			dispatch_sample(s, h, &smp);
			return;
		}
		/* --perfeval-*: what handling it costs, from parsing to the profiler's return */
		t0 = session__now(s);
		if (dispatch_sample(s, h, &smp))
			rate__handled(s->rate, smp.cpu, smp.pid, h->size, session__now(s) - t0);
		return;
	}
	case PERF_RECORD_COMM: {
		struct rec_comm c;

		if (rec__comm(h, &c))
			return;
		c.time = task_rec_time(h);
		apply_names(s, h);
		SESSION_CALL(s, comm, &c);
		return;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		struct rec_task t;

		if (rec__task(h, &t))
			return;
		if (h->type == PERF_RECORD_FORK) {
			apply_names(s, h);
			if (target_set__fork(s->targets, &t) && !s->targets_nomem++)
				fprintf(stderr, "perf-prof: out of memory: a process the workload "
						"started is not followed\n");
			SESSION_CALL(s, fork, &t);
		}
		if (h->type == PERF_RECORD_EXIT) {
			comm_map__exit(s->comms, t.tid, t.time);
			/* in reverse: the profiler before the maps go */
			for (int i = s->nr_hooks - 1; i >= 0; i--)
				if (s->hooks[i].ops->exit)
					s->hooks[i].ops->exit(s, s->hooks[i].priv, &t);
			/* after the hook: the exiting task was still a target there */
			target_set__exit(s->targets, &t);
		}
		return;
	}
	case PERF_RECORD_MMAP2: {
		struct rec_mmap2 m;

		if (!rec__mmap2(h, &m)) {
			m.time = task_rec_time(h);
			SESSION_CALL(s, mmap2, &m);
		}
		return;
	}
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES: {
		struct rec_lost l;

		if (!rec__lost(h, &l))
			SESSION_CALL(s, lost, cpu, l.lost);
		return;
	}
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		struct rec_switch sw;

		if (s->want_switch && !rec__switch(h, BASE_SAMPLE_TYPE, &sw))
			SESSION_CALL(s, context_switch, &sw);
		return;
	}
	case PERF_RECORD_THROTTLE:
		/* the kernel stopped sampling for a while: say so with the lost counts */
		s->perf.throttled++;
		return;
	default:
		session__sideband(s, h); /* KSYMBOL, BPF_EVENT, CGROUP, TEXT_POKE */
		return;
	}
}

/*
 * A record's time (0 when it has none) and, for a sample, its thread in
 * *@tid.  Read in place, not decoded: a sample is decoded once, when it
 * is dispatched (queued with --order, kept by --overwrite or limited by
 * --sampling-limit, it is not decoded before).
 */
static u64 record_time(struct session *s, const struct perf_event_header *h, u32 *tid)
{
	u64 time;

	if (h->type == PERF_RECORD_SAMPLE) {
		struct evsel *ev;
		u64 id;

		/* PERF_SAMPLE_IDENTIFIER comes first: the event decides the rest */
		if (h->size < sizeof(*h) + sizeof(id))
			return 0;
		memcpy(&id, h + 1, sizeof(id));
		ev = session__evsel_by_id(s, id);
		if (!ev || sample__time(h, ev->attr.sample_type, &time, tid))
			return 0;
		return time;
	}
	return sample__id_time(h, BASE_SAMPLE_TYPE, &time) ? 0 : time;
}

u64 session__record_time(struct session *s, const struct perf_event_header *h)
{
	return record_time(s, h, NULL);
}

/* Samples --sampling-limit dropped in a row from one buffer, from @time on. */
struct gap {
	u64 n, time;
};

/*
 * The profiler hears of dropped samples where they were, as of lost ones
 * (its lost hook): a pairing profiler forgets what spans the hole rather
 * than pair across it.  With --order, a marker in the queue at the time
 * of the first one, as the queue's own drops leave.
 */
static int flush_gap(struct session *s, struct buf *b, struct gap *g)
{
	struct {
		struct perf_event_header h;
		u64 id, lost;
	} rec = { .h = { .type = PERF_RECORD_LOST, .size = sizeof(rec) },
		  .id = ORDER_GAP_ID,
		  .lost = g->n };
	int err = 0;

	if (!g->n)
		return 0;
	if (s->oq)
		err = order__push(s->oq, g->time, &rec.h, b->ring.cpu, 1);
	else
		SESSION_CALL(s, lost, b->ring.cpu, g->n);
	g->n = 0;
	return err == -ENOMEM ? err : 0;
}

/* --sampling-limit: true when this sample is one too many (then it joins @g). */
static bool over_limit(struct session *s, struct buf *b, const struct perf_event_header *h,
		       struct gap *g, u64 *time)
{
	u32 tid = 0;

	*time = record_time(s, h, &tid);
	/* the seconds of the printed clock: a second's lines are at most N */
	if (!*time ||
	    rate__admit(s->rate, b->ring.cpu, tid, session__wall_ns(s, *time) / 1000000000ULL))
		return false;
	if (!g->n++)
		g->time = *time;
	return true;
}

/*
 * Records the time-order queue may refuse when it is full.  The others
 * (COMM, FORK, EXIT, MMAP2, lost, throttle) are few, and names and
 * symbols depend on them: they get a reserve beyond the budget.
 */
static int droppable(const struct perf_event_header *h)
{
	return h->type == PERF_RECORD_SAMPLE || h->type == PERF_RECORD_SWITCH ||
	       h->type == PERF_RECORD_SWITCH_CPU_WIDE;
}

/*
 * A run that is behind still answers SIGINT/SIGTERM: the processing loops
 * read the signals every CHECK_EVERY records.  After an interrupt what is
 * left is delivered for ABANDON_NS more at most (at once on a second
 * signal), then the rest is given up so that the profiler prints its
 * report and exits; the deadline is then looked at after every record (a
 * record with a DWARF stack of a process not seen before takes
 * milliseconds).
 */
#define CHECK_EVERY 256

static bool give_up(struct session *s, unsigned n)
{
	if (n % CHECK_EVERY == 0 && s->sig.fd >= 0)
		session__handle_signals(s);
	if (!s->sig.interrupted)
		return false;
	return s->sig.nr_interrupts > s->sig.interrupts_seen ||
	       session__now(s) >= s->sig.abandon_at;
}

static int drain(struct session *s, struct buf *b)
{
	const struct perf_event_header *h;
	struct gap gap = { 0 };
	int cpu = b->ring.cpu, err;
	unsigned n = 0;

	b->read_time = session__now(s);
	if (s->oq)
		order__set_now(s->oq, b->read_time);
	if (!ring__begin(&b->ring))
		return 0;
	if (!s->oq && s->perf.nr_bufs > 1)
		prescan_names(s, b);
	while ((h = ring__next(&b->ring))) {
		u64 time = 0;

		s->perf.nr_read++;
		/* a name tracker's loss is no event's: those names fall back to /proc */
		if (b->names_only &&
		    (h->type == PERF_RECORD_LOST || h->type == PERF_RECORD_LOST_SAMPLES))
			continue;
		if (h->type == PERF_RECORD_LOST || h->type == PERF_RECORD_LOST_SAMPLES) {
			u64 before = s->perf.lost_total;

			session__count_lost(s, h, cpu);
			b->lost += s->perf.lost_total - before;
		}
		if (h->type == PERF_RECORD_SAMPLE && !b->kvmclock && rate__limits(s->rate) &&
		    over_limit(s, b, h, &gap, &time)) {
			if (give_up(s, ++n))
				break;
			continue;
		}
		err = flush_gap(s, b, &gap);
		if (!err && s->oq) {
			if (h->type != PERF_RECORD_SAMPLE || !time)
				time = record_time(s, h, NULL);
			err = order__push(s->oq, time, h, cpu, !droppable(h));
			/* -ENOBUFS: refused by the budget, counted and marked in the queue */
			if (err == -ENOBUFS)
				err = 0;
		} else if (!err) {
			/*
			 * Also after a stop (workload exited, -p targets gone):
			 * the final drain delivers what is left; dispatch itself
			 * drops samples beyond -N.
			 */
			session__dispatch(s, h, cpu);
		}
		if (err) {
			ring__end(&b->ring);
			return err;
		}
		if (give_up(s, ++n))
			break;
	}
	err = flush_gap(s, b, &gap);
	ring__end(&b->ring);
	return err;
}

/*
 * Processing a large batch (symbol loading, stack resolution) can take long
 * enough for the kernel to fill a buffer meanwhile: move what has piled up
 * into the queue now and then, so that memory, not the ring, takes bursts,
 * as long as it fits in the budget.  Beyond, the ring buffers are the
 * back-pressure: they fill and the kernel counts what it loses.
 */
void perf_source__pull(struct session *s)
{
	for (int i = 0; i < s->perf.nr_bufs; i++) {
		struct ring *r = &s->perf.bufs[i].ring;
		u64 used =
			__atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE) - r->meta->data_tail;

		if (used > r->size / 4 && order__room(s->oq, used) && drain(s, &s->perf.bufs[i]))
			return;
	}
}

/* ... of every source (the perf source's: perf_source__pull) */
static void pull_full(struct session *s)
{
	for (int i = 0; i < s->nr_sources; i++)
		if (s->sources[i]->ops->read)
			s->sources[i]->ops->read(s->sources[i], SOURCE_READ_PULL, NULL);
}

static void flush_order(struct session *s, u64 horizon)
{
	const struct perf_event_header *h;
	unsigned n = 0;
	int cpu;

	while ((h = order__pop(s->oq, horizon, &cpu, NULL))) {
		if (give_up(s, ++n))
			break;
		if (n % 512 == 0)
			pull_full(s);
		if (s->stop && s->conf.run->max_samples &&
		    s->nr_samples >= s->conf.run->max_samples)
			continue; /* drop the rest after -N */
		session__dispatch(s, h, cpu);
	}
}

int perf_source__drain(struct session *s, struct buf *b)
{
	return drain(s, b);
}

int session__source_record(struct session *s, const struct perf_event_header *h, int cpu)
{
	int err;

	if (!s->oq) {
		session__dispatch(s, h, cpu);
		return 0;
	}
	err = order__push(s->oq, record_time(s, h, NULL), h, cpu, !droppable(h));
	return err == -ENOBUFS ? 0 : err; /* refused by the budget: counted and marked */
}

/* Read every source; with time order, deliver up to the horizon of them all. */
static int drain_all(struct session *s, unsigned how)
{
	u64 horizon = ~0ULL;
	int err;

	for (int i = 0; i < s->nr_sources; i++) {
		struct source *src = s->sources[i];

		/* (source.h's unordered: what is ordered so far comes first) */
		if (i && s->oq && src->ops->unordered)
			flush_order(s, how & SOURCE_READ_FINAL ? ~0ULL : horizon);
		err = src->ops->read ? src->ops->read(src, how, &horizon) : 0;
		if (err)
			return err;
	}
	if (s->oq)
		flush_order(s, how & SOURCE_READ_FINAL ? ~0ULL : horizon);
	return 0;
}

int session__read_sources(struct session *s, unsigned how)
{
	return drain_all(s, how);
}

int session__drain_rings(struct session *s, bool final)
{
	return drain_all(s, final ? SOURCE_READ_FINAL : 0);
}

int session__start_order(struct session *s)
{
	if (!s->oq && !(s->oq = order__new()))
		return -ENOMEM;
	order__set_budget(s->oq, session__order_budget(s));
	return 0;
}

/*
 * 0, or why writing the output failed.  A write that failed inside an
 * earlier printf left only the error flag (errno has changed since): the
 * -o stream remembers it (@known); on stdout the flush writes what is still
 * buffered again and tells why, and with nothing left to write, a pipe
 * whose reader is gone polls POLLERR.
 */
static int output_errno(FILE *out, const int *known)
{
	struct pollfd pfd = { .fd = fileno(out), .events = POLLOUT };

	errno = 0;
	if (!fflush(out) && !ferror(out))
		return 0;
	if (known && *known)
		return *known; /* -o FILE's stream keeps it */
	if (errno)
		return errno;
	return poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLERR) ? EPIPE : EIO;
}

static int arm_timer(int fd, unsigned ms)
{
	return session__arm_timer_ns(fd, (u64)ms * 1000000ULL);
}

static int setup_loop(struct session *s)
{
	struct epoll_event e = { 0 };
	sigset_t set;

	session__block_signals(s);
	session__loop_sigset(s, &set);
	s->sig.fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	s->tickfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (s->sig.fd < 0 || s->epfd < 0 || s->tickfd < 0 || arm_timer(s->tickfd, TICK_MS))
		return -errno;
	e.events = EPOLLIN;
	e.data.u64 = ~0ULL;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->sig.fd, &e))
		return -errno;
	e.data.u64 = ~1ULL;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->tickfd, &e))
		return -errno;
	if (session__interval_ms(s)) {
		s->intfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (s->intfd < 0 || arm_timer(s->intfd, session__interval_ms(s)))
			return -errno;
		e.data.u64 = ~2ULL;
		if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->intfd, &e))
			return -errno;
	}
	if (session__timers_setup(s)) /* session__every's, tagged ~4, ~5, ... */
		return -errno;
	if (s->conf.run->usage_ms) {
		s->usefd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (s->usefd < 0 || arm_timer(s->usefd, s->conf.run->usage_ms))
			return -errno;
		e.data.u64 = ~3ULL;
		if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->usefd, &e))
			return -errno;
	}
	/* every source's fds, tagged with its index above 32 bits */
	for (int i = 0; i < s->nr_sources; i++) {
		struct source *src = s->sources[i];
		int err = src->ops->poll_fds ? src->ops->poll_fds(src, s->epfd, (u64)i << 32) : 0;

		if (err)
			return err;
	}
	return 0;
}

/*
 * A workload still running when the session stops (-N, output error, or a
 * signal passed on to it): give it 2 s to exit, then kill it.  It is
 * reaped either way, so no child outlives perf-prof.
 */
static void end_workload(struct session *s)
{
	if (session__reap_workload(s))
		return;
	if (!s->sig.interrupted) {
		workload__signal_tree(&s->wl.proc, SIGTERM);
		s->wl.stopped = true;
	}
	for (int i = 0; i < 200 && !session__reap_workload(s); i++)
		usleep(10000);
	if (!s->wl.proc.exited) {
		s->wl.stopped = true;
		workload__signal_tree(&s->wl.proc, SIGKILL);
		workload__kill(&s->wl.proc);
	}
}

/*
 * A zombie has exited even though kill(pid, 0) still succeeds: its parent
 * may not reap it for a long time, and no event can come from it.
 */
static bool task_alive(int pid)
{
	char state;
	int err = procfs__stat(pid, &state, NULL);

	if (err)
		return err != -ENOENT && err != -ESRCH;
	return state != 'Z' && state != 'X';
}

/* A process lives while any of its threads does (its main thread may have exited). */
static bool process_alive(int pid)
{
	char path[64];
	struct dirent *d;
	bool alive = false;
	DIR *dir;

	if (task_alive(pid))
		return true;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return false;
	while (!alive && (d = readdir(dir)))
		if (d->d_name[0] >= '1' && d->d_name[0] <= '9')
			alive = task_alive(atoi(d->d_name));
	closedir(dir);
	return alive;
}

/* -p/-t targets: stop when every monitored process or thread is gone. */
static void check_targets(struct session *s)
{
	const struct target_opts *t = s->conf.target;
	int alive = 0;

	if (s->wl.forked || (!t->nr_pids && !t->nr_tids))
		return;
	for (int i = 0; i < t->nr_pids; i++)
		alive += process_alive(t->pids[i]);
	for (int i = 0; i < t->nr_tids; i++)
		alive += task_alive(t->tids[i]);
	if (!alive) {
		s->stop = true;
		s->stop_reason = "monitored processes exited";
	}
}

/* What an interrupt left unprocessed, for the lost report. */
static void count_abandoned(struct session *s)
{
	if (!s->sig.abandon_at)
		return;
	if (s->oq)
		s->abandoned_recs = order__len(s->oq);
	for (int i = 0; i < s->nr_sources; i++)
		if (s->sources[i]->ops->abandon)
			s->sources[i]->ops->abandon(s->sources[i]);
}

int session__add_ops(struct session *s, const struct session_ops *ops, void *priv)
{
	if (s->nr_hooks == s->cap_hooks) {
		int cap = s->cap_hooks ? 2 * s->cap_hooks : 4;
		struct session_hooks *h = realloc(s->hooks, cap * sizeof(*h));

		if (!h)
			return session__set_err(s, -ENOMEM, "out of memory");
		s->hooks = h;
		s->cap_hooks = cap;
	}
	s->hooks[s->nr_hooks++] = (struct session_hooks){
		.ops = ops, .priv = priv, .outer = -1, .owner = s->cur_owner
	};
	s->want_switch |= ops->context_switch != NULL;
	return 0;
}

bool session__has_snapshot(const struct session *s)
{
	for (int i = 0; i < s->nr_hooks; i++)
		if (s->hooks[i].ops->snapshot)
			return true;
	return false;
}

int session__run(struct session *s)
{
	struct epoll_event evs[64];
	int err;

	/* --overwrite orders each read itself */
	if (s->order && !s->conf.ring->overwrite && session__start_order(s))
		return session__set_err(s, -ENOMEM, "out of memory");
	s->rate = rate__new(s->conf.run, s->max_cpu, s->perf.per_thread);
	if (!s->rate && errno)
		return session__set_err(s, -ENOMEM, "out of memory");
	err = setup_loop(s);
	if (err)
		return session__set_err(s, err, "cannot set up the event loop: %s", strerror(-err));
	/*
	 * A stop held since start-up ends the run before it starts: nothing
	 * enabled, no command run, no output opened (session__enable).
	 */
	session__handle_signals(s);
	err = session__enable(s);
	if (err)
		return err;
	s->eval_since = session__now(s);
	/* scripts (and the tests) wait for this line before starting a workload */
	if (s->conf.log->verbose && s->started)
		fprintf(stderr, "perf-prof: monitoring: %d events enabled\n",
			s->perf.nr_fds - s->perf.nr_trackers);
	while (!s->stop) {
		bool tick = false, interval = false, usage = false;
		int n = epoll_wait(s->epfd, evs, 64, -1);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return session__set_err(s, -errno, "epoll_wait: %s", strerror(errno));
		}
		for (int i = 0; i < n; i++) {
			u64 tag = evs[i].data.u64;
			uint64_t exp;

			if (tag == ~0ULL) {
				session__handle_signals(s);
			} else if (tag == ~1ULL) {
				tick = read(s->tickfd, &exp, sizeof(exp)) > 0;
			} else if (tag == ~2ULL) {
				interval = read(s->intfd, &exp, sizeof(exp)) > 0;
			} else if (tag == ~3ULL) {
				usage = read(s->usefd, &exp, sizeof(exp)) > 0;
			} else if (session__timer_tag(s, tag)) {
				/* a session__every timer's expirations, counted */
			} else {
				struct source *src = s->sources[tag >> 32];

				err = src->ops->ready(src, (u32)tag, evs[i].events);
				if (err < 0)
					return session__set_err(s, err, "out of memory");
				tick |= err > 0;
			}
		}
		if (tick || interval || s->sig.want_snapshot) {
			if (s->perf.tracer) /* (SIGCHLD says it too) */
				session__reap_workload(s);
			check_targets(s);
			err = drain_all(s, interval || s->sig.want_snapshot ? SOURCE_READ_SNAPSHOT
									    : 0);
			if (err)
				return session__set_err(s, err, "out of memory");
		}
		if (interval && !s->stop)
			SESSION_CALL_REPORT(s, interval);
		session__timers_run(s);
		if (s->sig.want_snapshot && !s->stop)
			SESSION_CALL_REPORT(s, snapshot);
		if (usage || s->sig.want_usage)
			SESSION_CALL(s, usage);
		if (s->sig.want_reopen)
			SESSION_CALL(s, reopen);
		s->sig.want_snapshot = s->sig.want_usage = s->sig.want_reopen = false;
		if ((s->out.err = output_errno(s->out.fp, s->out.errno_at))) {
			s->stop = true;
			s->stop_reason = "output error";
		}
	}
	end_workload(s);
	if (s->perf.tracer) {
		tracer__detach(s->perf.tracer, s->wl.forked ? &s->wl.proc : NULL);
		if (s->conf.log->verbose)
			fprintf(stderr,
				"perf-prof: ptrace: %u new tasks followed from birth, %u not "
				"detached\n",
				tracer__born(s->perf.tracer), tracer__nr(s->perf.tracer));
	}
	/* Everything written before the stop is delivered, in order. */
	for (int i = 0; i < s->nr_sources; i++)
		if (s->sources[i]->ops->disable)
			s->sources[i]->ops->disable(s->sources[i]);
	err = drain_all(s, SOURCE_READ_FINAL);
	if (err)
		return session__set_err(s, err, "out of memory");
	if (s->oq)
		flush_order(s, ~0ULL);
	count_abandoned(s);
	if (s->conf.log->verbose) {
		fprintf(stderr, "perf-prof: stopped: %s%s\n", s->stop_reason ? s->stop_reason : "?",
			s->started ? "" : " (during start-up: nothing enabled)");
		if (s->oq) {
			char size[32];

			units__fmt_size(session__order_budget(s), size, sizeof(size));
			fprintf(stderr,
				"perf-prof: order queue peak %zu records, %.1f MiB (--order-mem "
				"%s)\n",
				order__max_len(s->oq), order__max_bytes(s->oq) / 1048576.0, size);
		}
		{
			size_t evicted, n = comm_map__count(s->comms, &evicted);

			fprintf(stderr, "perf-prof: comm cache %zu threads, %zu exited evicted\n",
				n, evicted);
		}
	}
	/*
	 * Stop signals stay held to the end (session__restore_signals): a
	 * SIGINT arriving as the run ends on its own (the target exited, -N)
	 * must not kill the process in the middle of its final output.
	 */
	if (s->out.err && s->out.err != EPIPE)
		return session__set_err(s, -s->out.err, "writing the output failed: %s",
					strerror(s->out.err));
	return 0;
}

bool session__workload_unstarted(struct session *s)
{
	return s->wl.forked && s->wl.unstarted;
}

bool session__workload_stopped(struct session *s)
{
	return s->wl.forked && s->wl.stopped;
}

int session__stop_signal(struct session *s)
{
	return s->wl.forked ? s->wl.signal : 0;
}
