// SPDX-License-Identifier: GPL-2.0
/* check's BPF rows: the program and map kinds, BTF, JIT, and the profilers on the BPF back end. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analysis/cpu/bpf_sfilter.h"
#include "cmd/check_int.h"
#include "engine/bpf.h"
#include "profiler.h"
#include "util/json.h"

/* The program types the BPF back end attaches with, cheapest first (engine/bpf.h). */
static const enum feat_bpf_prog bpf_kinds[] = { FEAT_BPF_TRACEPOINT, FEAT_BPF_RAW_TP,
						FEAT_BPF_TP_BTF, FEAT_BPF_PERF_EVENT };
#define NR_BPF_KINDS (int)(sizeof(bpf_kinds) / sizeof(bpf_kinds[0]))

/* "ok" or "EPERM". */
static const char *okerr(int err)
{
	return err ? chk_ename(err) : "ok";
}

static void bpf_json(struct out *o, struct host *h, const char *result, const char *detail)
{
	struct json j;

	json__begin(&j, o->fp, "host");
	json__str(&j, "check", "BPF");
	json__str(&j, "result", result);
	json__str(&j, "detail", detail);
	json__obj(&j, "programs");
	for (int k = 0; k < NR_FEAT_BPF_PROGS; k++) {
		char key[32];

		snprintf(key, sizeof(key), "%s", features__bpf_prog_name((enum feat_bpf_prog)k));
		for (char *c = key; *c; c++)
			*c = *c == ' ' ? '_' : *c;
		json__str(&j, key, okerr(h->bpf_prog[k]));
	}
	json__close(&j);
	json__str(&j, "percpu_hash", okerr(h->bpf_hash));
	json__str(&j, "percpu_array", okerr(h->bpf_array));
	json__str(&j, "btf", okerr(h->btf));
	json__u64(&j, "btf_types", h->btf ? 0 : h->btf_types);
	if (h->jit >= 0)
		json__i64(&j, "jit", h->jit);
	else
		json__null(&j, "jit");
	if (h->unpriv_bpf >= 0)
		json__i64(&j, "unprivileged_bpf_disabled", h->unpriv_bpf);
	else
		json__null(&j, "unprivileged_bpf_disabled");
	json__str(&j, "why", h->bpf_why);
	json__end(&j);
}

/*
 * "tracepoint, raw_tp, tp_btf, perf_event programs load; per-CPU hash and
 * array maps; BTF (vmlinux, N types); JIT on": yes with all of them,
 * partial when tracepoint programs load but something is missing, no
 * when they do not (the BPF back end then is not used).
 */
void chk_row_bpf(struct out *o, struct host *h)
{
	char d[1024] = "", bad[256] = "";
	int nok = 0;
	bool all;

	for (int i = 0; i < NR_BPF_KINDS; i++) {
		int err = h->bpf_prog[bpf_kinds[i]];
		const char *name = features__bpf_prog_name(bpf_kinds[i]);

		if (!err)
			chk_cat(d, sizeof(d), "%s%s", nok++ ? ", " : "", name);
		else
			chk_cat(bad, sizeof(bad), ", %s: %s%s", name, chk_ename(err),
				bpf_kinds[i] == FEAT_BPF_TP_BTF && h->btf ? " (no BTF)" : "");
	}
	if (h->bpf_err) {
		/* why not, and nothing about the maps (refused alike) */
		snprintf(d, sizeof(d), "%s", h->bpf_why);
	} else {
		chk_cat(d, sizeof(d), " program%s load%s", nok > 1 ? "s" : "", nok > 1 ? "" : "s");
		chk_cat(d, sizeof(d), "%s", bad);
		if (!h->bpf_hash && !h->bpf_array)
			chk_cat(d, sizeof(d), "; per-CPU hash and array maps");
		else
			chk_cat(d, sizeof(d), "; per-CPU hash map: %s, per-CPU array: %s",
				okerr(h->bpf_hash), okerr(h->bpf_array));
	}
	if (!h->btf)
		chk_cat(d, sizeof(d), "; BTF (vmlinux, %u types)", h->btf_types);
	else
		chk_cat(d, sizeof(d), "; no BTF (/sys/kernel/btf/vmlinux: %s%s)", chk_ename(h->btf),
			h->btf == -ENOENT  ? ": kernel without CONFIG_DEBUG_INFO_BTF"
			: h->btf == -ESRCH ? ": not valid BTF for libbpf"
					   : "");
	if (h->jit > 0)
		chk_cat(d, sizeof(d), "; JIT on%s", h->jit > 1 ? " (debug)" : "");
	else if (h->jit == 0)
		chk_cat(d, sizeof(d),
			"; JIT off (net.core.bpf_jit_enable=0: programs are interpreted)");
	else if (h->jit == -ENOENT)
		chk_cat(d, sizeof(d), "; no JIT (kernel without CONFIG_BPF_JIT)");
	else
		chk_cat(d, sizeof(d), "; JIT: %s", chk_ename(h->jit));
	all = nok == NR_BPF_KINDS && !h->bpf_hash && !h->bpf_array && !h->btf && h->jit > 0;
	if (o->json) {
		bpf_json(o, h, h->bpf_err ? "no" : all ? "yes" : "partial", d);
		return;
	}
	chk_row(o, "BPF", h->bpf_err ? "no" : all ? "yes" : "partial", d);
	chk_more(o, "BPF_PROG_LOAD of each type: %s %s, %s %s, %s %s, %s %s, %s %s",
		 features__bpf_prog_name(FEAT_BPF_TRACEPOINT),
		 okerr(h->bpf_prog[FEAT_BPF_TRACEPOINT]), features__bpf_prog_name(FEAT_BPF_RAW_TP),
		 okerr(h->bpf_prog[FEAT_BPF_RAW_TP]), features__bpf_prog_name(FEAT_BPF_TP_BTF),
		 okerr(h->bpf_prog[FEAT_BPF_TP_BTF]), features__bpf_prog_name(FEAT_BPF_PERF_EVENT),
		 okerr(h->bpf_prog[FEAT_BPF_PERF_EVENT]), features__bpf_prog_name(FEAT_BPF_SOCKET),
		 okerr(h->bpf_prog[FEAT_BPF_SOCKET]));
	if (h->unpriv_bpf >= 0)
		chk_more(o, "kernel.unprivileged_bpf_disabled=%d", h->unpriv_bpf);
}

