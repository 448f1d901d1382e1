// SPDX-License-Identifier: GPL-2.0
/*
 * Expression cost per record: perf-prof's compiled expressions against
 * libtraceevent's filter (tep_filter_match) on the same sched_switch
 * records, laid out by this host's format.  Filters are checked to agree
 * record by record before anything is timed.  CPU time of this thread,
 * best of several rounds (the host may be busy).
 * usage: expr_bench [RECORDS] [ROUNDS]
 */
#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/session.h"
#include "expr/expr.h"

#define FORMAT "/sys/kernel/tracing/events/sched/sched_switch/format"

static const char *const comms[] = { "bash", "kworker/0:1",  "swapper/0", "nginx",
				     "sshd", "kworker/u4:2", "systemd",	  "perf-prof" };

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int put_field(struct tep_event *tp, unsigned char *raw, const char *name, const void *v,
		     int n)
{
	struct tep_format_field *f = tep_find_any_field(tp, name);

	if (!f || f->size < n)
		return -1;
	memset(raw + f->offset, 0, f->size);
	memcpy(raw + f->offset, v, n);
	return 0;
}

struct bench {
	const char *name, *tep_filter, *ours;
};

static const struct bench benches[] = {
	{ "integer filter", "prev_state == 2 && prev_prio < 120 || next_pid == 0",
	  "prev_state == 2 && prev_prio < 120 || next_pid == 0" },
	{ "string filter", "next_comm == \"kworker/0:1\" || prev_comm == \"bash\"",
	  "next_comm == \"kworker/0:1\" || prev_comm == \"bash\"" },
	{ "mixed filter", "prev_pid > 1000 && prev_state != 0 && next_comm != \"swapper/0\"",
	  "prev_pid > 1000 && prev_state != 0 && next_comm != \"swapper/0\"" },
};

