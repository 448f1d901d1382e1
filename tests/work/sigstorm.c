// SPDX-License-Identifier: GPL-2.0
/*
 * sigstorm: stop signals at random moments of perf-prof's start-up.
 *
 *   sigstorm [-i] [-l LOG] [-p PIDS] [-s SEED] SIGNAL RUNS MAXDELAY_MS -- PERF-PROF ARGS...
 *
 * RUNS times: start the command (its own process group; SIGINT and SIGQUIT
 * at their default action, or ignored with -i as a shell script's
 * background job has them), wait until its main has started (SigBlk in
 * /proc/PID/status has SIGUSR1, held from main's first step; the time
 * before main belongs to the dynamic loader), sleep a random 0..MAXDELAY_MS, send
 * SIGNAL, and wait for the end (60 s at most: then it hangs, and its group
 * is killed).  SIGNAL PIPE is not a stop: it must be ignored, so a SIGINT
 * follows it 50 ms later.  Prints one line per run that went wrong and a
 * summary "runs=N exit0=N exit_other=N signaled=N hung=N"; the exit codes
 * other than 0 are listed by count.  The command's stdout and stderr go to
 * LOG (appended), or to /dev/null.  -p: each run's pid is appended to PIDS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(double ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)((ms - (time_t)(ms / 1000) * 1000) * 1e6) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Has @pid's main started (it blocks SIGUSR1 first thing, since before
 * the stop signals were held there too)?  -1 when it is gone.
 */
static int holds_stop(pid_t pid)
{
	char path[64], line[256];
	unsigned long long blk = 0;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SigBlk: %llx", &blk) == 1) {
			found = 1;
			break;
		}
	fclose(f);
	return found && (blk & (1ULL << (SIGUSR1 - 1)));
}

static int signum(const char *name)
{
	static const struct {
		const char *n;
		int s;
	} tab[] = { { "INT", SIGINT },	 { "TERM", SIGTERM }, { "HUP", SIGHUP },
		    { "QUIT", SIGQUIT }, { "PIPE", SIGPIPE }, { "USR1", SIGUSR1 },
		    { "USR2", SIGUSR2 } };

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(name, tab[i].n))
			return tab[i].s;
	return atoi(name);
}

int main(int argc, char **argv)
{
	int opt, sig, runs, maxd, ignore = 0, exit0 = 0, other = 0, signaled = 0, hung = 0;
	int codes[256] = { 0 };
	unsigned seed = (unsigned)getpid();
	const char *log = "/dev/null";
	FILE *pids = NULL;

	while ((opt = getopt(argc, argv, "+il:p:s:")) != -1) {
		if (opt == 'i')
			ignore = 1;
		else if (opt == 'l')
			log = optarg;
		else if (opt == 'p' && (pids = fopen(optarg, "ae")))
			continue;
		else if (opt == 'p')
			return 1;
		else if (opt == 's')
			seed = (unsigned)strtoul(optarg, NULL, 0);
		else
			return 2;
	}
	if (argc - optind < 5 || strcmp(argv[optind + 3], "--")) {
		fprintf(stderr, "usage: sigstorm [-i] [-l LOG] [-p PIDS] [-s SEED] SIGNAL RUNS "
				"MAXDELAY_MS -- CMD...\n");
		return 2;
	}
	sig = signum(argv[optind]);
	runs = atoi(argv[optind + 1]);
	maxd = atoi(argv[optind + 2]);
	argv += optind + 4;
	srand(seed);
	for (int r = 0; r < runs; r++) {
		double delay = maxd ? (double)(rand() % (maxd * 10 + 1)) / 10 : 0, t0;
		int status, held;
		pid_t pid = fork(), w = 0;

		if (pid < 0)
			return 1;
		if (!pid) {
			sigset_t none;
			int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);

			if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
				_exit(126);
			setpgid(0, 0);
			signal(SIGINT, ignore ? SIG_IGN : SIG_DFL);
			signal(SIGQUIT, ignore ? SIG_IGN : SIG_DFL);
			sigemptyset(&none);
			sigprocmask(SIG_SETMASK, &none, NULL);
			execvp(argv[0], argv);
			_exit(127);
		}
		setpgid(pid, pid);
		if (pids)
			fprintf(pids, "%d\n", (int)pid);
		/* until main runs (or the process is gone) */
		t0 = now();
		while ((held = holds_stop(pid)) == 0 && now() - t0 < 10)
			;
		sleep_ms(delay);
		kill(pid, sig);
		if (sig == SIGPIPE) {
			sleep_ms(50);
			kill(pid, SIGINT);
		}
		t0 = now();
		while ((w = waitpid(pid, &status, WNOHANG)) == 0 && now() - t0 < 60)
			sleep_ms(5);
		if (w == 0) {
			hung++;
			printf("run %d (delay %.1f ms): no end 60 s after the signal\n", r, delay);
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			continue;
		}
		/* what it started (a workload, a closer) ends with it */
		kill(-pid, SIGKILL);
		if (WIFSIGNALED(status)) {
			signaled++;
			printf("run %d (delay %.1f ms): killed by signal %d\n", r, delay,
			       WTERMSIG(status));
		} else if (WEXITSTATUS(status) == 0) {
			exit0++;
		} else {
			other++;
			codes[WEXITSTATUS(status)]++;
		}
	}
	if (pids)
		fclose(pids);
	printf("runs=%d exit0=%d exit_other=%d signaled=%d hung=%d", runs, exit0, other, signaled,
	       hung);
	for (int c = 1; c < 256; c++)
		if (codes[c])
			printf(" code%d=%d", c, codes[c]);
	printf("\n");
	return 0;
}
