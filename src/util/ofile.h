/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How every file perf-prof writes is created (-o, flame graphs, pprof,
 * heat maps, man pages), as root, in directories other users share.
 *
 * A symlink as the last component of the path is not followed when it sits
 * in a sticky world-writable directory (/tmp) and is owned neither by the
 * effective user nor by the directory's owner: what the kernel enforces
 * with fs.protected_symlinks=1, done here whatever the sysctl says, so that
 * a link another user planted in /tmp never makes perf-prof overwrite the
 * file it points to.  Such a refusal is -OFILE_ESYMLINK (ofile__strerror
 * says why); a path that really loops is -ELOOP, as open(2) says.  Any
 * other symlink is followed, and devices and FIFOs (/dev/null, /dev/stdout,
 * /dev/fd/N) are opened as usual.
 *
 * In such a directory an existing regular file is not written (nor
 * truncated) unless the effective user or the directory's owner owns it
 * (what fs.protected_regular enforces for O_CREAT, done here for every
 * open), nor one with other hard links, whoever owns it (a hard link
 * another user made to /etc/shadow is root's file): a file another user
 * placed under the output's name is never written into.  The file is
 * opened without O_TRUNC, looked at, and only then truncated.  Another
 * user's FIFO there is refused too (fs.protected_fifos): one planted in
 * /tmp would hang a run, or read what root writes.
 *
 * A FIFO is opened O_NONBLOCK (then made blocking again): without a reader
 * it is looked at again every 50 ms until one comes, or until a stop
 * signal came (util/stopsig.h: a profiler run holds them, so they cannot
 * interrupt the wait), which gives up with -OFILE_ENOREADER.
 *
 * Temporary files (written, then renamed over the target) get a name no one
 * can guess (".NAME.XXXXXXXX" beside the target), a name taken is retried,
 * and one still there when the process dies of a signal that it did not
 * block or handle (SIGINT in the flamegraph command) is removed first.
 */
#ifndef PP_OFILE_H
#define PP_OFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * ofile's refusals, returned negated like any -errno: numbers above the
 * kernel's errno range (at most 4095), so that no system call's failure is
 * ever taken for one (a real symlink loop stays ELOOP).  Print them with
 * ofile__strerror, which spells each out.
 */
enum {
	OFILE_EFIRST = 4200,
	/* in a sticky world-writable directory, not the effective user's nor the directory owner's: */
	OFILE_ESYMLINK = OFILE_EFIRST, /* a symlink (fs.protected_symlinks) */
	OFILE_EFOREIGN,		       /* a regular file (fs.protected_regular) */
	OFILE_EFIFO,		       /* a FIFO (fs.protected_fifos) */
	OFILE_EHARDLINK, /* there, a regular file with other hard links, whoever owns it */
	OFILE_ENOREADER, /* a FIFO without a reader, and a stop came (util/stopsig.h) */
	OFILE_ENOTMP,	 /* OFILE_TMP_TRIES random temporary names, all taken */
};

/* Is @err (< 0) one of ofile's refusals? */
bool ofile__refusal(int err);

/*
 * open(2) of @path for writing with @flags (O_WRONLY and O_CREAT, O_TRUNC,
 * O_APPEND...; O_CLOEXEC is added) and @mode, refusing a planted symlink
 * or another user's file as above.  A followed symlink's file is
 * truncated (O_TRUNC) only once the link was seen unchanged after the
 * open.  The fd, or -errno (-OFILE_E*: refused).
 */
int ofile__open(const char *path, int flags, mode_t mode);

/* Would ofile__open refuse @path's last component?  0 or -OFILE_E*; -errno of a failed look. */
int ofile__check(const char *path);

/* strerror, and the reason of an OFILE_E* refusal spelled out (@err > 0). */
const char *ofile__strerror(int err);

/* A temporary file beside a target. */
struct ofile_tmp {
	int dfd;		 /* the target's directory (O_PATH), -1: none */
	char base[NAME_MAX + 1]; /* the target's name in it */
	char name[NAME_MAX + 1]; /* the temporary's */
	int slot;		 /* its place in the list removed on a fatal signal */
};

/*
 * Create a new file (O_EXCL, mode 0666 less the umask) with an
 * unpredictable name in the directory of @path; @t describes it for
 * ofile__tmp_end.  A name taken is another random draw, up to
 * OFILE_TMP_TRIES.  The fd, or -errno (-OFILE_ENOTMP: every name drawn was
 * taken; nothing left behind).
 */
int ofile__tmp_create(const char *path, struct ofile_tmp *t);
#define OFILE_TMP_TRIES 100

/*
 * For tests: where the temporaries' random names come from (64 bits a
 * call; NULL: getrandom(2)), to make names collide on purpose.
 */
void ofile__set_random(uint64_t (*fn)(void));

/*
 * Rename the temporary over its target (@keep), or remove it.  Either way
 * it is off the list of files removed on a fatal signal, and @t is done
 * with.  0 or -errno of the rename (the temporary then removed).
 */
int ofile__tmp_end(struct ofile_tmp *t, bool keep);

#endif
