// SPDX-License-Identifier: GPL-2.0
/* The stack group: what -g captures and how stacks print. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sym/stack.h"
#include "util/units.h"

static int parse_callgraph(struct capture_opts *c, const char *arg, char *err, size_t errlen)
{
	unsigned long long v;

	if (!strcmp(arg, "fp")) {
		c->cg = CG_FP;
		return 0;
	}
	if (!strncmp(arg, "dwarf", 5) && (arg[5] == 0 || arg[5] == ',')) {
		c->cg = CG_DWARF;
		if (arg[5] == ',') {
			if (units__parse_uint(arg + 6, 8, 65528, &v) || v % 8) {
				snprintf(err, errlen,
					 "bad dwarf stack size '%s' (a multiple of 8, 8..65528)",
					 arg + 6);
				return -1;
			}
			c->dwarf_size = (unsigned)v;
		}
		return 0;
	}
	snprintf(err, errlen, "bad --call-graph '%s' (expected fp or dwarf[,SIZE])", arg);
	return -1;
}

static int opt_g(void *data, const char *arg, char *err, size_t errlen)
{
	struct stack_opts *o = data;

	(void)arg, (void)err, (void)errlen;
	o->capture.cg = CG_FP;
	return 0;
}

/* --call-graph alone is -g (frame pointers); a value may be the next word */
static int opt_call_graph(void *data, const char *arg, char *err, size_t errlen)
{
	struct stack_opts *o = data;

	if (!arg) {
		o->capture.cg = CG_FP;
		return 0;
	}
	return parse_callgraph(&o->capture, arg, err, errlen);
}

/* "--call-graph dwarf", "--call-graph fp": the next word is the mode */
static bool callgraph_word(const char *word)
{
	return !strcmp(word, "fp") ||
	       (!strncmp(word, "dwarf", 5) && (word[5] == 0 || word[5] == ','));
}

static int opt_max_stack(void *data, const char *arg, char *err, size_t errlen)
{
	struct stack_opts *o = data;
	unsigned long long v;

	if (units__parse_uint(arg, 1, 1024, &v)) {
		snprintf(err, errlen, "bad --max-stack '%s' (1..1024)", arg);
		return -1;
	}
	o->capture.max_stack = (int)v;
	return 0;
}

#define PRINT_FLAG(fn, flag)                                                 \
	static int fn(void *data, const char *arg, char *err, size_t errlen) \
	{                                                                    \
		(void)arg, (void)err, (void)errlen;                          \
		((struct stack_opts *)data)->print |= (flag);                \
		return 0;                                                    \
	}
PRINT_FLAG(opt_no_addr, STACK_NO_ADDR)
PRINT_FLAG(opt_no_offset, STACK_NO_OFFSET)
PRINT_FLAG(opt_no_dso, STACK_NO_DSO)
PRINT_FLAG(opt_reverse, STACK_REVERSE)
PRINT_FLAG(opt_python, STACK_PYTHON)

/*
 * --python-callchain: needs -g's user frames, and a process given by -p
 * whose Python writes no perf map has no Python frames to show: refused.
 */
static int python_check(const struct stack_opts *o, const struct opt_set *set, char *err,
			size_t errlen)
{
	const struct target_opts *t = opt_set__get(set, &target_group);
	char path[96];

	if (o->capture.cg == CG_NONE || (o->print & STACK_KERNEL_ONLY)) {
		snprintf(err, errlen,
			 "--python-callchain shows the Python frames of user stacks: add -g "
			 "(with user frames)");
		return -1;
	}
	for (int i = 0; t && i < t->nr_pids; i++)
		if (stack__python_map(t->pids[i], path, sizeof(path)) == -ENOENT) {
			snprintf(err, errlen,
				 "--python-callchain: process %d has no %s (CPython 3.12+ "
				 "writes it when started with -X perf or PYTHONPERFSUPPORT=1)",
				 (int)t->pids[i], path);
			return -1;
		}
	return 0;
}

/* --user-stack, --no-kernel-callchain: what is not shown is not captured either */
static void user_only(struct stack_opts *o)
{
	o->print |= STACK_USER_ONLY;
	o->capture.no_kernel = true;
}

static void kernel_only(struct stack_opts *o)
{
	o->print |= STACK_KERNEL_ONLY;
	o->capture.no_user = true;
}

static int opt_user_stack(void *data, const char *arg, char *err, size_t errlen)
{
	(void)arg, (void)err, (void)errlen;
	user_only(data);
	return 0;
}

static int opt_kernel_stack(void *data, const char *arg, char *err, size_t errlen)
{
	(void)arg, (void)err, (void)errlen;
	kernel_only(data);
	return 0;
}

