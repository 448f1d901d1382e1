/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tracepoint's fields typed once from its format (libtraceevent's parse
 * of it), for every consumer that turns a record into values: --json
 * (fields_json.c), sql's columns, python's attributes.
 *
 *   - integers of 1, 2, 4 or 8 bytes: EVF_INT where the format says
 *     signed, else EVF_UINT; "bool" EVF_BOOL;
 *   - pointers and the integers the print format shows in hex (%p, %x,
 *     %lx: addresses, masks, syscall arguments): EVF_HEX;
 *   - char arrays, fixed or __data_loc / __rel_loc: EVF_STR (up to the NUL);
 *   - other arrays of 1, 2, 4 or 8-byte elements: EVF_ARR (each element
 *     of kind @elem: EVF_INT, EVF_UINT or EVF_HEX);
 *   - anything else (a struct, a bitmask): EVF_BYTES.
 *
 * The common_* fields come first, marked @common (JSON leaves them out:
 * the record's pid, cpu and time are members of their own).
 */
#ifndef PP_EVFIELDS_H
#define PP_EVFIELDS_H

#include <stdbool.h>

#include "engine/session.h"

enum evf_kind { EVF_UINT, EVF_INT, EVF_HEX, EVF_BOOL, EVF_STR, EVF_ARR, EVF_BYTES };

struct evf {
	const char *name; /* the format's (lives as long as the session) */
	enum evf_kind kind, elem;
	int offset, size, esize;
	bool dyn, rel; /* __data_loc, __rel_loc */
	bool common;   /* a common_* field */
	bool sgn;      /* signed in the format: an EVF_HEX one (a syscall's ret) too */
};

struct evfields {
	struct evf *f;
	int n;
};

/*
 * The fields of @ev, worked out on first use and kept with it; NULL for
 * an event without a tracepoint format (a PMU probe, a counter, a row of
 * an inner profiler) or out of memory.
 */
const struct evfields *evsel__evfields(struct evsel *ev);

/* The field named @name of @fs, or NULL. */
const struct evf *evfields__find(const struct evfields *fs, const char *name);

/*
 * Where @f's value lies in @smp's record: 0 with its bytes at *@p, *@len
 * of them (a dynamic field's payload; an EVF_STR's up to its NUL), or -1
 * when the record cuts it short (its value is then null).
 */
int evf__bytes(const struct evf *f, const struct sample *smp, const unsigned char **p,
	       unsigned *len);

/* The integer of @size (1, 2, 4, 8) bytes at @p, sign-extended when @sgn. */
u64 evf__int(const unsigned char *p, int size, bool sgn);

/*
 * A field of an integer kind (EVF_UINT, INT, HEX, BOOL) read as a number,
 * sign-extended when the format says signed (EVF_INT, a signed EVF_HEX):
 * 0, or -1 (cut short).
 */
int evf__u64(const struct evf *f, const struct sample *smp, u64 *v);

/* engine use: the evsel's decoding made and released */
struct tep_event;
struct evfields *evfields__new(struct tep_event *ev);
void evfields__delete(struct evfields *fs);

#endif
