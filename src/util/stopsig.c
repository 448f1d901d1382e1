// SPDX-License-Identifier: GPL-2.0
#include <signal.h>
#include <stddef.h>

#include "util/stopsig.h"

static sigset_t start_mask;
static bool held, hup_ignored;
static volatile sig_atomic_t noted;

bool stopsig__ignored(int sig)
{
	struct sigaction sa;

	return !sigaction(sig, NULL, &sa) && sa.sa_handler == SIG_IGN;
}

void stopsig__set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGQUIT);
	if (!hup_ignored)
		sigaddset(set, SIGHUP);
}

void stopsig__hold(void)
{
	sigset_t set;

	if (held)
		return;
	hup_ignored = stopsig__ignored(SIGHUP);
	stopsig__set(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGPIPE);
	if (!sigprocmask(SIG_BLOCK, &set, &start_mask))
		held = true;
}

void stopsig__release(void)
{
	if (!held)
		return;
	held = false;
	sigprocmask(SIG_SETMASK, &start_mask, NULL);
}

bool stopsig__pending(bool hup)
{
	sigset_t pending, stop;

	if (sigpending(&pending))
		return false;
	stopsig__set(&stop);
	if (!hup)
		sigdelset(&stop, SIGHUP);
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&stop, sig) == 1 && sigismember(&pending, sig) == 1)
			return true;
	return false;
}

void stopsig__note(void)
{
	noted = 1;
}

bool stopsig__stopped(void)
{
	return noted || stopsig__pending(true);
}
