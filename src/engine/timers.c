// SPDX-License-Identifier: GPL-2.0
/*
 * The session's timers (session.h: session__every): a profiler's own
 * periods beside -i, each a timerfd in the loop's epoll set (tagged ~4,
 * ~5, ...), its expirations given to the profiler after the events read
 * with them, with its output routed as an interval hook's.
 */
#include <errno.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "engine/session_int.h"

int session__every(struct session *s, u64 ns,
		   void (*fn)(struct session *s, void *priv, u64 periods), void *priv)
{
	if (s->nr_timers == SESSION_MAX_TIMERS)
		return session__set_err(s, -ENOSPC, "too many timers");
	if (ns < 1000000ULL || ns > 60000000000ULL)
		return session__set_err(s, -EINVAL, "a timer of %llu ns: 1 ms to 60 s",
					(unsigned long long)ns);
	s->timers[s->nr_timers++] = (struct session_timer){
		.fd = -1, .ns = ns, .fn = fn, .priv = priv, .owner = s->cur_owner
	};
	return 0;
}

int session__arm_timer_ns(int fd, u64 ns)
{
	struct itimerspec it = { 0 };

	it.it_value.tv_sec = (time_t)(ns / 1000000000ULL);
	it.it_value.tv_nsec = (long)(ns % 1000000000ULL);
	it.it_interval = it.it_value;
	return timerfd_settime(fd, 0, &it, NULL);
}

int session__timers_setup(struct session *s)
{
	struct epoll_event e = { .events = EPOLLIN };

	for (int i = 0; i < s->nr_timers; i++) {
		struct session_timer *t = &s->timers[i];

		t->fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (t->fd < 0 || session__arm_timer_ns(t->fd, t->ns))
			return -errno;
		e.data.u64 = ~(4ULL + (u64)i);
		if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, t->fd, &e))
			return -errno;
	}
	return 0;
}

bool session__timer_tag(struct session *s, u64 tag)
{
	struct session_timer *t;
	u64 exp;

	if (tag < ~(4ULL + SESSION_MAX_TIMERS - 1) || tag > ~4ULL)
		return false;
	t = &s->timers[~tag - 4];
	if (read(t->fd, &exp, sizeof(exp)) > 0)
		t->due += exp;
	return true;
}

void session__timers_run(struct session *s)
{
	for (int i = 0; i < s->nr_timers && !s->stop; i++) {
		struct session_timer *t = &s->timers[i];
		u64 due = t->due;

		t->due = 0;
		if (!due)
			continue;
		/* as an interval hook: an inner profiler's rows become events */
		s->row_at = session__row_time_now(s);
		s->out_inner =
			t->owner >= 0 && t->owner < s->nr_hooks ? s->hooks[t->owner].out : NULL;
		t->fn(s, t->priv, due);
		s->out_inner = NULL;
	}
}

void session__timers_close(struct session *s)
{
	for (int i = 0; i < s->nr_timers; i++) {
		if (s->timers[i].fd >= 0)
			close(s->timers[i].fd);
		s->timers[i].fd = -1;
	}
}
