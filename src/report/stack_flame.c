// SPDX-License-Identifier: GPL-2.0
/* A flame graph and/or pprof profile of a session's sample stacks: see stack_flame.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/flame.h"
#include "report/outfile.h"
#include "report/pprof.h"
#include "report/stack_flame.h"
#include "sym/srcline.h"
#include "sym/stack.h"
#include "util/ofile.h"

#define MAX_FRAMES 1024 /* as many as stack__frames gives: a cut stack loses its root */
#define PPROF_SUFFIX ".pb.gz"

struct stack_flame {
	struct flame *flame; /* NULL: pprof only */
	struct frame *frames;
	const char *name;
	u64 rem_ns; /* sub-us remainder carried to the next weight */
	bool fold_value, fold_us;
	/* pprof */
	struct pprof *pp; /* NULL: none */
	char *pp_path;
	struct frame_map *maps;
	int nr_values;
	const char *leaf_label;
	char time[32]; /* -i: the interval's root frame, a label; "" before the first */
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void root_frame(struct stack_flame *f, struct session *s)
{
	session__fmt_time(s, session__now(s), f->time, sizeof(f->time));
	f->time[19] = 0; /* whole seconds: "YYYY-MM-DD HH:MM:SS" */
	flame__interval(f->flame, f->time);
}

static void sf_free(struct stack_flame *f)
{
	flame__delete(f->flame);
	pprof__delete(f->pp);
	free(f->pp_path);
	free(f->maps);
	free(f->frames);
	free(f);
}

static int open_pprof(struct session *s, struct stack_flame *f, const char *name,
		      const struct flame_kind *k)
{
	struct pprof_type types[2] = { { k->count, "count" }, { k->value, k->value_unit } };
	int err;

	f->nr_values = k->value ? 2 : 1;
	if (ends_with(name, PPROF_SUFFIX))
		f->pp_path = strdup(name);
	else if (asprintf(&f->pp_path, "%s" PPROF_SUFFIX, name) < 0)
		f->pp_path = NULL;
	f->maps = calloc(MAX_FRAMES, sizeof(*f->maps));
	f->pp = f->pp_path && f->maps ? pprof__new(types, f->nr_values, f->nr_values - 1) : NULL;
	if (!f->pp)
		return session__set_err(s, -ENOMEM, "out of memory");
	if (k->value && k->period)
		pprof__set_period(f->pp, &types[1], (int64_t)k->period);
	f->leaf_label = k->leaf_label;
	/* fail now rather than after hours of profiling, leaving an old file as it is */
	err = outfile__check(f->pp_path);
	if (err)
		return session__set_err(s, err, "cannot write the pprof file '%s': %s", f->pp_path,
					ofile__strerror(-err));
	return 0;
}

int stack_flame__open(struct session *s, const struct flame_opts *o, const struct flame_kind *kind,
		      struct stack_flame **out)
{
	const char *flame_name, *pprof_name;
	struct stack_flame *f;
	int err;

