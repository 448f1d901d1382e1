// SPDX-License-Identifier: GPL-2.0
/*
 * python: events to a Python script.  CPython (Debian's libpython3) is
 * embedded; the script (a file, a module name or a compiled extension
 * module) defines the callbacks it wants: __init__(), __exit__(),
 * __interval__(), __print_stat__(indent), __lost__(start, end),
 * __sample__(event) and one handler per event, sys__name(event).  The
 * event object is python_event.c's.
 *
 * The GIL is held only while a callback runs.  perf-prof keeps its own
 * signal handling (Python installs none): a stop signal that comes while
 * a callback runs makes the callback raise KeyboardInterrupt (a watcher
 * thread sees the signal pending and adds a pending call), and the run
 * stops cleanly.  Any other exception prints its traceback and stops the
 * run with status 1, after __exit__.
 */
#include "prof/python_int.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>

#include "engine/evfields.h"
#include "report/outfile.h"
#include "sym/stack.h"
#include "util/stopsig.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* A path (a file to load) rather than a module name. */
static bool is_path(const char *script)
{
	return strchr(script, '/') || ends_with(script, ".py") || ends_with(script, ".so");
}

static int py_args(void *priv, int argc, char **argv, char *err, size_t errlen)
{
	struct py_prof *pp = priv;
	struct stat st;

	if (!argc) {
		snprintf(err, errlen,
			 "no script: give SCRIPT.py, a module name or 'help' (e.g. perf-prof "
			 "python -e sched:sched_wakeup count.py)");
		return -1;
	}
	pp->script = argv[0];
	pp->argc = argc;
	pp->argv = argv;
	if (argc == 1 && !strcmp(argv[0], "help")) {
		pp->help = true;
		return 0;
	}
	if (!is_path(argv[0]))
		return 0; /* a module: looked for once Python is up */
	if (stat(argv[0], &st)) {
		snprintf(err, errlen, "cannot open script '%s': %s", argv[0], strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cannot open script '%s': Is a directory", argv[0]);
		return -1;
	}
	return 0;
}

/* "sched_wakeup" -> a handler's name part: '-', '.', ':' become '_'. */
static void norm(char *dst, size_t len, const char *src)
{
	size_t i = 0;

	for (; src[i] && i + 1 < len; i++)
		dst[i] = strchr("-.:", src[i]) ? '_' : src[i];
	dst[i] = 0;
}

/* The handler's name of @ev: sys__name (sys__ALIAS), PROFILER for an inner profiler's samples. */
static void handler_name(struct py_prof *pp, struct evsel *ev, char *buf, size_t len,
			 const char **event)
{
	const struct ev_spec *item = ev->row ? NULL : session__inner_item(pp->s, ev);
	char a[128], b[128];
	const char *colon;

	*event = ev->name;
	if (item && item->profiler) { /* an inner profiler's sample: "profile", "kvm-exit" */
		*event = item->alias ? item->alias : item->profiler;
		norm(buf, len, *event);
		return;
	}
	if (ev->tp && !ev->row) {
		norm(a, sizeof(a), ev->tp->system);
		norm(b, sizeof(b), ev->spec && ev->spec->alias ? ev->spec->alias : ev->tp->name);
	} else if ((colon = strchr(ev->name, ':'))) { /* a row: "PROFILER:TYPE" */
		snprintf(b, sizeof(b), "%.*s", (int)(colon - ev->name), ev->name);
		norm(a, sizeof(a), b);
		norm(b, sizeof(b), colon + 1);
	} else {
		norm(buf, len, ev->name);
		return;
	}
	snprintf(buf, len, "%s__%s", a, b);
}

/*
 * A callable the script defines at its top level, or NULL: a new
 * reference, held as long as we may call it (a handler that rebinds
 * itself or del's __exit__ must not free what we are about to call).
 * Looked up in the module's __dict__, or the __dict__ of what the script
 * put in sys.modules in its place (no __dict__: no callbacks).
 */
static PyObject *script_fn(struct py_prof *pp, const char *name)
{
	PyObject *d, *fn = NULL;

	if (PyModule_Check(pp->module))
		d = Py_NewRef(PyModule_GetDict(pp->module));
	else
		d = PyObject_GetAttrString(pp->module, "__dict__");
	if (d && PyDict_Check(d))
		fn = PyDict_GetItemString(d, name);
	if (fn && PyCallable_Check(fn))
		Py_INCREF(fn);
	else
		fn = NULL;
	Py_XDECREF(d);
	PyErr_Clear();
	return fn;
}

/* Where @ev's slot is: by its idx, a row's (idx 0: not numbered) by its address. */
static struct py_slot *slot_place(struct py_prof *pp, struct evsel *ev)
{
	struct py_row_slot *nr;
	struct py_slot *ns;
	int n;

	if (ev->row) {
		for (int i = 0; i < pp->nr_rows; i++)
			if (pp->rows[i].ev == ev)
				return &pp->rows[i].slot;
		nr = realloc(pp->rows, (pp->nr_rows + 1) * sizeof(*pp->rows));
		if (!nr)
			return NULL;
		pp->rows = nr;
		memset(&pp->rows[pp->nr_rows], 0, sizeof(*pp->rows));
		pp->rows[pp->nr_rows].ev = ev;
		return &pp->rows[pp->nr_rows++].slot;
	}
	if (ev->idx >= pp->nr_slots) {
		n = ev->idx + 16;
		ns = realloc(pp->slots, n * sizeof(*ns));
		if (!ns)
			return NULL;
		memset(ns + pp->nr_slots, 0, (n - pp->nr_slots) * sizeof(*ns));
		pp->slots = ns;
		pp->nr_slots = n;
	}
	return &pp->slots[ev->idx];
}

static struct py_slot *slot_of(struct py_prof *pp, struct evsel *ev)
{
	struct py_slot *sl = slot_place(pp, ev);
	const char *event;
	char name[300];

	if (!sl || sl->resolved)
		return sl;
	sl->resolved = true;
	handler_name(pp, ev, name, sizeof(name), &event);
	sl->fn = script_fn(pp, name);
	if (!sl->fn) {
		sl->fn = Py_XNewRef(pp->cb_sample);
		sl->dflt = true;
	}
	sl->name = PyUnicode_FromString(event);
	if (ev->tp && !ev->row)
		sl->fields = pyev__field_map(ev);
	if (!sl->name || (ev->tp && !ev->row && !sl->fields)) {
		PyErr_Clear();
		Py_CLEAR(sl->fn); /* out of memory: the event is left out */
	}
	return sl;
}

/* Python's traceback before perf-prof's own lines on stderr. */
static void flush_stderr(void)
{
	PyObject *e = PySys_GetObject("stderr"), *r;

	r = e ? PyObject_CallMethod(e, "flush", NULL) : NULL;
	if (!r)
		PyErr_Clear();
	Py_XDECREF(r);
}

/*
 * A callback raised: its traceback, and the run stops (status 1).  The
 * KeyboardInterrupt of a stop signal and SystemExit stop it cleanly.
 */
static void py_failed(struct py_prof *pp, const char *where)
{
	PyObject *type, *val, *tb, *code;

	if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt) && atomic_load(&pp->interrupted)) {
		PyErr_Clear();
		pp->stop_exit = true; /* no more callbacks but __exit__, status 0 */
		session__stop(pp->s);
		return;
	}
	if (PyErr_ExceptionMatches(PyExc_SystemExit)) {
		PyErr_Fetch(&type, &val, &tb);
		PyErr_NormalizeException(&type, &val, &tb);
		code = val ? PyObject_GetAttrString(val, "code") : NULL;
		PyErr_Clear();
		pp->stop_exit = true;
		if (!code || code == Py_None) {
			pp->exit_code = 0;
		} else if (PyLong_Check(code)) {
			int over;
			long c = PyLong_AsLongAndOverflow(code, &over);

			/* beyond an int (sys.exit(10**30)): 1, no exception left pending */
			pp->exit_code = over || c != (int)c ? 1 : (int)c;
			PyErr_Clear();
		} else {
			PyObject *str = PyObject_Str(code);

			if (str)
				PySys_WriteStderr("%s\n", PyUnicode_AsUTF8(str));
			Py_XDECREF(str);
			PyErr_Clear();
			pp->exit_code = 1;
		}
		Py_XDECREF(code);
		Py_XDECREF(type);
		Py_XDECREF(val);
		Py_XDECREF(tb);
		session__stop(pp->s);
		return;
	}
	PyErr_PrintEx(0);
	flush_stderr();
	if (!pp->failed)
		snprintf(pp->failed_in, sizeof(pp->failed_in), "%s", where);
	pp->failed = true;
	session__stop(pp->s);
}

