// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in module perf_prof: the event object a script's handlers get
 * (PerfEvent) and the stream sys.stdout writes to (the profiler's output,
 * so that print() and event.print() come out in the order they were made).
 *
 * An event's fields are decoded when read, from the tracepoint's fields
 * typed once (engine/evfields.h); an inner profiler's row has the members
 * of its JSON.  The object points into the ring buffer while its callback
 * runs; one the script keeps (its reference count says so when the
 * callback returns) gets a copy of the record's arrays, and one it did not
 * keep is reused for the next event.
 */
#include "prof/python_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/evfields.h"
#include "report/evline.h"
#include "sym/stack.h"

#define PY_MAX_FRAMES 256

static PyTypeObject pyev_type;
static PyObject *json_loads; /* json.loads, for the rows' members */

static const char *const specials[] = { "_pid",	   "_tid",	"_time",  "_cpu",
					"_period", "_realtime", "_event", "_callchain" };
enum { SP_PID, SP_TID, SP_TIME, SP_CPU, SP_PERIOD, SP_REALTIME, SP_EVENT, SP_CALLCHAIN, SP_N };

PyObject *pyev__field_map(struct evsel *ev)
{
	const struct evfields *fs = evsel__evfields(ev);
	PyObject *m = PyDict_New();

	for (int i = 0; m && fs && i < fs->n; i++) {
		PyObject *k = PyUnicode_InternFromString(fs->f[i].name);
		PyObject *v = PyLong_FromLong(i);

		if (!k || !v || PyDict_SetItem(m, k, v)) {
			Py_XDECREF(k);
			Py_XDECREF(v);
			Py_DECREF(m);
			return NULL;
		}
		Py_DECREF(k);
		Py_DECREF(v);
	}
	return m;
}

static bool has_stack(const struct pyev *e)
{
	return session__stack(e->pp->s) && (e->smp.nr_ips || e->smp.stack);
}

/* The row's members as a dict (json.loads of "{...}"), decoded once. */
static PyObject *row_dict(struct pyev *e)
{
	const char *raw = e->smp.raw, *nul;
	PyObject *txt, *d;
	char *buf;
	size_t n;

	if (e->row)
		return e->row;
	nul = raw ? memchr(raw, 0, e->smp.raw_size) : NULL;
	if (!nul) {
		e->row = PyDict_New();
		return e->row;
	}
	nul++;
	n = strnlen(nul, e->smp.raw_size - (size_t)(nul - raw));
	if (!json_loads) {
		PyObject *json = PyImport_ImportModule("json");

		json_loads = json ? PyObject_GetAttrString(json, "loads") : NULL;
		Py_XDECREF(json);
		if (!json_loads)
			return NULL;
	}
	buf = malloc(n + 3);
	if (!buf)
		return PyErr_NoMemory();
	buf[0] = '{';
	memcpy(buf + 1, nul, n);
	buf[n + 1] = '}';
	buf[n + 2] = 0;
	txt = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)n + 2, "replace");
	free(buf);
	d = txt ? PyObject_CallOneArg(json_loads, txt) : NULL;
	Py_XDECREF(txt);
	if (d && !PyDict_Check(d)) {
		Py_DECREF(d);
		d = PyDict_New();
	}
	e->row = d;
	return d;
}

static PyObject *callchain(struct pyev *e)
{
	struct frame *fr = malloc(PY_MAX_FRAMES * sizeof(*fr));
	PyObject *l;
	int n;

	if (!fr)
		return PyErr_NoMemory();
	n = stack__frames(session__stack(e->pp->s), &e->smp, fr, PY_MAX_FRAMES);
	l = PyList_New(n > 0 ? n : 0);
	for (int i = 0; l && i < n; i++) {
		PyObject *d = Py_BuildValue("{s:K,s:s,s:K,s:O,s:s}", "addr",
					    (unsigned long long)fr[i].addr, "symbol", fr[i].sym,
					    "offset", (unsigned long long)fr[i].off, "kernel",
					    fr[i].kernel ? Py_True : Py_False, "dso", fr[i].dso);

		if (!d) {
			Py_CLEAR(l);
			break;
		}
		PyList_SET_ITEM(l, i, d);
	}
	free(fr);
	return l;
}

