/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What test_syms and test_syms_dso share: a scratch directory, this
 * binary's path, a marker function to find in its symbols, the stack
 * printer's warnings counted, small file helpers.  UT_SYMS_NAME names the
 * scratch directory.
 */
#ifndef UT_SYMS_UTIL_H
#define UT_SYMS_UTIL_H

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sym/dso.h"
#include "sym/debugfile.h"
#include "sym/elfsyms.h"
#include "sym/ksyms.h"
#include "sym/maps.h"
#include "sym/stack.h"
#include "sym/vdso.h"
#include "ut.h"

#define SU_UNUSED __attribute__((unused))

static char tmpdir[] = "/tmp/" UT_SYMS_NAME ".XXXXXX";
static char exe[PATH_MAX];

/* Big enough that +0x9 is still inside. */
__attribute__((noinline, used)) int test_marker_fn(int x)
{
	volatile int v[8] = { 0 };
	int i;

	for (i = 0; i < 8; i++)
		v[i] = x * i;
	return v[x & 7] * 3 + 1;
}

/* keeps CHECK_STR from seeing an array (always non-NULL) */
SU_UNUSED static const char *str(const char *s)
{
	return s;
}

static int warnings;
static char last_warning[512];

SU_UNUSED static void count_warn(const char *msg)
{
	warnings++;
	snprintf(last_warning, sizeof(last_warning), "%s", msg);
}

SU_UNUSED static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

SU_UNUSED static void *read_all(const char *path, size_t *len)
{
	struct stat st;
	void *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		return NULL;
	buf = malloc(st.st_size);
	if (buf && read(fd, buf, st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	*len = st.st_size;
	return buf;
}

SU_UNUSED static u64 self_vaddr(struct elfsyms *es, u64 addr)
{
	unsigned long long s, e, off;
	char line[1024];
	u64 v = 0;
	FILE *fp = fopen("/proc/self/maps", "r");

	while (fp && fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%llx-%llx %*s %llx", &s, &e, &off) == 3 && addr >= s &&
		    addr < e) {
			v = elfsyms__file_to_vaddr(es, addr - s + off);
			break;
		}
	}
	if (fp)
		fclose(fp);
	return v;
}

SU_UNUSED static int copy_file(const char *from, const char *to)
{
	size_t len;
	void *buf = read_all(from, &len);
	int err = buf ? write_file(to, buf, len) : -1;

	free(buf);
	return err;
}

/* main's start: this binary's path, the scratch directory, warnings counted */
SU_UNUSED static int syms_setup(void)
{
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0 || !mkdtemp(tmpdir)) {
		printf("not ok setup\n");
		return -1;
	}
	exe[n] = 0;
	stack__set_warn(count_warn);
	return 0;
}

SU_UNUSED static void syms_cleanup(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd))
		printf("# could not remove %s\n", tmpdir);
}

#endif
