// SPDX-License-Identifier: GPL-2.0
/*
 * Run-time addresses of named symbols.  An ELF symbol's st_value is a
 * link-time address; where the file is mapped adds the load bias: the
 * start of a mapping minus the link-time address its file offset has
 * (through the PT_LOAD that holds it).  Data in .bss has no file offset,
 * so the bias comes from the file's first mapping, not from the symbol.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/procfs.h"
#include "sym/probe_elf.h"
#include "sym/symaddr.h"

#define MAX_LOADS 64
#define MAX_FILES 4096

struct layout {
	int type;    /* e_type: ET_EXEC, ET_DYN */
	bool interp; /* PT_INTERP: a program, not a loader or a library */
	u64 align;   /* the largest power-of-two p_align of the PT_LOADs */
	struct {
		u64 vaddr, off, filesz;
	} load[MAX_LOADS];
	int nr;
};

static int read_layout(const char *path, struct layout *l)
{
	size_t phnum, i;
	GElf_Ehdr eh;
	GElf_Phdr ph;
	Elf *elf;
	int fd, err = 0;

	memset(l, 0, sizeof(*l));
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || !gelf_getehdr(elf, &eh) || elf_getphdrnum(elf, &phnum)) {
		err = -ENOEXEC;
		goto out;
	}
	l->type = eh.e_type;
	for (i = 0; i < phnum && gelf_getphdr(elf, (int)i, &ph); i++) {
		if (ph.p_type == PT_INTERP)
			l->interp = true;
		if (ph.p_type != PT_LOAD)
			continue;
		if (ph.p_align && !(ph.p_align & (ph.p_align - 1)) && ph.p_align > l->align)
			l->align = ph.p_align;
		if (l->nr < MAX_LOADS) {
			l->load[l->nr].vaddr = ph.p_vaddr;
			l->load[l->nr].off = ph.p_offset;
			l->load[l->nr].filesz = ph.p_filesz;
			l->nr++;
		}
	}
	if (!l->nr)
		err = -ENOEXEC;
out:
	elf_end(elf);
	close(fd);
	return err;
}

/*
 * The link-time address at file offset @pgoff, where a mapping starts:
 * the PT_LOAD whose file part (from its page) holds it.  0 or -ENOENT.
 */
static int layout__vaddr_at(const struct layout *l, u64 pgoff, u64 *vaddr)
{
	u64 page = (u64)sysconf(_SC_PAGESIZE);

	for (int i = 0; i < l->nr; i++) {
		u64 from = l->load[i].off & ~(page - 1);

		if (pgoff >= from && pgoff < l->load[i].off + l->load[i].filesz) {
			*vaddr = l->load[i].vaddr - l->load[i].off + pgoff;
			return 0;
		}
	}
	return -ENOENT;
}

static void set_file(struct symaddr *sa, const char *file)
{
	snprintf(sa->file, sizeof(sa->file), "%s", file);
}

/* @name in the ELF file @path: its symbol, link-time. */
static int elf_symbol(const char *path, const char *name, struct probe_sym *ps)
{
	struct probe_elf *pe;
	int err = probe_elf__open(path, &pe);

	if (err)
		return err;
	err = probe_elf__symbol(pe, name, ps);
	probe_elf__delete(pe);
	if (!err && ps->tls)
		err = -EMEDIUMTYPE;
	return err;
}

/* ---- The kernel ---- */

