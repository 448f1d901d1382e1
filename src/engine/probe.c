// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic probes (see probe.h): the kernel's kprobe/uprobe PMUs first,
 * tracefs dynamic events only for what the PMUs cannot give (memory the
 * kernel must read at the probe), made by this process; the session's
 * record of them, and their removal, in probeset.c.
 */
#include <asm/perf_regs.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "engine/features.h"
#include "engine/probe.h"
#include "engine/probeset.h"
#include "engine/session_int.h"
#include "util/json.h"

#define GROUP_PREFIX "perf_prof_"

struct probe {
	enum ev_probe kind;
	struct probe_site site; /* kernel probes: symbol and offset only */
	bool dyn;		/* a tracefs event of ours */
};

/* The argument registers of the x86-64 SysV ABI (the kernel's too), in order. */
static const int abi_regs[6] = { PERF_REG_X86_DI, PERF_REG_X86_SI, PERF_REG_X86_DX,
				 PERF_REG_X86_CX, PERF_REG_X86_R8, PERF_REG_X86_R9 };

static const char *const reg_names[PERF_REG_X86_64_MAX] = {
	[PERF_REG_X86_AX] = "ax",	[PERF_REG_X86_BX] = "bx",   [PERF_REG_X86_CX] = "cx",
	[PERF_REG_X86_DX] = "dx",	[PERF_REG_X86_SI] = "si",   [PERF_REG_X86_DI] = "di",
	[PERF_REG_X86_BP] = "bp",	[PERF_REG_X86_SP] = "sp",   [PERF_REG_X86_IP] = "ip",
	[PERF_REG_X86_FLAGS] = "flags", [PERF_REG_X86_R8] = "r8",   [PERF_REG_X86_R9] = "r9",
	[PERF_REG_X86_R10] = "r10",	[PERF_REG_X86_R11] = "r11", [PERF_REG_X86_R12] = "r12",
	[PERF_REG_X86_R13] = "r13",	[PERF_REG_X86_R14] = "r14", [PERF_REG_X86_R15] = "r15",
};

int probe__reg_by_name(const char *name)
{
	for (int i = 0; i < PERF_REG_X86_64_MAX; i++)
		if (reg_names[i] && !strcmp(reg_names[i], name))
			return i;
	return -1;
}

const char *probe__reg_name(int reg)
{
	return reg >= 0 && reg < PERF_REG_X86_64_MAX ? reg_names[reg] : NULL;
}

void probe_sites__free(struct probe_site *sites, int nr)
{
	for (int i = 0; sites && i < nr; i++) {
		free(sites[i].path);
		free(sites[i].symbol);
	}
	free(sites);
}

void session__set_probe_resolver(struct session *s, probe_resolve_fn fn)
{
	s->probes.resolve = fn;
}

bool probe__supported(bool kernel)
{
	return features__has_pmu(kernel ? "kprobe" : "uprobe");
}

/* The bit a PMU format file gives ("config:0", "config:32-63"), or @def. */
static int format_bit(const char *pmu, const char *name, int def)
{
	char path[64], buf[64];
	const char *colon;

	snprintf(path, sizeof(path), "format/%s", name);
	if (features__pmu_read(pmu, path, buf, sizeof(buf)) || strncmp(buf, "config:", 7))
		return def;
	colon = buf + 7;
	return isdigit((unsigned char)*colon) ? atoi(colon) : def;
}

/* ---- tracefs dynamic events: made only when the PMU cannot do it ---- */

/*
 * Is @pid a perf-prof that may still use its group?  Its name says so, or
 * it runs our own executable (a renamed copy or link keeps the inode).
 */
static bool is_perf_prof(int pid)
{
	char path[64], comm[32] = "";
	struct stat st, self;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = 0;
	fclose(f);
	if (!strncmp(comm, "perf-prof", 9))
		return true;
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	return !stat(path, &st) && !stat("/proc/self/exe", &self) && st.st_dev == self.st_dev &&
	       st.st_ino == self.st_ino;
}

