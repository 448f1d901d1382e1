// SPDX-License-Identifier: GPL-2.0
/*
 * util/ofile.h (creating outputs without following planted symlinks,
 * temporaries), util/ostream.h (the first write's errno, a file attached
 * late) and their users: report/outfile.h, report/heatmap.h's .lat.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include <signal.h>

#include "report/heatmap.h"
#include "report/outfile.h"
#include "util/ofile.h"
#include "util/ostream.h"
#include "util/stopsig.h"
#include "ut.h"

#define OTHER_UID 65534 /* nobody */

static char top[] = "/tmp/pp-ofile.XXXXXX";

static void put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	fputs(text, fp);
	fclose(fp);
}

static char *get(const char *path)
{
	static char buf[256];
	FILE *fp = fopen(path, "r");
	size_t n = 0;

	buf[0] = 0;
	if (fp) {
		n = fread(buf, 1, sizeof(buf) - 1, fp);
		fclose(fp);
	}
	buf[n] = 0;
	return fp ? buf : NULL;
}

static char *at(const char *name)
{
	static char bufs[4][512];
	static int i;
	char *b = bufs[i++ % 4];

	snprintf(b, 512, "%s/%s", top, name);
	return b;
}

/* Entries of @dir whose name starts with @prefix. */
static int count(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	if (d)
		closedir(d);
	return n;
}