int main(int argc, char **argv)
{
	int nrec = argc > 1 ? atoi(argv[1]) : 4096, rounds = argc > 2 ? atoi(argv[2]) : 7;
	int reps = 2000000 / (nrec > 0 ? nrec : 1) + 1;
	struct tep_handle *tep = tep_alloc();
	struct evsel ev = { 0 };
	struct tep_record *recs;
	struct sample *smps;
	static char fmt[65536];
	size_t flen;
	FILE *fp;
	int rsize;

	if (nrec <= 0 || rounds <= 0 || !tep) {
		fprintf(stderr, "usage: expr_bench [RECORDS] [ROUNDS]\n");
		return 2;
	}
	fp = fopen(FORMAT, "r");
	if (!fp) {
		perror(FORMAT);
		return 1;
	}
	flen = fread(fmt, 1, sizeof(fmt) - 1, fp);
	fclose(fp);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	if (tep_parse_event(tep, fmt, flen, "sched") != TEP_ERRNO__SUCCESS ||
	    !(ev.tp = tep_find_event_by_name(tep, "sched", "sched_switch"))) {
		fprintf(stderr, "cannot parse %s\n", FORMAT);
		return 1;
	}
	rsize = 64;
	recs = calloc(nrec, sizeof(*recs));
	smps = calloc(nrec, sizeof(*smps));
	srand(42);
	for (int i = 0; i < nrec; i++) {
		unsigned char *raw = calloc(1, rsize);
		unsigned short type = ev.tp->id;
		int pid = rand() % 5000, npid = rand() % 8 ? rand() % 5000 : 0,
		    prio = 100 + rand() % 40;
		long state = rand() % 4 ? rand() % 3 : 0;
		const char *c1 = comms[rand() % 8], *c2 = comms[rand() % 8];

		if (!raw || put_field(ev.tp, raw, "common_type", &type, 2) ||
		    put_field(ev.tp, raw, "common_pid", &pid, 4) ||
		    put_field(ev.tp, raw, "prev_comm", c1, strlen(c1) + 1) ||
		    put_field(ev.tp, raw, "prev_pid", &pid, 4) ||
		    put_field(ev.tp, raw, "prev_prio", &prio, 4) ||
		    put_field(ev.tp, raw, "prev_state", &state, sizeof(state)) ||
		    put_field(ev.tp, raw, "next_comm", c2, strlen(c2) + 1) ||
		    put_field(ev.tp, raw, "next_pid", &npid, 4) ||
		    put_field(ev.tp, raw, "next_prio", &prio, 4)) {
			fprintf(stderr, "the format lacks a sched_switch field\n");
			return 1;
		}
		recs[i].data = raw;
		recs[i].size = rsize;
		recs[i].cpu = i & 1;
		recs[i].ts = 1000 + i;
		smps[i].raw = raw;
		smps[i].raw_size = rsize;
		smps[i].cpu = i & 1;
		smps[i].pid = smps[i].tid = pid;
		smps[i].time = 1000 + i;
	}
	printf("%d sched_switch records (this host's format), %d evaluations a round, best of %d "
	       "rounds, thread CPU time\n",
	       nrec, nrec * reps, rounds);
	printf("%-16s %10s %10s %8s  %s\n", "case", "perf-prof", "libtrace", "ratio", "matches");
	for (size_t b = 0; b < sizeof(benches) / sizeof(benches[0]); b++) {
		struct tep_event_filter *tf = tep_filter_alloc(tep);
		char spec[512], err[512];
		struct expr *e = expr__compile_filter(benches[b].ours, &ev, err, sizeof(err));
		double best_ours = 1e30, best_tep = 1e30;
		long agree = 0, hits = 0;
		volatile long sink = 0;

		snprintf(spec, sizeof(spec), "sched/sched_switch: %s", benches[b].tep_filter);
		if (!e || tep_filter_add_filter_str(tf, spec) < 0) {
			fprintf(stderr, "%s: %s\n", benches[b].name,
				e ? "libtraceevent refuses it" : err);
			return 1;
		}
		for (int i = 0; i < nrec; i++) {
			struct expr_ctx ctx = { .smp = &smps[i] };
			bool a = expr__match(e, &ctx);
			bool t = tep_filter_match(tf, &recs[i]) == TEP_ERRNO__FILTER_MATCH;

			agree += a == t;
			hits += a;
		}
		if (agree != nrec) {
			fprintf(stderr, "%s: the filters disagree on %ld records\n",
				benches[b].name, nrec - agree);
			return 1;
		}
		for (int r = 0; r < rounds; r++) {
			double t0 = now_ns();

			for (int k = 0; k < reps; k++)
				for (int i = 0; i < nrec; i++) {
					struct expr_ctx ctx = { .smp = &smps[i] };

					sink += expr__match(e, &ctx);
				}
			double t1 = now_ns();

			for (int k = 0; k < reps; k++)
				for (int i = 0; i < nrec; i++)
					sink += tep_filter_match(tf, &recs[i]) ==
						TEP_ERRNO__FILTER_MATCH;
			double t2 = now_ns();

			if (t1 - t0 < best_ours)
				best_ours = t1 - t0;
			if (t2 - t1 < best_tep)
				best_tep = t2 - t1;
		}
		best_ours /= (double)nrec * reps;
		best_tep /= (double)nrec * reps;
		printf("%-16s %7.1f ns %7.1f ns %7.2fx  %ld/%d  (%s)\n", benches[b].name, best_ours,
		       best_tep, best_tep / best_ours, hits, nrec, benches[b].ours);
		expr__free(e);
		tep_filter_free(tf);
	}

	/* a key: what top/num-dist evaluate for every record (no libtraceevent peer) */
	{
		const char *keys[] = { "prev_pid", "prev_state == 2 ? prev_pid : next_pid",
				       "(prev_pid << 16 | next_pid) % 1000", "prev_comm" };

		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			char err[512];
			struct expr *e = expr__compile(keys[k], &ev, err, sizeof(err));
			double best = 1e30;
			volatile u64 sink = 0;

			if (!e) {
				fprintf(stderr, "%s\n", err);
				return 1;
			}
			for (int r = 0; r < rounds; r++) {
				double t0 = now_ns();

				for (int j = 0; j < reps; j++)
					for (int i = 0; i < nrec; i++) {
						struct expr_ctx ctx = { .smp = &smps[i] };
						struct expr_value v;

						expr__eval(e, &ctx, &v);
						sink += v.u + v.len;
					}
				if (now_ns() - t0 < best)
					best = now_ns() - t0;
			}
			printf("%-16s %7.1f ns %10s %8s  key=%s\n", "key",
			       best / ((double)nrec * reps), "-", "-", keys[k]);
			expr__free(e);
		}
	}
	return 0;
}