/* A callback returned: a KeyboardInterrupt it did not see yet is for no other one. */
static void cb_done(struct py_prof *pp)
{
	atomic_store(&pp->in_cb, false);
	if (atomic_load(&pp->interrupted))
		PyThreadState_SetAsyncExc(pp->main_tid, NULL);
}

/* Call @fn(*@args) (a new tuple, taken), the GIL held; false when it raised. */
static bool call(struct py_prof *pp, PyObject *fn, PyObject *args, const char *where)
{
	PyObject *r;

	if (!args) {
		py_failed(pp, where);
		return false;
	}
	atomic_store(&pp->in_cb, true);
	r = PyObject_Call(fn, args, NULL);
	cb_done(pp);
	Py_DECREF(args);
	if (!r) {
		py_failed(pp, where);
		return false;
	}
	Py_DECREF(r);
	return true;
}

static void gil_take(struct py_prof *pp)
{
	if (pp->ts) {
		PyEval_RestoreThread(pp->ts);
		pp->ts = NULL;
	}
}

static void gil_drop(struct py_prof *pp)
{
	if (!pp->ts)
		pp->ts = PyEval_SaveThread();
}

/* Whether callbacks still run: not after an exception or sys.exit(). */
static bool live(struct py_prof *pp)
{
	return pp->py_up && !pp->failed && !pp->stop_exit;
}

