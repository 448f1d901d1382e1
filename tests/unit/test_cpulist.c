// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/cpulist.h"
#include "ut.h"

/* Parse @s and compare with the -1-terminated @want. */
static void good(const char *s, int max, const int *want)
{
	int *cpus = (int *)1, n, k = 0;

	while (want[k] >= 0)
		k++;
	n = cpulist__parse(s, max, &cpus);
	CHECK(n == k, "'%s': %d cpus, want %d", s, n, k);
	for (int i = 0; n == k && i < k; i++)
		CHECK(cpus[i] == want[i], "'%s': cpus[%d] = %d, want %d", s, i, cpus[i], want[i]);
	if (n > 0)
		free(cpus);
}

static void bad(const char *s, int max, int want)
{
	int *cpus = (int *)1, n;

	n = cpulist__parse(s, max, &cpus);
	CHECK(n == want, "'%s' (max %d): %d, want %d", s, max, n, want);
	CHECK(cpus == NULL, "'%s': cpus not NULL on error", s);
	if (n > 0)
		free(cpus);
}

static void test_parse(void)
{
	good("0", 1, (int[]){ 0, -1 });
	good("0-3,5,7-8", 16, (int[]){ 0, 1, 2, 3, 5, 7, 8, -1 });
	good("3", 4, (int[]){ 3, -1 });
	good("2-2", 4, (int[]){ 2, -1 });
	good(" 0 - 1 , 3\n", 4, (int[]){ 0, 1, 3, -1 });
	good("\t1,0\t", 2, (int[]){ 0, 1, -1 });
	/* sorted and de-duplicated, overlapping and adjacent ranges merged */
	good("7,1,5,1,0-2,2-3", 8, (int[]){ 0, 1, 2, 3, 5, 7, -1 });
	good("4-6,0-5", 8, (int[]){ 0, 1, 2, 3, 4, 5, 6, -1 });
	good("0-1,2-3", 4, (int[]){ 0, 1, 2, 3, -1 });
	good("5-6,1-7,3", 8, (int[]){ 1, 2, 3, 4, 5, 6, 7, -1 });
	good("007", 8, (int[]){ 7, -1 });
	good("1023", 1024, (int[]){ 1023, -1 });
	good("2147483646", INT_MAX, (int[]){ 2147483646, -1 });
}

static void test_errors(void)
{
	bad("", 4, -EINVAL);
	bad("   ", 4, -EINVAL);
	bad("\n", 4, -EINVAL);
	bad("3-1", 4, -EINVAL);
	bad("1,,2", 4, -EINVAL);
	bad(",1", 4, -EINVAL);
	bad("1,", 4, -EINVAL);
	bad("a", 4, -EINVAL);
	bad("1a", 4, -EINVAL);
	bad("-1", 4, -EINVAL);
	bad("1-", 4, -EINVAL);
	bad("1--2", 4, -EINVAL);
	bad("1-2-3", 4, -EINVAL);
	bad("1 2", 4, -EINVAL);
	bad("+1", 4, -EINVAL);
	bad("0x1", 4, -EINVAL);
	bad("4", 4, -EINVAL);
	bad("0-4", 4, -EINVAL);
	bad("0,9", 4, -EINVAL);
	bad("2147483647", INT_MAX, -EINVAL);
	bad("2147483648", INT_MAX, -EINVAL);
	bad("99999999999999999999999", INT_MAX, -EINVAL);
	bad("0-99999999999999999999", 4, -EINVAL);
	bad("0", 0, -EINVAL);
	bad("0", -1, -EINVAL);
	bad(NULL, 4, -EINVAL);
}

static void test_sysfs(void)
{
	char path[] = "/tmp/test_cpulist.XXXXXX";
	int possible = cpulist__possible();
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	int *cpus, n, fd;

	CHECK(possible > 0, "possible %d", possible);
	/* the kernel may reserve more possible CPUs than configured ones, never fewer */
	CHECK(possible >= conf, "possible %d < configured %ld", possible, conf);

	n = cpulist__online(&cpus);
	CHECK(n == sysconf(_SC_NPROCESSORS_ONLN), "online %d, sysconf %ld", n,
	      sysconf(_SC_NPROCESSORS_ONLN));
	if (n > 0) {
		CHECK(cpus[0] >= 0 && cpus[n - 1] < possible, "online cpus in range");
		for (int i = 1; i < n; i++)
			CHECK(cpus[i] > cpus[i - 1], "sorted");
		free(cpus);
	}

	fd = mkstemp(path);
	CHECK(fd >= 0, "mkstemp");
	if (fd < 0)
		return;
	CHECK(write(fd, "0,2-3\n", 6) == 6, "write");
	close(fd);
	n = cpulist__read_file(path, 4, &cpus);
	CHECK_INT(n, 3);
	if (n == 3) {
		CHECK(cpus[0] == 0 && cpus[1] == 2 && cpus[2] == 3, "file cpus");
		free(cpus);
	}
	CHECK_INT(cpulist__read_file(path, 3, &cpus), -EINVAL);
	unlink(path);
	CHECK_INT(cpulist__read_file(path, 4, &cpus), -ENOENT);
	CHECK(cpus == NULL, "cpus NULL on error");
}

int main(void)
{
	test_parse();
	test_errors();
	test_sysfs();
	return ut_done("cpulist");
}
