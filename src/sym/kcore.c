// SPDX-License-Identifier: GPL-2.0
/* /proc/kcore: its PT_LOAD segments, read with pread at the offsets they give. */
#include <elf.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sym/kcore.h"

/* more would be a file of ours, not a kernel's (kcore has a few dozen) */
#define MAX_SEGMENTS 65536

struct kseg {
	u64 vaddr, size, offset; /* [vaddr, vaddr + size) at file @offset */
};

struct kcore {
	int fd;
	int nr;
	struct kseg seg[];
};

static int read_at(int fd, void *buf, size_t len, u64 off)
{
	size_t done = 0;

	if (off > (u64)INT64_MAX - len)
		return -ENODATA; /* no file is that long */
	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA; /* the file ends before the segment says */
		done += n;
	}
	return 0;
}

/* The number of program headers: e_phnum, or section 0's sh_info past PN_XNUM. */
static int phnum(int fd, const Elf64_Ehdr *eh, u64 *nr)
{
	Elf64_Shdr sh;
	int err;

	*nr = eh->e_phnum;
	if (eh->e_phnum != PN_XNUM)
		return 0;
	if (!eh->e_shoff || eh->e_shentsize != sizeof(sh))
		return -ENOEXEC;
	err = read_at(fd, &sh, sizeof(sh), eh->e_shoff);
	if (err)
		return err == -ENODATA ? -ENOEXEC : err;
	*nr = sh.sh_info;
	return 0;
}

int kcore__from_fd(int fd, struct kcore **out)
{
	struct kcore *kc = NULL;
	Elf64_Ehdr eh;
	u64 nr;
	int err;

	*out = NULL;
	err = read_at(fd, &eh, sizeof(eh), 0);
	if (err) {
		err = err == -ENODATA ? -ENOEXEC : err;
		goto fail;
	}
	err = -ENOEXEC;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != (__BYTE_ORDER == __LITTLE_ENDIAN ? ELFDATA2LSB : ELFDATA2MSB) ||
	    eh.e_type != ET_CORE || eh.e_phentsize != sizeof(Elf64_Phdr) || !eh.e_phoff)
		goto fail;
	err = phnum(fd, &eh, &nr);
	if (err)
		goto fail;
	err = -ENOEXEC;
	if (nr > MAX_SEGMENTS)
		goto fail;
	kc = calloc(1, sizeof(*kc) + nr * sizeof(kc->seg[0]));
	if (!kc) {
		err = -ENOMEM;
		goto fail;
	}
	for (u64 i = 0; i < nr; i++) {
		Elf64_Phdr ph;

		err = read_at(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph));
		if (err) {
			err = err == -ENODATA ? -ENOEXEC : err;
			goto fail;
		}
		/*
		 * only what the file holds: p_filesz, not p_memsz; one that ends
		 * at the top of the address space is fine (its end wraps to 0),
		 * one that would go past it is none
		 */
		if (ph.p_type != PT_LOAD || !ph.p_filesz ||
		    ph.p_filesz - 1 > UINT64_MAX - ph.p_vaddr)
			continue;
		kc->seg[kc->nr++] = (struct kseg){ ph.p_vaddr, ph.p_filesz, ph.p_offset };
	}
	kc->fd = fd;
	*out = kc;
	return 0;
fail:
	free(kc);
	close(fd);
	return err;
}

int kcore__open(const char *path, struct kcore **out)
{
	int fd = open(path ? path : KCORE_PATH, O_RDONLY | O_CLOEXEC);

	*out = NULL;
	if (fd < 0)
		return -errno;
	return kcore__from_fd(fd, out);
}

void kcore__delete(struct kcore *kc)
{
	if (!kc)
		return;
	close(kc->fd);
	free(kc);
}

int kcore__nr_segments(const struct kcore *kc)
{
	return kc ? kc->nr : 0;
}

static const struct kseg *seg_of(const struct kcore *kc, u64 addr)
{
	for (int i = 0; i < kc->nr; i++)
		if (addr >= kc->seg[i].vaddr && addr - kc->seg[i].vaddr < kc->seg[i].size)
			return &kc->seg[i];
	return NULL;
}

int kcore__read(struct kcore *kc, u64 addr, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		const struct kseg *s = seg_of(kc, addr);
		u64 in, n;
		int err;

		if (!s)
			return -EFAULT;
		in = addr - s->vaddr;
		n = s->size - in < len ? s->size - in : len;
		err = read_at(kc->fd, p, n, s->offset + in);
		if (err)
			return err;
		p += n;
		len -= n;
		if (addr + n < addr && len) /* the top of the address space */
			return -EFAULT;
		addr += n;
	}
	return 0;
}

const char *kcore__lockdown_mode(const char *text)
{
	static const char *const modes[] = { "none", "integrity", "confidentiality" };
	const char *l = text ? strchr(text, '[') : NULL;
	const char *r = l ? strchr(l, ']') : NULL;

	if (!r)
		return NULL;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if ((size_t)(r - l - 1) == strlen(modes[i]) && !strncmp(l + 1, modes[i], r - l - 1))
			return modes[i];
	return NULL;
}

char *kcore__why(int err, const char *lockdown, int rawio, char *buf, size_t len)
{
	const char *mode = kcore__lockdown_mode(lockdown);

	if (err == -ENOENT)
		snprintf(buf, len, "no such file (a kernel built without CONFIG_PROC_KCORE)");
	else if ((err == -EPERM || err == -EACCES) && mode && !strcmp(mode, "confidentiality"))
		/* the kernel's lockdown forbids kcore in its confidentiality mode only */
		snprintf(buf, len,
			 "kernel lockdown (confidentiality) forbids it: see %s; booting "
			 "without lockdown=confidentiality lifts it",
			 LOCKDOWN_PATH);
	else if ((err == -EPERM || err == -EACCES) && !rawio)
		snprintf(buf, len, "%s: reading kernel memory needs root (CAP_SYS_RAWIO)",
			 strerror(-err));
	else if (err == -ENOEXEC)
		snprintf(buf, len, "not a 64-bit ELF core file of this machine");
	else
		snprintf(buf, len, "%s", strerror(-err));
	return buf;
}

/* CAP_SYS_RAWIO in the effective set (what opening /proc/kcore asks for). */
static int has_rawio(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &h, d))
		return geteuid() == 0;
	return !!(d[CAP_TO_INDEX(CAP_SYS_RAWIO)].effective & CAP_TO_MASK(CAP_SYS_RAWIO));
}

char *kcore__explain(int err, char *buf, size_t len)
{
	char lock[128];
	FILE *fp = fopen(LOCKDOWN_PATH, "re");
	const char *l = fp ? fgets(lock, sizeof(lock), fp) : NULL;

	if (fp)
		fclose(fp);
	return kcore__why(err, l, has_rawio(), buf, len);
}
