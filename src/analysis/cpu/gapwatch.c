// SPDX-License-Identifier: GPL-2.0
/* Per-CPU clocks, their gaps and overdue episodes, and a ring of samples per CPU. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cpu/gapwatch.h"
#include "engine/session.h"

#define SLOT_BYTES 512 /* a kept sample's first buffer: 60 frames */

struct gw_clock {
	u64 last;	 /* last tick, 0: none (or forgotten) */
	u64 base;	 /* first overdue question while it never ticked */
	u64 warned_base; /* the "since" of the episode reported, 0: none */
	bool last_idle;	 /* the last tick was in the idle task */
	struct gw_stats st;
};

struct gw_cpu {
	bool idle;     /* in the idle task, as last seen */
	u64 idle_last; /* the last switch to or from the idle task */
	struct gw_clock clk[GW_MAX_CLOCKS];
	struct sample_copy *ring; /* keep slots */
	unsigned head, n;	  /* next slot, slots filled */
};

struct gapwatch {
	unsigned nr_clocks, keep;
	struct gw_cpu *cpus;
	int nr_cpus;
};

struct gapwatch *gapwatch__new(unsigned nr_clocks, unsigned keep)
{
	struct gapwatch *g;

	if (!nr_clocks || nr_clocks > GW_MAX_CLOCKS) {
		errno = EINVAL;
		return NULL;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->nr_clocks = nr_clocks;
	g->keep = keep;
	return g;
}

void gapwatch__delete(struct gapwatch *g)
{
	if (!g)
		return;
	for (int c = 0; c < g->nr_cpus; c++) {
		struct gw_cpu *cs = &g->cpus[c];

		for (unsigned i = 0; cs->ring && i < g->keep; i++)
			sample_copy__free(&cs->ring[i]);
		free(cs->ring);
	}
	free(g->cpus);
	free(g);
}

/* The CPU's state, grown on first sight; NULL for a CPU out of range or out of memory. */
static struct gw_cpu *cpu_of(struct gapwatch *g, int cpu)
{
	if (cpu < 0 || cpu >= GW_MAX_CPUS)
		return NULL;
	if (cpu >= g->nr_cpus) {
		struct gw_cpu *n = realloc(g->cpus, (cpu + 1) * sizeof(*n));

		if (!n)
			return NULL;
		memset(n + g->nr_cpus, 0, (cpu + 1 - g->nr_cpus) * sizeof(*n));
		g->cpus = n;
		g->nr_cpus = cpu + 1;
	}
	return &g->cpus[cpu];
}

void gapwatch__idle(struct gapwatch *g, int cpu, u64 time, bool idle)
{
	struct gw_cpu *c = cpu_of(g, cpu);

	if (!c)
		return;
	c->idle = idle;
	if (time > c->idle_last)
		c->idle_last = time;
}

/* When clock @ck's age runs from: its last tick or the CPU's last idle moment; 0: unknown. */
static u64 since_of(const struct gw_cpu *c, const struct gw_clock *ck)
{
	u64 since = ck->last > c->idle_last ? ck->last : c->idle_last;

	return since ? since : ck->base;
}

/* An episode was reported and nothing (a tick, an idle moment) ended it since. */
static bool episode_open(const struct gw_cpu *c, const struct gw_clock *ck)
{
	return ck->warned_base && ck->warned_base == since_of(c, ck) && !c->idle;
}

enum gw_tick gapwatch__tick(struct gapwatch *g, unsigned k, int cpu, u64 time, u32 pid, u64 limit,
			    struct gw_tick_info *info)
{
	struct gw_tick_info dummy;
	struct gw_cpu *c = cpu_of(g, cpu);
	struct gw_clock *ck;
	bool idle;
	u64 gap;