int probe__remove_stale(char *groups, size_t len)
{
	unsigned types = TRACEFS_DYNEVENT_KPROBE | TRACEFS_DYNEVENT_KRETPROBE |
			 TRACEFS_DYNEVENT_UPROBE | TRACEFS_DYNEVENT_URETPROBE;
	struct tracefs_dynevent **all;
	int removed = 0;

	if (groups && len)
		groups[0] = 0;
	/* only a tracefs already mounted (libtracefs would mount one) */
	if (!features__tracefs_dir())
		return 0;
	all = tracefs_dynevent_get_all(types, NULL);
	for (int i = 0; all && all[i]; i++) {
		char *sys = NULL, *ev = NULL, *end;
		long pid;

		tracefs_dynevent_info(all[i], &sys, &ev, NULL, NULL, NULL);
		if (sys && !strncmp(sys, GROUP_PREFIX, strlen(GROUP_PREFIX))) {
			pid = strtol(sys + strlen(GROUP_PREFIX), &end, 10);
			if (!*end && pid > 0 && pid != getpid() && !is_perf_prof((int)pid) &&
			    !tracefs_dynevent_destroy(all[i], false)) {
				size_t n = groups ? strlen(groups) : 0;

				removed++;
				if (groups && n + 1 < len)
					snprintf(groups + n, len - n, "%s%s/%s", n ? " " : "", sys,
						 ev ? ev : "?");
			}
		}
		free(sys);
		free(ev);
	}
	tracefs_dynevent_list_free(all);
	return removed;
}

void probe__cleanup_stale(struct session *s)
{
	probeset__cleanup_stale(&s->probes, s->conf.log->verbose);
}

static void warn_left(void *arg, const char *event, int err)
{
	session__warn(arg, "cannot remove the probe %s from tracefs: %s (the next run removes it)",
		      event, strerror(err));
}

void probe__remove_all(struct session *s)
{
	probeset__remove_all(&s->probes, warn_left, s);
}

int probe_arg__fetch(const struct probe_arg *a, char *buf, size_t len)
{
	const char *r = probe__reg_name(a->reg);
	char t = a->is_signed ? 's' : 'u';
	int n = 0;

	switch (a->kind) {
	case PROBE_ARG_IMM:
		n = snprintf(buf, len, "\\%lld:%c%d", (long long)a->value, t, a->size * 8);
		break;
	case PROBE_ARG_REG:
		if (!r)
			return -EOPNOTSUPP;
		n = snprintf(buf, len, "%%%s:%c%d", r, t, a->size * 8);
		break;
	case PROBE_ARG_MEM:
		/* the kernel's fetch has no index register */
		if (a->index >= 0 || (!a->file_rel && !r))
			return -EOPNOTSUPP;
		if (a->file_rel)
			n = snprintf(buf, len, "@+0x%llx:%c%d", (unsigned long long)a->value, t,
				     a->size * 8);
		else
			n = snprintf(buf, len, "%+lld(%%%s):%c%d", (long long)a->value, r, t,
				     a->size * 8);
		break;
	}
	return n < 0 || (size_t)n >= len ? -E2BIG : 0;
}

/* One fetch argument "NAME=FETCH:TYPE" appended to @out. */
static int fetch_arg(struct session *s, const struct ev_spec *spec, const struct probe *pr,
		     const char *name, const char *type, const struct probe_arg *ua, char *out,
		     size_t len)
{
	size_t n = strlen(out);
	char what[96];
	bool str = type && (!strcmp(type, "string") || !strcmp(type, "ustring"));

	if (ua) { /* a USDT operand: "FETCH:TYPE" */
		if (probe_arg__fetch(ua, what, sizeof(what)))
			return session__set_err(
				s, -EOPNOTSUPP,
				"%s: operand %s of %s is indexed memory, which the kernel "
				"cannot fetch",
				spec->text, name, pr->site.symbol);
		if (snprintf(out + n, len - n, " %s=%s", name, what) >= (int)(len - n))
			return session__set_err(s, -E2BIG, "%s: too many fetch arguments",
						spec->text);
		return 0;
	}
	if (!strcmp(name, "retval")) {
		snprintf(what, sizeof(what), str ? "+0($retval)" : "$retval");
	} else {
		const char *r = probe__reg_name(abi_regs[name[3] - '1']);

		snprintf(what, sizeof(what), str ? "+0(%%%s)" : "%%%s", r);
	}
	if (snprintf(out + n, len - n, " %s=%s:%s", name, what, type) >= (int)(len - n))
		return session__set_err(s, -E2BIG, "%s: too many fetch arguments", spec->text);
	return 0;
}

