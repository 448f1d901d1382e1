// SPDX-License-Identifier: GPL-2.0
/* The in-kernel sample filters (bpf_sfilter.h): options, the program, its attachment. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>

#include "analysis/cpu/bpf_sfilter.h"
#include "analysis/cpu/prio.h"
#include "engine/bpf.h"
#include "engine/session.h"
#include "util/units.h"

#define X86_EFLAGS_IF 0x200

/* ---- options ---- */

/* "[=0|1]": bare is 1 */
static int parse01(const char *opt, const char *arg, bool *v, char *err, size_t errlen)
{
	if (!arg || !strcmp(arg, "1")) {
		*v = true;
		return 0;
	}
	if (!strcmp(arg, "0")) {
		*v = false;
		return 0;
	}
	snprintf(err, errlen, "bad --%s '%s': 0 or 1 (bare: 1)", opt, arg);
	return -1;
}

static int opt_irqs(void *data, const char *arg, char *err, size_t errlen)
{
	struct sfilter_opts *o = data;

	o->irqs_given = true;
	return parse01("irqs-disabled", arg, &o->irqs_disabled, err, errlen);
}

static int opt_tif(void *data, const char *arg, char *err, size_t errlen)
{
	struct sfilter_opts *o = data;

	o->tif_given = true;
	return parse01("tif-need-resched", arg, &o->tif_need_resched, err, errlen);
}

static int opt_num(const char *opt, const char *arg, unsigned long long lo, unsigned long long hi,
		   unsigned long long *v, char *err, size_t errlen)
{
	if (units__parse_uint(arg, lo, hi, v)) {
		snprintf(err, errlen, "bad --%s '%s': a number %llu..%llu", opt, arg, lo, hi);
		return -1;
	}
	return 0;
}

static int opt_pid(void *data, const char *arg, char *err, size_t errlen)
{
	struct sfilter_opts *o = data;

	o->pid_given = true;
	return opt_num("exclude-pid", arg, 1, 0x7fffffff, &o->exclude_pid, err, errlen);
}

static int opt_min(void *data, const char *arg, char *err, size_t errlen)
{
	struct sfilter_opts *o = data;

	o->min_given = true;
	return opt_num("nr-running-min", arg, 0, 0x7fffffff, &o->nr_min, err, errlen);
}

static int opt_max(void *data, const char *arg, char *err, size_t errlen)
{
	struct sfilter_opts *o = data;

	o->max_given = true;
	return opt_num("nr-running-max", arg, 0, 0x7fffffff, &o->nr_max, err, errlen);
}

static int opt_policy(void *data, const char *arg, char *err, size_t errlen)
{
	struct sfilter_opts *o = data;

	o->policy_given = true;
	if (units__parse_uint(arg, 0, 6, &o->policy) || o->policy == 4) {
		snprintf(err, errlen,
			 "bad --sched-policy '%s': 0 NORMAL, 1 FIFO, 2 RR, 3 BATCH, 5 IDLE or "
			 "6 DEADLINE",
			 arg);
		return -1;
	}
	return 0;
}

static int sf_check(void *data, const struct opt_set *set, char *err, size_t errlen)
{
	const struct sfilter_opts *o = data;

	(void)set;
	if (o->min_given && o->max_given && o->nr_min > o->nr_max) {
		snprintf(err, errlen,
			 "--nr-running-min %llu > --nr-running-max %llu: no sample kept", o->nr_min,
			 o->nr_max);
		return -1;
	}
	return 0;
}

