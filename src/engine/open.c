// SPDX-License-Identifier: GPL-2.0
/*
 * Opening the events: one perf event per (event, CPU, thread), one ring
 * buffer per CPU (per-thread events on a CPU are redirected into it with
 * PERF_EVENT_IOC_SET_OUTPUT), kernel filters, and the sample id -> event
 * map.  Failures are classified into messages a user can act on.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <event-parse.h>

#include "engine/fdcloser.h"
#include "engine/kfilter.h"
#include "engine/fastprint.h"
#include "engine/evfields.h"
#include "engine/probe.h"
#include "engine/session_int.h"
#include "engine/target.h"

static int perf_open(struct perf_event_attr *a, pid_t pid, int cpu, int group, unsigned long fl)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, group, fl);
}

/* --cgroups: the "pid" of an event is a cgroup directory's fd */
static unsigned long open_flags(const struct session *s)
{
	return PERF_FLAG_FD_CLOEXEC | (s->perf.cg.nr ? PERF_FLAG_PID_CGROUP : 0);
}

static int read_int_file(const char *path, int def)
{
	FILE *f = fopen(path, "re");
	int v = def;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = def;
		fclose(f);
	}
	return v;
}

static int open_error(struct session *s, struct evsel *ev, int err, pid_t pid, int cpu)
{
	switch (err) {
	case EACCES:
	case EPERM:
		if (!geteuid()) /* root is refused for other reasons than privilege */
			return session__set_err(s, -err, "the kernel refuses to open %s: %s",
						ev->name, strerror(err));
		return session__set_err(s, -err,
					"permission denied opening %s: run as root, or lower "
					"kernel.perf_event_paranoid (now %d)",
					ev->name,
					read_int_file("/proc/sys/kernel/perf_event_paranoid", 2));
	case ENOENT:
	case EOPNOTSUPP:
		if (ev->attr.type == PERF_TYPE_HARDWARE || ev->attr.type == PERF_TYPE_HW_CACHE ||
		    ev->attr.type == PERF_TYPE_RAW)
			return session__set_err(s, -err,
						"%s: no hardware PMU on this host (try the "
						"cpu-clock software event)",
						ev->name);
		return session__set_err(s, -err, "%s is not supported by this kernel", ev->name);
	case ESRCH:
		return session__set_err(s, -err, "no such process: %d", pid);
	case ENODEV:
		return session__set_err(s, -err, "CPU %d is offline or does not exist", cpu);
	case EMFILE:
	case ENFILE:
		return session__set_err(
			s, -err, "too many open files opening %s: raise the limit (ulimit -n)",
			ev->name);
	case EINVAL:
		if (ev->attr.sample_type & PERF_SAMPLE_STACK_USER)
			return session__set_err(s, -err,
						"%s: the kernel rejected the DWARF stack settings "
						"(try a smaller --call-graph dwarf,SIZE)",
						ev->name);
		if (ev->leader && ev->leader != ev)
			return session__set_err(
				s, -err,
				"cannot open %s in the group of %s on %s %d: %s (the "
				"PMU cannot count them together: too many events in "
				"one {group}? split it)",
				ev->name, ev->leader->name, cpu >= 0 ? "CPU" : "thread",
				cpu >= 0 ? cpu : pid, strerror(err));
		/* fall through */
	default:
		return session__set_err(s, -err, "cannot open %s on %s %d: %s", ev->name,
					cpu >= 0 ? "CPU" : "thread", cpu >= 0 ? cpu : pid,
					strerror(err));
	}
}

static int add_fd(struct session *s, int fd, struct evsel *ev);

int session__add_fd(struct session *s, int fd, struct evsel *ev)
{
	return add_fd(s, fd, ev);
}

