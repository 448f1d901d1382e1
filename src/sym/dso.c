// SPDX-License-Identifier: GPL-2.0
/* The per-file cache of symbol tables. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uthash.h>

#include "sym/dso.h"
#include "sym/vdso.h"

enum { DSO_FILE, DSO_VDSO, DSO_PSEUDO };

#define DELETED_SUFFIX " (deleted)"

/* Symbols of one file content, shared by build-id. */
struct symfile {
	UT_hash_handle hh;
	unsigned char bid[BUILD_ID_MAX];
	int bid_len;
	struct elfsyms *es;
};

struct dso {
	UT_hash_handle hh;
	char *key;
	char *name;
	char *open_path;
	int refs;
	int kind;
	u64 ino;
	unsigned char bid[BUILD_ID_MAX];
	int bid_len;
	struct elfsyms *es; /* borrowed from a symfile, or owned if no build-id */
	bool owns_es;
	bool tried; /* final: loaded, or failed for every process */
	bool warned;
	bool quiet;  /* no warning when it has no symbols */
	bool failed; /* failed for process failed_pid only, so far */
	u32 failed_pid;
	u32 open_pid; /* open_path is under /proc/open_pid/ (0: not) */
};

struct dso_cache {
	struct dso *dsos;
	struct symfile *files;
	struct elfsyms *vdso;
	bool vdso_tried;
};

struct dso_cache *dso_cache__new(void)
{
	return calloc(1, sizeof(struct dso_cache));
}

void dso_cache__delete(struct dso_cache *dc)
{
	struct symfile *f, *tf;
	struct dso *d, *td;

	if (!dc)
		return;
	HASH_ITER(hh, dc->dsos, d, td)
	{
		HASH_DEL(dc->dsos, d);
		if (d->owns_es)
			elfsyms__delete(d->es);
		free(d->key);
		free(d->name);
		free(d->open_path);
		free(d);
	}
	HASH_ITER(hh, dc->files, f, tf)
	{
		HASH_DEL(dc->files, f);
		elfsyms__delete(f->es);
		free(f);
	}
	elfsyms__delete(dc->vdso);
	free(dc);
}

/*
 * Memory that is no file: "[heap]", "[stack]", "[anon:x]" in /proc/PID/maps,
 * "//anon" in MMAP2 records, and shared anonymous memory, which the kernel
 * names after a file that is gone ("/dev/zero (deleted)", SysV shm, huge pages).
 */
static bool is_anon_name(const char *path)
{
	static const char *const shared[] = { "/dev/zero (deleted)", "/SYSV", "/anon_hugepage",
					      NULL };

	if (path[0] != '/' || path[1] == '/')
		return true;
	for (int i = 0; shared[i]; i++)
		if (!strncmp(path, shared[i], strlen(shared[i])))
			return true;
	return false;
}

struct dso *dso_cache__get(struct dso_cache *dc, const char *path, u32 maj, u32 min, u64 ino,
			   const unsigned char *bid, int bid_len)
{
	char key[PATH_MAX + 200];
	struct dso *d;
	int n, i;

	if (bid_len > BUILD_ID_MAX)
		bid_len = BUILD_ID_MAX;
	if (bid && bid_len > 0) {
		n = snprintf(key, sizeof(key), "B");
		for (i = 0; i < bid_len; i++)
			n += snprintf(key + n, sizeof(key) - n, "%02x", bid[i]);
		snprintf(key + n, sizeof(key) - n, ":%s", path);
	} else {
		snprintf(key, sizeof(key), "%x:%x:%llu:%s", maj, min, (unsigned long long)ino,
			 path);
	}
	HASH_FIND_STR(dc->dsos, key, d);
	if (d) {
		d->refs++;
		return d;
	}
	d = calloc(1, sizeof(*d));
	if (!d || !(d->key = strdup(key)) || !(d->name = strdup(path))) {
		if (d)
			free(d->key);
		free(d);
		return NULL;
	}
	d->refs = 1;
	d->ino = ino;
	if (bid && bid_len > 0) {
		memcpy(d->bid, bid, bid_len);
		d->bid_len = bid_len;
	}
	if (!strcmp(path, "[vdso]"))
		d->kind = DSO_VDSO;
	else if (is_anon_name(path))
		d->kind = DSO_PSEUDO;
	/* may hold an ELF file (a binary run from a memfd), often JIT code: no warning */
	d->quiet = !strncmp(path, "/memfd:", 7) || !strncmp(path, "/dev/", 5);
	HASH_ADD_KEYPTR(hh, dc->dsos, d->key, strlen(d->key), d);
	return d;
}

