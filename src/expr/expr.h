/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Expressions over an event's fields: the small, pure language of key=,
 * top-add=, num=, ptr=, size= and user-space filters (README "Expressions").
 *
 * An expression is compiled once per event against its tracepoint format:
 * names are resolved to field handles, types are checked (an unknown field,
 * a string used as a number, a bad cast or a syntax error is refused with
 * the column), constants are folded.  Evaluation walks the compiled tree
 * with no parsing, no allocation, no loops over input and no side effect
 * but two fault counters: a read outside the record (or past an array's
 * end) and a division by zero give 0 and are counted, never a crash.
 *
 * Arithmetic is done in 64 bits.  A value is signed unless it is an
 * unsigned 64-bit field, a cast to an unsigned 64-bit type or a literal
 * above INT64_MAX (or with a U suffix); an operation with an unsigned
 * operand is unsigned, as C's rules for (unsigned) long long give.
 * Narrower fields and casts keep their value (an s8 of 0xff is -1, a u32
 * of 0xffffffff is 4294967295).
 */
#ifndef PP_EXPR_H
#define PP_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/sample.h"
#include "util/opt.h"

struct evsel;
struct session;
struct ksyms;
struct expr;
struct user_filter_ops;

/* What an evaluation reads besides the record. */
struct expr_ctx {
	const struct sample *smp; /* raw/raw_size, cpu, pid, tid, time, period */
	struct session *session;  /* comm_get(); NULL: comm_get() gives "<...>" */
	struct ksyms *ksyms;	  /* ksymbol(); NULL: ksymbol() gives "[unknown]" */
	const u64 *vars;	  /* the values of the names bound by expr__compile_vars */
	int nr_vars;		  /* a name past them reads as 0, counted as a bad read */
	FILE *out;		  /* printf()'s output; NULL: stdout */
	/* EXPR_KEY: the value `key` reads (a row's key in printkey=); NULL: 0, a bad read */
	const struct expr_value *key;
};

enum expr_kind { EXPR_INT, EXPR_STR };

/*
 * A result.  Strings point into the record, the compiled expression, the
 * symbol table or the comm cache: valid until the next evaluation of the
 * same expression and no longer than the sample.  Not NUL-terminated.
 */
struct expr_value {
	enum expr_kind kind;
	bool is_signed; /* EXPR_INT: print u as s64 */
	u64 u;
	const char *str; /* EXPR_STR */
	int len;
};

/* A compile error: the message (no newline) and the byte column of the culprit. */
struct expr_error {
	int col;
	char msg[160];
};

/* Flags of expr__compile_ex. */
#define EXPR_FILTER 0x1 /* a filter: kernel filter syntax too (bare words), a number result */
/*
 * The syntax only, before any event is known: a name that is no function
 * and no _variable may be any field of any type (a number or a string), and
 * in a filter the kernel's CPUS{LIST} and NAME.function are taken.  The
 * result is only for checking: never evaluate it.
 */
#define EXPR_SYNTAX 0x2
/*
 * The name `key` is the key of the row printed (top's printkey=): it reads
 * ctx->key, a number (a signed 64-bit value), or with EXPR_KEY_STR a string
 * (a key= that is a string, --only-comm's comm).  It hides a field named key.
 */
#define EXPR_KEY 0x4
#define EXPR_KEY_STR 0x8

/*
 * Compile @text against @ev's format (@ev or its ->tp may be NULL: then only
 * the sample's _cpu, _pid, _tid, _time, _period, literals and functions).
 * Returns the expression, or NULL with @err filled (errno EINVAL, or ENOMEM
 * with col -1).  @ev is not kept: only field handles are.
 */
struct expr *expr__compile_ex(const char *text, const struct evsel *ev, unsigned flags,
			      struct expr_error *err);
/*
 * An expression over plain named numbers (hrtimer: the counts of its
 * events in a period): @names[i] reads ctx->vars[i], a signed 64-bit
 * value, at evaluation; the sample's _cpu, _pid... and the functions work
 * as ever, a bound name hides a sample variable of the same name.  No
 * event format: any other name is refused, the error listing the names.
 * Returns the expression or NULL with @buf filled as expr__compile does.
 */
struct expr *expr__compile_vars(const char *text, const char *const *names, int nr_names, char *buf,
				size_t len);
/*
 * The same, the error written to @buf as one line of message then the
 * expression and a caret under the column:
 *   "expr: unknown field 'prio2'\n  pid<prio2\n      ^"
 */
struct expr *expr__compile(const char *text, const struct evsel *ev, char *buf, size_t len);
/* Format @err about @text as expr__compile does; returns @buf. */
char *expr__strerror(const char *text, const struct expr_error *err, char *buf, size_t len);
void expr__free(struct expr *e);
/*
 * Whether @text is a filter this language parses (EXPR_FILTER | EXPR_SYNTAX:
 * before the event's fields are known, each name may be one): 0, or
 * -EINVAL (-ENOMEM) with @err filled, its column a byte offset into @text.
 * Every -e filter passes it before anything opens, even one the kernel
 * would take: what the kernel takes and this language does not parse is a
 * typo ("a > 1 &&") that the kernel reads in its own way.
 */
