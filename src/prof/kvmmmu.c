// SPDX-License-Identifier: GPL-2.0
/*
 * kvmmmu: KVM's shadow page tables (shadow paging, and EPT/NPT without the
 * TDP MMU) from the kvmmmu tracepoints.  kvm_mmu_get_page says a shadow
 * page was looked up (created, or an existing one found), with its guest
 * frame and its role (level, direct, access, ...);
 * kvm_mmu_prepare_zap_page that one is torn down.  Per interval and at the
 * end: the pages created, found and zapped per role (a role names one
 * level of one kind of table), and how many of those created since the
 * start are alive; --spte: the sptes set per level (kvm_mmu_set_spte);
 * --mmio: the sptes marked MMIO per guest frame (mark_mmio_spte);
 * --detail: the live page tables, each page under its parent with the
 * sptes set in it (the original's dump); --records: each record as it
 * comes.
 *
 * The role word is decoded as the kernel's union kvm_mmu_page_role:
 * level:4, has_4_byte_gpte:1, quadrant:2, direct:1, access:3, invalid:1,
 * efer_nx:1, cr0_wp:1, smep_andnot_wp:1, smap_andnot_wp:1, ad_disabled:1,
 * guest_mode:1, passthrough:1, 5 unused, smm:8.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "engine/evfields.h"
#include "profiler.h"
#include "report/outfile.h"
#include "report/stats_table.h"
#include "util/hash.h"

#define MMU_LEVELS 5

/* The pages of one role. */
struct role_row {
	UT_hash_handle hh;
	u32 role;
	u64 created, existing, zapped;
	u64 live; /* created since the start, not zapped */
};

/* A shadow page created since the start and not zapped. */
struct live_page {
	UT_hash_handle hh;
	struct {
		u64 gfn;
		u32 role;
		u32 gen;
	} key;
	u32 root_count;
	unsigned char *spte;	   /* --detail: per entry SPTE_SET, SPTE_MMIO (NULL: none yet) */
	struct live_page *next_at; /* --detail: the older live pages of its gfn and level */
};

/*
 * --detail: the live pages of a level whose frames begin at a gfn, newest
 * first: set_spte's sptes go to the newest (an older one there, of another
 * role or generation, is obsolete until zapped; when it goes first, the
 * newest keeps its place and its sptes).
 */
struct page_at {
	UT_hash_handle hh;
	struct {
		u64 base;
		u32 level, pad;
	} key;
	struct live_page *lp;
};

#define SPTE_SET 1
#define SPTE_MMIO 2
#define SPTES 512

/* The sptes marked MMIO for one guest frame. */
struct mmio_row {
	UT_hash_handle hh;
	u64 gfn;
	u64 marked;
	u64 access, gen; /* the last mark's */
};

struct spte_level {
	u64 set, writable, executable;
};

/* A field of each event, looked up once. */
enum { F_GEN, F_GFN, F_ROLE, F_ROOT, F_CREATED, F_NR };
enum { S_GFN, S_SPTE, S_LEVEL, S_X, S_NR };
enum { M_GFN, M_ACCESS, M_GEN, M_NR };

struct kvmmmu {
	bool spte, mmio, detail, records;
	struct evsel *get, *zap, *set, *mark;
	const struct evf *gf[F_NR], *zf[F_NR], *sf[S_NR], *mf[M_NR];
	struct role_row *roles;
	struct live_page *live;
	struct page_at *at; /* --detail */
	struct mmio_row *mmios;
	struct spte_level sptes[MMU_LEVELS + 1]; /* [level]; [0]: a level out of range */
	u64 since;
	bool oom;
	bool header; /* --records' header, printed */
};

/* The role's words, as the kernel's trace prints them: "l1 8-byte q0 direct wux nxe ad". */
void kvmmmu__role_text(u32 role, char *buf, size_t len)
{
	static const char *const access[] = {
		"---", "--x", "w--", "w-x", "-u-", "-ux", "wu-", "wux"
	};

	snprintf(buf, len, "l%u %u-byte q%u%s %s%s %snxe %sad%s%s%s", role & 0xf,
		 (role >> 4) & 1 ? 4 : 8, (role >> 5) & 3, (role >> 7) & 1 ? " direct" : "",
		 access[(role >> 8) & 7], (role >> 11) & 1 ? " invalid" : "",
		 (role >> 12) & 1 ? "" : "!", (role >> 16) & 1 ? "!" : "",
		 (role >> 17) & 1 ? " guest" : "", (role >> 18) & 1 ? " passthrough" : "",
		 role >> 24 ? " smm" : "");
}