int symaddr__parse_kallsyms(FILE *fp, const char *name, struct symaddr *sa)
{
	size_t n = strlen(name), cap = 0;
	bool found = false, core = false, nonzero = false;
	char *line = NULL;

	if (!n)
		return -ENOENT;
	while (getline(&line, &cap, fp) > 0) {
		unsigned long long addr;
		char type, end;
		int pos = 0;
		bool module;

		if (sscanf(line, "%llx %c %n", &addr, &type, &pos) != 2 || !pos)
			continue;
		if (addr)
			nonzero = true;
		/* NAME, then a newline, the end of the text, or a tab before [module] */
		if (strncmp(line + pos, name, n))
			continue;
		end = line[pos + n];
		if (end != '\t' && end != '\n' && end != '\0')
			continue;
		module = end == '\t';
		/* the core kernel's symbol wins over a module's of the same name */
		if (core || (found && module))
			continue;
		found = true;
		core = !module;
		sa->addr = addr;
		sa->size = 0;
		sa->func = strchr("tTwW", type) != NULL;
		sa->ifunc = false;
		sa->kernel = true;
		sa->predicted = false;
		set_file(sa, module ? "[module]" : "[kernel.kallsyms]");
	}
	free(line);
	if (!found)
		return -ENOENT;
	/* addresses hidden (kptr_restrict, not root): every one reads 0 */
	return nonzero ? 0 : -EPERM;
}

int symaddr__kernel(const char *path, const char *name, struct symaddr *sa)
{
	FILE *fp = fopen(path ? path : "/proc/kallsyms", "re");
	int err;

	if (!fp)
		return -errno;
	err = symaddr__parse_kallsyms(fp, name, sa);
	fclose(fp);
	return err;
}

/* ---- A running process ---- */

static int add_mapped(struct symaddr_file **v, int *nr, const char *path, u64 start, u64 end,
		      u64 pgoff)
{
	struct symaddr_file *m;

	for (int i = 0; i < *nr; i++) {
		if (strcmp((*v)[i].path, path))
			continue;
		if (pgoff < (*v)[i].pgoff) {
			(*v)[i].start = start;
			(*v)[i].end = end;
			(*v)[i].pgoff = pgoff;
		}
		return 0;
	}
	if (*nr >= MAX_FILES)
		return 0;
	m = realloc(*v, sizeof(*m) * (*nr + 1));
	if (!m)
		return -ENOMEM;
	*v = m;
	m[*nr].path = strdup(path);
	if (!m[*nr].path)
		return -ENOMEM;
	m[*nr].start = start;
	m[*nr].end = end;
	m[*nr].pgoff = pgoff;
	(*nr)++;
	return 0;
}

/*
 * Lines of any length (getline): a path is the rest of its line, and a
 * line cut in two would make its end look like a mapping of its own.
 */
int symaddr__parse_maps(FILE *fp, struct symaddr_file **v, int *nr)
{
	char *line = NULL;
	size_t cap = 0;
	int err = 0;

	*v = NULL;
	*nr = 0;
	while (!err && getline(&line, &cap, fp) > 0) {
		struct maps_line l;

		if (procfs__maps_line(line, &l) || !l.has_id || l.start >= l.end)
			continue;
		if (l.path[0] == '/')
			err = add_mapped(v, nr, l.path, l.start, l.end, l.pgoff);
	}
	free(line);
	if (err) {
		symaddr__free_files(*v, *nr);
		*v = NULL;
		*nr = 0;
	}
	return err;
}

void symaddr__free_files(struct symaddr_file *v, int nr)
{
	for (int i = 0; i < nr; i++)
		free(v[i].path);
	free(v);
}

/* The files of /proc/PID/maps, each with its mapping of the lowest offset. */
static int read_mapped(pid_t pid, struct symaddr_file **v, int *nr)
{
	char path[64];
	FILE *fp;
	int err;

	*v = NULL;
	*nr = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	fp = fopen(path, "re");
	if (!fp)
		return errno == ENOENT ? -ESRCH : -errno;
	err = symaddr__parse_maps(fp, v, nr);
	fclose(fp);
	return err;
}

/*
 * The file itself: map_files reaches the mapped inode, even one deleted or
 * replaced since (a library upgraded under a running daemon is " (deleted)"
 * in maps, and its path names the new file); without it (not root), the
 * path in the process's own view of the files (a container's root).
 */
