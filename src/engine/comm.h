/* SPDX-License-Identifier: GPL-2.0 */
/* pid -> comm, from COMM records, falling back to /proc/PID/comm. */
#ifndef PP_COMM_H
#define PP_COMM_H

#include <stddef.h>
#include <stdint.h>

struct comm_map;

struct comm_map *comm_map__new(void);
void comm_map__delete(struct comm_map *m);
void comm_map__set(struct comm_map *m, uint32_t pid, const char *comm);
/*
 * @pid exited at @time (event clock): its entry may go 10 s later, when
 * the table needs room.
 */
void comm_map__exit(struct comm_map *m, uint32_t pid, uint64_t time);
/* Entries held now, and (@evicted) entries of exited tasks dropped so far. */
size_t comm_map__count(const struct comm_map *m, size_t *evicted);
/* Never NULL: "<idle>" for pid 0, "<...>" when unknown. */
const char *comm_map__get(struct comm_map *m, uint32_t pid);

#endif