static int add_fd(struct session *s, int fd, struct evsel *ev)
{
	if (s->perf.nr_fds == s->perf.cap_fds) {
		int cap = s->perf.cap_fds ? s->perf.cap_fds * 2 : 64;
		int *f = realloc(s->perf.fds, cap * sizeof(*f));
		struct evsel **e;

		if (!f)
			return -ENOMEM;
		s->perf.fds = f;
		e = realloc(s->perf.fd_ev, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		s->perf.fd_ev = e;
		s->perf.cap_fds = cap;
	}
	s->perf.fd_ev[s->perf.nr_fds] = ev;
	s->perf.fds[s->perf.nr_fds++] = fd;
	return 0;
}

int session__add_id(struct session *s, u64 id, struct evsel *ev)
{
	if (s->perf.nr_ids == s->perf.cap_ids) {
		int cap = s->perf.cap_ids ? s->perf.cap_ids * 2 : 64;
		struct id_map *m = realloc(s->perf.ids, cap * sizeof(*m));

		if (!m)
			return -ENOMEM;
		s->perf.ids = m;
		s->perf.cap_ids = cap;
	}
	s->perf.ids[s->perf.nr_ids].id = id;
	s->perf.ids[s->perf.nr_ids++].ev = ev;
	return 0;
}

int session__cmp_id(const void *a, const void *b)
{
	const struct id_map *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

struct evsel *session__evsel_by_id(struct session *s, u64 id)
{
	int lo = 0, hi = s->perf.nr_ids - 1;

	if (s->nr_evsels == 1)
		return s->evsels;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (s->perf.ids[mid].id == id)
			return s->perf.ids[mid].ev;
		if (s->perf.ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

/* -p PID: every thread of each process; -t TID: those threads. */
static int cmp_pid(const void *a, const void *b)
{
	return *(const pid_t *)a - *(const pid_t *)b;
}

static int expand_targets(struct session *s)
{
	const struct target_opts *tg = s->conf.target;
	int cap = 0;

	for (int i = 0; i < tg->nr_pids; i++) {
		char path[64];
		struct dirent *d;
		DIR *dir;

		snprintf(path, sizeof(path), "/proc/%d/task", tg->pids[i]);
		dir = opendir(path);
		if (!dir)
			return session__set_err(s, -ESRCH, "no such process: %d (-p)", tg->pids[i]);
		while ((d = readdir(dir))) {
			if (d->d_name[0] < '0' || d->d_name[0] > '9')
				continue;
			if (s->perf.nr_threads == cap) {
				pid_t *t;

				cap = cap ? cap * 2 : 64;
				t = realloc(s->perf.threads, cap * sizeof(*t));
				if (!t) {
					closedir(dir);
					return session__set_err(s, -ENOMEM, "out of memory");
				}
				s->perf.threads = t;
			}
			s->perf.threads[s->perf.nr_threads++] = atoi(d->d_name);
		}
		closedir(dir);
	}
	for (int i = 0; i < tg->nr_tids; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d", tg->tids[i]);
		if (access(path, F_OK))
			return session__set_err(s, -ESRCH, "no such thread: %d (-t)", tg->tids[i]);
		if (s->perf.nr_threads == cap) {
			pid_t *t;

			cap = cap ? cap * 2 : 64;
			t = realloc(s->perf.threads, cap * sizeof(*t));
			if (!t)
				return session__set_err(s, -ENOMEM, "out of memory");
			s->perf.threads = t;
		}
		s->perf.threads[s->perf.nr_threads++] = tg->tids[i];
	}
	/*
	 * Their comms now, while they exist: they exec'd before us (no COMM
	 * record) and may be gone when their samples are printed.
	 */
	for (int i = 0; i < s->perf.nr_threads; i++)
		comm_map__get(s->comms, (uint32_t)s->perf.threads[i]);
	/* -p X,X or -p X -t X: each thread once, or every event would come twice */
	if (s->perf.nr_threads > 1) {
		int j = 1;

		qsort(s->perf.threads, s->perf.nr_threads, sizeof(*s->perf.threads), cmp_pid);
		for (int i = 1; i < s->perf.nr_threads; i++)
			if (s->perf.threads[i] != s->perf.threads[j - 1])
				s->perf.threads[j++] = s->perf.threads[i];
		s->perf.nr_threads = j;
	}
	return 0;
}

/*
 * System-wide: remember every existing thread's comm now, so that events of
 * a task that exits before its events are printed still carry its name
 * (COMM records only cover tasks that exec or rename themselves later).
 */
static void snapshot_comms(struct session *s)
{
	DIR *proc = opendir("/proc");
	struct dirent *p;

	if (!proc)
		return;
	while ((p = readdir(proc))) {
		char path[300];
		struct dirent *t;
		DIR *task;

		if (p->d_name[0] < '0' || p->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", p->d_name);
		task = opendir(path);
		if (!task)
			continue;
		while ((t = readdir(task)))
			if (t->d_name[0] >= '0' && t->d_name[0] <= '9')
				comm_map__get(s->comms, (u32)atoi(t->d_name));
		closedir(task);
	}
	closedir(proc);
}

/* Whether an earlier event of @ev's -e item already runs its filter in user space. */
static bool user_filter_said(struct session *s, const struct evsel *ev)
{
	for (struct evsel *o = s->evsels; o && o != ev; o = o->next)
		if (o->ufilter && o->spec && o->spec == ev->spec)
			return true;
	return false;
}

/*
 * Whether the kernel takes @clause as @ev's filter: tried on an event of
 * its own (a perf event's filter can be set only once), opened disabled
 * for the same task and CPU, then closed.
 */
static bool kernel_takes(const struct session *s, const struct evsel *ev, pid_t pid, int cpu,
			 const char *clause)
{
	struct perf_event_attr a = ev->attr;
	bool ok;
	int fd;

	a.disabled = 1;
	a.inherit = 0;
	a.enable_on_exec = 0;
	fd = perf_open(&a, pid, cpu, -1, open_flags(s));
	if (fd < 0)
		return false;
	ok = !ioctl(fd, PERF_EVENT_IOC_SET_FILTER, clause);
	close(fd);
	return ok;
}

/*
 * The kernel refused @ev's filter on @fd: keep in the kernel the top-level
 * && clauses it takes (they still cut the events read), evaluate the others
 * in user space if the user-filter ops compile them.  0 when that worked
 * (the kernel part set on @fd and kept in ev->filter for the other fds),
 * else -1 with nothing changed.
 */
static int user_filter(struct session *s, struct evsel *ev, int fd, pid_t pid, int cpu)
{
	char **clauses = kfilter__clauses(ev->filter), *kern = strdup(""), *user = strdup(""), *t;
	char err[256];
	int ret = -1;

	s->probes.filter_err[0] = 0;
	if (!clauses || !kern || !user)
		goto out;
	/* not even user space can: no probing (a glob's events without the fields) */
	ev->ufilter = s->uf_ops->compile(s, ev, ev->filter, err, sizeof(err));
	if (!ev->ufilter) {
		snprintf(s->probes.filter_err, sizeof(s->probes.filter_err), "%s", err);
		goto out;
	}
	s->uf_ops->done(ev->ufilter, s, ev);
	ev->ufilter = NULL;
	for (int i = 0; clauses[i]; i++) {
		bool ok = clauses[1] && !kfilter__kernel_differs(clauses[i]) &&
			  kernel_takes(s, ev, pid, cpu, clauses[i]);
		char **side = ok ? &kern : &user;

		t = kfilter__and(*side, clauses[i]);
		if (!t)
			goto out;
		free(*side);
		*side = t;
	}
	ev->ufilter = s->uf_ops->compile(s, ev, user, err, sizeof(err));
	if (!ev->ufilter)
		goto out;
	if (*kern && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, kern)) {
		s->uf_ops->done(ev->ufilter, s, ev);
		ev->ufilter = NULL;
		goto out;
	}
	/*
	 * said once per -e item, by its name (a glob may match many events);
	 * a PMU probe's arguments are never in the kernel's reach: nothing to say
	 */
	if (!user_filter_said(s, ev) && ev->tp) {
		char name[256];

		if (ev->spec && ev->from_glob)
			snprintf(name, sizeof(name), "%s:%s", ev->spec->sys, ev->spec->name);
		else
			snprintf(name, sizeof(name), "%s", ev->name);
		if (*kern)
			session__notice(
				s, "filter '%s' on %s runs in user space (the kernel keeps '%s')",
				user, name, kern);
		else
			session__notice(s, "filter '%s' on %s runs in user space", user, name);
	}
	free(ev->filter);
	ev->filter = NULL;
	if (*kern) { /* the other fds take it directly */
		ev->filter = kern;
		kern = NULL;
	}
	ret = 0;
out:
	kfilter__free_list(clauses);
	free(kern);
	free(user);
	return ret;
}

static int set_filter(struct session *s, struct evsel *ev, int fd, pid_t pid, int cpu)
{
	char reason[256], **clauses;
	bool differs;

	if (!ev->filter)
		return 0;
	/* what the kernel would read otherwise goes to user space directly */
	differs = kfilter__kernel_differs(ev->filter);
	if (!differs && !ioctl(fd, PERF_EVENT_IOC_SET_FILTER, ev->filter))
		return 0;
	/* the kernel's parser gives EPERM for some syntax it has not (a '*', a '#') */
	if (differs || errno == EPERM)
		errno = EINVAL;
	if (errno != EINVAL || (!ev->tp && !ev->probe))
		return session__set_err(s, -errno, "cannot set filter '%s' on %s: %s", ev->filter,
					ev->name, strerror(errno));
	/* what the kernel refuses, user space may evaluate (exactly) */
	if (!ev->counting && s->uf_ops && !ev->src->nr_open && !user_filter(s, ev, fd, pid, cpu))
		return 0;
	if (!ev->tp) /* a probe's arguments, which only user space sees: compile() said why */
		return session__usage_err(s, "filter '%s' on %s: %s", ev->filter, ev->name,
					  s->probes.filter_err[0] ? s->probes.filter_err
								  : "invalid expression");
	if (ev->probe && s->probes.filter_err[0]) /* a probe argument that does not exist */
		return session__usage_err(s, "filter '%s' on %s: %s", ev->filter, ev->name,
					  s->probes.filter_err);
	if (ev->from_glob && !ev->src->nr_open) {
		ev->src->refused_filter = true;
		return -EINVAL; /* skipped, or explained by refusal_error() */
	}
	/*
	 * The ioctl gives no reason: the kernel's filter parser tells it
	 * through tracefs.  Of a filter of several && clauses (a profiler's
	 * own joined with the user's), name the first one it refuses alone.
	 */
	clauses = kfilter__clauses(ev->filter);
	for (int i = 0; clauses && clauses[0] && clauses[1] && clauses[i]; i++) {
		if (!tp__explain_filter(ev->tp->system, ev->tp->name, clauses[i], reason,
					sizeof(reason))) {
			session__usage_err(s,
					   "filter clause '%s' on %s rejected by the kernel: %s "
					   "(fields: perf-prof list -v %s:%s)",
					   clauses[i], ev->name, reason, ev->tp->system,
					   ev->tp->name);
			kfilter__free_list(clauses);
			return -EINVAL;
		}
	}
	kfilter__free_list(clauses);
	if (tp__explain_filter(ev->tp->system, ev->tp->name, ev->filter, reason, sizeof(reason)))
		snprintf(reason, sizeof(reason), "invalid expression");
	return session__usage_err(
		s, "filter '%s' on %s rejected by the kernel: %s (fields: perf-prof list -v %s:%s)",
		ev->filter, ev->name, reason, ev->tp->system, ev->tp->name);
}

/*
 * -p and -- targets follow the threads they create; a thread named only by
 * -t does not (as with perf), unless --inherit (or --ptrace) says so.  A -t
 * thread of a -p process follows its process's rule.
 */
static bool inherits(struct session *s, pid_t tid)
{
	const struct target_opts *tg = s->conf.target;
	bool named_by_t = false;
	char path[64];

	if (tg->inherit || tg->ptrace)
		return true;

	for (int i = 0; i < tg->nr_tids; i++)
		named_by_t |= tg->tids[i] == tid;
	if (!named_by_t)
		return true;
	for (int i = 0; i < tg->nr_pids; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d", tg->pids[i], tid);
		if (!access(path, F_OK))
			return true;
	}
	return false;
}

static int add_counter(struct evsel *ev, int fd, int cpu, pid_t pid)
{
	struct perf_evsel *p = ev->src;

	if (p->nr_cnt == p->cap_cnt) {
		int cap = p->cap_cnt ? p->cap_cnt * 2 : 8;
		struct counter_fd *c = realloc(p->cnt, cap * sizeof(*c));

		if (!c)
			return -ENOMEM;
		p->cnt = c;
		p->cap_cnt = cap;
	}
	p->cnt[p->nr_cnt++] = (struct counter_fd){ .fd = fd, .cpu = cpu, .tid = pid };
	return 0;
}

static int open_one(struct session *s, struct evsel *ev, pid_t pid, int cpu, int *leader_fd,
		    bool track)
{
	struct perf_event_attr a = ev->attr;
	const struct capture_opts *cap = s->conf.capture;
	int group = -1;
	u64 id;
	int fd, err;

	if (ev->leader) {
		group = ev->leader->src->cur_fd;
		if (group < 0) /* (its leader's thread exited, or was refused) */
			return session__set_err(s, -ENODEV,
						"cannot open %s: its group's leader %s is not open "
						"on %s %d",
						ev->name, ev->leader->name,
						cpu >= 0 ? "CPU" : "thread", cpu >= 0 ? cpu : pid);
	}
	ev->src->cur_fd = -1;
	if (ev->counting)
		track = false;
	a.inherit = s->perf.per_thread && inherits(s, pid);
	a.enable_on_exec = s->wl.forked && s->perf.per_thread;
	a.write_backward = s->conf.ring->overwrite; /* every event of a ring alike */
	if (ev->leader)
		a.disabled = 0; /* it follows its leader */
	if (track) {
		/* One event per buffer carries the task records. */
		a.comm = a.task = 1;
		a.comm_exec = 1;
		a.context_switch = s->want_switch;
		if (cap->cg != CG_NONE) {
			a.mmap = a.mmap2 = 1;
			a.build_id = 1;
		}
	}
	fd = perf_open(&a, pid, cpu, group, open_flags(s));
	if (fd < 0 && errno == EINVAL && a.build_id) {
		a.build_id = 0; /* kernels before 5.12 */
		fd = perf_open(&a, pid, cpu, group, open_flags(s));
	}
	if (fd < 0 && errno == EINVAL && a.inherit && (a.sample_type & PERF_SAMPLE_READ))
		/* Linux before 6.12 (and without PERF_SAMPLE_TID after) */
		return session__set_err(s, -EINVAL,
					"this kernel cannot give %s's counter values to samples "
					"of tasks that inherit it (-p, --, --inherit): watch "
					"threads with -t, or CPUs with -C",
					ev->name);
	if (fd < 0)
		return -errno;
	if (add_fd(s, fd, ev)) {
		close(fd);
		return -ENOMEM;
	}
	ev->src->cur_fd = fd;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id))
		return session__set_err(s, -errno, "cannot get the id of %s: %s", ev->name,
					strerror(errno));
	if (session__add_id(s, id, ev))
		return session__set_err(s, -ENOMEM, "out of memory");
	err = set_filter(s, ev, fd, pid, cpu);
	if (err) {
		/* not opened after all: an event skipped must leave no fd behind */
		s->perf.nr_ids--;
		close(s->perf.fds[--s->perf.nr_fds]);
		ev->src->cur_fd = -1;
		return err;
	}
	if (ev->counting || (ev->leader && !ev->attr.sample_period)) {
		/* no records: it needs no ring (nor a place in one) */
		if (ev->counting && add_counter(ev, fd, cpu, pid))
			return session__set_err(s, -ENOMEM, "out of memory");
		if (*leader_fd >= 0)
			s->perf.bufs[s->perf.nr_bufs - 1].fd_end = s->perf.nr_fds;
		return 0;
	}
	if (*leader_fd < 0) {
		struct buf *b = &s->perf.bufs[s->perf.nr_bufs];
		unsigned pages = session__pages(s);

		err = ring__mmap(&b->ring, fd, cpu, pages, s->conf.ring->overwrite);
		if (err)
			return session__set_err(
				s, err, "cannot mmap %u pages for %s: %s%s", pages, ev->name,
				strerror(-err),
				err == -EPERM ? " (raise kernel.perf_event_mlock_kb or use -m)"
					      : "");
		b->fd_first = b->fd_cur = s->perf.nr_fds - 1;
		b->fd_end = s->perf.nr_fds;
		s->perf.nr_bufs++;
		*leader_fd = fd;
		/* wake up when half the buffer is full; a timer drains the rest */
		return 0;
	}
	/* this CPU's fds are contiguous */
	s->perf.bufs[s->perf.nr_bufs - 1].fd_end = s->perf.nr_fds;
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, *leader_fd))
		return session__set_err(s, -errno, "cannot redirect %s output: %s", ev->name,
					strerror(errno));
	return 0;
}

