// SPDX-License-Identifier: GPL-2.0
/*
 * The integer subset of the expression language compiled to BPF, for a
 * classic tracepoint program (the context register points to the trace
 * record).  Same values as eval.c, bit for bit: 64-bit arithmetic,
 * signed or unsigned compares, shifts and divisions as eval.c gives them
 * (by zero: 0), fields sign-extended as their format says.
 *
 * Code shape: a node's value goes to a register of R0-R3 (a stack of
 * values: the operands below it stay untouched), R4/R5 are one
 * operation's scratch, and a value that finds no register is spilled to
 * the stack area the caller gives.  The helper calls (the CPU, pid_tgid)
 * are made once, first, into stack slots, so nothing is clobbered later.
 * Jumps are all forward and short: their offsets are patched here, no
 * label of the builder is used (a program may hold many expressions).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/bpf_insn.h"
#include "expr/expr_int.h"

#define VMAX R3 /* the last register of the value stack */
#define S1 R4	/* scratch */
#define S2 R5
#define MAX_LADDER 32	  /* elements of an array a variable index may pick from */
#define MAX_STR_CHUNKS 64 /* loads of one string compare */
#define CTX_MAX 2048	  /* the record bytes any kernel lets a tracepoint program read */

struct gen {
	struct bpfb *b;
	const struct expr_bpf_env *env;
	const char *text;
	char *why;
	size_t len;
	int slot_cpu, slot_pid; /* stack offsets of the preloaded values (0: none) */
	int nslots;		/* stack slots in use */
	int err;
};