static int write_fd(int fd, const char *s)
{
	ssize_t n = write(fd, s, strlen(s));

	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static void test_plain(void)
{
	int fd;

	fd = ofile__open(at("new"), O_WRONLY | O_CREAT | O_TRUNC, 0666);
	CHECK(fd >= 0, "create: %d", fd);
	CHECK_INT(write_fd(fd, "one"), 0);
	CHECK_STR(get(at("new")), "one");
	fd = ofile__open(at("new"), O_WRONLY | O_CREAT | O_APPEND, 0666);
	CHECK_INT(write_fd(fd, "two"), 0);
	CHECK_STR(get(at("new")), "onetwo");
	fd = ofile__open(at("new"), O_WRONLY | O_CREAT | O_TRUNC, 0666);
	CHECK_INT(write_fd(fd, "3"), 0);
	CHECK_STR(get(at("new")), "3");
	CHECK_INT(ofile__open(top, O_WRONLY | O_CREAT, 0666), -EISDIR);
	CHECK_INT(ofile__open(at(""), O_WRONLY | O_CREAT, 0666), -EISDIR);
	CHECK_INT(ofile__open(at("nodir/x"), O_WRONLY | O_CREAT, 0666), -ENOENT);
	CHECK_INT(ofile__open("", O_WRONLY | O_CREAT, 0666), -ENOENT);
	fd = ofile__open("/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
	CHECK(fd >= 0, "/dev/null: %d", fd);
	close(fd);
	fd = ofile__open("/dev/stdout", O_WRONLY | O_APPEND, 0666);
	CHECK(fd >= 0, "/dev/stdout (a symlink in /dev): %d", fd);
	close(fd);
	CHECK_INT(ofile__check(at("new")), 0);
	CHECK_INT(ofile__check(at("missing")), 0);
	/* a loop is no refusal: ELOOP, said as strerror says it */
	CHECK_INT(symlink("loop", at("loop")), 0);
	CHECK_INT(ofile__open(at("loop"), O_WRONLY | O_CREAT, 0666), -ELOOP);
	CHECK_INT(ofile__check(at("loop")), 0);
	CHECK_INT(outfile__check(at("loop")), -ELOOP);
	CHECK_INT(ofile__open(at("loop/x"), O_WRONLY | O_CREAT, 0666), -ELOOP);
	CHECK_STR(ofile__strerror(ELOOP), strerror(ELOOP));
	{
		struct outfile *of;

		errno = 0;
		CHECK(outfile__create(at("loop"), &of) == NULL && errno == ELOOP, "outfile: %d",
		      errno);
	}
}

static void test_files(const char *sticky, const char *plain, const char *theirs);

static void test_links(void)
{
	char sticky[600], plain[600], theirs[600], path[700];
	int fd;

	snprintf(sticky, sizeof(sticky), "%s", at("sticky"));
	snprintf(plain, sizeof(plain), "%s", at("plain"));
	snprintf(theirs, sizeof(theirs), "%s", at("theirs"));
	put(at("victim"), "SECRET");
	chmod(at("victim"), 0600);
	CHECK_INT(mkdir(sticky, 0755), 0);
	CHECK_INT(chmod(sticky, 01777), 0);
	CHECK_INT(mkdir(plain, 0755), 0);
	CHECK_INT(chmod(plain, 0777), 0);
	CHECK_INT(mkdir(theirs, 0755), 0);
	CHECK_INT(chmod(theirs, 01777), 0);
	if (geteuid() || chown(theirs, OTHER_UID, OTHER_UID)) {
		printf("skip - planted symlinks need root (lchown to another user)\n");
		return;
	}
	/* another user's link in a sticky world-writable directory: refused */
	snprintf(path, sizeof(path), "%s/out", sticky);
	CHECK_INT(symlink(at("victim"), path), 0);
	CHECK_INT(lchown(path, OTHER_UID, OTHER_UID), 0);
	CHECK_INT(ofile__check(path), -OFILE_ESYMLINK);
	CHECK_INT(ofile__open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666), -OFILE_ESYMLINK);
	CHECK_INT(ofile__open(path, O_WRONLY | O_CREAT | O_APPEND, 0666), -OFILE_ESYMLINK);
	CHECK_STR(get(at("victim")), "SECRET");
	CHECK(strstr(ofile__strerror(OFILE_ESYMLINK), "symlink another user owns") != NULL, "%s",
	      ofile__strerror(OFILE_ESYMLINK));
	/* ... even when it loops (the refusal comes first) */
	snprintf(path, sizeof(path), "%s/loop", sticky);
	CHECK_INT(symlink("loop", path), 0);
	CHECK_INT(lchown(path, OTHER_UID, OTHER_UID), 0);
	CHECK_INT(ofile__open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666), -OFILE_ESYMLINK);
	/* our own loop there: a loop */
	snprintf(path, sizeof(path), "%s/ourloop", sticky);
	CHECK_INT(symlink("ourloop", path), 0);
	CHECK_INT(ofile__open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666), -ELOOP);
	/* ... dangling: the target is not created */
	snprintf(path, sizeof(path), "%s/dangling", sticky);
	CHECK_INT(symlink(at("created"), path), 0);
	CHECK_INT(lchown(path, OTHER_UID, OTHER_UID), 0);
	CHECK_INT(ofile__open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666), -OFILE_ESYMLINK);
	CHECK(access(at("created"), F_OK) != 0, "a refused link's target was created");
	/* the library's users: outfile__create (in place for a link), the .lat */
	{
		struct outfile *of;

		snprintf(path, sizeof(path), "%s/out", sticky);
		errno = 0;
		CHECK(outfile__create(path, &of) == NULL && errno == OFILE_ESYMLINK, "outfile: %d",
		      errno);
		CHECK_INT(outfile__check(path), -OFILE_ESYMLINK);
		errno = 0;
		CHECK(heatmap__open(path) == NULL && errno == OFILE_ESYMLINK, "heatmap .lat: %d",
		      errno);
		CHECK_STR(get(at("victim")), "SECRET");
	}
	/* our own link there: followed, the target truncated and written */
	put(at("mine.txt"), "old contents");
	snprintf(path, sizeof(path), "%s/mine", sticky);
	CHECK_INT(symlink(at("mine.txt"), path), 0);
	fd = ofile__open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	CHECK(fd >= 0, "own link: %d", fd);
	CHECK_INT(write_fd(fd, "new"), 0);
	CHECK_STR(get(at("mine.txt")), "new");
	/* the directory owner's link: followed (fs.protected_symlinks' rule) */
	put(at("owners.txt"), "x");
	snprintf(path, sizeof(path), "%s/link", theirs);
	CHECK_INT(symlink(at("owners.txt"), path), 0);
	CHECK_INT(lchown(path, OTHER_UID, OTHER_UID), 0);
	CHECK_INT(ofile__check(path), 0);
	fd = ofile__open(path, O_WRONLY | O_TRUNC, 0666);
	CHECK(fd >= 0, "dir owner's link: %d", fd);
	CHECK_INT(write_fd(fd, "y"), 0);
	CHECK_STR(get(at("owners.txt")), "y");
	/* not sticky: followed, as the kernel does */
	put(at("plain.txt"), "x");
	snprintf(path, sizeof(path), "%s/link", plain);
	CHECK_INT(symlink(at("plain.txt"), path), 0);
	CHECK_INT(lchown(path, OTHER_UID, OTHER_UID), 0);
	fd = ofile__open(path, O_WRONLY | O_TRUNC, 0666);
	CHECK(fd >= 0, "link in a non-sticky dir: %d", fd);
	CHECK_INT(write_fd(fd, "z"), 0);
	CHECK_STR(get(at("plain.txt")), "z");
	test_files(sticky, plain, theirs);
}