void dso__get(struct dso *d)
{
	if (d)
		d->refs++;
}

void dso__put(struct dso *d)
{
	/* kept at zero: frames handed out point to the name (see dso.h) */
	if (d && d->refs > 0)
		d->refs--;
}

const char *dso__name(const struct dso *d)
{
	return d ? d->name : NULL;
}

const char *dso__debug_path(const struct dso *d)
{
	return d && d->es ? elfsyms__debug_path(d->es) : NULL;
}

const unsigned char *dso__build_id(const struct dso *d, int *len)
{
	*len = 0;
	if (!d)
		return NULL;
	if (d->bid_len) {
		*len = d->bid_len;
		return d->bid;
	}
	return d->es ? elfsyms__build_id(d->es, len) : NULL;
}

bool dso__is_file(const struct dso *d)
{
	return d && d->kind != DSO_PSEUDO;
}

const char *dso__open_path(const struct dso *d)
{
	return d ? d->open_path : NULL;
}

/* The same kernel gives every process the same vdso: read ours. */
static struct elfsyms *load_vdso(struct dso_cache *dc)
{
	const void *img;
	size_t len;

	if (dc->vdso_tried)
		return dc->vdso;
	dc->vdso_tried = true;
	if (!vdso__image(&img, &len))
		elfsyms__from_mem(img, len, &dc->vdso);
	return dc->vdso;
}

/* Whether the file at @fd has the build-id the kernel gave for @d; a file
 * that is not ELF passes, to be reported as such by the caller. */
static bool same_build_id(const struct dso *d, int fd)
{
	unsigned char bid[BUILD_ID_MAX];
	int n = elfsyms__read_build_id(fd, bid, sizeof(bid));

	if (n == -ENOEXEC)
		return true;
	return n == d->bid_len && !memcmp(bid, d->bid, n);
}

/* Open the file of @d as the process saw it; *why tells what failed. */
static int open_file(struct dso *d, u32 pid, u64 start, u64 end, char *root, size_t rlen,
		     const char **why)
{
	size_t len = strlen(d->name), sl = strlen(DELETED_SUFFIX);
	bool deleted = len > sl && !strcmp(d->name + len - sl, DELETED_SUFFIX);
	char buf[PATH_MAX + 64];
	struct stat st;
	int fd, i;

	*why = "no such file";
	root[0] = 0;
	for (i = 0; i < 3; i++) {
		if (i == 0 && (deleted || !pid))
			continue;
		if (i == 1 && deleted)
			continue;
		if (i == 2 && (!pid || !end))
			continue;
		if (i == 0)
			snprintf(buf, sizeof(buf), "/proc/%u/root%s", pid, d->name);
		else if (i == 1)
			snprintf(buf, sizeof(buf), "%s", d->name);
		else
			snprintf(buf, sizeof(buf), "/proc/%u/map_files/%llx-%llx", pid,
				 (unsigned long long)start, (unsigned long long)end);
		fd = open(buf, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			if (errno == EACCES || errno == EPERM)
				*why = "permission denied";
			continue;
		}
		if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
			*why = "not a regular file";
			close(fd);
			continue;
		}
		/* a file replaced after it was mapped has another inode */
		if (d->ino && st.st_ino != d->ino) {
			*why = "file was replaced since it was mapped";
			close(fd);
			continue;
		}
		/* with attr.build_id MMAP2 has no inode: the build-id tells */
		if (d->bid_len && !same_build_id(d, fd)) {
			*why = "file was replaced since it was mapped (build-id differs)";
			close(fd);
			continue;
		}
		if (i == 0)
			snprintf(root, rlen, "/proc/%u/root", pid);
		free(d->open_path);
		d->open_path = strdup(buf);
		d->open_pid = i == 1 ? 0 : pid;
		return fd;
	}
	if (deleted)
		*why = "file was deleted";
	return -1;
}

