// SPDX-License-Identifier: GPL-2.0
/*
 * breakpoint: who touches this address.  Hardware breakpoints (the CPU's
 * debug registers, PERF_TYPE_BREAKPOINT), one per ADDR[/LEN][:rwx]: each
 * hit prints the task, the ip that touched the address (for a write or a
 * read, the instruction after the access: the debug exception is a trap)
 * and, with -g, its stack.  ADDR is a hex address, a kernel symbol, or,
 * with -p or a command, a variable or function of the program or of its
 * libraries.  A command's own symbols are placed before it runs: it then
 * runs without address randomization, and its exec checks the guess.
 */
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>

#include "analysis/memory/watchval.h"
#include "engine/bpf.h"
#include "engine/features.h"
#include "engine/procfs.h"
#include "profiler.h"
#include "report/evline.h"
#include "report/outfile.h"
#include "report/stack_flame.h"
#include "sym/datasym.h"
#include "sym/stack.h"
#include "sym/symaddr.h"

#define BP_MAX 16
#define BP_TEXT 128

struct bp {
	char text[BP_TEXT]; /* as given: the event's name */
	char sym[BP_TEXT];  /* the symbol, "" for a number */
	u64 off;	    /* SYM+OFF */
	u64 addr;	    /* resolved */
	unsigned len, type; /* 0: the default */
	struct symaddr sa;  /* what the symbol resolved to */
	u64 hits;
	bool valued; /* a data breakpoint: its hits show the value at the address */
};

struct breakpoint {
	struct bp bp[BP_MAX];
	int nr;
	bool show_stack;
	bool excl_user, excl_kernel; /* --exclude-user/--exclude-kernel: the hits left out */
	bool persona_set;	     /* address randomization turned off for the command */
	int old_persona;	     /* ... and the personality to restore */
	bool checked;		     /* the command's exec was checked against the guesses */
	u64 hits;
	struct stack_flame *flame; /* --flame-graph: the hits' stacks, the breakpoint the leaf */
	struct watchval *values;   /* the value at each hit, read in the kernel (NULL: not read) */
	char no_values[200];	   /* ... why not */
};

#define SYM_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$@"

static const char syntax[] = "ADDR[/LEN][:rwx], ADDR a hex address, SYMBOL or SYMBOL+OFF";

static int parse_num(const char *s, size_t n, u64 *v)
{
	char buf[32], *end;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 0);
	return errno || *end || buf[0] == '-' ? -1 : 0;
}

/* "0x..." or a bare hex word as long as an address ("ffffffff81000000"). */
static bool is_hex_addr(const char *s, size_t n, u64 *v)
{
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return !parse_num(s, n, v);
	if (n < 8 || n > 16 || strspn(s, "0123456789abcdefABCDEF") < n)
		return false;
	*v = 0;
	for (size_t i = 0; i < n; i++)
		*v = *v << 4 | (u64)(s[i] <= '9' ? s[i] - '0' : (s[i] | 0x20) - 'a' + 10);
	return true;
}

static int parse_type(const char *t, unsigned *type, char *err, size_t errlen, const char *text)
{
	unsigned v = 0;

	for (const char *c = t; *c; c++) {
		unsigned bit = *c == 'r'   ? HW_BREAKPOINT_R
			       : *c == 'w' ? HW_BREAKPOINT_W
			       : *c == 'x' ? HW_BREAKPOINT_X
					   : 0;

		if (!bit || (v & bit)) {
			snprintf(err, errlen, "bad type '%s' in '%s': r, w, rw or x", t, text);
			return -1;
		}
		v |= bit;
	}
	if (!v) {
		snprintf(err, errlen, "no type after ':' in '%s': r, w, rw or x", text);
		return -1;
	}
	if ((v & HW_BREAKPOINT_X) && v != HW_BREAKPOINT_X) {
		snprintf(err, errlen, "bad type '%s' in '%s': x goes alone (r, w, rw or x)", t,
			 text);
		return -1;
	}
#if defined(__x86_64__) || defined(__i386__)
	if (v == HW_BREAKPOINT_R) {
		snprintf(err, errlen,
			 "'%s': x86 debug registers cannot watch reads alone: use :rw (reads and "
			 "writes)",
			 text);
		return -1;
	}
#endif
	*type = v;
	return 0;
}

