// SPDX-License-Identifier: GPL-2.0
/*
 * Resolving user probes: the file (a path, a library name as the dynamic
 * linker finds it, or the target's own executable), then the function's
 * file offset or the USDT notes, into the engine's probe sites.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/session.h"
#include "sym/probe_elf.h"
#include "sym/probe_res.h"

int probe_res__file(const struct ev_spec *spec, pid_t pid, char *const *argv, char *path,
		    size_t len, char *err, size_t errlen)
{
	const char *file = spec->file;
	char self[64];
	int ret;

	if (!file) {
		/* the target's own executable */
		if (pid > 0) {
			snprintf(self, sizeof(self), "/proc/%d/exe", (int)pid);
			file = self;
		} else if (argv && argv[0]) {
			ret = libpath__command(argv[0], path, len);
			if (ret)
				snprintf(err, errlen, "'%s': cannot find the command '%s' in PATH",
					 spec->text, argv[0]);
			return ret;
		} else {
			snprintf(err, errlen,
				 "'%s' names no file: add @\"FILE\" (a path or a library such "
				 "as libc.so.6), or give -p PID or -- COMMAND to probe its "
				 "executable",
				 spec->text);
			return -EINVAL;
		}
	}
	ret = libpath__find(file, pid, path, len);
	if (ret == -ENOENT)
		snprintf(err, errlen,
			 "'%s': no file '%s' (a path, or a library name the dynamic linker "
			 "would find%s)",
			 spec->text, file, pid > 0 ? " in the process's maps" : "");
	else if (ret)
		snprintf(err, errlen, "'%s': cannot find '%s': %s", spec->text, file,
			 strerror(-ret));
	return ret;
}

/*
 * @bias: the note's vaddr - file offset.  A %rip-relative operand's
 * address becomes what uprobe_events' "@+X" takes: the kernel reads at
 * (probe address - probe file offset + X), so X = vaddr - bias (a plain
 * file offset only where the segment's vaddr equals its offset, as in a
 * PIE's first one; not in a non-PIE executable).
 */
static void conv_arg(struct probe_arg *d, const struct usdt_arg *a, u64 bias)
{
	memset(d, 0, sizeof(*d));
	d->kind = a->kind == USDT_ARG_IMM   ? PROBE_ARG_IMM
		  : a->kind == USDT_ARG_REG ? PROBE_ARG_REG
					    : PROBE_ARG_MEM;
	d->size = a->size;
	d->is_signed = a->is_signed;
	d->reg = a->reg;
	d->index = a->index;
	d->scale = a->scale;
	d->value = a->rip_rel ? (s64)((u64)a->value - bias) : a->value;
	d->file_rel = a->rip_rel;
}

static int usdt_sites(struct probe_elf *pe, const struct ev_spec *spec, const char *path,
		      struct probe_site **sites, int *nr, char *err, size_t errlen)
{
	struct usdt_note *notes = NULL;
	struct probe_site *out;
	int n = 0, ret;

	ret = probe_elf__usdt(pe, spec->provider, spec->name, &notes, &n);
	if (ret) {
		snprintf(err, errlen, "'%s': cannot read the USDT notes of %s: %s", spec->text,
			 path, strerror(-ret));
		return ret;
	}
	if (!n) {
		snprintf(err, errlen,
			 "'%s': no USDT probe %s:%s in %s (see: perf-prof list -v "
			 "'usdt:*:*@\"%s\"')",
			 spec->text, spec->provider, spec->name, path, path);
		return -ENOENT;
	}
	out = calloc(n, sizeof(*out));
	if (!out) {
		usdt_notes__free(notes, n);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		struct probe_site *st = &out[i];

		st->path = strdup(path);
		if (asprintf(&st->symbol, "%s:%s", notes[i].provider, notes[i].name) < 0)
			st->symbol = NULL;
		if (!st->path || !st->symbol) {
			probe_sites__free(out, n);
			usdt_notes__free(notes, n);
			return -ENOMEM;
		}
		st->vaddr = notes[i].vaddr;
		st->offset = notes[i].offset;
		st->ref_ctr_offset = notes[i].sema_offset;
		st->ref_ctr_vaddr = notes[i].sema_offset ? notes[i].sema_vaddr : 0;
		st->nr_args = notes[i].nr_args;
		for (int a = 0; a < notes[i].nr_args && a < PROBE_MAX_ARGS; a++)
			conv_arg(&st->args[a], &notes[i].args[a], notes[i].vaddr - notes[i].offset);
	}
	usdt_notes__free(notes, n);
	*sites = out;
	*nr = n;
	return 0;
}

