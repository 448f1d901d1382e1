/* SPDX-License-Identifier: GPL-2.0 */
/*
 * python: the profiler (python.c) and its event object, the built-in
 * module perf_prof (python_event.c).  Python.h comes first, as CPython
 * asks: its feature macros must precede the system headers.
 */
#ifndef PP_PYTHON_INT_H
#define PP_PYTHON_INT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdatomic.h>
#include <stdbool.h>

#include "profiler.h"

struct py_prof;

/* What a script's handler is for one event (by the evsel's idx), resolved on its first sample. */
struct py_slot {
	bool resolved;
	bool dflt;	  /* no handler of its own: __sample__, with _event */
	PyObject *fn;	  /* held (the script may rebind or delete it) */
	PyObject *name;	  /* _event: the event's name */
	PyObject *fields; /* {name: index} of its tracepoint fields, or NULL */
};

/* The event object (perf_prof.PerfEvent). */
struct pyev {
	PyObject_HEAD struct py_prof *pp;
	struct evsel *ev;
	/* its slot's name (_event) and {field: index}, held: the slots array moves */
	PyObject *name, *fields;
	struct sample smp;
	bool named;    /* in __sample__: _event is there */
	void *copy;    /* the sample's arrays, once it outlived its callback */
	PyObject *row; /* an inner profiler's row: its members, decoded on first use */
};

struct py_prof {
	struct session *s;
	const char *script; /* as given */
	int argc;	    /* the script and its arguments */
	char **argv;
	bool help; /* "help" instead of a script: print a template */
	PyObject *module;
	PyObject *cb_init, *cb_exit, *cb_interval, *cb_stat, *cb_lost, *cb_sample;
	struct py_slot *slots; /* by evsel idx */
	int nr_slots;
	struct py_row_slot { /* an inner profiler's rows (cli/joint.h): their evsels, unnumbered */
		struct evsel *ev;
		struct py_slot slot;
	} * rows;
	int nr_rows;
	struct pyev *spare; /* the event object of the last callback, when it was not kept */
	PyThreadState *ts;  /* the GIL released between callbacks */
	bool py_up, inited, exited;
	bool failed;	    /* a callback raised: the run stops, status 1 */
	char failed_in[64]; /* where */
	bool stop_exit;	    /* SystemExit: stop, with @exit_code */
	int exit_code;
	u64 last_time, lost_start; /* __lost__(start, end) */
	bool lost_pending;
	/* a stop signal during a callback: KeyboardInterrupt (the watcher thread) */
	atomic_bool in_cb, interrupted;
	unsigned long main_tid; /* the callbacks' thread (PyThreadState_SetAsyncExc) */
	int sigfd, quitfd;
	bool watching;
	unsigned long watcher; /* pthread_t */
};

/* python_event.c: the module perf_prof (PyImport_AppendInittab before Py_Initialize). */
PyObject *pyev__module_init(void);
/* A new event object for @smp of @ev (borrowed until pyev__release), or NULL (exception). */
struct pyev *pyev__new(struct py_prof *pp, struct evsel *ev, struct py_slot *slot,
		       struct sample *smp, bool named);
/*
 * After the callback: the object kept by the script gets its own copy of
 * the record's arrays, one not kept is kept as the spare.
 */
void pyev__release(struct py_prof *pp, struct pyev *e);
/* {field name: index} of @ev's tracepoint fields (a new reference), or NULL. */
PyObject *pyev__field_map(struct evsel *ev);
/* sys.stdout on @s's output, so that print() and event.print() keep their order. */
PyObject *pyout__new(struct py_prof *pp);

#endif
