// SPDX-License-Identifier: GPL-2.0
/*
 * blktrace -d /dev/X: a block request through the block layer, keyed by
 * its sector, the tracepoints filtered in the kernel by the device:
 *   getrq => insert     waiting in the I/O scheduler's queue to be inserted
 *   insert => issue     in the scheduler until the driver takes it
 *   getrq => issue      issued directly (no scheduler: blk-mq skips insert)
 *   issue => complete   in the driver and the device
 * The latency engine is analysis/latency/multipoint.h.
 */
#include <errno.h>
#include <limits.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "analysis/latency/multipoint.h"
#include "profiler.h"
#include "report/outfile.h"
#include "sym/stack.h"

enum { P_GETRQ, P_INSERT, P_ISSUE, P_COMPLETE, NR_P };

static const char *const tp_names[NR_P] = { "block_getrq", "block_rq_insert", "block_rq_issue",
					    "block_rq_complete" };
static const char *const briefs[NR_P] = { "getrq", "insert", "issue", "complete" };

struct blktrace;

/* Per event (its handler's): the point it is, its sector field. */
struct bt_point {
	struct blktrace *bt;
	int k;
	struct field sector;
};

struct blktrace {
	const char *device; /* -d */
	struct multipoint *mt;
	struct bt_point pt[NR_P];
};

static void bt_row(void *arg, const struct multipoint_pair *p, struct multipoint_row *row)
{
	(void)arg;
	/* in the order a request goes */
	row->key = (u64)(p->from * NR_P + p->to);
	row->group = p->from == P_GETRQ && p->to == P_ISSUE ? 1 : p->from * 2;
	snprintf(row->label, sizeof(row->label), "%s => %s", briefs[p->from], briefs[p->to]);
}

/* Whether @dev is a partition; @disk gets its disk's name then (sysfs: the parent directory). */
static bool is_partition(dev_t dev, char *disk, size_t len)
{
	char path[128], real[PATH_MAX], *slash;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition", major(dev), minor(dev));
	if (access(path, F_OK))
		return false;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(path, real) || !(slash = strrchr(real, '/')))
		return false;
	*slash = 0;
	slash = strrchr(real, '/');
	snprintf(disk, len, "%.63s", slash ? slash + 1 : real);
	return true;
}

static void bt_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp);

static int bt_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct target_opts *t = session__conf(s)->target;
	struct blktrace *bt = priv;
	struct stat st;
	char filter[64], disk[64];

	if (t->nr_pids || t->nr_tids || t->argv)
		return session__usage_err(s, "blktrace follows requests, not tasks: -p, -t and -- "
					     "do not apply (-C limits the CPUs)");
	if (!bt->device)
		return session__usage_err(s, "give the device: -d /dev/NAME (a block device)");
	if (stat(bt->device, &st))
		return session__usage_err(s, "-d %s: %s", bt->device, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return session__usage_err(s, "-d %s is not a block device", bt->device);
	if (is_partition(st.st_rdev, disk, sizeof(disk)))
		return session__usage_err(s,
					  "-d %s is a partition: the block tracepoints name the "
					  "whole disk, give -d /dev/%s",
					  bt->device, disk);
	/* the kernel's dev_t in the tracepoints: major << 20 | minor */
	snprintf(filter, sizeof(filter), "dev == %llu",
		 (unsigned long long)major(st.st_rdev) << 20 | minor(st.st_rdev));
	/* a request is issued and completed on any CPU */
	session__want_order(s);
	bt->mt = multipoint__new(s, &(struct multipoint_conf){
					    .who = "blktrace",
					    .nr_points = NR_P,
					    .lat = opt_set__get(opts, &lat_group),
					    .key_title = "SECTOR",
					    .row_title = "STAGE",
					    .json_row = "stage",
					    .row_width = 20,
					    .row = bt_row,
					    .ends = { 1u << P_INSERT | 1u << P_ISSUE, 1u << P_ISSUE,
						      1u << P_COMPLETE },
				    });
	if (!bt->mt)
		return -EINVAL;
	for (int k = 0; k < NR_P; k++) {
		struct evsel *ev;
		char full[64];

		snprintf(full, sizeof(full), "block:%s", tp_names[k]);
		multipoint__name(bt->mt, k, full, briefs[k]);
		ev = session__add_tp(
			s, "block", tp_names[k],
			&(struct evsel_conf){ .filter = filter,
					      .callchain = session__stacks_for_all(s) });
		if (!ev)
			return -EINVAL;
		bt->pt[k] = (struct bt_point){ .bt = bt, .k = k };
		if (evsel__field(ev, "sector", &bt->pt[k].sector))
			return session__set_err(s, -EINVAL, "block:%s has no sector field",
						tp_names[k]);
		evsel__set_handler(ev, bt_sample, &bt->pt[k]);
	}
	return multipoint__ready(bt->mt, s);
}

/* The handler of each point's event (@priv its bt_point): keyed by the request's sector. */
static void bt_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct bt_point *pt = priv;
	struct blktrace *bt = pt->bt;
	u64 sector;

	if (field__u64(&pt->sector, smp, &sector))
		return;
	multipoint__see(bt->mt, s, ev, smp, sector, true);
	switch (pt->k) {
	case P_GETRQ:
		multipoint__start(bt->mt, s, P_GETRQ, sector, ev, smp);
		break;
	case P_INSERT:
		multipoint__end(bt->mt, s, P_GETRQ, P_INSERT, sector, ev, smp, 0);
		multipoint__start(bt->mt, s, P_INSERT, sector, ev, smp);
		break;
	case P_ISSUE:
		/* from the scheduler, or straight from getrq (no insert: direct issue) */
		if (!multipoint__end(bt->mt, s, P_INSERT, P_ISSUE, sector, ev, smp, 0))
			multipoint__end(bt->mt, s, P_GETRQ, P_ISSUE, sector, ev, smp, 0);
		multipoint__start(bt->mt, s, P_ISSUE, sector, ev, smp);
		break;
	case P_COMPLETE:
		multipoint__end(bt->mt, s, P_ISSUE, P_COMPLETE, sector, ev, smp, 0);
		break;
	}
}

static void bt_deinit(struct session *s, void *priv)
{
	struct blktrace *bt = priv;

	multipoint__done(bt->mt, s);
	bt->mt = NULL;
}

static const struct popt bt_opts[] = {
	{ .lname = "device",
	  .sname = 'd',
	  .argname = "/dev/NAME",
	  .help = "the block device (filtered in the kernel)",
	  POPT_BIND_STR(struct blktrace, device) },
	{ 0 },
};

const struct profiler prof_blktrace = {
	.name = "blktrace",
	.needs = (const char *const[]){ "tp:block:block_getrq", "tp:block:block_rq_insert",
					"tp:block:block_rq_issue", "tp:block:block_rq_complete",
					NULL },
	.desc = "block request latency per stage: getrq, insert, issue, complete",
	.synopsis = "perf-prof blktrace -d /dev/NAME [--than TIME [-g]] [--perins] [--hist] [-i "
		    "MS] [-C CPUS]",
	.examples = "perf-prof blktrace -d /dev/sda -i 1000\n"
		    "  perf-prof blktrace -d /dev/nvme0n1 --than 10ms --hist",
	.groups = (const struct opt_group *const[]){ &lat_group, &target_group, &run_group,
						     &ring_group, &output_group, &stack_group,
						     &exclude_tp_group, NULL },
	.own = bt_opts,
	.priv_size = sizeof(struct blktrace),
	.init = bt_init,
	.deinit = bt_deinit,
};
