// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/fdcloser.h"

extern char **environ;

pid_t fdcloser__spawn(const int *fds, int n)
{
	short flags = POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
	char *argv[] = { "perf-prof", FDCLOSER_ARG, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, all;
	pid_t pid;
	int err;

	/* ours are close-on-exec: these are to be inherited */
	for (int i = 0; i < n; i++)
		fcntl(fds[i], F_SETFD, 0);
	sigemptyset(&none);
	sigfillset(&all);
	if (posix_spawn_file_actions_init(&fa))
		return -ENOMEM;
	if (posix_spawnattr_init(&at)) {
		posix_spawn_file_actions_destroy(&fa);
		return -ENOMEM;
	}
	err = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	err = err ?: posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	err = err ?: posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	err = err ?: posix_spawnattr_setflags(&at, flags);
	err = err ?: posix_spawnattr_setsigmask(&at, &none);
	err = err ?: posix_spawnattr_setsigdefault(&at, &all);
	err = err ?: posix_spawn(&pid, "/proc/self/exe", &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return err ? -err : pid;
}

static bool is_perf_fd(int fd)
{
	char path[64], link[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return false;
	link[n] = 0;
	return !strcmp(link, "anon_inode:[perf_event]");
}

int fdcloser__main(void)
{
	int *fds = NULL, n = 0, cap = 0;
	struct dirent *d;
	DIR *dir;

	/* Anything else we were given (a caller's pipe) goes first: no one waits on us. */
	dir = opendir("/proc/self/fd");
	if (!dir)
		return 1;
	while ((d = readdir(dir))) {
		int fd = atoi(d->d_name);

		if (d->d_name[0] < '0' || d->d_name[0] > '9' || fd < 3 || fd == dirfd(dir))
			continue;
		if (n == cap) {
			int *f = realloc(fds, (cap = cap ? 2 * cap : 256) * sizeof(*f));

			if (!f)
				break;
			fds = f;
		}
		fds[n++] = fd;
	}
	closedir(dir);
	for (int i = 0; i < n; i++)
		if (!is_perf_fd(fds[i])) {
			close(fds[i]);
			fds[i] = -1;
		}
	/* the slow part: one grace period per tracepoint */
	for (int i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	return 0;
}
