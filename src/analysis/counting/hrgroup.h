/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A high-resolution timer group (hrcount, hrtimer): per CPU (or per thread
 * with -p/-t/-- and no -C), a cpu-clock event sampling every PERIOD ns
 * leads a group of counting members (events named as for stat, or
 * tracepoints with a filter, an alias and cpus=LIST: such a member is
 * only in the group on those CPUs, and its counts come from them only).  Each leader sample carries the
 * cumulative values of the whole group (PERF_SAMPLE_READ, PERF_FORMAT_GROUP
 * | ID, the leader first, then the members the kernel opened in the order
 * they were added); the difference with the previous sample of the same
 * group is what each member counted in that period.  Per thread the engine
 * opens a group for each thread on each CPU (inherited by new threads: the
 * values are the thread's own): the differences are taken per thread and
 * CPU, and reported per thread.
 *
 * Gaps: the timer only delivers a sample where the CPU runs something (on
 * some virtual machines an idle CPU gets none; a thread's clock only runs while it is on
 * a CPU).  The leader's own value is its clock (ns): the number of periods
 * a sample closes is floor(clock / PERIOD) minus that of the previous
 * sample, so after a gap one sample covers k periods.  Its counts are then
 * the total of those k periods: they are reported as such (k periods, the
 * total), never spread or guessed.  hrg_stat (below) keeps the sums exact
 * and marks a maximum that came from a gap: an upper bound of the one-
 * period maximum inside it.
 */
#ifndef PP_HRGROUP_H
#define PP_HRGROUP_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/evspec.h"
#include "engine/session.h"
#include "util/opt.h"

struct exclude_opts;
struct expr;

/* The kernel's hrtimer events fire at most every 10us. */
#define HRG_MIN_PERIOD 10000ULL
#define HRG_MAX_PERIOD 60000000000ULL

struct hrg_member {
	struct evsel *ev;
	char name[128]; /* as shown: the alias, or the event as written */
	char var[64];	/* its name in expressions */
	double scale;	/* cpu-clock/task-clock: ns shown as msec */
	char unit[16];
	bool skipped; /* a glob's match the kernel refused: never counted (ev NULL) */
};

struct hrg_inst;
struct hrg_period;

struct hrgroup {
	struct session *s;
	u64 period; /* ns */
	bool per_thread;
	struct evsel *leader;
	struct hrg_member *m;
	int nr;
	struct ev_spec **specs; /* tracepoint items with a filter or alias (ev->spec) */
	int nr_specs;
	struct hrg_inst *insts; /* by CPU or thread */
	u64 *count;		/* the counts of the last period (nr) */
	int *slot;		/* each member's place in the group read (-1: not open) */
	bool slots_known;
	u64 nr_read;	/* values in a read: the leader and the members open (resolved) */
	u64 *retired;	/* per member: the last values of threads that ended */
	bool some_cpus; /* a member has cpus=LIST: the read's layout depends on the CPU */
	int *cpu_slot;	/* the layout of the sample being read (some_cpus) */
	bool *on;	/* per member: in the last sample's read (cpus=LIST) */
	u64 nr_samples, nr_gaps, nr_bad;
	/* hrgroup__report_to: where the leader's periods go */
	void (*period_fn)(struct session *s, void *priv, const struct hrg_period *p,
			  const struct sample *smp);
	void *period_priv;
};

/* What one leader sample tells. */
struct hrg_period {
	int key;	  /* the CPU, or the thread (per_thread) */
	u64 time;	  /* the sample's: when the last of the periods ended */
	u64 periods;	  /* the periods the counts cover: 1, or k after a gap */
	const u64 *count; /* per member (g->nr): its count in those periods */
	const bool *on;	  /* per member: counted there (false: cpus= left it out, count 0) */
};

/*
 * The period from --period @period (ns) or -F @freq (one of them, 0 for
 * the other; neither: @dflt ns): *@out, 0; or a usage error set on @s.
 */
int hrgroup__period(struct session *s, u64 period, u64 freq, u64 dflt, u64 *out);

/*
 * Add the leader (cpu-clock every @period ns, with a stack when -g asks)
 * and the members of the -e lists @texts to @s.  A list: events as stat
 * takes them (cpu-clock, cs, sys:name, PMU/TERMS/, {groups} flattened)
 * and tracepoints with a filter or an alias as trace takes them
 * (sys:name/FILTER/alias=NAME/, globs too).  0, or -errno with the
 * session's error set (a usage error for a bad list).
 */
int hrgroup__add(struct hrgroup *g, struct session *s, u64 period, const char *const *texts,
		 int nr_texts);

/*
 * A sample of @ev: when it is the leader's, the counts of the periods it
 * closes into *@out (valid until the next call) and 0; -ENOENT for another
 * event's, -EINVAL for a read not laid out as the group (counted in
 * nr_bad).
 */
int hrgroup__sample(struct hrgroup *g, const struct evsel *ev, const struct sample *smp,
		    struct hrg_period *out);

/*
 * The module's own hooks, after hrgroup__add (in the profiler's init): the
 * leader's samples go to @fn(@priv) as the periods they close (the leader's
 * handler, through hrgroup__sample; an ill-laid read is counted, not
 * given), and per thread a task's exit forgets its values
 * (hrgroup__forget), in a hook set registered with @s.  The profiler needs
 * no sample or exit hook for the group.  0, or -ENOMEM with the session's
 * error set.
 */
int hrgroup__report_to(struct hrgroup *g, struct session *s,
		       void (*fn)(struct session *s, void *priv, const struct hrg_period *p,
				  const struct sample *smp),
		       void *priv);

/*
 * A thread ended (per_thread): forget its previous values on every CPU.
 * Its samples come before its exit: per thread, the group asks the
 * session for time order.
 */
void hrgroup__forget(struct hrgroup *g, int key);

/*
 * After session__open: the members the kernel refused (a glob's matches,
 * freed by the engine) are marked skipped, their ev NULL, their count 0.
 * Idempotent; the sample, tail and free calls do it themselves.
 */
void hrgroup__resolve(struct hrgroup *g);

/*
 * At the end: what each member counted after the last sample of each CPU
 * (or thread): a CPU idle to the end, a thread's last partial period.  No
 * period holds these counts; the members' counters, read now, minus what
 * the samples saw, give them.  @tail: g->nr values.  0, or -EIO when a
 * counter could not be read (its tail is then what the others gave).
 */
int hrgroup__tail(struct hrgroup *g, u64 *tail);

/*
 * An expression over the counts of a period: each member by its var name
 * (the alias; a tracepoint's name without its system; another event's
 * name with what is not a letter, digit or '_' made '_': context_switches),
 * and _periods, the periods covered.  NULL with one line in @err (and the
 * expression with a caret under the culprit) on error.
 */
struct expr *hrgroup__compile(struct hrgroup *g, const char *text, char *err, size_t errlen);
/* Whether @e is true for @p (the leader's sample @smp gives _cpu, _tid...). */
bool hrgroup__match(struct hrgroup *g, struct expr *e, const struct hrg_period *p,
		    const struct sample *smp);

void hrgroup__free(struct hrgroup *g);

/*
 * Per-period statistics of one member (hrcount): every sample adds its
 * count over its periods.  The average (total / periods) is exact; the
 * minimum is over samples of one period (and gaps that counted nothing:
 * then every period in them was 0); the maximum is the largest count of a
 * sample, with when and where, and max_periods > 1 when it came from a
 * gap (a bound: one of its periods counted at most that much).  A one-
 * period sample wins a tie.
 */
struct hrg_stat {
	u64 samples, periods, total;
	u64 min, max;
	bool has_min;
	u64 max_periods; /* 0: no sample yet */
	u64 max_time;
	int max_key;
};

void hrg_stat__add(struct hrg_stat *st, u64 count, u64 periods, u64 time, int key);
void hrg_stat__merge(struct hrg_stat *into, const struct hrg_stat *from);

/*
 * The options of a profiler over one group (hrcount, hrtimer): the -e
 * lists, --period and -F.  Its struct holds a struct hrg_opts as its first
 * member; its table lists HRG_POPTS with its own help texts.
 */
#define HRG_MAX_TEXTS 16

struct hrg_opts {
	const char *texts[HRG_MAX_TEXTS];
	int nr_texts;
	unsigned long long period, freq; /* ns, Hz; after hrgroup__setup, period is the one used */
};

/* -e: one more list (@data: the struct hrg_opts). */
int hrg_opts__add_e(void *data, const char *arg, char *err, size_t errlen);

/* -e, --period and -F, bound to the struct hrg_opts @m at the start of @T. */
#define HRG_POPTS(T, m, e_help, period_help, freq_help)                                 \
	{ .lname = "event",                                                             \
	  .sname = 'e',                                                                 \
	  .argname = "EVENT,...",                                                       \
	  .help = (e_help),                                                             \
	  .type = POPT_CB,                                                              \
	  .cb = __builtin_choose_expr(offsetof(T, m) == 0, hrg_opts__add_e, (void)0) }, \
		{ .lname = "period",                                                    \
		  .argname = "TIME",                                                    \
		  .help = (period_help),                                                \
		  POPT_BIND_TIME(T, m.period, "ms") },                                  \
	{                                                                               \
		.lname = "freq", .sname = 'F', .argname = "HZ", .help = (freq_help),    \
		POPT_BIND_UINT(T, m.freq), POPT_RANGE(1, 0)                             \
	}

/*
 * The group of @o on @s: the period (hrgroup__period, @dflt ns when
 * neither --period nor -F) into o->period, the leader and the members
 * (hrgroup__add), the members counting in the modes @ex keeps (the timer
 * samples every period regardless).  0, or -errno with the session's
 * error set (a usage error for an --exclude-* that leaves nothing).
 */
int hrgroup__setup(struct hrgroup *g, struct session *s, struct hrg_opts *o,
		   const struct exclude_opts *ex, u64 dflt);

#endif