static void warn_once(struct dso *d, const char *why)
{
	if (!d->warned && !d->quiet)
		sym__warn("no symbols for %s: %s", d->name, why);
	d->warned = true;
}

/*
 * Whether a failure to open the file of @d for @pid could go away with
 * another process: /proc/PID/root and map_files die with the process, and
 * a deleted file opens only through a live mapping.
 */
static bool pid_dependent(const struct dso *d, u32 pid)
{
	size_t len = strlen(d->name), sl = strlen(DELETED_SUFFIX);
	char buf[32];

	if (!pid || (len > sl && !strcmp(d->name + len - sl, DELETED_SUFFIX)))
		return true;
	snprintf(buf, sizeof(buf), "/proc/%u", pid);
	return access(buf, F_OK) != 0;
}

/* *permanent: the failure does not depend on the process. */
static struct elfsyms *load_file(struct dso_cache *dc, struct dso *d, u32 pid, u64 start, u64 end,
				 bool *permanent)
{
	unsigned char bid[BUILD_ID_MAX];
	char root[64];
	const char *why;
	struct symfile *f;
	struct elfsyms *es;
	int fd, n, err;

	*permanent = true;
	fd = open_file(d, pid, start, end, root, sizeof(root), &why);
	if (fd < 0) {
		*permanent = !pid_dependent(d, pid);
		warn_once(d, why);
		return NULL;
	}
	n = d->bid_len;
	if (n)
		memcpy(bid, d->bid, n);
	else
		n = elfsyms__read_build_id(fd, bid, sizeof(bid));
	if (n == -ENOEXEC) {
		warn_once(d, "not an ELF file");
		goto fail;
	}
	if (n > 0) {
		HASH_FIND(hh, dc->files, bid, (unsigned)n, f);
		if (f) {
			close(fd);
			return f->es;
		}
	}
	err = elfsyms__open_fd(fd, d->name, root, &es);
	if (err) {
		warn_once(d, err == -ENOEXEC ? "not a valid ELF file" : strerror(-err));
		*permanent = err == -ENOEXEC;
		goto fail;
	}
	close(fd);
	if (n > 0 && (f = calloc(1, sizeof(*f)))) {
		memcpy(f->bid, bid, n);
		f->bid_len = n;
		f->es = es;
		HASH_ADD(hh, dc->files, bid, (unsigned)n, f);
		return es;
	}
	d->owns_es = true;
	return es;
fail:
	close(fd);
	return NULL;
}

struct elfsyms *dso__syms(struct dso_cache *dc, struct dso *d, u32 pid, u64 start, u64 end)
{
	bool permanent = true;

	if (!d || d->tried)
		return d ? d->es : NULL;
	/* one try per process: not on every sample of the one that failed */
	if (d->failed && d->failed_pid == pid)
		return NULL;
	if (d->kind == DSO_VDSO)
		d->es = load_vdso(dc);
	else if (d->kind == DSO_FILE)
		d->es = load_file(dc, d, pid, start, end, &permanent);
	d->tried = d->es || permanent;
	d->failed = !d->tried;
	d->failed_pid = pid;
	return d->es;
}

const char *dso__path_for(struct dso *d, u32 pid, u64 start, u64 end)
{
	char root[64];
	const char *why;
	int fd;

	if (!d || !d->open_path)
		return NULL;
	if (!d->open_pid || !access(d->open_path, R_OK))
		return d->open_path;
	/* the process that opened it is gone: resolve through @pid */
	fd = open_file(d, pid, start, end, root, sizeof(root), &why);
	if (fd < 0)
		return NULL;
	close(fd);
	return d->open_path;
}
