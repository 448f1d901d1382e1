// SPDX-License-Identifier: GPL-2.0
/*
 * Open addressing on the pid.  Entries are never removed: a pid's last comm
 * stays valid for samples that are printed after the task exited, and the
 * table is bounded by pid_max.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/comm.h"

#define COMM_LEN 16

struct slot {
	uint32_t pid;
	uint8_t used;
	char comm[COMM_LEN];
};

struct comm_map {
	struct slot *slots;
	size_t mask, used;
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

static int grow(struct comm_map *m)
{
	struct comm_map n = { calloc((m->mask + 1) * 2, sizeof(struct slot)), m->mask * 2 + 1,
			      m->used };

	if (!n.slots)
		return -ENOMEM;
	for (size_t i = 0; i <= m->mask; i++)
		if (m->slots[i].used)
			*find(&n, m->slots[i].pid) = m->slots[i];
	free(m->slots);
	*m = n;
	return 0;
}

void comm_map__set(struct comm_map *m, uint32_t pid, const char *comm)
{
	struct slot *s;

	if (m->used * 2 >= m->mask && grow(m))
		return;
	s = find(m, pid);
	if (!s->used) {
		s->used = 1;
		s->pid = pid;
		m->used++;
	}
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
