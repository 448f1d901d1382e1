// SPDX-License-Identifier: GPL-2.0
/* The head of an event line: see evline.h. */
#include <string.h>

#include "engine/session.h"
#include "report/evline.h"
#include "sym/stack.h"
#include "util/json.h"

void evline__head(FILE *out, const char *ts, const char *comm, uint32_t tid, uint32_t cpu,
		  const char *name)
{
	char buf[128], num[12];
	size_t n = 0, l = strlen(comm);
	int k = 0;

	/* the wall clock's 26 characters, or --tsc/--kvmclock's shorter SECONDS.USEC */
	n = strnlen(ts, 26);
	memcpy(buf, ts, n);
	buf[n++] = ' ';
	if (l > 16)
		l = 16;
	memset(buf + n, ' ', 16 - l);
	memcpy(buf + n + 16 - l, comm, l);
	n += 16;
	buf[n++] = ' ';
	do
		num[k++] = (char)('0' + tid % 10);
	while (tid /= 10);
	for (int pad = 7 - k; pad > 0; pad--)
		buf[n++] = ' ';
	while (k)
		buf[n++] = num[--k];
	buf[n++] = ' ';
	buf[n++] = '[';
	do
		num[k++] = (char)('0' + cpu % 10);
	while (cpu /= 10);
	for (int pad = 3 - k; pad > 0; pad--)
		buf[n++] = '0';
	while (k)
		buf[n++] = num[--k];
	buf[n++] = ']';
	buf[n++] = ' ';
	fwrite_unlocked(buf, 1, n, out);
	fputs_unlocked(name, out);
	fputs_unlocked(": ", out);
}

void evline__print(struct session *s, struct evsel *ev, const struct sample *smp, FILE *out,
		   const char *prefix)
{
	struct stack_ctx *stack = session__stack(s);
	char ts[40];

	if (prefix)
		fputs_unlocked(prefix, out);
	session__fmt_time(s, smp->time, ts, sizeof(ts));
	evline__head(out, ts, session__comm_at(s, smp->tid, smp->time), smp->tid, smp->cpu,
		     ev->name);
	evsel__print_raw(s, ev, (struct sample *)smp, out);
	fputc('\n', out);
	if (stack && (smp->nr_ips || smp->stack))
		stack__print(stack, smp, out, "    ");
}

void evline__json_members(struct json *j, struct session *s, const struct sample *smp,
			  const char *comm, const char *name)
{
	json__u64(j, "time_ns", session__wall_ns(s, smp->time));
	json__str(j, "comm", comm ? comm : session__comm_at(s, smp->tid, smp->time));
	json__u64(j, "pid", smp->pid);
	json__u64(j, "tid", smp->tid);
	json__u64(j, "cpu", smp->cpu);
	json__str(j, "event", name);
}

void evline__json_head(struct json *j, FILE *out, struct session *s, const struct sample *smp,
		       const char *comm, const char *name)
{
	json__begin(j, out, "event");
	evline__json_members(j, s, smp, comm, name);
}

void evline__json_stack(struct json *j, struct session *s, const struct sample *smp)
{
	struct stack_ctx *stack = session__stack(s);

	if (stack && (smp->nr_ips || smp->stack))
		stack__json(stack, smp, j, "stack");
}

void evline__json(struct session *s, struct evsel *ev, const struct sample *smp, FILE *out)
{
	struct json j;

	evline__json_head(&j, out, s, smp, NULL, ev->name);
	evsel__json_fields(ev, smp, &j, "fields");
	evline__json_stack(&j, s, smp);
	json__end(&j);
}