/* Make the tracefs event of @pr; its group and name go to @group and @event. */
static int make_dyn(struct session *s, const struct ev_spec *spec, struct probe *pr, char *group,
		    char *event, size_t len)
{
	static unsigned seq;
	bool user = ev_probe__is_user(pr->kind), ret = ev_probe__is_return(pr->kind);
	const char *file = user ? "uprobe_events" : "kprobe_events";
	char line[PATH_MAX + 1024], args[768] = "", base[40], why[512];
	size_t n = 0;
	int err;

	for (const char *p = pr->site.symbol; *p && n < sizeof(base) - 1; p++)
		base[n++] = isalnum((unsigned char)*p) ? *p : '_';
	base[n] = 0;
	snprintf(group, len, GROUP_PREFIX "%d", (int)getpid());
	snprintf(event, len, "%s_%u", isalpha((unsigned char)base[0]) ? base : "p", seq++);
	if (pr->kind == EV_USDT) {
		for (int i = 0; i < pr->site.nr_args; i++) {
			char name[16];

			snprintf(name, sizeof(name), "arg%d", i + 1);
			err = fetch_arg(s, spec, pr, name, NULL, &pr->site.args[i], args,
					sizeof(args));
			if (err)
				return err;
		}
	}
	for (int i = 0; i < spec->nr_attrs; i++) {
		const struct ev_attr *a = &spec->attrs[i];

		if (!evspec__is_fetch_attr(a->key))
			continue;
		err = fetch_arg(s, spec, pr, a->key, a->value, NULL, args, sizeof(args));
		if (err)
			return err;
	}
	if (user) {
		char rc[32] = "";

		if (pr->site.ref_ctr_offset)
			snprintf(rc, sizeof(rc), "(0x%llx)",
				 (unsigned long long)pr->site.ref_ctr_offset);
		n = (size_t)snprintf(line, sizeof(line), "%c:%s/%s %s:0x%llx%s%s", ret ? 'r' : 'p',
				     group, event, pr->site.path,
				     (unsigned long long)pr->site.offset, rc, args);
	} else {
		n = (size_t)snprintf(line, sizeof(line), "%c:%s/%s %s+%llu%s", ret ? 'r' : 'p',
				     group, event, pr->site.symbol,
				     (unsigned long long)pr->site.offset, args);
	}
	if (n >= sizeof(line) || strpbrk(pr->site.path ? pr->site.path : "", " \t\n"))
		return session__set_err(
			s, -ENAMETOOLONG,
			"%s: cannot define the probe for tracefs (a path too long or "
			"with blanks: %s)",
			spec->text, pr->site.path ? pr->site.path : pr->site.symbol);
	probe__cleanup_stale(s);
	err = probeset__make(&s->probes, file, line, group, event, why, sizeof(why));
	if (err && why[0])
		return session__set_err(s, err, "%s: the kernel refused the probe '%s': %s",
					spec->text, line, why);
	if (err)
		return session__set_err(s, err, "out of memory");
	return 0;
}

static bool needs_dyn(struct session *s, const struct ev_spec *spec, const struct probe_site *site)
{
	const struct target_opts *t = s->conf.target;

	/*
	 * A uprobe PMU event cannot be inherited: the kernel reads its file
	 * path from the memory of the task that creates the thread, where
	 * perf-prof's pointer means nothing, and the new thread goes unseen.
	 * Events that must follow new threads (-p, -- command) are tracefs
	 * events, which inherit like any tracepoint.
	 */
	if (ev_probe__is_user(spec->probe) && !s->cpu_wide &&
	    (t->nr_pids || t->argv || (t->nr_tids && (t->inherit || t->ptrace))))
		return true;
	for (int i = 0; i < spec->nr_attrs; i++)
		if (evspec__is_fetch_attr(spec->attrs[i].key))
			return true;
	for (int i = 0; i < site->nr_args; i++)
		if (site->args[i].kind == PROBE_ARG_MEM)
			return true;
	return false;
}

