// SPDX-License-Identifier: GPL-2.0
/*
 * libc's debug file and frame pointers, the kernel's debuginfo: measured on
 * the files (perf-prof check).
 *
 * Frame pointers: a frame-pointer callchain (-g) passes through a function
 * only if it keeps %rbp as the frame pointer, which a function built with
 * -fno-omit-frame-pointer sets up first thing: push %rbp; mov %rsp,%rbp
 * (after endbr64 where CET is on).  Counting the functions of libc that
 * begin so says whether -g stacks cross libc (most do: an FP-built libc) or
 * stop in it (a few hand-written ones do: Debian's libc).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sym/debugfile.h"
#include "sym/hostsyms.h"

static int cmp_u64(const void *a, const void *b)
{
	GElf_Addr x = *(const GElf_Addr *)a, y = *(const GElf_Addr *)b;

	return x < y ? -1 : x > y;
}

/* Whether the code at @code (@n bytes) begins with a frame-pointer prologue. */
static int fp_prologue(const unsigned char *code, size_t n)
{
	static const unsigned char endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const unsigned char push_mov[4] = { 0x55, 0x48, 0x89, 0xe5 };

	if (n >= 4 && !memcmp(code, endbr64, 4)) {
		code += 4;
		n -= 4;
	}
	return n >= 4 && !memcmp(code, push_mov, 4);
}

/* The functions of symbol table @scn: their addresses, and whether each has a prologue. */
static int scan_symtab(Elf *elf, int fd, Elf_Scn *scn, const GElf_Shdr *sh, int *nr_funcs,
		       int *nr_fp)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0, nr = 0;
	GElf_Addr *addrs;
	int funcs = 0, fp = 0;

	if (!d || !n)
		return 0;
	addrs = calloc(n, sizeof(*addrs) * 2);
	if (!addrs)
		return -ENOMEM;
	/* addrs[2i]: the address, addrs[2i+1]: its section index */
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;

		if (!gelf_getsym(d, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE || !sym.st_size)
			continue;
		addrs[2 * nr] = sym.st_value;
		addrs[2 * nr + 1] = sym.st_shndx;
		nr++;
	}
	qsort(addrs, nr, 2 * sizeof(*addrs), cmp_u64);
	for (size_t i = 0; i < nr; i++) {
		Elf_Scn *text;
		GElf_Shdr tsh;
		unsigned char code[8];
		GElf_Addr a = addrs[2 * i];
		ssize_t got;

		if (i && a == addrs[2 * (i - 1)]) /* an alias */
			continue;
		text = elf_getscn(elf, addrs[2 * i + 1]);
		if (!text || !gelf_getshdr(text, &tsh) || tsh.sh_type != SHT_PROGBITS ||
		    a < tsh.sh_addr || a - tsh.sh_addr >= tsh.sh_size)
			continue;
		funcs++;
		got = pread(fd, code, sizeof(code), (off_t)(tsh.sh_offset + (a - tsh.sh_addr)));
		if (got > 0 && fp_prologue(code, (size_t)got))
			fp++;
	}
	free(addrs);
	*nr_funcs = funcs;
	*nr_fp = fp;
	return 0;
}

int hostsyms__fp_prologues(const char *path, int *nr_funcs, int *nr_fp)
{
	Elf_Scn *scn = NULL, *dyn = NULL, *tab = NULL;
	GElf_Shdr sh, dsh, tsh;
	GElf_Ehdr eh;
	int fd, err;
	Elf *elf;

	*nr_funcs = *nr_fp = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		err = -ENOEXEC;
		goto out;
	}
	if (eh.e_machine != EM_X86_64) {
		err = -ENOTSUP;
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_DYNSYM && !dyn) {
			dyn = scn;
			dsh = sh;
		} else if (sh.sh_type == SHT_SYMTAB && !tab) {
			tab = scn;
			tsh = sh;
		}
	}
	if (dyn)
		err = scan_symtab(elf, fd, dyn, &dsh, nr_funcs, nr_fp);
	else if (tab)
		err = scan_symtab(elf, fd, tab, &tsh, nr_funcs, nr_fp);
	else
		err = -ENOENT;
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