	*out = NULL;
	if (!o || (!o->name && !o->pprof))
		return 0;
	pprof_name = o->pprof;
	flame_name = o->name;
	if (flame_name && ends_with(flame_name, PPROF_SUFFIX)) {
		pprof_name = flame_name;
		flame_name = NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f || !(f->frames = calloc(MAX_FRAMES, sizeof(*f->frames)))) {
		free(f);
		return session__set_err(s, -ENOMEM, "out of memory");
	}
	f->name = flame_name;
	f->fold_value = kind->value && kind->fold_value;
	f->fold_us = f->fold_value && !strcmp(kind->value_unit, "nanoseconds");
	if (flame_name) {
		const char *unit = f->fold_us ? "us" : f->fold_value ? kind->value_unit : "samples";

		f->flame = flame__new(flame_name, kind->title, unit);
		if (!f->flame) {
			err = -errno;
			sf_free(f);
			/* flame.h: NAME.svg, NAME.folded, else NAME.folded is written */
			return session__set_err(
				s, err, "cannot make the flame graph '%s%s': %s", flame_name,
				ends_with(flame_name, ".svg") || ends_with(flame_name, ".folded")
					? ""
					: ".folded",
				ofile__strerror(-err));
		}
	}
	if (pprof_name) {
		err = open_pprof(s, f, pprof_name, kind);
		if (err) {
			sf_free(f);
			return err;
		}
	}
	if (session__interval_ms(s) && kind->stamp_first)
		root_frame(f, s);
	*out = f;
	return 0;
}

static void add_pprof(struct stack_flame *f, const struct frame *frames,
		      const struct frame_map *maps, int nr, const char *comm,
		      const struct sample *smp, const char *leaf, u64 count, u64 value)
{
	struct pprof_label lb[5];
	int64_t values[2] = { (int64_t)count, (int64_t)value };
	int n = 0;

	if (comm && *comm)
		lb[n++] = (struct pprof_label){ .key = "comm", .str = comm };
	if (smp) {
		lb[n++] = (struct pprof_label){ .key = "pid", .num = smp->pid };
		lb[n++] = (struct pprof_label){ .key = "tid", .num = smp->tid };
	}
	if (leaf && *leaf)
		lb[n++] = (struct pprof_label){ .key = f->leaf_label ? f->leaf_label : "leaf",
						.str = leaf };
	if (f->time[0])
		lb[n++] = (struct pprof_label){ .key = "time", .str = f->time };
	pprof__add(f->pp, frames, maps, nr, lb, n, values); /* an error shows at the write */
}

/* The folded weight of @count and @value. */
static u64 fold_weight(struct stack_flame *f, u64 count, u64 value)
{
	u64 us;

	if (!f->fold_value)
		return count;
	if (!f->fold_us)
		return value;
	us = (value + f->rem_ns) / 1000;
	f->rem_ns = (value + f->rem_ns) % 1000;
	return us;
}

void stack_flame__add(struct stack_flame *f, struct session *s, const struct sample *smp,
		      const char *comm, const char *leaf, u64 count, u64 value)
{
	struct stack_ctx *ctx = session__stack(s);
	int n = 0;

	if (!f)
		return;
	if (ctx && (smp->nr_ips || smp->stack))
		n = stack__frames_maps(ctx, smp, f->frames, f->pp ? f->maps : NULL, MAX_FRAMES);
	if (f->flame)
		flame__add(f->flame, comm, f->frames, n, leaf, fold_weight(f, count, value));
	if (f->pp)
		add_pprof(f, f->frames, f->maps, n, comm, smp, leaf, count, value);
}

void stack_flame__add_frames(struct stack_flame *f, const struct frame *frames, int nr,
			     const char *comm, const char *leaf, u64 count, u64 value)
{
	if (!f)
		return;
	if (f->flame)
		flame__add(f->flame, comm, frames, nr, leaf, fold_weight(f, count, value));
	if (f->pp)
		add_pprof(f, frames, NULL, nr, comm, NULL, leaf, count, value);
}

void stack_flame__interval(struct stack_flame *f, struct session *s)
{
	if (f)
		root_frame(f, s);
}

/* pprof's source lookups, through the session's stacks (sym/srcline.h). */
static int src_of(void *ctx, const struct frame_map *fm, struct pprof_src *out)
{
	struct srcline sl;
	int err = stack__srcline(ctx, fm, &sl);

	if (err)
		return err;
	*out = (struct pprof_src){ .file = sl.file, .start_line = sl.fn_line, .line = sl.line };
	return 0;
}

static int write_pprof(struct stack_flame *f, struct session *s, const char *who)
{
	u64 start = session__enabled_time(s), now = session__now(s);
	struct outfile *of;
	char comment[64];
	FILE *fp;
	int err;

	pprof__set_time(f->pp, (int64_t)session__epoch_ns(s, start),
			now > start ? (int64_t)(now - start) : 0);
	if (session__stack(s))
		pprof__set_src(f->pp, src_of, session__stack(s));
	snprintf(comment, sizeof(comment), "perf-prof %s", who);
	err = pprof__comment(f->pp, comment);
	if (err)
		return err;
	fp = outfile__create(f->pp_path, &of);
	if (!fp)
		return -errno;
	return outfile__commit(fp, of, pprof__write(f->pp, fp));
}

int stack_flame__close(struct stack_flame *f, struct session *s, const char *who)
{
	int err = 0, e;

	if (!f)
		return 0;
	if (session__started(s) && f->flame) {
		err = flame__write(f->flame);
		if (err)
			session__output_err(s, "writing the flame graph '%s': %s", f->name,
					    ofile__strerror(-err));
	}
	if (session__started(s) && f->pp) {
		e = write_pprof(f, s, who);
		if (e)
			session__output_err(s, "writing the pprof file '%s': %s", f->pp_path,
					    ofile__strerror(-e));
		if (!err)
			err = e;
	}
	sf_free(f);
	return err;
}

static int flame_check(void *data, const struct opt_set *set, char *err, size_t errlen)
{
	const struct stack_opts *st = opt_set__get(set, &stack_group);
	const struct flame_opts *o = data;

	if ((o->name || o->pprof) && (!st || st->capture.cg == CG_NONE)) {
		snprintf(err, errlen, "%s needs stacks: add -g (or --call-graph dwarf)",
			 o->name ? "--flame-graph" : "--pprof");
		return -1;
	}
	if (o->name && o->pprof && ends_with(o->name, PPROF_SUFFIX)) {
		snprintf(err, errlen,
			 "--flame-graph %s and --pprof %s: two pprof files; give one (--pprof NAME "
			 "writes pprof beside --flame-graph's folded or SVG file)",
			 o->name, o->pprof);
		return -1;
	}
	if ((o->name && !*o->name) || (o->pprof && !*o->pprof)) {
		snprintf(err, errlen, "%s: an empty file name",
			 o->name && !*o->name ? "--flame-graph" : "--pprof");
		return -1;
	}
	return 0;
}

static const struct popt flame_opts[] = {
	{ "flame-graph", 0, "NAME[.svg|.pb.gz]",
	  "write a flame graph: NAME.folded, an SVG when NAME ends in .svg, pprof when .pb.gz",
	  POPT_BIND_STR(struct flame_opts, name) },
	{ "pprof", 0, "NAME[.pb.gz]", "write the stacks as a gzipped pprof profile (NAME.pb.gz)",
	  POPT_BIND_STR(struct flame_opts, pprof) },
	{ 0 },
};

const struct opt_group flame_group = {
	.name = "flame",
	.opts = flame_opts,
	.size = sizeof(struct flame_opts),
	.check = flame_check,
};
