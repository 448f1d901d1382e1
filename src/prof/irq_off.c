// SPDX-License-Identifier: GPL-2.0
/*
 * irq-off: periods a CPU held interrupts off, from gaps in a
 * high-resolution timer's samples.  The cpu-clock software event samples
 * each CPU every PERIOD from a hrtimer interrupt; a sample more than
 * PERIOD + TIME after the previous one on its CPU means the interrupt was
 * held off for at least TIME (at least gap - PERIOD: the timer was due
 * PERIOD after the previous sample).  The sample that ends the gap is
 * taken where interrupts came back on: its task and its stack are printed.
 *
 * Idle CPUs stop their timers (NOHZ) or, on some VMs, never deliver the
 * samples raised while idle: a gap that began in the idle task or during
 * which the CPU switched to or from it (the kernel's context-switch
 * records) is an idle gap, counted, never reported (analysis/gapwatch).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/cpu/gapwatch.h"
#include "engine/cpulist.h"
#include "profiler.h"
#include "report/evline.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "sym/ksyms.h"
#include "sym/stack.h"
#include "util/units.h"

#define NS_PER_SEC 1000000000ULL
#define MIN_PERIOD 10000ULL /* 10us: 100 kHz */

enum { IO_OFF, IO_STALL }; /* a gap that ended in the kernel, in user mode */

struct io_cpu {
	u64 n[2], longest[2], at[2]; /* of each kind: how many, the longest, when */
	u64 idle;
};

struct irq_off {
	unsigned long long freq, period, than;
	bool precise;
	struct exclude_opts ex; /* a gap is reported when its last sample is in a mode kept */
	struct evsel *ev;
	struct gapwatch *gw;
	struct ksyms *ks; /* names the ip without -g */
	u64 limit;	  /* than + period: the shortest gap reported */
	u64 samples;
	struct io_cpu *cpus; /* by CPU number */
	int nr_cpus;
	bool *watched; /* by CPU number: monitored (-C) */
};

static int io_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct stack_opts *st = opt_set__get(opts, &stack_group);
	const struct target_opts *tg = opt_set__get(opts, &target_group);
	const struct exclude_opts *ex = opt_set__get(opts, &exclude_group);
	struct irq_off *p = priv;
	bool stacks = st && st->capture.cg != CG_NONE;
	struct evsel_conf c = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.callchain = stacks,
		/* interrupts come back on in the kernel: its stack says where */
		.exclude_callchain_user = !(st && st->capture.halves_given),
		.extra_sample_type = PERF_SAMPLE_IP,
		.name = "irq-off",
	};
	char a[32], b[32], h[32];

	if (tg && (tg->nr_pids || tg->nr_tids))
		return session__usage_err(s, "irq-off watches CPUs, not tasks: use -C CPUS "
					     "(or '-- command' for how long to watch)");
	if (exclude__empty(ex))
		return session__usage_err(s, "%s", exclude__empty(ex));
	if (ex)
		p->ex = *ex;
	if (p->freq && p->period)
		return session__usage_err(s, "-F and --period both set the timer: give one");
	if (p->freq) {
		if (p->freq > NS_PER_SEC / MIN_PERIOD)
			return session__usage_err(s, "-F %llu: at most %llu Hz", p->freq,
						  NS_PER_SEC / MIN_PERIOD);
		p->period = NS_PER_SEC / p->freq;
	}
	if (!p->period)
		p->period = 1000000; /* 1ms */
	if (p->period < MIN_PERIOD || p->period > NS_PER_SEC)
		return session__usage_err(s, "--period %s: from 10us to 1s",
					  units__fmt_ns(p->period, a, sizeof(a)));
	if (!p->than)
		p->than = 20000000; /* 20ms, as the original's -L */
	if (p->than < 2 * p->period)
		return session__usage_err(
			s,
			"--than %s with a timer every %s: the timer must be due at least twice "
			"within it (--period %s or less)",
			units__fmt_ns(p->than, a, sizeof(a)),
			units__fmt_ns(p->period, b, sizeof(b)),
			units__fmt_ns(p->than / 2, h, sizeof(h)));
	p->limit = p->than + p->period;
	session__want_cpu_wide(s);
	p->gw = gapwatch__new(1, 0);
	p->nr_cpus = cpulist__possible() > 0 ? cpulist__possible() : GW_MAX_CPUS;
	p->cpus = calloc(p->nr_cpus, sizeof(*p->cpus));
	p->watched = calloc(p->nr_cpus, sizeof(*p->watched));
	if (!p->gw || !p->cpus || !p->watched)
		return session__set_err(s, -ENOMEM, "out of memory");
	/* the idle task in or out (context-switch records), lost records */
	if (gapwatch__add_hooks(p->gw, s))
		return -ENOMEM;
	for (int i = 0; tg && i < tg->nr_cpus; i++)
		if (tg->cpus[i] >= 0 && tg->cpus[i] < p->nr_cpus)
			p->watched[tg->cpus[i]] = true;
	if (!stacks && ksyms__load(NULL, &p->ks))
		p->ks = NULL; /* hidden addresses: the ip stays a number */
	c.sample_period = p->period;
	p->ev = session__add_event(s, &c);
	if (!p->ev)
		return -ENOMEM;
	/*
	 * No sample in the idle task: its gaps are not reported anyway, and
	 * a NOHZ idle CPU has no tick to reset the throttling count, so the
	 * kernel would throttle (stop) the timer after 1/HZ worth of them.
	 */
	p->ev->attr.exclude_idle = 1;
	return 0;
}

