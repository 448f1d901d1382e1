// SPDX-License-Identifier: GPL-2.0
/*
 * pinned [-f FIFO] SECONDS WHAT@CPU ...: oncpu's and cpu-util's ground
 * truth.  One thread per argument, pinned to CPU (a bare WHAT is not
 * pinned), for SECONDS:
 *	spin	burns CPU in user mode (comm "spin<CPU>")
 *	sys	reads 64 KiB of /dev/zero in a loop: mostly kernel mode (the
 *		kernel clears the buffer; comm "sys<CPU>")
 *	guest	a tiny KVM guest spinning in "jmp $" (comm "guest<CPU>"):
 *		guest mode; prints "noguest: REASON" and idles without KVM
 *	sleep	sleeps the whole time (comm "sleeper")
 *	nap	10 ms naps (comm "napper")
 *	burst	10 ms naps, each followed by 5 ms of its own CPU time in user
 *		mode (comm "burster")
 * The main thread ("pinned") sleeps meanwhile.  Prints "pid=PID", one
 * "thread NAME tid=TID cpu=CPU" line per thread, at the end one "cpu NAME
 * tid=TID ms=MS user=MS sys=MS naps=N csw=N" line per thread (its CPU time,
 * its user / kernel split, the kernel's counts, how many times it slept,
 * and how many times it was switched out until then, by the kernel's count)
 * and "done".
 * -f: after "pid=PID", waits for a line on FIFO before starting them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 16

struct job {
	char what[8];
	int cpu;
	char name[16];
	pthread_t th;
	pid_t tid;
	volatile int ready, done;
	double cpu_ms;		/* its CPU time, CLOCK_THREAD_CPUTIME_ID */
	double user_ms, sys_ms; /* ... split by the kernel (RUSAGE_THREAD) */
	unsigned naps;
	long csw; /* its context switches, voluntary or not (RUSAGE_THREAD) */
};

static volatile int stop;
static volatile unsigned long sink;

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* a vCPU in real mode at 0x1000: "jmp $" until a signal ends KVM_RUN */
static void guest(struct job *j)
{
	static const unsigned char code[] = { 0xeb, 0xfe };
	struct kvm_userspace_memory_region mem;
	struct kvm_sregs sregs;
	struct kvm_regs regs;
	int kvm, vm, vcpu;
	unsigned char *ram;

	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	vm = kvm < 0 ? -1 : ioctl(kvm, KVM_CREATE_VM, 0);
	ram = mmap(NULL, 0x2000, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (vm < 0 || ram == MAP_FAILED)
		goto fail;
	memcpy(ram + 0x1000, code, sizeof(code));
	mem = (struct kvm_userspace_memory_region){ .slot = 0,
						    .memory_size = 0x2000,
						    .userspace_addr = (unsigned long)ram };
	vcpu = ioctl(vm, KVM_SET_USER_MEMORY_REGION, &mem) < 0 ? -1 : ioctl(vm, KVM_CREATE_VCPU, 0);
	if (vcpu < 0 || ioctl(vcpu, KVM_GET_SREGS, &sregs) < 0)
		goto fail;
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	memset(&regs, 0, sizeof(regs));
	regs.rip = 0x1000;
	regs.rflags = 0x2;
	if (ioctl(vcpu, KVM_SET_SREGS, &sregs) < 0 || ioctl(vcpu, KVM_SET_REGS, &regs) < 0)
		goto fail;
	j->ready = 1;
	while (!stop)
		if (ioctl(vcpu, KVM_RUN, 0) < 0 && errno != EINTR)
			goto fail;
	return;
fail:
	printf("noguest: %s\n", strerror(errno));
	fflush(stdout);
	j->ready = 1;
	while (!stop)
		pause();
}

static void zero_loop(void)
{
	static char buf[65536];
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);

	while (!stop && fd >= 0)
		if (read(fd, buf, sizeof(buf)) < 0 && errno != EINTR)
			break;
	if (fd >= 0)
		close(fd);
}

static double thread_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void work(struct job *j)
{
	struct timespec nap = { 0, 10000000 };

	if (!strcmp(j->what, "guest")) {
		guest(j);
		return;
	}
	j->ready = 1;
	if (!strcmp(j->what, "spin"))
		while (!stop)
			for (int i = 0; i < 1000; i++)
				sink += (unsigned long)i * 7;
	else if (!strcmp(j->what, "sys"))
		zero_loop();
	else if (!strcmp(j->what, "nap"))
		while (!stop) {
			nanosleep(&nap, NULL);
			j->naps++;
		}
	else if (!strcmp(j->what, "burst"))
		while (!stop) {
			double t0;

			nanosleep(&nap, NULL);
			j->naps++;
			/* few clock reads: each is a system call */
			for (t0 = thread_ms(); !stop && thread_ms() - t0 < 5;)
				for (int i = 0; i < 100000; i++)
					sink += (unsigned long)i * 7;
		}
	else
		while (!stop)
			pause(); /* sleep: until a signal at the end */
}

