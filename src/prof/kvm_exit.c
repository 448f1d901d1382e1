// SPDX-License-Identifier: GPL-2.0
/*
 * kvm-exit: how long the host takes to handle each VM exit, from
 * kvm:kvm_exit to the vCPU thread's next kvm:kvm_entry, one row per exit
 * reason (VMX and SVM names, read from the tracepoint's own format), per
 * vCPU thread too with --perins, with the share of exits taken in guest
 * kernel mode.  The latency engine is analysis/latency/multipoint.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency/multipoint.h"
#include "engine/kvm_reasons.h"
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
};

static void ke_row(void *arg, const struct multipoint_pair *p, struct multipoint_row *row)
{
	struct kvm_exit *ke = arg;
	u32 isa = (u32)(p->data[0] >> 32), code = (u32)p->data[0];

	row->key = p->data[0];
	row->group = 0;
	kvm_reasons__fmt(&ke->reasons, isa, code, row->label, sizeof(row->label));
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
	if (isa == ISA_VMX)
		reason &= 0xffff; /* the basic exit reason, without its flags */
	if ((data = multipoint__start(ke->mt, s, 0, smp->tid, ev, smp))) {
		data[0] = isa << 32 | (u32)reason;
		/* a 64-bit guest's kernel runs in the upper canonical half */
		data[1] = rip >> 63;
	}
}

/* kvm:kvm_entry closes it. */
static void ke_entry_ev(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	multipoint__end(((struct kvm_exit *)priv)->mt, s, 0, 1, smp->tid, ev, smp, 0);
}

static int ke_init(struct session *s, void *priv, const struct opt_set *opts)
{
	struct evsel_conf c = { .callchain = session__stacks_for_all(s) };
	struct kvm_exit *ke = priv;

	/* a vCPU that halts re-enters on whichever CPU wakes it */
	session__want_order(s);
	ke->mt = multipoint__new(s, &(struct multipoint_conf){
					    .who = "kvm-exit",
					    .nr_points = 2,
					    .lat = opt_set__get(opts, &lat_group_us),
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
	ke->exit = session__add_tp(s, "kvm", "kvm_exit", &c);
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
	return multipoint__ready(ke->mt, s);
}

static void ke_deinit(struct session *s, void *priv)
{
	struct kvm_exit *ke = priv;

	multipoint__done(ke->mt, s);
	ke->mt = NULL;
	kvm_reasons__clear(&ke->reasons);
}

const struct profiler prof_kvm_exit = {
	.name = "kvm-exit",
	.needs = (const char *const[]){ "tp:kvm:kvm_exit", "tp:kvm:kvm_entry", NULL },
	.desc = "VM exit handling latency per exit reason (and vCPU thread), kvm_exit -> kvm_entry",
	.synopsis = "perf-prof kvm-exit [--than TIME [-g]] [--perins] [--hist] [-i MS] [-C CPUS|-p "
		    "PID|-t TID]",
	.examples = "perf-prof kvm-exit -C 5-20 -i 1000 --than 1000   # exits over 1000us printed\n"
		    "  perf-prof kvm-exit -p $(pidof qemu-system-x86_64) --perins --hist\n"
		    "--than: a bare number is us, as the original's.",
	.groups = (const struct opt_group *const[]){ &lat_group_us, &target_group, &run_group,
						     &ring_group, &output_group, &stack_group,
						     &exclude_tp_group, NULL },
	.priv_size = sizeof(struct kvm_exit),
	.init = ke_init,
	.deinit = ke_deinit,
};
