/* SPDX-License-Identifier: GPL-2.0 */
/* CPU lists as the kernel prints them: "0-3,5,7-8". */
#ifndef PP_CPULIST_H
#define PP_CPULIST_H

/*
 * Parse @str into a sorted array of distinct CPU numbers.
 * Every number must be < @max_cpu (pass the count of possible CPUs).
 * Returns the number of CPUs (> 0), -EINVAL for malformed text or an
 * out-of-range CPU, -ENOMEM.  On error *@cpus is NULL.
 */
int cpulist__parse(const char *str, int max_cpu, int **cpus);

/* The online CPUs from /sys/devices/system/cpu/online; returns count or -errno. */
int cpulist__online(int **cpus);

/* Parse the CPU list in the file @path (as cpulist__parse); for other sysfs masks and tests. */
int cpulist__read_file(const char *path, int max_cpu, int **cpus);

/* Number of possible CPUs (highest possible index + 1), or -errno. */
int cpulist__possible(void);

#endif
