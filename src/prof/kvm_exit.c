// SPDX-License-Identifier: GPL-2.0
/*
 * kvm-exit: how long the host takes to handle each VM exit, from
 * kvm:kvm_exit to the vCPU thread's next kvm:kvm_entry, one row per exit
 * reason (VMX and SVM names, read from the tracepoint's own format), per
 * vCPU thread too with --perins, with the share of exits taken in guest
 * kernel mode.  The latency engine is analysis/latency/multipoint.h.
 *
 * On the BPF back end (the default where it can) the pairs are timed in
 * the kernel by multipoint_bpf's programs, keyed by the thread, each
 * exit's row (its reason, kvm_reasons__label) and guest-kernel mark taken
 * at the exit by expressions on the tracepoint's fields: the rows are the
 * ring path's.  --than's slow exits are copied out with both events.  Also under the original's names bpf:kvm-exit and
 * bpf:kvm_exit (cli/main.c), with its --threshold, --than's other name.
 * HLT exits are the guest idling until an interrupt: their rows count them,
 * --than does not print them (the original judged them by their run
 * delay; rundelay -p QEMU's_PID measures that).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency/multipoint.h"
#include "analysis/latency/multipoint_bpf.h"
#include "engine/bpf.h"
#include "engine/kvm_reasons.h"
#include "expr/expr.h"
#include "profiler.h"
#include "report/outfile.h"
#include "sym/stack.h"

#define ISA_VMX KVM_ISA_VMX
#define ISA_SVM KVM_ISA_SVM

struct kvm_exit {
	struct multipoint *mt;
	struct evsel *exit, *entry;
	struct field reason, isa, rip;
	struct kvm_reasons reasons; /* the names of the tracepoint's format */
	struct mpbpf *bpf;	    /* on the BPF back end */
	struct expr *label, *mark;  /* its row and mark, in the kernel */
	const char *filter;	    /* --filter: on kvm:kvm_exit only */
};

/* The row of an exit's label (kvm_reasons__label): its reason's name; HLT not printed slow. */
static void ke_label_row(void *arg, u64 label, struct multipoint_row *row)
{
	struct kvm_exit *ke = arg;

	row->key = label;
	row->group = 0;
	kvm_reasons__fmt(&ke->reasons, (u32)(label >> 32), (u32)label, row->label,
			 sizeof(row->label));
	row->quiet = kvm_reasons__is_hlt(label);
}

static void ke_row(void *arg, const struct multipoint_pair *p, struct multipoint_row *row)
{
	ke_label_row(arg, p->data[0], row);
	row->mark = p->data[1];
}

/* kvm:kvm_exit opens the pair of its vCPU thread, with its reason and the guest's mode. */
static void ke_exit_ev(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct kvm_exit *ke = priv;
	u64 reason, isa = ISA_VMX, rip = 0, *data;

	if (field__u64(&ke->reason, smp, &reason))
		return;
	if (ke->isa.valid)
		field__u64(&ke->isa, smp, &isa);
	field__u64(&ke->rip, smp, &rip);
	if ((data = multipoint__start(ke->mt, s, 0, smp->tid, ev, smp))) {
		data[0] = kvm_reasons__label((u32)isa, (u32)reason);
		/* a 64-bit guest's kernel runs in the upper canonical half */
		data[1] = rip >> 63;
	}
}

/* kvm:kvm_entry closes it. */
static void ke_entry_ev(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	multipoint__end(((struct kvm_exit *)priv)->mt, s, 0, 1, smp->tid, ev, smp, 0);
}

/*
 * The BPF back end if the host and the request allow it (1), else the ring
 * path (0, said under -v; --bpf: a usage error), or -errno.
 */
static int ke_try_bpf(struct session *s, struct kvm_exit *ke, const struct opt_set *opts,
		      const struct lat_opts *lo)
{
	char err[256];

	if (lo->than && lo->detail)
		return bpf_back__fallback(s, opts,
					  "--detail: the events around each slow exit are read "
					  "from the ring buffer");
	if (lo->heatmap)
		return bpf_back__fallback(s, opts,
					  "--heatmap: each exit's time is written from the ring "
					  "buffer");
	if (session__stacks_for_all(s) && !lo->than)
		return bpf_back__fallback(
			s, opts, "-g without --than: stacks are read from the ring buffer");
	ke->label = expr__compile(ke->isa.valid ? KVM_LABEL_EXPR : KVM_LABEL_EXPR_VMX, ke->exit,
				  err, sizeof(err));
	ke->mark = ke->label ? expr__compile(KVM_MARK_EXPR, ke->exit, err, sizeof(err)) : NULL;
	if (!ke->mark)
		return bpf_back__fallback(s, opts, "kvm:kvm_exit's reason: %s", err);
	return mpbpf__new(s, opts,
			  &(struct mpbpf_conf){
				  .mt = ke->mt,
				  .nr_points = 2,
				  .perins = lo->perins,
				  .key_mode = MPBPF_KEY_THREAD,
				  .events =
					  (const struct mpbpf_event[]){
						  { .ev = ke->exit,
						    .point = 0,
						    .label = ke->label,
						    .mark = ke->mark },
						  { .ev = ke->entry, .point = 1 },
					  },
				  .nr_events = 2,
				  .than = lo->than,
				  .row = ke_label_row,
				  .row_arg = ke,
				  .quiet = (const u64[]){ KVM_LABEL_HLT_VMX, KVM_LABEL_HLT_SVM },
				  .nr_quiet = 2,
			  },
			  &ke->bpf);
}

