// SPDX-License-Identifier: GPL-2.0
/* Creating output files: see ofile.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/ofile.h"
#include "util/stopsig.h"

/*
 * The directory of @path, opened O_PATH (symlinks in it followed, as the
 * kernel does); *@base gets the last component ("" for a path ending in
 * '/').  The fd, or -errno.
 */
static int open_dir(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	*base = slash ? slash + 1 : path;
	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, slash - path);
	if (!dir)
		return -ENOMEM;
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		fd = -errno;
	free(dir);
	return fd;
}

static bool sticky_ww(const struct stat *dir)
{
	return (dir->st_mode & (S_ISVTX | S_IWOTH)) == (S_ISVTX | S_IWOTH);
}

/* fs.protected_symlinks=1: a link in a sticky world-writable directory is followed only by its owner or the directory's. */
static bool refused(const struct stat *dir, const struct stat *link)
{
	if (!sticky_ww(dir))
		return false;
	return link->st_uid != geteuid() && link->st_uid != dir->st_uid;
}

/*
 * fs.protected_regular: in a sticky world-writable directory, a regular
 * file another user (not the directory's owner) owns is not written.  Nor
 * is one with other hard links, whoever owns it: anyone may have made that
 * name (with fs.protected_hardlinks=0, a link to /etc/shadow is root's
 * file), and writing in place would write the file it links to.  0 or
 * -OFILE_E*.
 */
static int foreign(const struct stat *dir, const struct stat *st)
{
	bool theirs = st->st_uid != geteuid() && st->st_uid != dir->st_uid;

	if (!sticky_ww(dir))
		return 0;
	/* fs.protected_fifos: a FIFO planted in /tmp would hang the run or feed another user */
	if (S_ISFIFO(st->st_mode))
		return theirs ? -OFILE_EFIFO : 0;
	if (!S_ISREG(st->st_mode))
		return 0;
	if (theirs)
		return -OFILE_EFOREIGN;
	return st->st_nlink > 1 ? -OFILE_EHARDLINK : 0;
}

static bool same_link(const struct stat *a, const struct stat *b)
{
	return S_ISLNK(b->st_mode) && a->st_ino == b->st_ino && a->st_dev == b->st_dev &&
	       a->st_uid == b->st_uid;
}

/* The name changed under us (a link became a file, or went): look again. */
#define CHANGED (-OFILE_EFIRST - 1000)
/* A FIFO without a reader (open says ENXIO with O_NONBLOCK): wait for one. */
#define NO_READER (-OFILE_EFIRST - 1001)

/*
 * Truncate @fd if asked and a regular file; writes block again (opened
 * O_NONBLOCK, for a FIFO without a reader): the fd, or -errno (@fd closed).
 */
static int finish(int fd, int flags)
{
	struct stat st;
	int fl, e;

	if ((flags & O_TRUNC) && !fstat(fd, &st) && S_ISREG(st.st_mode) && ftruncate(fd, 0))
		goto fail;
	fl = fcntl(fd, F_GETFL);
	if (!(flags & O_NONBLOCK) && (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)))
		goto fail;
	return fd;
fail:
	e = errno;
	close(fd);
	return -e;
}

/* After open said ENXIO of @base: NO_READER if it is a FIFO (@follow: through a link), else -ENXIO. */
static int no_reader(int dfd, const char *base, bool follow)
{
	struct stat st;

	if (fstatat(dfd, base, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW))
		return -ENXIO;
	return S_ISFIFO(st.st_mode) ? NO_READER : -ENXIO;
}

/* Follow the symlink @base (seen as @link) in @dfd (seen as @dir), if allowed. */
static int follow(int dfd, const struct stat *dir, const char *base, const struct stat *link,
		  int flags, mode_t mode)
{
	struct stat again;
	int fd;

	if (refused(dir, link))
		return -OFILE_ESYMLINK;
	/* not truncated before the link is known to be the one looked at */
	fd = openat(dfd, base, (flags & ~O_TRUNC) | O_NONBLOCK, mode);
	if (fd < 0 && errno == ENXIO)
		return no_reader(dfd, base, true);
	if (fd < 0)
		return -errno; /* ELOOP: the link loops */
	if (fstatat(dfd, base, &again, AT_SYMLINK_NOFOLLOW) || !same_link(link, &again)) {
		close(fd);
		return CHANGED;
	}
	return finish(fd, flags);
}

/*
 * One try at @base in @dfd (seen as @dir): the fd, -errno, -OFILE_E*,
 * CHANGED or NO_READER.  Opened without O_TRUNC, looked at (fstat), then
 * truncated: a file we may not write is never touched.  O_NONBLOCK: a FIFO
 * without a reader is ENXIO at once, not a wait no signal ends.
 */