static void call_lost(struct py_prof *pp, u64 end)
{
	pp->lost_pending = false;
	if (pp->cb_lost)
		call(pp, pp->cb_lost, Py_BuildValue("(KK)", pp->lost_start, end), "__lost__");
}

static void py_sample(struct session *s, void *priv, struct evsel *ev, struct sample *smp)
{
	struct py_prof *pp = priv;
	struct py_slot *sl;
	struct pyev *e;
	PyObject *r;

	(void)s;
	if (!live(pp))
		return;
	sl = !ev->row && ev->idx < pp->nr_slots ? &pp->slots[ev->idx] : NULL;
	if (sl && sl->resolved && !sl->fn && !pp->lost_pending) {
		pp->last_time = smp->time;
		return;
	}
	gil_take(pp);
	if (pp->lost_pending)
		call_lost(pp, smp->time);
	pp->last_time = smp->time;
	sl = slot_of(pp, ev);
	if (!sl || !sl->fn || !live(pp))
		goto out;
	e = pyev__new(pp, ev, sl, smp, sl->dflt);
	if (!e) {
		py_failed(pp, "the event object");
		goto out;
	}
	atomic_store(&pp->in_cb, true);
	r = PyObject_CallOneArg(sl->fn, (PyObject *)e);
	cb_done(pp);
	pyev__release(pp, e);
	if (r)
		Py_DECREF(r);
	else
		py_failed(pp, sl->dflt ? "__sample__" : ev->name);
out:
	gil_drop(pp);
}

/* Call @fn() (@indent >= 0: @fn(indent)) between samples: the GIL taken first, for the arguments too. */
static void py_simple(struct py_prof *pp, PyObject *fn, int indent, const char *where)
{
	if (!live(pp) || !fn)
		return;
	gil_take(pp);
	call(pp, fn, indent < 0 ? PyTuple_New(0) : Py_BuildValue("(i)", indent), where);
	gil_drop(pp);
}

static void py_interval(struct session *s, void *priv)
{
	struct py_prof *pp = priv;

	(void)s;
	py_simple(pp, pp->cb_interval, -1, "__interval__");
}

