// SPDX-License-Identifier: GPL-2.0
/* Data symbols: the variable a data address lies in (datasym.h). */
#include <errno.h>

#include "sym/datasym.h"
#include "sym/dso.h"
#include "sym/ksyms.h"
#include "sym/maps.h"

struct look {
	struct dso_cache *dc;
	u64 addr;
	const struct dso *last; /* the file tried last: its mappings come together */
	struct data_sym *out;
};

static int try_map(void *arg, const struct map *mp, u32 open_pid)
{
	struct look *l = arg;
	struct elfsyms *es;
	const struct sym *s;
	u64 bias, v;

	if (!mp->dso || mp->dso == l->last || !dso__is_file(mp->dso))
		return 0;
	l->last = mp->dso;
	es = dso__syms(l->dc, mp->dso, open_pid, mp->start, mp->end);
	if (!es)
		return 0;
	bias = elfsyms__map_bias(es, mp->start, mp->pgoff, true); /* (the code mappings) */
	v = l->addr - bias;
	s = elfsyms__find_data(es, v);
	if (!s || v < s->start || v >= s->end)
		return 0;
	*l->out =
		(struct data_sym){ .sym = s->name, .off = v - s->start, .dso = dso__name(mp->dso) };
	return 1;
}

int datasym__user(struct maps *m, struct dso_cache *dc, u32 pid, u64 addr, struct data_sym *out)
{
	struct look l = { .dc = dc, .addr = addr, .out = out };

	if (!m || !pid)
		return -ENOENT;
	return maps__each(m, pid, try_map, &l) > 0 ? 0 : -ENOENT;
}

int datasym__kernel(struct ksyms *ks, u64 addr, struct data_sym *out)
{
	const char *dso;
	const struct sym *s = ksyms__find_data(ks, addr, &dso);

	if (!s)
		return -ENOENT;
	*out = (struct data_sym){
		.sym = s->name, .off = addr - s->start, .dso = dso, .kernel = true
	};
	return 0;
}