static int open_name(int dfd, const struct stat *dir, const char *base, int flags, mode_t mode)
{
	struct stat st;
	int fd, err;

	fd = openat(dfd, base, (flags & ~O_TRUNC) | O_NOFOLLOW | O_NONBLOCK, mode);
	if (fd >= 0) {
		if (fstat(fd, &st))
			err = -errno;
		else
			err = foreign(dir, &st);
		if (err) {
			close(fd);
			return err;
		}
		return finish(fd, flags);
	}
	err = -errno;
	if (err == -ENXIO) { /* another user's FIFO is refused before any wait */
		if (!fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) && foreign(dir, &st))
			return foreign(dir, &st);
		return no_reader(dfd, base, false);
	}
	/*
	 * ELOOP: a symlink.  EACCES: recent kernels refuse O_CREAT on another
	 * user's symlink in a sticky world-writable directory whatever the
	 * sysctls say, and fs.protected_regular=1 another user's file there:
	 * say which of our refusals it is.
	 */
	if (err != -ELOOP && err != -EACCES)
		return err;
	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? CHANGED : -errno;
	if (S_ISLNK(st.st_mode))
		return follow(dfd, dir, base, &st, flags, mode);
	if (err == -EACCES)
		return foreign(dir, &st) ?: err;
	return CHANGED;
}

int ofile__open(const char *path, int flags, mode_t mode)
{
	const char *base;
	struct stat dir;
	int dfd, fd = CHANGED;

	if (!path || !*path)
		return -ENOENT;
	flags |= O_CLOEXEC;
	dfd = open_dir(path, &base);
	if (dfd < 0)
		return dfd;
	if (!*base) { /* "dir/": what open says of it (EISDIR) */
		fd = open(path, flags, mode);
		if (fd < 0)
			fd = -errno;
	} else if (fstat(dfd, &dir)) {
		fd = -errno;
	}
	/* a few tries: the name may change from a link to a file and back under us */
	for (int i = 0; *base && fd == CHANGED && i < 4;) {
		fd = open_name(dfd, &dir, base, flags, mode);
		if (fd == CHANGED)
			i++;
		if (fd != NO_READER)
			continue;
		/*
		 * A FIFO nobody reads yet: look again every 50 ms until a
		 * reader comes, or a stop (held by a profiler run, so it
		 * cannot end this wait itself) says to give up.
		 */
		if (stopsig__stopped()) {
			fd = -OFILE_ENOREADER;
			break;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 50 * 1000 * 1000 }, NULL);
		fd = CHANGED;
	}
	close(dfd);
	return fd == CHANGED ? -EAGAIN : fd;
}

int ofile__check(const char *path)
{
	struct stat dir, st;
	const char *base;
	int dfd, err = 0;

	if (!path || !*path)
		return -ENOENT;
	dfd = open_dir(path, &base);
	if (dfd < 0)
		return dfd;
	if (*base && !fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW)) {
		if (fstat(dfd, &dir))
			err = -errno;
		else if (S_ISLNK(st.st_mode))
			err = refused(&dir, &st) ? -OFILE_ESYMLINK : 0;
		else
			err = foreign(&dir, &st);
	}
	close(dfd);
	return err;
}

const char *ofile__strerror(int err)
{
	switch (err) {
	case OFILE_ESYMLINK:
		return "not following a symlink another user owns in a sticky world-writable "
		       "directory";
	case OFILE_EFOREIGN:
		return "not writing into a file another user owns in a sticky world-writable "
		       "directory";
	case OFILE_EFIFO:
		return "not opening a FIFO another user owns in a sticky world-writable directory";
	case OFILE_ENOREADER:
		return "no reader of the FIFO came before the stop";
	case OFILE_ENOTMP:
		return "no free name for a temporary file beside it (every random name tried "
		       "was taken)";
	case OFILE_EHARDLINK:
		return "not writing into a file with other hard links in a sticky "
		       "world-writable directory";
	default:
		return strerror(err);
	}
}

bool ofile__refusal(int err)
{
	return err <= -OFILE_EFIRST && err > -OFILE_EFIRST - 100;
}

/* ---- temporary files ---- */

/*
 * The temporaries that exist now, for the handler of a fatal signal: it
 * removes them, then dies of the signal.  Slots are filled and emptied with
 * those signals blocked.
 */
#define MAX_TMPS 8
static struct {
	volatile sig_atomic_t used;
	int dfd;
	char name[NAME_MAX + 1];
} tmps[MAX_TMPS];