#define SF_BPF "in the kernel (BPF): "
static const struct popt sf_popts[] = {
	{ "irqs-disabled", 0, "[=0|1]",
	  SF_BPF "only samples taken with interrupts disabled (=0: enabled)", POPT_CB,
	  .cb = opt_irqs, .alias = "irqs_disabled" },
	{ "tif-need-resched", 0, "[=0|1]",
	  SF_BPF "only samples where the task has TIF_NEED_RESCHED set (=0: clear)", POPT_CB,
	  .cb = opt_tif, .alias = "tif_need_resched" },
	{ "exclude-pid", 0, "PID", SF_BPF "leave out the samples of process PID", POPT_CB,
	  .cb = opt_pid, .alias = "exclude_pid" },
	{ "nr-running-min", 0, "N",
	  SF_BPF "only samples where the CPU's run queue has at least N running tasks", POPT_CB,
	  .cb = opt_min, .alias = "nr_running_min" },
	{ "nr-running-max", 0, "N",
	  SF_BPF "only samples where the CPU's run queue has at most N running tasks", POPT_CB,
	  .cb = opt_max, .alias = "nr_running_max" },
	{ "sched-policy", 0, "N",
	  SF_BPF "only samples of tasks of policy N (0 NORMAL, 1 FIFO, 2 RR, 3 BATCH, 5 IDLE, "
		 "6 DEADLINE)",
	  POPT_CB, .cb = opt_policy, .alias = "sched_policy" },
	{ 0 },
};

const struct opt_group sfilter_group = {
	.name = "sfilter",
	.opts = sf_popts,
	.size = sizeof(struct sfilter_opts),
	.check = sf_check,
};

/* ---- the kernel ---- */

/* Whether the kernel's config has @line: 1, 0, or -1 (no config to read). */
static int kconfig_has(const char *line)
{
	char path[128], buf[256];
	struct utsname u;
	gzFile f = gzopen("/proc/config.gz", "rb");
	int found = 0;

	if (!f && !uname(&u)) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		f = gzopen(path, "rb"); /* (reads a plain file too) */
	}
	if (!f)
		return -1;
	while (gzgets(f, buf, sizeof(buf)))
		if (!strncmp(buf, line, strlen(line)) && buf[strlen(line)] == '\n') {
			found = 1;
			break;
		}
	gzclose(f);
	return found;
}

/*
 * TIF_NEED_RESCHED's bit in thread_info.flags: a #define, not in BTF.
 * x86_64 has it at 3, or at 4 with the generic TIF bits
 * (CONFIG_HAVE_GENERIC_TIF_BITS, asm-generic/thread_info_tif.h: x86 since
 * 6.18); without a config to read, by the kernel's version.  -1 elsewhere.
 */
static int need_resched_bit(void)
{
#if defined(__x86_64__)
	int generic = kconfig_has("CONFIG_HAVE_GENERIC_TIF_BITS=y");
	struct utsname u;
	int major = 0, minor = 0;

	if (generic < 0 && !uname(&u) && sscanf(u.release, "%d.%d", &major, &minor) == 2)
		generic = major > 6 || (major == 6 && minor >= 18);
	return generic > 0 ? 4 : 3;
#else
	return -1;
#endif
}

/* ---- the program ---- */

static int member(struct session *s, const char *type, const char *m, unsigned *size,
		  const char *opt)
{
	int off = bpf_back__btf_member(type, m, size);

	if (off < 0)
		return session__set_err(s, -ENOENT, "--%s: no %s.%s in the kernel's BTF", opt, type,
					m);
	if (size && *size != 1 && *size != 2 && *size != 4 && *size != 8)
		return session__set_err(s, -EINVAL, "--%s: %s.%s is %u bytes", opt, type, m, *size);
	return off;
}