/* -vv: what is asked of the kernel for each event, as perf -vv shows it. */
static void dump_attr(const struct evsel *ev)
{
	static const char *const bits[] = {
		"IP",	     "TID",	   "TIME",   "ADDR",	  "READ",	"CALLCHAIN",
		"ID",	     "CPU",	   "PERIOD", "STREAM_ID", "RAW",	"BRANCH_STACK",
		"REGS_USER", "STACK_USER", "WEIGHT", "DATA_SRC",  "IDENTIFIER", "TRANSACTION",
	};
	const struct perf_event_attr *a = &ev->attr;

	fprintf(stderr, "perf-prof: event %s: type %u config %llu sample_type ", ev->name, a->type,
		(unsigned long long)a->config);
	for (unsigned i = 0, n = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (a->sample_type & (1ULL << i))
			fprintf(stderr, "%s%s", n++ ? "|" : "", bits[i]);
	fprintf(stderr,
		" exclude_callchain_user %u exclude_callchain_kernel %u sample_max_stack %u "
		"sample_regs_user 0x%llx sample_stack_user %u %s %u\n",
		a->exclude_callchain_user, a->exclude_callchain_kernel, a->sample_max_stack,
		(unsigned long long)a->sample_regs_user, a->sample_stack_user,
		a->watermark ? "wakeup_watermark" : "wakeup_events",
		a->watermark ? a->wakeup_watermark : a->wakeup_events);
	if (ev->filter)
		fprintf(stderr, "perf-prof: event %s: filter '%s'\n", ev->name, ev->filter);
}

static bool on_cpu(const struct evsel *ev, int cpu)
{
	if (!ev->cpus)
		return true;
	for (int i = 0; i < ev->nr_cpus; i++)
		if (ev->cpus[i] == cpu)
			return true;
	return false;
}

/*
 * A glob matches events that cannot be opened here (irq_vectors:irq_work_exit
 * is refused even to root, ftrace:function to perf): those are skipped at
 * their first open, not fatal.  An event named without a glob is.
 */
static bool refusable(struct session *s, const struct evsel *ev, int err)
{
	if (!ev->from_glob || ev->src->nr_open)
		return false;
	if (ev->src->refused_filter)
		return true;
	return !s->err.msg[0] && (err == EACCES || err == EPERM || err == ENOENT ||
				  err == EOPNOTSUPP || err == EINVAL);
}

/* Why @ev was refused, as if it had been named alone. */
static int refusal_error(struct session *s, struct evsel *ev)
{
	char reason[256];
	bool thread = s->perf.per_thread;

	if (!ev->src->refused_filter)
		return open_error(s, ev, ev->src->refused_err, thread ? ev->src->refused_at : -1,
				  thread ? -1 : ev->src->refused_at);
	if (tp__explain_filter(ev->tp->system, ev->tp->name, ev->filter, reason, sizeof(reason)))
		snprintf(reason, sizeof(reason), "invalid expression");
	return session__usage_err(s,
				  "filter '%s' on %s rejected by the kernel: %s (fields: perf-prof "
				  "list -v %s:%s)",
				  ev->filter, ev->name, reason, ev->tp->system, ev->tp->name);
}

/*
 * Unlink the refused events, keeping their names for the CLI's summary;
 * a glob whose every match was refused is an error.
 */
static int drop_refused(struct session *s)
{
	struct evsel **pp = &s->evsels, *ev;

	for (ev = s->evsels; ev; ev = ev->next) {
		bool kept = false;

		if (!ev->src->refused)
			continue;
		for (struct evsel *o = s->evsels; o && !kept; o = o->next)
			kept = o->spec == ev->spec && !o->src->refused;
		if (!kept)
			return refusal_error(s, ev);
	}
	while ((ev = *pp)) {
		char **names;

		if (!ev->src->refused) {
			pp = &ev->next;
			continue;
		}
		names = realloc(s->err.skipped, (s->err.nr_skipped + 1) * sizeof(*names));
		if (!names)
			return session__set_err(s, -ENOMEM, "out of memory");
		s->err.skipped = names;
		s->err.skipped[s->err.nr_skipped++] = ev->name;
		*pp = ev->next;
		s->nr_evsels--;
		fastprint__delete(ev->fastprint);
		evfields__delete(ev->evfields);
		free(ev->cpus);
		free(ev->src->cnt);
		free(ev->filter);
		free(ev);
	}
	s->tail = pp;
	return 0;
}

/* Every event is a BPF program's (the perf source opens none of them). */
static bool all_bpf_taken(const struct session *s)
{
	for (const struct evsel *ev = s->evsels; ev; ev = ev->next)
		if (!ev->bpf_taken)
			return false;
	return true;
}

/* A counter in the group of a sampling event: opened where its leader is. */
static bool sampled_group(const struct evsel *ev)
{
	return ev->leader && !ev->leader->counting;
}

/* Per thread, a counter opens once (with the first CPU), unless its leader samples. */
static bool thread_counter_here(const struct evsel *ev, int cpu_idx)
{
	return sampled_group(ev) || cpu_idx == 0;
}

/*
 * Counters alone, on threads: a dummy event follows the threads (their
 * exit ends a -p run, their comm and forks are known) in a small ring.
 */
static int add_tracker(struct session *s)
{
	struct evsel_conf c = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.name = "dummy",
	};

	if (!s->perf.per_thread)
		return 0;
	for (struct evsel *ev = s->evsels; ev; ev = ev->next)
		if (!ev->counting && !ev->bpf_taken)
			return 0;
	return session__add_event(s, &c) ? 0 : -ENOMEM;
}