static void py_usage(struct session *s, void *priv)
{
	struct py_prof *pp = priv;

	(void)s;
	py_simple(pp, pp->cb_stat, 0, "__print_stat__");
}

static void py_lost(struct session *s, void *priv, int cpu, u64 nr)
{
	struct py_prof *pp = priv;

	(void)s, (void)cpu, (void)nr;
	if (!pp->lost_pending)
		pp->lost_start = pp->last_time;
	pp->lost_pending = true;
}

static int py_started(struct session *s, void *priv)
{
	struct py_prof *pp = priv;

	if (!live(pp))
		return 0;
	pp->inited = true;
	if (pp->cb_init) {
		py_simple(pp, pp->cb_init, -1, "__init__");
		if (pp->failed) {
			pp->failed = false; /* said here, not again at the end */
			pp->stop_exit = true;
			return session__set_err(s, -ECANCELED,
						"__init__() raised an exception (traceback above)");
		}
	}
	return 0;
}

/*
 * The watcher: a stop signal pending (perf-prof reads it from its
 * signalfd between callbacks) while a callback runs makes the callback
 * raise KeyboardInterrupt.  The thread takes the GIL, which the callback
 * gives up at its next check (the switch interval), so that in_cb is
 * sure: the exception goes to the callback, never to a later one.
 */
static void *watch(void *arg)
{
	struct py_prof *pp = arg;
	struct pollfd pf[2] = { { .fd = pp->quitfd, .events = POLLIN },
				{ .fd = pp->sigfd, .events = POLLIN } };

	for (;;) {
		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			break;
		if (pf[0].revents)
			break;
		if (!(pf[1].revents & POLLIN))
			continue;
		if (atomic_load(&pp->in_cb)) {
			PyGILState_STATE g = PyGILState_Ensure();

			if (atomic_load(&pp->in_cb)) {
				atomic_store(&pp->interrupted, true);
				PyThreadState_SetAsyncExc(pp->main_tid, PyExc_KeyboardInterrupt);
			}
			PyGILState_Release(g);
		}
		/* until perf-prof read it: look again later, without spinning */
		if (poll(pf, 1, atomic_load(&pp->interrupted) ? 1000 : 20) != 0)
			break;
	}
	return NULL;
}

