// SPDX-License-Identifier: GPL-2.0
/*
 * misc: the kernel's side-band records, one line each: kernel symbols
 * registered and unregistered (BPF programs, JIT code, kprobe and ftrace
 * trampolines), BPF programs loaded and unloaded (id, tag), cgroups
 * created (id, path), kernel text rewritten in place (address, old and
 * new bytes).  A dummy software event per CPU asks for them; it samples
 * nothing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler.h"
#include "report/evline.h"
#include "report/outfile.h"
#include "report/rtable.h"
#include "sym/ksyms.h"

struct misc {
	struct ksyms *ksyms; /* text_poke's function names, loaded at the first */
	bool ksyms_tried;
	u64 nr; /* records printed: -N stops after so many */
};

enum {
	M_HEAD,
	M_TEXT,
	M_KIND,
	M_ACTION,
	M_KSYM_TYPE,
	M_ADDR,
	M_LEN,
	M_NAME,
	M_PROG_ID,
	M_TAG,
	M_CGROUP_ID,
	M_PATH,
	M_OLD,
	M_NEW,
	M_SYMBOL,
	M_NCOLS
};

#define J(n, t)                                                               \
	{                                                                     \
		.name = (n), .type = (t), .flags = RT_NO_TEXT | RT_OMIT_EMPTY \
	}
static const struct rt_col misc_cols[M_NCOLS] = {
	[M_HEAD] = { .type = RT_ROW },
	[M_TEXT] = { .type = RT_STR, .flags = RT_NO_JSON },
	[M_KIND] = { .name = "kind", .type = RT_STR, .flags = RT_NO_TEXT },
	[M_ACTION] = J("action", RT_STR),
	[M_KSYM_TYPE] = J("ksym_type", RT_STR),
	[M_ADDR] = J("addr", RT_HEX),
	[M_LEN] = J("len", RT_U64),
	[M_NAME] = J("name", RT_STR),
	[M_PROG_ID] = J("prog_id", RT_U64),
	[M_TAG] = J("tag", RT_STR),
	[M_CGROUP_ID] = J("cgroup_id", RT_U64),
	[M_PATH] = J("path", RT_STR),
	[M_OLD] = J("old", RT_STR),
	[M_NEW] = J("new", RT_STR),
	[M_SYMBOL] = J("symbol", RT_STR),
};
#undef J
static const struct rt_desc misc_desc = { .type = "event", .cols = misc_cols, .ncols = M_NCOLS };

static int misc_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct target_opts *tg = session__conf(s)->target;
	struct evsel_conf c = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.name = "misc",
		.sideband = SB_ALL,
	};

	static const char *const kinds[] = { "ksymbol", "bpf_event", "cgroup", "text_poke" };

	(void)priv;
	(void)opts;
	if (tg->nr_pids || tg->nr_tids || (tg->argv && tg->argv[0]))
		return session__usage_err(s, "side-band records are the whole system's: "
					     "no -p, -t or command (-C CPUS picks CPUs)");
	/* an older kernel: the records it has (as the original, which drops what it refuses) */
	c.sideband = sideband__supported(SB_ALL);
	if (!c.sideband)
		return session__set_err(s, -EOPNOTSUPP,
					"this kernel gives no side-band records (ksymbol and "
					"bpf_event came with Linux 5.1)");
	for (int i = 0; i < 4; i++)
		if (!(c.sideband & (1u << i)))
			session__notice(s, "this kernel gives no %s records", kinds[i]);
	/* a program loaded on one CPU may be unloaded on another: lines in time order */
	session__want_order(s);
	return session__add_event(s, &c) ? 0 : -ENOMEM;
}

static const char *ksym_type(unsigned t)
{
	return t == PERF_RECORD_KSYMBOL_TYPE_BPF   ? "bpf"
	       : t == PERF_RECORD_KSYMBOL_TYPE_OOL ? "ool"
						   : "unknown";
}

