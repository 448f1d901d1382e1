// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF back end's attachments (bpf.h): asked for in a profiler's init,
 * made when the session opens, forgotten by a rollback.
 *
 * A classic tracepoint program is the tracepoint's, not one perf event's:
 * the kernel keeps the programs attached to any of its perf events in one
 * array and runs them at every hit, on every CPU, before it writes a perf
 * sample of the hit for anyone (perf_trace_run_bpf_submit: a program that
 * returns 0 keeps the sample from every perf user of the tracepoint on
 * the host; the kernel writes none either when no perf event of the
 * tracepoint is enabled on that CPU).  So ours return 1 (the others'
 * samples go on as if we were not there), the perf event that carries a
 * program is opened disabled and never enabled (it is on no CPU's list:
 * no sample of ours, and a hit nobody else samples ends with the
 * program), and the session's own perf events of such an evsel are not
 * opened at all (evsel.bpf_taken): what a profiler prints of it is copied
 * out through bpf_back__out.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <linux/perf_event.h>

#include "engine/bpf_int.h"

/* A CPU to open the programs' own perf events on: the first online one (the session's list). */
static int first_cpu(struct session *s)
{
	return session__name_cpus(s) > 0 ? s->perf.online[0] : 0;
}

/* A BPF_PROG_TYPE_PERF_EVENT program on every perf fd of its event. */
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

static int keep_link(struct bpf_back *b, int fd)
{
	if (b->nr_links == MAX_FDS) {
		close(fd);
		return session__set_err(b->s, -EMFILE, "BPF: too many programs");
	}
	b->links[b->nr_links++] = fd;
	return 0;
}

/*
 * A classic tracepoint program on a perf event of its own: on one CPU,
 * every task, not inherited, no ring, and disabled (see the top comment).
 * Attached to one of the session's per-thread events, the program would
 * go with the first inherited copy freed (a child's exit).
 */
static int attach_classic(struct bpf_back *b, struct attach *a)
{
	struct session *s = b->s;
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = a->ev->attr.config,
		.sample_period = 1,
		.disabled = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &attr, -1, first_cpu(s), -1,
			      PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return session__set_err(s, -errno,
					"BPF: cannot open %s for its program: %s "
					"(try --no-bpf)",
					a->ev->name, strerror(errno));
	if (keep_link(b, fd))
		return -EMFILE;
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, a->prog))
		return session__set_err(s, -errno, "BPF: cannot attach to %s: %s (try --no-bpf)",
					a->ev->name, strerror(errno));
	return 0;
}

int bpf_back__attach_one(struct bpf_back *b, struct attach *a)
{
	int fd;

	if (a->kind == ATTACH_PERF_ALL)
		return attach_all(b->s, a);
	if (a->kind == ATTACH_PERF)
		return attach_classic(b, a);
	fd = bpf_raw_tracepoint_open(a->btf ? NULL : a->tp, a->prog);
	if (fd < 0)
		return session__set_err(b->s, -errno,
					"BPF: cannot attach to tracepoint %s: %s (try --no-bpf)",
					a->tp, strerror(errno));
	return keep_link(b, fd) ? -EMFILE : 0;
}

static int add_attach(struct bpf_back *b, struct attach a)
{
	if (b->nr_att == MAX_FDS)
		return session__set_err(b->s, -EMFILE, "BPF: too many programs");
	b->att[b->nr_att++] = a;
	if (a.kind == ATTACH_PERF)
		a.ev->bpf_taken = true;
	return 0;
}

int bpf_back__mark(struct bpf_back *b)
{
	return b->nr_att;
}

void bpf_back__rollback(struct bpf_back *b, int mark)
{
	if (mark < 0)
		return;
	/* targets made since: their followers are forgotten, and they are made again if asked */
	if (b->targets_done && b->targets_mark >= mark) {
		b->targets_done = false;
		b->targets_err = 0;
		b->follow_p = false;
		b->tgids = b->tids = b->cpus = b->fork_prog = -1;
	}
	if (mark >= b->nr_att)
		return;
	/* their events are the perf source's again, unless a program kept still has them */
	for (int i = mark; i < b->nr_att; i++)
		if (b->att[i].kind == ATTACH_PERF)
			b->att[i].ev->bpf_taken = false;
	b->nr_att = mark;
	for (int i = 0; i < b->nr_att; i++)
		if (b->att[i].kind == ATTACH_PERF)
			b->att[i].ev->bpf_taken = true;
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