	if (!info)
		info = &dummy;
	memset(info, 0, sizeof(*info));
	if (!c || k >= g->nr_clocks)
		return GW_FIRST;
	ck = &c->clk[k];
	ck->st.ticks++;
	info->overdue = episode_open(c, ck);
	ck->warned_base = 0;
	if (!ck->last) {
		ck->last = time;
		ck->last_idle = pid == 0;
		if (pid == 0 && time > c->idle_last)
			c->idle_last = time;
		return GW_FIRST;
	}
	info->prev = ck->last;
	if (time <= ck->last)
		return GW_NORMAL; /* not after it (a record out of order): no gap */
	gap = info->gap = time - ck->last;
	idle = ck->last_idle || pid == 0 || c->idle || c->idle_last > ck->last;
	ck->last = time;
	ck->last_idle = pid == 0;
	if (pid == 0 && time > c->idle_last)
		c->idle_last = time; /* a moment the CPU was seen idle */
	if (idle && limit && gap >= limit) {
		ck->st.idle_gaps++;
		return GW_IDLE;
	}
	if (!idle && gap > ck->st.worst)
		ck->st.worst = gap;
	if (!limit || gap < limit)
		return GW_NORMAL;
	ck->st.gaps++;
	if (gap > ck->st.longest) {
		ck->st.longest = gap;
		ck->st.longest_at = time;
	}
	return GW_GAP;
}

bool gapwatch__overdue(struct gapwatch *g, unsigned k, int cpu, u64 now, u64 limit, u64 *age,
		       u64 *since)
{
	struct gw_cpu *c = cpu_of(g, cpu);
	struct gw_clock *ck;
	u64 from, a;

	if (age)
		*age = 0;
	if (since)
		*since = 0;
	if (!c || k >= g->nr_clocks)
		return false;
	ck = &c->clk[k];
	if (!ck->last && !ck->base)
		ck->base = now;
	from = since_of(c, ck);
	if (since)
		*since = from;
	if (c->idle)
		return false;
	a = now > from ? now - from : 0;
	if (age)
		*age = a;
	if (a > ck->st.worst)
		ck->st.worst = a;
	if (!limit || a < limit || episode_open(c, ck))
		return false;
	ck->warned_base = from;
	ck->st.episodes++;
	return true;
}

void gapwatch__forget(struct gapwatch *g, int cpu)
{
	for (int i = cpu < 0 ? 0 : cpu; i < g->nr_cpus && (cpu < 0 || i == cpu); i++)
		for (unsigned k = 0; k < g->nr_clocks; k++) {
			struct gw_clock *ck = &g->cpus[i].clk[k];

			ck->last = ck->base = ck->warned_base = 0;
			ck->last_idle = false;
		}
}

int gapwatch__keep(struct gapwatch *g, const struct sample *smp)
{
	struct gw_cpu *c;
	int err;

	if (!g->keep)
		return 0;
	c = cpu_of(g, (int)smp->cpu);
	if (!c)
		return -ENOMEM;
	if (!c->ring) {
		c->ring = calloc(g->keep, sizeof(*c->ring));
		if (!c->ring)
			return -ENOMEM;
		/*
		 * Each slot gets its buffer now (room for a kernel stack):
		 * sample_copy__save would offset a NULL one for a sample
		 * with nothing to copy (no stack), which UBSan refuses.
		 */
		for (unsigned i = 0; i < g->keep; i++) {
			c->ring[i].buf = malloc(SLOT_BYTES);
			if (!c->ring[i].buf)
				return -ENOMEM;
			c->ring[i].cap = SLOT_BYTES;
		}
	}
	err = sample_copy__save(&c->ring[c->head], smp, false);
	if (err) {
		/* the slot is invalid now: the ring shrinks by it */
		if (c->n == g->keep)
			c->n--;
		return err;
	}
	c->head = (c->head + 1) % g->keep;
	if (c->n < g->keep)
		c->n++;
	return 0;
}

unsigned gapwatch__kept(struct gapwatch *g, int cpu, u64 since,
			void (*fn)(void *arg, const struct sample *smp), void *arg)
{
	struct gw_cpu *c = cpu >= 0 && cpu < g->nr_cpus ? &g->cpus[cpu] : NULL;
	unsigned shown = 0;

	if (!c || !c->ring)
		return 0;
	for (unsigned i = 0; i < c->n; i++) {
		struct sample_copy *sc = &c->ring[(c->head + g->keep - c->n + i) % g->keep];

		if (!sc->valid || sc->smp.time < since)
			continue;
		fn(arg, &sc->smp);
		shown++;
	}
	return shown;
}

struct gw_stats gapwatch__stats(const struct gapwatch *g, unsigned k, int cpu)
{
	struct gw_stats none = { 0 };

	if (cpu < 0 || cpu >= g->nr_cpus || k >= g->nr_clocks)
		return none;
	return g->cpus[cpu].clk[k].st;
}

int gapwatch__nr_cpus(const struct gapwatch *g)
{
	return g->nr_cpus;
}

static void on_lost(struct session *s, void *priv, int cpu, u64 nr)
{
	(void)s, (void)nr;
	gapwatch__forget(priv, cpu);
}

static void on_switch(struct session *s, void *priv, const struct rec_switch *sw)
{
	(void)s;
	if (sw->pid == 0 || sw->other_pid == 0)
		/* out to idle or idle in: idle; idle out or in from idle: busy */
		gapwatch__idle(priv, (int)sw->cpu, sw->time, (sw->pid == 0) != sw->out);
}

static const struct session_ops gapwatch_ops = { .lost = on_lost, .context_switch = on_switch };

int gapwatch__add_hooks(struct gapwatch *g, struct session *s)
{
	return session__add_ops(s, &gapwatch_ops, g);
}