/* What kills a process by default and may come from outside (not SIGKILL). */
static const int fatal_sigs[] = { SIGHUP,  SIGINT,  SIGQUIT, SIGTERM, SIGUSR1,	 SIGUSR2,
				  SIGALRM, SIGPIPE, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF };

static void fatal_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(fatal_sigs) / sizeof(fatal_sigs[0]); i++)
		sigaddset(set, fatal_sigs[i]);
}

/* Async-signal-safe: unlinkat, sigaction, raise. */
static void on_fatal(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	int e = errno;

	for (int i = 0; i < MAX_TMPS; i++)
		if (tmps[i].used)
			unlinkat(tmps[i].dfd, tmps[i].name, 0);
	sigaction(sig, &dfl, NULL);
	raise(sig); /* delivered, by default, once this returns */
	errno = e;
}

/*
 * Catch the fatal signals nobody took: a profiler run blocks its stop
 * signals (read through a signalfd, left alone), a command does not.
 */
static void catch_fatal(void)
{
	static bool done;
	struct sigaction sa = { .sa_handler = on_fatal }, old;

	if (done)
		return;
	done = true;
	fatal_set(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fatal_sigs) / sizeof(fatal_sigs[0]); i++)
		if (!sigaction(fatal_sigs[i], NULL, &old) && !(old.sa_flags & SA_SIGINFO) &&
		    old.sa_handler == SIG_DFL)
			sigaction(fatal_sigs[i], &sa, NULL);
}

static uint64_t (*random_source)(void);

void ofile__set_random(uint64_t (*fn)(void))
{
	random_source = fn;
}

/* 64 random bits: getrandom, else the clock and the pid mixed. */
static uint64_t random64(void)
{
	static uint64_t seq;
	struct timespec ts;
	uint64_t x;

	if (random_source)
		return random_source();
	if (getrandom(&x, sizeof(x), GRND_NONBLOCK) == sizeof(x))
		return x;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 16) ^
	    ++seq * 0x9e3779b97f4a7c15ULL;
	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ULL;
	return x ^ (x >> 29);
}

/* ".BASE.XXXXXXXX", BASE cut to fit NAME_MAX. */
static void random_name(char *name, const char *base)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	uint64_t x = random64();
	char sfx[9];

	for (int i = 0; i < 8; i++, x /= 62)
		sfx[i] = abc[x % 62];
	sfx[8] = 0;
	snprintf(name, NAME_MAX + 1, ".%.*s.%s", NAME_MAX - 10, base, sfx);
}

int ofile__tmp_create(const char *path, struct ofile_tmp *t)
{
	sigset_t fatal, old;
	const char *base;
	int dfd, fd = -EEXIST;

	t->dfd = t->slot = -1;
	t->name[0] = t->base[0] = 0;
	if (!path || !*path)
		return -ENOENT;
	dfd = open_dir(path, &base);
	if (dfd < 0)
		return dfd;
	if (!*base || strlen(base) > NAME_MAX) {
		close(dfd);
		return *base ? -ENAMETOOLONG : -EISDIR;
	}
	strcpy(t->base, base);
	catch_fatal();
	fatal_set(&fatal);
	/* a name taken (by chance, or planted) is another draw */
	for (int i = 0; fd == -EEXIST && i < OFILE_TMP_TRIES; i++) {
		random_name(t->name, base);
		sigprocmask(SIG_BLOCK, &fatal, &old);
		fd = openat(dfd, t->name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0)
			fd = -errno;
		for (int j = 0; fd >= 0 && j < MAX_TMPS; j++) {
			if (tmps[j].used)
				continue;
			tmps[j].dfd = dfd;
			strcpy(tmps[j].name, t->name);
			tmps[j].used = 1;
			t->slot = j;
			break;
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (fd < 0) {
		close(dfd);
		t->name[0] = 0;
		return fd == -EEXIST ? -OFILE_ENOTMP : fd;
	}
	t->dfd = dfd;
	return fd;
}

int ofile__tmp_end(struct ofile_tmp *t, bool keep)
{
	sigset_t fatal, old;
	int err = 0;

	if (t->dfd < 0)
		return 0;
	fatal_set(&fatal);
	sigprocmask(SIG_BLOCK, &fatal, &old);
	if (keep && renameat(t->dfd, t->name, t->dfd, t->base))
		err = -errno;
	if (!keep || err)
		unlinkat(t->dfd, t->name, 0);
	if (t->slot >= 0)
		tmps[t->slot].used = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(t->dfd);
	t->dfd = t->slot = -1;
	return err;
}