/* ADDR[/LEN][:TYPE], ADDR = 0xHEX | SYMBOL[+OFF]: the syntax only. */
static int bp_parse(const char *text, struct bp *b, char *err, size_t errlen)
{
	size_t n = strlen(text), an;
	const char *colon, *slash, *plus;
	u64 v;

	memset(b, 0, sizeof(*b));
	if (n >= BP_TEXT) {
		snprintf(err, errlen, "'%.40s...': too long for %s", text, syntax);
		return -1;
	}
	memcpy(b->text, text, n + 1);
	colon = strrchr(text, ':');
	if (colon) {
		if (parse_type(colon + 1, &b->type, err, errlen, text))
			return -1;
		n = colon - text;
	}
	slash = memrchr(text, '/', n);
	if (slash) {
		if (parse_num(slash + 1, n - (slash + 1 - text), &v) ||
		    (v != 1 && v != 2 && v != 4 && v != 8)) {
			snprintf(err, errlen, "bad length '%.*s' in '%s': 1, 2, 4 or 8 bytes",
				 (int)(n - (slash + 1 - text)), slash + 1, text);
			return -1;
		}
		b->len = (unsigned)v;
		n = slash - text;
	}
	if (b->type == HW_BREAKPOINT_X && b->len && b->len != sizeof(long)) {
		snprintf(err, errlen,
			 "'%s': an execute breakpoint covers one instruction: no /LEN (or /%zu)",
			 text, sizeof(long));
		return -1;
	}
	if (!n) {
		snprintf(err, errlen, "no address in '%s': %s", text, syntax);
		return -1;
	}
	if (is_hex_addr(text, n, &b->addr))
		return 0;
	plus = memchr(text, '+', n);
	an = plus ? (size_t)(plus - text) : n;
	if (plus && parse_num(plus + 1, n - an - 1, &b->off)) {
		snprintf(err, errlen, "bad offset '%.*s' in '%s': SYMBOL+OFF, OFF a number",
			 (int)(n - an - 1), plus + 1, text);
		return -1;
	}
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		snprintf(err, errlen, "bad address '%.*s' in '%s': not a hex number", (int)n, text,
			 text);
		return -1;
	}
	if (text[0] >= '0' && text[0] <= '9') {
		snprintf(err, errlen, "bad address '%.*s' in '%s': a hex address starts with 0x",
			 (int)n, text, text);
		return -1;
	}
	if (!an || strspn(text, SYM_CHARS) < an) {
		snprintf(err, errlen, "bad address '%.*s' in '%s': %s", (int)n, text, text, syntax);
		return -1;
	}
	memcpy(b->sym, text, an);
	b->sym[an] = '\0';
	return 0;
}

/* Debug registers per CPU: the PMU's caps where it says, 4 on x86, else not known (0). */
static int bp_slots(void)
{
	char buf[32];

	if (!features__pmu_read("breakpoint", "caps/slots", buf, sizeof(buf)) && atoi(buf) > 0)
		return atoi(buf);
#if defined(__x86_64__) || defined(__i386__)
	return 4;
#else
	return 0;
#endif
}

static int bp_args(void *priv, int argc, char **argv, char *err, size_t errlen)
{
	struct breakpoint *p = priv;
	int slots = bp_slots();

	if (!argc) {
		snprintf(err, errlen,
			 "no breakpoint: give %s (e.g. perf-prof breakpoint -p 1234 "
			 "counter:w)",
			 syntax);
		return -1;
	}
	if (slots && argc > slots) {
		snprintf(err, errlen,
			 "%d breakpoints: this CPU has %d debug registers, so at most %d", argc,
			 slots, slots);
		return -1;
	}
	if (argc > BP_MAX) {
		snprintf(err, errlen, "%d breakpoints: at most %d", argc, BP_MAX);
		return -1;
	}
	for (int i = 0; i < argc; i++)
		if (bp_parse(argv[i], &p->bp[i], err, errlen))
			return -1;
	p->nr = argc;
	return 0;
}

