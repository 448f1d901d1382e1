// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the ELF file a probe names: a library the way ld.so(8) finds
 * it (LD_LIBRARY_PATH, /etc/ld.so.cache, the default directories), the
 * files a process maps, and an executable's needed libraries.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/procfs.h"
#include "sym/probe_elf.h"

#define LD_CACHE "/etc/ld.so.cache"
#define CACHE_MAGIC "glibc-ld.so.cache1.1"
#define CACHE_HDR 48	    /* magic, nlibs, len_strings, flags, extension, unused */
#define CACHE_ENT 24	    /* flags, key, value, osversion, hwcap */
#define CACHE_X86_64 0x0303 /* FLAG_ELF_LIBC6 | FLAG_X8664_LIB64 */
#define CACHE_MAX (64 << 20)
#define MAX_FILES 65536 /* more than that in a closure or maps is a loop or a hostile file */

static const char *const default_dirs[] = {
	"/lib/x86_64-linux-gnu",
	"/usr/lib/x86_64-linux-gnu",
	"/lib64",
	"/usr/lib64",
	"/lib",
	"/usr/lib",
};

static int copy_out(const char *path, char *out, size_t len)
{
	size_t n = strlen(path);

	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(out, path, n + 1);
	return 0;
}

/*
 * How file name @file matches the name a user gave: 2 exactly, 1 as the
 * dynamic linker's usual spellings of it ("libc" or "libc.so" for
 * "libc.so.6", "libfoo.so.1" for "libfoo.so.1.2", "libc" for
 * "libc-2.31.so"), 0 not at all.
 */
static int name_rank(const char *file, const char *name)
{
	size_t n = strlen(name);
	const char *rest = file + n;

	if (strncmp(file, name, n))
		return 0;
	if (!*rest)
		return 2;
	if (!strncmp(rest, ".so", 3) && (rest[3] == '\0' || rest[3] == '.') && !strstr(name, ".so"))
		return 1;
	if (rest[0] == '.' && rest[1] >= '0' && rest[1] <= '9')
		return 1;
	if (rest[0] == '-' && rest[1] >= '0' && rest[1] <= '9' && strstr(rest, ".so"))
		return 1;
	return 0;
}

/* Whether @path is a regular x86-64 ELF file: ld.so passes over the others. */
static bool elf_x86_64(const char *path)
{
	unsigned char h[EI_NIDENT + 4];
	struct stat st;
	bool ok;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	ok = !fstat(fd, &st) && S_ISREG(st.st_mode) && pread(fd, h, sizeof(h), 0) == sizeof(h) &&
	     !memcmp(h, ELFMAG, SELFMAG) && h[EI_CLASS] == ELFCLASS64 &&
	     h[EI_DATA] == ELFDATA2LSB && (h[EI_NIDENT + 2] | h[EI_NIDENT + 3] << 8) == EM_X86_64;
	close(fd);
	return ok;
}

/* ---- /etc/ld.so.cache ---- */