int session__open(struct session *s)
{
	const struct target_opts *tg = s->conf.target;
	int err;

	/* (a BPF back end's programs are a source without events) */
	if (!s->evsels && s->nr_sources < 2)
		return session__set_err(s, -EINVAL, "no events to open");
	session__block_signals(s);
	probe__cleanup_stale(s);
	if (tg->argv && tg->argv[0]) {
		err = workload__prepare(&s->wl.proc, tg->argv);
		if (err)
			return session__set_err(s, err, "cannot start '%s': %s", tg->argv[0],
						strerror(-err));
		s->wl.forked = true;
		if (target_set__add_workload(s->targets, s->wl.proc.pid))
			return session__set_err(s, -ENOMEM, "out of memory");
	}
	for (int i = 0; i < s->nr_sources; i++) {
		struct source *src = s->sources[i];

		err = src->ops->open ? src->ops->open(src) : 0;
		if (err)
			return err;
	}
	return 0;
}

/* The perf source's open: its targets, the events on them, the rings. */
int perf_source__open(struct session *s)
{
	const struct target_opts *tg = s->conf.target;
	int err, nthreads, opened = 0;

	err = expand_targets(s);
	if (err)
		return err;
	if (tg->ptrace) {
		err = session__trace_targets(s);
		if (err)
			return err;
	}
	if (tg->cgroups) {
		err = session__open_cgroups(s);
		if (err)
			return err;
	}
	if (s->cpu_wide) {
		s->perf.nr_threads = 0; /* validated above; the profiler selects them */
	} else if (s->wl.forked && !tg->cpus_given && !s->perf.nr_threads) {
		s->perf.threads = malloc(sizeof(pid_t));
		if (!s->perf.threads)
			return session__set_err(s, -ENOMEM, "out of memory");
		s->perf.threads[s->perf.nr_threads++] = s->wl.proc.pid;
	}
	s->perf.per_thread = s->perf.nr_threads > 0;
	nthreads = s->perf.per_thread ? s->perf.nr_threads : s->perf.cg.nr ? s->perf.cg.nr : 1;
	err = add_tracker(s);
	if (err)
		return err;
	for (struct evsel *ev = s->evsels; ev; ev = ev->next)
		if (ev->counting && ev->cpus && s->perf.per_thread && !sampled_group(ev))
			return session__usage_err(
				s,
				"%s counts on CPU%s %d%s only (its PMU's cpumask), not per thread: "
				"count it with -C CPUS (with a command too), not -p/-t",
				ev->name, ev->nr_cpus > 1 ? "s" : "", ev->cpus[0],
				ev->nr_cpus > 1 ? ",..." : "");
	for (struct evsel *ev = s->evsels; ev; ev = ev->next) {
		session__set_wakeup(s, &ev->attr); /* the ring size is known now */
		if (s->conf.log->verbose >= 2)
			dump_attr(ev);
	}
	/* (and one per online CPU for the name trackers: engine/names.c) */
	s->perf.bufs = calloc(tg->nr_cpus + session__name_cpus(s) + session__kvmclock_cpus(s),
			      sizeof(*s->perf.bufs));
	if (!s->perf.bufs)
		return session__set_err(s, -ENOMEM, "out of memory");
	for (int c = 0; c < tg->nr_cpus; c++) {
		int cpu = tg->cpus[c], leader = -1;

		for (int t = 0; t < nthreads; t++) {
			pid_t pid = s->perf.per_thread ? s->perf.threads[t]
				    : s->perf.cg.nr    ? s->perf.cg.fds[t]
						       : -1;
			bool first_of_thread = true;
			int at; /* the CPU an event opens on: -1 for a thread's counter */

			for (struct evsel *ev = s->evsels; ev; ev = ev->next)
				ev->src->cur_fd = -1;
			/* events with records first: the first of a CPU owns its ring */
			for (struct evsel *ev = s->evsels, *pass = NULL; ev || (!pass && s->evsels);
			     ev = ev ? ev->next : NULL) {
				if (!ev) { /* the second pass: the counters */
					pass = s->evsels;
					ev = s->evsels;
				}
				if (ev->src->refused || ev->bpf_taken || !on_cpu(ev, cpu) ||
				    ev->counting != !!pass)
					continue;
				/*
				 * A thread's counter counts wherever it runs: one
				 * per thread (cpu -1), not one per CPU whose times
				 * would look multiplexed.
				 */
				if (pass && s->perf.per_thread && !thread_counter_here(ev, c))
					continue;
				at = pass && s->perf.per_thread && !sampled_group(ev) ? -1 : cpu;
				err = open_one(s, ev, pid, at, &leader, first_of_thread);
				if (err == -ESRCH && s->perf.per_thread)
					break; /* the thread exited meanwhile */
				if (err < 0 && refusable(s, ev, -err)) {
					ev->src->refused = true;
					ev->src->refused_err = -err;
					ev->src->refused_at = s->perf.per_thread ? pid : cpu;
					continue;
				}
				if (err < 0) {
					if (!s->err.msg[0])
						open_error(s, ev, -err, pid, at);
					return err;
				}
				ev->src->nr_open++;
				first_of_thread = false;
				opened++;
			}
		}
	}
	err = drop_refused(s);
	if (err)
		return err;
	if (!opened && s->evsels && !all_bpf_taken(s))
		return session__set_err(s, -ESRCH,
					"no such process: every target thread has exited");
	if (s->conf.ring->overwrite && !s->perf.nr_bufs && !all_bpf_taken(s))
		return session__usage_err(
			s,
			"--overwrite keeps records in ring buffers: %s only counts "
			"(it has none)",
			s->out.name ? s->out.name : "this profiler");
	err = session__open_kvmclock(s);
	if (err)
		return err;
	if (s->perf.nr_ids) /* (none: the BPF back end alone has work) */
		qsort(s->perf.ids, s->perf.nr_ids, sizeof(*s->perf.ids), session__cmp_id);
	/*
	 * The names of the tasks running now; one started later has a FORK
	 * record (or is read from /proc when first seen).  Taken here, before
	 * the enable: taken after it, the walk of /proc delayed a -- command's
	 * start and its anonymous mappings were no longer resolved in
	 * t_errors (cause not understood).
	 */
	if (!s->perf.per_thread) {
		session__open_name_trackers(s);
		snapshot_comms(s);
	}
	return 0;
}