/* The registers a probe's arguments live in. */
static u64 regs_mask(const struct probe *pr)
{
	/* the stack pointer: where a call stands (umalloc's nesting, posix_memalign's result) */
	u64 m = 1ULL << PERF_REG_X86_IP | 1ULL << PERF_REG_X86_SP;

	if (pr->kind == EV_USDT) {
		for (int i = 0; i < pr->site.nr_args; i++)
			if (pr->site.args[i].kind == PROBE_ARG_REG && pr->site.args[i].reg >= 0)
				m |= 1ULL << pr->site.args[i].reg;
	} else if (ev_probe__is_return(pr->kind)) {
		m |= 1ULL << PERF_REG_X86_AX;
	} else {
		for (int i = 0; i < 6; i++)
			m |= 1ULL << abi_regs[i];
	}
	return m;
}

static void probe_free(struct probe *pr)
{
	if (!pr)
		return;
	free(pr->site.path);
	free(pr->site.symbol);
	free(pr);
}

struct probe *probe__new(enum ev_probe kind, const struct probe_site *site)
{
	struct probe *pr = calloc(1, sizeof(*pr));

	if (!pr)
		return NULL;
	pr->kind = kind;
	pr->site = *site;
	pr->site.path = site->path ? strdup(site->path) : NULL;
	pr->site.symbol = strdup(site->symbol ? site->symbol : "");
	if ((site->path && !pr->site.path) || !pr->site.symbol) {
		probe_free(pr);
		return NULL;
	}
	return pr;
}

void probe__free(struct evsel *ev)
{
	probe_free(ev->probe);
	ev->probe = NULL;
}

static int add_site(struct session *s, struct ev_spec *spec, const struct probe_site *site,
		    const struct evsel_conf *conf)
{
	bool kernel = !ev_probe__is_user(spec->probe), ret = ev_probe__is_return(spec->probe);
	struct probe *pr = probe__new(spec->probe, site);
	struct evsel_conf c = *conf;
	char name[256], group[64], event[64];
	const char *pmu = kernel ? "kprobe" : "uprobe";
	struct evsel *ev;
	int err;

	if (!pr)
		return session__set_err(s, -ENOMEM, "out of memory");
	if (spec->probe == EV_USDT)
		snprintf(name, sizeof(name), "usdt:%s:%s", spec->provider, spec->name);
	else
		snprintf(name, sizeof(name), "%s:%s", ev_probe__name(spec->probe), spec->name);
	c.name = spec->alias ? spec->alias : name;
	c.filter = spec->filter;
	if (spec->stack)
		c.callchain = true;
	if (spec->max_stack)
		c.max_stack = spec->max_stack;
	if (needs_dyn(s, spec, site)) {
		err = make_dyn(s, spec, pr, group, event, sizeof(group));
		if (err) {
			probe_free(pr);
			return err;
		}
		pr->dyn = true;
		ev = session__add_tp(s, group, event, &c);
	} else {
		int type = features__pmu_type(pmu);

		if (type < 0) {
			probe_free(pr);
			return session__set_err(s, -EOPNOTSUPP, "%s: no %s PMU in this kernel",
						spec->text, pmu);
		}
		c.type = (u32)type;
		c.config = ret ? 1ULL << format_bit(pmu, "retprobe", 0) : 0;
		if (site->ref_ctr_offset)
			c.config |= site->ref_ctr_offset << format_bit(pmu, "ref_ctr_offset", 32);
		c.extra_sample_type |= PERF_SAMPLE_RAW;
		ev = session__add_event(s, &c);
		if (ev) {
			ev->attr.config1 =
				(u64)(uintptr_t)(kernel ? pr->site.symbol : pr->site.path);
			ev->attr.config2 = pr->site.offset;
			if (c.filter && !(ev->filter = strdup(c.filter)))
				ev = NULL;
		}
	}
	if (!ev) {
		probe_free(pr);
		return s->err.code ? s->err.code : session__set_err(s, -ENOMEM, "out of memory");
	}
	ev->probe = pr;
	ev->spec = spec;
	if (kernel) {
		ev->attr.sample_type |= PERF_SAMPLE_REGS_INTR;
		ev->attr.sample_regs_intr |= regs_mask(pr);
	} else {
		ev->attr.sample_type |= PERF_SAMPLE_REGS_USER;
		ev->attr.sample_regs_user |= regs_mask(pr);
	}
	return 0;
}