static int func_site(struct probe_elf *pe, const struct ev_spec *spec, const char *path,
		     struct probe_site **sites, int *nr, char *err, size_t errlen)
{
	struct probe_func f = { 0 };
	struct probe_site *st;
	char near[256];
	int ret = 0;

	if (!strncmp(spec->name, "0x", 2)) {
		char *end;

		f.vaddr = strtoull(spec->name, &end, 16);
		if (*end || probe_elf__offset(pe, f.vaddr, &f.offset)) {
			snprintf(err, errlen, "'%s': 0x%llx is not an address in %s's code",
				 spec->text, (unsigned long long)f.vaddr, path);
			return -ENOENT;
		}
	} else {
		ret = probe_elf__func(pe, spec->name, &f);
	}
	if (ret) {
		probe_elf__similar(pe, spec->name, 4, near, sizeof(near));
		snprintf(err, errlen, "'%s': no function '%s' in %s%s%s%s", spec->text, spec->name,
			 path, near[0] ? " (did you mean: " : "", near, near[0] ? ")" : "");
		return -ENOENT;
	}
	if (f.ifunc) {
		probe_elf__similar(pe, spec->name, 4, near, sizeof(near));
		snprintf(err, errlen,
			 "'%s': %s is an indirect function in %s (its symbol is the resolver, "
			 "run once): probe the implementation%s%s%s",
			 spec->text, spec->name, path, near[0] ? " (one of: " : "", near,
			 near[0] ? ")" : "");
		return -EINVAL;
	}
	if (f.size && spec->offset >= f.size) {
		snprintf(err, errlen, "'%s': +%llu is past the end of %s (%llu bytes)", spec->text,
			 spec->offset, spec->name, (unsigned long long)f.size);
		return -EINVAL;
	}
	st = calloc(1, sizeof(*st));
	if (!st || !(st->path = strdup(path)) || !(st->symbol = strdup(spec->name))) {
		probe_sites__free(st, st ? 1 : 0);
		return -ENOMEM;
	}
	st->vaddr = f.vaddr + spec->offset;
	st->offset = f.offset + spec->offset;
	st->nr_args = -1;
	*sites = st;
	*nr = 1;
	return 0;
}

int probe_res__sites(const struct ev_spec *spec, const char *path, struct probe_site **sites,
		     int *nr, char *err, size_t errlen)
{
	struct probe_elf *pe = NULL;
	int ret = probe_elf__open(path, &pe);

	*sites = NULL;
	*nr = 0;
	err[0] = 0;
	if (ret) {
		snprintf(err, errlen, "'%s': %s: %s", spec->text, path,
			 ret == -ENOEXEC	   ? "not an ELF file"
			 : ret == -EPROTONOSUPPORT ? "an ELF file for another machine than x86-64"
						   : strerror(-ret));
		return ret == -ENOMEM ? ret : -EINVAL;
	}
	if (spec->probe == EV_USDT)
		ret = usdt_sites(pe, spec, path, sites, nr, err, errlen);
	else
		ret = func_site(pe, spec, path, sites, nr, err, errlen);
	probe_elf__delete(pe);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return ret;
}

int probe_res__resolve(struct session *s, const struct ev_spec *spec, struct probe_site **sites,
		       int *nr)
{
	const struct target_opts *t = session__conf(s)->target;
	pid_t pid = t->nr_pids ? t->pids[0] : t->nr_tids ? t->tids[0] : 0;
	char path[PATH_MAX], err[512];
	int ret;

	ret = probe_res__file(spec, pid, t->argv, path, sizeof(path), err, sizeof(err));
	if (!ret)
		ret = probe_res__sites(spec, path, sites, nr, err, sizeof(err));
	if (ret == -ENOMEM)
		return session__set_err(s, ret, "out of memory");
	if (ret)
		return session__usage_err(s, "%s", err);
	return 0;
}