static int ke_init(struct session *s, void *priv, const struct opt_set *opts)
{
	struct evsel_conf c = { .callchain = session__stacks_for_all(s) };
	const struct lat_opts *lo = opt_set__get(opts, &lat_group_kvm);
	struct kvm_exit *ke = priv;

	/* a vCPU that halts re-enters on whichever CPU wakes it */
	session__want_order(s);
	ke->mt = multipoint__new(s, &(struct multipoint_conf){
					    .who = "kvm-exit",
					    .nr_points = 2,
					    .lat = lo,
					    .key_title = "TID",
					    .row_title = "EXIT REASON",
					    .row_width = 20,
					    .mark_title = "guest-kernel",
					    .json_row = "exit_reason",
					    .row = ke_row,
					    .arg = ke,
					    .exit_forgets = true,
					    .see_by_thread = true,
				    });
	if (!ke->mt)
		return -EINVAL;
	multipoint__name(ke->mt, 0, "kvm:kvm_exit", "kvm_exit");
	multipoint__name(ke->mt, 1, "kvm:kvm_entry", "kvm_entry");
	/*
	 * --filter on the exit only: an exit it drops opens no pair, and the
	 * entry after it finds none open (the exits before were closed)
	 */
	ke->exit = session__add_tp(
		s, "kvm", "kvm_exit",
		&(struct evsel_conf){ .callchain = c.callchain, .filter = ke->filter });
	ke->entry = ke->exit ? session__add_tp(s, "kvm", "kvm_entry", &c) : NULL;
	if (!ke->exit || !ke->entry)
		return -EINVAL;
	evsel__set_handler(ke->exit, ke_exit_ev, ke);
	evsel__set_handler(ke->entry, ke_entry_ev, ke);
	if (evsel__field(ke->exit, "exit_reason", &ke->reason) ||
	    evsel__field(ke->exit, "guest_rip", &ke->rip))
		return session__set_err(
			s, -EINVAL, "kvm:kvm_exit lacks a field it needs (exit_reason, guest_rip)");
	/* older kernels have no isa field (valid false): VMX then */
	evsel__field(ke->exit, "isa", &ke->isa);
	/* the names the kernel prints: its format's first table is VMX's, the second SVM's */
	if (kvm_reasons__read(ke->exit->tp, &ke->reasons))
		return session__set_err(s, -ENOMEM, "out of memory");
	if (ke_try_bpf(s, ke, opts, lo) < 0)
		return -EINVAL;
	return multipoint__ready(ke->mt, s);
}

static void ke_deinit(struct session *s, void *priv)
{
	struct kvm_exit *ke = priv;

	mpbpf__finish(ke->bpf, s);
	multipoint__done(ke->mt, s);
	ke->mt = NULL;
	mpbpf__delete(ke->bpf);
	ke->bpf = NULL;
	expr__free(ke->label);
	expr__free(ke->mark);
	kvm_reasons__clear(&ke->reasons);
}

static const struct popt ke_opts[] = {
	{ .lname = "filter",
	  .argname = "FILTER",
	  .help = "only the exits that match this filter of kvm:kvm_exit's fields, e.g. "
		  "exit_reason==48 (in the kernel)",
	  POPT_BIND_STR(struct kvm_exit, filter) },
	{ 0 },
};

const struct profiler prof_kvm_exit = {
	.name = "kvm-exit",
	.needs = (const char *const[]){ "tp:kvm:kvm_exit", "tp:kvm:kvm_entry",
					"hwvirt?=kvm:kvm_exit never fires", NULL },
	.desc = "VM exit handling latency per exit reason (and vCPU thread), kvm_exit -> kvm_entry",
	.synopsis = "perf-prof kvm-exit [--filter FILTER] [--than TIME [-g]] [--perins] [--hist] "
		    "[-i MS] [-C CPUS|-p PID|-t TID] [--bpf|--no-bpf]",
	.examples =
		"perf-prof kvm-exit -C 5-20 -i 1000 --than 1000   # exits over 1000us printed\n"
		"  perf-prof kvm-exit -p $(pidof qemu-system-x86_64) --perins --hist\n"
		"  perf-prof kvm-exit --filter 'exit_reason==48' -i 1000   # EPT violations only\n"
		"  perf-prof bpf:kvm-exit -i 1000 --perins --detail --threshold 2ms   # the "
		"original's name\n"
		"--than: a bare number is us, as the original's.  Also named bpf:kvm-exit and "
		"bpf:kvm_exit.",
	.groups = (const struct opt_group *const[]){ &lat_group_kvm, &target_group, &run_group,
						     &ring_group, &output_group, &stack_group,
						     &exclude_tp_group, &bpf_group, NULL },
	.own = ke_opts,
	.aliases = (const char *const[]){ "bpf:kvm-exit", "bpf:kvm_exit", NULL },
	.priv_size = sizeof(struct kvm_exit),
	.init = ke_init,
	.deinit = ke_deinit,
};