int probe__add_spec(struct session *s, struct ev_spec *spec, const void *conf)
{
	bool kernel = !ev_probe__is_user(spec->probe);
	struct probe_site *sites = NULL, one = { 0 };
	int nr = 0, err;

	if (!probe__supported(kernel)) {
		if (kernel)
			return session__set_err(
				s, -EOPNOTSUPP,
				"%s: this kernel has no kprobes (built without CONFIG_KPROBES: no "
				"kprobe PMU in /sys/bus/event_source/devices); tracepoints and "
				"uprobes work",
				spec->text);
		return session__set_err(s, -EOPNOTSUPP,
					"%s: this kernel has no uprobes (built without "
					"CONFIG_UPROBE_EVENTS: no uprobe PMU in "
					"/sys/bus/event_source/devices)",
					spec->text);
	}
	if (kernel) {
		one.symbol = spec->name;
		one.offset = spec->offset;
		one.nr_args = -1;
		return add_site(s, spec, &one, conf) ?: 1;
	}
	if (!s->probes.resolve)
		return session__set_err(s, -EOPNOTSUPP, "%s: user probes cannot be resolved here",
					spec->text);
	err = s->probes.resolve(s, spec, &sites, &nr);
	if (err)
		return err;
	for (int i = 0; i < nr && !err; i++)
		err = add_site(s, spec, &sites[i], conf);
	probe_sites__free(sites, nr);
	return err ? err : nr;
}

int probe__field(const struct evsel *ev, const char *name, struct field *f, const char **why)
{
	const struct probe *pr = ev->probe;
	const char *dummy;
	int n;

	if (!why)
		why = &dummy;
	*why = NULL;
	memset(f, 0, sizeof(*f));
	if (!pr)
		return -ENOENT;
	f->reg_intr = !ev_probe__is_user(pr->kind);
	f->size = 8;
	if (!strcmp(name, "retval")) {
		if (!ev_probe__is_return(pr->kind)) {
			*why = "retval is the value of a return probe (kretprobe:, uretprobe:)";
			return -ENOENT;
		}
		f->in_regs = f->valid = true;
		f->reg = PERF_REG_X86_AX;
		return 0;
	}
	if (strncmp(name, "arg", 3) || !isdigit((unsigned char)name[3]))
		return -ENOENT;
	n = atoi(name + 3);
	if (ev_probe__is_return(pr->kind)) {
		*why = "a return probe has no arguments (retval is its value)";
		return -ENOENT;
	}
	if (pr->kind != EV_USDT) {
		if (n < 1 || n > 6 || name[4]) {
			*why = "a function's arguments are arg1..arg6";
			return -ENOENT;
		}
		f->in_regs = f->valid = true;
		f->reg = (unsigned char)abi_regs[n - 1];
		return 0;
	}
	if (n < 1 || n > pr->site.nr_args) {
		*why = "a USDT probe has the arguments its note gives (perf-prof list -v)";
		return -ENOENT;
	}
	const struct probe_arg *a = &pr->site.args[n - 1];

	f->size = a->size;
	f->is_signed = a->is_signed;
	if (a->kind == PROBE_ARG_IMM) {
		f->is_const = f->valid = true;
		f->value = a->value;
		return 0;
	}
	if (a->kind != PROBE_ARG_REG || a->reg < 0)
		return -ENOENT;
	f->in_regs = f->valid = true;
	f->reg = (unsigned char)a->reg;
	return 0;
}

