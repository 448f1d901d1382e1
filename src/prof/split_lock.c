// SPDX-License-Identifier: GPL-2.0
/*
 * split-lock: locked instructions whose operand crosses a cache line lock
 * the whole memory bus, stalling every CPU.  The CPU's PMU counts them
 * (Intel: SQ_MISC.SPLIT_LOCK, event 0xf4 umask 0x10; AMD Zen:
 * LS_LOCKS.BUS_LOCK, event 0x25 umask 0x01): per CPU per interval, and with
 * -T N a sample every N split locks, printed with the task and ip that took
 * it (-g: and its stack).  --test takes split locks once the counters
 * run, in a child on the first monitored CPU, to see them counted.  A host
 * without a hardware PMU cannot count them: one line says so.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/counting/counters.h"
#include "engine/features.h"
#include "profiler.h"
#include "report/evline.h"
#include "report/outfile.h"
#include "sym/stack.h"

#define SL_TEST_LOCKS 1000 /* --test's split locks */

struct split_lock {
	unsigned long long trigger;
	bool perins;
	struct evname *evs;
	int nr_evs;
	struct ctr_set cs;
	struct evsel *sampler;
	u64 samples;
	bool test;
	int test_cpu; /* --test: where it takes them (the first monitored CPU) */
};

/*
 * @n locked increments of a 4-byte value that straddles a cache line
 * boundary in @buf (at least 128 bytes): each one a split lock on x86.
 * The value after them (its start value plus @n), or 0 where the
 * architecture has no such instruction.
 */
u32 split_lock__take(unsigned char *buf, unsigned n)
{
	/* 2 bytes before the first 64-byte boundary at buf + 2 or above: inside a 128-byte buf */
	unsigned char *at = (unsigned char *)(((uintptr_t)buf + 2 + 63) & ~(uintptr_t)63) - 2;
	u32 v;

	/* (the address in a register: C never reads the misaligned value itself) */
	for (unsigned i = 0; i < n; i++) {
#if defined(__x86_64__) || defined(__i386__)
		__asm__ __volatile__("lock addl $1, (%0)" : : "r"(at) : "memory", "cc");
#else
		return 0;
#endif
	}
	memcpy(&v, at, sizeof(v));
	return v;
}

/* The PMU event counting split locks on a CPU of @vendor (cpuinfo's vendor_id), or NULL. */
const char *split_lock__event(const char *vendor)
{
	if (!strcmp(vendor, "GenuineIntel"))
		return "cpu/event=0xf4,umask=0x10,name=split-lock/";
	if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine"))
		return "cpu/event=0x25,umask=0x01,name=split-lock/";
	return NULL;
}

static void cpu_vendor(char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, len, "unknown");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "vendor_id : %63s", buf) == 1)
			break;
	if (f)
		fclose(f);
}

static void report(struct session *s, void *priv, const char *what, bool since_start);

static int sl_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct exclude_opts *ex = opt_set__get(opts, &exclude_group);
	const struct stack_opts *st = opt_set__get(opts, &stack_group);
	const struct target_opts *tg = session__conf(s)->target;
	struct split_lock *p = priv;
	char vendor[64], err[256], pmu_ev[128];
	const char *ev;

	if (exclude__empty(ex))
		return session__usage_err(s, "%s", exclude__empty(ex));
	if (st && st->capture.cg != CG_NONE && !p->trigger)
		return session__usage_err(s, "-g: stacks are of the samples -T N takes "
					     "(no -T: counts only)");
#if !defined(__x86_64__) && !defined(__i386__)
	if (p->test)
		return session__usage_err(s, "--test: takes split locks with x86's "
					     "lock prefix (not on this architecture)");
