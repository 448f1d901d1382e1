/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stacks: turn a sample's callchain (PERF_SAMPLE_CALLCHAIN, with the
 * PERF_CONTEXT_* markers) and, for DWARF mode, its user registers and
 * stack copy into named frames, and print them one way for every
 * profiler.  Symbol tables come from sym/ksyms.c (kernel) and
 * sym/elfsyms.c + sym/dso.c (user: ELF, debug files, vdso) and
 * sym/maps.c (per-process maps, perf-PID.map); process maps
 * follow MMAP2/COMM/EXIT records so that stacks of exited processes
 * still resolve.
 */
#ifndef PP_STACK_H
#define PP_STACK_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/sample.h"
#include "engine/conf.h"
#include "engine/session.h"

/* Print options (stack_opts.print). */
enum {
	STACK_NO_ADDR = 1u << 0,     /* hide the address column */
	STACK_NO_OFFSET = 1u << 1,   /* "sym" instead of "sym+0x1a" */
	STACK_REVERSE = 1u << 2,     /* root (outermost caller) first */
	STACK_USER_ONLY = 1u << 3,   /* drop kernel frames */
	STACK_KERNEL_ONLY = 1u << 4, /* drop user frames */
	STACK_NO_DSO = 1u << 5,	     /* hide "(dso)" */
	/*
	 * --python-callchain: in a user stack with Python frames (the "py::"
	 * symbols of CPython's perf trampolines, named in /tmp/perf-PID.map
	 * with -X perf), the frames from the innermost Python frame out are
	 * the Python frames only: the interpreter's own frames between and
	 * below them go; the native frames Python called (leafward) stay.
	 */
	STACK_PYTHON = 1u << 6,
};

/*
 * The stack group: -g, --call-graph, --max-stack, --[no-]user-callchain,
 * --[no-]kernel-callchain (the engine's capture) and the print options
 * (--no-addr, --no-offset, --no-dso, --reverse-stack, --user-stack,
 * --kernel-stack: what is not shown is not captured either).  Its check
 * turns on frame pointers when an event of the event group (listed before
 * it) has the "stack" attribute.
 */
struct stack_opts {
	struct capture_opts capture;
	unsigned print; /* STACK_* */
};
extern const struct opt_group stack_group;

struct frame {
	u64 addr;
	const char *sym; /* never NULL: "[unknown]" when unresolved */
	u64 off;	 /* addr - symbol start */
	const char *dso; /* "[kernel.kallsyms]", "[vdso]", module "[ext4]", file path, or NULL */
	bool kernel;
};

struct stack_ctx;

/* @flags: STACK_*.  Returns NULL with errno set. */
struct stack_ctx *stack_ctx__new(unsigned flags);
void stack_ctx__delete(struct stack_ctx *ctx);

/*
 * Load what every stack needs (kallsyms, ~50 ms) now, before the events are
 * enabled, rather than on the first sample while the ring buffers fill.
 */
void stack_ctx__preload(struct stack_ctx *ctx);

/* Process events, so maps follow the process. */
void stack_ctx__mmap2(struct stack_ctx *ctx, const struct rec_mmap2 *m);
void stack_ctx__comm(struct stack_ctx *ctx, const struct rec_comm *c);
void stack_ctx__exit(struct stack_ctx *ctx, const struct rec_task *t);
void stack_ctx__fork(struct stack_ctx *ctx, const struct rec_task *t);
/*
 * @pid's image (maps__image): it changes on exec, exit and pid reuse, so
 * that what is cached by a process's addresses is not found by the next
 * program under that pid.  0 without a context.
 */
u32 stack_ctx__image(struct stack_ctx *ctx, u32 pid);
/* The same as a session's hook set (priv: the stack_ctx): session__add_ops(s, &..., ctx). */
extern const struct session_ops stack_ctx__ops;

/*
 * A callchain that came without the process's MMAP2 records (copied out of
 * the kernel by a BPF program: the session has none): its user addresses
 * (@ips, @nr) are all looked for in @pid's maps, read from /proc again
 * (maps__refresh) when one is in none.
 */
void stack_ctx__untracked_ips(struct stack_ctx *ctx, u32 pid, const u64 *ips, int nr);

/* --python-callchain: the Python frames kept so far (0: no perf-PID.map named one). */
unsigned long long stack_ctx__python_frames(const struct stack_ctx *ctx);
/*
 * Whether process @pid has CPython's perf map (/tmp/perf-PID.map, in its
 * own mount namespace too): 0, -ENOENT without one, -ESRCH when there is
 * no such process.  @path gets the name looked for.
 */
int stack__python_map(int pid, char *path, size_t len);

/* For -v: the processes whose maps are held, and how many were dropped. */
void stack_ctx__print_stats(struct stack_ctx *ctx, FILE *fp);

