/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory access latency from PEBS samples (ldlat-loads, ldlat-stores): each
 * sample's weight (the access's latency in core cycles) under its data
 * source (perf_mem_data_src: the level that served it, snoop, TLB, lock)
 * and under its instruction (the ip, as "function+0xoff"), with a log2
 * histogram of the latencies of each data source (the buckets).  Per CPU
 * with @perins.  The tables are lat_tables of plain numbers (cycles):
 *
 *   DATA SOURCE                       calls   total  min  avg  p50 ... max  >100
 *   L1 hit|SNP None|TLB L1 or L2 hit    900    9000   ...
 *   Local RAM hit|SNP Miss|TLB L2 miss   10    4000   ...
 */
#ifndef PP_MEMLAT_H
#define PP_MEMLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * @data_src in perf's words: "L1 hit", "L3 miss", "Remote Cache (1 hop)
 * hit", "RAM hit" (a level number), then "|SNP None", "|SNP HitM", "|TLB
 * L1 or L2 hit", "|LCK Yes", "|BLK Data" where the source says; "N/A" when
 * it says nothing of the level.  Returns @buf.
 */
const char *memlat__src_text(uint64_t data_src, char *buf, size_t len);

struct memlat;
struct rt_sink;

/*
 * @perins: rows per CPU.  @than (cycles, 0: none): a column of the samples
 * above it.  NULL when out of memory.
 */
struct memlat *memlat__new(bool perins, uint64_t than);
void memlat__delete(struct memlat *m);

/*
 * A sample on @cpu: @weight cycles of latency, served from @data_src, by
 * the instruction at @ip named @func (NULL: unresolved) @off bytes into
 * it.  0 or -ENOMEM.
 */
int memlat__add(struct memlat *m, uint32_t cpu, uint64_t data_src, uint64_t ip, const char *func,
		uint64_t off, uint64_t weight);
/* Samples added since the last reset. */
uint64_t memlat__samples(const struct memlat *m);

/*
 * The tables to sinks @by_src and @by_ins (NULL: not that one): rows by
 * data source (JSON "type":"row", "data_source", the statistics in
 * cycles, "hist"), then by instruction ("ip", "symbol").
 */
void memlat__emit(struct memlat *m, struct rt_sink *by_src, struct rt_sink *by_ins);
/* Each data source's latency buckets (text; JSON has them in the rows). */
void memlat__print_buckets(struct memlat *m, FILE *fp);
/* After an interval: the rows start again. */
void memlat__reset(struct memlat *m);

#endif
