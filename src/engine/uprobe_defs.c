// SPDX-License-Identifier: GPL-2.0
/* Persistent tracefs uprobe events: read, written, removed (see uprobe_defs.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "engine/features.h"
#include "engine/uprobe_defs.h"

void uprobe_def__clear(struct uprobe_def *d)
{
	if (!d)
		return;
	free(d->group);
	free(d->event);
	free(d->path);
	free(d->args);
	memset(d, 0, sizeof(*d));
}

static int hex_at(const char *p, const char **end, u64 *v)
{
	char *e;

	if (strncmp(p, "0x", 2) || !strchr("0123456789abcdefABCDEF", p[2]) || !p[2])
		return -EINVAL;
	errno = 0;
	*v = strtoull(p, &e, 16);
	if (errno)
		return -EINVAL;
	*end = e;
	return 0;
}

int uprobe_def__parse(const char *line, struct uprobe_def *d)
{
	const char *slash, *sp, *loc, *colon, *p;
	size_t loclen;

	memset(d, 0, sizeof(*d));
	if ((line[0] != 'p' && line[0] != 'r') || line[1] != ':')
		return -EINVAL;
	d->ret = line[0] == 'r';
	line += 2;
	sp = strchr(line, ' ');
	slash = strchr(line, '/');
	if (!sp || !slash || slash > sp || slash == line || slash + 1 == sp)
		return -EINVAL;
	loc = sp + 1;
	loclen = strcspn(loc, " \n");
	/* PATH:0xOFF[(0xREF)]: the path may hold ':', the offset is after the last */
	colon = NULL;
	for (p = loc; p < loc + loclen; p++)
		if (*p == ':')
			colon = p;
	if (!colon || colon == loc || hex_at(colon + 1, &p, &d->offset))
		return -EINVAL;
	if (*p == '(') {
		if (hex_at(p + 1, &p, &d->ref_ctr) || *p != ')')
			return -EINVAL;
		p++;
	}
	if (p != loc + loclen)
		return -EINVAL;
	d->group = strndup(line, slash - line);
	d->event = strndup(slash + 1, sp - slash - 1);
	d->path = strndup(loc, colon - loc);
	d->args = strndup(p, strcspn(p, "\n"));
	if (!d->group || !d->event || !d->path || !d->args) {
		uprobe_def__clear(d);
		return -ENOMEM;
	}
	return 0;
}

void uprobe_defs__free(struct uprobe_def *defs, int nr)
{
	for (int i = 0; defs && i < nr; i++)
		uprobe_def__clear(&defs[i]);
	free(defs);
}

int uprobe_defs__read(struct uprobe_def **defs, int *nr)
{
	const char *dir = features__tracefs_dir();
	struct uprobe_def *out = NULL;
	char path[512], *line = NULL;
	size_t cap = 0;
	int n = 0, ret = 0;
	FILE *f;

	*defs = NULL;
	*nr = 0;
	if (!dir)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/uprobe_events", dir);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -EOPNOTSUPP : -errno;
	while (getline(&line, &cap, f) > 0) {
		struct uprobe_def d, *o;

		/* a line this parser does not know (a newer kernel's) is not ours */
		ret = uprobe_def__parse(line, &d);
		if (ret == -EINVAL) {
			ret = 0;
			continue;
		}
		if (ret)
			break;
		o = realloc(out, (n + 1) * sizeof(*o));
		if (!o) {
			uprobe_def__clear(&d);
			ret = -ENOMEM;
			break;
		}
		out = o;
		out[n++] = d;
	}
	free(line);
	fclose(f);
	if (ret) {
		uprobe_defs__free(out, n);
		return ret;
	}
	*defs = out;
	*nr = n;
	return 0;
}

int uprobe_defs__write(const char *line, char *why, size_t len)
{
	char *kwhy;
	int err;

	if (len)
		why[0] = 0;
	if (!features__tracefs_dir()) {
		snprintf(why, len, "no tracefs mounted");
		return -ENOENT;
	}
	tracefs_error_clear(NULL);
	/* EBUSY while a closing perf event still holds it: a moment later */
	for (int try = 0;; try++) {
		if (tracefs_instance_file_append(NULL, "uprobe_events", line) >= 0)
			return 0;
		err = errno ? -errno : -EINVAL;
		if (err != -EBUSY || line[0] != '-' || try == 50)
			break;
		usleep(20000);
	}
	kwhy = tracefs_error_last(NULL);
	if (kwhy) {
		char *nl = strchr(kwhy, '\n'), *e;

		if (nl)
			*nl = 0;
		/* "[80889.943909] trace_uprobe: error: Event name is too long": the reason */
		e = strstr(kwhy, ": error: ");
		if (e)
			memmove(kwhy, e + 9, strlen(e + 9) + 1);
	}
	snprintf(why, len, "%s", kwhy && *kwhy ? kwhy : strerror(-err));
	free(kwhy);
	return err;
}