/* fs.protected_regular's rule: files of others, and hard links, in sticky dirs */
static void test_files(const char *sticky, const char *plain, const char *theirs)
{
	char path[700], other[700];
	struct outfile *of;
	int fd;

	/* another user's regular file in a sticky world-writable directory: untouched */
	snprintf(path, sizeof(path), "%s/file", sticky);
	put(path, "theirs");
	CHECK_INT(chown(path, OTHER_UID, OTHER_UID), 0);
	CHECK_INT(ofile__check(path), -OFILE_EFOREIGN);
	CHECK_INT(ofile__open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666), -OFILE_EFOREIGN);
	CHECK_INT(ofile__open(path, O_WRONLY | O_APPEND, 0666), -OFILE_EFOREIGN);
	errno = 0;
	CHECK(outfile__create(path, &of) == NULL && errno == OFILE_EFOREIGN, "outfile: %d", errno);
	CHECK_INT(outfile__check(path), -OFILE_EFOREIGN);
	errno = 0;
	CHECK(heatmap__open(path) == NULL && errno == OFILE_EFOREIGN, ".lat: %d", errno);
	CHECK_STR(get(path), "theirs");
	CHECK(strstr(ofile__strerror(OFILE_EFOREIGN), "file another user owns") != NULL, "%s",
	      ofile__strerror(OFILE_EFOREIGN));
	CHECK(ofile__refusal(-OFILE_EFOREIGN) && !ofile__refusal(-EACCES), "ofile__refusal");
	/* ... a hard link of the directory owner's file there: refused */
	snprintf(path, sizeof(path), "%s/hard", theirs);
	snprintf(other, sizeof(other), "%s/hard2", theirs);
	put(path, "linked");
	CHECK_INT(chown(path, OTHER_UID, OTHER_UID), 0);
	CHECK_INT(ofile__check(path), 0); /* the directory owner's, one link: written */
	CHECK_INT(link(path, other), 0);
	CHECK_INT(ofile__check(path), -OFILE_EHARDLINK);
	CHECK_INT(ofile__open(other, O_WRONLY | O_CREAT | O_TRUNC, 0666), -OFILE_EHARDLINK);
	errno = 0;
	CHECK(outfile__create(path, &of) == NULL && errno == OFILE_EHARDLINK, "outfile: %d", errno);
	CHECK_STR(get(path), "linked");
	CHECK(strstr(ofile__strerror(OFILE_EHARDLINK), "hard links") != NULL, "%s",
	      ofile__strerror(OFILE_EHARDLINK));
	/* ... the directory owner's file with one link: written */
	unlink(other);
	fd = ofile__open(path, O_WRONLY | O_TRUNC, 0666);
	CHECK(fd >= 0, "the directory owner's file: %d", fd);
	CHECK_INT(write_fd(fd, "w"), 0);
	CHECK_STR(get(path), "w");
	/* our own file there: written */
	snprintf(path, sizeof(path), "%s/own", sticky);
	put(path, "old");
	fd = ofile__open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	CHECK(fd >= 0, "own file: %d", fd);
	CHECK_INT(write_fd(fd, "new"), 0);
	CHECK_STR(get(path), "new");
	/* ... but not with another link (anyone may have made this name: a link to /etc/shadow) */
	snprintf(other, sizeof(other), "%s/own2", sticky);
	CHECK_INT(link(at("victim"), other), 0);
	CHECK_INT(ofile__open(other, O_WRONLY | O_CREAT | O_TRUNC, 0666), -OFILE_EHARDLINK);
	CHECK_INT(ofile__open(other, O_WRONLY | O_APPEND, 0666), -OFILE_EHARDLINK);
	CHECK_STR(get(at("victim")), "SECRET");
	/* another user's file in a directory that is not sticky: written */
	snprintf(path, sizeof(path), "%s/file", plain);
	put(path, "x");
	CHECK_INT(chown(path, OTHER_UID, OTHER_UID), 0);
	CHECK_INT(ofile__check(path), 0);
	fd = ofile__open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	CHECK(fd >= 0, "a file in a non-sticky dir: %d", fd);
	CHECK_INT(write_fd(fd, "y"), 0);
	CHECK_STR(get(path), "y");
}

