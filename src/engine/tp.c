// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
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

bool tp__readable(void)
{
	const char *dir = tracefs_tracing_dir();
	char path[PATH_MAX];

	if (!dir)
		return false;
	snprintf(path, sizeof(path), "%s/events", dir);
	return access(path, R_OK | X_OK) == 0;
}

struct tp_db *tp__new(void)
{
	if (!tracefs_tracing_dir()) {
		errno = ENOENT;
		return NULL;
	}
	return tp__new_offline();
}

struct tp_db *tp__new_offline(void)
{
	struct tp_db *db;

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
		errno = tp__readable() ? ENOENT : EACCES;
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
	if (!tp__readable())
		return -EACCES;
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

int tp__explain_filter(const char *sys, const char *name, const char *filter, char *buf, size_t len)
{
	struct tracefs_instance *inst;
	char iname[64], *text, *err, *caret;
	int ret = -1, col = -1;

	snprintf(iname, sizeof(iname), "perf-prof-%d", getpid());
	inst = tracefs_instance_create(iname);
	if (!inst)
		return -1;
	if (tracefs_event_file_write(inst, sys, name, "filter", filter) >= 0)
		goto out; /* accepted here: no reason to give */
	text = tracefs_event_file_read(inst, sys, name, "filter", NULL);
	if (text) {
		/* "FILTER\n     ^\nparse_error: REASON\n" */
		caret = strchr(text, '\n');
		if (caret && strchr(caret + 1, '^'))
			col = (int)(strchr(caret + 1, '^') - (caret + 1));
		err = strstr(text, "parse_error: ");
		if (err) {
			err += strlen("parse_error: ");
			err[strcspn(err, "\n")] = 0;
			if (col >= 0)
				snprintf(buf, len, "%s (at offset %d)", err, col);
			else
				snprintf(buf, len, "%s", err);
			ret = 0;
		}
		free(text);
	}
out:
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
	return ret;
}

/* Depth-first over a print argument tree: the @nth symbol table met, in order. */
static const struct tep_print_arg *nth_symbols(const struct tep_print_arg *a, int *nth)
{
	for (; a; a = a->next) {
		const struct tep_print_arg *r = NULL;

		switch (a->type) {
		case TEP_PRINT_SYMBOL:
			if ((*nth)-- == 0)
				return a;
			r = nth_symbols(a->symbol.field, nth);
			break;
		case TEP_PRINT_OP:
			r = nth_symbols(a->op.left, nth);
			if (!r)
				r = nth_symbols(a->op.right, nth);
			break;
		case TEP_PRINT_TYPE:
			r = nth_symbols(a->typecast.item, nth);
			break;
		case TEP_PRINT_FUNC:
			r = nth_symbols(a->func.args, nth);
			break;
		default:
			break;
		}
		if (r)
			return r;
	}
	return NULL;
}

/* The field REC->name that @a is, through casts; NULL when it is an expression. */
static const char *arg_field(const struct tep_print_arg *a)
{
	while (a && a->type == TEP_PRINT_TYPE)
		a = a->typecast.item;
	return a && a->type == TEP_PRINT_FIELD ? a->field.name : NULL;
}

int tp__field_symbols(const struct tep_event *ev, const char *field,
		      void (*fn)(void *arg, unsigned long long value, const char *name), void *arg)
{
	for (int nth = 0;; nth++) {
		int k = nth;
		const struct tep_print_arg *a = ev ? nth_symbols(ev->print_fmt.args, &k) : NULL;
		const char *f;

		if (!a)
			return 0;
		if ((f = arg_field(a->symbol.field)) && !strcmp(f, field))
			return tp__print_symbols(ev, nth, fn, arg);
	}
}

int tp__print_symbols(const struct tep_event *ev, int nth,
		      void (*fn)(void *arg, unsigned long long value, const char *name), void *arg)
{
	const struct tep_print_arg *a = ev ? nth_symbols(ev->print_fmt.args, &nth) : NULL;
	int n = 0;

	for (const struct tep_print_flag_sym *f = a ? a->symbol.symbols : NULL; f; f = f->next) {
		char *end;
		unsigned long long v = strtoull(f->value, &end, 0);

		if (*end || !f->str)
			continue;
		fn(arg, v, f->str);
		n++;
	}
	return n;
}
