// SPDX-License-Identifier: GPL-2.0
/* Per-process maps following MMAP2/COMM/FORK/EXIT, and JIT maps. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <uthash.h>

#include "engine/procfs.h"
#include "sym/maps.h"

struct proc {
	UT_hash_handle hh;
	u32 pid;
	struct map *maps; /* sorted by start, not overlapping */
	u32 nr, cap;
	bool loaded; /* /proc read, copied from the parent, or given as text */
	bool dead;
	bool execd;		  /* its maps are those of an exec we saw */
	u64 exec_time;		  /* of the last exec seen (0: unknown) */
	u32 image;		  /* maps__image */
	struct proc *prev, *next; /* dead list, oldest first */
	struct symtab *jit;
	const char *jit_name;
	bool jit_tried;
	long long jit_off;  /* read up to here (complete lines) */
	time_t jit_checked; /* a JIT keeps appending: re-check at most once a second */
	time_t refreshed;   /* maps__refresh: /proc read again at most once a second */
};

struct maps {
	struct proc *procs;
	struct dso_cache *dc;
	struct proc *dead_head, *dead_tail;
	u32 nr_dead;
	u32 nr_procs;	 /* live and dead */
	u32 next_sweep;	 /* live processes that make us look for gone ones */
	u64 nr_evicted;	 /* dead processes dropped (the oldest beyond MAPS_MAX_DEAD) */
	u64 nr_vanished; /* processes found gone without an EXIT record */
	u32 next_image;	 /* the last image number handed out */
	struct proc *last;
	bool tracking;	    /* MMAP2 records come: they, not /proc, follow an exec */
	u64 (*now)(void *); /* the records' clock: what /proc's mappings are stamped with */
	void *now_arg;
	/* JIT tables dropped (exec, exit, rewritten file): only their names,
	 * which may still be in use, are kept */
	struct symtab **retired;
	u32 nr_retired, cap_retired;
};

static void retire(struct maps *m, struct symtab *st)
{
	if (!st)
		return;
	symtab__drop_index(st);
	if (m->nr_retired == m->cap_retired) {
		u32 cap = m->cap_retired ? m->cap_retired * 2 : 16;
		struct symtab **n = realloc(m->retired, cap * sizeof(*n));

		if (!n) {
			/* better a leak than a dangling name */
			return;
		}
		m->retired = n;
		m->cap_retired = cap;
	}
	m->retired[m->nr_retired++] = st;
}

struct maps *maps__new(struct dso_cache *dc)
{
	struct maps *m = calloc(1, sizeof(*m));

	if (m) {
		m->dc = dc;
		m->next_sweep = MAPS_SWEEP_MIN;
	}
	return m;
}

static void proc_clear(struct proc *p)
{
	u32 i;

	for (i = 0; i < p->nr; i++)
		dso__put(p->maps[i].dso);
	p->nr = 0;
}

static void proc_free(struct maps *m, struct proc *p)
{
	if (m->last == p)
		m->last = NULL;
	HASH_DEL(m->procs, p);
	proc_clear(p);
	free(p->maps);
	retire(m, p->jit);
	free(p);
	m->nr_procs--;
}

void maps__delete(struct maps *m)
{
	struct proc *p, *t;

	if (!m)
		return;
	HASH_ITER(hh, m->procs, p, t)
	{
		proc_free(m, p);
	}
	while (m->nr_retired)
		symtab__delete(m->retired[--m->nr_retired]);
	free(m->retired);
	free(m);
}

static void dead_unlink(struct maps *m, struct proc *p)
{
	if (p->prev)
		p->prev->next = p->next;
	else
		m->dead_head = p->next;
	if (p->next)
		p->next->prev = p->prev;
	else
		m->dead_tail = p->prev;
	p->prev = p->next = NULL;
}