#endif
	if (!features__cpu_pmu())
		return session__set_err(s, -ENODEV,
					"needs a hardware PMU, and this host has none (no "
					"/sys/bus/event_source/devices/cpu: a VM without a virtual "
					"PMU?): split locks cannot be counted here");
	cpu_vendor(vendor, sizeof(vendor));
	/* (a hybrid Intel's core PMU is cpu_core) */
	ev = evname__on_pmu(split_lock__event(vendor), features__cpu_pmu(), pmu_ev, sizeof(pmu_ev));
	if (!ev)
		return session__set_err(s, -ENODEV,
					"no known split-lock event for CPU vendor '%s' "
					"(Intel and AMD only)",
					vendor);
	session__want_cpu_wide(s);
	if (evname__parse_list(ev, &p->evs, &p->nr_evs, err, sizeof(err)))
		return session__set_err(s, -EINVAL, "%s", err);
	for (int i = 0; i < p->nr_evs; i++) /* counted in the modes kept, sampled too */
		exclude__attr(ex, &p->evs[i].attr);
	if (p->trigger) {
		struct evsel_conf c = {
			.type = p->evs[0].attr.type,
			.config = p->evs[0].attr.config,
			.sample_period = p->trigger,
			.exclude_user = p->evs[0].attr.exclude_user,
			.exclude_kernel = p->evs[0].attr.exclude_kernel,
			.exclude_guest = p->evs[0].attr.exclude_guest,
			.exclude_host = p->evs[0].attr.exclude_host,
			.extra_sample_type = PERF_SAMPLE_IP,
			.callchain = st && st->capture.cg != CG_NONE,
			.name = "split-lock",
		};

		p->sampler = session__add_event(s, &c);
		if (!p->sampler)
			return -ENOMEM;
	}
	p->test_cpu = tg && tg->nr_cpus ? tg->cpus[0] : -1;
	return ctr_set__add(&p->cs, s, p->evs, p->nr_evs)
		       ?: ctr_set__report_by(&p->cs, s, report, p);
}

/* A sample: text "N split locks, ip 0x..." after the event's head. */
static const struct rt_col sl_cols[] = {
	{ .type = RT_ROW },
	{ .type = RT_STR, .flags = RT_NO_JSON },
	RT_COL("split_locks", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("ip", NULL, RT_HEX, RT_UNIT_NONE, 0, RT_NO_TEXT),
	EVL_STACK_COL,
};
static const struct rt_desc sl_desc = { .type = "event", .cols = sl_cols, .ncols = 5 };

static void sl_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct split_lock *p = priv;
	FILE *out = session__event_out(s, priv);
	struct rt_val v[EVL_NCOLS];
	struct rt_stack stk;
	char text[64];

	p->samples++;
	if (!out)
		return;
	evline__row(v, &stk, s, NULL, smp, session__comm(s, smp->tid), ev->name);
	snprintf(text, sizeof(text), "%llu split locks, ip 0x%llx", p->trigger,
		 (unsigned long long)smp->ip);
	evline__emit(s, out, &sl_desc,
		     (struct rt_val[]){ { .row = { &evline_head, v } },
					{ .s = text },
					{ .u = p->trigger },
					{ .u = smp->ip },
					{ .stk = v[EVL_STACK].stk } });
}

/*
 * --test's locks: @n split locks taken by a child process on CPU @cpu (-1:
 * where it runs): a kernel with split_lock_detect=fatal kills the task that
 * takes one (SIGBUS), and that is then the child, not the run.  The child's
 * pid, or -errno; *@taken, *@on_cpu what it did, *@sig what killed it (0).
 */
