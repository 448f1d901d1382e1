/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dynamic probes in -e: kprobe:, kretprobe:, uprobe:, uretprobe:, usdt:.
 *
 * A probe is opened through the kernel's perf PMU for it (the "kprobe" and
 * "uprobe" PMUs): nothing is written to tracefs, nothing outlives us.  Its
 * arguments come from the registers the sample carries (the ABI argument
 * registers at a function's entry, %rax at its return, a USDT note's
 * operands), so arg1..arg6 and retval work in filters, keys and
 * expressions.  Only a typed fetch (arg1=string: memory read by the kernel
 * at the probe) or a USDT operand in memory needs a tracefs dynamic event:
 * it is created in a group named for this process (perf_prof_PID), removed
 * when the session ends, and groups of dead perf-prof processes are
 * removed before ours is made.  Stop signals are held while such events
 * exist, so a Ctrl-C cannot leave them behind.
 *
 * Where a user probe goes (the ELF file, the function's offset, the USDT
 * notes) is decided by a resolver the symbol layer gives
 * (session__set_probe_resolver); the engine knows no ELF.
 */
#ifndef PP_PROBE_H
#define PP_PROBE_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/evspec.h"
#include "engine/sample.h"

struct session;
struct evsel;
struct field;

enum probe_arg_kind {
	PROBE_ARG_REG, /* the low @size bytes of register @reg */
	PROBE_ARG_IMM, /* the constant @value */
	PROBE_ARG_MEM, /* memory at @value(%reg) (or at file offset @value: file_rel) */
};

struct probe_arg {
	enum probe_arg_kind kind;
	unsigned char size; /* 1, 2, 4, 8 */
	bool is_signed;
	signed char reg;     /* PERF_REG_X86_*; -1: none */
	signed char index;   /* MEM: an index register (cannot be fetched); -1: none */
	unsigned char scale; /* MEM with an index */
	bool file_rel;	     /* MEM at a file offset (a %rip-relative operand) */
	s64 value;	     /* IMM: the constant; MEM: displacement or file offset */
};

#define PROBE_MAX_ARGS 12

/* One place a user probe resolved to (a USDT probe may have several). */
struct probe_site {
	char *path;	    /* the ELF file the uprobe is placed in */
	char *symbol;	    /* the function, or "provider:name", for messages */
	u64 vaddr;	    /* its address in the file (for display) */
	u64 offset;	    /* its file offset: what the kernel takes */
	u64 ref_ctr_offset; /* a USDT semaphore's file offset, 0 if none */
	u64 ref_ctr_vaddr;  /* its address in the file (for display) */
	int nr_args;	    /* USDT: its operands; -1: a function (arg1..arg6 by the ABI) */
	struct probe_arg args[PROBE_MAX_ARGS];
};

void probe_sites__free(struct probe_site *sites, int nr);

/*
 * A USDT operand as uprobe_events fetches it, "FETCH:TYPE" ("%di:s32",
 * "-16(%bp):s64", "\5:u32", "@+0x4010:u64") into @buf.  0, -EOPNOTSUPP
 * (memory with an index register, which the kernel cannot fetch) or
 * -E2BIG.
 */
int probe_arg__fetch(const struct probe_arg *a, char *buf, size_t len);

/*
 * The resolver of user probes: the sites of @spec (uprobe:, uretprobe:,
 * usdt:), for the session's targets (-p: through the process's own files).
 * Returns 0 with *@nr > 0, or -errno with the session's message set (a
 * usage error for what the command line names wrong: no such file or
 * function).
 */
typedef int (*probe_resolve_fn)(struct session *s, const struct ev_spec *spec,
				struct probe_site **sites, int *nr);
void session__set_probe_resolver(struct session *s, probe_resolve_fn fn);

/* Whether this kernel has the perf PMU for kernel (false: user) probes. */
bool probe__supported(bool kernel);

/* The x86-64 perf register number of pt_regs name @name ("di", "r8"), or -1. */
int probe__reg_by_name(const char *name);
const char *probe__reg_name(int reg);

/*
 * Add the events of a probe spec (engine use: session__add_spec).
 * Returns the number added (> 0) or -errno with the message set.
 */
int probe__add_spec(struct session *s, struct ev_spec *spec, const void *evsel_conf);

/*
 * The arguments of a probe event as fields: arg1..argN and retval read
 * from the sample's registers.  0, or -ENOENT (not a probe, no such
 * argument: @why, if given, says why).
 */
int probe__field(const struct evsel *ev, const char *name, struct field *f, const char **why);

/* Print a PMU probe event's payload: "(0xADDR) arg1=0x.. ..." or "(0xFN <- 0xRET) retval=..". */
void probe__print(const struct evsel *ev, const struct sample *smp, FILE *fp);

/* After a tracefs probe's own print: the arguments its format lacks, from the registers. */
void probe__print_regs(const struct evsel *ev, const struct sample *smp, FILE *fp);

/*
 * --json: the same as members of @j's open object: a PMU probe's
 * __probe_ip (a return's __probe_func and __probe_ret_ip) and arguments;
 * after a tracefs probe's own fields, the arguments its format lacks.
 * Addresses and what the text prints in hex are "0x..." strings.
 */
struct json;
void probe__json(const struct evsel *ev, const struct sample *smp, struct json *j);
void probe__json_regs(const struct evsel *ev, const struct sample *smp, struct json *j);

/* The probe of an event (a copy of @site): what add_spec gives an evsel, and tests. */
struct probe *probe__new(enum ev_probe kind, const struct probe_site *site);
/* Teardown of an event's probe. */
void probe__free(struct evsel *ev);
/* Remove the tracefs events of this session (after its perf events are closed). */
void probe__remove_all(struct session *s);
/*
 * Remove the tracefs probes of perf-prof runs that are gone (SIGKILL, a
 * crash): groups perf_prof_PID whose PID is no perf-prof.  Every run does
 * it at start, when tracefs is mounted.  A perf-prof of another PID
 * namespace sharing this tracefs looks gone: the kernel keeps a probe in
 * use (EBUSY), so only one made and not yet opened, or closed and not yet
 * removed, could go.  Returns how many were removed; their "GROUP/EVENT" names,
 * space-separated, in @groups (@len bytes, may be NULL).
 */
int probe__remove_stale(char *groups, size_t len);
/* The same, once per session (its start, or its first probe): -v names them. */
void probe__cleanup_stale(struct session *s);

#endif
