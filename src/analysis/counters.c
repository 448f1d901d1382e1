// SPDX-License-Identifier: GPL-2.0
/* A set of counters read per interval: see counters.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/counters.h"
#include "engine/tp.h"

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static bool tp_exists(const char *sys, const char *name)
{
	char **list;
	int n = tp__expand(sys, name, &list);

	if (n > 0)
		tp__free_list(list);
	return n != 0; /* an error reading tracefs is said by the session */
}

int ctr_set__add(struct ctr_set *cs, struct session *s, const struct evname *evs, int nr)
{
	int base = cs->nr;
	struct ctr *c = realloc(cs->c, (cs->nr + nr) * sizeof(*c));

	if (!c)
		return session__set_err(s, -ENOMEM, "out of memory");
	cs->c = c;
	cs->s = s;
	if (!cs->t_first)
		cs->t_first = cs->t_last = cs->t_now = now_ns();
	for (int i = 0; i < nr; i++) {
		const struct evname *e = &evs[i];
		struct ctr *k = &cs->c[cs->nr];
		struct evsel_conf conf = {
			.type = e->attr.type,
			.config = e->attr.config,
			.config1 = e->attr.config1,
			.config2 = e->attr.config2,
			.exclude_user = e->attr.exclude_user,
			.exclude_kernel = e->attr.exclude_kernel,
			.exclude_hv = e->attr.exclude_hv,
			.exclude_guest = e->attr.exclude_guest,
			.exclude_host = e->attr.exclude_host,
			.counting = true,
			.name = e->name,
		};

		if (e->leader >= 0 && e->leader != i)
			conf.leader = cs->c[base + e->leader].ev;
		if (e->sys && !tp_exists(e->sys, e->tp))
			return session__usage_err(
				s, "unknown tracepoint '%s:%s' (see: perf-prof list '%s:*')",
				e->sys, e->tp, e->sys);
		memset(k, 0, sizeof(*k));
		k->ev = e->sys ? session__add_tp(s, e->sys, e->tp, &conf)
			       : session__add_event(s, &conf);
		if (!k->ev)
			return -EINVAL;
		k->scale = e->scale > 0 ? e->scale : 1.0;
		snprintf(k->unit, sizeof(k->unit), "%s", e->unit);
		snprintf(k->name, sizeof(k->name), "%s", e->name);
		cs->nr++;
	}
	return 0;
}