/* A special member (SP_*), or NULL without an exception when @e has none of that name. */
static PyObject *special(struct pyev *e, int sp)
{
	switch (sp) {
	case SP_PID:
		return PyLong_FromUnsignedLong(e->smp.pid);
	case SP_TID:
		return PyLong_FromUnsignedLong(e->smp.tid);
	case SP_TIME:
		return PyLong_FromUnsignedLongLong(e->smp.time);
	case SP_CPU:
		return PyLong_FromUnsignedLong(e->smp.cpu);
	case SP_PERIOD:
		return PyLong_FromUnsignedLongLong(e->smp.period);
	case SP_REALTIME:
		return PyLong_FromUnsignedLongLong(session__epoch_ns(e->pp->s, e->smp.time));
	case SP_EVENT:
		if (!e->named)
			return NULL;
		if (!e->name)
			return NULL;
		Py_INCREF(e->name);
		return e->name;
	case SP_CALLCHAIN:
		return has_stack(e) ? callchain(e) : NULL;
	}
	return NULL;
}

static int special_of(const char *n)
{
	for (int i = 0; i < SP_N; i++)
		if (!strcmp(n, specials[i]))
			return i;
	return -1;
}

/* Tracepoint field @i of @e: int, str, bytes; None when the record cuts it short. */
static PyObject *field(struct pyev *e, int i)
{
	const struct evfields *fs = evsel__evfields(e->ev);
	const struct evf *f = &fs->f[i];
	const unsigned char *p;
	unsigned len;

	if (evf__bytes(f, &e->smp, &p, &len))
		Py_RETURN_NONE;
	switch (f->kind) {
	case EVF_INT:
		return PyLong_FromLongLong((long long)evf__int(p, f->size, true));
	case EVF_HEX: /* signed where the format says so: a syscall's ret of -9 is -9 */
		if (f->sgn)
			return PyLong_FromLongLong((long long)evf__int(p, f->size, true));
		return PyLong_FromUnsignedLongLong(evf__int(p, f->size, false));
	case EVF_UINT:
		return PyLong_FromUnsignedLongLong(evf__int(p, f->size, false));
	case EVF_BOOL:
		return PyBool_FromLong(evf__int(p, f->size, false) != 0);
	case EVF_STR:
		return PyUnicode_DecodeUTF8((const char *)p, len, "replace");
	default:
		return PyBytes_FromStringAndSize((const char *)p, len);
	}
}

/* The member @name (a str) of @e: a new reference, or NULL (KeyError-free: no exception) . */
static PyObject *member(struct pyev *e, PyObject *name)
{
	const char *n = PyUnicode_AsUTF8(name);
	PyObject *i, *d;
	int sp;

	if (!n)
		return NULL;
	if (n[0] == '_' && (sp = special_of(n)) >= 0)
		return special(e, sp);
	if (e->ev->row) {
		d = row_dict(e);
		if (!d)
			return NULL;
		i = PyDict_GetItemWithError(d, name);
		Py_XINCREF(i);
		return i;
	}
	if (!e->fields)
		return NULL;
	i = PyDict_GetItemWithError(e->fields, name);
	return i ? field(e, (int)PyLong_AsLong(i)) : NULL;
}

static PyObject *pyev_getattro(PyObject *self, PyObject *name)
{
	PyObject *v = member((struct pyev *)self, name);

	if (v || PyErr_Occurred())
		return v;
	return PyObject_GenericGetAttr(self, name);
}

static PyObject *pyev_subscript(PyObject *self, PyObject *key)
{
	PyObject *v;

	if (!PyUnicode_Check(key)) {
		PyErr_SetString(PyExc_TypeError, "event keys are field names (str)");
		return NULL;
	}
	v = member((struct pyev *)self, key);
	if (!v && !PyErr_Occurred())
		PyErr_SetObject(PyExc_KeyError, key);
	return v;
}

static int pyev_contains(PyObject *self, PyObject *key)
{
	PyObject *v;

	if (!PyUnicode_Check(key))
		return 0;
	v = member((struct pyev *)self, key);
	if (!v)
		return PyErr_Occurred() ? -1 : 0;
	Py_DECREF(v);
	return 1;
}

