/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stacks of slow cases on the BPF back end (-g with --than).  A stack
 * is copied, not named by an id in a shared table: bpf_get_stack writes an
 * event's frames into a "slot" (its length in bytes, then up to --max-stack
 * frames), and a slow case's record carries its events' slots out of the
 * kernel.  An end's stacks are taken straight into the record; a start's
 * are kept in a hash map under the start's own key (a thread, a pair's
 * key) until its end copies them into the record, and go with the start.
 * So the map holds the stacks of pending starts only, never fills with
 * the stacks of a long run, and a printed stack is always its event's.  A
 * start whose stacks the map cannot keep (more starts pending than it
 * holds) is counted in a note: the event is counted, and printed without
 * them when slow.
 *
 * Stacks are taken by frame pointers (as -g's default, fp); the frames of
 * the tracepoint's own plumbing that a raw tracepoint program sees above
 * the traced function (the program, bpf_trace_run, __bpf_trace_*,
 * __traceiter_*) are left out in user space: the stack begins at the
 * traced function, as perf's does while no other tracer shares the
 * tracepoint (with one, perf's begins at __traceiter_*).
 */
#ifndef PP_BPF_STACK_H
#define PP_BPF_STACK_H

#include <stdbool.h>

#include "engine/bpf.h"

struct bpf_stacks;
struct stack_ctx;

/* The kinds of a stack (a mask): kernel frames, user frames */
#define BPF_STACKS_KERNEL 1
#define BPF_STACKS_USER 2

/*
 * The stacks of a profiler: @keep, the kinds its starts keep (0: none, no
 * map), in a hash map of @key_size bytes keys, at most @entries of them;
 * @prealloc for programs that run with interrupts off or in interrupts (a
 * map that allocates as keys come finds the kernel's cache empty in a
 * burst), then at most 16 MiB of frames.  The kinds taken at all are
 * -g's capture options'.  NULL with @why set.
 */
struct bpf_stacks *bpf_stacks__new(struct session *s, struct bpf_back *b, unsigned entries,
				   unsigned key_size, int keep, bool prealloc, char *why,
				   size_t len);
void bpf_stacks__delete(struct bpf_stacks *st);

/* The bytes of one slot: a u64 length in bytes, then the frames */
unsigned bpf_stacks__slot(const struct bpf_stacks *st);
/* The kinds taken at all (-g's options), and those kept at starts (BPF_STACKS_*) */
int bpf_stacks__taken(const struct bpf_stacks *st);
int bpf_stacks__kept(const struct bpf_stacks *st);
/* The bytes of the slots of @kinds */
unsigned bpf_stacks__size(const struct bpf_stacks *st, int kinds);
/* The slot of @kind among consecutive slots of @kinds at @base, or NULL */
const void *bpf_stacks__slot_of(const struct bpf_stacks *st, const void *base, int kinds, int kind);

/*
 * The event's stacks of the kinds in @kinds (kernel first) written into
 * consecutive slots at @dst_reg + @dst_off (a map value or a ring buffer
 * record's room, held in one of R6-R9: kept); a kind not taken (-g's
 * options, a kernel thread's user stack) has length 0.  The program's
 * context in @ctx_reg (>= 0, kept) or spilled at R10 + @ctx_off.
 * @user_regs: perf's sample of the event has the task's user registers
 * (the syscalls:sys_enter_* and sys_exit_* tracepoints): its callchain has
 * no kernel part, nor has this one.  Uses R0-R5.
 */
void bpf_stacks__emit_take(struct bpf_stacks *st, struct bpfb *c, int ctx_reg, int16_t ctx_off,
			   int dst_reg, int16_t dst_off, int kinds, bool user_regs);
/*
 * A start's stacks (the kept kinds) kept under the key at R10 + @key_off,
 * over the key's last ones; the value's pointer spilled at R10 + @spill
 * (8 bytes).  A full map: counted in the note.  Uses R0-R5.
 */
void bpf_stacks__emit_keep(struct bpf_stacks *st, struct bpfb *c, int ctx_reg, int16_t ctx_off,
			   int16_t key_off, int16_t spill, bool user_regs);
/*
 * The stacks kept under the key at R10 + @key_off into consecutive slots
 * at @dst_reg (one of R6-R9: kept) + @dst_off, one per kind in @kinds
 * (kernel first): a kind not kept, or no stacks kept under the key, has
 * length 0.  With @forget, the key's stacks are then taken out of the
 * map.  Uses R0-R5.
 */
void bpf_stacks__emit_copy(struct bpf_stacks *st, struct bpfb *c, int16_t key_off, int dst_reg,
			   int16_t dst_off, int kinds, bool forget);
/* The stacks kept under the key at R10 + @key_off taken out (the start or thread gone). */
void bpf_stacks__emit_forget(struct bpf_stacks *st, struct bpfb *c, int16_t key_off);

/*
 * The callchain of an event from its slots (@kslot kernel, @uslot user,
 * as written above; NULL: none) into @smp (its ips in @chain,
 * BPF_STACK_CHAIN entries), the plumbing frames left out (resolved with
 * @ctx).  @smp's pid is set: its maps, which no MMAP2 record follows on
 * this back end, are read again when a user frame is in none of them
 * (stack_ctx__untracked_ips).  Nothing when both are empty.
 */
#define BPF_STACK_CHAIN 260
void bpf_stacks__sample(struct bpf_stacks *st, struct stack_ctx *ctx, const void *kslot,
			const void *uslot, u64 *chain, struct sample *smp);

#endif
