/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel memory through /proc/kcore: an ELF core file whose PT_LOAD
 * segments map kernel virtual addresses to file offsets.  Opening it needs
 * CAP_SYS_RAWIO, a kernel built with CONFIG_PROC_KCORE, and no lockdown in
 * confidentiality mode.  Library code: nothing printed, errors are -errno.
 */
#ifndef PP_KCORE_H
#define PP_KCORE_H

#include <stddef.h>

#include "engine/sample.h"

#define KCORE_PATH "/proc/kcore"
#define LOCKDOWN_PATH "/sys/kernel/security/lockdown"

struct kcore;

/*
 * Open @path (NULL: /proc/kcore) and read its program headers.  0,
 * -ENOENT, -EPERM/-EACCES (no CAP_SYS_RAWIO, or lockdown), -ENOEXEC (not a
 * 64-bit ELF core file of this machine's byte order), or another -errno.
 */
int kcore__open(const char *path, struct kcore **out);
/* The same over an open file (taken over: closed by kcore__delete, or on error). */
int kcore__from_fd(int fd, struct kcore **out);
void kcore__delete(struct kcore *kc); /* NULL is fine */

/*
 * @len bytes at kernel address @addr into @buf, across segments that
 * follow each other.  0, -EFAULT (a byte in no segment), -ENODATA (the
 * file ends before the segment holding a byte does: a truncated copy), or
 * another -errno (the read failed).
 */
int kcore__read(struct kcore *kc, u64 addr, void *buf, size_t len);
/* How many PT_LOAD segments it has. */
int kcore__nr_segments(const struct kcore *kc);

/*
 * The lockdown mode in @text (what /sys/kernel/security/lockdown holds,
 * "none [integrity] confidentiality": the one in brackets): "none",
 * "integrity", "confidentiality", or NULL when @text names none.
 */
const char *kcore__lockdown_mode(const char *text);
/*
 * Why @path could not be opened with @err, as a phrase for "cannot read
 * PATH: ...", given the lockdown file's text (@lockdown, NULL: none) and
 * whether the process has CAP_SYS_RAWIO: the kernel's configuration,
 * lockdown, the capability, or strerror.  Into @buf; returns @buf.
 */
char *kcore__why(int err, const char *lockdown, int rawio, char *buf, size_t len);

/* kcore__why for /proc/kcore on this host: its lockdown file, this process's capabilities. */
char *kcore__explain(int err, char *buf, size_t len);

#endif
