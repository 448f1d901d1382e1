/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint metadata: formats are loaded on demand from tracefs into one
 * libtraceevent handle (parsing all ~2300 formats up front costs far more
 * than the few events a profiler uses).
 */
#ifndef PP_TP_H
#define PP_TP_H

#include <stdbool.h>
#include <stddef.h>

struct tep_handle;
struct tep_event;

struct tp_db;

/* Whether tracefs's events/ directory can be read (root only by default). */
bool tp__readable(void);

/* Returns NULL with errno: ENOENT when tracefs is not mounted. */
struct tp_db *tp__new(void);
void tp__delete(struct tp_db *db);
struct tep_handle *tp__tep(struct tp_db *db);

/* The format of sys:name, loaded once.  NULL with errno ENOENT if none. */
/* A database for formats given as text only (injected sessions): no tracefs needed. */
struct tp_db *tp__new_offline(void);
struct tep_event *tp__event(struct tp_db *db, const char *sys, const char *name);

/*
 * Tracepoints matching the globs, as a NULL-terminated array of "sys:name"
 * strings (free with tp__free_list).  Returns the count, 0 if none,
 * -errno on failure.
 */
int tp__expand(const char *sys_glob, const char *name_glob, char ***list);
void tp__free_list(char **list);

/*
 * Why the kernel rejects @filter on sys:name: the parse error the kernel
 * reports through a private, temporary ftrace instance (global tracing
 * state is not touched).  Fills @buf with e.g. "Field not found (at
 * offset 12)".  Returns 0 if a reason was found.
 */
int tp__explain_filter(const char *sys, const char *name, const char *filter, char *buf,
		       size_t len);

/*
 * The @nth (0..) __print_symbolic() table of @ev's print format, in the
 * order the format names them (kvm_exit: VMX's exit reasons, then SVM's):
 * @fn is called with each value and its name.  Returns the number of
 * symbols, 0 when the format has no such table.
 */
int tp__print_symbols(const struct tep_event *ev, int nth,
		      void (*fn)(void *arg, unsigned long long value, const char *name), void *arg);
/*
 * The same for the table that prints the field @field (REC->field, maybe
 * cast): __print_symbolic(REC->reason, ...).  0 when no table prints it.
 */
int tp__field_symbols(const struct tep_event *ev, const char *field,
		      void (*fn)(void *arg, unsigned long long value, const char *name), void *arg);

#endif
