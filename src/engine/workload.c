// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/procfs.h"
#include "engine/workload.h"

/*
 * The command starts as if run by the shell that ran us: no signal blocked
 * or ignored (we block and ignore some for ourselves), except SIGHUP when
 * we were started with it ignored (nohup covers the whole command line).
 */
static void default_signals(void)
{
	/* the kernel's struct sigaction: glibc refuses to touch the signals it reserves */
	struct {
		void (*handler)(int);
		unsigned long flags;
		void (*restorer)(void);
		unsigned long mask;
	} dfl = { SIG_DFL, 0, NULL, 0 };
	sigset_t none;

	for (int sig = 1; sig <= 64; sig++)
		if (sig != SIGHUP && sig != SIGKILL && sig != SIGSTOP)
			syscall(SYS_rt_sigaction, sig, &dfl, NULL, sizeof(dfl.mask));
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

int workload__prepare(struct workload *w, char *const argv[])
{
	pid_t parent = getpid();
	int go[2], err[2];
	char c;

	memset(w, 0, sizeof(*w));
	w->pid = -1;
	w->go_fd = w->err_fd = -1;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return -errno;
	}
	w->pid = fork();
	if (w->pid < 0) {
		int e = -errno;

		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return e;
	}
	if (w->pid == 0) {
		int e;

		close(go[1]);
		close(err[0]);
		/*
		 * perf-prof killed (even by SIGKILL) takes the command with it.
		 * If it died before this line, we were already given to another
		 * parent: do not run.
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
		default_signals();
		/* EOF (parent died or gave up) means: do not run */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	w->go_fd = go[1];
	w->err_fd = err[0];
	return 0;
}

int workload__start(struct workload *w)
{
	int e = 0;
	ssize_t n;

	if (write(w->go_fd, "g", 1) != 1)
		e = errno;
	close(w->go_fd);
	w->go_fd = -1;
	if (e) {
		workload__kill(w);
		return -e;
	}
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	if (n == sizeof(e)) {
		while (waitpid(w->pid, &w->status, 0) < 0 && errno == EINTR)
			;
		w->exited = true;
		return -e;
	}
	return 0;
}

bool workload__reap(struct workload *w)
{
	if (w->exited || w->pid <= 0)
		return true;
	if (waitpid(w->pid, &w->status, WNOHANG) == w->pid)
		w->exited = true;
	return w->exited;
}

void workload__kill(struct workload *w)
{
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->go_fd = w->err_fd = -1;
	if (w->pid > 0 && !w->exited) {
		pid_t r;

		kill(w->pid, SIGKILL);
		/* a traced workload (--ptrace) may report a stop before its end */
		do
			r = waitpid(w->pid, &w->status, __WALL);
		while ((r < 0 && errno == EINTR) || (r == w->pid && WIFSTOPPED(w->status)));
		w->exited = true;
	}
}

static pid_t parent_of(pid_t pid)
{
	pid_t ppid;

	return procfs__stat(pid, NULL, &ppid) ? -1 : ppid;
}

void workload__signal_tree(struct workload *w, int sig)
{
	pid_t *pids = NULL, *ppids = NULL, *tree;
	int n = 0, cap = 0, nt = 1;
	struct dirent *d;
	DIR *proc;

	if (w->pid <= 0 || w->exited)
		return;
	proc = opendir("/proc");
	while (proc && (d = readdir(proc))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		if (n == cap) {
			void *a, *b;

			cap = cap ? cap * 2 : 256;
			a = realloc(pids, cap * sizeof(*pids));
			if (a)
				pids = a;
			b = realloc(ppids, cap * sizeof(*ppids));
			if (b)
				ppids = b;
			if (!a || !b)
				break;
		}
		pids[n] = atoi(d->d_name);
		ppids[n] = parent_of(pids[n]);
		n++;
	}
	if (proc)
		closedir(proc);
	tree = malloc((n + 1) * sizeof(*tree));
	if (tree) {
		/* breadth-first over the parent links, from the workload down */
		tree[0] = w->pid;
		for (int i = 0; i < nt; i++)
			for (int j = 0; j < n; j++)
				if (ppids[j] == tree[i] && pids[j] != w->pid)
					tree[nt++] = pids[j];
		for (int i = 0; i < nt; i++)
			kill(tree[i], sig);
	} else {
		kill(w->pid, sig);
	}
	free(tree);
	free(pids);
	free(ppids);
}