static int resolve(struct session *s, struct breakpoint *p, struct bp *b)
{
	char msg[1024];
	int err = symaddr__for_target(session__conf(s)->target, b->sym, &b->sa, msg, sizeof(msg));

	if (err == -EINVAL)
		return session__usage_err(s, "'%s': %s", b->text, msg);
	if (err)
		return session__set_err(s, err, "'%s': %s", b->text, msg);
	if (b->sa.ifunc)
		return session__usage_err(s,
					  "'%s': %s is an IFUNC in %s: its address is the "
					  "resolver's, run once at load time to pick the function "
					  "called; name that function (nm -D lists them)",
					  b->text, b->sym, b->sa.file);
	b->addr = b->sa.addr + b->off;
	if (b->sa.predicted && !p->persona_set) {
		int cur = personality(0xffffffff);

		/* inherited by the command's fork, then by its exec */
		if (cur < 0 || personality((unsigned long)cur | ADDR_NO_RANDOMIZE) < 0)
			return session__set_err(s, -errno,
						"cannot turn address randomization off for the "
						"command: %s",
						strerror(errno));
		p->old_persona = cur;
		p->persona_set = true;
	}
	return 0;
}

/* The largest of 8, 4, 2, 1 bytes the address is aligned to, within the symbol. */
static unsigned default_len(const struct bp *b)
{
	u64 size = b->sym[0] && b->sa.size > b->off ? b->sa.size - b->off : 0;

	if (b->type == HW_BREAKPOINT_X)
		return sizeof(long);
	for (unsigned len = 8; len > 1; len /= 2)
		if (!(b->addr & (len - 1)) && (size ? len <= size : len <= 4))
			return len;
	return 1;
}

static const char *type_name(unsigned type)
{
	return type == HW_BREAKPOINT_X	  ? "x"
	       : type == HW_BREAKPOINT_RW ? "rw"
	       : type == HW_BREAKPOINT_W  ? "w"
					  : "r";
}

/* The value at a data breakpoint's address at each hit: read by a BPF program at the hit. */
static int bp_values(struct session *s, struct breakpoint *p, struct bp *b, struct evsel *ev,
		     const struct opt_set *opts)
{
	int ret;

	b->valued = true;
	if (p->no_values[0]) /* (said for the first) */
		return 0;
	ret = watchval__add(s, opts, &p->values, ev, (int)(b - p->bp), b->addr, b->len,
			    p->no_values, sizeof(p->no_values));
	if (ret < 0)
		return ret;
	if (ret) {
		const struct target_opts *tg = opts ? opt_set__get(opts, &target_group) : NULL;

		/*
		 * Each hit's number, to pair it with its value: the event's
		 * count, which the program cannot read from an inherited event
		 * (-p, --, --inherit: paired by time then, watchval.h).
		 */
		if (tg && !tg->nr_pids && !(tg->argv && tg->argv[0]) && !tg->inherit && !tg->ptrace)
			ev->attr.sample_type |= PERF_SAMPLE_READ;
		session__notice(s, "'%s': the value at each hit read in the kernel (BPF)", b->text);
	} else
		session__notice(s, "'%s': the values at the hits are unavailable (value ?): %s",
				b->text, p->no_values);
	return 0;
}