/*
 * Resolve the stack of @smp (callchain; plus DWARF unwinding of the user
 * part when it carries REGS_USER and STACK_USER) into at most @max frames,
 * innermost first, kernel frames before user frames.  The strings are
 * owned by @ctx and stay valid until stack_ctx__delete.  Returns the
 * number of frames.  STACK_USER_ONLY / STACK_KERNEL_ONLY are applied here.
 */
int stack__frames(struct stack_ctx *ctx, const struct sample *smp, struct frame *out, int max);

/*
 * The variable a data address lies in (a sample's PERF_SAMPLE_ADDR), as
 * process @pid sees it: a kernel address from kallsyms' variables, a user
 * one from the OBJECT symbols of the file mapped there (sym/datasym.h).
 * 0 with @out set, or -ENOENT (no variable there known).
 */
struct data_sym;
int stack__data_sym(struct stack_ctx *ctx, u32 pid, u64 addr, struct data_sym *out);
/* The mapping a frame's address lies in (pprof's mappings), where known. */
struct frame_map {
	u64 start, end, pgoff;	       /* end 0: not known (kernel frames, no mapping) */
	const unsigned char *build_id; /* NULL: not known; valid until stack_ctx__delete */
	int build_id_len;
	struct dso *dso; /* the file, for stack__srcline; NULL: its symbols were not read */
	u64 vaddr;	 /* the (return) address as a link-time address of the file */
};
/* stack__frames, and in @maps[i] the mapping of frame i. */
int stack__frames_maps(struct stack_ctx *ctx, const struct sample *smp, struct frame *out,
		       struct frame_map *maps, int max);

struct srcline;
/*
 * Where the frame @fm describes lies in the source, from the DWARF of its
 * file's debug file or of the file itself (sym/srcline.h; strings owned by
 * @ctx).  Opens files: for the end of a run, not per sample.  0 or -ENOENT.
 */
int stack__srcline(struct stack_ctx *ctx, const struct frame_map *fm, struct srcline *out);

/* Print the stack, one frame a line: "<indent>ADDR sym+0xOFF (dso)". */
void stack__print(struct stack_ctx *ctx, const struct sample *smp, FILE *fp, const char *indent);
/* The same for frames kept from an earlier sample (stack__frames' output, copied). */
void stack__print_frames(struct stack_ctx *ctx, const struct frame *frames, int n, FILE *fp,
			 const char *indent);

/*
 * Where the symbol layer's warnings go (at most one per file, and one for
 * hidden kallsyms).  Default: "perf-prof: MSG" on stderr; NULL restores it.
 */
/*
 * --json: the stack of @smp (or @frames) as the member @key ("stack") of
 * the open object @j: an array of {"addr":"0x..","sym":"name","off":N,
 * "dso":"path"}, leaf first (root first with --reverse-stack); "off" only
 * for a resolved symbol, "dso" null when unknown.  Nothing without a
 * stack context.
 */
struct json;
void stack__json(struct stack_ctx *ctx, const struct sample *smp, struct json *j, const char *key);
void stack__json_frames(struct stack_ctx *ctx, const struct frame *frames, int n, struct json *j,
			const char *key);

void stack__set_warn(void (*warn)(const char *msg));

/*
 * perf-prof --symbols BINARY: pprof-compatible address -> symbol.  @in holds
 * /proc/PID/maps lines (optional) and addresses (lines with a word
 * "0x<hex>"); for each address one line with its function name (pprof's
 * short form, no arguments or template parameters) or "??" goes to @out,
 * in input order.  Any other line but a blank one is a bad line: it is
 * reported on @errf (NULL: not at all; the first SYMBOLS_SHOW_BAD, then a
 * count) and answered "??" like an address, so that a caller pairing
 * answers with its lines stays in step.  @ss (may be NULL) gets the
 * counts.  Returns 0 or -errno.
 */
#define SYMBOLS_SHOW_BAD 20
#define SYMBOLS_SHOW_TEXT 40
struct symbols_stats {
	size_t addrs, maps, bad;
	size_t first_bad; /* line number of the first bad line, 0 if none */
};
int symbols__main(const char *binary, FILE *in, FILE *out, FILE *errf, struct symbols_stats *ss);
/*
 * Can @binary be read as a whole ELF file?  0, or -errno with @why saying
 * what is wrong ("No such file or directory", "Is a directory", "not a
 * regular file", "empty file", "not an ELF file", "truncated: ...",
 * "corrupt ...": elfsyms__check_fd).
 */
int symbols__check(const char *binary, char *why, size_t len);
/* pprof's short form of a demangled name into @out (truncated to @size). */
void symbols__short_name(const char *full, char *out, size_t size);

#endif