static u64 val(const struct evf *f, const struct sample *smp)
{
	u64 v = 0;

	if (f)
		evf__u64(f, smp, &v);
	return v;
}

static struct role_row *role_of(struct kvmmmu *p, u32 role)
{
	struct role_row *r;

	HASH_FIND(hh, p->roles, &role, sizeof(role), r);
	if (r)
		return r;
	r = calloc(1, sizeof(*r));
	if (!r) {
		p->oom = true;
		return NULL;
	}
	r->role = role;
	HASH_ADD(hh, p->roles, role, sizeof(r->role), r);
	return r;
}

/* --records: one line (or JSON record) per record. */
enum { D_TIME, D_TIME_NS, D_CPU, D_PID, D_EVENT, D_GFN, D_WHAT, D_NR };
static const struct rt_col rec_cols[D_NR] = {
	[D_TIME] = { .title = "TIME", .type = RT_STR, .width = 26, .flags = RT_LEFT | RT_NO_JSON },
	[D_TIME_NS] = { .name = "time_ns", .type = RT_U64, .flags = RT_NO_TEXT },
	[D_CPU] = { .name = "cpu", .title = "CPU", .type = RT_U64, .width = 3 },
	[D_PID] = { .name = "pid", .title = "PID", .type = RT_U64, .width = 7 },
	[D_EVENT] = { .name = "event",
		      .title = "EVENT",
		      .type = RT_STR,
		      .width = 16,
		      .flags = RT_LEFT },
	[D_GFN] = { .name = "gfn", .title = "GFN", .type = RT_HEX, .width = 12 },
	[D_WHAT] = { .name = "what", .title = "WHAT", .type = RT_STR, .flags = RT_LEFT },
};
static const struct rt_desc rec_desc = { .type = "kvmmmu_event", .cols = rec_cols, .ncols = D_NR };

static void record_line(struct session *s, bool *printed, const char *event,
			const struct sample *smp, u64 gfn, const char *what)
{
	char ts[64], line[512];
	const struct rt_val v[D_NR] = { { .s = ts },	   { .u = session__wall_ns(s, smp->time) },
					{ .u = smp->cpu }, { .u = smp->pid },
					{ .s = event },	   { .u = gfn },
					{ .s = what } };
	FILE *out = session__out(s);

	session__fmt_time(s, smp->time, ts, sizeof(ts));
	if (session__json(s)) {
		rtable__record(out, true, &rec_desc, v);
		return;
	}
	/* one table: its header before the first record */
	if (!*printed) {
		rt_text__line(rec_cols, D_NR, NULL, line, sizeof(line));
		fprintf(out, "%s\n", line);
		*printed = true;
	}
	rt_text__line(rec_cols, D_NR, v, line, sizeof(line));
	fprintf(out, "%s\n", line);
}

/* The frames a page of @level maps: 512^level from its gfn. */
static u64 span(unsigned level)
{
	return level >= 1 && level <= MMU_LEVELS ? 1ULL << (9 * level) : 1;
}

static void index_page(struct kvmmmu *p, struct live_page *lp)
{
	struct page_at key = { .key = { lp->key.gfn, lp->key.role & 0xf, 0 } }, *a;
	u32 level = lp->key.role & 0xf;

	if (!p->detail || !level || level > MMU_LEVELS)
		return;
	HASH_FIND(hh, p->at, &key.key, sizeof(key.key), a);
	if (!a) {
		if (!(a = calloc(1, sizeof(*a)))) {
			p->oom = true;
			return;
		}
		a->key = key.key;
		HASH_ADD(hh, p->at, key, sizeof(a->key), a);
	}
	lp->next_at = a->lp;
	a->lp = lp;
}

static void unindex_page(struct kvmmmu *p, struct live_page *lp)
{
	struct page_at key = { .key = { lp->key.gfn, lp->key.role & 0xf, 0 } }, *a;

	HASH_FIND(hh, p->at, &key.key, sizeof(key.key), a);
	if (!a)
		return;
	for (struct live_page **pp = &a->lp; *pp; pp = &(*pp)->next_at)
		if (*pp == lp) {
			*pp = lp->next_at;
			break;
		}
	lp->next_at = NULL;
	if (!a->lp) {
		HASH_DELETE(hh, p->at, a);
		free(a);
	}
}