static void watcher_start(struct py_prof *pp)
{
	sigset_t stop, all, old;
	pthread_t t;

	/* the signals that stop the loop: SIGHUP too, unless ignored or an output file's reopen */
	stopsig__set(&stop);
	if (session__conf(pp->s)->output_file)
		sigdelset(&stop, SIGHUP);
	pp->sigfd = signalfd(-1, &stop, SFD_CLOEXEC | SFD_NONBLOCK);
	pp->quitfd = eventfd(0, EFD_CLOEXEC);
	if (pp->sigfd < 0 || pp->quitfd < 0)
		return;
	/* every signal blocked in the thread: they are perf-prof's main loop's */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (!pthread_create(&t, NULL, watch, pp)) {
		pp->watcher = (unsigned long)t;
		pp->watching = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Forget the stop signals pending now (read, they are not pending any more). */
static void watcher_drain(struct py_prof *pp)
{
	struct signalfd_siginfo si;

	while (pp->sigfd >= 0 && read(pp->sigfd, &si, sizeof(si)) == sizeof(si))
		;
}

static void watcher_stop(struct py_prof *pp)
{
	u64 one = 1;

	if (pp->watching) {
		if (write(pp->quitfd, &one, sizeof(one)) != sizeof(one))
			pthread_cancel((pthread_t)pp->watcher);
		pthread_join((pthread_t)pp->watcher, NULL);
		pp->watching = false;
	}
	if (pp->sigfd >= 0)
		close(pp->sigfd);
	if (pp->quitfd >= 0)
		close(pp->quitfd);
	pp->sigfd = pp->quitfd = -1;
}

static bool python_started_once;

/* CPython up, sys.argv the script's, sys.stdout perf-prof's output. */
static int py_start(struct py_prof *pp)
{
	struct session *s = pp->s;
	PyObject *out, *mod;
	PyStatus st;
	PyConfig c;

	if (python_started_once)
		return session__set_err(s, -EBUSY, "Python can be started once per process");
	python_started_once = true;
	if (PyImport_AppendInittab("perf_prof", pyev__module_init))
		return session__set_err(s, -ENOMEM, "cannot add the module perf_prof");
	PyConfig_InitPythonConfig(&c);
	c.install_signal_handlers = 0; /* perf-prof's signalfd reads them */
	c.parse_argv = 0;
	c.pathconfig_warnings = 0;
	st = PyConfig_SetBytesArgv(&c, pp->argc, pp->argv);
	if (!PyStatus_Exception(st))
		st = Py_InitializeFromConfig(&c);
	PyConfig_Clear(&c);
	if (PyStatus_Exception(st))
		return session__set_err(s, -EINVAL, "cannot start Python: %s",
					st.err_msg ? st.err_msg : "unknown error");
	pp->py_up = true;
	mod = PyImport_ImportModule("perf_prof"); /* its types ready */
	if (!mod) {
		PyErr_Print();
		return session__set_err(s, -ENOMEM, "cannot load the module perf_prof");
	}
	Py_DECREF(mod);
	out = pyout__new(pp);
	if (!out || PySys_SetObject("stdout", out)) {
		Py_XDECREF(out);
		PyErr_Clear();
		return session__set_err(s, -ENOMEM, "cannot set sys.stdout");
	}
	Py_DECREF(out);
	return 0;
}

/* sys.path[0]: the script's directory, or "" (the current one) for a module. */
static int path0(const char *dir)
{
	PyObject *path = PySys_GetObject("path"), *d = PyUnicode_DecodeFSDefault(dir);
	int r = path && d ? PyList_Insert(path, 0, d) : -1;

	Py_XDECREF(d);
	return r;
}

/* Run the script file @path as the module @name (its own frames only in a traceback). */
static PyObject *load_source(const char *path, const char *name)
{
	PyObject *m = NULL, *code = NULL, *r, *file;
	char *src = NULL;
	size_t len = 0;
	FILE *fp;

	fp = fopen(path, "rb");
	if (!fp)
		return PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
	for (;;) {
		char *n = realloc(src, len + 65536 + 1);
		size_t got;

		if (!n) {
			fclose(fp);
			free(src);
			return PyErr_NoMemory();
		}
		src = n;
		got = fread(src + len, 1, 65536, fp);
		len += got;
		if (got < 65536)
			break;
	}
	fclose(fp);
	src[len] = 0;
	/*
	 * A module of its own: one named after a module already loaded (time.py,
	 * stat.py, io.py) must not run inside that one.  In sys.modules (pickle,
	 * "import NAME" from elsewhere) only when the name is free.
	 */
	m = PyModule_New(name);
	file = PyUnicode_DecodeFSDefault(path);
	if (m && file && !PyModule_AddObjectRef(m, "__file__", file) &&
	    !PyDict_SetItemString(PyModule_GetDict(m), "__builtins__", PyEval_GetBuiltins()))
		code = Py_CompileStringObject(src, file, Py_file_input, NULL, -1);
	Py_XDECREF(file);
	free(src);
	if (code && !PyMapping_HasKeyString(PyImport_GetModuleDict(), name)) {
		if (PyDict_SetItemString(PyImport_GetModuleDict(), name, m))
			Py_CLEAR(code);
	}
	if (!code) {
		Py_XDECREF(m);
		return NULL;
	}
	r = PyEval_EvalCode(code, PyModule_GetDict(m), PyModule_GetDict(m));
	Py_DECREF(code);
	if (!r) {
		Py_DECREF(m);
		return NULL;
	}
	Py_DECREF(r);
	return m;
}

/* A compiled extension module (.so) at @path: its PyInit_ name is the file name up to a '.'. */
static PyObject *load_ext(const char *path, const char *name)
{
	PyObject *mach = PyImport_ImportModule("importlib.machinery");
	PyObject *util = PyImport_ImportModule("importlib.util");
	PyObject *loader = NULL, *spec = NULL, *m = NULL, *r;

	if (mach && util)
		loader = PyObject_CallMethod(mach, "ExtensionFileLoader", "ss", name, path);
	if (loader)
		spec = PyObject_CallMethod(util, "spec_from_loader", "sO", name, loader);
	if (spec)
		m = PyObject_CallMethod(util, "module_from_spec", "O", spec);
	if (m) {
		r = PyObject_CallMethod(loader, "exec_module", "O", m);
		if (r && !PyDict_SetItemString(PyImport_GetModuleDict(), name, m))
			Py_DECREF(r);
		else {
			Py_CLEAR(m);
			Py_XDECREF(r);
		}
	}
	Py_XDECREF(mach);
	Py_XDECREF(util);
	Py_XDECREF(loader);
	Py_XDECREF(spec);
	return m;
}

/*
 * Load the script: a missing module is a usage error (status 2); a
 * syntax error too, after its traceback; any other exception of its top
 * level is a run-time one (status 1).
 */
static int py_load(struct py_prof *pp)
{
	struct session *s = pp->s;
	const char *base = strrchr(pp->script, '/');
	char name[256], *dir, *dot;
	PyObject *file;
	int r = 0;

	base = base ? base + 1 : pp->script;
	snprintf(name, sizeof(name), "%s", base);
	if (is_path(pp->script)) {
		dir = strdup(pp->script);
		if (!dir)
			return session__set_err(s, -ENOMEM, "out of memory");
		if (strrchr(dir, '/'))
			*strrchr(dir, '/') = 0;
		else
			strcpy(dir, ".");
		r = path0(dir);
		free(dir);
		dot = strchr(name, '.');
		if (dot && (ends_with(name, ".so") || dot == strrchr(name, '.')))
			*dot = 0; /* "x.py" -> "x", "x.cpython-311-x86_64-linux-gnu.so" -> "x" */
		if (!name[0] || !strcmp(name, "perf_prof"))
			snprintf(name, sizeof(name), "__perf_prof_script__");
		if (!r)
			pp->module = ends_with(pp->script, ".so") ? load_ext(pp->script, name)
								  : load_source(pp->script, name);
	} else {
		r = path0("");
		if (!r)
			pp->module = PyImport_ImportModule(pp->script);
	}
	if (pp->module)
		goto loaded;
	if (r || !PyErr_Occurred()) {
		PyErr_Clear();
		return session__set_err(s, -ENOMEM, "cannot load '%s': out of memory", pp->script);
	}
	if (PyErr_ExceptionMatches(PyExc_ModuleNotFoundError) && !is_path(pp->script)) {
		PyObject *t, *v, *tb, *missing;
		bool self;

		PyErr_Fetch(&t, &v, &tb);
		PyErr_NormalizeException(&t, &v, &tb);
		missing = v ? PyObject_GetAttrString(v, "name") : NULL;
		self = missing && PyUnicode_Check(missing) &&
		       !strcmp(PyUnicode_AsUTF8(missing), pp->script);
		Py_XDECREF(missing);
		PyErr_Clear();
		if (self) { /* the script itself, not a module it imports */
			Py_XDECREF(t), Py_XDECREF(v), Py_XDECREF(tb);
			return session__usage_err(s, "no script file or module named '%s'",
						  pp->script);
		}
		PyErr_Restore(t, v, tb);
	}
	if (PyErr_ExceptionMatches(PyExc_SystemExit)) {
		/* sys.exit() while loading (argparse's --help): no run, its status */
		py_failed(pp, "loading");
		return 0;
	}
	if (PyErr_ExceptionMatches(PyExc_SyntaxError)) {
		PyErr_PrintEx(0);
		flush_stderr();
		return session__usage_err(s, "cannot load '%s': a syntax error (see above)",
					  pp->script);
	}
	PyErr_PrintEx(0);
	flush_stderr();
	return session__set_err(s, -EINVAL, "loading '%s' raised an exception (traceback above)",
				pp->script);
loaded:
	file = PyObject_GetAttrString(pp->module, "__file__");
	if (file && PyUnicode_Check(file))
		session__notice(s, "loaded %s", PyUnicode_AsUTF8(file));
	Py_XDECREF(file);
	PyErr_Clear();
	pp->cb_init = script_fn(pp, "__init__");
	pp->cb_exit = script_fn(pp, "__exit__");
	pp->cb_interval = script_fn(pp, "__interval__");
	pp->cb_stat = script_fn(pp, "__print_stat__");
	pp->cb_lost = script_fn(pp, "__lost__");
	pp->cb_sample = script_fn(pp, "__sample__");
	return 0;
}

static void template_fields(struct evsel *ev, FILE *out)
{
	static const char *const kinds[] = { "int", "int", "int", "bool", "str", "bytes", "bytes" };
	const struct evfields *fs = evsel__evfields(ev);

	fprintf(out, "    \"\"\"%s: _pid _tid _time _cpu _period _realtime%s", ev->name,
		ev->attr.sample_type & PERF_SAMPLE_CALLCHAIN ? " _callchain" : "");
	for (int i = 0; fs && i < fs->n; i++)
		fprintf(out, "%s%s (%s)", i % 4 ? ", " : "\n       ", fs->f[i].name,
			kinds[fs->f[i].kind]);
	fprintf(out, "\"\"\"\n    pass\n\n");
}

/* "perf-prof python -e EV help": a script with every callback, to start from. */
static void template(struct py_prof *pp, FILE *out)
{
	const struct event_opts *eo = session__conf(pp->s)->events;
	char name[300];
	const char *event;

	fprintf(out,
		"# perf-prof python script: perf-prof python -e EVENTS [-i MS] [--] SCRIPT.py "
		"[ARGS]\n"
		"# Every function is optional.  An exception stops the run (status 1) after "
		"__exit__.\n"
		"import sys\n\n"
		"def __init__():\n    \"\"\"Once, when the events are on.\"\"\"\n    pass\n\n"
		"def __exit__():\n    \"\"\"Once, at the end.\"\"\"\n    pass\n\n"
		"def __interval__():\n    \"\"\"Every -i interval.\"\"\"\n    pass\n\n"
		"def __print_stat__(indent):\n    \"\"\"On SIGUSR2.\"\"\"\n    pass\n\n"
		"def __lost__(start, end):\n    \"\"\"Events were lost between these times (ns; "
		"end 0: at the end).\"\"\"\n    pass\n\n"
		"def __sample__(event):\n    \"\"\"An event without a handler of its own "
		"(event._event: its name).\"\"\"\n    pass\n\n");
	for (struct evsel *ev = session__evsels(pp->s); ev; ev = ev->next) {
		handler_name(pp, ev, name, sizeof(name), &event);
		fprintf(out, "def %s(event):\n", name);
		template_fields(ev, out);
	}
	for (int i = 0; i < eo->nr_specs; i++)
		if (eo->specs[i].profiler) {
			const char *n =
				eo->specs[i].alias ? eo->specs[i].alias : eo->specs[i].profiler;

			norm(name, sizeof(name), n);
			fprintf(out,
				"def %s(event):\n    \"\"\"%s's samples: _pid _tid _time _cpu "
				"_period _realtime (its rows: PROFILER__TYPE(event), their "
				"members)\"\"\"\n    pass\n\n",
				name, n);
		}
}

static int py_init(struct session *s, void *priv, const struct opt_set *opts)
{
	const struct event_opts *eo = session__conf(s)->events;
	struct py_prof *pp = priv;
	int err;

	(void)opts;
	pp->s = s;
	pp->sigfd = pp->quitfd = -1;
	if (!eo->nr_specs)
		return session__usage_err(s, "no events: give -e sys:name (see: perf-prof list)");
	for (int i = 0; i < eo->nr_specs; i++) {
		struct evsel_conf c = { .callchain = session__stacks_for_all(s) };

		if (eo->specs[i].profiler) /* an inner profiler's: it adds them (cli/joint.h) */
			continue;
		if (session__add_spec(s, &eo->specs[i], &c) < 0)
			return -EINVAL;
	}
	if (pp->help) {
		template(pp, session__out(s));
		fflush(session__out(s));
		session__stop(s);
		return 0;
	}
	err = py_start(pp);
	if (!err)
		err = py_load(pp);
	if (err)
		return err;
	pp->main_tid = PyThreadState_Get()->thread_id;
	watcher_start(pp);
	gil_drop(pp);
	return 0;
}

static void py_deinit(struct session *s, void *priv)
{
	struct py_prof *pp = priv;

	if (!pp->py_up)
		return;
	gil_take(pp);
	if (pp->inited && session__started(s)) {
		if (pp->lost_pending && live(pp))
			call_lost(pp, 0);
		/*
		 * After an exception too: the script may have something to say.
		 * The watcher still runs: a stop signal that comes while
		 * __exit__ runs interrupts it (one already pending, a second
		 * copy of the one that ended the run, does not).
		 */
		watcher_drain(pp);
		if (pp->cb_exit)
			call(pp, pp->cb_exit, PyTuple_New(0), "__exit__");
	}
	gil_drop(pp); /* the watcher may be waiting for the GIL */
	watcher_stop(pp);
	gil_take(pp);
	flush_stderr();
	Py_CLEAR(pp->spare);
	for (int i = 0; i < pp->nr_slots; i++) {
		Py_XDECREF(pp->slots[i].fn);
		Py_XDECREF(pp->slots[i].name);
		Py_XDECREF(pp->slots[i].fields);
	}
	for (int i = 0; i < pp->nr_rows; i++) {
		Py_XDECREF(pp->rows[i].slot.fn);
		Py_XDECREF(pp->rows[i].slot.name);
		Py_XDECREF(pp->rows[i].slot.fields);
	}
	Py_CLEAR(pp->cb_init);
	Py_CLEAR(pp->cb_exit);
	Py_CLEAR(pp->cb_interval);
	Py_CLEAR(pp->cb_stat);
	Py_CLEAR(pp->cb_lost);
	Py_CLEAR(pp->cb_sample);
	free(pp->slots);
	free(pp->rows);
	pp->slots = NULL;
	pp->rows = NULL;
	Py_CLEAR(pp->module);
	fflush(session__out(s));
	if (Py_FinalizeEx() < 0)
		session__warn(s, "Python's finalization could not flush its buffers");
	pp->py_up = false;
	if (pp->failed)
		session__output_err(s, "stopped: %s raised an exception (traceback above)",
				    pp->failed_in);
	else if (pp->stop_exit && pp->exit_code)
		session__output_err(s, "the script exited with status %d", pp->exit_code);
}

const struct profiler prof_python = {
	.name = "python",
	.needs = (const char *const[]){ "tracefs", NULL },
	.desc = "events to a Python script: a handler per event, __interval__, __exit__...",
	.synopsis = "perf-prof python -e EVENT[,EVENT...] [-i MS] [-g] [-C CPUS|-p PID|-t TID] "
		    "[--] SCRIPT|MODULE [ARGS...]",
	.examples = "perf-prof python -e syscalls:sys_enter_getppid count.py\n"
		    "  perf-prof python -e sched:sched_wakeup -i 1000 -- wakeups.py --top 10\n"
		    "  perf-prof python -e 'sched:sched_switch//stack/' -g offcpu.py\n"
		    "  perf-prof python -e sched:sched_wakeup,profile -i 1000 joint.py\n"
		    "  perf-prof python -e sched:sched_wakeup help > wakeups.py   (a template)\n"
		    "Handlers: sched:sched_wakeup -> sched__sched_wakeup(event), else "
		    "__sample__(event).\n"
		    "Shebang: #!/usr/bin/env -S perf-prof python -e sched:sched_wakeup -i 1000",
	.groups = (const struct opt_group *const[]){ &event_group, &target_group, &run_group,
						     &ring_group, &output_group, &stack_group,
						     &exclude_tp_group, NULL },
	.joint = true,
	.priv_size = sizeof(struct py_prof),
	.args = py_args,
	.args_stop = true,
	.init = py_init,
	.ops = { .sample = py_sample,
		 .inner_sample = py_sample,
		 .interval = py_interval,
		 .lost = py_lost,
		 .usage = py_usage,
		 .started = py_started },
	.deinit = py_deinit,
};