int expr__check_filter(const char *text, struct expr_error *err);
/* The same for an expression (-k, key=): its syntax, any name a field. */
int expr__check_syntax(const char *text, struct expr_error *err);

/* Whether the result is a string (otherwise an integer). */
bool expr__is_string(const struct expr *e);
/* Whether an integer result is signed (prints as s64, as expr__eval's is_signed says). */
bool expr__is_signed(const struct expr *e);
/* The expression's text as given. */
const char *expr__text(const struct expr *e);

/* What evaluation needs in struct expr_ctx, to load it only when used. */
#define EXPR_USES_KSYMS 0x1 /* ksymbol() */
#define EXPR_USES_COMM 0x2  /* comm_get() */
unsigned expr__uses(const struct expr *e);

/*
 * Evaluate for one sample.  Returns 0, or the number of faults of this
 * evaluation (reads outside the record, division by zero; each gives 0).
 */
int expr__eval(struct expr *e, const struct expr_ctx *ctx, struct expr_value *out);

/*
 * A user-space filter: the kernel's filter syntax (field OP value, && || !,
 * parentheses, ~ globs, unquoted words as strings: comm == bash) and the
 * whole language (pid<prio, _cpu==1, functions).  The result must be a
 * number.  expr__match: whether a sample passes (non-zero).
 */
struct expr *expr__compile_filter(const char *text, const struct evsel *ev, char *buf, size_t len);
bool expr__match(struct expr *e, const struct expr_ctx *ctx);

/* The key group: -k EXPR, the default key= of every event. */
struct key_opts {
	const char *expr;
};
extern const struct opt_group key_group;

/* The engine's user-space filters (session__set_user_filters), in this language. */
extern const struct user_filter_ops expr_user_filters;

/* Faults counted over every evaluation, for a report at exit. */
struct expr_faults {
	u64 bad_reads; /* outside the record, or past an array's end: read as 0 */
	u64 div_zero;  /* division or modulo by zero: gave 0 */
};
void expr__faults(const struct expr *e, struct expr_faults *f);

/*
 * 'help' as the expression: @ev's fields with their C types, the
 * variables, the functions and the operators, to @out.
 */
void expr__help(const struct evsel *ev, FILE *out);

/*
 * In the kernel: the integer subset compiled to BPF for a classic
 * tracepoint program (BPF_PROG_TYPE_TRACEPOINT, its context the trace
 * record), with expr__eval's exact values.  Compiled: integer literals;
 * integer fields of any width and sign; fixed arrays' elements (a
 * variable index among at most 32 elements); common_pid, _pid, _tid
 * (bpf_get_current_pid_tgid: the record's first 8 bytes are the
 * kernel's) and _cpu; every integer operator (division and modulo by
 * zero give 0, INT64_MIN / -1 wraps, shifts by 64 or more give 0 or the
 * sign), casts, ?:, && and || (short-circuit), ntohs(), ntohl(), and a
 * char[N] field == or != a constant string.  Refused (-EOPNOTSUPP, @why
 * one short reason): other strings, _time, _period, the other common
 * fields, __data_loc fields, probe arguments, functions, assignments,
 * pointers, a field past the record.
 *
 * The code leaves the value in R0.  It uses R0-R5 and the stack slots
 * [stack_lo, stack_hi) (one per helper value preloaded, one per spilled
 * operand: an operand waits on the stack only past 4 live values), reads
 * ctx_reg and pid_tgid_reg, never writes R6-R9.  Helper calls, made once
 * each at the start: bpf_get_smp_processor_id() if _cpu is used,
 * bpf_get_current_pid_tgid() if the pid is used (expr__bpf_uses_pid) and
 * pid_tgid_reg is -1.  All its jumps are forward and short, patched
 * here: it takes no label of the builder.  Returns 0; -EOPNOTSUPP with
 * @why set; -EINVAL for a bad @env.  After an error the builder holds
 * half an expression: discard it.
 */
struct bpfb;
struct expr_bpf_env {
	int ctx_reg;	  /* the register holding the record pointer (R6-R9) */
	int pid_tgid_reg; /* a register (R6-R9) holding bpf_get_current_pid_tgid(), or -1 */
	short stack_lo;	  /* frame offsets [stack_lo, stack_hi): negative, 8-aligned, free */
	short stack_hi;
	unsigned rec_size; /* the format's record size: a field past it is refused (0: 2048) */
};
int expr__bpf(const struct expr *e, struct bpfb *b, const struct expr_bpf_env *env, char *why,
	      size_t len);
/* Whether @e reads the pid or tid (common_pid, _pid, _tid): preload pid_tgid_reg then. */
bool expr__bpf_uses_pid(const struct expr *e);

/* Glob match (* ? [a-z] [!x] [^x], \ escapes) of @s against @pat, both with lengths. */
bool expr__glob(const char *pat, int plen, const char *s, int slen);
/* The x86_64 name of syscall @nr ("read"), or NULL. */
const char *expr__syscall_name(u64 nr);

#endif
