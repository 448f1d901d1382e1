// SPDX-License-Identifier: GPL-2.0
/* The target set of a CPU-wide session: see target.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "engine/target.h"
#include "util/hash.h"

struct followed {
	u32 pid;
	u32 threads; /* live, as FORK/EXIT records tell: the process goes with its last */
	UT_hash_handle hh;
};

struct target_set {
	int *pids, nr_pids;
	int *tids, nr_tids;
	bool workload;
	bool inherit;		/* -p processes' (and -t threads') new processes join */
	struct followed *procs; /* the workload and the processes it forked */
	unsigned nr_procs;
};

static int *dup_ints(const int *v, int n)
{
	int *p;

	if (n <= 0)
		return NULL;
	p = malloc(n * sizeof(*p));
	if (p)
		memcpy(p, v, n * sizeof(*p));
	return p;
}

struct target_set *target_set__new(const int *pids, int nr_pids, const int *tids, int nr_tids)
{
	struct target_set *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->pids = dup_ints(pids, nr_pids);
	t->tids = dup_ints(tids, nr_tids);
	if ((nr_pids > 0 && !t->pids) || (nr_tids > 0 && !t->tids)) {
		target_set__delete(t);
		return NULL;
	}
	t->nr_pids = nr_pids > 0 ? nr_pids : 0;
	t->nr_tids = nr_tids > 0 ? nr_tids : 0;
	return t;
}

void target_set__delete(struct target_set *t)
{
	if (!t)
		return;
	HASH_FREE_ALL(hh, t->procs);
	free(t->pids);
	free(t->tids);
	free(t);
}

static struct followed *find(const struct target_set *t, u32 pid)
{
	struct followed *f;

	HASH_FIND(hh, t->procs, &pid, sizeof(pid), f);
	return f;
}

static int follow(struct target_set *t, u32 pid)
{
	struct followed *f;

	if (find(t, pid))
		return 0;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->pid = pid;
	f->threads = 1;
	HASH_ADD(hh, t->procs, pid, sizeof(f->pid), f);
	t->nr_procs++;
	return 0;
}

int target_set__add_workload(struct target_set *t, u32 pid)
{
	t->workload = true;
	return follow(t, pid);
}

void target_set__set_inherit(struct target_set *t)
{
	t->inherit = true;
}

int target_set__add_process(struct target_set *t, u32 pid)
{
	return follow(t, pid);
}

/* With --inherit: a new process of a -p process or of a -t thread is followed. */
static bool listed_parent(const struct target_set *t, const struct rec_task *r)
{
	if (!t->inherit)
		return false;
	for (int i = 0; i < t->nr_pids; i++)
		if ((u32)t->pids[i] == r->ppid)
			return true;
	for (int i = 0; i < t->nr_tids; i++)
		if ((u32)t->tids[i] == r->ptid)
			return true;
	return false;
}

int target_set__fork(struct target_set *t, const struct rec_task *r)
{
	struct followed *f;

	if (!t->procs && !t->inherit)
		return 0;
	/* a new thread of a followed process: one more to outlive */
	if (r->pid == r->ppid) {
		f = find(t, r->pid);
		if (f)
			f->threads++;
		return 0;
	}
	if (!find(t, r->ppid) && !listed_parent(t, r))
		return 0;
	return follow(t, r->pid);
}

void target_set__exit(struct target_set *t, const struct rec_task *r)
{
	struct followed *f;

	if (!(f = find(t, r->pid)))
		return;
	/* its main thread may end before the others (pthread_exit in main) */
	if (f->threads > 1) {
		f->threads--;
		return;
	}
	HASH_DEL(t->procs, f);
	free(f);
	t->nr_procs--;
}

bool target_set__all(const struct target_set *t)
{
	return !t->nr_pids && !t->nr_tids && !t->workload;
}

bool target_set__has(const struct target_set *t, u32 pid, u32 tid)
{
	if (target_set__all(t))
		return true;
	for (int i = 0; i < t->nr_pids; i++)
		if ((u32)t->pids[i] == pid)
			return true;
	for (int i = 0; i < t->nr_tids; i++)
		if ((u32)t->tids[i] == tid)
			return true;
	return t->procs && find(t, pid);
}

unsigned target_set__followed(const struct target_set *t)
{
	return t->nr_procs;
}
