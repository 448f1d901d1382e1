// SPDX-License-Identifier: GPL-2.0
/* Memory access latency by data source and by instruction: see memlat.h. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/memory/memlat.h"
#include "report/lat_table.h"
#include "report/rtable.h"

struct memlat {
	bool perins;
	struct lat_table *src, *ins;
	uint64_t samples;
};

/* Bits @shift.. of @v, @width of them. */
static unsigned bits(uint64_t v, int shift, int width)
{
	return (unsigned)((v >> shift) & ((1ULL << width) - 1));
}

/* The names of the set bits of @m (bit 0: @names[0]) joined by " or ", after @at of @buf. */
static size_t join(char *buf, size_t at, size_t len, unsigned m, const char *const *names, int n)
{
	bool first = true;

	for (int i = 0; i < n && at < len; i++) {
		int k;

		if (!(m & (1u << i)) || !names[i])
			continue;
		k = snprintf(buf + at, len - at, "%s%s", first ? "" : " or ", names[i]);
		at = k < 0 ? len : at + (size_t)k;
		first = false;
	}
	return at < len ? at : len - 1;
}

static size_t add(char *buf, size_t at, size_t len, const char *s)
{
	int k = at < len ? snprintf(buf + at, len - at, "%s", s) : 0;

	at = k < 0 ? len : at + (size_t)k;
	return at < len ? at : len - 1;
}

const char *memlat__src_text(uint64_t data_src, char *buf, size_t len)
{
	/* PERF_MEM_LVL_* after NA, HIT, MISS (bits 3..13) */
	static const char *const lvl[] = {
		NULL,
		NULL,
		NULL,
		"L1",
		"LFB",
		"L2",
		"L3",
		"Local RAM",
		"Remote RAM (1 hop)",
		"Remote RAM (2 hops)",
		"Remote Cache (1 hop)",
		"Remote Cache (2 hops)",
		"I/O",
		"Uncached",
	};
	static const char *const lvlnum[16] = {
		[PERF_MEM_LVLNUM_L1] = "L1",
		[PERF_MEM_LVLNUM_L2] = "L2",
		[PERF_MEM_LVLNUM_L3] = "L3",
		[PERF_MEM_LVLNUM_L4] = "L4",
		[PERF_MEM_LVLNUM_CXL] = "CXL",
		[PERF_MEM_LVLNUM_IO] = "I/O",
		[PERF_MEM_LVLNUM_ANY_CACHE] = "Any cache",
		[PERF_MEM_LVLNUM_LFB] = "LFB",
		[PERF_MEM_LVLNUM_RAM] = "RAM",
		[PERF_MEM_LVLNUM_PMEM] = "PMEM",
	};
	static const char *const snoop[] = { NULL, "None", "Hit", "Miss", "HitM" };
	static const char *const tlb[] = { NULL, NULL, NULL, "L1", "L2", "Walker", "Fault" };
	unsigned l = bits(data_src, PERF_MEM_LVL_SHIFT, 14);
	unsigned num = bits(data_src, PERF_MEM_LVLNUM_SHIFT, 4);
	unsigned snp = bits(data_src, PERF_MEM_SNOOP_SHIFT, 5);
	unsigned snpx = bits(data_src, PERF_MEM_SNOOPX_SHIFT, 2);
	unsigned lck = bits(data_src, PERF_MEM_LOCK_SHIFT, 2);
	unsigned t = bits(data_src, PERF_MEM_TLB_SHIFT, 7);
	unsigned blk = bits(data_src, PERF_MEM_BLK_SHIFT, 3);
	size_t at = 0, start;

	if (!len)
		return buf;
	buf[0] = '\0';
	start = at;
	/* the level's own names say "Remote" (REM_RAM1, REM_CCE1...): only a level number needs it */
	at = join(buf, at, len, l & ~7u, lvl, 14);
	if (at == start && num && lvlnum[num]) {
		if (bits(data_src, PERF_MEM_REMOTE_SHIFT, 1))
			at = add(buf, at, len, "Remote ");
		at = add(buf, at, len, lvlnum[num]);
	}
	if (at == start)
		at = add(buf, at, len, "N/A");
	if (l & PERF_MEM_LVL_HIT)
		at = add(buf, at, len, " hit");
	if (l & PERF_MEM_LVL_MISS)
		at = add(buf, at, len, " miss");
	if (snp & ~1u || snpx & PERF_MEM_SNOOPX_FWD) {
		at = add(buf, at, len, "|SNP ");
		start = at;
		at = join(buf, at, len, snp & ~1u, snoop, 5);
		if (snpx & PERF_MEM_SNOOPX_FWD)
			at = add(buf, at, len, at == start ? "Fwd" : " or Fwd");
	}
	if (t & ~1u) {
		at = add(buf, at, len, "|TLB ");
		start = at;
		at = join(buf, at, len, t & ~7u, tlb, 7);
		if (at == start)
			at = add(buf, at, len, "N/A");
		if (t & PERF_MEM_TLB_HIT)
			at = add(buf, at, len, " hit");
		if (t & PERF_MEM_TLB_MISS)
			at = add(buf, at, len, " miss");
	}
	if (lck & ~1u)
		at = add(buf, at, len, lck & PERF_MEM_LOCK_LOCKED ? "|LCK Yes" : "|LCK No");
	if (blk & ~1u) {
		at = add(buf, at, len, "|BLK");
		if (blk & PERF_MEM_BLK_DATA)
			at = add(buf, at, len, " Data");
		if (blk & PERF_MEM_BLK_ADDR)
			at = add(buf, at, len, " Addr");
	}
	return buf;
}