int sfilter__layout(struct session *s, const struct sfilter_opts *o, bool prio, struct sf_layout *l)
{
	memset(l, 0, sizeof(*l));
	if (o->irqs_given) {
#if defined(__x86_64__)
		l->regs_flags = member(s, "pt_regs", "flags", NULL, "irqs-disabled");
		if (l->regs_flags < 0)
			return l->regs_flags;
#else
		return session__set_err(
			s, -EOPNOTSUPP,
			"--irqs-disabled: the interrupt flag is read on x86_64 only");
#endif
	}
	if (o->tif_given) {
		unsigned sz;
		int ti = member(s, "task_struct", "thread_info", NULL, "tif-need-resched");
		int fl = ti < 0 ? ti : member(s, "thread_info", "flags", &sz, "tif-need-resched");

		if (fl < 0)
			return fl;
		l->ti_flags = ti + fl;
		l->tif_bit = need_resched_bit();
		if (l->tif_bit < 0)
			return session__set_err(
				s, -EOPNOTSUPP,
				"--tif-need-resched: TIF_NEED_RESCHED's bit is known "
				"on x86_64 only");
	}
	if (o->policy_given) {
		l->policy = member(s, "task_struct", "policy", &l->policy_size, "sched-policy");
		if (l->policy < 0)
			return l->policy;
	}
	if (prio) {
		l->prio = member(s, "task_struct", "prio", &l->prio_size, "prio");
		if (l->prio < 0)
			return l->prio;
	}
	if (o->min_given || o->max_given) {
		const char *opt = o->min_given ? "nr-running-min" : "nr-running-max";

		int se = member(s, "task_struct", "se", NULL, opt);
		int cfs = se < 0 ? se : member(s, "sched_entity", "cfs_rq", NULL, opt);
		int rq = cfs < 0 ? cfs : member(s, "cfs_rq", "rq", NULL, opt);

		if (rq < 0)
			return rq;
		l->se_cfs_rq = se + cfs;
		l->cfs_rq_rq = rq;
		l->nr_running = member(s, "rq", "nr_running", &l->nr_size, opt);
		if (l->nr_running < 0)
			return l->nr_running;
	}
	return 0;
}

void sfilter__emit_task(struct bpfb *c, const struct sfilter_opts *o, const struct prio_opts *prio,
			const struct sf_layout *l, int task, int drop)
{
	if (o->min_given || o->max_given) {
		/*
		 * This CPU's run queue, as the current task's CFS queue names
		 * it (every task has one on its CPU): the per-CPU 'runqueues'
		 * cannot be loaded as a ksym where kallsyms lacks variables
		 * (no CONFIG_KALLSYMS_ALL).  A NULL pointer reads as 0.
		 */
		b_ldx(c, 8, R0, task, (int16_t)l->se_cfs_rq);
		b_ldx(c, 8, R0, R0, (int16_t)l->cfs_rq_rq);
		b_ldx(c, (int)l->nr_size, R0, R0, (int16_t)l->nr_running);
		if (o->min_given)
			b_jmpi(c, BPF_JLT, R0, (int32_t)o->nr_min, drop);
		if (o->max_given)
			b_jmpi(c, BPF_JGT, R0, (int32_t)o->nr_max, drop);
	}
	if (o->policy_given) {
		b_ldx(c, (int)l->policy_size, R0, task, (int16_t)l->policy);
		b_jmpi(c, BPF_JNE, R0, (int32_t)o->policy, drop);
	}
	if (prio) {
		int keep = bpfb__label(c);

		/* (a deadline task's -1 loads as a large number: kept by no range) */
		b_ldx(c, (int)l->prio_size, R0, task, (int16_t)l->prio);
		for (int v = 0; v <= PRIO_MAX; v++) {
			int end = v, next;

			if (!prio__has(prio, v))
				continue;
			while (end < PRIO_MAX && prio__has(prio, end + 1))
				end++;
			next = bpfb__label(c);
			b_jmpi(c, BPF_JLT, R0, v, next);
			b_jmpi(c, BPF_JLE, R0, end, keep);
			bpfb__here(c, next);
			v = end;
		}
		b_ja(c, drop);
		bpfb__here(c, keep);
	}
}

