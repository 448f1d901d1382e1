// SPDX-License-Identifier: GPL-2.0
/*
 * Task names beyond the COMM and FORK records of the monitored CPUs.
 *
 * Trackers: CPU-wide with CPUs left out (-C 0, cpus=), a task that forks,
 * execs or renames on another CPU and then runs on a monitored one would
 * be known only by /proc, too late once it exited (a short-lived command,
 * a kworker).  A dummy event on each of those CPUs carries their task
 * records into a small ring of its own; the loop reads it as any other.
 *
 * Task names from tracepoint fields.  In the scheduler's events (and
 * task_newtask), a field named XXXcomm (a string) with a sibling XXXpid
 * names task XXXpid at the event: sched_switch's
 * prev_comm/prev_pid and next_comm/next_pid, sched_wakeup's comm/pid,
 * sched_process_fork's parent_ and child_, task_newtask's comm/pid...  Each
 * sample of such an event updates the comm map (comm_map__seen: only a
 * name that differs from the one held), so the task printed with a sample
 * is named even when its COMM or FORK record was lost (a full ring under
 * dwarf stacks) or written on a CPU that is not monitored, and a kernel
 * thread whose rename came after its fork ("kthreadd" then "kworker/0:2")
 * gets its own name.  Pid 0 is left out: its fields name one CPU's idle
 * task (swapper/N), and it prints as <idle>.
 */
#include <event-parse.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/cpulist.h"
#include "engine/session_int.h"

#define TP_NAMES_MAX 4
#define NAME_CACHE 256 /* session_int.h: name_cache[] */

struct tp_names {
	int n;
	struct field comm[TP_NAMES_MAX], pid[TP_NAMES_MAX];
};

void tp_names__delete(struct tp_names *n)
{
	free(n);
}

/*
 * Whether @tp's XXXcomm and XXXpid fields name one task.  Not so in
 * general: sched_process_wait's comm is the waiting task, its pid the
 * child waited for, and a probe's fields are whatever its user named.
 * The scheduler's events and task_newtask are known to.
 */
static bool same_task_fields(const struct tep_event *tp)
{
	if (!tp->system || !tp->name)
		return false;
	if (!strcmp(tp->system, "task"))
		return !strcmp(tp->name, "task_newtask");
	return !strcmp(tp->system, "sched") && strcmp(tp->name, "sched_process_wait");
}

/* The pairs of @ev, or NULL when it has none. */
static struct tp_names *pairs(struct evsel *ev)
{
	struct tp_names *n;

	if (ev->names_tried)
		return ev->names;
	ev->names_tried = true;
	if (!ev->tp || !same_task_fields(ev->tp))
		return NULL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	for (struct tep_format_field *tf = ev->tp->format.fields; tf && n->n < TP_NAMES_MAX;
	     tf = tf->next) {
		size_t len = strlen(tf->name);
		char pid_name[64];

		if (len < 4 || len - 4 + 4 >= sizeof(pid_name) ||
		    strcmp(tf->name + len - 4, "comm"))
			continue;
		snprintf(pid_name, sizeof(pid_name), "%.*spid", (int)(len - 4), tf->name);
		if (evsel__field(ev, tf->name, &n->comm[n->n]) || !n->comm[n->n].is_string ||
		    evsel__field(ev, pid_name, &n->pid[n->n]) || n->pid[n->n].is_string ||
		    n->pid[n->n].is_array || n->pid[n->n].in_regs || n->pid[n->n].is_const)
			continue;
		n->n++;
	}
	if (!n->n) {
		free(n);
		return NULL;
	}
	ev->names = n;
	return n;
}

void session__learn_names(struct session *s, struct evsel *ev, const struct sample *smp)
{
	struct tp_names *n = pairs(ev);

	for (int i = 0; n && i < n->n; i++) {
		typeof(&s->name_cache[0]) e;
		const char *comm;
		int len;
		u64 pid;

		if (field__u64(&n->pid[i], smp, &pid) || !pid || pid > 0x3fffffff ||
		    !(comm = field__str(&n->comm[i], smp, &len)))
			continue;
		/*
		 * The same pid with the same name as last time: nothing to
		 * learn (most switches are between a few tasks).  This skips
		 * the comm map's lookup, the cost of learning.
		 */
		if (len > 15)
			len = 15;
		len = (int)strnlen(comm, (size_t)len);
		e = &s->name_cache[pid & (NAME_CACHE - 1)];
		if (e->pid == (u32)pid && !memcmp(e->comm, comm, (size_t)len) && !e->comm[len])
			continue;
		e->pid = (u32)pid;
		memcpy(e->comm, comm, (size_t)len);
		e->comm[len] = 0;
		comm_map__seen(s->comms, (u32)pid, comm, len, smp->time);
	}
}

int session__name_cpus(struct session *s)
{
	if (!s->perf.online) {
		int n = cpulist__online(&s->perf.online);

		s->perf.nr_online = n > 0 ? n : 0;
	}
	return s->perf.nr_online;
}

/* Whether a buffer of @s is on @cpu already. */
static bool has_buf(const struct session *s, int cpu)
{
	for (int i = 0; i < s->perf.nr_bufs; i++)
		if (s->perf.bufs[i].ring.cpu == cpu && !s->perf.bufs[i].kvmclock)
			return true;
	return false;
}

#define TRACKER_PAGES 16 /* 64 KiB: task records only */

void session__open_name_trackers(struct session *s)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_DUMMY,
		.sample_type = BASE_SAMPLE_TYPE,
		.sample_id_all = 1,
		.disabled = 1,
		.comm = 1,
		.comm_exec = 1,
		.task = 1,
	};

	bool bpf = false;

	/* (events a BPF program counts have no ring: its slow cases are printed with names) */
	for (const struct evsel *ev = s->evsels; ev && !bpf; ev = ev->next)
		bpf = ev->bpf_taken;
	/* --overwrite reads its own rings backward at set times: names from fields and /proc */
	if (s->perf.per_thread || (!s->perf.nr_bufs && !bpf) || s->conf.ring->overwrite)
		return;
	if (s->evsels) { /* the same clock as the events' */
		a.use_clockid = s->evsels->attr.use_clockid;
		a.clockid = s->evsels->attr.clockid;
	}
	for (int i = 0; i < session__name_cpus(s); i++) {
		int cpu = s->perf.online[i], fd;
		struct buf *b = &s->perf.bufs[s->perf.nr_bufs];

		if (has_buf(s, cpu))
			continue;
		fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0)
			continue;
		if (session__add_fd(s, fd, NULL)) {
			close(fd);
			return;
		}
		if (ring__mmap(&b->ring, fd, cpu, TRACKER_PAGES, false)) {
			close(s->perf.fds[--s->perf.nr_fds]);
			continue;
		}
		b->fd_first = b->fd_cur = s->perf.nr_fds - 1;
		b->fd_end = s->perf.nr_fds;
		b->names_only = true;
		s->perf.nr_bufs++;
		s->perf.nr_trackers++;
	}
}