/* --detail: the spte of @gfn at @level marked @flags in the live page holding it. */
static void mark_spte(struct kvmmmu *p, u64 gfn, unsigned level, unsigned char flags)
{
	struct page_at key = { .key = { 0, level, 0 } }, *a;
	struct live_page *lp;

	if (!p->detail || level < 1 || level > MMU_LEVELS)
		return;
	key.key.base = gfn & ~(span(level) - 1);
	HASH_FIND(hh, p->at, &key.key, sizeof(key.key), a);
	if (!a)
		return;
	lp = a->lp;
	if (!lp->spte && !(lp->spte = calloc(SPTES, 1))) {
		p->oom = true;
		return;
	}
	lp->spte[((gfn - lp->key.gfn) / span(level - 1)) % SPTES] |= flags;
}

static void free_page(struct live_page *lp)
{
	free(lp->spte);
	free(lp);
}

static void on_get(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct kvmmmu *p = priv;
	u32 role = val(p->gf[F_ROLE], smp), gen = val(p->gf[F_GEN], smp);
	u64 gfn = val(p->gf[F_GFN], smp);
	bool created = val(p->gf[F_CREATED], smp);
	struct role_row *r = role_of(p, role);
	struct live_page *lp;

	(void)ev;
	if (r && !created)
		r->existing++;
	if (r && created) {
		struct live_page key = { .key = { gfn, role, gen } };

		r->created++;
		HASH_FIND(hh, p->live, &key.key, sizeof(key.key), lp);
		if (!lp && (lp = calloc(1, sizeof(*lp)))) {
			lp->key = key.key;
			HASH_ADD(hh, p->live, key, sizeof(lp->key), lp);
			index_page(p, lp);
			r->live++;
		} else if (!lp) {
			p->oom = true;
		}
	}
	if (p->detail) { /* a root's users: the most seen */
		struct live_page key = { .key = { gfn, role, gen } };
		u32 root = val(p->gf[F_ROOT], smp);

		HASH_FIND(hh, p->live, &key.key, sizeof(key.key), lp);
		if (lp && root > lp->root_count)
			lp->root_count = root;
	}
	if (p->records) {
		char what[160], text[128];

		kvmmmu__role_text(role, text, sizeof(text));
		snprintf(what, sizeof(what), "%s gen %u root %" PRIu64 " %s", text, gen,
			 val(p->gf[F_ROOT], smp), created ? "new" : "existing");
		record_line(s, &p->header, "get_page", smp, gfn, what);
	}
}

static void on_zap(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct kvmmmu *p = priv;
	u32 role = val(p->zf[F_ROLE], smp), gen = val(p->zf[F_GEN], smp);
	u64 gfn = val(p->zf[F_GFN], smp);
	struct live_page key = { .key = { gfn, role, gen } }, *lp;
	struct role_row *r = role_of(p, role);

	(void)ev;
	if (r)
		r->zapped++;
	HASH_FIND(hh, p->live, &key.key, sizeof(key.key), lp);
	if (lp) {
		unindex_page(p, lp);
		HASH_DELETE(hh, p->live, lp);
		free_page(lp);
		if (r && r->live)
			r->live--;
	}
	if (p->records) {
		char what[160], text[128];

		kvmmmu__role_text(role, text, sizeof(text));
		snprintf(what, sizeof(what), "%s gen %u root %" PRIu64, text, gen,
			 val(p->zf[F_ROOT], smp));
		record_line(s, &p->header, "prepare_zap_page", smp, gfn, what);
	}
}

static void on_set(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct kvmmmu *p = priv;
	u64 spte = val(p->sf[S_SPTE], smp), level = val(p->sf[S_LEVEL], smp);
	bool w = spte & 2, x = val(p->sf[S_X], smp);
	struct spte_level *l = &p->sptes[level >= 1 && level <= MMU_LEVELS ? level : 0];

	(void)ev;
	mark_spte(p, val(p->sf[S_GFN], smp), level, SPTE_SET);
	l->set++;
	l->writable += w;
	l->executable += x;
	if (p->records) {
		char what[96];

		snprintf(what, sizeof(what), "spte 0x%" PRIx64 " level %" PRIu64 " %s%s", spte,
			 level, w ? "w" : "-", x ? "x" : "-");
		record_line(s, &p->header, "set_spte", smp, val(p->sf[S_GFN], smp), what);
	}
}