/* The names of @e's members, in order: the specials it has, then its fields. */
static PyObject *keys(struct pyev *e)
{
	const struct evfields *fs = e->ev->row ? NULL : evsel__evfields(e->ev);
	PyObject *l = PyList_New(0), *k;

	for (int i = 0; l && i < SP_N; i++) {
		if ((i == SP_EVENT && !e->named) || (i == SP_CALLCHAIN && !has_stack(e)))
			continue;
		k = PyUnicode_FromString(specials[i]);
		if (!k || PyList_Append(l, k))
			Py_CLEAR(l);
		Py_XDECREF(k);
	}
	if (l && e->ev->row) {
		PyObject *d = row_dict(e), *rk;

		if (!d) {
			Py_DECREF(l);
			return NULL;
		}
		rk = PyDict_Keys(d);
		if (!rk || PyList_SetSlice(l, PyList_GET_SIZE(l), PyList_GET_SIZE(l), rk))
			Py_CLEAR(l);
		Py_XDECREF(rk);
		return l;
	}
	for (int i = 0; l && fs && i < fs->n; i++) {
		k = PyUnicode_FromString(fs->f[i].name);
		if (!k || PyList_Append(l, k))
			Py_CLEAR(l);
		Py_XDECREF(k);
	}
	return l;
}

/* [(name, value)] (@what 2), [value] (1) or {name: value} (0). */
static PyObject *collect(struct pyev *e, int what)
{
	PyObject *k = keys(e), *out;

	if (!k)
		return NULL;
	out = what ? PyList_New(0) : PyDict_New();
	for (Py_ssize_t i = 0; out && i < PyList_GET_SIZE(k); i++) {
		PyObject *name = PyList_GET_ITEM(k, i), *v = member(e, name), *t;
		int r;

		if (!v) {
			if (!PyErr_Occurred())
				continue;
			Py_CLEAR(out);
			break;
		}
		if (!what) {
			r = PyDict_SetItem(out, name, v);
		} else if (what == 1) {
			r = PyList_Append(out, v);
		} else {
			t = PyTuple_Pack(2, name, v);
			r = t ? PyList_Append(out, t) : -1;
			Py_XDECREF(t);
		}
		Py_DECREF(v);
		if (r)
			Py_CLEAR(out);
	}
	Py_DECREF(k);
	return out;
}

static PyObject *pyev_keys(PyObject *self, PyObject *unused)
{
	(void)unused;
	return keys((struct pyev *)self);
}

static PyObject *pyev_values(PyObject *self, PyObject *unused)
{
	(void)unused;
	return collect((struct pyev *)self, 1);
}

static PyObject *pyev_items(PyObject *self, PyObject *unused)
{
	(void)unused;
	return collect((struct pyev *)self, 2);
}

static PyObject *pyev_to_dict(PyObject *self, PyObject *unused)
{
	(void)unused;
	return collect((struct pyev *)self, 0);
}

static PyObject *pyev_iter(PyObject *self)
{
	PyObject *l = collect((struct pyev *)self, 2), *it;

	if (!l)
		return NULL;
	it = PyObject_GetIter(l);
	Py_DECREF(l);
	return it;
}

static Py_ssize_t pyev_len(PyObject *self)
{
	PyObject *k = keys((struct pyev *)self);
	Py_ssize_t n;

	if (!k)
		return -1;
	n = PyList_GET_SIZE(k);
	Py_DECREF(k);
	return n;
}

static PyObject *pyev_get(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
	PyObject *v;

	if (nargs < 1 || nargs > 2 || !PyUnicode_Check(args[0])) {
		PyErr_SetString(PyExc_TypeError, "get(name, default=None)");
		return NULL;
	}
	v = member((struct pyev *)self, args[0]);
	if (v || PyErr_Occurred())
		return v;
	v = nargs > 1 ? args[1] : Py_None;
	Py_INCREF(v);
	return v;
}

/* The line trace prints for the event (its stack under it), on the profiler's output. */
static PyObject *pyev_print(PyObject *self, PyObject *unused)
{
	struct pyev *e = (struct pyev *)self;
	struct session *s = e->pp->s;
	struct rt_val v[EVL_NCOLS];
	struct rt_stack stk;

	(void)unused;
	evline__row(v, &stk, s, e->ev, &e->smp, NULL, NULL);
	evline__emit(s, session__out(s), &evline_desc, v);
	Py_RETURN_NONE;
}

static PyObject *pyev_repr(PyObject *self)
{
	struct pyev *e = (struct pyev *)self;

	return PyUnicode_FromFormat("<PerfEvent %s cpu=%u pid=%u tid=%u time=%llu>", e->ev->name,
				    e->smp.cpu, e->smp.pid, e->smp.tid,
				    (unsigned long long)e->smp.time);
}

