// SPDX-License-Identifier: GPL-2.0
/*
 * --kvmclock in a session: kvm:kvm_pvclock_update of the guest's threads
 * (a kernel filter on their tids), on every online CPU, in small rings of
 * its own; no profiler sees its samples (nor does -N count them): they feed
 * the conversion (engine/kvmclock.h) that session__wall_ns and
 * session__fmt_time print times with.  The session runs in time order, so
 * a time is converted after every update before it was read.
 */
#include <errno.h>
#include <event-parse.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/fastprint.h"
#include "engine/evfields.h"
#include "engine/kvmclock.h"
#include "engine/session_int.h"

#define KVM_RING_PAGES 8 /* 32 KiB a CPU: updates are rare */
#define DEBUGFS "/sys/kernel/debug"

int session__kvmclock_cpus(struct session *s)
{
	return s->conf.clock->kvmclock ? session__name_cpus(s) : 0;
}

static int open_cpu(struct session *s, struct perf_event_attr *a, int cpu, const char *filter)
{
	struct buf *b = &s->perf.bufs[s->perf.nr_bufs];
	u64 id;
	int fd, err;

	fd = (int)syscall(SYS_perf_event_open, a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter) || ioctl(fd, PERF_EVENT_IOC_ID, &id)) {
		err = -errno;
		close(fd);
		return err;
	}
	err = session__add_fd(s, fd, s->perf.kvm_ev);
	if (err) {
		close(fd);
		return err;
	}
	err = session__add_id(s, id, s->perf.kvm_ev);
	if (!err)
		err = ring__mmap(&b->ring, fd, cpu, KVM_RING_PAGES, false);
	if (err)
		return err; /* the fd is the session's: closed with it */
	b->fd_first = b->fd_cur = s->perf.nr_fds - 1;
	b->fd_end = s->perf.nr_fds;
	b->kvmclock = true;
	s->perf.nr_bufs++;
	s->perf.nr_trackers++;
	return 0;
}

int session__open_kvmclock(struct session *s)
{
	const struct clock_opts *c = s->conf.clock;
	struct perf_event_attr a = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(a),
		.sample_period = 1,
		.sample_type = BASE_SAMPLE_TYPE | PERF_SAMPLE_RAW,
		.sample_id_all = 1,
		.disabled = 1,
	};
	char filter[4096];
	struct evsel *ev;
	int e;

	if (!c->kvmclock)
		return 0;
	if (s->conf.ring->overwrite)
		return session__usage_err(
			s, "--kvmclock follows the guest's pvclock as it changes: not with "
			   "--overwrite, whose rings are read at set times");
	s->perf.kvm = calloc(1, sizeof(*s->perf.kvm));
	s->perf.kvm_ev = ev = perf_evsel__alloc();
	if (!s->perf.kvm || !ev || !(ev->name = strdup("kvm:kvm_pvclock_update")))
		return session__set_err(s, -ENOMEM, "out of memory");
	e = kvmclock__open_dir(s->perf.kvm, DEBUGFS, c->guest_pid, c->guest_vm_fd);
	if (e)
		return session__set_err(s, e,
					"--kvmclock: cannot read the guest's vCPU TSC offsets in "
					"%s/kvm/%d-%d (%s)",
					DEBUGFS, (int)c->guest_pid, c->guest_vm_fd,
					e == -ENOENT ? "no such directory" : "no vcpuN/tsc-offset");
	e = session__tep(s) ? 0 : -ENOENT;
	if (e)
		return e;
	ev->tp = tp__event(s->tp, "kvm", "kvm_pvclock_update");
	if (!ev->tp)
		return session__set_err(s, -ENOENT,
					"--kvmclock: no tracepoint kvm:kvm_pvclock_update (the kvm "
					"module is not loaded?)");
	e = kvmclock__filter("/proc", c->guest_pid, filter, sizeof(filter));
	if (e)
		return session__set_err(
			s, e, "--kvmclock: the guest's threads (process %d): %s", (int)c->guest_pid,
			e == -ENOSPC ? "too many for a kernel filter" : "the process is gone");
	a.config = (u64)ev->tp->id;
	if (s->evsels) { /* the same clock as the events' */
		a.use_clockid = s->evsels->attr.use_clockid;
		a.clockid = s->evsels->attr.clockid;
	}
	ev->attr = a;
	ev->filter = strdup(filter);
	for (int i = 0; i < session__name_cpus(s); i++) {
		e = open_cpu(s, &a, s->perf.online[i], filter);
		if (e)
			return session__set_err(
				s, e,
				"--kvmclock: cannot follow kvm:kvm_pvclock_update on "
				"CPU %d: %s",
				s->perf.online[i], strerror(-e));
	}
	s->order = true; /* updates and samples of all CPUs in time order */
	return 0;
}

static u64 field_of(struct evsel *ev, const char *name, const struct sample *smp, bool *ok)
{
	struct field f;
	u64 v = 0;

	if (evsel__field(ev, name, &f) || field__u64(&f, smp, &v))
		*ok = false;
	return v;
}

void session__kvmclock_sample(struct session *s, struct evsel *ev, const struct sample *smp)
{
	struct kvm_pvclock_rec r;
	bool ok = true;

	r.vcpu = (unsigned)field_of(ev, "vcpu_id", smp, &ok);
	r.tsc_timestamp = field_of(ev, "tsc_timestamp", smp, &ok);
	r.system_time = field_of(ev, "system_time", smp, &ok);
	r.mul = (unsigned)field_of(ev, "tsc_to_system_mul", smp, &ok);
	r.shift = (signed char)field_of(ev, "tsc_shift", smp, &ok);
	if (ok)
		kvmclock__update(s->perf.kvm, smp->time, &r);
}

void session__kvmclock_done(struct session *s)
{
	struct evsel *ev = s->perf.kvm_ev;

	if (s->perf.kvm && s->perf.kvm->nr_unknown)
		session__warn(s,
			      "--kvmclock: times before the guest's first pvclock update "
			      "(kvm:kvm_pvclock_update) are printed as 0: %s",
			      s->perf.kvm->nr_upd
				      ? "its kvmclock was not known yet"
				      : "none came during the run (KVM updates it at the "
					"guest's start, on a vCPU's clock change, and every "
					"5 minutes with kvmclock_periodic_sync)");
	if (s->perf.kvm && s->perf.kvm->nr_no_vcpu && s->conf.log->verbose)
		fprintf(stderr,
			"perf-prof: --kvmclock: %llu pvclock updates of a vCPU without a "
			"readable tsc-offset were left out\n",
			(unsigned long long)s->perf.kvm->nr_no_vcpu);
	if (s->perf.kvm) {
		kvmclock__free(s->perf.kvm);
		free(s->perf.kvm);
		s->perf.kvm = NULL;
	}
	if (ev) {
		fastprint__delete(ev->fastprint);
		evfields__delete(ev->evfields);
		free(ev->filter);
		free(ev->name);
		free(ev);
		s->perf.kvm_ev = NULL;
	}
}

int session__wall_kvmclock(struct session *s, u64 time, u64 *ns)
{
	if (!s->perf.kvm)
		return -EAGAIN;
	return kvmclock__convert(s->perf.kvm, &s->conf.clock->conv, time, ns);
}
