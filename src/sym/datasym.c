// SPDX-License-Identifier: GPL-2.0
/* Data symbols: the variable a data address lies in (datasym.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/procfs.h"
#include "sym/datasym.h"
#include "sym/dso.h"
#include "sym/ksyms.h"

struct dmap {
	u64 start, end, pgoff;
	struct dso *dso; /* NULL: anonymous memory */
};

struct dproc {
	u32 pid;
	bool used;
	time_t read_at; /* (0: never read) */
	u64 last_use;
	struct dmap *maps;
	int nr;
};

struct datasyms {
	struct dso_cache *dc;
	struct dproc procs[DATASYM_PROCS];
	u64 uses;
};

struct datasyms *datasyms__new(struct dso_cache *dc)
{
	struct datasyms *ds = calloc(1, sizeof(*ds));

	if (ds)
		ds->dc = dc;
	return ds;
}

static void forget(struct dproc *p)
{
	for (int i = 0; i < p->nr; i++)
		dso__put(p->maps[i].dso);
	free(p->maps);
	p->maps = NULL;
	p->nr = 0;
}

void datasyms__delete(struct datasyms *ds)
{
	if (!ds)
		return;
	for (int i = 0; i < DATASYM_PROCS; i++)
		forget(&ds->procs[i]);
	free(ds);
}

/* Every mapping of @p from /proc/PID/maps (in address order, as the kernel lists them). */
static void read_maps(struct datasyms *ds, struct dproc *p)
{
	char path[64], line[PATH_MAX + 256];
	int cap = 0;
	FILE *fp;

	forget(p);
	p->read_at = time(NULL);
	snprintf(path, sizeof(path), "/proc/%u/maps", p->pid);
	fp = fopen(path, "re");
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		struct maps_line l;
		struct dmap *m;

		if (procfs__maps_line(line, &l))
			continue;
		if (p->nr == cap) {
			int ncap = cap ? cap * 2 : 32;
			struct dmap *n = realloc(p->maps, (size_t)ncap * sizeof(*n));

			if (!n)
				break;
			p->maps = n;
			cap = ncap;
		}
		m = &p->maps[p->nr];
		*m = (struct dmap){ .start = l.start, .end = l.end, .pgoff = l.pgoff };
		/* a file ("/..."), not "[heap]", "[stack]" or anonymous memory */
		if (l.path[0] == '/')
			m->dso = dso_cache__get(ds->dc, l.path, l.maj, l.min, l.ino, NULL, 0);
		p->nr++;
	}
	fclose(fp);
}

static struct dproc *proc_of(struct datasyms *ds, u32 pid)
{
	struct dproc *lru = &ds->procs[0];

	for (int i = 0; i < DATASYM_PROCS; i++) {
		struct dproc *p = &ds->procs[i];

		if (p->used && p->pid == pid)
			return p;
		if (!p->used || (lru->used && p->last_use < lru->last_use))
			lru = p;
	}
	forget(lru);
	*lru = (struct dproc){ .pid = pid, .used = true };
	return lru;
}

/* The mapping of @addr whose file names it: its own, or the file's before anonymous .bss. */
static const struct dmap *find(const struct dproc *p, u64 addr)
{
	for (int i = 0; i < p->nr; i++) {
		const struct dmap *m = &p->maps[i];

		if (addr < m->start || addr >= m->end)
			continue;
		if (m->dso)
			return m;
		if (i > 0 && p->maps[i - 1].dso && p->maps[i - 1].end == m->start)
			return &p->maps[i - 1];
		return NULL;
	}
	return NULL;
}

static bool in_any(const struct dproc *p, u64 addr)
{
	for (int i = 0; i < p->nr; i++)
		if (addr >= p->maps[i].start && addr < p->maps[i].end)
			return true;
	return false;
}

int datasyms__user(struct datasyms *ds, u32 pid, u64 addr, struct data_sym *out)
{
	struct dproc *p;
	const struct dmap *m;
	struct elfsyms *es;
	const struct sym *s;
	u64 v;

	if (!ds || !pid)
		return -ENOENT;
	p = proc_of(ds, pid);
	p->last_use = ++ds->uses;
	/* a mapping made since the last read: read again, at most once a second */
	if (!p->read_at || (!in_any(p, addr) && time(NULL) != p->read_at))
		read_maps(ds, p);
	m = find(p, addr);
	if (!m)
		return -ENOENT;
	es = dso__syms(ds->dc, m->dso, pid, m->start, m->end);
	if (!es)
		return -ENOENT;
	/* (past the mapping, in the .bss after it: the segment's memory size places it) */
	v = elfsyms__file_to_vaddr(es, addr - m->start + m->pgoff);
	s = elfsyms__find_data(es, v);
	if (!s)
		return -ENOENT;
	*out = (struct data_sym){ .sym = s->name, .off = v - s->start, .dso = dso__name(m->dso) };
	return 0;
}

int datasyms__kernel(struct ksyms *ks, u64 addr, struct data_sym *out)
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
