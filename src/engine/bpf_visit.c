// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF back end's visits (bpf.h's bpf_back__on_read, _on_stop): the
 * maps read between prints, so that a run without -i (or with a long one)
 * still folds what its maps gained into its tables and makes room for new
 * keys, and the profilers' last in-kernel work done at the instant the
 * session stops counting.
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "engine/bpf_int.h"

static u64 mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000 + (u64)ts.tv_nsec / 1000000;
}

static int add_visit(struct bpf_back *b, bool stop, bpf_visit_fn fn, void *arg)
{
	if (b->nr_visits == BPF_MAX_VISITS)
		return session__set_err(b->s, -ENOMEM, "BPF: too many readers of the maps");
	b->visits[b->nr_visits++] = (struct bpf_visit){ .fn = fn, .arg = arg, .stop = stop };
	return 0;
}

int bpf_back__on_read(struct bpf_back *b, bpf_visit_fn fn, void *arg)
{
	return add_visit(b, false, fn, arg);
}

int bpf_back__on_stop(struct bpf_back *b, bpf_visit_fn fn, void *arg)
{
	return add_visit(b, true, fn, arg);
}

/*
 * A loop's read (@how 0: its tick): every BPF_READ_MS while the programs
 * count, the maps are read unless -i reads them as often.  The first
 * tick only starts the clock.
 */
void bpf_back__visit_read(struct bpf_back *b, unsigned how)
{
	unsigned iv = session__interval_ms(b->s);
	u64 now;

	if (how || !b->running || !b->nr_visits || (iv && iv <= BPF_READ_MS))
		return;
	now = mono_ms();
	if (!b->visited_at)
		b->visited_at = now;
	if (now - b->visited_at < BPF_READ_MS)
		return;
	b->visited_at = now;
	for (int i = 0; i < b->nr_visits; i++)
		if (!b->visits[i].stop)
			b->visits[i].fn(b->s, b->visits[i].arg);
}

/* The disable, while the programs still count. */
void bpf_back__visit_stop(struct bpf_back *b)
{
	if (!b->running)
		return;
	for (int i = 0; i < b->nr_visits; i++)
		if (b->visits[i].stop)
			b->visits[i].fn(b->s, b->visits[i].arg);
}

/* ---- setting the programs aside (bpf.h: bpf_back__aside) ---- */

/*
 * Every BPF program running now has finished when this returns: the kernel
 * waits for an RCU grace period after an update of a map of maps (so that
 * no program still uses the map replaced), and our programs run inside
 * RCU read-side sections.  0 or -errno.
 */
static int barrier(struct bpf_back *b)
{
	u32 key = 0;

	if (!b->barrier_made) {
		int inner = bpf_back__map(b, BPF_MAP_TYPE_ARRAY, "pp_barrier_in", 4, 4, 1, 0);
		LIBBPF_OPTS(bpf_map_create_opts, o, .inner_map_fd = inner);
		int fd;

		if (inner < 0)
			return inner;
		fd = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "pp_barrier", 4, 4, 1, &o);
		if (fd < 0)
			return -errno;
		if (b->nr_fds == MAX_FDS) {
			close(fd);
			return -EMFILE;
		}
		b->fds[b->nr_fds++] = fd;
		b->barrier_in = inner;
		b->barrier_map = fd;
		b->barrier_made = true;
	}
	return bpf_map_update_elem(b->barrier_map, &key, &b->barrier_in, BPF_ANY) ? -errno : 0;
}

int bpf_back__aside(struct bpf_back *b, bool on)
{
	u32 key = 0;
	int err;

	if (!b->running || b->ctl < 0)
		return 0;
	b->ctl_val[0] = on ? 1 | BPF_CTL_ASIDE : 1;
	if (bpf_map_update_elem(b->ctl, &key, b->ctl_val, BPF_ANY))
		return -errno;
	err = barrier(b);
	if (err && on) { /* no wait: the programs write the main maps again, nothing deleted */
		b->ctl_val[0] = 1;
		bpf_map_update_elem(b->ctl, &key, b->ctl_val, BPF_ANY);
	}
	return err ? err : 1;
}

void bpf_back__emit_aside(struct bpf_back *b, struct bpfb *code, int reg, int label)
{
	b_ldvalue(code, reg, b->ctl, 0);
	b_ldx(code, 4, reg, reg, 0);
	b_jmpi(code, BPF_JSET, reg, BPF_CTL_ASIDE, label);
}