static int bp_add(struct session *s, struct breakpoint *p, struct bp *b, const struct opt_set *opts)
{
	struct evsel_conf c = {
		.type = PERF_TYPE_BREAKPOINT,
		.sample_period = 1,
		.callchain = p->show_stack,
		.exclude_user = p->excl_user,
		.exclude_kernel = p->excl_kernel,
		.extra_sample_type = PERF_SAMPLE_IP,
		.name = b->text,
	};
	struct evsel *ev;
	char what[BP_TEXT + 300] = "", part[64] = "";

	if (b->sym[0]) {
		int err = resolve(s, p, b);

		if (err)
			return err;
		if (b->off)
			snprintf(what, sizeof(what), "%s+0x%llx (%s)", b->sym,
				 (unsigned long long)b->off, b->sa.file);
		else
			snprintf(what, sizeof(what), "%s (%s)", b->sym, b->sa.file);
	}
	if (!b->type)
		b->type = b->sym[0] && b->sa.func ? HW_BREAKPOINT_X : HW_BREAKPOINT_RW;
	if (!b->len)
		b->len = default_len(b);
	/* an execute breakpoint's length is a formality: any instruction address goes */
	if (b->type != HW_BREAKPOINT_X && (b->addr & (b->len - 1)))
		return session__usage_err(s,
					  "'%s': 0x%llx is not aligned to %u bytes: a breakpoint "
					  "watches 1, 2, 4 or 8 aligned bytes (try /1)",
					  b->text, (unsigned long long)b->addr, b->len);
	/* the kernel takes them only where a kprobe could go, so never without kprobes */
	if (b->type == HW_BREAKPOINT_X && (s64)b->addr < 0 && !features__kprobes())
		return session__set_err(s, -EOPNOTSUPP,
					"'%s': this kernel has no kprobes (CONFIG_KPROBES), and "
					"refuses execute breakpoints on its code without them",
					b->text);
	if (b->sa.size > b->len + b->off && b->type != HW_BREAKPOINT_X)
		snprintf(part, sizeof(part), " (%u of its %llu bytes)", b->len,
			 (unsigned long long)(b->sa.size - b->off));
	if (session__verbose(s))
		session__warn(s, "breakpoint on %s%s0x%llx%s len %u %s%s", what,
			      what[0] ? " at " : "", (unsigned long long)b->addr,
			      b->sa.predicted ? " (before it runs)" : "", b->len,
			      type_name(b->type), part);
	ev = session__add_event(s, &c);
	if (!ev)
		return -ENOMEM;
	ev->attr.bp_type = b->type;
	ev->attr.bp_addr = b->addr;
	ev->attr.bp_len = b->len;
	ev->priv = b;
	return b->type == HW_BREAKPOINT_X ? 0 : bp_values(s, p, b, ev, opts);
}

/*
 * Read the maps of -p/-t targets now, through a first lookup: a process
 * that exits before its samples are read still has its ips named (a
 * command's maps come from its MMAP2 records).
 */
static void read_maps(struct session *s, u64 addr)
{
	const struct target_opts *tg = session__conf(s)->target;
	struct stack_ctx *ctx = session__stack(s);

	for (int i = 0; ctx && i < tg->nr_pids + tg->nr_tids; i++) {
		pid_t pid = i < tg->nr_pids ? tg->pids[i] : procfs__tgid(tg->tids[i - tg->nr_pids]);
		struct sample smp = { .pid = (u32)pid, .tid = (u32)pid, .nr_ips = 1, .ips = &addr };
		struct frame f;

		if (pid > 0)
			stack__frames(ctx, &smp, &f, 1);
	}
}