/* The libc this process has mapped, from /proc/self/maps. */
static int find_libc(char *out, size_t len)
{
	char line[PATH_MAX + 128];
	FILE *fp = fopen("/proc/self/maps", "re");
	int err = -ENOENT;

	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		char *path = strchr(line, '/'), *base;

		if (!path)
			continue;
		path[strcspn(path, "\n")] = '\0';
		base = strrchr(path, '/') + 1;
		if (!strncmp(base, "libc.so", 7) || !strncmp(base, "libc-", 5)) {
			snprintf(out, len, "%s", path);
			err = 0;
			break;
		}
	}
	fclose(fp);
	return err;
}

int hostsyms__libc(struct libc_info *li)
{
	int fd, err;

	memset(li, 0, sizeof(*li));
	err = find_libc(li->path, sizeof(li->path));
	if (err)
		return err;
	fd = open(li->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	li->bid_len = elfsyms__read_build_id(fd, li->build_id, sizeof(li->build_id));
	close(fd);
	if (li->bid_len < 0)
		li->bid_len = 0;
	if (li->bid_len > 1 && debugfile__find(li->path, "", li->build_id, li->bid_len, NULL,
					       li->debug, sizeof(li->debug)))
		li->debug[0] = '\0';
	li->fp_err = hostsyms__fp_prologues(li->path, &li->nr_funcs, &li->nr_fp);
	return 0;
}

/* The build-id note of /sys/kernel/notes (raw ELF notes). */
static int kernel_build_id(unsigned char *bid, int size)
{
	unsigned char buf[4096];
	size_t off = 0, n;
	FILE *fp = fopen("/sys/kernel/notes", "re");

	if (!fp)
		return -errno;
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	while (off + 12 <= n) {
		unsigned int namesz, descsz, type;
		size_t name, desc;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		name = off + 12;
		desc = name + ((namesz + 3) & ~3u);
		if (namesz > n || descsz > n || desc + descsz > n)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(buf + name, "GNU", 4) &&
		    descsz > 1) {
			int len = descsz < (unsigned)size ? (int)descsz : size;

			memcpy(bid, buf + desc, len);
			return len;
		}
		off = desc + ((descsz + 3) & ~3u);
	}
	return -ENOENT;
}

/* Whether @path is an ELF file with build-id @bid. */
static int same_build(const char *path, const unsigned char *bid, int len)
{
	unsigned char got[BUILD_ID_MAX];
	int fd = open(path, O_RDONLY | O_CLOEXEC), n;

	if (fd < 0)
		return 0;
	n = elfsyms__read_build_id(fd, got, sizeof(got));
	close(fd);
	return n == len && !memcmp(got, bid, len);
}

int hostsyms__kernel_debug(char *hex, size_t hexlen, char *out, size_t len)
{
	unsigned char bid[BUILD_ID_MAX];
	struct utsname u;
	char path[PATH_MAX];
	const char *const places[] = { "/usr/lib/debug/boot/vmlinux-%s",
				       "/usr/lib/debug/lib/modules/%s/vmlinux", "/boot/vmlinux-%s",
				       "/lib/modules/%s/build/vmlinux" };
	int n = kernel_build_id(bid, sizeof(bid));

	out[0] = '\0';
	if (hexlen)
		hex[0] = '\0';
	if (n < 0)
		return n;
	for (int i = 0; i < n && (size_t)(2 * i + 2) < hexlen; i++)
		sprintf(hex + 2 * i, "%02x", bid[i]);
	if (!debugfile__find("/vmlinux", "", bid, n, NULL, out, len))
		return 0;
	if (uname(&u))
		return -errno;
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		snprintf(path, sizeof(path), places[i], u.release);
		if (same_build(path, bid, n)) {
			snprintf(out, len, "%s", path);
			return 0;
		}
	}
	return -ENOENT;
}
