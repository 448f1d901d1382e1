/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VM exit reason names, as the kernel's kvm:kvm_exit format prints them
 * (its __print_symbolic tables: VMX's first, then SVM's): for kvm-exit's
 * rows and the expressions' exit_reason_str().
 */
#ifndef PP_KVM_REASONS_H
#define PP_KVM_REASONS_H

#include <stddef.h>

#include "engine/sample.h"

#define KVM_ISA_VMX 1 /* kvm_exit's isa field */
#define KVM_ISA_SVM 2

struct tep_event;

struct kvm_reason {
	u32 isa, code;
	char name[28];
};

struct kvm_reasons {
	struct kvm_reason *r;
	int nr;
};

/* The names @ev's format (kvm:kvm_exit) gives.  0, or -ENOMEM. */
int kvm_reasons__read(const struct tep_event *ev, struct kvm_reasons *kr);
void kvm_reasons__clear(struct kvm_reasons *kr);
/* The name of @code on @isa, or NULL. */
const char *kvm_reasons__name(const struct kvm_reasons *kr, u32 isa, u32 code);
/* The name, or "VMX_0x1e" ("SVM_...", "REASON_...") when it has none; returns @buf. */
char *kvm_reasons__fmt(const struct kvm_reasons *kr, u32 isa, u32 code, char *buf, size_t len);
/*
 * This host's names, read from tracefs once (kvm loaded or not: without
 * them, no names).  Never NULL; not to be freed.
 */
const struct kvm_reasons *kvm_reasons__host(void);

#endif