/*
 * Enable everything; then let the workload exec (its events enable on exec);
 * then the started hooks.
 */
int session__enable(struct session *s)
{
	if (s->sig.interrupted) {
		/*
		 * Stopped during start-up: the run never starts.  No event
		 * is enabled, the command is not run, no output is opened
		 * (an old -o FILE or flame graph stays as it was).
		 */
		if (s->wl.forked) {
			workload__kill(&s->wl.proc);
			s->wl.stopped = s->wl.unstarted = true;
		}
		return 0;
	}
	s->enabled_at = session__now(s);
	for (int i = 0; i < s->nr_sources; i++)
		if (s->sources[i]->ops->enable)
			s->sources[i]->ops->enable(s->sources[i]);
	s->all_enabled_at = session__now(s);
	if (s->wl.forked) {
		int err = workload__start(&s->wl.proc);

		if (err)
			return session__set_err(s, err, "cannot run '%s': %s",
						s->conf.target->argv[0], strerror(-err));
	}
	for (int i = 0; i < s->nr_hooks; i++) {
		const struct session_ops *ops = s->hooks[i].ops;
		int err = ops->started ? ops->started(s, s->hooks[i].priv) : 0;

		if (err) {
			if (s->wl.forked) {
				/* the command ran: its children too (end_workload) */
				workload__signal_tree(&s->wl.proc, SIGKILL);
				workload__kill(&s->wl.proc);
			}
			return err;
		}
	}
	s->started = true;
	return 0;
}

void session__close(struct session *s)
{
	for (int i = 0; i < s->nr_sources; i++)
		if (s->sources[i]->ops->close)
			s->sources[i]->ops->close(s->sources[i]);
	if (s->epfd >= 0)
		close(s->epfd);
	if (s->sig.fd >= 0)
		close(s->sig.fd);
	if (s->tickfd >= 0)
		close(s->tickfd);
	if (s->intfd >= 0)
		close(s->intfd);
	if (s->usefd >= 0)
		close(s->usefd);
	session__timers_close(s);
	s->epfd = s->sig.fd = s->tickfd = s->intfd = s->usefd = -1;
}
