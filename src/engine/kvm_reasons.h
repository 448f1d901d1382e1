/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VM exit reason names, as the kernel's kvm:kvm_exit format prints them
 * (its __print_symbolic tables: VMX's first, then SVM's): for kvm-exit's
 * rows and the expressions' exit_reason_str().
 */
#ifndef PP_KVM_REASONS_H
#define PP_KVM_REASONS_H

#include <stdbool.h>
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
 * A row's label: the ISA above, the reason below, VMX's without its flags
 * (FAILED_VMENTRY) as the kernel prints it; kvm_reasons__fmt's @isa and
 * @code are its halves.  The same as an expression on kvm:kvm_exit's
 * fields, for the BPF back end (@has_isa: the format has isa; else VMX).
 */
static inline u64 kvm_reasons__label(u32 isa, u32 reason)
{
	return (u64)isa << 32 | (isa == KVM_ISA_VMX ? reason & 0xffff : reason);
}
#define KVM_LABEL_EXPR "isa == 1 ? (1 << 32) | (exit_reason & 0xffff) : (isa << 32) | exit_reason"
#define KVM_LABEL_EXPR_VMX "(1 << 32) | (exit_reason & 0xffff)"
/* the guest's kernel: a 64-bit guest's kernel runs in the upper canonical half */
#define KVM_MARK_EXPR "guest_rip >> 63"
/* A HLT exit (VMX 12, SVM 0x78): the guest idles until an interrupt. */
#define KVM_LABEL_HLT_VMX ((u64)KVM_ISA_VMX << 32 | 12)
#define KVM_LABEL_HLT_SVM ((u64)KVM_ISA_SVM << 32 | 0x78)
static inline bool kvm_reasons__is_hlt(u64 label)
{
	return label == KVM_LABEL_HLT_VMX || label == KVM_LABEL_HLT_SVM;
}

/*
 * This host's names, read from tracefs once (kvm loaded or not: without
 * them, no names).  Never NULL; not to be freed.
 */
const struct kvm_reasons *kvm_reasons__host(void);

#endif