static void on_mark(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct kvmmmu *p = priv;
	u64 gfn = val(p->mf[M_GFN], smp);
	struct mmio_row *m;

	(void)ev;
	mark_spte(p, gfn, 1, SPTE_SET | SPTE_MMIO);
	HASH_FIND(hh, p->mmios, &gfn, sizeof(gfn), m);
	if (!m && (m = calloc(1, sizeof(*m)))) {
		m->gfn = gfn;
		HASH_ADD(hh, p->mmios, gfn, sizeof(m->gfn), m);
	}
	if (m) {
		m->marked++;
		m->access = val(p->mf[M_ACCESS], smp);
		m->gen = val(p->mf[M_GEN], smp);
	} else {
		p->oom = true;
	}
	if (p->records) {
		char what[64];

		snprintf(what, sizeof(what), "access 0x%" PRIx64 " gen 0x%" PRIx64,
			 val(p->mf[M_ACCESS], smp), val(p->mf[M_GEN], smp));
		record_line(s, &p->header, "mark_mmio_spte", smp, gfn, what);
	}
}

/* The tables, in the order they print. */
enum { P_LEVEL, P_ROLE, P_TEXT, P_CREATED, P_EXISTING, P_ZAPPED, P_LIVE, P_NR };
static const struct rt_col page_cols[P_NR] = {
	[P_LEVEL] = RT_COL("level", "LEVEL", RT_U64, RT_UNIT_NONE, 5, 0),
	[P_ROLE] = RT_COL("role", "ROLE", RT_HEX, RT_UNIT_NONE, 10, 0),
	[P_TEXT] = { .name = "role_text",
		     .title = "ROLE WORDS",
		     .type = RT_STR,
		     .width = 10,
		     .flags = RT_LEFT | RT_FIT },
	[P_CREATED] = RT_COL("created", "CREATED", RT_U64, RT_UNIT_COUNT, 9, 0),
	[P_EXISTING] = RT_COL("existing", "EXISTING", RT_U64, RT_UNIT_COUNT, 9, 0),
	[P_ZAPPED] = RT_COL("zapped", "ZAPPED", RT_U64, RT_UNIT_COUNT, 9, 0),
	[P_LIVE] = RT_COL("live", "LIVE", RT_U64, RT_UNIT_COUNT, 9, 0),
};
static const struct rt_desc page_desc = { .type = "kvmmmu_pages",
					  .cols = page_cols,
					  .ncols = P_NR };

enum { T_LEVEL, T_SIZE, T_SET, T_W, T_X, T_NR };
static const struct rt_col spte_cols[T_NR] = {
	[T_LEVEL] = RT_COL("level", "LEVEL", RT_U64, RT_UNIT_NONE, 5, 0),
	[T_SIZE] = RT_COL("page_size", "SIZE", RT_STR, RT_UNIT_NONE, 5, 0),
	[T_SET] = RT_COL("sptes", "SPTES SET", RT_U64, RT_UNIT_COUNT, 10, 0),
	[T_W] = RT_COL("writable", "WRITABLE", RT_U64, RT_UNIT_COUNT, 10, 0),
	[T_X] = RT_COL("executable", "EXECUTABLE", RT_U64, RT_UNIT_COUNT, 10, 0),
};
static const struct rt_desc spte_desc = { .type = "kvmmmu_sptes",
					  .cols = spte_cols,
					  .ncols = T_NR };

enum { M_COL_GFN, M_COL_MARKED, M_COL_ACCESS, M_COL_GEN, M_COL_NR };
static const struct rt_col mmio_cols[M_COL_NR] = {
	[M_COL_GFN] = RT_COL("gfn", "MMIO GFN", RT_HEX, RT_UNIT_NONE, 12, 0),
	[M_COL_MARKED] = RT_COL("marked", "MARKED", RT_U64, RT_UNIT_COUNT, 9, 0),
	[M_COL_ACCESS] = RT_COL("access", "ACCESS", RT_HEX, RT_UNIT_NONE, 8, 0),
	[M_COL_GEN] = RT_COL("gen", "GEN", RT_HEX, RT_UNIT_NONE, 8, 0),
};
static const struct rt_desc mmio_desc = { .type = "kvmmmu_mmio",
					  .cols = mmio_cols,
					  .ncols = M_COL_NR };