/* A gap: counted on its CPU, the longest kept. */
static void count(struct io_cpu *c, int kind, u64 off, u64 time)
{
	c->n[kind]++;
	if (off > c->longest[kind]) {
		c->longest[kind] = off;
		c->at[kind] = time;
	}
}

/*
 * A gap: where it ended, then text "OFF (no timer sample for GAP)" and the
 * stack or the ip; --json "off_ns", "gap_ns", "ip" ("ip_sym", "ip_off").
 */
static const struct rt_col gap_cols[] = {
	{ .type = RT_ROW },
	{ .type = RT_STR, .flags = RT_NO_JSON },
	RT_COL("off_ns", NULL, RT_U64, RT_UNIT_NS, 0, RT_NO_TEXT),
	RT_COL("gap_ns", NULL, RT_U64, RT_UNIT_NS, 0, RT_NO_TEXT),
	RT_COL("ip", NULL, RT_HEX, RT_UNIT_NONE, 0, RT_NO_TEXT),
	RT_COL("ip_sym", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT | RT_OMIT_EMPTY),
	RT_COL("ip_off", NULL, RT_U64, RT_UNIT_NONE, 0, RT_NO_TEXT | RT_OMIT_EMPTY),
	EVL_STACK_COL,
};
static const struct rt_desc gap_desc = { .type = "event", .cols = gap_cols, .ncols = 8 };

static void io_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct irq_off *p = priv;
	struct gw_tick_info t;
	char text[640], off[32], gap[32];
	const struct sym *sym;
	struct rt_val v[EVL_NCOLS];
	struct rt_stack stk;
	int kind, n;

	(void)ev;
	p->samples++;
	if (gapwatch__tick(p->gw, 0, (int)smp->cpu, smp->time, smp->pid, p->limit, &t) != GW_GAP)
		return;
	/*
	 * The timer must sample every mode to see the gaps: the modes left
	 * out are left out of what is reported (where the gap ended).
	 */
	if (!exclude__keep(&p->ex, smp->misc))
		return;
	/*
	 * Interrupts are never off in user mode: the timer, due all along,
	 * found the CPU there as soon as it ran again, so it did not run (a
	 * VM's vCPU its host did not run, an SMI, a long NMI): a stall.
	 */
	kind = (s64)smp->ip >= 0 ? IO_STALL : IO_OFF;
	if (smp->cpu < (u32)p->nr_cpus)
		count(&p->cpus[smp->cpu], kind, t.gap - p->period, smp->time);
	sym = smp->nr_ips ? NULL : ksyms__find(p->ks, smp->ip, NULL);
	n = snprintf(text, sizeof(text), "%s (no timer sample for %s)",
		     units__fmt_ns(t.gap - p->period, off, sizeof(off)),
		     units__fmt_ns(t.gap, gap, sizeof(gap)));
	if (!smp->nr_ips)
		n += snprintf(text + n, sizeof(text) - n, " ip %016llx",
			      (unsigned long long)smp->ip);
	if (sym)
		snprintf(text + n, sizeof(text) - n, " %s+0x%llx", sym->name,
			 (unsigned long long)(smp->ip - sym->start));
	evline__row(v, &stk, s, NULL, smp, NULL, kind == IO_STALL ? "stall" : "irq-off");
	evline__emit(s, session__out(s), &gap_desc,
		     (struct rt_val[]){ { .row = { &evline_head, v } },
					{ .s = text },
					{ .u = t.gap - p->period },
					{ .u = t.gap },
					{ .u = smp->ip },
					{ .s = sym ? sym->name : NULL },
					{ .u = sym ? smp->ip - sym->start : 0, .null = !sym },
					v[EVL_STACK] });
}