static void pyev_dealloc(PyObject *self)
{
	struct pyev *e = (struct pyev *)self;

	free(e->copy);
	Py_XDECREF(e->row);
	Py_XDECREF(e->name);
	Py_XDECREF(e->fields);
	Py_TYPE(self)->tp_free(self);
}

static PyMethodDef pyev_methods[] = {
	{ "get", (PyCFunction)(void (*)(void))pyev_get, METH_FASTCALL,
	  "get(name, default=None): the member, or default" },
	{ "keys", pyev_keys, METH_NOARGS, "the names of the members" },
	{ "values", pyev_values, METH_NOARGS, "the values of the members" },
	{ "items", pyev_items, METH_NOARGS, "[(name, value)] of the members" },
	{ "to_dict", pyev_to_dict, METH_NOARGS, "the members as a dict" },
	{ "print", pyev_print, METH_NOARGS, "print the event as 'perf-prof trace' does" },
	{ NULL, NULL, 0, NULL },
};

static PyMappingMethods pyev_mapping = {
	.mp_length = pyev_len,
	.mp_subscript = pyev_subscript,
};

static PySequenceMethods pyev_sequence = {
	.sq_contains = pyev_contains,
};

static PyTypeObject pyev_type = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "perf_prof.PerfEvent",
	.tp_basicsize = sizeof(struct pyev),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "An event: its fields as attributes (event.pid, event['pid']) and _pid, _tid,\n"
		  "_time, _cpu, _period, _realtime, _event (in __sample__), _callchain (with -g).",
	.tp_dealloc = pyev_dealloc,
	.tp_getattro = pyev_getattro,
	.tp_as_mapping = &pyev_mapping,
	.tp_as_sequence = &pyev_sequence,
	.tp_iter = pyev_iter,
	.tp_methods = pyev_methods,
	.tp_repr = pyev_repr,
};

struct pyev *pyev__new(struct py_prof *pp, struct evsel *ev, struct py_slot *slot,
		       struct sample *smp, bool named)
{
	struct pyev *e = pp->spare;

	if (e)
		pp->spare = NULL;
	else if (!(e = PyObject_New(struct pyev, &pyev_type)))
		return NULL;
	e->pp = pp;
	e->ev = ev;
	e->name = Py_XNewRef(slot->name);
	e->fields = Py_XNewRef(slot->fields);
	e->smp = *smp;
	e->named = named;
	e->copy = NULL;
	e->row = NULL;
	return e;
}

/* Copy @n bytes at *@p into @buf at @off, and point *@p there. */
static void keep(char *buf, size_t *off, const void **p, size_t n)
{
	if (!*p)
		return;
	memcpy(buf + *off, *p, n);
	*p = buf + *off;
	*off += (n + 7) & ~(size_t)7;
}

void pyev__release(struct py_prof *pp, struct pyev *e)
{
	struct sample *smp = &e->smp;
	size_t n = 0, off = 0;
	char *buf;

	if (Py_REFCNT(e) == 1) {
		Py_XDECREF(pp->spare);
		Py_CLEAR(e->row);
		Py_CLEAR(e->name);
		Py_CLEAR(e->fields);
		pp->spare = e;
		return;
	}
	/* kept by the script: the record's arrays outlive the ring buffer's */
	n = ((size_t)smp->raw_size + 7) + smp->nr_ips * 8 + (size_t)smp->nr_regs * 8 +
	    (size_t)smp->nr_intr * 8 + ((size_t)smp->stack_size + 7);
	buf = malloc(n ? n : 1);
	if (!buf) { /* nothing to point to: no fields, no stack */
		smp->raw = NULL, smp->raw_size = 0, smp->ips = NULL, smp->nr_ips = 0;
		smp->regs = NULL, smp->nr_regs = 0, smp->stack = NULL, smp->stack_size = 0;
		smp->intr_regs = NULL, smp->nr_intr = 0;
	} else {
		keep(buf, &off, &smp->raw, smp->raw_size);
		keep(buf, &off, (const void **)&smp->ips, smp->nr_ips * 8);
		keep(buf, &off, (const void **)&smp->regs, (size_t)smp->nr_regs * 8);
		keep(buf, &off, (const void **)&smp->intr_regs, (size_t)smp->nr_intr * 8);
		keep(buf, &off, &smp->stack, smp->stack_size);
	}
	smp->read_values = NULL;
	smp->read_nr = 0;
	e->copy = buf;
	Py_DECREF(e);
}