/* Deepest level first, then by role word. */
static int role_cmp(const struct role_row *a, const struct role_row *b)
{
	if ((a->role & 0xf) != (b->role & 0xf))
		return (int)(b->role & 0xf) - (int)(a->role & 0xf);
	return a->role < b->role ? -1 : a->role > b->role;
}

static int mmio_cmp(const struct mmio_row *a, const struct mmio_row *b)
{
	return a->gfn < b->gfn ? -1 : a->gfn > b->gfn;
}

static void page_vals(const struct role_row *r, struct rt_val *v, char *text, size_t len)
{
	kvmmmu__role_text(r->role, text, len);
	v[P_LEVEL] = (struct rt_val){ .u = r->role & 0xf };
	v[P_ROLE] = (struct rt_val){ .u = r->role };
	v[P_TEXT] = (struct rt_val){ .s = text };
	v[P_CREATED] = (struct rt_val){ .u = r->created };
	v[P_EXISTING] = (struct rt_val){ .u = r->existing };
	v[P_ZAPPED] = (struct rt_val){ .u = r->zapped };
	v[P_LIVE] = (struct rt_val){ .u = r->live };
}

static void print_pages(struct kvmmmu *p, struct rt_sink *k)
{
	struct rt_val v[P_NR];
	char text[128];

	HASH_SORT(p->roles, role_cmp);
	for (struct role_row *r = p->roles; r; r = r->hh.next) {
		page_vals(r, v, text, sizeof(text));
		rtable__fit(k, &page_desc, v);
	}
	rtable__begin(k, &page_desc);
	for (struct role_row *r = p->roles; r; r = r->hh.next) {
		page_vals(r, v, text, sizeof(text));
		rtable__row(k, v);
	}
	rtable__end(k);
}

static void print_sptes(struct kvmmmu *p, struct rt_sink *k)
{
	static const char *const size[] = { "?", "4K", "2M", "1G", "512G", "256T" };

	rtable__begin(k, &spte_desc);
	for (int l = 1; l <= MMU_LEVELS; l++) {
		if (!p->sptes[l].set)
			continue;
		rtable__row(k, (struct rt_val[]){ { .u = l },
						  { .s = size[l] },
						  { .u = p->sptes[l].set },
						  { .u = p->sptes[l].writable },
						  { .u = p->sptes[l].executable } });
	}
	rtable__end(k);
}

static void print_mmio(struct kvmmmu *p, struct rt_sink *k)
{
	HASH_SORT(p->mmios, mmio_cmp);
	rtable__begin(k, &mmio_desc);
	for (struct mmio_row *m = p->mmios; m; m = m->hh.next)
		rtable__row(k, (struct rt_val[]){ { .u = m->gfn },
						  { .u = m->marked },
						  { .u = m->access },
						  { .u = m->gen } });
	rtable__end(k);
}