static void *run(void *arg)
{
	struct job *j = arg;
	struct rusage ru;

	pin(j->cpu);
	prctl(PR_SET_NAME, j->name);
	j->tid = (pid_t)syscall(SYS_gettid);
	work(j);
	j->cpu_ms = thread_ms();
	if (!getrusage(RUSAGE_THREAD, &ru)) {
		j->user_ms = ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3;
		j->sys_ms = ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3;
		j->csw = ru.ru_nvcsw + ru.ru_nivcsw;
	}
	j->done = 1;
	return NULL;
}

static void wake(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	struct job jobs[MAX_THREADS] = { 0 };
	struct sigaction sa = { .sa_handler = wake };
	const char *fifo = NULL;
	int opt, n = 0;
	double secs;

	while ((opt = getopt(argc, argv, "f:")) != -1) {
		if (opt != 'f')
			return 2;
		fifo = optarg;
	}
	if (optind + 1 >= argc || (secs = atof(argv[optind])) <= 0) {
		fprintf(stderr, "usage: pinned [-f FIFO] SECONDS "
				"spin|sys|guest|sleep|nap|burst[@CPU] ...\n");
		return 2;
	}
	for (int i = optind + 1; i < argc && n < MAX_THREADS; i++, n++) {
		struct job *j = &jobs[n];
		char *at = strchr(argv[i], '@');

		j->cpu = at ? atoi(at + 1) : -1;
		snprintf(j->what, sizeof(j->what), "%.*s", at ? (int)(at - argv[i]) : 7, argv[i]);
		if (strcmp(j->what, "spin") && strcmp(j->what, "sys") && strcmp(j->what, "guest") &&
		    strcmp(j->what, "sleep") && strcmp(j->what, "nap") &&
		    strcmp(j->what, "burst")) {
			fprintf(stderr, "pinned: unknown '%s'\n", argv[i]);
			return 2;
		}
		if (!strcmp(j->what, "sleep") || !strcmp(j->what, "nap") ||
		    !strcmp(j->what, "burst"))
			snprintf(j->name, sizeof(j->name), "%s",
				 !strcmp(j->what, "nap")     ? "napper"
				 : !strcmp(j->what, "burst") ? "burster"
							     : "sleeper");
		else
			snprintf(j->name, sizeof(j->name), "%s%d", j->what,
				 j->cpu < 0 ? 0 : j->cpu);
	}
	sigaction(SIGUSR1, &sa, NULL); /* no SA_RESTART: ends KVM_RUN and pause */
	prctl(PR_SET_NAME, "pinned");
	printf("pid=%d\n", getpid());
	fflush(stdout);
	if (fifo) {
		char line[16];
		FILE *go = fopen(fifo, "r");

		if (!go || !fgets(line, sizeof(line), go))
			return 1;
		fclose(go);
	}
	for (int i = 0; i < n; i++)
		pthread_create(&jobs[i].th, NULL, run, &jobs[i]);
	for (int i = 0; i < n; i++) {
		while (!jobs[i].ready)
			usleep(1000);
		printf("thread %s tid=%d cpu=%d\n", jobs[i].name, jobs[i].tid, jobs[i].cpu);
	}
	fflush(stdout);
	{
		struct timespec t = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };

		while (nanosleep(&t, &t) && errno == EINTR)
			;
	}
	stop = 1;
	/* again until it ends: a signal just before pause() or KVM_RUN is missed */
	for (int i = 0; i < n; i++) {
		while (!jobs[i].done) {
			pthread_kill(jobs[i].th, SIGUSR1);
			usleep(5000);
		}
		pthread_join(jobs[i].th, NULL);
	}
	for (int i = 0; i < n; i++)
		printf("cpu %s tid=%d ms=%.2f user=%.2f sys=%.2f naps=%u csw=%ld\n", jobs[i].name,
		       jobs[i].tid, jobs[i].cpu_ms, jobs[i].user_ms, jobs[i].sys_ms, jobs[i].naps,
		       jobs[i].csw);
	printf("done\n");
	return 0;
}