/*
 * The report at the end (README, irq-off): a row per CPU, then the
 * summary (--json: a record; text: a sentence).  A longest period prints
 * "-" when there is none (--json: 0; its time null).
 */
static const struct rt_col io_cols[] = {
	RT_COL("cpu", "CPU", RT_U64, RT_UNIT_NONE, 4, 0),
	RT_COL("samples", "SAMPLES", RT_U64, RT_UNIT_COUNT, 10, 0),
	RT_COL("irq_off", "IRQ-OFF", RT_U64, RT_UNIT_COUNT, 8, 0),
	RT_COL("longest_ns", "LONGEST", RT_STR, RT_UNIT_NS, 10, 0),
	RT_COL("longest_time_ns", "AT", RT_STR, RT_UNIT_NS, 26, RT_LEFT | RT_GAP | RT_EMPTY_NULL),
	RT_COL("stalls", "STALLS", RT_U64, RT_UNIT_COUNT, 7, 0),
	RT_COL("longest_stall_ns", "LONGEST", RT_STR, RT_UNIT_NS, 10, 0),
	RT_COL("idle_gaps", "IDLE-GAPS", RT_U64, RT_UNIT_COUNT, 9, 0),
};
static const struct rt_desc io_desc = { .type = "row", .cols = io_cols, .ncols = 8 };