static int bp_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct stack_opts *st = opt_set__get(opts, &stack_group);
	const struct target_opts *tg = session__conf(s)->target;
	const struct exclude_opts *ex = opt_set__get(opts, &exclude_group);
	const struct flame_opts *fo;
	struct breakpoint *p = priv;
	int err;

	if (exclude__empty(ex))
		return session__usage_err(s, "%s", exclude__empty(ex));
	if (ex && ex->host)
		return session__usage_err(s, "breakpoints are the host's debug registers: "
					     "-G/--exclude-host leaves nothing");
	/* --exclude-guest: a guest runs with debug registers of its own; nothing to leave out */
	p->excl_user = ex && ex->user;
	p->excl_kernel = ex && ex->kernel;
	p->show_stack = st && !st->capture.defaulted && st->capture.cg != CG_NONE;
	if (!p->nr) /* an injected session without args */
		return session__usage_err(s, "no breakpoint: give %s", syntax);
	if (!features__has_pmu("breakpoint"))
		return session__set_err(s, -EOPNOTSUPP,
					"no breakpoint PMU in this kernel "
					"(/sys/bus/event_source/devices/breakpoint: "
					"CONFIG_HAVE_HW_BREAKPOINT)");
	for (int i = 0; i < p->nr; i++) {
		err = bp_add(s, p, &p->bp[i], opts);
		if (err)
			return err;
	}
	fo = opt_set__get(opts, &flame_group);
	if (fo && (fo->name || fo->pprof) && !p->show_stack)
		return session__usage_err(s, "%s needs stacks: add -g",
					  fo->name ? "--flame-graph" : "--pprof");
	err = stack_flame__open(s, fo,
				&(struct flame_kind){ .title = "Breakpoint Hits", .count = "hits" },
				&p->flame);
	if (err)
		return err;
	read_maps(s, p->bp[0].addr);
	for (int i = 0; i < p->nr; i++)
		if (tg->cpus_given && !tg->nr_pids && !tg->nr_tids && tg->argv && tg->argv[0] &&
		    p->bp[i].sym[0] && !p->bp[i].sa.kernel)
			session__notice(s,
					"'%s': with -C, watched in every process on those CPUs for "
					"as long as '%s' runs, not in it alone (without -C: in it "
					"and its children, wherever they run)",
					p->bp[i].text, tg->argv[0]);
	if (p->persona_set)
		session__notice(s,
				"'%s' runs without address randomization: its symbols' "
				"addresses are known before it starts",
				session__conf(s)->target->argv[0]);
	return 0;
}

/* The command's exec: are its symbols where they were placed? */
static void bp_comm(struct session *s, void *priv, const struct rec_comm *c)
{
	struct breakpoint *p = priv;

	if (p->checked || !c->exec || (pid_t)c->pid != session__workload_pid(s))
		return;
	p->checked = true;
	for (int i = 0; i < p->nr; i++) {
		struct bp *b = &p->bp[i];
		struct symaddr sa;

		if (b->sa.predicted && !symaddr__process(c->pid, b->sym, &sa) &&
		    sa.addr + b->off != b->addr)
			session__warn(s,
				      "'%s': %s is at 0x%llx in the running '%s', not at 0x%llx: "
				      "this breakpoint watches the wrong address (use -p PID)",
				      b->text, b->sym, (unsigned long long)(sa.addr + b->off),
				      c->comm, (unsigned long long)b->addr);
	}
}