enum reg_fmt { REG_HEX, REG_SIGNED, REG_UNSIGNED };

/*
 * The arguments from the registers that the format does not have (it
 * prints those itself), each through @emit: a return's retval, else arg1..
 * (a USDT site's count, 6 otherwise), hex but for USDT's typed operands.
 */
static void for_each_reg(const struct evsel *ev, const struct sample *smp,
			 void (*emit)(void *arg, const char *name, u64 v, enum reg_fmt fmt),
			 void *arg)
{
	const struct probe *pr = ev->probe;
	struct field f;
	char name[16];
	u64 v;

	if (!pr)
		return;
	if (ev_probe__is_return(pr->kind)) {
		if ((!ev->tp || !tep_find_any_field(ev->tp, "retval")) &&
		    !probe__field(ev, "retval", &f, NULL) && !field__u64(&f, smp, &v))
			emit(arg, "retval", v, REG_HEX);
		return;
	}
	for (int i = 1; i <= (pr->kind == EV_USDT ? pr->site.nr_args : 6); i++) {
		snprintf(name, sizeof(name), "arg%d", i);
		if ((ev->tp && tep_find_any_field(ev->tp, name)) ||
		    probe__field(ev, name, &f, NULL) || field__u64(&f, smp, &v))
			continue;
		emit(arg, name, v,
		     pr->kind != EV_USDT ? REG_HEX
		     : f.is_signed	 ? REG_SIGNED
					 : REG_UNSIGNED);
	}
}

static void print_reg(void *arg, const char *name, u64 v, enum reg_fmt fmt)
{
	FILE *fp = arg;

	if (fmt == REG_HEX)
		fprintf(fp, " %s=0x%llx", name, (unsigned long long)v);
	else if (fmt == REG_SIGNED)
		fprintf(fp, " %s=%lld", name, (long long)v);
	else
		fprintf(fp, " %s=%llu", name, (unsigned long long)v);
}

/* The arguments from the registers (those the format has are printed by it). */
void probe__print_regs(const struct evsel *ev, const struct sample *smp, FILE *fp)
{
	for_each_reg(ev, smp, print_reg, fp);
}

/* After the 8-byte common header: the probed address (and a return's caller), 0 if not there. */
static void probe_addrs(const struct sample *smp, u64 a[2])
{
	a[0] = a[1] = 0;
	for (int i = 0; i < 2; i++)
		if (smp->raw && smp->raw_size >= (u32)(16 + 8 * i))
			memcpy(&a[i], (const char *)smp->raw + 8 + 8 * i, 8);
}

void probe__print(const struct evsel *ev, const struct sample *smp, FILE *fp)
{
	const struct probe *pr = ev->probe;
	u64 a[2];

	if (!pr)
		return;
	probe_addrs(smp, a);
	if (ev_probe__is_return(pr->kind))
		fprintf(fp, "(0x%llx <- 0x%llx)", (unsigned long long)a[0],
			(unsigned long long)a[1]);
	else
		fprintf(fp, "(0x%llx)", (unsigned long long)a[0]);
	probe__print_regs(ev, smp, fp);
}

static void json_reg(void *arg, const char *name, u64 v, enum reg_fmt fmt)
{
	struct json *j = arg;

	if (fmt == REG_HEX)
		json__hex(j, name, v);
	else if (fmt == REG_SIGNED)
		json__i64(j, name, (int64_t)v);
	else
		json__u64(j, name, v);
}

void probe__json_regs(const struct evsel *ev, const struct sample *smp, struct json *j)
{
	for_each_reg(ev, smp, json_reg, j);
}

void probe__json(const struct evsel *ev, const struct sample *smp, struct json *j)
{
	const struct probe *pr = ev->probe;
	u64 a[2];

	if (!pr)
		return;
	probe_addrs(smp, a);
	if (ev_probe__is_return(pr->kind)) {
		json__hex(j, "__probe_func", a[0]);
		json__hex(j, "__probe_ret_ip", a[1]);
	} else {
		json__hex(j, "__probe_ip", a[0]);
	}
	probe__json_regs(ev, smp, j);
}
