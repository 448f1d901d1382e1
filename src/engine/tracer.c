// SPDX-License-Identifier: GPL-2.0
/* --ptrace: following the targets' new tasks from their birth (tracer.h). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <uthash.h>

#include "engine/procfs.h"
#include "engine/tracer.h"
#include "util/hash.h"

struct tracee {
	pid_t pid;
	bool known; /* seized, or its parent's fork event was seen */
	bool held;  /* a new task stopped at birth before its parent's event came */
	UT_hash_handle hh;
};

struct tracer {
	struct tracee *tasks;
	tracer_born_fn born;
	void *priv;
	bool detaching;
	unsigned nr_born;
};

#define OPTS (PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC)

struct tracer *tracer__new(tracer_born_fn born, void *priv)
{
	struct tracer *t = calloc(1, sizeof(*t));

	if (t) {
		t->born = born;
		t->priv = priv;
	}
	return t;
}

static struct tracee *find(struct tracer *t, pid_t pid)
{
	struct tracee *e;

	HASH_FIND_INT(t->tasks, &pid, e);
	return e;
}

static struct tracee *get(struct tracer *t, pid_t pid)
{
	struct tracee *e = find(t, pid);

	if (e)
		return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->pid = pid;
	HASH_ADD_INT(t->tasks, pid, e);
	return e;
}

static void forget(struct tracer *t, pid_t pid)
{
	struct tracee *e = find(t, pid);

	if (e) {
		HASH_DEL(t->tasks, e);
		free(e);
	}
}

int tracer__seize(struct tracer *t, pid_t tid, bool exitkill)
{
	struct tracee *e;

	if (ptrace(PTRACE_SEIZE, tid, 0, (void *)(long)(OPTS | (exitkill ? PTRACE_O_EXITKILL : 0))))
		return -errno;
	e = get(t, tid);
	if (!e) {
		ptrace(PTRACE_DETACH, tid, 0, 0);
		return -ENOMEM;
	}
	e->known = true;
	return 0;
}

/* Let @pid go (it is in a ptrace stop), delivering @sig. */
static void let_go(struct tracer *t, pid_t pid, int sig)
{
	ptrace(PTRACE_DETACH, pid, 0, (void *)(long)sig);
	forget(t, pid);
}

static void resume(struct tracer *t, pid_t pid, int sig)
{
	if (t->detaching)
		let_go(t, pid, sig);
	else
		ptrace(PTRACE_CONT, pid, 0, (void *)(long)sig);
}

/* @parent forked, vforked or cloned @child: a target before it runs. */
static void new_task(struct tracer *t, pid_t parent, pid_t child)
{
	struct tracee *c = get(t, child);
	pid_t tgid;

	if (!c || c->known)
		return;
	c->known = true;
	t->nr_born++;
	tgid = procfs__tgid(child);
	if (t->born)
		t->born(t->priv, parent, child, tgid <= 0 || tgid == child);
	if (c->held) {
		c->held = false;
		resume(t, child, 0);
	}
}

static void stopped(struct tracer *t, pid_t pid, int status)
{
	int sig = WSTOPSIG(status), event = (unsigned)status >> 16;
	struct tracee *e;
	unsigned long msg = 0;

	switch (event) {
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		if (!ptrace(PTRACE_GETEVENTMSG, pid, 0, &msg) && msg)
			new_task(t, pid, (pid_t)msg);
		resume(t, pid, 0);
		return;
	case PTRACE_EVENT_STOP:
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) {
			/* a group stop: it stays stopped until SIGCONT, traced or not */
			if (t->detaching)
				let_go(t, pid, 0);
			else
				ptrace(PTRACE_LISTEN, pid, 0, 0);
			return;
		}
		/* a new task's first stop, or our PTRACE_INTERRUPT */
		e = get(t, pid);
		if (e && !e->known && !t->detaching) {
			e->held = true; /* until its parent's event says whose it is */
			return;
		}
		resume(t, pid, 0);
		return;
	case 0:
		resume(t, pid, sig); /* a signal for it: delivered */
		return;
	default: /* exec, vfork done */
		resume(t, pid, 0);
		return;
	}
}

static void exited(struct tracer *t, struct workload *wl, pid_t pid, int status)
{
	if (wl && pid == wl->pid && !wl->exited) {
		wl->status = status;
		wl->exited = true;
	}
	forget(t, pid);
}

static int reap_one(struct tracer *t, struct workload *wl, int flags)
{
	int status;
	pid_t pid = waitpid(-1, &status, __WALL | flags);

	if (pid <= 0)
		return pid < 0 && errno == EINTR ? 1 : 0;
	if (WIFSTOPPED(status))
		stopped(t, pid, status);
	else if (WIFEXITED(status) || WIFSIGNALED(status))
		exited(t, wl, pid, status);
	return 1;
}

void tracer__poll(struct tracer *t, struct workload *wl)
{
	while (reap_one(t, wl, WNOHANG))
		;
}

void tracer__detach(struct tracer *t, struct workload *wl)
{
	struct tracee *e, *tmp;

	if (!t)
		return;
	tracer__poll(t, wl);
	t->detaching = true;
	HASH_ITER(hh, t->tasks, e, tmp)
	{
		if (e->held)
			let_go(t, e->pid, 0); /* stopped already */
		else if (ptrace(PTRACE_INTERRUPT, e->pid, 0, 0) && errno == ESRCH &&
			 kill(e->pid, 0))
			forget(t, e->pid); /* gone */
	}
	/* each interrupted tracee stops (or exits) and is let go in stopped() */
	for (int i = 0; t->tasks && i < 2000; i++) {
		if (!reap_one(t, wl, WNOHANG)) {
			struct timespec ms = { 0, 1000000 };

			nanosleep(&ms, NULL);
		}
	}
}

unsigned tracer__nr(const struct tracer *t)
{
	return t ? HASH_COUNT(t->tasks) : 0;
}

unsigned tracer__born(const struct tracer *t)
{
	return t ? t->nr_born : 0;
}

void tracer__delete(struct tracer *t)
{
	if (!t)
		return;
	HASH_FREE_ALL(hh, t->tasks);
	free(t);
}