/*
 * @n bytes as "0f 1f 44": in @buf when they fit in @len, else in memory of
 * their own (*@own, the caller frees it; an ftrace trampoline's text_poke
 * has hundreds); without memory, what fits and "...(N bytes)".
 */
static const char *hex_bytes(char *buf, size_t len, char **own, const unsigned char *b, unsigned n)
{
	size_t need = 3 * (size_t)n + 1, at = 0;
	unsigned k = n;

	if (need > len && (*own = malloc(need))) {
		buf = *own;
		len = need;
	}
	if (need > len) /* room for the marker: 24 bytes */
		k = (unsigned)((len - 24) / 3);
	buf[0] = 0;
	for (unsigned i = 0; i < k; i++)
		at += snprintf(buf + at, len - at, "%s%02x", i ? " " : "", b[i]);
	if (k < n)
		snprintf(buf + at, len - at, " ...(%u bytes)", n);
	return buf;
}

/*
 * The line's text: in @buf when it fits in @len, else in memory of its own
 * (*@own, the caller frees it: a cgroup path may be PATH_MAX long); without
 * memory, what fits and "...".
 */
static const char *__attribute__((format(printf, 4, 5)))
fmt_text(char *buf, size_t len, char **own, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n < len)
		return buf;
	*own = malloc((size_t)n + 1);
	if (!*own) {
		memcpy(buf + len - 4, "...", 4);
		return buf;
	}
	va_start(ap, fmt);
	vsnprintf(*own, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return *own;
}

/* text_poke's address as function+offset, or "" */
static void poke_symbol(struct misc *m, u64 addr, char *buf, size_t len)
{
	const struct sym *sym;

	buf[0] = 0;
	if (!m->ksyms_tried) {
		m->ksyms_tried = true;
		ksyms__load(NULL, &m->ksyms);
	}
	sym = m->ksyms ? ksyms__find(m->ksyms, addr, NULL) : NULL;
	if (sym)
		snprintf(buf, len, "%s+0x%llx", sym->name, (unsigned long long)(addr - sym->start));
}

