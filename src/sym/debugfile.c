// SPDX-License-Identifier: GPL-2.0
/* Separate debug file lookup (see debugfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sym/debugfile.h"
#include "sym/elfsyms.h"

#define DEBUG_DIR "/usr/lib/debug"

struct search {
	const char *path, *root;
	const unsigned char *bid;
	size_t bid_len;
	debugfile_accept_fn accept;
	void *arg;
	char *out;
	size_t outlen;
};

static bool same_file(const struct search *s, const char *file)
{
	size_t rl = strlen(s->root);

	if (!strcmp(file, s->path))
		return true;
	return rl && !strncmp(file, s->root, rl) && !strcmp(file + rl, s->path);
}

static bool try_file(struct search *s, const char *file)
{
	unsigned char bid[BUILD_ID_MAX];
	int fd, n;

	if (same_file(s, file) || strlen(file) >= s->outlen)
		return false;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = elfsyms__read_build_id(fd, bid, sizeof(bid));
	close(fd);
	if (n < 0)
		return false;
	if (s->bid_len && n && ((size_t)n != s->bid_len || memcmp(bid, s->bid, n)))
		return false;
	if (s->accept && !s->accept(file, s->arg))
		return false;
	strcpy(s->out, file);
	return true;
}

/* @file in the process's mount namespace first, then as it is. */
static bool try_rooted(struct search *s, const char *file)
{
	char buf[PATH_MAX];

	if (*s->root && snprintf(buf, sizeof(buf), "%s%s", s->root, file) < (int)sizeof(buf) &&
	    try_file(s, buf))
		return true;
	return try_file(s, file);
}

int debugfile__walk(const char *path, const char *root, const unsigned char *build_id,
		    size_t bid_len, const char *debuglink, debugfile_accept_fn accept, void *arg,
		    char *out, size_t outlen)
{
	struct search s = {
		path ? path : "", root ? root : "", build_id, bid_len, accept, arg, out, outlen
	};
	char buf[PATH_MAX], dir[PATH_MAX];
	const char *slash;
	size_t i;

	if (!out || !outlen)
		return -EINVAL;
	if (!build_id)
		s.bid_len = 0;
	/* a one-byte build-id leaves no file name after the xx/ directory */
	if (s.bid_len > 1 && s.bid_len <= BUILD_ID_MAX) {
		char hex[2 * BUILD_ID_MAX + 1];

		for (i = 0; i < s.bid_len; i++)
			sprintf(hex + 2 * i, "%02x", build_id[i]);
		snprintf(buf, sizeof(buf), DEBUG_DIR "/.build-id/%.2s/%s.debug", hex, hex + 2);
		if (try_rooted(&s, buf))
			return 0;
	}
	if (!debuglink || !*debuglink || strchr(debuglink, '/') || !(slash = strrchr(s.path, '/')))
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - s.path), s.path);
	if (snprintf(buf, sizeof(buf), "%s/%s", dir, debuglink) < (int)sizeof(buf) &&
	    try_rooted(&s, buf))
		return 0;
	if (snprintf(buf, sizeof(buf), "%s/.debug/%s", dir, debuglink) < (int)sizeof(buf) &&
	    try_rooted(&s, buf))
		return 0;
	if (snprintf(buf, sizeof(buf), DEBUG_DIR "%s/%s", dir, debuglink) < (int)sizeof(buf) &&
	    try_rooted(&s, buf))
		return 0;
	return -ENOENT;
}

int debugfile__find(const char *path, const char *root, const unsigned char *build_id,
		    size_t bid_len, const char *debuglink, char *out, size_t outlen)
{
	return debugfile__walk(path, root, build_id, bid_len, debuglink, NULL, NULL, out, outlen);
}