static const struct rt_col cpu_key = RT_COL("cpu", "CPU", RT_U64, RT_UNIT_NONE, 3, 0);

struct memlat *memlat__new(bool perins, uint64_t than)
{
	struct rt_col src_keys[2], ins_keys[3];
	struct memlat *m = calloc(1, sizeof(*m));
	int n = 0, k = 0;

	if (!m)
		return NULL;
	m->perins = perins;
	if (perins)
		src_keys[n++] = ins_keys[k++] = cpu_key;
	src_keys[n++] = (struct rt_col)RT_COL("data_source", "DATA SOURCE", RT_STR, RT_UNIT_NONE,
					      40, RT_LEFT);
	ins_keys[k++] = (struct rt_col)RT_COL("ip", "IP", RT_HEX, RT_UNIT_NONE, 18, 0);
	ins_keys[k++] =
		(struct rt_col)RT_COL("symbol", "INSTRUCTION", RT_STR, RT_UNIT_NONE, 32, RT_LEFT);
	m->src = lat_table__new("", NULL, LAT_PLAIN | LAT_LOG2);
	m->ins = lat_table__new("", NULL, LAT_PLAIN);
	if (!m->src || !m->ins || lat_table__set_keys(m->src, src_keys, n) ||
	    lat_table__set_keys(m->ins, ins_keys, k)) {
		memlat__delete(m);
		return NULL;
	}
	lat_table__set_than(m->src, than);
	lat_table__set_than(m->ins, than);
	return m;
}

void memlat__delete(struct memlat *m)
{
	if (!m)
		return;
	lat_table__delete(m->src);
	lat_table__delete(m->ins);
	free(m);
}

int memlat__add(struct memlat *m, uint32_t cpu, uint64_t data_src, uint64_t ip, const char *func,
		uint64_t off, uint64_t weight)
{
	uint64_t inst = m->perins ? cpu : 0;
	struct lat_row *r;
	struct rt_val v[3];
	char src[160], sym[288];
	int n = 0;

	m->samples++;
	r = lat_table__row2(m->src, data_src, inst, 0, NULL);
	if (!r)
		return -ENOMEM;
	if (m->perins)
		v[n++] = (struct rt_val){ .u = cpu };
	v[n++] = (struct rt_val){ .s = memlat__src_text(data_src, src, sizeof(src)) };
	if (lat_row__set_keys(m->src, r, v) || lat_table__record(m->src, r, weight, NULL))
		return -ENOMEM;

	r = lat_table__row2(m->ins, ip, inst, 0, NULL);
	if (!r)
		return -ENOMEM;
	n = 0;
	if (m->perins)
		v[n++] = (struct rt_val){ .u = cpu };
	v[n++] = (struct rt_val){ .u = ip };
	if (func)
		snprintf(sym, sizeof(sym), "%s+0x%llx", func, (unsigned long long)off);
	else
		snprintf(sym, sizeof(sym), "[unknown]");
	v[n++] = (struct rt_val){ .s = sym };
	if (lat_row__set_keys(m->ins, r, v) || lat_table__record(m->ins, r, weight, NULL))
		return -ENOMEM;
	return 0;
}

uint64_t memlat__samples(const struct memlat *m)
{
	return m->samples;
}

void memlat__emit(struct memlat *m, struct rt_sink *by_src, struct rt_sink *by_ins)
{
	if (by_src)
		lat_table__emit(m->src, by_src);
	if (by_ins)
		lat_table__emit(m->ins, by_ins);
}

void memlat__print_buckets(struct memlat *m, FILE *fp)
{
	lat_table__print_log2(m->src, fp, NULL, "cycles");
}

void memlat__reset(struct memlat *m)
{
	lat_table__reset(m->src);
	lat_table__reset(m->ins);
	m->samples = 0;
}