/* FIFOs: opened without waiting forever, another user's refused in a sticky dir */
static void test_fifo(void)
{
	char sticky[600], path[700];
	sigset_t intr, old;
	int fd, rd, fl;

	/* a reader there: opened, and writes block again */
	CHECK_INT(mkfifo(at("fifo"), 0600), 0);
	rd = open(at("fifo"), O_RDONLY | O_NONBLOCK);
	fd = ofile__open(at("fifo"), O_WRONLY | O_CREAT | O_TRUNC, 0666);
	CHECK(fd >= 0, "FIFO with a reader: %d", fd);
	fl = fcntl(fd, F_GETFL);
	CHECK(fl >= 0 && !(fl & O_NONBLOCK), "O_NONBLOCK left on: %#x", fl);
	CHECK_INT(write_fd(fd, "through"), 0);
	{
		char buf[16] = { 0 };

		CHECK_INT(read(rd, buf, sizeof(buf) - 1), 7);
		CHECK(!strcmp(buf, "through"), "read '%s'", buf);
	}
	close(rd);
	/* no reader, a stop pending (held, as in a profiler run): given up */
	sigemptyset(&intr);
	sigaddset(&intr, SIGINT);
	sigprocmask(SIG_BLOCK, &intr, &old);
	raise(SIGINT);
	CHECK_INT(ofile__open(at("fifo"), O_WRONLY | O_CREAT | O_TRUNC, 0666), -OFILE_ENOREADER);
	CHECK_STR(ofile__strerror(OFILE_ENOREADER), "no reader of the FIFO came before the stop");
	{
		struct timespec now = { 0 };

		CHECK_INT(sigtimedwait(&intr, NULL, &now), SIGINT);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* ... a stop already read (the event loop's): given up too */
	CHECK(!stopsig__stopped(), "a stop before any");
	stopsig__note();
	CHECK(stopsig__stopped(), "a stop noted");
	CHECK_INT(ofile__open(at("fifo"), O_WRONLY | O_APPEND, 0666), -OFILE_ENOREADER);
	/* another user's FIFO in a sticky world-writable directory: refused, reader or not */
	snprintf(sticky, sizeof(sticky), "%s", at("sticky"));
	snprintf(path, sizeof(path), "%s/fifo", sticky);
	CHECK_INT(mkfifo(path, 0666), 0);
	if (geteuid() || chown(path, OTHER_UID, OTHER_UID)) {
		printf("skip - another user's FIFO needs root\n");
		return;
	}
	CHECK_INT(ofile__check(path), -OFILE_EFIFO);
	CHECK_INT(ofile__open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666), -OFILE_EFIFO);
	rd = open(path, O_RDONLY | O_NONBLOCK);
	CHECK_INT(ofile__open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666), -OFILE_EFIFO);
	close(rd);
	CHECK(strstr(ofile__strerror(OFILE_EFIFO), "FIFO another user owns") != NULL, "%s",
	      ofile__strerror(OFILE_EFIFO));
}

static void test_tmp(void)
{
	struct ofile_tmp a, b;
	int fa, fb;

	put(at("target"), "old");
	fa = ofile__tmp_create(at("target"), &a);
	fb = ofile__tmp_create(at("target"), &b);
	CHECK(fa >= 0 && fb >= 0, "%d %d", fa, fb);
	CHECK(!strncmp(a.name, ".target.", 8) && strlen(a.name) == 16, "name '%s'", a.name);
	CHECK(strcmp(a.name, b.name) != 0, "two temporaries, one name '%s'", a.name);
	CHECK_INT(count(top, ".target."), 2);
	CHECK_INT(write_fd(fa, "new"), 0);
	close(fb);
	CHECK_INT(ofile__tmp_end(&b, false), 0);
	CHECK_STR(get(at("target")), "old");
	CHECK_INT(ofile__tmp_end(&a, true), 0);
	CHECK_STR(get(at("target")), "new");
	CHECK_INT(count(top, ".target."), 0);
	CHECK_INT(ofile__tmp_end(&a, true), 0); /* done with: nothing */
	/* a name at NAME_MAX still gets a temporary beside it */
	{
		char name[NAME_MAX + 1], path[NAME_MAX + 600];

		memset(name, 'n', NAME_MAX);
		name[NAME_MAX] = 0;
		snprintf(path, sizeof(path), "%s/%s", top, name);
		fa = ofile__tmp_create(path, &a);
		CHECK(fa >= 0, "long name: %d", fa);
		close(fa);
		CHECK_INT(ofile__tmp_end(&a, true), 0);
		CHECK(access(path, F_OK) == 0, "long name renamed");
		unlink(path);
	}
	CHECK_INT(ofile__tmp_create(at("nodir/x"), &a), -ENOENT);
	CHECK_INT(a.dfd, -1);
}

