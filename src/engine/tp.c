// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "engine/tp.h"

struct tp_db {
	struct tep_handle *tep;
};

struct tp_db *tp__new(void)
{
	struct tp_db *db;

	if (!tracefs_tracing_dir()) {
		errno = ENOENT;
		return NULL;
	}
	db = calloc(1, sizeof(*db));
	if (!db)
		return NULL;
	db->tep = tep_alloc();
	if (!db->tep) {
		free(db);
		errno = ENOMEM;
		return NULL;
	}
	tep_set_long_size(db->tep, sizeof(long));
	tep_set_page_size(db->tep, getpagesize());
	tep_set_file_bigendian(db->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN
									     : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(db->tep, tep_is_file_bigendian(db->tep) ? TEP_BIG_ENDIAN
									: TEP_LITTLE_ENDIAN);
	return db;
}

void tp__delete(struct tp_db *db)
{
	if (!db)
		return;
	tep_free(db->tep);
	free(db);
}

struct tep_handle *tp__tep(struct tp_db *db)
{
	return db->tep;
}

struct tep_event *tp__event(struct tp_db *db, const char *sys, const char *name)
{
	struct tep_event *ev = tep_find_event_by_name(db->tep, sys, name);
	char *buf;
	int size = 0;

	if (ev)
		return ev;
	buf = tracefs_event_file_read(NULL, sys, name, "format", &size);
	if (!buf || size <= 0) {
		free(buf);
		errno = ENOENT;
		return NULL;
	}
	if (tep_parse_event(db->tep, buf, size, sys) != TEP_ERRNO__SUCCESS) {
		free(buf);
		errno = EINVAL;
		return NULL;
	}
	free(buf);
	ev = tep_find_event_by_name(db->tep, sys, name);
	if (!ev)
		errno = ENOENT;
	return ev;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add(char ***list, int *n, int *cap, const char *sys, const char *name)
{
	if (*n + 1 >= *cap) {
		int c = *cap ? *cap * 2 : 16;
		char **l = realloc(*list, c * sizeof(*l));

		if (!l)
			return -ENOMEM;
		*list = l;
		*cap = c;
	}
	if (asprintf(&(*list)[*n], "%s:%s", sys, name) < 0)
		return -ENOMEM;
	(*n)++;
	(*list)[*n] = NULL;
	return 0;
}

int tp__expand(const char *sys_glob, const char *name_glob, char ***out)
{
	char **systems, **events, **list = NULL;
	int n = 0, cap = 0, err = 0;

	*out = NULL;
	systems = tracefs_event_systems(NULL);
	if (!systems)
		return tracefs_tracing_dir() ? 0 : -ENOENT;
	for (int i = 0; systems[i] && !err; i++) {
		if (fnmatch(sys_glob, systems[i], 0))
			continue;
		events = tracefs_system_events(NULL, systems[i]);
		for (int j = 0; events && events[j] && !err; j++)
			if (!fnmatch(name_glob, events[j], 0))
				err = add(&list, &n, &cap, systems[i], events[j]);
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
	if (err) {
		tp__free_list(list);
		return err;
	}
	if (n)
		qsort(list, n, sizeof(*list), cmp_str);
	*out = list;
	return n;
}

void tp__free_list(char **list)
{
	if (!list)
		return;
	for (int i = 0; list[i]; i++)
		free(list[i]);
	free(list);
}