/* The ip alone, as the first frame of a stack: false if it has no name. */
static bool ip_frame(struct stack_ctx *ctx, const struct sample *smp, struct frame *f)
{
	struct sample one = *smp;
	u64 ip = smp->ip;

	if (!ctx)
		return false;
	one.ips = &ip;
	one.nr_ips = 1;
	one.sample_type &= ~(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
	return stack__frames(ctx, &one, f, 1) == 1 && strcmp(f->sym, "[unknown]");
}

/*
 * A hit: its event line in text ("addr 0x.. (bp_var) value 0x2a ip 0x..
 * bp_bump+0x.. (dso)"); JSON {"type":"event",...,"event":"bp_var:w",
 * "addr":"0x..","addr_sym":"bp_var"[,"addr_off":N],"value":"0x2a","ip":"0x..",
 * "ip_sym":"bp_bump","ip_off":N,"ip_dso":"..","stack":[...]}.  The value
 * (a data breakpoint's) is "?" in text and null in JSON when not read.
 */
static const struct rt_col hit_cols[] = {
	{ .type = RT_ROW },
	{ .type = RT_STR, .flags = RT_NO_JSON },
	{ .name = "addr", .type = RT_HEX, .flags = RT_NO_TEXT },
	{ .name = "addr_sym", .type = RT_STR, .flags = RT_NO_TEXT | RT_OMIT_EMPTY },
	{ .name = "addr_off", .type = RT_U64, .flags = RT_NO_TEXT | RT_OMIT_ZERO },
	{ .name = "value", .type = RT_STR, .flags = RT_NO_TEXT | RT_OMIT_EMPTY },
	{ .name = "ip", .type = RT_HEX, .flags = RT_NO_TEXT },
	{ .name = "ip_sym", .type = RT_STR, .flags = RT_NO_TEXT | RT_OMIT_EMPTY },
	{ .name = "ip_off", .type = RT_U64, .flags = RT_NO_TEXT | RT_OMIT_EMPTY },
	{ .name = "ip_dso", .type = RT_STR, .flags = RT_NO_TEXT | RT_OMIT_EMPTY },
	EVL_STACK_COL,
};
static const struct rt_desc hit_desc = { .type = "event", .cols = hit_cols, .ncols = 11 };

static void bp_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct breakpoint *p = priv;
	struct bp *b = ev->priv;
	FILE *out = session__event_out(s, priv);
	struct rt_val v[EVL_NCOLS];
	struct rt_stack stk;
	char text[4096];
	struct frame f;
	char value[24] = "";
	struct data_sym ds = { 0 };
	bool named, dnamed;
	const char *asym; /* the address's symbol: the one given, else the variable there */
	size_t n;
	u64 val, aoff;

	if (!b)
		return;
	if (b->valued && !watchval__get(p->values, smp, (int)(b - p->bp), &val))
		snprintf(value, sizeof(value), "0x%llx", (unsigned long long)val);
	b->hits++;
	p->hits++;
	if (p->flame) { /* the stacks folded: no line per hit */
		stack_flame__add(p->flame, s, smp, session__comm_at(s, smp->tid, smp->time),
				 b->text, 1, 0);
		return;
	}
	if (!out)
		return;
	evline__row(v, &stk, s, NULL, smp, NULL, ev->name);
	if (!p->show_stack)
		v[EVL_STACK].stk = NULL;
	named = ip_frame(session__stack(s), smp, &f);
	/* a number: the variable it lies in, where one is known (not for code) */
	dnamed = !b->sym[0] && b->type != HW_BREAKPOINT_X &&
		 !stack__data_sym(session__stack(s), smp->pid, b->addr, &ds);
	n = (size_t)snprintf(text, sizeof(text), "addr 0x%llx", (unsigned long long)b->addr);
	if (b->sym[0])
		n += (size_t)snprintf(text + n, sizeof(text) - n, b->off ? " (%s+0x%llx)" : " (%s)",
				      b->sym, (unsigned long long)b->off);
	else if (dnamed)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " (%.200s+0x%llx)", ds.sym,
				      (unsigned long long)ds.off);
	asym = b->sym[0] ? b->sym : dnamed ? ds.sym : NULL;
	aoff = b->sym[0] ? b->off : dnamed ? ds.off : 0;
	if (b->valued)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " value %s",
				      value[0] ? value : "?");
	/* the address and symbol are short (BP_TEXT): room for the rest */
	n += (size_t)snprintf(text + n, sizeof(text) - n, " ip 0x%llx",
			      (unsigned long long)smp->ip);
	if (named)
		snprintf(text + n, sizeof(text) - n, f.dso ? " %s+0x%llx (%s)" : " %s+0x%llx",
			 f.sym, (unsigned long long)f.off, f.dso);
	evline__emit(
		s, out, &hit_desc,
		(struct rt_val[]){ { .row = { &evline_head, v } },
				   { .s = text },
				   { .u = b->addr },
				   { .s = asym },
				   { .u = aoff },
				   { .s = value[0] ? value : NULL, .null = b->valued && !value[0] },
				   { .u = smp->ip },
				   { .s = named ? f.sym : NULL },
				   { .u = named ? f.off : 0, .null = !named },
				   { .s = named ? f.dso : NULL, .null = named && !f.dso },
				   v[EVL_STACK] });
}

/* -i with --flame-graph: the next hits' stacks under a time frame */
static void bp_interval(struct session *s, void *priv)
{
	struct breakpoint *p = priv;

	stack_flame__interval(p->flame, s);
}

/* /proc/cpuinfo's "hypervisor" flag: the kernel runs in a virtual machine. */
static bool in_vm(void)
{
	char line[4096];
	bool vm = false;
	FILE *fp = fopen("/proc/cpuinfo", "re");

	while (fp && !vm && fgets(line, sizeof(line), fp))
		vm = !strncmp(line, "flags", 5) && strstr(line, " hypervisor");
	if (fp)
		fclose(fp);
	return vm;
}