/* The random names, drawn from a source the test chooses: collisions */
static uint64_t seq_next;
static uint64_t fixed(void)
{
	return 42;
}
static uint64_t counting(void)
{
	return seq_next++;
}

static void test_tmp_collide(void)
{
	struct ofile_tmp a, b, c;
	int fa, fb, fc;

	put(at("coll"), "old");
	ofile__set_random(fixed);
	fa = ofile__tmp_create(at("coll"), &a);
	CHECK(fa >= 0, "first draw: %d", fa);
	/* the first draw is a's name: taken, retried with the next */
	seq_next = 42;
	ofile__set_random(counting);
	fb = ofile__tmp_create(at("coll"), &b);
	CHECK(fb >= 0, "a taken name is retried: %d", fb);
	CHECK_INT(seq_next, 44);
	CHECK(strcmp(a.name, b.name) != 0, "one name twice: '%s'", b.name);
	CHECK_INT(count(top, ".coll."), 2);
	/* every draw taken: a clear error, nothing left, @t done with */
	ofile__set_random(fixed);
	fc = ofile__tmp_create(at("coll"), &c);
	CHECK_INT(fc, -OFILE_ENOTMP);
	CHECK_INT(c.dfd, -1);
	CHECK(strstr(ofile__strerror(OFILE_ENOTMP), "temporary") != NULL, "%s",
	      ofile__strerror(OFILE_ENOTMP));
	CHECK_INT(count(top, ".coll."), 2);
	ofile__set_random(NULL);
	close(fa);
	close(fb);
	CHECK_INT(ofile__tmp_end(&a, false), 0);
	CHECK_INT(ofile__tmp_end(&b, false), 0);
	CHECK_INT(count(top, ".coll."), 0);
	CHECK_STR(get(at("coll")), "old");
	/* outfile__create says the same */
	{
		struct outfile *of;

		ofile__set_random(fixed);
		fa = ofile__tmp_create(at("coll"), &a);
		errno = 0;
		CHECK(outfile__create(at("coll"), &of) == NULL && errno == OFILE_ENOTMP,
		      "outfile: %d", errno);
		ofile__set_random(NULL);
		close(fa);
		ofile__tmp_end(&a, false);
		CHECK_STR(get(at("coll")), "old");
	}
}

static void test_stream(void)
{
	struct ostream *os;
	FILE *fp;
	int fd;

	/* the first write's errno, not EIO */
	fp = ostream__open(open("/dev/full", O_WRONLY), &os);
	fputs("x", fp);
	CHECK_INT(ostream__close(fp, os), -ENOSPC);
	/* written before the file came: kept, in order */
	fp = ostream__open(-1, &os);
	CHECK_INT(ostream__fd(os), -1);
	fputs("before ", fp);
	fflush(fp);
	fd = open(at("late"), O_WRONLY | O_CREAT | O_TRUNC, 0666);
	CHECK_INT(ostream__attach(os, fd), 0);
	fputs("after", fp);
	CHECK_INT(ostream__close(fp, os), 0);
	CHECK_STR(get(at("late")), "before after");
	/* never attached: nothing, no error */
	fp = ostream__open(-1, &os);
	fputs("dropped", fp);
	CHECK_INT(ostream__close(fp, os), 0);
	/* outfile: ENOSPC through the whole commit */
	{
		struct outfile *of;

		fp = outfile__create("/dev/full", &of);
		CHECK(fp != NULL, "/dev/full: %d", errno);
		fputs("x", fp);
		CHECK_INT(outfile__commit(fp, of, 0), -ENOSPC);
		fp = outfile__create(at("committed"), &of);
		fputs("svg", fp);
		CHECK_INT(outfile__commit(fp, of, 0), 0);
		CHECK_STR(get(at("committed")), "svg");
		fp = outfile__create(at("committed"), &of);
		fputs("half", fp);
		CHECK_INT(outfile__commit(fp, of, -EINVAL), -EINVAL);
		CHECK_STR(get(at("committed")), "svg");
		CHECK_INT(count(top, ".committed."), 0);
	}
}

int main(void)
{
	char cmd[600];

	if (!mkdtemp(top)) {
		perror("mkdtemp");
		return 1;
	}
	test_plain();
	test_links();
	test_tmp();
	test_tmp_collide();
	test_stream();
	test_fifo(); /* last: it notes a stop, for good */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd))
		printf("could not remove %s\n", top);
	return ut_done("test_ofile");
}