static int opt_no_kcallchain(void *data, const char *arg, char *err, size_t errlen)
{
	struct stack_opts *o = data;

	(void)arg, (void)err, (void)errlen;
	user_only(o);
	o->capture.halves_given = true;
	return 0;
}

static int opt_no_ucallchain(void *data, const char *arg, char *err, size_t errlen)
{
	struct stack_opts *o = data;

	(void)arg, (void)err, (void)errlen;
	kernel_only(o);
	o->capture.halves_given = true;
	return 0;
}

static int opt_ucallchain(void *data, const char *arg, char *err, size_t errlen)
{
	struct stack_opts *o = data;

	o->print &= ~STACK_KERNEL_ONLY;
	o->capture.no_user = false;
	o->capture.halves_given = true;
	/* --user-callchain=dwarf[,SIZE] is --call-graph dwarf[,SIZE] */
	return arg ? parse_callgraph(&o->capture, arg, err, errlen) : 0;
}

static int opt_kcallchain(void *data, const char *arg, char *err, size_t errlen)
{
	struct stack_opts *o = data;

	(void)arg, (void)err, (void)errlen;
	o->print &= ~STACK_USER_ONLY;
	o->capture.no_kernel = false;
	o->capture.halves_given = true;
	return 0;
}

static int stack_check(void *data, const struct opt_set *set, char *err, size_t errlen)
{
	const struct event_opts *ev = opt_set__get(set, &event_group);
	struct stack_opts *o = data;

	if ((o->print & STACK_USER_ONLY) && (o->print & STACK_KERNEL_ONLY)) {
		snprintf(err, errlen,
			 "no stack half left: --user-stack/--no-kernel-callchain and "
			 "--kernel-stack/--no-user-callchain exclude each other");
		return -1;
	}
	for (int i = 0; ev && i < ev->nr_specs; i++)
		if (ev->specs[i].stack && o->capture.cg == CG_NONE) {
			o->capture.cg = CG_FP;
			o->capture.by_attr = true;
		}
	if ((o->print & STACK_PYTHON) && python_check(o, set, err, errlen))
		return -1;
	if (o->capture.halves_given && o->capture.cg == CG_NONE) {
		snprintf(err, errlen,
			 "--[no-]user-callchain and --[no-]kernel-callchain choose what -g "
			 "captures: add -g (or a 'stack' event attribute)");
		return -1;
	}
	return 0;
}

static const struct popt stack_opts[] = {
	{ "call-graph-fp", 'g', NULL, "capture stacks (frame pointers)", POPT_CB, .cb = opt_g },
	{ "call-graph", 0, "[=fp|dwarf[,SIZE]]",
	  "stack capture mode (alone: fp, as -g; the mode may be the next word: --call-graph "
	  "dwarf); dwarf unwinds user stacks from a SIZE-byte copy (default 8192)",
	  POPT_CB, .cb = opt_call_graph, .takes_word = callgraph_word },
	{ "max-stack", 0, "N", "capture at most N frames", POPT_CB, .cb = opt_max_stack },
	{ "no-addr", 0, NULL, "stacks: hide addresses", POPT_CB, .cb = opt_no_addr },
	{ "no-offset", 0, NULL, "stacks: hide +0xOFF offsets", POPT_CB, .cb = opt_no_offset },
	{ "no-dso", 0, NULL, "stacks: hide (dso)", POPT_CB, .cb = opt_no_dso },
	{ "reverse-stack", 0, NULL, "stacks: outermost caller first", POPT_CB, .cb = opt_reverse },
	{ "user-stack", 0, NULL, "stacks: user frames only (kernel frames are not captured)",
	  POPT_CB, .cb = opt_user_stack },
	{ "kernel-stack", 0, NULL, "stacks: kernel frames only (user frames are not captured)",
	  POPT_CB, .cb = opt_kernel_stack },
	{ "user-callchain", 0, "[=dwarf[,SIZE]]",
	  "capture user frames (the default with -g); =dwarf unwinds them", POPT_CB,
	  .cb = opt_ucallchain },
	{ "no-user-callchain", 0, NULL, "capture no user frames (same as --kernel-stack)", POPT_CB,
	  .cb = opt_no_ucallchain },
	{ "kernel-callchain", 0, NULL, "capture kernel frames (the default with -g)", POPT_CB,
	  .cb = opt_kcallchain },
	{ "no-kernel-callchain", 0, NULL, "capture no kernel frames (same as --user-stack)",
	  POPT_CB, .cb = opt_no_kcallchain },
	{ "python-callchain", 0, NULL,
	  "user stacks: Python's frames (CPython -X perf's /tmp/perf-PID.map) in place of "
	  "the interpreter's",
	  POPT_CB, .cb = opt_python },
	{ 0 },
};

const struct opt_group stack_group = {
	.name = "stack",
	.opts = stack_opts,
	.size = sizeof(struct stack_opts),
	.check = stack_check,
};
