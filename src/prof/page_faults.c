// SPDX-License-Identifier: GPL-2.0
/*
 * page-faults: each page fault, with the faulting address, the ip that
 * faulted and (-g) its stack: the page-faults software event sampled at
 * every fault.  --exclude-user / --exclude-kernel keep the faults taken in
 * one mode; -N stops after so many.
 */
#include <errno.h>
#include <stdio.h>

#include "profiler.h"
#include "report/evline.h"
#include "report/rtable.h"
#include "sym/stack.h"
#include "report/outfile.h"

struct page_faults {
	struct evsel *ev;
};

static int pgf_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct stack_opts *st = opt_set__get(opts, &stack_group);
	const struct exclude_opts *ex = opt_set__get(opts, &exclude_group);
	struct page_faults *p = priv;
	struct evsel_conf c = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_PAGE_FAULTS,
		.sample_period = 1,
		.callchain = st && st->capture.cg != CG_NONE,
		.exclude_user = ex && ex->user,
		.exclude_kernel = ex && ex->kernel,
		.extra_sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR,
		.name = "page-faults",
	};

	if (c.exclude_user && c.exclude_kernel)
		return session__usage_err(s, "--exclude-user and --exclude-kernel leave nothing");
	/* the host's own faults: a guest's are its kernel's, not events here */
	if (ex && ex->host)
		return session__usage_err(s, "-G/--exclude-host: page-faults sees only the host's "
					     "faults, that leaves nothing");
	p->ev = session__add_event(s, &c);
	return p->ev ? 0 : -ENOMEM;
}

/* A fault: its event line in text, the event's head, addr and ip in JSON. */
static const struct rt_col fault_cols[] = {
	{ .type = RT_ROW },
	{ .type = RT_STR, .flags = RT_NO_JSON },
	{ .name = "addr", .type = RT_HEX, .flags = RT_NO_TEXT },
	{ .name = "ip", .type = RT_HEX, .flags = RT_NO_TEXT },
	EVL_STACK_COL,
};
static const struct rt_desc fault_desc = { .type = "event", .cols = fault_cols, .ncols = 5 };

static void pgf_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	FILE *out = session__event_out(s, priv);
	struct rt_val v[EVL_NCOLS];
	struct rt_stack stk;
	char text[64];

	if (!out)
		return;
	evline__row(v, &stk, s, NULL, smp, session__comm(s, smp->tid), ev->name);
	snprintf(text, sizeof(text), "addr 0x%llx ip 0x%llx", (unsigned long long)smp->addr,
		 (unsigned long long)smp->ip);
	evline__emit(s, out, &fault_desc,
		     (struct rt_val[]){ { .row = { &evline_head, v } },
					{ .s = text },
					{ .u = smp->addr },
					{ .u = smp->ip },
					v[EVL_STACK] });
}

static void pgf_deinit(struct session *s, void *priv)
{
	(void)priv;
	/* --json: the CLI writes the lost record */
	if (session__started(s) && !session__json(s))
		session__print_lost(s, session__out(s));
}

const struct profiler prof_page_faults = {
	.name = "page-faults",
	.needs = (const char *const[]){ NULL },
	.desc = "each page fault: address, ip and stack",
	.synopsis = "perf-prof page-faults [-g] [--exclude-user|--exclude-kernel] [-N COUNT] "
		    "[-C CPUS|-p PID|-t TID|-- command]",
	.examples = "perf-prof page-faults -p 1234 -g -N 100   # 100 faults of 1234, with stacks\n"
		    "  perf-prof page-faults --exclude-user -C 0 # faults taken in the kernel on "
		    "CPU 0",
	.groups = (const struct opt_group *const[]){ &target_group, &ring_group, &run_group,
						     &output_group, &stack_group, &exclude_group,
						     NULL },
	.priv_size = sizeof(struct page_faults),
	.init = pgf_init,
	.ops = { .sample = pgf_sample },
	.deinit = pgf_deinit,
};
