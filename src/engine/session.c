// SPDX-License-Identifier: GPL-2.0
/*
 * Session setup: targets, events, perf_event_open, kernel filters, ring
 * buffers.  Teardown is the exact reverse and is safe after any partial
 * setup, so a failing open leaves nothing behind.
 */
#include <asm/perf_regs.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>

#include "engine/cpulist.h"
#include "engine/fastprint.h"
#include "engine/evfields.h"
#include "engine/rate.h"
#include "engine/session_int.h"
#include "engine/target.h"

#define DEFAULT_DWARF_SIZE 8192

static long long mono_to_wall_offset(struct session *s)
{
	struct timespec r1, r2;
	long long best = 0, best_gap = -1;

	/* The tightest of a few bracketing reads gives the offset to ~1 us. */
	for (int i = 0; i < 5; i++) {
		long long gap, m;

		clock_gettime(CLOCK_REALTIME, &r1);
		m = (long long)session__now(s); /* the events' clock */
		clock_gettime(CLOCK_REALTIME, &r2);
		gap = (r2.tv_sec - r1.tv_sec) * 1000000000LL + (r2.tv_nsec - r1.tv_nsec);
		if (best_gap < 0 || gap < best_gap) {
			long long rmid = r1.tv_sec * 1000000000LL + r1.tv_nsec + gap / 2;

			best_gap = gap;
			best = rmid - m;
		}
	}
	return best;
}

struct session *session__new(const struct engine_conf *conf, FILE *out)
{
	struct session *s = calloc(1, sizeof(*s));
	const struct target_opts *t;

	if (!s)
		return NULL;
	s->conf = *conf;
	/* a group the profiler does not take: its defaults */
	if (!s->conf.target) {
		int n = cpulist__online(&s->def_target.cpus);

		if (n <= 0) {
			free(s);
			errno = n < 0 ? -n : EINVAL;
			return NULL;
		}
		s->def_target.nr_cpus = n;
		s->conf.target = &s->def_target;
	}
	if (!s->conf.ring)
		s->conf.ring = &s->def_ring;
	if (!s->conf.run)
		s->conf.run = &s->def_run;
	if (!s->conf.events)
		s->conf.events = &s->def_events;
	if (!s->conf.capture)
		s->conf.capture = &s->def_capture;
	if (!s->conf.log)
		s->conf.log = &s->def_log;
	if (!s->conf.clock)
		s->conf.clock = &s->def_clock;
	/*
	 * Stacks resolve through the maps that MMAP2 records build: a sample
	 * read from one CPU's buffer must not overtake the mmap of its library
	 * recorded on another CPU, so stacks imply time order.
	 */
	s->order = s->conf.ring->order || s->conf.capture->cg != CG_NONE;
	s->out.fp = out;
	s->tail = &s->evsels;
	s->cur_owner = -1;
	s->epfd = s->sig.fd = s->tickfd = s->intfd = s->usefd = -1;
	s->wl.proc.pid = -1;
	s->wl.proc.go_fd = s->wl.proc.err_fd = -1;
	s->cached_sec = -1;
	s->order_margin = 10 * 1000000ULL;
	s->wall_offset = mono_to_wall_offset(s);
	s->max_cpu = cpulist__possible();
	if (s->max_cpu <= 0)
		s->max_cpu = 1024;
	s->comms = comm_map__new();
	t = s->conf.target;
	s->targets = target_set__new(t->pids, t->nr_pids, t->tids, t->nr_tids);
	if (s->targets && (t->inherit || t->ptrace))
		target_set__set_inherit(s->targets);
	s->perf.lost_cpu = calloc(s->max_cpu, sizeof(u64));
	if (!s->comms || !s->targets || !s->perf.lost_cpu || perf_source__add(s)) {
		session__delete(s);
		errno = ENOMEM;
		return NULL;
	}
	return s;
}