static bool refuse(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool refuse(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	if (g->err)
		return false;
	g->err = -EOPNOTSUPP;
	if (g->why && g->len) {
		va_start(ap, fmt);
		vsnprintf(g->why, g->len, fmt, ap);
		va_end(ap);
	}
	return false;
}

/* ---- what compiles ---- */

/* The common fields: only common_pid is known (from pid_tgid). */
static bool common_ok(struct gen *g, const struct node *n)
{
	if (n->f.offset == 4 && n->f.size == 4)
		return true;
	if (n->nlen)
		return refuse(g, "%.*s is not readable by a tracepoint program", n->nlen,
			      g->text + n->col);
	return refuse(g, "the common fields are not readable by a tracepoint program");
}

static bool field_ok(struct gen *g, const struct node *n)
{
	const struct field *f = &n->f;
	unsigned max = g->env->rec_size ? g->env->rec_size : CTX_MAX;

	if (n->any || !f->valid)
		return refuse(g, "a name not looked up");
	if (f->in_regs || f->is_const)
		return refuse(g, "probe arguments");
	if (f->is_dynamic)
		return refuse(g, "__data_loc fields");
	if (f->offset < 8)
		return common_ok(g, n);
	if ((unsigned)f->offset + f->size > max)
		return refuse(g, "a field past the record's %u bytes", max);
	return true;
}

static bool is_fixed_str(const struct node *n)
{
	return n->op == OP_SFIELD && !n->f.is_dynamic && n->f.valid && !n->f.in_regs;
}

/* the rest of the language, and why */
static const char *const refused[OP_COMMA + 1] = {
	[OP_TIME] = "_time is the sample's",
	[OP_PERIOD] = "_period is the sample's",
	[OP_KEY] = "key (the row's key)",
	[OP_VAR] = "bound names",
	[OP_STR] = "strings",
	[OP_SFIELD] = "strings",
	[OP_GLOB] = "~ globs",
	[OP_KSYM] = "ksymbol()",
	[OP_SYSCALL] = "syscall_name()",
	[OP_COMM] = "comm (comm_get())",
	[OP_STRNCMP] = "strncmp()",
	[OP_EXITREASON] = "exit_reason_str()",
	[OP_PRINTF] = "printf()",
	[OP_SYSTEM] = "system()",
	[OP_UVAR] = "assignments",
	[OP_ASSIGN... OP_POSTDEC] = "assignments",
	[OP_ADDR... OP_PTRDIFF] = "pointers",
};

static bool ok(struct gen *g, const struct node *n)
{
	const struct node *s;

	if (!n)
		return true;
	if (n->slot)
		return refuse(g, "assignments");
	if ((unsigned)n->op <= OP_COMMA && refused[n->op])
		return refuse(g, "%s", refused[n->op]);
	switch (n->op) {
	case OP_INT:
	case OP_CPU:
	case OP_PID:
	case OP_TID:
		return true;
	case OP_FIELD:
		return field_ok(g, n);
	case OP_ELEM:
		if (!field_ok(g, n))
			return false;
		if (n->a->op != OP_INT && n->f.nr_elems > MAX_LADDER)
			return refuse(g, "a variable index into an array of %u elements",
				      n->f.nr_elems);
		return ok(g, n->a);
	case OP_SEQ:
	case OP_SNE:
		s = n->a->op == OP_STR ? n->b : n->a;
		if (s->op != OP_SFIELD && s->op != OP_STR && !ok(g, s)) /* its own reason */
			return false;
		if (s->op == OP_SFIELD && s->f.is_dynamic)
			return refuse(g, "__data_loc strings");
		if ((n->a->op != OP_STR && n->b->op != OP_STR) || !is_fixed_str(s))
			return refuse(g, "strings (only char[N] field == \"constant\")");
		if (!field_ok(g, s))
			return false;
		if (s->f.size > MAX_STR_CHUNKS * 4)
			return refuse(g, "a string field of %u bytes", s->f.size);
		return true;
	case OP_NEG:
	case OP_NOT:
	case OP_BNOT:
	case OP_CAST:
	case OP_NTOHS:
	case OP_NTOHL:
	case OP_MUL ... OP_NE:
	case OP_BAND ... OP_COND:
	case OP_COMMA:
		if (n->is_str)
			return refuse(g, "strings");
		return ok(g, n->a) && ok(g, n->b) && ok(g, n->c);
	default:
		return refuse(g, "operator %d", (int)n->op);
	}
}

static void walk_uses(const struct node *n, bool *pid, bool *cpu)
{
	if (!n)
		return;
	if (n->op == OP_PID || n->op == OP_TID ||
	    ((n->op == OP_FIELD || n->op == OP_ELEM) && n->f.offset < 8))
		*pid = true;
	if (n->op == OP_CPU)
		*cpu = true;
	walk_uses(n->a, pid, cpu);
	walk_uses(n->b, pid, cpu);
	walk_uses(n->c, pid, cpu);
}

bool expr__bpf_uses_pid(const struct expr *e)
{
	bool pid = false, cpu = false;

	walk_uses(e->root, &pid, &cpu);
	return pid;
}

/* ---- emitting ---- */

/* A forward jump whose offset here() patches: the index of the jump. */
static int jf(struct gen *g, int op, int dst, int src, bool x, int32_t imm)
{
	int at = g->b->n;

	bpfb__emit(g->b, BPFB_INSN(BPF_JMP | op | (x ? BPF_X : BPF_K), dst, src, 0, imm));
	return at;
}

static void here(struct gen *g, int at)
{
	if (!g->b->err && at < g->b->n)
		g->b->insn[at].off = (int16_t)(g->b->n - at - 1);
}

static bool fits32(u64 v)
{
	return (s64)v == (s64)(int32_t)v;
}

static void konst(struct gen *g, int r, u64 v)
{
	if (fits32(v))
		b_movi(g->b, r, (int32_t)v);
	else
		b_ld64(g->b, r, v);
}

/* r as @bytes bytes of that sign hold it (8: unchanged) */
static void extend(struct gen *g, int r, int bytes, bool sign)
{
	if (bytes >= 8)
		return;
	if (!sign && bytes == 4) {
		b_alu32(g->b, BPF_MOV, r, r);
		return;
	}
	if (!sign) {
		b_alui(g->b, BPF_AND, r, bytes == 1 ? 0xff : 0xffff);
		return;
	}
	b_alui(g->b, BPF_LSH, r, 64 - 8 * bytes);
	b_alui(g->b, BPF_ARSH, r, 64 - 8 * bytes);
}

/* r = the @bytes at record offset @off, zero-extended; @s a scratch when not aligned */
static void load(struct gen *g, int r, int off, int bytes, int s)
{
	int ctx = g->env->ctx_reg;

	if (off % bytes == 0) {
		b_ldx(g->b, bytes, r, ctx, (int16_t)off);
		return;
	}
	/* the verifier wants aligned context loads: byte by byte, little-endian */
	b_ldx(g->b, 1, r, ctx, (int16_t)(off + bytes - 1));
	for (int i = bytes - 2; i >= 0; i--) {
		b_alui(g->b, BPF_LSH, r, 8);
		b_ldx(g->b, 1, s, ctx, (int16_t)(off + i));
		b_alu(g->b, BPF_OR, r, s);
	}
}

/* r = 1 if r != 0 */
static void boolify(struct gen *g, int r)
{
	jf(g, BPF_JEQ, r, 0, false, 0);
	g->b->insn[g->b->n - 1].off = 1;
	b_movi(g->b, r, 1);
}

/* r = (r op src/imm) ? 1 : 0 */
static void setcc(struct gen *g, int op, int r, int src, bool x, int32_t imm)
{
	int t = jf(g, op, r, src, x, imm), e;

	b_movi(g->b, r, 0);
	e = jf(g, BPF_JA, 0, 0, false, 0);
	here(g, t);
	b_movi(g->b, r, 1);
	here(g, e);
}

static int push(struct gen *g)
{
	int off = g->env->stack_hi - 8 * (++g->nslots);

	if (off < g->env->stack_lo) {
		refuse(g, "too deep for %d bytes of stack", g->env->stack_hi - g->env->stack_lo);
		return g->env->stack_hi - 8;
	}
	return off;
}

static void gen(struct gen *g, const struct node *n, int r);

static void pid_tgid(struct gen *g, int r)
{
	if (g->env->pid_tgid_reg >= 0)
		b_mov(g->b, r, g->env->pid_tgid_reg);
	else
		b_ldx(g->b, 8, r, R10, (int16_t)g->slot_pid);
}

static void gen_field(struct gen *g, const struct node *n, int r)
{
	const struct field *f = &n->f;

	if (f->offset < 8) { /* common_pid: the thread's id */
		pid_tgid(g, r);
		extend(g, r, 4, f->is_signed);
		return;
	}
	load(g, r, f->offset, f->size, S1);
	extend(g, r, f->size, f->is_signed);
}

static void gen_elem(struct gen *g, const struct node *n, int r)
{
	const struct field *f = &n->f;
	int esz = f->elem_size, nr = f->nr_elems ? f->nr_elems : f->size / esz;

	if (n->a->op == OP_INT) {
		if (n->a->val >= (u64)nr) {
			b_movi(g->b, r, 0); /* eval.c: a bad read, 0 */
			return;
		}
		load(g, r, f->offset + (int)n->a->val * esz, esz, S1);
	} else {
		/* context loads need constant offsets: one per element */
		gen(g, n->a, r);
		b_mov(g->b, S1, r);
		b_movi(g->b, r, 0);
		for (int i = 0; i < nr; i++) {
			int j = jf(g, BPF_JNE, S1, 0, false, i);

			load(g, r, f->offset + i * esz, esz, S2);
			here(g, j);
		}
	}
	extend(g, r, esz, f->is_signed);
}

/* char[N] field == "constant": eval.c compares the field's bytes up to its NUL */
static void gen_streq(struct gen *g, const struct node *n, int r)
{
	const struct node *s = n->a->op == OP_STR ? n->b : n->a,
			  *c = n->a->op == OP_STR ? n->a : n->b;
	int size = s->f.size, off = s->f.offset, cnt, jumps[MAX_STR_CHUNKS], nj = 0;

	if (c->len > size || memchr(c->str, 0, c->len)) {
		b_movi(g->b, r, n->op == OP_SNE); /* never equal */
		return;
	}
	cnt = c->len < size ? c->len + 1 : size; /* with the NUL when it fits */
	b_movi(g->b, r, 0);
	for (int i = 0, w; i < cnt; i += w) {
		u64 want = 0;

		for (w = 8; w > 1 && ((off + i) % w || i + w > cnt); w /= 2)
			;
		for (int k = w - 1; k >= 0; k--)
			want = want << 8 | (i + k < c->len ? (unsigned char)c->str[i + k] : 0);
		b_ldx(g->b, w, S1, g->env->ctx_reg, (int16_t)(off + i));
		if (fits32(want)) {
			jumps[nj++] = jf(g, BPF_JNE, S1, 0, false, (int32_t)want);
		} else {
			b_ld64(g->b, S2, want);
			jumps[nj++] = jf(g, BPF_JNE, S1, S2, true, 0);
		}
		if (nj == MAX_STR_CHUNKS) {
			refuse(g, "a string compare of more than %d loads", MAX_STR_CHUNKS);
			return;
		}
	}
	b_movi(g->b, r, 1);
	for (int i = 0; i < nj; i++)
		here(g, jumps[i]);
	if (n->op == OP_SNE)
		b_alui(g->b, BPF_XOR, r, 1);
}

/* a / b or a % b, a in r, b in rb (clobbered), S2 scratch: eval.c's rules */
static void gen_div(struct gen *g, const struct node *n, int r, int rb)
{
	int op = n->op == OP_DIV ? BPF_DIV : BPF_MOD, nz, e1, e2, m1, pa, pb, ps;
	bool uns = n->a->uns || n->b->uns;

	nz = jf(g, BPF_JNE, rb, 0, false, 0);
	b_movi(g->b, r, 0); /* by zero: 0 */
	e1 = jf(g, BPF_JA, 0, 0, false, 0);
	here(g, nz);
	if (uns) {
		b_alu(g->b, op, r, rb);
		here(g, e1);
		return;
	}
	m1 = jf(g, BPF_JNE, rb, 0, false, -1);
	if (op == BPF_DIV) /* INT64_MIN / -1 wraps */
		b_alui(g->b, BPF_NEG, r, 0);
	else
		b_movi(g->b, r, 0);
	e2 = jf(g, BPF_JA, 0, 0, false, 0);
	here(g, m1);
	/* unsigned division of the magnitudes; S2: whether the result is negative */
	b_movi(g->b, S2, 0);
	pa = jf(g, BPF_JSGE, r, 0, false, 0);
	b_alui(g->b, BPF_NEG, r, 0);
	b_movi(g->b, S2, 1);
	here(g, pa);
	pb = jf(g, BPF_JSGE, rb, 0, false, 0);
	b_alui(g->b, BPF_NEG, rb, 0);
	if (op == BPF_DIV) /* a remainder has the dividend's sign */
		b_alui(g->b, BPF_XOR, S2, 1);
	here(g, pb);
	b_alu(g->b, op, r, rb);
	ps = jf(g, BPF_JEQ, S2, 0, false, 0);
	b_alui(g->b, BPF_NEG, r, 0);
	here(g, ps);
	here(g, e1);
	here(g, e2);
}

/* compares: [unsigned?] jump; ALU operators (BPF_ALU64 | op: 0 is none) */
static const uint8_t jcc[OP_NE + 1][2] = {
	[OP_LT] = { BPF_JSLT, BPF_JLT }, [OP_LE] = { BPF_JSLE, BPF_JLE },
	[OP_GT] = { BPF_JSGT, BPF_JGT }, [OP_GE] = { BPF_JSGE, BPF_JGE },
	[OP_EQ] = { BPF_JEQ, BPF_JEQ },	 [OP_NE] = { BPF_JNE, BPF_JNE },
};
static const uint8_t alu[OP_BOR + 1] = {
	[OP_MUL] = BPF_ALU64 | BPF_MUL,	 [OP_ADD] = BPF_ALU64 | BPF_ADD,
	[OP_SUB] = BPF_ALU64 | BPF_SUB,	 [OP_BAND] = BPF_ALU64 | BPF_AND,
	[OP_BXOR] = BPF_ALU64 | BPF_XOR, [OP_BOR] = BPF_ALU64 | BPF_OR,
};

static int alu_op(enum op op)
{
	return op <= OP_BOR && alu[op] ? BPF_OP(alu[op]) : -1;
}

/* a shift of r by a constant @v (eval.c: by 64 or more, 0 or the sign) */
static void shift_k(struct gen *g, const struct node *n, int r, u64 v)
{
	bool arith = n->op == OP_SHR && !n->a->uns;

	if (v >= 64 && !arith)
		b_movi(g->b, r, 0);
	else
		b_alui(g->b,
		       n->op == OP_SHL ? BPF_LSH
		       : arith	       ? BPF_ARSH
				       : BPF_RSH,
		       r, v >= 64 ? 63 : (int32_t)v);
}

static void shift_x(struct gen *g, const struct node *n, int r, int rb)
{
	bool arith = n->op == OP_SHR && !n->a->uns;
	int in = jf(g, BPF_JLT, rb, 0, false, 64), e;

	if (arith) { /* by 64 or more: the sign everywhere, as by 63 */
		b_movi(g->b, rb, 63);
		here(g, in);
		b_alu(g->b, BPF_ARSH, r, rb);
		return;
	}
	b_movi(g->b, r, 0);
	e = jf(g, BPF_JA, 0, 0, false, 0);
	here(g, in);
	b_alu(g->b, n->op == OP_SHL ? BPF_LSH : BPF_RSH, r, rb);
	here(g, e);
}

static void gen_binary(struct gen *g, const struct node *n, int r)
{
	bool uns = n->a->uns || n->b->uns, k = n->b->op == OP_INT;
	u64 v = n->b->val;
	int rb, off = 0;

	/* a constant right operand: the immediate forms */
	if (k && (n->op == OP_SHL || n->op == OP_SHR)) {
		gen(g, n->a, r);
		shift_k(g, n, r, v);
		return;
	}
	if (k && fits32(v) && (alu_op(n->op) >= 0 || (n->op >= OP_LT && n->op <= OP_NE))) {
		gen(g, n->a, r);
		if (alu_op(n->op) >= 0)
			b_alui(g->b, alu_op(n->op), r, (int32_t)v);
		else
			setcc(g, jcc[n->op][uns], r, 0, false, (int32_t)v);
		return;
	}
	gen(g, n->a, r);
	if (r < VMAX) {
		rb = r + 1;
		gen(g, n->b, rb);
	} else { /* no register left: a waits on the stack */
		off = push(g);
		b_stx(g->b, 8, R10, (int16_t)off, r);
		gen(g, n->b, r);
		b_mov(g->b, S1, r);
		b_ldx(g->b, 8, r, R10, (int16_t)off);
		g->nslots--;
		rb = S1;
	}
	switch (n->op) {
	case OP_DIV:
	case OP_MOD:
		gen_div(g, n, r, rb);
		break;
	case OP_SHL:
	case OP_SHR:
		shift_x(g, n, r, rb);
		break;
	case OP_LT ... OP_NE:
		setcc(g, jcc[n->op][uns], r, rb, true, 0);
		break;
	default:
		b_alu(g->b, alu_op(n->op), r, rb);
		break;
	}
}

static void gen(struct gen *g, const struct node *n, int r)
{
	int j, e;

	if (g->err)
		return;
	switch (n->op) {
	case OP_INT:
		konst(g, r, n->val);
		break;
	case OP_FIELD:
		gen_field(g, n, r);
		break;
	case OP_ELEM:
		gen_elem(g, n, r);
		break;
	case OP_CPU:
		b_ldx(g->b, 8, r, R10, (int16_t)g->slot_cpu);
		break;
	case OP_PID:
		pid_tgid(g, r);
		b_alui(g->b, BPF_RSH, r, 32);
		break;
	case OP_TID:
		pid_tgid(g, r);
		b_alu32(g->b, BPF_MOV, r, r);
		break;
	case OP_SEQ:
	case OP_SNE:
		gen_streq(g, n, r);
		break;
	case OP_NEG:
		gen(g, n->a, r);
		b_alui(g->b, BPF_NEG, r, 0);
		break;
	case OP_BNOT:
		gen(g, n->a, r);
		b_alui(g->b, BPF_XOR, r, -1);
		break;
	case OP_NOT:
		gen(g, n->a, r);
		setcc(g, BPF_JEQ, r, 0, false, 0);
		break;
	case OP_CAST:
		gen(g, n->a, r);
		if (n->cast_size)
			extend(g, r, n->cast_size, n->cast_signed);
		else
			boolify(g, r);
		break;
	case OP_NTOHS:
	case OP_NTOHL:
		gen(g, n->a, r);
		bpfb__emit(g->b, BPFB_INSN(BPF_ALU | BPF_END | BPF_TO_BE, r, 0, 0,
					   n->op == OP_NTOHS ? 16 : 32));
		break;
	case OP_LAND: /* a == 0: r is already 0 */
		gen(g, n->a, r);
		j = jf(g, BPF_JEQ, r, 0, false, 0);
		gen(g, n->b, r);
		boolify(g, r);
		here(g, j);
		break;
	case OP_LOR:
		gen(g, n->a, r);
		j = jf(g, BPF_JNE, r, 0, false, 0);
		gen(g, n->b, r);
		boolify(g, r);
		e = jf(g, BPF_JA, 0, 0, false, 0);
		here(g, j);
		b_movi(g->b, r, 1);
		here(g, e);
		break;
	case OP_COND:
		gen(g, n->a, r);
		j = jf(g, BPF_JEQ, r, 0, false, 0);
		gen(g, n->b, r);
		e = jf(g, BPF_JA, 0, 0, false, 0);
		here(g, j);
		gen(g, n->c, r);
		here(g, e);
		break;
	case OP_COMMA: /* the left side has no effect here */
		gen(g, n->b, r);
		break;
	default:
		gen_binary(g, n, r);
		break;
	}
}

int expr__bpf(const struct expr *e, struct bpfb *b, const struct expr_bpf_env *env, char *why,
	      size_t len)
{
	struct gen g = { .b = b, .env = env, .text = e->text, .why = why, .len = len };
	bool pid = false, cpu = false;

	if (why && len)
		why[0] = 0;
	if (env->ctx_reg < R6 || env->ctx_reg > R9 ||
	    (env->pid_tgid_reg >= 0 && (env->pid_tgid_reg < R6 || env->pid_tgid_reg > R9)) ||
	    env->stack_lo % 8 || env->stack_hi % 8 || env->stack_hi > 0 || env->stack_lo < -512 ||
	    env->stack_lo > env->stack_hi) {
		if (why && len)
			snprintf(why, len, "bad registers or stack area for the expression");
		return -EINVAL;
	}
	if (!ok(&g, e->root))
		return g.err;
	walk_uses(e->root, &pid, &cpu);
	if (cpu) {
		g.slot_cpu = push(&g);
		b_call(b, BPF_FUNC_get_smp_processor_id);
		b_stx(b, 8, R10, (int16_t)g.slot_cpu, R0);
	}
	if (pid && env->pid_tgid_reg < 0) {
		g.slot_pid = push(&g);
		b_call(b, BPF_FUNC_get_current_pid_tgid);
		b_stx(b, 8, R10, (int16_t)g.slot_pid, R0);
	}
	gen(&g, e->root, R0);
	return g.err;
}