static void dead_append(struct maps *m, struct proc *p)
{
	p->prev = m->dead_tail;
	p->next = NULL;
	if (m->dead_tail)
		m->dead_tail->next = p;
	else
		m->dead_head = p;
	m->dead_tail = p;
}

/* Insert [start, end), cutting whatever it overlaps: a new mmap replaces the old. */
static int proc_insert(struct proc *p, u64 start, u64 end, u64 pgoff, struct dso *dso, u64 time)
{
	struct map *nm;
	u32 i, n = 0;

	if (end <= start)
		return 0;
	/* at most one old mapping is split in two */
	if (p->nr + 2 > p->cap) {
		u32 cap = p->cap ? p->cap * 2 : 32;

		nm = realloc(p->maps, cap * sizeof(*nm));
		if (!nm)
			return -ENOMEM;
		p->maps = nm;
		p->cap = cap;
	}
	nm = malloc((p->nr + 2) * sizeof(*nm));
	if (!nm)
		return -ENOMEM;
	for (i = 0; i < p->nr; i++) {
		struct map o = p->maps[i];

		if (o.end <= start || o.start >= end) {
			nm[n++] = o;
			continue;
		}
		if (o.start < start) {
			nm[n] = o;
			nm[n++].end = start;
			dso__get(o.dso);
		}
		if (o.end > end) {
			nm[n] = o;
			nm[n].pgoff += end - o.start;
			nm[n++].start = end;
			dso__get(o.dso);
		}
		dso__put(o.dso);
	}
	/* keep it sorted: find the slot of the new mapping */
	for (i = 0; i < n && nm[i].start < start; i++)
		;
	memmove(&nm[i + 1], &nm[i], (n - i) * sizeof(*nm));
	nm[i] = (struct map){ start, end, pgoff, dso, time };
	dso__get(dso);
	n++;
	memcpy(p->maps, nm, n * sizeof(*nm));
	p->nr = n;
	free(nm);
	return 0;
}

static void add_mapping(struct maps *m, struct proc *p, u64 start, u64 end, u64 pgoff,
			const char *path, u32 maj, u32 min, u64 ino, const unsigned char *bid,
			int bid_len, u64 time)
{
	struct dso *d = NULL;

	if (path && *path) {
		d = dso_cache__get(m->dc, path, maj, min, ino, bid, bid_len);
		if (!d)
			return;
	}
	proc_insert(p, start, end, pgoff, d, time);
	dso__put(d);
}

/*
 * "start-end perms offset [maj:min inode] [path]": executable mappings only.
 * Anonymous memory, nameless here, is "//anon" as in the kernel's MMAP2
 * records (JIT code): named alike whichever was read.
 */
static int parse_line(struct maps *m, struct proc *p, char *line, u64 time)
{
	struct maps_line l;

	if (procfs__maps_line(line, &l) || !strchr(l.perms, 'x'))
		return 0;
	add_mapping(m, p, l.start, l.end, l.pgoff, *l.path ? l.path : "//anon", l.maj, l.min, l.ino,
		    NULL, 0, time);
	return 1;
}

/* @time: when the text was read, on the records' clock (0: unknown) */
static int load_fp(struct maps *m, struct proc *p, FILE *fp, u64 time)
{
	char line[PATH_MAX + 256];
	int n = 0;

	while (fgets(line, sizeof(line), fp))
		n += parse_line(m, p, line, time);
	return n;
}

void maps__set_clock(struct maps *m, u64 (*now)(void *), void *arg)
{
	m->now = now;
	m->now_arg = arg;
}

static struct proc *proc_get(struct maps *m, u32 pid, bool create)
{
	struct proc *p;

	if (m->last && m->last->pid == pid)
		return m->last;
	HASH_FIND(hh, m->procs, &pid, sizeof(pid), p);
	if (!p && create) {
		p = calloc(1, sizeof(*p));
		if (!p)
			return NULL;
		p->pid = pid;
		p->image = ++m->next_image;
		HASH_ADD(hh, m->procs, pid, sizeof(pid), p);
		m->nr_procs++;
	}
	if (p)
		m->last = p;
	return p;
}

