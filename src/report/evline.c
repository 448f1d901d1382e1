// SPDX-License-Identifier: GPL-2.0
/* The head of an event line: see evline.h. */
#include <string.h>

#include "report/evline.h"

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