int split_lock__test(int cpu, unsigned n, u32 *taken, int *on_cpu, int *sig)
{
	struct {
		u32 taken;
		int cpu;
	} * res;
	int st = 0, err;
	pid_t pid;

	res = mmap(NULL, sizeof(*res), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED)
		return -errno;
	res->cpu = -1;
	if ((pid = fork()) < 0) {
		err = -errno;
		munmap(res, sizeof(*res));
		return err;
	}
	if (!pid) {
		unsigned char buf[128] = { 0 };
		cpu_set_t on;

		if (cpu >= 0) {
			CPU_ZERO(&on);
			CPU_SET(cpu, &on);
			sched_setaffinity(0, sizeof(on), &on);
		}
		res->cpu = sched_getcpu();
		res->taken = split_lock__take(buf, n);
		_exit(0);
	}
	while ((err = (int)waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	if (err < 0) { /* (not reaped: what it did is unknown) */
		err = -errno;
		munmap(res, sizeof(*res));
		return err;
	}
	*taken = res->taken;
	*on_cpu = res->cpu;
	*sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	munmap(res, sizeof(*res));
	return pid;
}

/* --test: the counters run; split locks taken on the first monitored CPU, by a child */
static int sl_started(struct session *s, void *priv)
{
	struct split_lock *p = priv;
	int pid, cpu, sig;
	u32 taken;

	if (!p->test)
		return 0;
	if ((pid = split_lock__test(p->test_cpu, SL_TEST_LOCKS, &taken, &cpu, &sig)) < 0)
		return session__set_err(s, pid, "--test: cannot run its child: %s", strerror(-pid));
	if (sig)
		session__warn(
			s,
			"split-lock --test: the kernel killed the test process %d (%s) taking "
			"split locks on CPU %d: split_lock_detect=fatal?",
			pid, strsignal(sig), cpu);
	else
		session__notice(s, "split-lock --test: %u split locks taken on CPU %d (pid %d)",
				taken, cpu, pid);
	return 0;
}

/* What was read last: since the last interval, or (@since_start) since the start. */
static void report(struct session *s, void *priv, const char *what, bool since_start)
{
	struct split_lock *p = priv;
	FILE *out = session__out(s);
	char ts[64];

	if (!session__json(s)) {
		session__fmt_time(s, session__now(s), ts, sizeof(ts));
		fprintf(out, "%s split-lock: %s %.3f s\n", ts, what,
			(double)(p->cs.t_now - (since_start ? p->cs.t_first : p->cs.t_last)) / 1e9);
	}
	ctr_set__report(&p->cs, out, session__json(s), p->perins, since_start, what);
	fflush(out);
}

static void sl_deinit(struct session *s, void *priv)
{
	struct split_lock *p = priv;

	ctr_set__end(&p->cs, s);
	if (session__started(s) && !session__json(s)) /* --json: the CLI's "lost" record */
		session__print_lost(s, session__out(s));
	ctr_set__free(&p->cs);
	evname__free(p->evs, p->nr_evs);
}

static const struct popt sl_opts[] = {
	{ .lname = "trigger",
	  .sname = 'T',
	  .argname = "N",
	  .help = "a sample (task, ip) every N split locks on a CPU",
	  POPT_BIND_UINT(struct split_lock, trigger),
	  POPT_RANGE(1, 0) },
	{ .lname = "perins", .help = "a row per CPU", POPT_BIND_FLAG(struct split_lock, perins) },
	{ .lname = "test",
	  .help = "take 1000 split locks once counting, on the first monitored CPU (a check)",
	  POPT_BIND_FLAG(struct split_lock, test) },
	{ 0 },
};

const struct profiler prof_split_lock = {
	.name = "split-lock",
	.needs = (const char *const[]){ "pmu", "cpu-wide", NULL },
	.desc = "split locks (bus locks) per CPU, and who takes them (needs a hardware PMU)",
	.synopsis = "perf-prof split-lock [-T N [-g]] [-i MS] [--perins] [--test] [-G] [-C CPUS]",
	.examples = "perf-prof split-lock -i 1000 --perins\n"
		    "  perf-prof split-lock -T 1000 -C 0-7     # who takes them, every 1000\n"
		    "  perf-prof split-lock -T 1 -g --test -C 0 # each of 1000 test locks, its "
		    "stack\n"
		    "  perf-prof split-lock -G                 # only in guests (the host "
		    "excluded)",
	.groups = (const struct opt_group *const[]){ &target_group, &run_group, &output_group,
						     &exclude_group, &stack_group, NULL },
	.own = sl_opts,
	.priv_size = sizeof(struct split_lock),
	.init = sl_init,
	.ops = { .sample = sl_sample, .started = sl_started },
	.deinit = sl_deinit,
};