void session__delete(struct session *s)
{
	struct evsel *ev, *next;

	if (!s)
		return;
	session__close(s);
	session__bpf_free(s); /* before the replay's source (in s->sources) is freed */
	session__replay_free(s);
	session__kvmclock_done(s);
	if (s->perf.tracer) { /* (a run that failed before its end) */
		tracer__detach(s->perf.tracer, s->wl.forked ? &s->wl.proc : NULL);
		tracer__delete(s->perf.tracer);
	}
	if (s->wl.forked)
		workload__kill(&s->wl.proc);
	session__restore_signals(s);
	probe__remove_all(s);
	for (ev = s->evsels; ev; ev = next) {
		next = ev->next;
		probe__free(ev);
		if (ev->ufilter)
			s->uf_ops->done(ev->ufilter, s, ev);
		fastprint__delete(ev->fastprint);
		evfields__delete(ev->evfields);
		tp_names__delete(ev->names);
		free(ev->cpus);
		free(ev->src->cnt);
		free(ev->filter);
		free(ev->name);
		free(ev);
	}
	if (s->seq_ready)
		trace_seq_destroy(&s->seq);
	for (int i = 0; i < s->err.nr_skipped; i++)
		free(s->err.skipped[i]);
	free(s->err.skipped);
	tp__delete(s->tp);
	comm_map__delete(s->comms);
	target_set__delete(s->targets);
	order__delete(s->oq);
	rate__delete(s->rate);
	free(s->perf.lost_cpu);
	free(s->perf.threads);
	free(s->def_target.cpus);
	free(s->hooks);
	free(s->sources);
	free(s);
}