static u32 rd32(const unsigned char *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static u64 rd64(const unsigned char *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static const char *cache_str(const unsigned char *b, size_t len, u32 off)
{
	if (off >= len || !memchr(b + off, 0, len - off))
		return NULL;
	return (const char *)b + off;
}

int libpath__cache_lookup(const void *buf, size_t len, const char *name, char *out, size_t outlen)
{
	const unsigned char *b = buf;
	const char *found = NULL;
	int best = 0;
	size_t i;
	u32 nlibs;

	if (!buf || len < CACHE_HDR || memcmp(b, CACHE_MAGIC, strlen(CACHE_MAGIC)))
		return -EINVAL;
	/* byte 28 is the byte order: 0 unset (older glibc), 2 little endian */
	if (b[28] != 0 && b[28] != 2)
		return -EINVAL;
	nlibs = rd32(b + 20);
	if (nlibs > (len - CACHE_HDR) / CACHE_ENT)
		return -EINVAL;
	for (i = 0; i < nlibs; i++) {
		const unsigned char *e = b + CACHE_HDR + i * CACHE_ENT;
		const char *key, *val;
		int rank;

		if (rd32(e) != CACHE_X86_64)
			continue;
		key = cache_str(b, len, rd32(e + 4));
		val = cache_str(b, len, rd32(e + 8));
		if (!key || !val || !*val)
			continue;
		/* glibc-hwcaps subdirectories are for some CPUs only; the baseline fits all */
		rank = name_rank(key, name) * 2;
		if (rank && !rd64(e + 16))
			rank++;
		if (rank > best) {
			best = rank;
			found = val;
		}
	}
	return found ? copy_out(found, out, outlen) : -ENOENT;
}

static int search_cache(const char *name, bool exact, char *out, size_t len)
{
	char path[PATH_MAX];
	struct stat st;
	ssize_t n;
	size_t got = 0;
	char *buf = NULL;
	int fd, err = -ENOENT;

	fd = open(LD_CACHE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > CACHE_MAX ||
	    !(buf = malloc(st.st_size + 1)))
		goto out;
	while (got < (size_t)st.st_size && (n = read(fd, buf + got, st.st_size - got)) > 0)
		got += (size_t)n;
	if (!libpath__cache_lookup(buf, got, name, path, sizeof(path)) && elf_x86_64(path)) {
		const char *slash = strrchr(path, '/');

		if (!exact || name_rank(slash ? slash + 1 : path, name) == 2)
			err = copy_out(path, out, len);
	}
out:
	free(buf);
	close(fd);
	return err;
}

/* ---- Directories ---- */

/* @name (exact) or its best other spelling (the shortest) in directory @dir. */
static int search_dir(const char *dir, size_t dlen, const char *name, bool exact, char *out,
		      size_t len)
{
	char path[PATH_MAX], best[NAME_MAX + 1] = "";
	struct dirent *de;
	DIR *d;

	if (!dlen)
		return -ENOENT; /* ld.so reads an empty entry as ".": not a place to look for us */
	if (exact) {
		if ((size_t)snprintf(path, sizeof(path), "%.*s/%s", (int)dlen, dir, name) >=
		    sizeof(path))
			return -ENOENT;
		return elf_x86_64(path) ? copy_out(path, out, len) : -ENOENT;
	}
	if ((size_t)snprintf(path, sizeof(path), "%.*s", (int)dlen, dir) >= sizeof(path))
		return -ENOENT;
	d = opendir(path);
	if (!d)
		return -ENOENT;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name), bn = strlen(best);
		char cand[PATH_MAX];

		if (name_rank(de->d_name, name) != 1 ||
		    (*best && (n > bn || (n == bn && strcmp(de->d_name, best) > 0))))
			continue;
		if ((size_t)snprintf(cand, sizeof(cand), "%s/%s", path, de->d_name) >=
			    sizeof(cand) ||
		    !elf_x86_64(cand))
			continue;
		memcpy(best, de->d_name, n + 1);
	}
	closedir(d);
	if (!*best)
		return -ENOENT;
	if ((size_t)snprintf(out, len, "%s/%s", path, best) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* Each directory of the ':'-separated @list (';' too, as ld.so takes it). */
static int search_list(const char *list, const char *name, bool exact, char *out, size_t len)
{
	const char *p = list;
	int err;

	while (p && *p) {
		size_t n = strcspn(p, ":;");

		err = search_dir(p, n, name, exact, out, len);
		if (err != -ENOENT)
			return err;
		p += n;
		if (*p)
			p++;
	}
	return -ENOENT;
}

/* LD_LIBRARY_PATH, the cache, the default directories: the library search. */
static int search_libs(const char *name, bool exact, char *out, size_t len)
{
	int err;

	err = search_list(getenv("LD_LIBRARY_PATH"), name, exact, out, len);
	if (err != -ENOENT)
		return err;
	err = search_cache(name, exact, out, len);
	if (err != -ENOENT)
		return err;
	for (size_t i = 0; i < sizeof(default_dirs) / sizeof(default_dirs[0]); i++) {
		err = search_dir(default_dirs[i], strlen(default_dirs[i]), name, exact, out, len);
		if (err != -ENOENT)
			return err;
	}
	return -ENOENT;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The mapped file of that name: an exact name first, then another spelling of it. */
static int find_mapped(const char *name, pid_t pid, char *out, size_t len)
{
	const char *found = NULL;
	char **paths;
	int n, i, best = 0, err = -ENOENT;

	n = libpath__mapped(pid, &paths);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		int rank = name_rank(base_name(paths[i]), name);

		if (rank > best) {
			best = rank;
			found = paths[i];
		}
	}
	if (found)
		err = copy_out(found, out, len);
	probe_elf__free_list(paths);
	return err;
}

int libpath__find(const char *name, pid_t pid, char *out, size_t len)
{
	const char *path;
	int err;

	if (!name || !*name)
		return -ENOENT;
	if (strchr(name, '/')) {
		if (access(name, F_OK))
			return -ENOENT;
		return copy_out(name, out, len);
	}
	if (pid > 0)
		return find_mapped(name, pid, out, len);
	err = search_libs(name, true, out, len);
	if (err != -ENOENT)
		return err;
	path = getenv("PATH");
	err = search_list(path ? path : "/usr/local/bin:/usr/bin:/bin", name, true, out, len);
	if (err != -ENOENT)
		return err;
	return search_libs(name, false, out, len);
}

int libpath__command(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	int err;

	if (!name || !*name)
		return -ENOENT;
	if (strchr(name, '/'))
		return libpath__find(name, 0, out, len);
	/* as execvp(3) finds it: PATH only */
	err = search_list(path ? path : "/usr/local/bin:/usr/bin:/bin", name, true, out, len);
	return err;
}

/* ---- A growing list of files, each once (by device and inode) ---- */

struct file_id {
	u64 dev, ino;
};

struct file_list {
	char **v; /* NULL-terminated */
	struct file_id *id;
	int nr, alloc;
};

static int file_list__add(struct file_list *l, const char *path, u64 dev, u64 ino)
{
	for (int i = 0; i < l->nr; i++)
		if (l->id[i].dev == dev && l->id[i].ino == ino)
			return 0;
	if (l->nr >= MAX_FILES)
		return 0;
	if (l->nr + 1 >= l->alloc) {
		int alloc = l->alloc ? l->alloc * 2 : 32;
		char **v = realloc(l->v, sizeof(*v) * alloc);
		struct file_id *id;

		if (!v)
			return -ENOMEM;
		l->v = v;
		id = realloc(l->id, sizeof(*id) * alloc);
		if (!id)
			return -ENOMEM;
		l->id = id;
		l->alloc = alloc;
	}
	if (!(l->v[l->nr] = strdup(path)))
		return -ENOMEM;
	l->id[l->nr] = (struct file_id){ dev, ino };
	l->v[++l->nr] = NULL;
	return 0;
}

/* Hands the list over as a NULL-terminated array (an empty one too). */
static int file_list__take(struct file_list *l, char ***paths)
{
	free(l->id);
	if (!l->v && !(l->v = calloc(1, sizeof(*l->v))))
		return -ENOMEM;
	*paths = l->v;
	return l->nr;
}

static void file_list__free(struct file_list *l)
{
	free(l->id);
	if (l->v)
		probe_elf__free_list(l->v);
}

/* ---- /proc/PID/maps ---- */

/*
 * The file behind one executable mapping.  An unlinked (or replaced)
 * file is " (deleted)" in maps and its old path would name another file,
 * or none: /proc/PID/map_files still reaches the mapped inode (root only).
 */
static int mapped_path(pid_t pid, char *line, char *path, size_t len, struct file_id *id)
{
	struct maps_line l;
	size_t n;

	if (procfs__maps_line(line, &l) || !l.has_id || strlen(l.perms) < 3 || l.perms[2] != 'x' ||
	    l.path[0] != '/')
		return -ENOENT;
	id->dev = (u64)l.maj << 32 | l.min;
	id->ino = l.ino;
	n = strlen(l.path);
	if (n > 10 && !strcmp(l.path + n - 10, " (deleted)")) {
		struct stat st;

		snprintf(path, len, "/proc/%d/map_files/%llx-%llx", (int)pid, l.start, l.end);
		return stat(path, &st) ? -ENOENT : 0;
	}
	if ((size_t)snprintf(path, len, "/proc/%d/root%s", (int)pid, l.path) >= len)
		return -ENOENT;
	return 0;
}

int libpath__mapped(pid_t pid, char ***paths)
{
	struct file_list l = { 0 };
	char file[64], path[PATH_MAX];
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int err = 0;

	*paths = NULL;
	if (pid <= 0)
		return -ESRCH;
	snprintf(file, sizeof(file), "/proc/%d/maps", (int)pid);
	f = fopen(file, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (!err && getline(&line, &cap, f) > 0) {
		struct file_id id;

		if (!mapped_path(pid, line, path, sizeof(path), &id))
			err = file_list__add(&l, path, id.dev, id.ino);
	}
	free(line);
	fclose(f);
	if (err) {
		file_list__free(&l);
		return err;
	}
	return file_list__take(&l, paths);
}

/* ---- The needed libraries ---- */

/* One DT_RUNPATH entry with $ORIGIN (or ${ORIGIN}) replaced by @origin. */
static int expand_origin(const char *ent, size_t n, const char *origin, char *out, size_t len)
{
	size_t used = 0;

	for (size_t i = 0; i < n;) {
		size_t skip = 0;
		const char *add;
		size_t alen;

		if (n - i >= 7 && !strncmp(ent + i, "$ORIGIN", 7))
			skip = 7;
		else if (n - i >= 9 && !strncmp(ent + i, "${ORIGIN}", 9))
			skip = 9;
		add = skip ? origin : ent + i;
		alen = skip ? strlen(origin) : 1;
		if (used + alen >= len)
			return -ENAMETOOLONG;
		memcpy(out + used, add, alen);
		used += alen;
		i += skip ? skip : 1;
	}
	out[used] = '\0';
	return 0;
}

static int resolve_needed(const char *name, const char *runpath, const char *origin, char *out,
			  size_t len)
{
	char dir[PATH_MAX];
	const char *p = runpath;

	if (strchr(name, '/'))
		return access(name, F_OK) ? -ENOENT : copy_out(name, out, len);
	while (p && *p) {
		size_t n = strcspn(p, ":");

		if (!expand_origin(p, n, origin, dir, sizeof(dir)) &&
		    !search_dir(dir, strlen(dir), name, true, out, len))
			return 0;
		p += n;
		if (*p)
			p++;
	}
	return search_libs(name, true, out, len);
}

static int add_file(struct file_list *l, const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return 0;
	return file_list__add(l, path, st.st_dev, st.st_ino);
}

/* The needed libraries of the closure's @i-th file, added at its end. */
static int closure_step(struct file_list *l, int i, const char *exe_real)
{
	char origin[PATH_MAX], path[PATH_MAX], *slash;
	struct probe_elf *pe;
	char **needed;
	int n, err = 0;

	if (probe_elf__open(l->v[i], &pe))
		return 0;
	/* ld.so takes $ORIGIN of the executable from its real path, of a library as found */
	snprintf(origin, sizeof(origin), "%s", i ? l->v[i] : exe_real);
	slash = strrchr(origin, '/');
	if (!slash)
		snprintf(origin, sizeof(origin), ".");
	else
		*(slash == origin ? slash + 1 : slash) = '\0';
	n = probe_elf__needed(pe, &needed);
	for (int k = 0; k < n && !err; k++) {
		if (!resolve_needed(needed[k], probe_elf__runpath(pe), origin, path, sizeof(path)))
			err = add_file(l, path);
	}
	if (n >= 0)
		probe_elf__free_list(needed);
	probe_elf__delete(pe);
	return n < 0 ? n : err;
}

/* One preload list (LD_PRELOAD's, or /etc/ld.so.preload's): names split by blanks or ':'. */
static int add_preload_list(struct file_list *l, char *list)
{
	char *save = NULL, found[PATH_MAX];
	struct stat st;
	int err = 0;

	for (char *n = strtok_r(list, " \t\n:", &save); n && !err;
	     n = strtok_r(NULL, " \t\n:", &save)) {
		if (libpath__find(n, 0, found, sizeof(found)) || stat(found, &st))
			continue; /* the dynamic linker ignores it too, with a warning */
		err = file_list__add(l, found, st.st_dev, st.st_ino);
	}
	return err;
}

/* What the dynamic linker loads before DT_NEEDED: LD_PRELOAD, then /etc/ld.so.preload. */
static int add_preloads(struct file_list *l)
{
	const char *env = getenv("LD_PRELOAD");
	char buf[4096];
	size_t n = 0;
	FILE *f;
	int err = 0;

	if (env && *env) {
		char *copy = strdup(env);

		if (!copy)
			return -ENOMEM;
		err = add_preload_list(l, copy);
		free(copy);
	}
	f = fopen("/etc/ld.so.preload", "re");
	if (!err && f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = 0;
		err = add_preload_list(l, buf);
	}
	if (f)
		fclose(f);
	return err;
}

int libpath__closure(const char *exe, char ***paths)
{
	struct file_list l = { 0 };
	char real[PATH_MAX];
	struct probe_elf *pe;
	struct stat st;
	int err;

	*paths = NULL;
	err = probe_elf__open(exe, &pe);
	if (err)
		return err;
	probe_elf__delete(pe);
	if (!realpath(exe, real))
		snprintf(real, sizeof(real), "%s", exe);
	if (stat(exe, &st))
		return -errno;
	err = file_list__add(&l, exe, st.st_dev, st.st_ino);
	if (!err)
		err = add_preloads(&l);
	for (int i = 0; !err && i < l.nr; i++)
		err = closure_step(&l, i, real);
	if (err) {
		file_list__free(&l);
		return err;
	}
	return file_list__take(&l, paths);
}