/* The program: each test goes to @drop when the sample is not kept. */
static void build(struct bpfb *c, const struct sfilter_opts *o, const struct prio_opts *prio,
		  const struct sf_layout *l)
{
	int drop = bpfb__label(c);

	b_mov(c, R6, R1); /* ctx: struct bpf_perf_event_data, the registers first */
	if (o->irqs_given) {
		b_ldx(c, 8, R0, R6, (int16_t)l->regs_flags);
		b_alui(c, BPF_AND, R0, X86_EFLAGS_IF);
		/* disabled: IF clear */
		b_jmpi(c, o->irqs_disabled ? BPF_JNE : BPF_JEQ, R0, 0, drop);
	}
	if (o->pid_given || prio) {
		b_call(c, BPF_FUNC_get_current_pid_tgid);
		if (prio) /* the idle task has no priority (as on the ring path) */
			b_jmpi(c, BPF_JEQ, R0, 0, drop);
		if (o->pid_given) {
			b_alui(c, BPF_RSH, R0, 32);
			b_jmpi(c, BPF_JEQ, R0, (int32_t)o->exclude_pid, drop);
		}
	}
	if (o->tif_given || o->policy_given || prio || o->min_given || o->max_given) {
		b_call(c, BPF_FUNC_get_current_task_btf);
		b_mov(c, R7, R0);
	}
	if (o->tif_given) {
		b_ldx(c, 8, R0, R7, (int16_t)l->ti_flags);
		b_alui(c, BPF_RSH, R0, l->tif_bit);
		b_alui(c, BPF_AND, R0, 1);
		b_jmpi(c, BPF_JNE, R0, o->tif_need_resched, drop);
	}
	sfilter__emit_task(c, o, prio, l, R7, drop);
	b_ret(c, 1);
	bpfb__here(c, drop);
	b_ret(c, 0);
}

const char *sfilter__first(const struct sfilter_opts *o)
{
	return !o		 ? "--prio"
	       : o->irqs_given	 ? "--irqs-disabled"
	       : o->tif_given	 ? "--tif-need-resched"
	       : o->pid_given	 ? "--exclude-pid"
	       : o->min_given	 ? "--nr-running-min"
	       : o->max_given	 ? "--nr-running-max"
	       : o->policy_given ? "--sched-policy"
				 : "--prio";
}

int sfilter__attach(struct session *s, const struct opt_set *opts, struct evsel *ev, bool prio_ring)
{
	const struct sfilter_opts *o = opt_set__get(opts, &sfilter_group);
	const struct prio_opts *prio = opt_set__get(opts, &prio_group);
	const struct bpf_opts *bo = opt_set__get(opts, &bpf_group);
	bool others = o && (o->irqs_given || o->tif_given || o->pid_given || o->min_given ||
			    o->max_given || o->policy_given);
	const char *name = sfilter__first(others ? o : NULL);
	struct sfilter_opts none = { 0 };
	struct bpf_back *b;
	struct sf_layout l;
	struct bpfb c;
	char err[160];
	int ret, fd;

	if (prio && !prio->set)
		prio = NULL;
	if (!others && !prio)
		return 0;
	if (!o)
		o = &none;
	if (bo && bo->off) {
		if (!others && prio_ring)
			return 0;
		return session__usage_err(s, "%s filters samples in the kernel: not with --no-bpf",
					  name);
	}
	ret = bpf_back__get_filter(s, opts, &b);
	if (ret < 0)
		return ret;
	if (!ret) {
		if (!others && prio_ring)
			return 0;
		return session__set_err(s, -EOPNOTSUPP, "%s needs BPF: %s", name,
					bpf_back__host_why_not());
	}
	ret = sfilter__layout(s, o, prio != NULL, &l);
	if (ret)
		return ret;
	bpfb__init(&c);
	build(&c, o, prio, &l);
	fd = bpf_back__load(b, BPF_PROG_TYPE_PERF_EVENT, "pp_sfilter", &c, NULL, err, sizeof(err));
	bpfb__free(&c);
	if (fd < 0)
		return session__set_err(s, fd, "%s: the sample filter does not load: %s", name,
					err);
	ret = bpf_back__attach_perf_all(b, ev, fd);
	if (ret)
		return ret;
	session__notice(s, "%s: %s's samples filtered in the kernel (BPF)", name, ev->name);
	return 1;
}
