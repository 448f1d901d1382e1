/* SPDX-License-Identifier: GPL-2.0 */
/* pid -> comm, from COMM records, falling back to /proc/PID/comm. */
#ifndef PP_COMM_H
#define PP_COMM_H

#include <stddef.h>
#include <stdint.h>

struct comm_map;

struct comm_map *comm_map__new(void);
void comm_map__delete(struct comm_map *m);
/* @pid is named @comm, from the start of its life (a snapshot, /proc). */
void comm_map__set(struct comm_map *m, uint32_t pid, const char *comm);
/*
 * @pid is named @comm from @time on (event clock): a COMM or FORK record.
 * Records may come out of time order (several ring buffers): the names are
 * kept by time, and one set twice is set once.
 */
void comm_map__set_at(struct comm_map *m, uint32_t pid, const char *comm, uint64_t time);
/*
 * @pid exited at @time (event clock): its entry may go 10 s later, when
 * the table needs room.
 */
void comm_map__exit(struct comm_map *m, uint32_t pid, uint64_t time);
/* Entries held now, and (@evicted) entries of exited tasks dropped so far. */
size_t comm_map__count(const struct comm_map *m, size_t *evicted);
/* Never NULL: "<idle>" for pid 0, "<...>" when unknown.  The latest name. */
const char *comm_map__get(struct comm_map *m, uint32_t pid);
/* The name @pid had at @time (its first known name if @time is earlier). */
const char *comm_map__get_at(struct comm_map *m, uint32_t pid, uint64_t time);
/* The same from what the map holds only (no /proc): NULL when @pid is unknown. */
const char *comm_map__peek_at(struct comm_map *m, uint32_t pid, uint64_t time);
/*
 * @pid is named @comm at @time by the kernel itself (a tracepoint's comm
 * field): kept from @time on unless the name held then already is it, or
 * is it with /proc's "-suffix" (a kworker's "kworker/0:1-events").
 */
void comm_map__seen(struct comm_map *m, uint32_t pid, const char *comm, int len, uint64_t time);

#endif