/* --detail: a live page, and its sptes' runs (as many lines). */
enum { K_LINE, K_LEVEL, K_GFN, K_END, K_ROLE, K_TEXT, K_ROOT, K_SET, K_MMIO, K_NR };
static const struct rt_col sp_cols[K_NR] = {
	[K_LINE] = { .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	[K_LEVEL] = RT_COL("level", NULL, RT_U64, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[K_GFN] = RT_COL("gfn", NULL, RT_HEX, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[K_END] = RT_COL("gfn_end", NULL, RT_HEX, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[K_ROLE] = RT_COL("role", NULL, RT_HEX, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[K_TEXT] = RT_COL("role_text", NULL, RT_STR, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[K_ROOT] = RT_COL("root_count", NULL, RT_U64, RT_UNIT_NONE, 0, RT_NO_TEXT),
	[K_SET] = RT_COL("sptes", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
	[K_MMIO] = RT_COL("mmio_sptes", NULL, RT_U64, RT_UNIT_COUNT, 0, RT_NO_TEXT),
};
static const struct rt_desc sp_desc = { .type = "kvmmmu_sp", .cols = sp_cols, .ncols = K_NR };

/* Deepest level first, then by gfn and role. */
static int sp_cmp(const void *a, const void *b)
{
	const struct live_page *x = *(struct live_page *const *)a;
	const struct live_page *y = *(struct live_page *const *)b;
	unsigned lx = x->key.role & 0xf, ly = y->key.role & 0xf;

	if (lx != ly)
		return lx > ly ? -1 : 1;
	if (x->key.gfn != y->key.gfn)
		return x->key.gfn < y->key.gfn ? -1 : 1;
	return x->key.role < y->key.role ? -1 : x->key.role > y->key.role;
}

static void print_sp(struct rt_sink *k, struct live_page *lp, int indent)
{
	unsigned level = lp->key.role & 0xf;
	u64 end = lp->key.gfn + span(level) - 1, set = 0, mmio = 0;
	char *line = NULL, text[128];
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);

	kvmmmu__role_text(lp->key.role, text, sizeof(text));
	if (f) {
		fprintf(f, "%*ssp%u 0x%08llx-0x%08llx role 0x%04x", indent, "", level,
			(unsigned long long)lp->key.gfn, (unsigned long long)end, lp->key.role);
		if (lp->root_count)
			fprintf(f, " root_count %u", lp->root_count);
		fprintf(f, " ; %s", text);
	}
	/* the runs of sptes alike, one line each, under it (up to 512 lines) */
	for (int i = 0; lp->spte && i < SPTES; i++) {
		int e = i;

		if (!lp->spte[i])
			continue;
		while (e + 1 < SPTES && lp->spte[e + 1] == lp->spte[i])
			e++;
		for (int j = i; j <= e; j++) {
			set++;
			mmio += !!(lp->spte[j] & SPTE_MMIO);
		}
		if (f)
			fprintf(f, "\n%*sspte 0x%08llx-0x%08llx%s", indent + 4, "",
				(unsigned long long)(lp->key.gfn + i * span(level - 1)),
				(unsigned long long)(lp->key.gfn + (e + 1) * span(level - 1) - 1),
				lp->spte[i] & SPTE_MMIO ? " mmio" : "");
		i = e;
	}
	if (f)
		fclose(f);
	rtable__row(k, (struct rt_val[]){ { .s = line ? line : text },
					  { .u = level },
					  { .u = lp->key.gfn },
					  { .u = end },
					  { .u = lp->key.role },
					  { .s = text },
					  { .u = lp->root_count },
					  { .u = set },
					  { .u = mmio } });
	free(line);
}

/* The pages of each level: v[lo[l]..hi[l]) of the array sorted by sp_cmp. */
struct sp_levels {
	struct live_page **v;
	int lo[MMU_LEVELS + 2], hi[MMU_LEVELS + 2];
};

/* The first page of @level whose gfn is >= @gfn (hi[level] if none). */
static int first_from(const struct sp_levels *L, unsigned level, u64 gfn)
{
	int a = L->lo[level], b = L->hi[level];

	while (a < b) {
		int m = a + (b - a) / 2;

		if (L->v[m]->key.gfn < gfn)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* Whether a page of the level above holds @lp's gfn in its range. */
static bool has_parent(const struct sp_levels *L, const struct live_page *lp)
{
	unsigned up = (lp->key.role & 0xf) + 1;
	int i;

	if (up > MMU_LEVELS)
		return false;
	i = first_from(L, up, lp->key.gfn + 1) - 1; /* the last at or before it */
	return i >= L->lo[up] && lp->key.gfn <= L->v[i]->key.gfn + span(up) - 1;
}

/* @lp, then the pages of the level below in its range, each with theirs. */
static void print_tree(struct rt_sink *k, const struct sp_levels *L, struct live_page *lp,
		       int indent)
{
	unsigned level = lp->key.role & 0xf;
	u64 end = lp->key.gfn + span(level) - 1;

	print_sp(k, lp, indent);
	if (level <= 1)
		return;
	for (int i = first_from(L, level - 1, lp->key.gfn);
	     i < L->hi[level - 1] && L->v[i]->key.gfn <= end; i++)
		print_tree(k, L, L->v[i], indent + 4);
}

static void print_tables(struct kvmmmu *p, struct rt_sink *k)
{
	unsigned n = HASH_COUNT(p->live), i = 0, top;
	struct sp_levels L = { 0 };
	struct live_page *lp, *t;

	if (!n)
		return;
	L.v = malloc(n * sizeof(*L.v));
	if (!L.v) {
		p->oom = true;
		return;
	}
	HASH_ITER(hh, p->live, lp, t)
	L.v[i++] = lp;
	qsort(L.v, n, sizeof(*L.v), sp_cmp);
	for (i = 0; i < n; i++) {
		unsigned l = L.v[i]->key.role & 0xf;

		l = l > MMU_LEVELS ? MMU_LEVELS + 1 : l;
		if (L.lo[l] == L.hi[l])
			L.lo[l] = i;
		L.hi[l] = i + 1;
	}
	rtable__begin(k, &sp_desc);
	/* from the top: a page whose parent is not live starts a tree of its own */
	top = L.v[0]->key.role & 0xf;
	for (unsigned level = top; level >= 1 && level <= MMU_LEVELS; level--)
		for (int j = L.lo[level]; j < L.hi[level]; j++)
			if (!has_parent(&L, L.v[j]))
				print_tree(k, &L, L.v[j], 4 * (int)(top - level));
	rtable__end(k);
	free(L.v);
}

static void report(struct session *s, struct kvmmmu *p, int when)
{
	FILE *out = session__out(s);
	struct stats_stamp st;
	union rt_sinks u;
	struct rt_sink *k = stats_stamp__sink(s, &u, &st, &p->since, when);

	print_pages(p, k);
	/* the other tables under it, with the same stamp */
	if (p->spte) {
		if (!session__json(s))
			fputc('\n', out);
		print_sptes(p, session__json(s) ? rt_json__init(&u.json, out, &st)
						: rt_text__init(&u.text, out));
	}
	if (p->mmio) {
		if (!session__json(s))
			fputc('\n', out);
		print_mmio(p, session__json(s) ? rt_json__init(&u.json, out, &st)
					       : rt_text__init(&u.text, out));
	}
	if (p->detail) {
		if (!session__json(s))
			fputc('\n', out);
		print_tables(p, session__json(s) ? rt_json__init(&u.json, out, &st)
						 : rt_text__init(&u.text, out));
	}
	if (p->oom)
		stats_note(s, "kvmmmu", "out of memory: some records were not counted");
	fflush(out);
}

/* After an interval: its counts start again; the live pages stay. */
static void reset(struct kvmmmu *p)
{
	struct role_row *r, *t;

	HASH_ITER(hh, p->roles, r, t)
	{
		r->created = r->existing = r->zapped = 0;
		if (!r->live) {
			HASH_DELETE(hh, p->roles, r);
			free(r);
		}
	}
	memset(p->sptes, 0, sizeof(p->sptes));
	HASH_FREE_ALL(hh, p->mmios);
}

static void kvmmmu_interval(struct session *s, void *priv)
{
	report(s, priv, STATS_INTERVAL);
	reset(priv);
}

static void kvmmmu_snapshot(struct session *s, void *priv)
{
	report(s, priv, STATS_SO_FAR);
}

static int fields(struct session *s, struct evsel *ev, const char *const *names,
		  const struct evf **f, int n)
{
	const struct evfields *fs = evsel__evfields(ev);

	for (int i = 0; i < n; i++) {
		f[i] = fs ? evfields__find(fs, names[i]) : NULL;
		if (!f[i] && i < 3) /* the first three of each event are needed */
			return session__set_err(s, -EINVAL, "%s lacks the field '%s'", ev->name,
						names[i]);
	}
	return 0;
}

static struct evsel *add(struct session *s, const char *name,
			 void (*fn)(struct session *, void *, struct evsel *, struct sample *),
			 void *p)
{
	struct evsel *ev = session__add_tp(s, "kvmmmu", name, &(struct evsel_conf){ 0 });

	if (ev)
		evsel__set_handler(ev, fn, p);
	return ev;
}

static int kvmmmu_init(struct session *s, void *priv, const struct opt_set *opts)
{
	static const char *const page_f[F_NR] = { "gfn", "role", "mmu_valid_gen", "root_count",
						  "created" };
	static const char *const spte_f[S_NR] = { "gfn", "spte", "level", "x" };
	static const char *const mmio_f[M_NR] = { "gfn", "access", "gen" };
	struct kvmmmu *p = priv;
	const struct evf *tmp[F_NR];

	(void)opts;
	/* the records of every CPU in time order: a page is made before it is zapped */
	session__want_order(s);
	p->get = add(s, "kvm_mmu_get_page", on_get, p);
	p->zap = p->get ? add(s, "kvm_mmu_prepare_zap_page", on_zap, p) : NULL;
	if (!p->zap)
		return -EINVAL;
	if (p->spte && !(p->set = add(s, "kvm_mmu_set_spte", on_set, p)))
		return -EINVAL;
	if (p->mmio && !(p->mark = add(s, "mark_mmio_spte", on_mark, p)))
		return -EINVAL;
	/* page_f's order is not the enum's: the three needed first */
	if (fields(s, p->get, page_f, tmp, F_NR))
		return -EINVAL;
	p->gf[F_GFN] = tmp[0], p->gf[F_ROLE] = tmp[1], p->gf[F_GEN] = tmp[2];
	p->gf[F_ROOT] = tmp[3], p->gf[F_CREATED] = tmp[4];
	if (fields(s, p->zap, page_f, tmp, F_NR - 1))
		return -EINVAL;
	p->zf[F_GFN] = tmp[0], p->zf[F_ROLE] = tmp[1], p->zf[F_GEN] = tmp[2];
	p->zf[F_ROOT] = tmp[3];
	if (p->set && fields(s, p->set, spte_f, p->sf, S_NR))
		return -EINVAL;
	if (p->mark && fields(s, p->mark, mmio_f, p->mf, M_NR))
		return -EINVAL;
	return 0;
}

static void kvmmmu_deinit(struct session *s, void *priv)
{
	struct kvmmmu *p = priv;

	if (session__started(s))
		report(s, p, STATS_END);
	HASH_FREE_ALL(hh, p->roles);
	{
		struct live_page *lp, *t;

		HASH_ITER(hh, p->live, lp, t)
		{
			HASH_DELETE(hh, p->live, lp);
			free_page(lp);
		}
	}
	HASH_FREE_ALL(hh, p->at);
	HASH_FREE_ALL(hh, p->mmios);
}

static const struct popt kvmmmu_opts[] = {
	{ .lname = "spte",
	  .help = "the sptes set per level (kvmmmu:kvm_mmu_set_spte): writable, executable",
	  POPT_BIND_FLAG(struct kvmmmu, spte) },
	{ .lname = "mmio",
	  .help = "the sptes marked MMIO per guest frame (kvmmmu:mark_mmio_spte)",
	  POPT_BIND_FLAG(struct kvmmmu, mmio) },
	{ .lname = "detail",
	  .help = "print the live shadow page tables: each page under its parent, the sptes set "
		  "(--spte) and marked MMIO (--mmio) in it",
	  POPT_BIND_FLAG(struct kvmmmu, detail) },
	{ .lname = "records",
	  .help = "print each record as it comes (its role, spte or MMIO mark decoded)",
	  POPT_BIND_FLAG(struct kvmmmu, records) },
	{ 0 },
};

const struct profiler prof_kvmmmu = {
	.name = "kvmmmu",
	.needs = (const char *const[]){ "tp:kvmmmu:kvm_mmu_get_page",
					"tp:kvmmmu:kvm_mmu_prepare_zap_page",
					"hwvirt?=kvmmmu:* fire only while a VM is built", NULL },
	.desc = "KVM shadow pages created, found and zapped per level and role; sptes set, MMIO "
		"sptes",
	.synopsis = "perf-prof kvmmmu [--spte] [--mmio] [--detail] [--records] [-i MS] [-C CPUS|-p "
		    "PID]",
	.examples = "perf-prof kvmmmu -i 1000\n"
		    "  perf-prof kvmmmu -p $(pidof qemu-system-x86_64) --spte --mmio\n"
		    "  perf-prof kvmmmu -p 2347 -i 5000 --spte --mmio --detail\n"
		    "  perf-prof kvmmmu --records -N 100",
	.groups = (const struct opt_group *const[]){ &target_group, &run_group, &ring_group,
						     &output_group, &exclude_tp_group, NULL },
	.own = kvmmmu_opts,
	.priv_size = sizeof(struct kvmmmu),
	.init = kvmmmu_init,
	.ops = { .interval = kvmmmu_interval, .snapshot = kvmmmu_snapshot },
	.deinit = kvmmmu_deinit,
};
