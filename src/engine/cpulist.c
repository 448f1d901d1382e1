// SPDX-License-Identifier: GPL-2.0
/*
 * CPU list parsing.  Ranges are collected first and expanded last, so the
 * memory used follows the number of CPUs named, not the size of @max_cpu.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cpulist.h"

#define CPU_DIR "/sys/devices/system/cpu/"

struct range {
	int lo, hi;
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static const char *skip_space(const char *s)
{
	while (is_space(*s))
		s++;
	return s;
}

/* A non-negative decimal that fits an int; anything else is malformed. */
static int parse_num(const char **sp, int *v)
{
	const char *s = *sp;
	long long n = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	while (*s >= '0' && *s <= '9') {
		n = n * 10 + (*s - '0');
		if (n > INT_MAX)
			return -EINVAL;
		s++;
	}
	*v = (int)n;
	*sp = s;
	return 0;
}

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

/*
 * Parse @str into sorted, merged ranges (each bound < @max_cpu).
 * Returns the number of ranges (> 0) or -errno.
 */
static int parse_ranges(const char *str, int max_cpu, struct range **out)
{
	struct range *r = NULL, *tmp;
	const char *s = str;
	int n = 0, m, ret = -EINVAL;

	*out = NULL;
	if (!str || max_cpu <= 0)
		return -EINVAL;
	for (;;) {
		int lo, hi;

		s = skip_space(s);
		if (parse_num(&s, &lo))
			goto err;
		hi = lo;
		s = skip_space(s);
		if (*s == '-') {
			s = skip_space(s + 1);
			if (parse_num(&s, &hi))
				goto err;
			s = skip_space(s);
		}
		if (hi < lo || hi >= max_cpu)
			goto err;
		tmp = realloc(r, (n + 1) * sizeof(*r));
		if (!tmp) {
			ret = -ENOMEM;
			goto err;
		}
		r = tmp;
		r[n].lo = lo;
		r[n].hi = hi;
		n++;
		if (*s == '\0')
			break;
		if (*s != ',')
			goto err;
		s++;
	}

	qsort(r, n, sizeof(*r), cmp_range);
	m = 0;
	for (int i = 1; i < n; i++) {
		/* hi < INT_MAX here because hi < max_cpu, so hi + 1 cannot overflow. */
		if (r[i].lo <= r[m].hi + 1) {
			if (r[i].hi > r[m].hi)
				r[m].hi = r[i].hi;
		} else {
			r[++m] = r[i];
		}
	}
	*out = r;
	return m + 1;
err:
	free(r);
	return ret;
}

int cpulist__parse(const char *str, int max_cpu, int **cpus)
{
	struct range *r;
	long long count = 0;
	int n, k = 0, *v;

	*cpus = NULL;
	n = parse_ranges(str, max_cpu, &r);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++)
		count += (long long)r[i].hi - r[i].lo + 1;
	/* Merged ranges are disjoint and below max_cpu, so count <= max_cpu. */
	v = malloc(count * sizeof(*v));
	if (!v) {
		free(r);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		for (int c = r[i].lo; c <= r[i].hi; c++)
			v[k++] = c;
	free(r);
	*cpus = v;
	return k;
}

/* Read a small sysfs file into @buf (NUL-terminated). */
static int read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;
	int ret = 0;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	if (ferror(f))
		ret = -EIO;
	else if (n == len - 1 && !feof(f))
		ret = -E2BIG;
	fclose(f);
	buf[n] = '\0';
	return ret;
}

int cpulist__read_file(const char *path, int max_cpu, int **cpus)
{
	char buf[4096];
	int ret;

	*cpus = NULL;
	ret = read_small(path, buf, sizeof(buf));
	if (ret)
		return ret;
	return cpulist__parse(buf, max_cpu, cpus);
}

int cpulist__online(int **cpus)
{
	int max = cpulist__possible();

	if (max < 0) {
		*cpus = NULL;
		return max;
	}
	return cpulist__read_file(CPU_DIR "online", max, cpus);
}

int cpulist__possible(void)
{
	char buf[4096];
	struct range *r;
	int n, ret;

	ret = read_small(CPU_DIR "possible", buf, sizeof(buf));
	if (ret)
		return ret;
	n = parse_ranges(buf, INT_MAX, &r);
	if (n < 0)
		return n;
	ret = r[n - 1].hi + 1;
	free(r);
	return ret;
}
