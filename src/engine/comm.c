// SPDX-License-Identifier: GPL-2.0
/*
 * Open addressing on the pid.  A pid's last comm stays valid for samples
 * that are printed after the task exited: entries of exited tasks are
 * dropped COMM_GRACE_NS (event time) after the exit, by a rehash when the
 * table is full or every COMM_GRACE_NS of exits.  So the table holds the
 * live tasks plus those that exited recently (or whose exit was lost),
 * never more than pid_max.
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

struct slot {
	uint32_t pid;
	uint8_t used;
	char comm[COMM_LEN];
	uint64_t exited; /* event time of its EXIT, 0 while alive */
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
	struct slot *s;

	if (m->used * 2 >= m->mask && rehash(m, true))
		return;
	s = find(m, pid);
	if (!s->used) {
		s->used = 1;
		s->pid = pid;
		m->used++;
	}
	if (s->exited) /* a new task with this pid */
		m->exited--;
	s->exited = 0;
	strncpy(s->comm, comm, COMM_LEN - 1);
	s->comm[COMM_LEN - 1] = 0;
}

const char *comm_map__get(struct comm_map *m, uint32_t pid)
{
	struct slot *s = find(m, pid);
	char path[64], buf[COMM_LEN + 1];
	ssize_t n;
	int fd;

	if (s->used)
		return s->comm;
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
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	comm_map__set(m, pid, buf);
	return find(m, pid)->comm;
}
