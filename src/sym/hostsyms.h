/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the symbol side of this host offers (perf-prof check): libc's
 * separate debug file, whether libc's code keeps frame pointers, the
 * kernel's debuginfo.  Each is measured on the files themselves.
 */
#ifndef PP_HOSTSYMS_H
#define PP_HOSTSYMS_H

#include <stddef.h>

#include "sym/elfsyms.h"

struct libc_info {
	char path[4096]; /* the libc this process runs with */
	unsigned char build_id[BUILD_ID_MAX];
	int bid_len;	  /* 0: none */
	char debug[4096]; /* its separate debug file with that build-id, "" if none */
	/*
	 * Frame pointers: of the functions .dynsym names (one per address),
	 * how many begin with push %rbp; mov %rsp,%rbp (after an endbr64).
	 * fp_err: 0, or -ENOTSUP on an architecture other than x86-64.
	 */
	int nr_funcs, nr_fp, fp_err;
};

/* Fill @li for the libc mapped in this process.  0, or -errno (-ENOENT: no libc mapped). */
int hostsyms__libc(struct libc_info *li);

/*
 * Frame-pointer prologues in the ELF file @path (x86-64): into *@nr_funcs
 * the functions of .dynsym (or .symtab when it has no .dynsym) with
 * distinct addresses, into *@nr_fp those that begin with one.  0 or -errno.
 */
int hostsyms__fp_prologues(const char *path, int *nr_funcs, int *nr_fp);

/*
 * The running kernel's build-id (/sys/kernel/notes) in hex into @bid, and
 * a vmlinux with it (the .build-id tree of /usr/lib/debug, or the usual
 * vmlinux places whose build-id matches) into @out.  0, -ENOENT when none
 * is found (@bid still set when the build-id was read), or -errno.
 */
int hostsyms__kernel_debug(char *bid, size_t bidlen, char *out, size_t len);

#endif