static int open_path(pid_t pid, const struct symaddr_file *m, char *path, size_t len)
{
	size_t n = strlen(m->path);

	snprintf(path, len, "/proc/%d/map_files/%llx-%llx", (int)pid, (unsigned long long)m->start,
		 (unsigned long long)m->end);
	if (!access(path, R_OK))
		return 0;
	if (n > 10 && !strcmp(m->path + n - 10, " (deleted)"))
		return -ENOENT;
	if (snprintf(path, len, "/proc/%d/root%s", (int)pid, m->path) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

static int in_mapped(pid_t pid, const struct symaddr_file *m, const char *name, struct symaddr *sa)
{
	char path[PATH_MAX];
	struct probe_sym ps;
	struct layout l;
	u64 at;
	int err;

	err = open_path(pid, m, path, sizeof(path));
	if (err)
		return err;
	err = elf_symbol(path, name, &ps);
	if (err)
		return err;
	err = read_layout(path, &l);
	if (err)
		return err;
	if (layout__vaddr_at(&l, m->pgoff, &at))
		return -ENOENT;
	sa->addr = ps.vaddr + (m->start - at);
	sa->size = ps.size;
	sa->func = ps.func;
	sa->ifunc = ps.ifunc;
	sa->kernel = false;
	sa->predicted = false;
	set_file(sa, m->path);
	return 0;
}

int symaddr__process(pid_t pid, const char *name, struct symaddr *sa)
{
	char link[64], exe[PATH_MAX];
	struct symaddr_file *v;
	int nr, err, ret = -ENOENT;
	ssize_t n;

	err = read_mapped(pid, &v, &nr);
	if (err)
		goto out;
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	n = readlink(link, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	/* the executable first: its symbol is the one the program's own code uses */
	for (int pass = 0; pass < 2 && ret; pass++) {
		for (int i = 0; i < nr && ret; i++) {
			if ((pass == 0) != !strcmp(v[i].path, exe))
				continue;
			err = in_mapped(pid, &v[i], name, sa);
			if (!err || err == -EMEDIUMTYPE || err == -ENOMEM)
				ret = err;
		}
	}
	err = ret;
	symaddr__free_files(v, nr);
out:
	return err;
}

/* ---- A program about to be started ---- */

/*
 * Where exec(2) puts a position-independent program (ET_DYN with an
 * interpreter) when it does not randomize: the kernel's ELF_ET_DYN_BASE,
 * on x86-64 two thirds of the 47-bit user address space, aligned down to
 * the program's largest segment alignment; then lowered by the first
 * segment's address.  0 or -EOPNOTSUPP.
 */
static int pie_base(const struct layout *l, u64 *bias)
{
#if defined(__x86_64__)
	u64 page = (u64)sysconf(_SC_PAGESIZE), align = l->align > page ? l->align : page;
	u64 window = (1ULL << 47) - page, base = window / 3 * 2;

	base &= ~(align - 1);
	*bias = (base - l->load[0].vaddr) & ~(page - 1);
	return 0;
#else
	(void)l;
	(void)bias;
	return -EOPNOTSUPP;
#endif
}

int symaddr__program(const char *path, const char *name, struct symaddr *sa)
{
	struct probe_sym ps;
	struct layout l;
	u64 bias = 0;
	int err = elf_symbol(path, name, &ps);

	if (err)
		return err;
	err = read_layout(path, &l);
	if (err)
		return err;
	if (l.type == ET_DYN && l.interp)
		err = pie_base(&l, &bias);
	else if (l.type != ET_EXEC)
		err = -EOPNOTSUPP; /* a static PIE or a loader goes where mmap puts it */
	if (err)
		return err;
	sa->addr = ps.vaddr + bias;
	sa->size = ps.size;
	sa->func = ps.func;
	sa->ifunc = ps.ifunc;
	sa->kernel = false;
	sa->predicted = true;
	set_file(sa, path);
	return 0;
}

int symaddr__library(const char *path, const char *name, char *lib, size_t len)
{
	struct probe_sym ps;
	char **files;
	int nr = libpath__closure(path, &files), err = -ENOENT;

	if (nr < 0)
		return nr;
	for (int i = 1; i < nr && err; i++)
		if (!elf_symbol(files[i], name, &ps)) {
			snprintf(lib, len, "%s", files[i]);
			err = 0;
		}
	probe_elf__free_list(files);
	return err;
}

/* ---- What a session monitors ---- */

static int in_targets(const struct target_opts *tg, const char *name, struct symaddr *sa, char *err,
		      size_t errlen)
{
	bool found = false;

	for (int i = 0; i < tg->nr_pids + tg->nr_tids; i++) {
		pid_t pid = i < tg->nr_pids ? tg->pids[i] : procfs__tgid(tg->tids[i - tg->nr_pids]);
		struct symaddr one;
		int ret = pid > 0 ? symaddr__process(pid, name, &one) : -ESRCH;

		if (ret == -EMEDIUMTYPE) {
			snprintf(err, errlen, "%s is thread-local: each thread has its own", name);
			return -EINVAL;
		}
		if (ret == -ENOMEM) {
			snprintf(err, errlen, "out of memory");
			return ret;
		}
		if (ret)
			continue; /* not there, or gone: opening the events names a missing process */
		if (found && one.addr != sa->addr) {
			snprintf(err, errlen,
				 "%s is at 0x%llx in %d but at 0x%llx in another target: a "
				 "breakpoint watches one address, give one -p",
				 name, (unsigned long long)one.addr, (int)pid,
				 (unsigned long long)sa->addr);
			return -EINVAL;
		}
		*sa = one;
		found = true;
	}
	return found ? 0 : -ENOENT;
}

int symaddr__for_target(const struct target_opts *tg, const char *name, struct symaddr *sa,
			char *err, size_t errlen)
{
	bool procs = tg->nr_pids || tg->nr_tids, cmd = tg->argv && tg->argv[0];
	char path[PATH_MAX] = "", lib[PATH_MAX];
	int ret = -ENOENT;

	if (procs) {
		ret = in_targets(tg, name, sa, err, errlen);
		if (ret && ret != -ENOENT)
			return ret;
	} else if (cmd && !libpath__command(tg->argv[0], path, sizeof(path))) {
		ret = symaddr__program(path, name, sa);
		if (ret == -EOPNOTSUPP) {
			snprintf(err, errlen,
				 "where %s will load cannot be told before it runs (a static "
				 "PIE?): start it, then use -p PID",
				 path);
			return -EINVAL;
		}
		if (ret == -EMEDIUMTYPE) {
			snprintf(err, errlen, "%s is thread-local: each thread has its own", name);
			return -EINVAL;
		}
	}
	if (!ret)
		return 0;
	ret = symaddr__kernel(NULL, name, sa);
	if (ret == -EPERM) {
		snprintf(err, errlen, "the kernel hides its addresses from this user: run as root");
		return ret;
	}
	if (!ret)
		return 0;
	if (path[0] && !symaddr__library(path, name, lib, sizeof(lib)))
		snprintf(err, errlen,
			 "%s is in %s, whose address is known only once '%s' runs: start it, "
			 "then use -p PID",
			 name, lib, tg->argv[0]);
	else if (procs)
		snprintf(err, errlen,
			 "unknown symbol: neither in the files the target maps nor in "
			 "/proc/kallsyms");
	else if (cmd && !path[0])
		snprintf(err, errlen, "unknown symbol: not in /proc/kallsyms, and no command '%s'",
			 tg->argv[0]);
	else if (cmd)
		snprintf(err, errlen, "unknown symbol: neither in '%s' nor in /proc/kallsyms",
			 tg->argv[0]);
	else
		snprintf(err, errlen,
			 "unknown symbol: not in /proc/kallsyms (a program's symbol needs -p PID "
			 "or -- COMMAND)");
	return -EINVAL;
}