/* The hits of each breakpoint: {"type":"summary","breakpoint":"bp_var:w","addr":"0x..","hits":100} */
static const struct rt_col summary_cols[] = {
	{ .type = RT_STR, .flags = RT_LEFT | RT_NO_JSON },
	{ .name = "breakpoint", .type = RT_STR, .flags = RT_NO_TEXT },
	{ .name = "addr", .type = RT_HEX, .flags = RT_NO_TEXT },
	{ .name = "hits", .type = RT_U64, .flags = RT_NO_TEXT },
};
static const struct rt_desc summary_desc = { .type = "summary", .cols = summary_cols, .ncols = 4 };

static void bp_deinit(struct session *s, void *priv)
{
	struct breakpoint *p = priv;
	FILE *out = session__out(s);
	union rt_sinks u;
	struct rt_sink *k;

	if (p->persona_set)
		personality((unsigned long)p->old_persona);
	p->persona_set = false;
	stack_flame__close(p->flame, s, "breakpoint");
	p->flame = NULL;
	watchval__free(p->values);
	p->values = NULL;
	if (!session__started(s))
		return;
	k = session__json(s) ? rt_json__init(&u.json, out, NULL) : rt_text__init(&u.text, out);
	rtable__begin(k, &summary_desc);
	for (int i = 0; i < p->nr; i++) {
		char text[256];

		snprintf(text, sizeof(text), "%s: %llu hit%s at 0x%llx", p->bp[i].text,
			 (unsigned long long)p->bp[i].hits, p->bp[i].hits == 1 ? "" : "s",
			 (unsigned long long)p->bp[i].addr);
		rtable__row(k, (struct rt_val[]){ { .s = text },
						  { .s = p->bp[i].text },
						  { .u = p->bp[i].addr },
						  { .u = p->bp[i].hits } });
	}
	rtable__end(k);
	/* --json: the CLI writes the lost record */
	if (!session__json(s))
		session__print_lost(s, out);
	if (p->hits)
		return;
	if (in_vm())
		session__warn(s, "no hit: nothing touched the watched addresses, or hardware "
				 "breakpoints may not fire on this host (a virtual machine: not "
				 "every hypervisor passes the debug registers through)");
	else
		session__warn(s, "no hit: nothing touched the watched addresses");
}

const struct profiler prof_breakpoint = {
	.name = "breakpoint",
	.needs = (const char *const[]){ "bp", "kprobe?=no execute breakpoints on kernel code",
					"bpf?=no values at the hits (value ?)", NULL },
	.desc = "hardware breakpoints: who reads, writes or runs an address, with ip and stack",
	.synopsis =
		"perf-prof breakpoint ADDR[/LEN][:rwx] ... [-g [--flame-graph NAME]] [-N COUNT] "
		"[-C CPUS|-p PID|-t TID|-- command]",
	.examples =
		"perf-prof breakpoint -p 1234 counter:w -g   # who writes 'counter' of 1234\n"
		"  perf-prof breakpoint 0xffffffff83a4c010/8:rw  # a kernel address, all CPUs\n"
		"  perf-prof breakpoint state:w handle_req:x -- ./server\n"
		"  perf-prof breakpoint -p 1234 counter:w -g --flame-graph writers  # folded\n"
		"ADDR: 0xHEX, a kernel symbol, or with -p/-- a symbol of the program or its\n"
		"libraries (SYMBOL+OFF for a member).  LEN 1, 2, 4 or 8 (default: the symbol's\n"
		"size, else 4); TYPE r, w, rw or x (default: x for a function, else rw).",
	.groups = (const struct opt_group *const[]){ &target_group, &ring_group, &run_group,
						     &output_group, &stack_group, &flame_group,
						     &exclude_group, &bpf_group, NULL },
	.stacks = true,
	.priv_size = sizeof(struct breakpoint),
	.args = bp_args,
	.init = bp_init,
	.ops = { .sample = bp_sample, .comm = bp_comm, .interval = bp_interval },
	.deinit = bp_deinit,
};