/* text: the "total:" sentence */
static const struct rt_col sum_cols[] = {
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	RT_COL("than_ns", NULL, RT_NS, RT_UNIT_NS, 0, RT_NO_TEXT),
	RT_COL("period_ns", NULL, RT_NS, RT_UNIT_NS, 0, RT_NO_TEXT),
	RT_COL("samples", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("irq_off", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("longest_ns", NULL, RT_NS, RT_UNIT_NS, 0, RT_NO_TEXT),
	RT_COL("stalls", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	RT_COL("longest_stall_ns", NULL, RT_NS, RT_UNIT_NS, 0, RT_NO_TEXT),
	RT_COL("idle_gaps", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
};
static const struct rt_desc sum_desc = { .type = "summary", .cols = sum_cols, .ncols = 9 };

/* A duration in text ("-" when @none), its number in --json. */
static struct rt_val ns_val(u64 ns, bool none, char *buf, size_t len)
{
	return (struct rt_val){ .i = (s64)ns,
				.num = true,
				.s = none ? "-" : units__fmt_ns(ns, buf, len) };
}

static void io_report(struct session *s, struct irq_off *p, FILE *out)
{
	bool json = session__json(s);
	struct io_cpu all = { 0 };
	union rt_sinks u;
	struct rt_sink *k = json ? rt_json__init(&u.json, out, NULL) : rt_text__init(&u.text, out);
	char a[32], b[32], ts[64], total[256];

	if (!json)
		fprintf(out,
			"irq-off: interrupts held off %s or more (cpu-clock every %s), %llu "
			"samples\n",
			units__fmt_ns(p->than, a, sizeof(a)),
			units__fmt_ns(p->period, b, sizeof(b)), (unsigned long long)p->samples);
	rtable__begin(k, &io_desc);
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		struct gw_stats st = gapwatch__stats(p->gw, 0, cpu);
		const struct io_cpu *c = &p->cpus[cpu];
		struct rt_val at = { 0 };

		if (!st.ticks && !p->watched[cpu])
			continue;
		if (c->n[IO_OFF]) {
			session__fmt_time(s, c->at[IO_OFF], ts, sizeof(ts));
			at = (struct rt_val){ .s = ts,
					      .num = true,
					      .i = (s64)session__wall_ns(s, c->at[IO_OFF]) };
		}
		rtable__row(k, (struct rt_val[]){
				       { .u = (u64)cpu },
				       { .u = st.ticks },
				       { .u = c->n[IO_OFF] },
				       ns_val(c->longest[IO_OFF], !c->n[IO_OFF], a, sizeof(a)),
				       at,
				       { .u = c->n[IO_STALL] },
				       ns_val(c->longest[IO_STALL], !c->n[IO_STALL], b, sizeof(b)),
				       { .u = st.idle_gaps },
			       });
		for (int i = 0; i < 2; i++) {
			all.n[i] += c->n[i];
			if (c->longest[i] > all.longest[i])
				all.longest[i] = c->longest[i];
		}
		all.idle += st.idle_gaps;
	}
	rtable__end(k);
	snprintf(total, sizeof(total),
		 "total: %llu irq-off periods of %s or more, the longest %s; %llu stalls (in user "
		 "mode: the CPU did not run); %llu gaps of idle CPUs not counted",
		 (unsigned long long)all.n[IO_OFF], units__fmt_ns(p->than, a, sizeof(a)),
		 all.n[IO_OFF] ? units__fmt_ns(all.longest[IO_OFF], b, sizeof(b)) : "-",
		 (unsigned long long)all.n[IO_STALL], (unsigned long long)all.idle);
	rtable__one(k, &sum_desc,
		    (struct rt_val[]){ { .s = total },
				       { .u = p->than },
				       { .u = p->period },
				       { .u = p->samples },
				       { .u = all.n[IO_OFF] },
				       { .u = all.longest[IO_OFF] },
				       { .u = all.n[IO_STALL] },
				       { .u = all.longest[IO_STALL] },
				       { .u = all.idle } });
	if (!json)
		session__print_lost(s, out);
}

static void io_deinit(struct session *s, void *priv)
{
	struct irq_off *p = priv;

	if (session__started(s) && p->gw)
		io_report(s, p, session__out(s));
	gapwatch__delete(p->gw);
	ksyms__delete(p->ks);
	free(p->cpus);
	free(p->watched);
}

static const struct popt io_opts[] = {
	{ .lname = "than",
	  .argname = "TIME",
	  .help = "report interrupts held off this long or longer (default 20ms; a bare number "
		  "is in us)",
	  POPT_BIND_TIME(struct irq_off, than, "us") },
	{ .lname = "latency",
	  .sname = 'L',
	  .argname = "LAT",
	  .help = "the same as --than (the original's spelling)",
	  POPT_BIND_TIME(struct irq_off, than, "us") },
	{ .lname = "freq",
	  .sname = 'F',
	  .argname = "HZ",
	  .help = "timer samples per second per CPU (default 1000)",
	  POPT_BIND_UINT(struct irq_off, freq),
	  POPT_RANGE(1, 0) },
	{ .lname = "period",
	  .argname = "T",
	  .help = "time between timer samples (default 1ms; a bare number is in us)",
	  POPT_BIND_TIME(struct irq_off, period, "us") },
	{ .lname = "precise",
	  .help = "accepted for the original's command line: a software timer has no skid",
	  POPT_BIND_FLAG(struct irq_off, precise) },
	{ 0 },
};

const struct profiler prof_irq_off = {
	.name = "irq-off",
	.needs = (const char *const[]){ "cpu-wide", NULL },
	.desc = "interrupts held off longer than TIME: gaps in a timer's samples, with the stack",
	.synopsis = "perf-prof irq-off [--than TIME|-L US] [-F HZ|--period T] [-g] [-C CPUS] "
		    "[-- command]",
	.examples = "perf-prof irq-off -g                     # held off 20ms or more, any CPU\n"
		    "  perf-prof irq-off --than 5ms -F 4000 -C 1 -g\n"
		    "A line: where the gap ended (task, CPU), how long interrupts were held off at "
		    "least,\nthe time without a timer sample, and the stack (-g) or the ip.  Gaps "
		    "of idle CPUs are not reported.",
	.groups = (const struct opt_group *const[]){ &target_group, &ring_group, &run_group,
						     &output_group, &stack_group, &exclude_group,
						     NULL },
	.own = io_opts,
	.priv_size = sizeof(struct irq_off),
	.init = io_init,
	.ops = { .sample = io_sample },
	.deinit = io_deinit,
};