int session__add_source(struct session *s, struct source *src)
{
	if (s->nr_sources == s->cap_sources) {
		int cap = s->cap_sources ? 2 * s->cap_sources : 2;
		struct source **p = realloc(s->sources, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->sources = p;
		s->cap_sources = cap;
	}
	src->s = s;
	s->sources[s->nr_sources++] = src;
	return 0;
}

void session__set_user_filters(struct session *s, const struct user_filter_ops *ops)
{
	s->uf_ops = ops;
}

const struct engine_conf *session__conf(struct session *s)
{
	return &s->conf;
}

int session__verbose(struct session *s)
{
	return s->conf.log->verbose;
}

bool session__quiet(struct session *s)
{
	return s->conf.log->quiet;
}

bool session__stacks_for_all(struct session *s)
{
	return s->conf.capture->cg != CG_NONE && !s->conf.capture->by_attr;
}

void session__want_order(struct session *s)
{
	s->order = true;
}

void session__arrival_order(struct session *s)
{
	s->order = s->conf.ring->order;
}

void session__want_cpu_wide(struct session *s)
{
	s->cpu_wide = true;
	if (s->cur_owner >= 0)
		s->hooks[s->cur_owner].cpu_wide = true;
}

int session__refuse_overwrite(struct session *s, const char *what)
{
	if (!s->conf.ring->overwrite)
		return 0;
	return session__usage_err(s,
				  "--overwrite keeps only the newest records: %s needs every one "
				  "as it comes (run it without --overwrite)",
				  what);
}

void session__want_interval(struct session *s, unsigned ms)
{
	s->want_interval = ms;
}

unsigned session__interval_ms(struct session *s)
{
	return s->conf.run->interval_ms ? s->conf.run->interval_ms : s->want_interval;
}

void session__want_pages(struct session *s, unsigned pages)
{
	if (pages > s->perf.want_pages)
		s->perf.want_pages = pages;
}

unsigned session__pages(struct session *s)
{
	if (s->conf.ring->mmap_pages)
		return s->conf.ring->mmap_pages;
	return ring__default_pages(s->conf.target->nr_cpus, s->perf.want_pages);
}

bool session__started(struct session *s)
{
	return s && s->started;
}

bool session__stopping(const struct session *s)
{
	return s && s->stop;
}

u64 session__enabled_time(struct session *s)
{
	return s && s->started ? s->enabled_at : 0;
}

u64 session__all_enabled_time(struct session *s)
{
	return s && s->started ? s->all_enabled_at : 0;
}

u64 session__records_read(struct session *s)
{
	struct source_stats st;

	session__source_stats(s, &st);
	return st.nr_read;
}

struct stack_ctx *session__stack(struct session *s)
{
	return s->stack;
}

void session__set_stack(struct session *s, struct stack_ctx *ctx)
{
	s->stack = ctx;
}

struct evsel *session__evsels(struct session *s)
{
	return s->evsels;
}

const char *session__comm(struct session *s, u32 pid)
{
	return comm_map__get(s->comms, pid);
}

const char *session__comm_at(struct session *s, u32 pid, u64 time)
{
	return comm_map__get_at(s->comms, pid, time);
}

void session__saw_comm(struct session *s, u32 pid, const char *comm, int len, u64 time)
{
	if (pid)
		comm_map__seen(s->comms, pid, comm, len, time);
}

static int need_tp(struct session *s)
{
	if (s->tp)
		return 0;
	s->tp = tp__new();
	if (!s->tp)
		return session__set_err(s, -errno,
					errno == ENOENT ? "tracefs is not mounted: run 'mount -t "
							  "tracefs nodev /sys/kernel/tracing'"
							: "cannot set up tracepoint parsing: %s",
					strerror(errno));
	return 0;
}

struct tep_handle *session__tep(struct session *s)
{
	return need_tp(s) ? NULL : tp__tep(s->tp);
}

static struct evsel *evsel_new(struct session *s, const struct evsel_conf *c, const char *name)
{
	const struct capture_opts *cap = s->conf.capture;
	struct evsel *ev = perf_evsel__alloc();
	struct perf_event_attr *a;

	if (!ev || !(ev->name = strdup(name))) {
		free(ev);
		session__set_err(s, -ENOMEM, "out of memory");
		return NULL;
	}
	a = &ev->attr;
	a->size = sizeof(*a);
	a->type = c->type;
	a->config = c->config;
	a->sample_period = c->sample_period ? c->sample_period : 1;
	a->freq = c->freq;
	a->sample_type = BASE_SAMPLE_TYPE | c->extra_sample_type;
	a->read_format = c->read_format;
	a->exclude_user = c->exclude_user;
	a->exclude_kernel = c->exclude_kernel;
	a->exclude_hv = c->exclude_hv;
	a->exclude_guest = c->exclude_guest;
	a->exclude_host = c->exclude_host;
	a->config1 = c->config1;
	a->config2 = c->config2;
	a->disabled = 1;
	a->sample_id_all = 1;
	a->ksymbol = !!(c->sideband & SB_KSYMBOL);
	a->bpf_event = !!(c->sideband & SB_BPF_EVENT);
	a->cgroup = !!(c->sideband & SB_CGROUP);
	a->text_poke = !!(c->sideband & SB_TEXT_POKE);
	/* --tsc, --kvmclock: perf's own clock, the one the kernel converts to the TSC */
	a->use_clockid = !s->conf.clock->tsc && !s->conf.clock->kvmclock;
	a->clockid = a->use_clockid ? CLOCK_MONOTONIC : 0;
	/* wakeups: set at open (session__set_wakeup), when the ring size is known */
	if (c->callchain && cap->cg != CG_NONE) {
		/*
		 * Capture only the halves that will be shown: the kernel walks
		 * and copies what is asked for, and the DWARF stack copy is the
		 * most costly part of a sample.
		 */
		bool user = !c->exclude_callchain_user && !cap->no_user && !c->exclude_user;
		bool dwarf = cap->cg == CG_DWARF && user;

		a->exclude_callchain_user = !user || dwarf;
		a->exclude_callchain_kernel = cap->no_kernel;
		if (!a->exclude_callchain_user || !a->exclude_callchain_kernel)
			a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		if (c->max_stack || cap->max_stack)
			a->sample_max_stack = c->max_stack ? c->max_stack : cap->max_stack;
		if (dwarf) {
			/* the kernel part from the callchain, the user part by unwinding */
			a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
			a->sample_regs_user =
				((1ULL << PERF_REG_X86_64_MAX) - 1) &
				~((1ULL << PERF_REG_X86_DS) | (1ULL << PERF_REG_X86_ES) |
				  (1ULL << PERF_REG_X86_FS) | (1ULL << PERF_REG_X86_GS));
			a->sample_stack_user =
				cap->dwarf_size ? cap->dwarf_size : DEFAULT_DWARF_SIZE;
		}
	}
	if (c->counting) {
		a->sample_period = 0;
		a->freq = 0;
		a->sample_type = 0;
		a->sample_id_all = 0;
		a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a->exclude_callchain_user = a->exclude_callchain_kernel = 0;
		a->sample_max_stack = 0;
		ev->counting = true;
	}
	ev->leader = c->leader;
	ev->owner = s->cur_owner;
	ev->idx = s->nr_evsels++;
	*s->tail = ev;
	s->tail = &ev->next;
	return ev;
}

struct evsel *session__add_event(struct session *s, const struct evsel_conf *conf)
{
	return evsel_new(s, conf, conf->name ? conf->name : "event");
}

static int store_filter(struct session *s, struct evsel *ev, const char *filter)
{
	if (!filter || !*filter)
		return 0;
	ev->filter = strdup(filter);
	if (!ev->filter)
		return session__set_err(s, -ENOMEM, "out of memory");
	return 0;
}

struct evsel *session__add_tp(struct session *s, const char *sys, const char *name,
			      const struct evsel_conf *conf)
{
	struct evsel_conf c = *conf;
	struct tep_event *tp;
	struct evsel *ev;
	char full[256];

	if (need_tp(s))
		return NULL;
	tp = tp__event(s->tp, sys, name);
	if (!tp) {
		if (errno == EACCES)
			session__set_err(s, -EACCES,
					 "permission denied reading tracepoint formats in tracefs: "
					 "run as root");
		else if (errno == ENOENT)
			session__set_err(s, -ENOENT,
					 "unknown tracepoint '%s:%s' (see: perf-prof list '%s:*')",
					 sys, name, sys);
		else
			session__set_err(s, -errno, "cannot parse the format of '%s:%s'", sys,
					 name);
		return NULL;
	}
	c.type = PERF_TYPE_TRACEPOINT;
	c.config = tp->id;
	if (!c.counting)
		c.extra_sample_type |= PERF_SAMPLE_RAW;
	snprintf(full, sizeof(full), "%s:%s", sys, name);
	ev = evsel_new(s, &c, conf->name ? conf->name : full);
	if (!ev)
		return NULL;
	ev->tp = tp;
	if (store_filter(s, ev, conf->filter))
		return NULL;
	return ev;
}

bool session__has_tp(struct session *s, const char *sys, const char *name)
{
	return s->tp && tp__event(s->tp, sys, name);
}

/* cpus=LIST: the CPUs of this event, checked against the host's and -C's. */
static int spec_cpus(struct session *s, const struct ev_spec *spec, int **cpus)
{
	const struct target_opts *t = s->conf.target;
	int possible = cpulist__possible(), n, kept = 0;

	*cpus = NULL;
	if (!spec->cpus)
		return 0;
	n = cpulist__parse(spec->cpus, possible > 0 ? possible : 1, cpus);
	if (n == -ENOMEM)
		return session__set_err(s, n, "out of memory");
	if (n <= 0)
		return session__usage_err(s,
					  "bad cpus=%s in '%s' (a CPU list such as 0-3,5; this "
					  "host has CPUs 0-%d)",
					  spec->cpus, spec->text, possible - 1);
	for (int i = 0; i < n; i++) {
		kept = 0;
		for (int c = 0; c < t->nr_cpus; c++)
			kept += (*cpus)[i] == t->cpus[c];
		if (!kept) { /* as the README says: not quietly left out */
			int cpu = (*cpus)[i];

			free(*cpus);
			*cpus = NULL;
			return session__usage_err(s,
						  "cpus=%s in '%s': CPU %d is not monitored "
						  "(see -C)",
						  spec->cpus, spec->text, cpu);
		}
	}
	return n;
}

/* The same event asked for again (X,X or a glob and a name): open it once. */
static struct evsel *find_same(struct session *s, const struct evsel *ev)
{
	for (struct evsel *o = s->evsels; o && o != ev; o = o->next) {
		if (o->attr.type != ev->attr.type || o->attr.config != ev->attr.config ||
		    o->attr.config1 != ev->attr.config1 || o->attr.config2 != ev->attr.config2 ||
		    o->attr.sample_type != ev->attr.sample_type ||
		    o->attr.sample_max_stack != ev->attr.sample_max_stack ||
		    o->attr.exclude_callchain_user != ev->attr.exclude_callchain_user ||
		    o->attr.exclude_callchain_kernel != ev->attr.exclude_callchain_kernel ||
		    strcmp(o->name, ev->name) || o->nr_cpus != ev->nr_cpus || o->owner != ev->owner)
			continue;
		if ((o->filter || ev->filter) &&
		    (!o->filter || !ev->filter || strcmp(o->filter, ev->filter)))
			continue;
		if (o->nr_cpus && memcmp(o->cpus, ev->cpus, ev->nr_cpus * sizeof(*ev->cpus)))
			continue;
		return o;
	}
	return NULL;
}

/* Drop the last evsel added (a duplicate). */
static void drop_last(struct session *s, struct evsel *ev)
{
	struct evsel **pp = &s->evsels;

	while (*pp != ev)
		pp = &(*pp)->next;
	*pp = NULL;
	s->tail = pp;
	s->nr_evsels--;
	free(ev->cpus);
	free(ev->filter);
	free(ev->name);
	free(ev);
}

static int add_one(struct session *s, struct ev_spec *spec, const char *sys, const char *name,
		   const struct evsel_conf *c, bool glob)
{
	struct evsel *ev = session__add_tp(s, sys, name, c);
	int n;

	if (!ev)
		return s->err.code;
	ev->spec = spec;
	ev->from_glob = glob;
	n = spec_cpus(s, spec, &ev->cpus);
	if (n < 0)
		return n;
	ev->nr_cpus = n;
	struct evsel *same = find_same(s, ev);

	if (same) {
		/* named once without a glob: a refusal stays an error */
		same->from_glob &= ev->from_glob;
		drop_last(s, ev);
	}
	return 0;
}

int session__add_spec(struct session *s, struct ev_spec *spec, const struct evsel_conf *conf)
{
	struct evsel_conf c = *conf;
	char **list = NULL;
	int n, err;

	if (spec->profiler) /* joint analysis: the CLI runs it (cli/joint.h) */
		return session__usage_err(s, "'%s' is a profiler: no event of this one",
					  spec->text);
	if (need_tp(s))
		return s->err.code;
	if (spec->probe != EV_TP) /* usage errors are said so where they are found */
		return probe__add_spec(s, spec, conf);
	if (spec->filter)
		c.filter = spec->filter;
	if (spec->stack)
		c.callchain = true;
	if (spec->max_stack)
		c.max_stack = spec->max_stack;
	if (!strpbrk(spec->sys, "*?[") && !strpbrk(spec->name, "*?[")) {
		c.name = spec->alias;
		err = add_one(s, spec, spec->sys, spec->name, &c, false);
		if (err == -ENOENT)
			s->err.usage = true; /* an unknown event: the command line is wrong */
		return err ? err : 1;
	}
	n = tp__expand(spec->sys, spec->name, &list);
	if (n == -EACCES)
		return session__set_err(
			s, n, "permission denied reading tracepoints in tracefs: run as root");
	if (n < 0)
		return session__set_err(s, n, "cannot list tracepoints: %s", strerror(-n));
	if (n == 0)
		return session__usage_err(
			s, "no tracepoint matches '%s:%s' (see: perf-prof list '%s:*')", spec->sys,
			spec->name, spec->sys);
	for (int i = 0; i < n; i++) {
		char *colon = strchr(list[i], ':');

		*colon = 0;
		c.name = NULL;
		err = add_one(s, spec, list[i], colon + 1, &c, true);
		if (err) {
			tp__free_list(list);
			return err;
		}
	}
	tp__free_list(list);
	return n;
}

void session__set_wakeup(struct session *s, struct perf_event_attr *a)
{
	const struct ring_opts *r = s->conf.ring;

	a->watermark = 0;
	a->wakeup_events = 0;
	if (r->watermark_set && r->watermark) {
		/* wake up when PCT of the ring is filled: fewer wakeups, bigger batches */
		a->watermark = 1;
		a->wakeup_watermark = (u32)((u64)session__pages(s) * (u64)sysconf(_SC_PAGESIZE) *
					    (u64)r->watermark / 100);
	} else if (r->watermark_set) {
		a->wakeup_events = 1; /* every record wakes us: lowest latency */
	} else {
		a->watermark = 1; /* the kernel's default: half the ring */
	}
}