/*
 * A process whose EXIT record was lost would stay "live" for ever.  When
 * the live ones pass a mark, those gone from /proc join the dead (kept
 * for their stacks, the oldest dropped beyond MAPS_MAX_DEAD); the next
 * mark is twice the live ones left, so the cost stays in proportion.
 */
static void sweep_gone(struct maps *m)
{
	struct proc *p, *t;
	u32 live;

	if (m->nr_procs - m->nr_dead < m->next_sweep)
		return;
	HASH_ITER(hh, m->procs, p, t)
	{
		if (p->dead || !p->pid || !(kill((pid_t)p->pid, 0) && errno == ESRCH))
			continue;
		m->nr_vanished++;
		maps__exit(m, p->pid);
	}
	live = m->nr_procs - m->nr_dead;
	m->next_sweep = live * 2 > MAPS_SWEEP_MIN ? live * 2 : MAPS_SWEEP_MIN;
}

void maps__stats(const struct maps *m, u32 *live, u32 *dead, u64 *evicted, u64 *vanished)
{
	*live = m->nr_procs - m->nr_dead;
	*dead = m->nr_dead;
	*evicted = m->nr_evicted;
	*vanished = m->nr_vanished;
}

struct proc *maps__proc(struct maps *m, u32 pid)
{
	struct proc *p;

	sweep_gone(m);
	p = proc_get(m, pid, true);
	if (!p)
		return NULL;
	if (p->dead) {
		/* a recently used dead process is the last one evicted */
		dead_unlink(m, p);
		dead_append(m, p);
	} else if (!p->loaded && pid) {
		char path[64];
		FILE *fp;

		p->loaded = true;
		snprintf(path, sizeof(path), "/proc/%u/maps", pid);
		fp = fopen(path, "re");
		if (fp) {
			/* read now: an exec record read later but older keeps them */
			load_fp(m, p, fp, m->now ? m->now(m->now_arg) : 0);
			fclose(fp);
		}
	}
	return p;
}

int maps__refresh(struct maps *m, u32 pid)
{
	struct proc *p = proc_get(m, pid, false);
	char path[64];
	FILE *fp;
	int n;

	if (!p || !pid || p->dead || !p->loaded || m->tracking || time(NULL) == p->refreshed)
		return 0;
	p->refreshed = time(NULL);
	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	fp = fopen(path, "re");
	if (!fp)
		return 0;
	proc_clear(p);
	n = load_fp(m, p, fp, m->now ? m->now(m->now_arg) : 0);
	fclose(fp);
	return n;
}

int maps__load_text(struct maps *m, u32 pid, FILE *fp)
{
	struct proc *p = proc_get(m, pid, true);

	if (!p)
		return -ENOMEM;
	p->loaded = true;
	return load_fp(m, p, fp, 0);
}

const struct map *proc__find(struct proc *p, u64 addr)
{
	u32 lo = 0, hi = p ? p->nr : 0, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (p->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= p->maps[lo - 1].end)
		return NULL;
	return &p->maps[lo - 1];
}

void maps__mmap(struct maps *m, u32 pid, u64 start, u64 len, u64 pgoff, const char *path, u32 maj,
		u32 min, u64 ino, const unsigned char *bid, int bid_len, u64 time)
{
	struct proc *p = proc_get(m, pid, true);

	if (!p || start + len < start)
		return;
	if (time && time < p->exec_time)
		return; /* the image before an exec already seen */
	m->tracking = true;
	/* an MMAP2 after the exec proves it: the new image is tracked */
	if (p->execd)
		p->loaded = true;
	add_mapping(m, p, start, start + len, pgoff, path, maj, min, ino, bid, bid_len, time);
}

