// SPDX-License-Identifier: GPL-2.0
/* Our own vdso image (see vdso.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sym/vdso.h"

int vdso__image(const void **img, size_t *len)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	unsigned long long s, e;
	char line[512];
	int err = -ENOENT;
	FILE *fp;

	if (!base)
		return -ENOENT;
	/* the mapping bounds what can be read, whatever the ELF headers say */
	fp = fopen("/proc/self/maps", "re");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%llx-%llx", &s, &e) == 2 && s == base && e > s &&
		    strstr(line, "[vdso]")) {
			*img = (const void *)base;
			*len = e - s;
			err = 0;
			break;
		}
	}
	fclose(fp);
	return err;
}

int vdso__fd(void)
{
	const char *img;
	size_t len, off;
	ssize_t w;
	int fd, err;

	err = vdso__image((const void **)&img, &len);
	if (err)
		return err;
	fd = memfd_create("perf-prof-vdso", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (off = 0; off < len; off += w) {
		w = write(fd, img + off, len - off);
		if (w <= 0) {
			err = w < 0 ? -errno : -EIO;
			close(fd);
			return err;
		}
	}
	return fd;
}
