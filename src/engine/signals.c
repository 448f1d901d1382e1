// SPDX-License-Identifier: GPL-2.0
/*
 * The session's signals and its workload (signals.h): from open to the end
 * of the run the stop signals, SIGUSR1/SIGUSR2 and SIGCHLD are read through
 * the loop's signalfd (held since main's first step: util/stopsig.h), never
 * delivered; a stop is passed on to a running workload.
 */
#include <signal.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "engine/session_int.h"
#include "util/stopsig.h"

/*
 * The signals the loop reads through its signalfd.  SIGHUP is not among
 * them if it was ignored at start (nohup): a blocked signal is queued even
 * when ignored, so an ignored SIGHUP must stay unblocked to stay ignored.
 */
void session__loop_sigset(struct session *s, sigset_t *set)
{
	stopsig__set(set);
	if (s->sig.hup_ignored)
		sigdelset(set, SIGHUP);
	sigaddset(set, SIGUSR1);
	sigaddset(set, SIGUSR2);
	sigaddset(set, SIGCHLD);
}

static void set_handler(int sig, void (*h)(int))
{
	struct sigaction sa = { 0 };

	sa.sa_handler = h;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/*
 * From open to the end of the run these signals are only read through the
 * signalfd: a Ctrl-C while probes or ftrace instances are being set up
 * cannot kill us half-way, and SIGUSR1/SIGUSR2/SIGQUIT never kill.  A
 * background job of a shell script starts with SIGINT and SIGQUIT ignored:
 * blocked, they reach the signalfd all the same (the kernel never discards
 * a blocked signal as ignored; a workload starts with default actions).
 */
void session__block_signals(struct session *s)
{
	sigset_t set;

	if (s->sig.blocked)
		return;
	s->sig.hup_ignored = stopsig__ignored(SIGHUP);
	session__loop_sigset(s, &set);
	if (sigprocmask(SIG_BLOCK, &set, &s->sig.old_mask))
		return;
	s->sig.blocked = true;
	s->sig.old_pipe = signal(SIGPIPE, SIG_IGN);
}

/*
 * After the run: what is pending is handled (a stop signal counts as one
 * more interrupt, the others have nothing left to act on), then the old
 * mask comes back, except for the stop signals: they stay blocked until
 * the process exits, which discards them.  The run is over and its report
 * written; one more stop signal (timeout(1) sends its signal twice, to
 * perf-prof and to its process group; an impatient second Ctrl-C) must not
 * kill perf-prof before its buffered output is flushed, nor turn a clean
 * exit into status 130.  SIGUSR1/SIGUSR2, and SIGHUP with an output file
 * (log rotation), are ignored from then on rather than fatal.
 */
void session__restore_signals(struct session *s)
{
	if (!s->sig.blocked)
		return;
	if (s->sig.fd >= 0) {
		session__handle_signals(s);
		close(s->sig.fd);
		s->sig.fd = -1;
	}
	set_handler(SIGUSR1, SIG_IGN);
	set_handler(SIGUSR2, SIG_IGN);
	if (s->conf.output_file && !s->sig.hup_ignored)
		set_handler(SIGHUP, SIG_IGN);
	s->sig.want_snapshot = s->sig.want_usage = s->sig.want_reopen = false;
	signal(SIGPIPE, s->sig.old_pipe);
	sigaddset(&s->sig.old_mask, SIGINT);
	sigaddset(&s->sig.old_mask, SIGTERM);
	sigaddset(&s->sig.old_mask, SIGQUIT);
	if (!s->sig.hup_ignored)
		sigaddset(&s->sig.old_mask, SIGHUP);
	sigprocmask(SIG_SETMASK, &s->sig.old_mask, NULL);
	s->sig.blocked = false;
}

/* The workload exited?  With --ptrace the tracer reaps every child's stops. */
bool session__reap_workload(struct session *s)
{
	if (s->perf.tracer) {
		tracer__poll(s->perf.tracer, s->wl.forked ? &s->wl.proc : NULL);
		return !s->wl.forked || s->wl.proc.exited;
	}
	return !s->wl.forked || workload__reap(&s->wl.proc);
}

void session__handle_signals(struct session *s)
{
	struct signalfd_siginfo si;

	while (read(s->sig.fd, &si, sizeof(si)) == sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGCHLD:
			if (session__reap_workload(s) && s->wl.forked) {
				s->stop = true;
				s->stop_reason = "workload exited";
			}
			continue;
		case SIGUSR1:
			s->sig.want_snapshot = true;
			continue;
		case SIGUSR2:
			s->sig.want_usage = true;
			continue;
		case SIGHUP:
			if (s->conf.output_file) {
				s->sig.want_reopen = true;
				continue;
			}
			break;
		default:
			break;
		}
		/* the workload decides how it ends: pass the signal on, wait for it below */
		if (s->wl.forked && !s->wl.proc.exited &&
		    !kill(s->wl.proc.pid, (int)si.ssi_signo) && !s->wl.signal)
			s->wl.signal = (int)si.ssi_signo;
		s->stop = true;
		s->stop_reason = "interrupted";
		s->sig.interrupted = true;
		stopsig__note(); /* an output waiting for a FIFO's reader gives up */
		if (!s->sig.nr_interrupts++) {
			struct timespec cpu;

			s->sig.abandon_at = session__now(s) + ABANDON_NS;
			s->sig.interrupts_seen = s->sig.nr_interrupts;
			if (!clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu))
				s->sig.signal_cpu = (u64)cpu.tv_sec * 1000000000ULL + cpu.tv_nsec;
		}
	}
}

u64 session__signal_time(struct session *s, u64 *cpu_ns)
{
	*cpu_ns = s ? s->sig.signal_cpu : 0;
	return s && s->sig.abandon_at ? s->sig.abandon_at - ABANDON_NS : 0;
}
