// SPDX-License-Identifier: GPL-2.0
/*
 * User-space filters for the engine: a filter the kernel refuses (a field
 * compared with a field, _cpu, a function call, ~ on a number) compiled in
 * this language, matched against each sample before the profiler sees it.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "engine/session.h"
#include "expr/expr.h"
#include "sym/ksyms.h"

struct ufilter {
	struct expr *e;
	struct ksyms *ksyms; /* for ksymbol(), loaded when the filter calls it */
};

static void *uf_compile(struct session *s, struct evsel *ev, const char *text, char *err,
			size_t errlen)
{
	struct ufilter *f = calloc(1, sizeof(*f));

	(void)s;
	if (!f)
		return NULL;
	f->e = expr__compile_filter(text, ev, err, errlen);
	if (!f->e) {
		free(f);
		return NULL;
	}
	if ((expr__uses(f->e) & EXPR_USES_KSYMS) && ksyms__load(NULL, &f->ksyms))
		f->ksyms = NULL; /* ksymbol() then gives "[unknown]" */
	return f;
}

static bool uf_match(void *priv, struct session *s, const struct sample *smp)
{
	struct ufilter *f = priv;
	struct expr_ctx ctx = {
		.smp = smp, .session = s, .ksyms = f->ksyms, .out = session__out(s)
	};

	return expr__match(f->e, &ctx);
}

static void uf_done(void *priv, struct session *s, struct evsel *ev)
{
	struct ufilter *f = priv;
	struct expr_faults faults;

	if (session__verbose(s) && ev->nr_ufiltered)
		session__warn(s, "filter '%s' on %s left out %" PRIu64 " samples in user space",
			      expr__text(f->e), ev->name, ev->nr_ufiltered);
	expr__faults(f->e, &faults);
	if (faults.bad_reads || faults.div_zero)
		session__warn(s,
			      "filter '%s' on %s: %" PRIu64 " reads outside the event, %" PRIu64
			      " divisions by zero (each read as 0)",
			      expr__text(f->e), ev->name, faults.bad_reads, faults.div_zero);
	expr__free(f->e);
	ksyms__delete(f->ksyms);
	free(f);
}

const struct user_filter_ops expr_user_filters = {
	.compile = uf_compile,
	.match = uf_match,
	.done = uf_done,
};
