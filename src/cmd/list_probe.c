// SPDX-License-Identifier: GPL-2.0
/*
 * "perf-prof list [-v] PROBE": what a dynamic probe resolves to before it
 * is used: the file, the address and file offset, and the arguments it
 * gives (a function's ABI registers, a return value, a USDT note's
 * operands and whether the kernel must fetch them from memory).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/list_probe.h"
#include "engine/evspec.h"
#include "engine/features.h"
#include "engine/probe.h"
#include "sym/probe_res.h"

bool list_probe__is_probe(const char *arg)
{
	static const char *const kinds[] = { "kprobe:", "kretprobe:", "uprobe:", "uretprobe:",
					     "usdt:" };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strncmp(arg, kinds[i], strlen(kinds[i])))
			return true;
	return false;
}

static void print_arg(int i, const struct probe_arg *a)
{
	const char *r = probe__reg_name(a->reg);

	printf("    arg%-2d %c%-2d  ", i + 1, a->is_signed ? 's' : 'u', a->size * 8);
	switch (a->kind) {
	case PROBE_ARG_IMM:
		printf("constant %lld\n", (long long)a->value);
		break;
	case PROBE_ARG_REG:
		printf("register %%%s (read from the sample)\n", r ? r : "?");
		break;
	case PROBE_ARG_MEM:
		if (a->file_rel)
			printf("memory at @+0x%llx (file-relative)", (unsigned long long)a->value);
		else
			printf("memory at %+lld(%%%s)", (long long)a->value, r ? r : "?");
		printf(a->index >= 0 ? " with an index (not fetchable)\n"
				     : " (fetched by the kernel: a tracefs event)\n");
		break;
	}
}

static void print_site(const struct ev_spec *spec, const struct probe_site *st)
{
	static const char *const abi[] = { "di", "si", "dx", "cx", "r8", "r9" };

	printf("%s:%s\n", ev_probe__name(spec->probe), st->symbol);
	printf("  file     %s\n", st->path);
	printf("  address  0x%llx (file offset 0x%llx)\n", (unsigned long long)st->vaddr,
	       (unsigned long long)st->offset);
	if (st->ref_ctr_offset)
		printf("  semaphore at file offset 0x%llx (set while probed)\n",
		       (unsigned long long)st->ref_ctr_offset);
	printf("  arguments:\n");
	if (ev_probe__is_return(spec->probe)) {
		printf("    retval        register %%ax (read from the sample); retval=TYPE "
		       "fetches what it points to\n");
	} else if (st->nr_args < 0) {
		for (int i = 0; i < 6; i++)
			printf("    arg%d          register %%%s (read from the sample)\n", i + 1,
			       abi[i]);
		printf("    argN=TYPE fetches what one points to (string, u32, ...)\n");
	} else if (!st->nr_args) {
		printf("    none\n");
	}
	for (int i = 0; i < st->nr_args; i++)
		print_arg(i, &st->args[i]);
}

int list_probe(const char *arg)
{
	struct ev_spec *specs = NULL;
	struct probe_site *sites = NULL;
	struct ev_spec_err perr;
	char path[PATH_MAX], err[512];
	int nr = 0, n = 0, ret;

	ret = evspec__parse(arg, &specs, &nr, &perr);
	if (ret) {
		fprintf(stderr, "perf-prof list: '%s': %s\n", arg, perr.msg);
		return 2;
	}
	if (nr != 1 || specs[0].probe == EV_TP) {
		fprintf(stderr, "perf-prof list: '%s': one probe at a time\n", arg);
		evspec__free(specs, nr);
		return 2;
	}
	if (!ev_probe__is_user(specs[0].probe)) {
		char why[256];

		ret = probe__supported(true) ? 0 : 1;
		if (ret)
			printf("%s: %s\n", arg, features__why_not(FEAT_KPROBES, why, sizeof(why)));
		else
			printf("%s:%s+%llu: a kernel probe (PMU kprobe); arguments arg1..arg6 "
			       "(%%di %%si %%dx %%cx %%r8 %%r9)%s\n",
			       ev_probe__name(specs[0].probe), specs[0].name, specs[0].offset,
			       ev_probe__is_return(specs[0].probe) ? ", retval (%ax)" : "");
		evspec__free(specs, nr);
		return ret;
	}
	ret = probe_res__file(&specs[0], 0, NULL, path, sizeof(path), err, sizeof(err));
	if (!ret)
		ret = probe_res__sites(&specs[0], path, &sites, &n, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "perf-prof list: %s\n", err);
		evspec__free(specs, nr);
		return ret == -ENOMEM ? 1 : 2;
	}
	for (int i = 0; i < n; i++)
		print_site(&specs[0], &sites[i]);
	probe_sites__free(sites, n);
	evspec__free(specs, nr);
	return 0;
}