u32 maps__image(struct maps *m, u32 pid)
{
	struct proc *p = maps__proc(m, pid);

	return p ? p->image : 0;
}

void maps__exec(struct maps *m, u32 pid, u64 time)
{
	/* tracked, an unknown process needs no /proc either: exec replaces all */
	struct proc *p = proc_get(m, pid, m->tracking);
	u32 n = 0;

	if (!p)
		return;
	/* the mappings of MMAP2 records after it (seen first) are the new image's */
	for (u32 i = 0; i < p->nr; i++) {
		if (time && p->maps[i].time > time)
			p->maps[n++] = p->maps[i];
		else
			dso__put(p->maps[i].dso);
	}
	p->nr = n;
	if (time > p->exec_time)
		p->exec_time = time;
	p->image = ++m->next_image;
	/*
	 * The new image's mappings come as MMAP2; /proc only without them: read
	 * later, it could be that of a later exec and overwrite tracked maps.
	 */
	p->loaded = m->tracking;
	p->execd = true;
	retire(m, p->jit);
	p->jit = NULL;
	p->jit_tried = false;
	p->jit_off = 0;
}

void maps__exit(struct maps *m, u32 pid)
{
	struct proc *p = proc_get(m, pid, false);

	if (!p || p->dead)
		return;
	p->dead = true;
	p->image = ++m->next_image; /* a sample of the pid after: another process */
	dead_append(m, p);
	if (++m->nr_dead > MAPS_MAX_DEAD) {
		struct proc *old = m->dead_head;

		dead_unlink(m, old);
		m->nr_dead--;
		proc_free(m, old);
		m->nr_evicted++;
	}
}

void maps__fork(struct maps *m, u32 ppid, u32 pid)
{
	struct proc *p, *c;
	u32 i;

	sweep_gone(m);
	c = proc_get(m, pid, false);
	if (c && c->dead) {
		/* the pid was reused */
		dead_unlink(m, c);
		m->nr_dead--;
		proc_free(m, c);
		c = NULL;
	}
	if (c)
		c->image = ++m->next_image; /* a new process: nothing cached of the pid is its */
	if (c && (c->nr || c->loaded))
		return;
	p = maps__proc(m, ppid);
	c = proc_get(m, pid, true);
	if (!p || !c || p == c)
		return;
	c->cap = p->nr;
	c->maps = p->nr ? malloc(p->nr * sizeof(*c->maps)) : NULL;
	if (p->nr && !c->maps) {
		c->cap = 0;
		return;
	}
	for (i = 0; i < p->nr; i++) {
		c->maps[i] = p->maps[i];
		c->maps[i].time = 0; /* the parent's: the child's exec replaces them all */
		dso__get(c->maps[i].dso);
	}
	c->nr = p->nr;
	c->loaded = true;
}

/* The pid of @pid inside its own pid namespace: the JIT names its map file by it. */
static u32 ns_pid(u32 pid)
{
	char path[64], line[256];
	u32 ns = pid;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	fp = fopen(path, "re");
	if (!fp)
		return pid;
	while (fgets(line, sizeof(line), fp)) {
		char *last;

		if (strncmp(line, "NSpid:", 6))
			continue;
		line[strcspn(line, "\n")] = 0;
		last = strrchr(line, '\t');
		if (last && last[1])
			ns = strtoul(last + 1, NULL, 10);
		break;
	}
	fclose(fp);
	return ns;
}

