// SPDX-License-Identifier: GPL-2.0
/*
 * Open addressing on the pid.  A pid's last comm stays valid for samples
 * that are printed after the task exited: entries of exited tasks are
 * dropped COMM_GRACE_NS (event time) after the exit, by a rehash when the
 * table is full or every COMM_GRACE_NS of exits.  So the table holds the
 * live tasks plus those that exited recently (or whose exit was lost),
 * never more than pid_max.
 *
 * Each entry keeps the last few names of its task with the event time from
 * which each holds, so that a sample gets the name its thread had at the
 * sample's time even when the COMM record of a later rename (read from
 * another CPU's buffer) was applied before the sample was processed.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/comm.h"

#define COMM_LEN 16
#define COMM_GRACE_NS (5ULL * 1000000000ULL)
#define COMM_VERSIONS 4 /* fork name, exec name, a thread's own, one rename more */

struct version {
	uint64_t since; /* event time from which the name holds (0: always) */
	char comm[COMM_LEN];
};

struct slot {
	uint32_t pid;
	uint8_t used;
	uint8_t n;	 /* versions held, oldest first */
	uint64_t exited; /* event time of its EXIT, 0 while alive */
	struct version v[COMM_VERSIONS];
};

struct comm_map {
	struct slot *slots;
	size_t mask, used;
	uint64_t now; /* latest EXIT time seen */
	uint64_t next_sweep;
	size_t evicted, exited;
};

struct comm_map *comm_map__new(void)
{
	struct comm_map *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->slots = calloc(1024, sizeof(*m->slots));
	if (!m->slots) {
		free(m);
		return NULL;
	}
	m->mask = 1023;
	return m;
}

void comm_map__delete(struct comm_map *m)
{
	if (!m)
		return;
	free(m->slots);
	free(m);
}

static struct slot *find(struct comm_map *m, uint32_t pid)
{
	size_t i = (pid * 2654435761u) & m->mask;

	while (m->slots[i].used && m->slots[i].pid != pid)
		i = (i + 1) & m->mask;
	return &m->slots[i];
}

static bool expired(const struct comm_map *m, const struct slot *s)
{
	return s->exited && s->exited + COMM_GRACE_NS < m->now;
}

/*
 * Rehash without the expired entries: into twice the slots when @grow and
 * they still fill a quarter, else as many.
 */
static int rehash(struct comm_map *m, bool grow)
{
	size_t keep = 0, slots = m->mask + 1;
	struct comm_map n = *m;

	for (size_t i = 0; i <= m->mask; i++)
		keep += m->slots[i].used && !expired(m, &m->slots[i]);
	if (grow && keep * 4 >= slots)
		slots *= 2;
	n.slots = calloc(slots, sizeof(struct slot));
	if (!n.slots)
		return -ENOMEM;
	n.mask = slots - 1;
	n.used = keep;
	n.evicted += m->used - keep;
	n.exited -= m->used - keep;
	for (size_t i = 0; i <= m->mask; i++)
		if (m->slots[i].used && !expired(m, &m->slots[i]))
			*find(&n, m->slots[i].pid) = m->slots[i];
	free(m->slots);
	*m = n;
	return 0;
}

void comm_map__exit(struct comm_map *m, uint32_t pid, uint64_t time)
{
	struct slot *s = find(m, pid);

	if (time > m->now)
		m->now = time;
	if (s->used && !s->exited) {
		s->exited = time ? time : 1;
		m->exited++;
	}
	if (m->now >= m->next_sweep) {
		if (m->next_sweep && m->exited)
			rehash(m, false);
		m->next_sweep = m->now + COMM_GRACE_NS;
	}
}

size_t comm_map__count(const struct comm_map *m, size_t *evicted)
{
	if (evicted)
		*evicted = m->evicted;
	return m->used;
}

void comm_map__set(struct comm_map *m, uint32_t pid, const char *comm)
{
	comm_map__set_at(m, pid, comm, 0);
}

static void put_version(struct slot *s, const char *comm, uint64_t time)
{
	int i = s->n;

	/* the versions stay sorted by time; the same time is the same rename */
	while (i > 0 && s->v[i - 1].since > time)
		i--;
	if (i > 0 && s->v[i - 1].since == time) {
		i--;
	} else {
		if (i > 0 && !strncmp(s->v[i - 1].comm, comm, COMM_LEN - 1))
			return; /* no change of name */
		if (s->n == COMM_VERSIONS) {
			if (i == 0)
				return; /* older than every version kept */
			memmove(&s->v[0], &s->v[1], (COMM_VERSIONS - 1) * sizeof(s->v[0]));
			s->n--;
			i--;
		}
		memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(s->v[0]));
		s->n++;
	}
	s->v[i].since = time;
	strncpy(s->v[i].comm, comm, COMM_LEN - 1);
	s->v[i].comm[COMM_LEN - 1] = 0;
}

void comm_map__set_at(struct comm_map *m, uint32_t pid, const char *comm, uint64_t time)
{
	struct slot *s;

	if (m->used * 2 >= m->mask && rehash(m, true))
		return;
	s = find(m, pid);
	if (!s->used) {
		s->used = 1;
		s->pid = pid;
		s->n = 0;
		m->used++;
	}
	/* time 0, or after its EXIT: a new task with this pid, its history restarts */
	if (!time || (s->exited && time > s->exited)) {
		if (s->exited)
			m->exited--;
		s->exited = 0;
		s->n = 0;
	}
	put_version(s, comm, time);
}

const char *comm_map__peek_at(struct comm_map *m, uint32_t pid, uint64_t time)
{
	struct slot *s = find(m, pid);
	int i;

	if (!s->used || !s->n)
		return NULL;
	/* the last rename at or before @time; before the first, the first name */
	for (i = s->n - 1; i > 0 && s->v[i].since > time; i--)
		;
	return s->v[i].comm;
}

const char *comm_map__get_at(struct comm_map *m, uint32_t pid, uint64_t time)
{
	const char *c = comm_map__peek_at(m, pid, time);

	return c ? c : comm_map__get(m, pid);
}

void comm_map__seen(struct comm_map *m, uint32_t pid, const char *comm, int len, uint64_t time)
{
	const char *held = comm_map__peek_at(m, pid, time);
	char buf[COMM_LEN];

	/* the kernel's fields are char[16]: a NUL ends them sooner */
	if (len > COMM_LEN - 1)
		len = COMM_LEN - 1;
	len = (int)strnlen(comm, (size_t)len);
	if (len <= 0)
		return;
	if (held && !strncmp(held, comm, (size_t)len) && (!held[len] || held[len] == '-'))
		return;
	memcpy(buf, comm, (size_t)len);
	buf[len] = 0;
	comm_map__set_at(m, pid, buf, time ? time : 1);
}

const char *comm_map__get(struct comm_map *m, uint32_t pid)
{
	struct slot *s = find(m, pid);
	char path[64], buf[COMM_LEN + 1];
	ssize_t n;
	int fd;

	if (s->used && s->n)
		return s->v[s->n - 1].comm;
	if (pid == 0)
		return "<idle>";
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return "<...>";
	n = read(fd, buf, COMM_LEN);
	close(fd);
	if (n <= 0)
		return "<...>";
	/* the file ends with a newline; a name may hold one too (PR_SET_NAME) */
	if (buf[n - 1] == '\n')
		n--;
	buf[n] = 0;
	comm_map__set(m, pid, buf);
	s = find(m, pid);
	return s->used && s->n ? s->v[s->n - 1].comm : "<...>";
}
