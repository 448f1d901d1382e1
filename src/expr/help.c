// SPDX-License-Identifier: GPL-2.0
/* 'help' as the expression: what an expression over an event can use. */
#include <event-parse.h>
#include <stdio.h>

#include "expr/expr_int.h"

static void fields(const struct tep_format_field *f, FILE *out)
{
	for (; f; f = f->next)
		fprintf(out, "    %-28s %s\n", f->name, f->type);
}

void expr__help(const struct evsel *ev, FILE *out)
{
	static const char *const vars[] = {
		"_cpu     the CPU of the event",
		"_pid     its process (thread group) id",
		"_tid     its thread id",
		"_time    its time stamp (ns)",
		"_period  its sample period",
		"key      in printkey= (top): the key of the row printed, a number or a string",
	};
	const struct func *fn;

	fprintf(out, "%s\n", ev->name);
	if (ev->tp) {
		fprintf(out, "  fields (name, C type):\n");
		fields(ev->tp->format.common_fields, out);
		fields(ev->tp->format.fields, out);
	}
	fprintf(out, "  variables:\n");
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		fprintf(out, "    %s\n", vars[i]);
	fprintf(out, "    any other name assigned (n++, x = pid): a variable of the expression, "
		     "0 at first, kept from one event to the next\n");
	fprintf(out, "  functions:\n");
	for (int i = 0; (fn = func__at(i)); i++)
		fprintf(out, "    %s\n", func__proto(fn));
	fprintf(out, "  operators, by precedence: x++ x-- x[i] f() | ++x --x + - ! ~ * & (type) "
		     "sizeof | * / %% | + - | << >> | < <= > >= | == != ~ (glob) | & | ^ | | | "
		     "&& | || | ?: | = | ,\n");
	fprintf(out, "  comments: from '#' or '//' to the end of the line\n");
}