/* Read what the JIT appended since the last time: the table grows in place. */
static void load_jit(struct maps *m, struct proc *p)
{
	char path[96], *line = NULL;
	size_t cap = 0;
	struct stat sb;
	bool added = false;
	ssize_t len;
	FILE *fp;
	int i;

	p->jit_tried = true;
	p->jit_checked = time(NULL);
	for (i = 0; i < 2; i++) {
		if (i == 0)
			snprintf(path, sizeof(path), "/tmp/perf-%u.map", p->pid);
		else
			snprintf(path, sizeof(path), "/proc/%u/root/tmp/perf-%u.map", p->pid,
				 ns_pid(p->pid));
		fp = fopen(path, "re");
		if (fp)
			break;
	}
	if (!fp)
		return;
	if (fstat(fileno(fp), &sb) || sb.st_size == p->jit_off)
		goto out;
	if (sb.st_size < p->jit_off) {
		/* rewritten, not appended: start over */
		retire(m, p->jit);
		p->jit = NULL;
		p->jit_off = 0;
	}
	if (!p->jit) {
		p->jit = symtab__new();
		if (!p->jit)
			goto out;
		snprintf(path, sizeof(path), "/tmp/perf-%u.map", p->pid);
		p->jit_name = symtab__strdup(p->jit, path, strlen(path));
	}
	if (fseeko(fp, p->jit_off, SEEK_SET))
		goto out;
	while ((len = getline(&line, &cap, fp)) > 0) {
		unsigned long long start, size;
		int n = 0;
		size_t nlen;

		/* a line still being written is read next time */
		if (line[len - 1] != '\n')
			break;
		p->jit_off += len;
		if (sscanf(line, "%llx %llx %n", &start, &size, &n) < 2 || !n)
			continue;
		nlen = strcspn(line + n, "\n");
		if (nlen && symtab__add(p->jit, start, size, line + n, nlen, 1, 0))
			break;
		added = true;
	}
	if (added)
		symtab__finish(p->jit, 0);
out:
	free(line);
	fclose(fp);
}

void maps__resolve(struct maps *m, u32 pid, u64 addr, u64 lookup, struct resolved *r)
{
	struct proc *p = maps__proc(m, pid);
	const struct map *mp = proc__find(p, lookup);
	const struct sym *s;

	r->sym = NULL;
	r->off = 0;
	r->dso = NULL;
	r->map = mp;
	r->in_file = false;
	if (mp && mp->dso) {
		struct elfsyms *es;

		r->dso = dso__name(mp->dso);
		es = dso__syms(m->dc, mp->dso, p->dead ? 0 : pid, mp->start, mp->end);
		if (es) {
			u64 v = elfsyms__file_to_vaddr(es, lookup - mp->start + mp->pgoff);

			r->vaddr = v;
			r->in_file = true;
			s = elfsyms__find(es, v);
			if (s) {
				r->sym = s->name;
				r->off = v + (addr - lookup) - s->start;
			}
			return;
		}
		if (dso__is_file(mp->dso))
			return;
	}
	/* anonymous memory: maybe JIT code */
	if (!p)
		return;
	if (!p->jit_tried ||
	    (!p->dead && time(NULL) != p->jit_checked && !symtab__find(p->jit, lookup)))
		load_jit(m, p);
	s = symtab__find(p->jit, lookup);
	if (s) {
		r->sym = s->name;
		r->off = addr - s->start;
		r->dso = p->jit_name;
	}
}

int maps__each(struct maps *m, u32 pid, int (*fn)(void *arg, const struct map *mp, u32 open_pid),
	       void *arg)
{
	struct proc *p = maps__proc(m, pid);
	int ret = 0;

	for (u32 i = 0; p && i < p->nr && !ret; i++)
		ret = fn(arg, &p->maps[i], p->dead ? 0 : pid);
	return ret;
}

int maps__in_exec(struct maps *m, u32 pid, u64 addr)
{
	struct proc *p = maps__proc(m, pid);

	if (!p || !p->nr)
		return -1;
	return proc__find(p, addr) ? 1 : 0;
}

const struct map *maps__find(struct maps *m, u32 pid, u64 addr)
{
	struct proc *p = maps__proc(m, pid);
	const struct map *mp = proc__find(p, addr);

	if (mp && mp->dso)
		dso__syms(m->dc, mp->dso, p->dead ? 0 : pid, mp->start, mp->end);
	return mp;
}