/* sys.stdout: the profiler's output (session__out), a C stream. */
struct pyout {
	PyObject_HEAD struct py_prof *pp;
};

static FILE *out_of(PyObject *self)
{
	return session__out(((struct pyout *)self)->pp->s);
}

static PyObject *pyout_write(PyObject *self, PyObject *arg)
{
	Py_ssize_t n;
	const char *p;

	if (!PyUnicode_Check(arg)) {
		PyErr_Format(PyExc_TypeError, "write() argument must be str, not %.100s",
			     Py_TYPE(arg)->tp_name);
		return NULL;
	}
	p = PyUnicode_AsUTF8AndSize(arg, &n);
	if (!p)
		return NULL;
	fwrite_unlocked(p, 1, (size_t)n, out_of(self));
	return PyLong_FromSsize_t(PyUnicode_GET_LENGTH(arg));
}

static PyObject *pyout_flush(PyObject *self, PyObject *unused)
{
	(void)unused;
	fflush(out_of(self));
	Py_RETURN_NONE;
}

static PyObject *pyout_fileno(PyObject *self, PyObject *unused)
{
	int fd = fileno(out_of(self));

	(void)unused;
	if (fd < 0) {
		PyErr_SetString(PyExc_OSError, "the output has no file descriptor yet");
		return NULL;
	}
	return PyLong_FromLong(fd);
}

static PyObject *pyout_isatty(PyObject *self, PyObject *unused)
{
	int fd = fileno(out_of(self));

	(void)unused;
	return PyBool_FromLong(fd >= 0 && isatty(fd));
}

static PyObject *pyout_true(PyObject *self, PyObject *unused)
{
	(void)self, (void)unused;
	Py_RETURN_TRUE;
}

static PyObject *pyout_false(PyObject *self, PyObject *unused)
{
	(void)self, (void)unused;
	Py_RETURN_FALSE;
}

static PyObject *pyout_encoding(PyObject *self, void *unused)
{
	(void)self, (void)unused;
	return PyUnicode_FromString("utf-8");
}

static PyObject *pyout_errors(PyObject *self, void *unused)
{
	(void)self, (void)unused;
	return PyUnicode_FromString("strict");
}

static PyObject *pyout_closed(PyObject *self, void *unused)
{
	(void)self, (void)unused;
	Py_RETURN_FALSE;
}

static PyMethodDef pyout_methods[] = {
	{ "write", pyout_write, METH_O, "write a str to perf-prof's output" },
	{ "flush", pyout_flush, METH_NOARGS, "flush perf-prof's output" },
	{ "fileno", pyout_fileno, METH_NOARGS, "the output's file descriptor" },
	{ "isatty", pyout_isatty, METH_NOARGS, "whether the output is a terminal" },
	{ "writable", pyout_true, METH_NOARGS, "True" },
	{ "readable", pyout_false, METH_NOARGS, "False" },
	{ "seekable", pyout_false, METH_NOARGS, "False" },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef pyout_getset[] = {
	{ "encoding", pyout_encoding, NULL, NULL, NULL },
	{ "errors", pyout_errors, NULL, NULL, NULL },
	{ "closed", pyout_closed, NULL, NULL, NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyTypeObject pyout_type = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "perf_prof.Output",
	.tp_basicsize = sizeof(struct pyout),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "perf-prof's output (stdout, or -o FILE): sys.stdout",
	.tp_methods = pyout_methods,
	.tp_getset = pyout_getset,
};

PyObject *pyout__new(struct py_prof *pp)
{
	struct pyout *o = PyObject_New(struct pyout, &pyout_type);

	if (o)
		o->pp = pp;
	return (PyObject *)o;
}

static struct PyModuleDef pp_module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "perf_prof",
	.m_doc = "perf-prof's event object (PerfEvent) and output stream",
	.m_size = -1,
};

PyObject *pyev__module_init(void)
{
	PyObject *m;

	if (PyType_Ready(&pyev_type) < 0 || PyType_Ready(&pyout_type) < 0)
		return NULL;
	m = PyModule_Create(&pp_module);
	if (!m)
		return NULL;
	Py_INCREF(&pyev_type);
	Py_INCREF(&pyout_type);
	if (PyModule_AddObject(m, "PerfEvent", (PyObject *)&pyev_type) ||
	    PyModule_AddObject(m, "Output", (PyObject *)&pyout_type)) {
		Py_DECREF(m);
		return NULL;
	}
	json_loads = NULL;
	return m;
}
