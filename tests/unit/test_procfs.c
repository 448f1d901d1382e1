// SPDX-License-Identifier: GPL-2.0
/*
 * procfs__maps_line: the one /proc/PID/maps line parser (sym/maps, libpath,
 * symaddr); procfs__threads: a process's threads (a second one of ours
 * among them).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/procfs.h"
#include "ut.h"

static int parse(const char *text, struct maps_line *m, char *buf, size_t len)
{
	snprintf(buf, len, "%s", text);
	return procfs__maps_line(buf, m);
}

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static volatile pid_t second;

static void *hold(void *arg)
{
	(void)arg;
	second = (pid_t)syscall(SYS_gettid);
	pthread_mutex_lock(&gate); /* until the main thread has looked */
	pthread_mutex_unlock(&gate);
	return NULL;
}

static void threads(void)
{
	pthread_t th;
	pid_t *tids = NULL;
	int n, self = 0, other = 0;

	pthread_mutex_lock(&gate);
	if (pthread_create(&th, NULL, hold, NULL)) {
		CHECK(0, "pthread_create");
		pthread_mutex_unlock(&gate);
		return;
	}
	while (!second)
		usleep(1000);
	n = procfs__threads(getpid(), &tids);
	for (int i = 0; i < n; i++) {
		self += tids[i] == getpid();
		other += tids[i] == second;
	}
	CHECK(n >= 2 && self == 1 && other == 1, "%d threads, ours %d and %d", n, self, other);
	free(tids);
	pthread_mutex_unlock(&gate);
	pthread_join(th, NULL);
	tids = (pid_t *)1;
	CHECK_INT(procfs__threads(-5, &tids), -ENOENT);
	CHECK(tids == NULL, "no array on error");
}

int main(void)
{
	struct maps_line m;
	char b[512];

	CHECK_INT(parse("7f3a1c000000-7f3a1c028000 r-xp 00028000 fe:01 1835012                    "
			"/usr/lib/x86_64-linux-gnu/libc.so.6\n",
			&m, b, sizeof(b)),
		  0);
	CHECK(m.start == 0x7f3a1c000000ULL && m.end == 0x7f3a1c028000ULL && m.pgoff == 0x28000,
	      "range and offset");
	CHECK_STR(m.perms, "r-xp");
	CHECK(m.has_id && m.maj == 0xfe && m.min == 1 && m.ino == 1835012, "device and inode");
	CHECK_STR(m.path, "/usr/lib/x86_64-linux-gnu/libc.so.6");

	CHECK_INT(parse("7ffd5a1f2000-7ffd5a213000 rw-p 00000000 00:00 0                          "
			"[stack]\n",
			&m, b, sizeof(b)),
		  0);
	CHECK_STR(m.path, "[stack]");
	CHECK(m.has_id && m.ino == 0, "anonymous: inode 0");

	CHECK_INT(parse("55d0c0a00000-55d0c0a21000 rw-p 00000000 00:00 0 \n", &m, b, sizeof(b)), 0);
	CHECK_STR(m.path, "");

	CHECK_INT(
		parse("400000-401000 r-xp 00001000 08:02 42 /tmp/a b (deleted)", &m, b, sizeof(b)),
		0);
	CHECK_STR(m.path, "/tmp/a b (deleted)");

	/* no device and inode (some kernels' synthetic lines) */
	CHECK_INT(parse("1000-2000 r-xp 00000000 [vdso]\n", &m, b, sizeof(b)), 0);
	CHECK(!m.has_id, "no id");
	CHECK_STR(m.path, "[vdso]");

	CHECK_INT(parse("not a mapping\n", &m, b, sizeof(b)), -EINVAL);
	CHECK_INT(parse("1000-2000\n", &m, b, sizeof(b)), -EINVAL);
	CHECK_INT(parse("", &m, b, sizeof(b)), -EINVAL);

	threads();
	return ut_done("test_procfs");
}
