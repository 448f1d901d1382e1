/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's side-band records (not samples, no task's lifecycle): a
 * kernel symbol registered or unregistered (BPF programs, JIT code, kprobe
 * trampolines), a BPF program loaded or unloaded, a cgroup created, kernel
 * text rewritten in place.  An event asks for them with evsel_conf.sideband
 * (SB_* bits); they reach the sideband hook of struct session_ops.
 */
#ifndef PP_SIDEBAND_H
#define PP_SIDEBAND_H

#include <stdbool.h>

#include "engine/sample.h"

/* evsel_conf.sideband: which records the event carries (attr.ksymbol, ...) */
#define SB_KSYMBOL 0x1
#define SB_BPF_EVENT 0x2
#define SB_CGROUP 0x4
#define SB_TEXT_POKE 0x8
#define SB_ALL (SB_KSYMBOL | SB_BPF_EVENT | SB_CGROUP | SB_TEXT_POKE)

/* One record, decoded; pointers point into the record (valid during the hook only). */
struct rec_sideband {
	u32 type; /* PERF_RECORD_KSYMBOL, _BPF_EVENT, _CGROUP or _TEXT_POKE */
	u32 pid, tid, cpu;
	u64 time; /* of its sample_id (0: none) */
	union {
		struct { /* KSYMBOL */
			u64 addr;
			u32 len;
			uint16_t ksym_type; /* PERF_RECORD_KSYMBOL_TYPE_* */
			bool unregister;
			const char *name;
		} ksym;
		struct {	       /* BPF_EVENT */
			uint16_t type; /* PERF_BPF_EVENT_PROG_LOAD or _UNLOAD (others: unknown) */
			u32 id;	       /* the program's id (bpftool prog show id N) */
			unsigned char tag[8];
		} bpf;
		struct { /* CGROUP */
			u64 id;
			const char *path; /* from the cgroup hierarchy's root */
		} cgroup;
		struct { /* TEXT_POKE */
			u64 addr;
			uint16_t old_len, new_len;
			const unsigned char *old_bytes, *new_bytes;
		} poke;
	};
};

/*
 * Decode @hdr, a side-band record whose event has @sample_type (its
 * sample_id trailer).  0, -ENOENT for a record of another type, or -EINVAL
 * when it is shorter than its fields say.
 */
int rec__sideband(const struct perf_event_header *hdr, u64 sample_type, struct rec_sideband *r);

/*
 * Which of @want (SB_*) this kernel gives: a dummy event of this thread is
 * opened with each bit (the attribute's validity is checked whatever the
 * target): 5.1 brought ksymbol and bpf_event, 5.7 cgroup, 5.9 text_poke.
 * Any other refusal (permissions) keeps the bit: the real open says why.
 */
unsigned sideband__supported(unsigned want);

/* The SB_* bit of record type @type, or 0. */
unsigned sideband__bit(u32 type);

#endif