static int inst_index(struct ctr_set *cs, int key)
{
	int *n;

	for (int i = 0; i < cs->nr_inst; i++)
		if (cs->inst[i] == key)
			return i;
	n = realloc(cs->inst, (cs->nr_inst + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	cs->inst = n;
	cs->inst[cs->nr_inst] = key;
	return cs->nr_inst++;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int setup(struct ctr_set *cs)
{
	cs->per_thread = false;
	for (int k = 0; k < cs->nr; k++)
		for (int j = 0; j < cs->c[k].ev->nr_cnt; j++)
			cs->per_thread |= cs->c[k].ev->cnt[j].tid >= 0;
	for (int k = 0; k < cs->nr; k++)
		for (int j = 0; j < cs->c[k].ev->nr_cnt; j++) {
			const struct counter_fd *f = &cs->c[k].ev->cnt[j];

			if (inst_index(cs, cs->per_thread ? f->tid : f->cpu) < 0)
				return -ENOMEM;
		}
	qsort(cs->inst, cs->nr_inst, sizeof(*cs->inst), cmp_int);
	cs->inst_of_fd = calloc(cs->nr ? cs->nr : 1, sizeof(*cs->inst_of_fd));
	if (!cs->inst_of_fd)
		return -ENOMEM;
	for (int k = 0; k < cs->nr; k++) {
		struct ctr *c = &cs->c[k];
		int n = cs->nr_inst ? cs->nr_inst : 1;

		cs->inst_of_fd[k] = calloc(c->ev->nr_cnt ? c->ev->nr_cnt : 1, sizeof(int));
		c->now = calloc(n, sizeof(*c->now));
		c->last = calloc(n, sizeof(*c->last));
		c->first = calloc(n, sizeof(*c->first));
		if (!cs->inst_of_fd[k] || !c->now || !c->last || !c->first)
			return -ENOMEM;
		for (int j = 0; j < c->ev->nr_cnt; j++) {
			const struct counter_fd *f = &c->ev->cnt[j];

			cs->inst_of_fd[k][j] = inst_index(cs, cs->per_thread ? f->tid : f->cpu);
		}
	}
	return 0; /* counters start at 0 when enabled: first and last are 0 */
}

void ctr_set__read(struct ctr_set *cs)
{
	if (!cs->inst_of_fd && setup(cs))
		return; /* out of memory: nothing read, values stay 0 */
	for (int k = 0; k < cs->nr; k++) {
		struct ctr *c = &cs->c[k];

		if (!c->now)
			continue;
		memset(c->now, 0, cs->nr_inst * sizeof(*c->now));
		memset(&c->sum_now, 0, sizeof(c->sum_now));
		for (int j = 0; j < c->ev->nr_cnt; j++) {
			struct counter_val v;

			if (session__read_counter(cs->s, c->ev, j, &v))
				continue;
			counter__add(&c->now[cs->inst_of_fd[k][j]], &v);
			counter__add(&c->sum_now, &v);
		}
	}
	cs->t_now = now_ns();
}

double ctr_set__value(const struct ctr_set *cs, int k, int i, bool since_start, double *share)
{
	const struct ctr *c = &cs->c[k];
	const struct counter_val *now = i < 0 ? &c->sum_now : &c->now[i];
	const struct counter_val *base = i < 0 ? (since_start ? &c->sum_first : &c->sum_last)
					       : (since_start ? &c->first[i] : &c->last[i]);
	struct counter_val d;

	if (!c->now) {
		if (share)
			*share = 0;
		return 0;
	}
	d = counter__delta(now, base);
	return counter__scaled(&d, share) * c->scale;
}

void ctr_set__advance(struct ctr_set *cs)
{
	for (int k = 0; k < cs->nr; k++) {
		struct ctr *c = &cs->c[k];

		if (c->now)
			memcpy(c->last, c->now, cs->nr_inst * sizeof(*c->now));
		c->sum_last = c->sum_now;
	}
	cs->t_last = cs->t_now;
}

const char *ctr__fmt(double v, bool fraction, char *buf, size_t len)
{
	char digits[64], out[96];
	unsigned long long ip;
	int n, o = 0, frac;

	if (v < 0)
		v = 0;
	if (fraction) {
		ip = (unsigned long long)v;
		frac = (int)llround((v - (double)ip) * 100.0);
		if (frac >= 100) {
			ip++;
			frac -= 100;
		}
	} else {
		ip = (unsigned long long)llround(v);
		frac = 0;
	}
	n = snprintf(digits, sizeof(digits), "%llu", ip);
	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = 0;
	if (fraction)
		snprintf(buf, len, "%s.%02d", out, frac);
	else
		snprintf(buf, len, "%s", out);
	return buf;
}

static void inst_name(const struct ctr_set *cs, int i, char *who, size_t len)
{
	if (cs->per_thread)
		snprintf(who, len, "%s:%d", session__comm(cs->s, (u32)cs->inst[i]), cs->inst[i]);
	else
		snprintf(who, len, "CPU%d", cs->inst[i]);
}

static void print_line(const struct ctr_set *cs, FILE *fp, int k, int i, bool since_start,
		       const char *who)
{
	const struct ctr *c = &cs->c[k];
	double share, v = ctr_set__value(cs, k, i, since_start, &share);
	char num[64];

	if (who)
		fprintf(fp, "%-16s ", who);
	if (share <= 0.0) {
		fprintf(fp, "%20s %-5s %s\n", "<not counted>", c->unit, c->name);
		return;
	}
	fprintf(fp, "%20s %-5s %s", ctr__fmt(v, c->unit[0] != 0, num, sizeof(num)), c->unit,
		c->name);
	if (share < 0.9999)
		fprintf(fp, "  (%.2f%%)", share * 100.0);
	fputc('\n', fp);
}

void ctr_set__print(const struct ctr_set *cs, FILE *fp, bool perins, bool since_start)
{
	char who[64];

	for (int k = 0; k < cs->nr; k++) {
		if (!perins) {
			print_line(cs, fp, k, -1, since_start, NULL);
			continue;
		}
		for (int i = 0; i < cs->nr_inst; i++) {
			inst_name(cs, i, who, sizeof(who));
			print_line(cs, fp, k, i, since_start, who);
		}
	}
}

void ctr_set__print_ratio(const struct ctr_set *cs, FILE *fp, int kn, int kd, const char *label,
			  bool perins, bool since_start)
{
	char who[64];

	for (int i = perins ? 0 : -1; i < (perins ? cs->nr_inst : 0); i++) {
		double sn, sd, n = ctr_set__value(cs, kn, i, since_start, &sn);
		double d = ctr_set__value(cs, kd, i, since_start, &sd);

		if (i >= 0) {
			inst_name(cs, i, who, sizeof(who));
			fprintf(fp, "%-16s ", who);
		}
		if (d > 0 && sn > 0 && sd > 0)
			fprintf(fp, "%20.2f %-5s %s (%s / %s)\n", n / d, "", label, cs->c[kn].name,
				cs->c[kd].name);
		else
			fprintf(fp, "%20s %-5s %s (%s / %s)\n", "-", "", label, cs->c[kn].name,
				cs->c[kd].name);
	}
}

void ctr_set__free(struct ctr_set *cs)
{
	for (int k = 0; k < cs->nr; k++) {
		free(cs->c[k].now);
		free(cs->c[k].last);
		free(cs->c[k].first);
		if (cs->inst_of_fd)
			free(cs->inst_of_fd[k]);
	}
	free(cs->inst_of_fd);
	free(cs->inst);
	free(cs->c);
	memset(cs, 0, sizeof(*cs));
}
