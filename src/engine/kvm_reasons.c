// SPDX-License-Identifier: GPL-2.0
/* VM exit reason names from kvm:kvm_exit's format: see kvm_reasons.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/kvm_reasons.h"
#include "engine/tp.h"

struct reader {
	struct kvm_reasons *kr;
	u32 isa;
	int err;
};

static void add(void *arg, unsigned long long value, const char *name)
{
	struct reader *rd = arg;
	struct kvm_reasons *kr = rd->kr;
	struct kvm_reason *r;

	if (rd->err)
		return;
	r = realloc(kr->r, (kr->nr + 1) * sizeof(*r));
	if (!r) {
		rd->err = -ENOMEM;
		return;
	}
	kr->r = r;
	r += kr->nr++;
	r->isa = rd->isa;
	r->code = (u32)value;
	snprintf(r->name, sizeof(r->name), "%s", name);
}

int kvm_reasons__read(const struct tep_event *ev, struct kvm_reasons *kr)
{
	struct reader rd = { .kr = kr, .isa = KVM_ISA_VMX };

	tp__print_symbols(ev, 0, add, &rd);
	rd.isa = KVM_ISA_SVM;
	tp__print_symbols(ev, 1, add, &rd);
	return rd.err;
}

void kvm_reasons__clear(struct kvm_reasons *kr)
{
	free(kr->r);
	kr->r = NULL;
	kr->nr = 0;
}

const char *kvm_reasons__name(const struct kvm_reasons *kr, u32 isa, u32 code)
{
	for (int i = 0; i < kr->nr; i++)
		if (kr->r[i].isa == isa && kr->r[i].code == code)
			return kr->r[i].name;
	return NULL;
}

char *kvm_reasons__fmt(const struct kvm_reasons *kr, u32 isa, u32 code, char *buf, size_t len)
{
	const char *name = kvm_reasons__name(kr, isa, code);

	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%s_%#x",
			 isa == KVM_ISA_SVM   ? "SVM"
			 : isa == KVM_ISA_VMX ? "VMX"
					      : "REASON",
			 code);
	return buf;
}

const struct kvm_reasons *kvm_reasons__host(void)
{
	static struct kvm_reasons host;
	static bool read;
	struct tp_db *db;
	struct tep_event *ev;

	if (read)
		return &host;
	read = true;
	db = tp__new();
	if (!db)
		return &host;
	ev = tp__event(db, "kvm", "kvm_exit");
	if (ev && kvm_reasons__read(ev, &host))
		kvm_reasons__clear(&host);
	tp__delete(db);
	return &host;
}