static void misc_sideband(struct session *s, void *priv, const struct rec_sideband *r)
{
	struct misc *m = priv;
	FILE *out = session__event_out(s, priv);
	struct rt_val v[M_NCOLS], hv[EVL_NCOLS];
	struct sample smp = { 0 };
	struct rt_stack stk;
	char text[1024], tag[20], old[400], new[400], sym[160];
	char *own_text = NULL, *own_old = NULL, *own_new = NULL;
	const char *name = "misc", *line, *olds, *news;
	u64 max = session__conf(s)->run->max_samples;

	if (!out || (max && m->nr >= max))
		return;
	memset(v, 0, sizeof(v));
	/* no member for what this kind lacks: a number without a value, a NULL string */
	v[M_ADDR].null = v[M_LEN].null = v[M_PROG_ID].null = v[M_CGROUP_ID].null = true;
	smp.type = r->type;
	smp.pid = r->pid;
	smp.tid = r->tid;
	smp.cpu = r->cpu;
	smp.time = r->time;
	switch (r->type) {
	case PERF_RECORD_KSYMBOL:
		name = "misc:ksymbol";
		v[M_KIND].s = "ksymbol";
		v[M_ACTION] =
			(struct rt_val){ .s = r->ksym.unregister ? "unregister" : "register" };
		v[M_KSYM_TYPE] = (struct rt_val){ .s = ksym_type(r->ksym.ksym_type) };
		v[M_ADDR] = (struct rt_val){ .u = r->ksym.addr };
		v[M_LEN] = (struct rt_val){ .u = r->ksym.len };
		v[M_NAME] = (struct rt_val){ .s = r->ksym.name };
		line = fmt_text(text, sizeof(text), &own_text, "%s %s %016llx len %u %s",
				ksym_type(r->ksym.ksym_type),
				r->ksym.unregister ? "unregister" : "register",
				(unsigned long long)r->ksym.addr, r->ksym.len, r->ksym.name);
		break;
	case PERF_RECORD_BPF_EVENT: {
		const char *act = r->bpf.type == PERF_BPF_EVENT_PROG_LOAD     ? "load"
				  : r->bpf.type == PERF_BPF_EVENT_PROG_UNLOAD ? "unload"
									      : "unknown";

		name = "misc:bpf_event";
		/* the tag as bpftool shows it: 16 hex digits */
		for (int i = 0; i < 8; i++)
			snprintf(tag + 2 * i, sizeof(tag) - 2 * i, "%02x", r->bpf.tag[i]);
		v[M_KIND].s = "bpf_event";
		v[M_ACTION] = (struct rt_val){ .s = act };
		v[M_PROG_ID] = (struct rt_val){ .u = r->bpf.id };
		v[M_TAG] = (struct rt_val){ .s = tag };
		line = fmt_text(text, sizeof(text), &own_text, "prog %s id %u tag %s", act,
				r->bpf.id, tag);
		break;
	}
	case PERF_RECORD_CGROUP:
		name = "misc:cgroup";
		v[M_KIND].s = "cgroup";
		v[M_CGROUP_ID] = (struct rt_val){ .u = r->cgroup.id };
		v[M_PATH] = (struct rt_val){ .s = r->cgroup.path };
		line = fmt_text(text, sizeof(text), &own_text, "id %llu %s",
				(unsigned long long)r->cgroup.id, r->cgroup.path);
		break;
	default: /* PERF_RECORD_TEXT_POKE */
		name = "misc:text_poke";
		olds = hex_bytes(old, sizeof(old), &own_old, r->poke.old_bytes, r->poke.old_len);
		news = hex_bytes(new, sizeof(new), &own_new, r->poke.new_bytes, r->poke.new_len);
		poke_symbol(m, r->poke.addr, sym, sizeof(sym));
		v[M_KIND].s = "text_poke";
		v[M_ADDR] = (struct rt_val){ .u = r->poke.addr };
		v[M_OLD] = (struct rt_val){ .s = olds };
		v[M_NEW] = (struct rt_val){ .s = news };
		if (sym[0])
			v[M_SYMBOL] = (struct rt_val){ .s = sym };
		line = fmt_text(text, sizeof(text), &own_text, "%016llx %s => %s%s%s",
				(unsigned long long)r->poke.addr, olds[0] ? olds : "-",
				news[0] ? news : "-", sym[0] ? "  " : "", sym);
		break;
	}
	evline__row(hv, &stk, s, NULL, &smp, NULL, name);
	v[M_HEAD] = (struct rt_val){ .row = { &evline_head, hv } };
	v[M_TEXT].s = line;
	evline__emit(s, out, &misc_desc, v);
	free(own_text);
	free(own_old);
	free(own_new);
	if (max && ++m->nr >= max)
		session__stop(s);
}

static void misc_deinit(struct session *s, void *priv)
{
	struct misc *m = priv;

	/* --json: the CLI writes the lost record */
	if (session__started(s) && !session__json(s))
		session__print_lost(s, session__out(s));
	ksyms__delete(m->ksyms);
}

const struct profiler prof_misc = {
	.name = "misc",
	.needs = (const char *const[]){ "cpu-wide", NULL },
	.desc = "the kernel's side-band records: ksymbol, bpf_event, cgroup, text_poke",
	.synopsis = "perf-prof misc [-C CPUS] [-N COUNT] [--json]",
	.examples =
		"perf-prof misc                 # BPF programs, JIT symbols, cgroups, text pokes\n"
		"  perf-prof misc --json -o sb.json",
	.groups = (const struct opt_group *const[]){ &target_group, &ring_group, &run_group,
						     &output_group, NULL },
	.priv_size = sizeof(struct misc),
	.init = misc_init,
	.ops = { .sideband = misc_sideband },
	.deinit = misc_deinit,
};
