// SPDX-License-Identifier: GPL-2.0
/*
 * perf_caps: what the kernel says, in an event's first ring page, about
 * reading perf time from the TSC: prints "cap_user_time=B cap_user_time_zero=B"
 * for an event on perf's own clock (no use_clockid), the condition for
 * perf-prof's --tsc.  Exits 1 when the event cannot be opened or mapped.
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	struct perf_event_attr a;
	volatile struct perf_event_mmap_page *pg;
	long psz = sysconf(_SC_PAGESIZE);
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.exclude_kernel = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		perror("perf_event_open");
		return 1;
	}
	pg = mmap(NULL, (size_t)psz, PROT_READ, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	printf("cap_user_time=%d cap_user_time_zero=%d\n", (int)pg->cap_user_time,
	       (int)pg->cap_user_time_zero);
	return 0;
}
