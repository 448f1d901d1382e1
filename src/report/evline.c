// SPDX-License-Identifier: GPL-2.0
/* The head of an event line: see evline.h. */
#include <string.h>

#include "engine/session.h"
#include "report/evline.h"
#include "sym/stack.h"

void evline__head(FILE *out, const char *ts, const char *comm, uint32_t tid, uint32_t cpu,
		  const char *name)
{
	char buf[128], num[12];
	size_t n = 0, l = strlen(comm);
	int k = 0;

	memcpy(buf, ts, 26);
	n = 26;
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
