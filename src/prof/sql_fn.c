// SPDX-License-Identifier: GPL-2.0
/*
 * sql's SQL functions: ksymbol(addr), syscall_name(nr), comm_get(pid) (the
 * expression language's, for queries) and symbolic('field', value) (a
 * field's __print_symbolic() names).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/tp.h"
#include "expr/expr.h"
#include "prof/sql_int.h"
#include "sym/ksyms.h"

static void fn_ksymbol(sqlite3_context *c, int argc, sqlite3_value **argv)
{
	struct sql *q = sqlite3_user_data(c);
	const struct sym *sym = NULL;

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
		sqlite3_result_null(c);
		return;
	}
	if (!q->ksyms_tried) {
		q->ksyms_tried = true;
		if (ksyms__load(NULL, &q->ksyms))
			q->ksyms = NULL;
	}
	if (q->ksyms)
		sym = ksyms__find(q->ksyms, (u64)sqlite3_value_int64(argv[0]), NULL);
	sqlite3_result_text(c, sym ? sym->name : "??", -1, SQLITE_STATIC);
}

static void fn_syscall_name(sqlite3_context *c, int argc, sqlite3_value **argv)
{
	sqlite3_int64 nr = sqlite3_value_int64(argv[0]);
	const char *name;

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
		sqlite3_result_null(c);
		return;
	}
	name = nr >= 0 ? expr__syscall_name((u64)nr) : NULL;
	if (name)
		sqlite3_result_text(c, name, -1, SQLITE_STATIC);
	else /* not a syscall of this table: its number as text, as the expressions do */
		sqlite3_result_text(c, sqlite3_mprintf("%lld", nr), -1, sqlite3_free);
}

static void fn_comm_get(sqlite3_context *c, int argc, sqlite3_value **argv)
{
	struct sql *q = sqlite3_user_data(c);

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
		sqlite3_result_null(c);
		return;
	}
	sqlite3_result_text(c, session__comm(q->s, (u32)sqlite3_value_int64(argv[0])), -1,
			    SQLITE_TRANSIENT);
}

struct symval {
	unsigned long long v;
	char *name;
};

struct symmap {
	struct symval *e;
	int n, cap;
};

static void symmap_add(void *arg, unsigned long long value, const char *name)
{
	struct symmap *m = arg;

	if (m->n == m->cap) {
		int cap = m->cap ? 2 * m->cap : 32;
		void *e = realloc(m->e, cap * sizeof(*m->e));

		if (!e)
			return;
		m->e = e;
		m->cap = cap;
	}
	if ((m->e[m->n].name = strdup(name)))
		m->e[m->n++].v = value;
}

static void symmap_free(void *p)
{
	struct symmap *m = p;

	for (int i = 0; m && i < m->n; i++)
		free(m->e[i].name);
	if (m)
		free(m->e);
	free(m);
}

/* The __print_symbolic table of 'field' or 'table.field' among the tables' events. */
static struct symmap *symmap_find(struct sql *q, const char *what)
{
	const char *dot = strchr(what, '.'), *field = dot ? dot + 1 : what;
	struct symmap *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	for (int i = 0; i < q->nr_tabs; i++) {
		struct sql_table *t = q->tabs[i];

		if (!t || !t->ev->tp)
			continue;
		if (dot && (strlen(t->name) != (size_t)(dot - what) ||
			    strncasecmp(t->name, what, dot - what)))
			continue;
		if (tp__field_symbols(t->ev->tp, field, symmap_add, m) > 0)
			return m;
	}
	symmap_free(m);
	return NULL;
}

static void fn_symbolic(sqlite3_context *c, int argc, sqlite3_value **argv)
{
	struct sql *q = sqlite3_user_data(c);
	struct symmap *m = sqlite3_get_auxdata(c, 0);
	const char *what = (const char *)sqlite3_value_text(argv[0]);
	unsigned long long v;

	(void)argc;
	if (!what || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
		sqlite3_result_null(c);
		return;
	}
	if (!m) {
		if (!(m = symmap_find(q, what))) {
			char *e = sqlite3_mprintf("symbolic: no __print_symbolic() prints '%s' "
						  "(give 'field' or 'table.field')",
						  what);

			sqlite3_result_error(c, e ? e : "symbolic: unknown field", -1);
			sqlite3_free(e);
			return;
		}
		sqlite3_set_auxdata(c, 0, m, symmap_free);
		/* SQLite may have freed it already (out of memory): look it up again */
		if (!(m = sqlite3_get_auxdata(c, 0))) {
			sqlite3_result_error_nomem(c);
			return;
		}
	}
	v = (unsigned long long)sqlite3_value_int64(argv[1]);
	for (int i = 0; i < m->n; i++)
		if (m->e[i].v == v) {
			sqlite3_result_text(c, m->e[i].name, -1, SQLITE_TRANSIENT);
			return;
		}
	sqlite3_result_text(c, sqlite3_mprintf("%llu", v), -1, sqlite3_free);
}

int sqldb__functions(struct sql *q)
{
	static const struct {
		const char *name;
		int nargs;
		bool det;
		void (*fn)(sqlite3_context *, int, sqlite3_value **);
	} fns[] = {
		{ "ksymbol", 1, true, fn_ksymbol },
		{ "syscall_name", 1, true, fn_syscall_name },
		{ "comm_get", 1, false, fn_comm_get }, /* a pid's comm changes */
		{ "symbolic", 2, true, fn_symbolic },
	};

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (sqlite3_create_function_v2(q->db, fns[i].name, fns[i].nargs,
					       SQLITE_UTF8 |
						       (fns[i].det ? SQLITE_DETERMINISTIC : 0),
					       q, fns[i].fn, NULL, NULL, NULL) != SQLITE_OK)
			return -1;
	return 0;
}
