// SPDX-License-Identifier: GPL-2.0
/*
 * --overwrite: a flight recorder.  The rings are written backward and
 * mapped read-only, so the kernel overwrites the oldest records and never
 * reports a loss; nothing is read during the run.  At the end, at SIGUSR1
 * and at each -i interval every ring is paused for as long as its newest
 * records (those written since the last read) take to copy, then resumed;
 * the copies are delivered in time order across the rings.  Each record
 * is delivered once: a read stops where the one before began.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "engine/session_int.h"

struct ow_rec {
	u64 time;
	u64 seq; /* the order read, oldest first: equal times keep it */
	size_t off;
	int buf;
};

static int cmp_rec(const void *a, const void *b)
{
	const struct ow_rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Copy ring @i's records written since its last read to @dst (room for
 * the whole ring); returns the bytes copied.  The ring is paused only for
 * the walk and the copy: what the kernel writes meanwhile is dropped and
 * counted as lost (a LOST record follows).  At the end the events are
 * disabled already and nothing is paused.
 */
static size_t copy_ring(struct session *s, int i, bool final, unsigned char *dst)
{
	struct buf *b = &s->perf.bufs[i];
	struct ring *r = &b->ring;
	u64 head, span;

	if (!final)
		ioctl(r->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
	head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	span = ring__backward_span(r->data, r->size, head, b->ow_head);
	ring__copy(r->data, r->size, head, span, dst);
	b->ow_head = head;
	if (!final)
		ioctl(r->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
	return span;
}

int session__read_overwrite(struct session *s, bool final)
{
	size_t len = 0, *spans = calloc(s->perf.nr_bufs + 1, sizeof(*spans));
	unsigned char *data;
	struct ow_rec *recs = NULL;
	size_t nr = 0, cap = 0, start = 0;
	int err = 0;

	if (!spans)
		return -ENOMEM;
	if (!s->perf.ow_data) {
		/* once for the run: the copies must not wait for memory while a ring is paused */
		for (int i = 0; i < s->perf.nr_bufs; i++)
			s->perf.ow_size += s->perf.bufs[i].ring.size;
		s->perf.ow_data = malloc(s->perf.ow_size ? s->perf.ow_size : 1);
		if (!s->perf.ow_data) {
			free(spans);
			return -ENOMEM;
		}
		/* its pages faulted in now, not while paused */
		memset(s->perf.ow_data, 0, s->perf.ow_size);
	}
	data = s->perf.ow_data;
	for (int i = 0; i < s->perf.nr_bufs; i++)
		len += spans[i] = copy_ring(s, i, final, data + len);
	/* each ring's copy holds its records newest first: index them oldest first */
	for (int i = 0; i < s->perf.nr_bufs && !err; start += spans[i++]) {
		size_t first = nr;

		for (size_t pos = 0; pos < spans[i];) {
			const struct perf_event_header *h = (const void *)(data + start + pos);

			if (nr == cap) {
				struct ow_rec *n =
					realloc(recs, (cap = cap ? cap * 2 : 256) * sizeof(*n));

				if (!n) {
					err = -ENOMEM;
					break;
				}
				recs = n;
			}
			recs[nr++] = (struct ow_rec){ .time = session__record_time(s, h),
						      .off = start + pos,
						      .buf = i };
			pos += h->size;
		}
		for (size_t a = first, z = nr; a + 1 < z; a++, z--) {
			struct ow_rec t = recs[a];

			recs[a] = recs[z - 1];
			recs[z - 1] = t;
		}
	}
	for (size_t k = 0; k < nr; k++)
		recs[k].seq = k;
	if (!err)
		qsort(recs, nr, sizeof(*recs), cmp_rec);
	for (size_t k = 0; k < nr && !err; k++) {
		const struct perf_event_header *h = (const void *)(data + recs[k].off);
		struct buf *b = &s->perf.bufs[recs[k].buf];

		/* a second stop signal gives up what is left (the first lets a dump finish) */
		if (k % 256 == 255 && s->sig.fd >= 0)
			session__handle_signals(s);
		if (s->sig.nr_interrupts > 1) {
			s->abandoned_recs += nr - k;
			break;
		}
		s->perf.nr_read++;
		if (h->type == PERF_RECORD_LOST || h->type == PERF_RECORD_LOST_SAMPLES) {
			u64 before = s->perf.lost_total;

			session__count_lost(s, h, b->ring.cpu);
			b->lost += s->perf.lost_total - before;
		}
		session__dispatch(s, h, b->ring.cpu);
	}
	free(recs);
	free(spans);
	return err;
}