static bool has_group(const struct profiler *p, const struct opt_group *g)
{
	for (int k = 0; p->groups && p->groups[k]; k++)
		if (p->groups[k] == g)
			return true;
	return false;
}

/* Whether @p names its own use of BPF in its needs ("bpf?=..."): not a back end. */
static bool own_bpf_need(const struct profiler *p)
{
	for (int k = 0; p->needs && p->needs[k]; k++)
		if (!strncmp(p->needs[k], "bpf?", 4) || !strcmp(p->needs[k], "bpf"))
			return true;
	return false;
}

/*
 * Whether @p has the BPF back end (its groups include engine/bpf.h's
 * bpf_group); not one that takes it only for its sample filters
 * (analysis/cpu/bpf_sfilter.h: profile, hrtimer), whose results always
 * come from the ring (oncpu takes the filters too, for its slices), nor
 * one whose needs say what else it uses BPF for (breakpoint: the values).
 */
bool chk_has_bpf(const struct profiler *p)
{
	return has_group(p, &bpf_group) && !own_bpf_need(p) &&
	       (p->bpf_results || !has_group(p, &sfilter_group));
}

/* The profilers that use the BPF back end when the host allows it. */
void chk_row_bpf_back(struct out *o, struct host *h)
{
	char names[512] = "", d[1024];
	struct json j;

	for (int i = 0; i < nr_profilers; i++)
		if (chk_has_bpf(profilers[i]))
			chk_cat(names, sizeof(names), "%s%s", names[0] ? ", " : "",
				profilers[i]->name);
	if (!names[0])
		snprintf(d, sizeof(d), "no profiler of this build has it");
	else if (!h->bpf_err)
		snprintf(d, sizeof(d), "%s (by default; the ring path: --no-bpf)", names);
	else
		snprintf(d, sizeof(d), "unavailable here: %s - the ring path: %s", h->bpf_why,
			 names);
	for (int i = 0, n = 0; i < nr_profilers; i++)
		if (has_group(profilers[i], &sfilter_group) && !chk_has_bpf(profilers[i]))
			chk_cat(d, sizeof(d), "%s%s",
				n++ ? ", " : "; sample filters: ", profilers[i]->name);
	for (int i = 0, n = 0; i < nr_profilers; i++)
		if (has_group(profilers[i], &bpf_group) && own_bpf_need(profilers[i]))
			chk_cat(d, sizeof(d), "%s%s",
				n++ ? ", " : "; reads at each sample: ", profilers[i]->name);
	if (!o->json) {
		chk_row(o, "BPF back end", !names[0] ? "none" : h->bpf_err ? "no" : "yes", d);
		return;
	}
	json__begin(&j, o->fp, "host");
	json__str(&j, "check", "BPF back end");
	json__str(&j, "result", !names[0] ? "none" : h->bpf_err ? "no" : "yes");
	json__str(&j, "detail", d);
	json__arr(&j, "profilers");
	for (int i = 0; i < nr_profilers; i++)
		if (chk_has_bpf(profilers[i]))
			json__str(&j, NULL, profilers[i]->name);
	json__end(&j);
}
