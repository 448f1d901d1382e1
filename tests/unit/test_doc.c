// SPDX-License-Identifier: GPL-2.0
/*
 * The man pages: the markup's conversion to roff (escapes, fonts, lists,
 * tagged paragraphs, verbatim blocks) and the checks of a page put together
 * from a table (cli/doc.h): an option without help, a missing section, an
 * undocumented -e attribute, a generated section written by hand, a
 * profiler without its page are errors.
 */
#include <stdlib.h>
#include <unistd.h>

#include "cli/doc.h"
#include "cli/roff.h"
#include "ut.h"

static char dir[] = "/tmp/pp-test-doc.XXXXXX";

/* roff__text(@in) as a string (static buffer). */
static const char *text(const char *in, int markup)
{
	static char buf[1024];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	roff__text(f, in, markup);
	fclose(f);
	return buf;
}

static char *body(const char *in, int *ret, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = roff__body(f, in, err, errlen);
	fclose(f);
	return buf;
}

static const char *write_md(const char *name, const char *content)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(content, f);
	fclose(f);
	return path;
}

static const struct popt own_good[] = {
	{ "flag", 'f', NULL, "a flag",
	  POPT_BIND_FLAG(
		  struct { bool f; }, f) },
	{ "size", 0, "N", "a size",
	  POPT_BIND_UINT(
		  struct { unsigned long long n; }, n) },
	{ 0 },
};
static const struct popt own_nohelp[] = {
	{ "quiet-one", 0, NULL, "",
	  POPT_BIND_FLAG(
		  struct { bool f; }, f) },
	{ 0 },
};
static const char *const attrs[] = { "key", "num", NULL };

static void fake(struct cli_doc *d, const struct popt *own)
{
	memset(d, 0, sizeof(*d));
	d->name = "fake";
	d->desc = "a fake profiler";
	d->synopsis = "perf-prof fake [-f] [--size N]";
	d->examples = "perf-prof fake -f\n  perf-prof fake --size 3";
	for (int i = 0; own[i].lname; i++)
		d->opts[d->nr_opts++] = (struct cli_doc_opt){ &own[i], NULL };
}

static const char *good_md = "# DESCRIPTION\nIt fakes.\n\n# OUTPUT\nLines.\n\n"
			     "# HOW IT COUNTS\nIt does not.\n";

/* doc__page into a string; *@ret its result. */
static char *page(const struct cli_doc *d, const char *md, int *ret, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	err[0] = 0;
	*ret = doc__page(d, md, "9.9", f, err, errlen);
	fclose(f);
	return buf;
}

int main(void)
{
	static struct cli_doc d;
	char err[1024], *out;
	int ret;

	if (!mkdtemp(dir))
		return 1;

	/* escapes and fonts */
	CHECK_STR(text("a-b\\c", 0), "a\\-b\\ec");
	CHECK_STR(text(".start", 0), "\\&.start");
	CHECK_STR(text("'quote", 0), "\\&'quote");
	CHECK_STR(text("use `-e X` here", 1), "use \\fB\\-e X\\fR here");
	CHECK_STR(text("an *emphasized* word", 1), "an \\fIemphasized\\fR word");
	CHECK_STR(text("a glob sched:* and nginx*", 1), "a glob sched:* and nginx*");
	CHECK_STR(text("2*3*4", 1), "2*3*4");
	CHECK_STR(text("`code` no markup", 0), "`code` no markup");
	CHECK_STR(text("caf\xc3\xa9 \xe2\x80\x94", 0), "caf\\[u00E9] \\[u2014]");

	/* blocks */
	out = body("para one\nstill one\n\npara two\n", &ret, err, sizeof(err));
	CHECK_INT(ret, 0);
	CHECK_STR(out, "para one\nstill one\n.PP\npara two\n");
	free(out);
	out = body("- item a\n  more a\n- item b\n", &ret, err, sizeof(err));
	CHECK_STR(out, ".IP \\(bu 2\nitem a\nmore a\n.IP \\(bu 2\nitem b\n");
	free(out);
	out = body("`--x`\n: does x\n  and more\n\nafter\n", &ret, err, sizeof(err));
	CHECK_STR(out, ".TP\n\\fB\\-\\-x\\fR\ndoes x\nand more\n.PP\nafter\n");
	free(out);
	out = body("text\n```\n.dot -x\n\n```\nend\n", &ret, err, sizeof(err));
	CHECK_STR(out, "text\n.sp\n.RS 4\n.nf\n\\&.dot \\-x\n\\&\n.fi\n.RE\nend\n");
	free(out);
	out = body("## Sub\ntext\n", &ret, err, sizeof(err));
	CHECK_STR(out, ".SS Sub\ntext\n");
	free(out);
	out = body("```\nnever closed\n", &ret, err, sizeof(err));
	CHECK_INT(ret, -1);
	CHECK(strstr(err, "not closed"), "%s", err);
	free(out);

	/* a page from a table and its hand-written part */
	fake(&d, own_good);
	out = page(&d, write_md("fake.man.md", good_md), &ret, err, sizeof(err));
	CHECK(ret == 0, "%s", err);
	CHECK(strstr(out, ".TH PERF\\-PROF\\-FAKE 1 \"\" \"perf\\-prof 9.9\""), "%s", out);
	CHECK(strstr(out, ".SH NAME\nperf\\-prof\\-fake \\- a fake profiler\n"), "%s", out);
	CHECK(strstr(out, ".TP\n\\fB\\-f\\fR, \\fB\\-\\-flag\\fR\na flag\n"), "%s", out);
	CHECK(strstr(out, ".TP\n\\fB\\-\\-size\\fR \\fIN\\fR\na size\n"), "%s", out);
	CHECK(strstr(out, ".SH EXAMPLES\n.RS 4\n.nf\nperf\\-prof fake \\-f\nperf\\-prof fake "),
	      "%s", out);
	/* sections in order: generated around the hand-written ones */
	CHECK(strstr(out, ".SH DESCRIPTION") < strstr(out, ".SH OPTIONS") &&
		      strstr(out, ".SH OPTIONS") < strstr(out, ".SH OUTPUT") &&
		      strstr(out, ".SH HOW IT COUNTS") < strstr(out, ".SH EXAMPLES") &&
		      strstr(out, ".SH EXAMPLES") < strstr(out, ".SH SEE ALSO"),
	      "%s", out);
	free(out);

	/* what must fail */
	fake(&d, own_nohelp);
	out = page(&d, write_md("fake.man.md", good_md), &ret, err, sizeof(err));
	CHECK_INT(ret, -1);
	CHECK(strstr(err, "option --quiet-one has no help text"), "%s", err);
	free(out);

	fake(&d, own_good);
	out = page(&d, write_md("fake.man.md", "# DESCRIPTION\nx\n# OUTPUT\ny\n"), &ret, err,
		   sizeof(err));
	CHECK_INT(ret, -1);
	CHECK(strstr(err, "no section HOW IT COUNTS"), "%s", err);
	free(out);

	d.command = true; /* a command needs no HOW IT COUNTS */
	out = page(&d, write_md("fake.man.md", "# DESCRIPTION\nx\n# OUTPUT\ny\n"), &ret, err,
		   sizeof(err));
	CHECK(ret == 0, "%s", err);
	free(out);
	d.command = false;

	out = page(&d,
		   write_md("fake.man.md", "# DESCRIPTION\nx\n# OUTPUT\n\n# HOW IT COUNTS\nz\n"),
		   &ret, err, sizeof(err));
	CHECK_INT(ret, -1);
	CHECK(strstr(err, "no section OUTPUT (or it is empty)"), "%s", err);
	free(out);

	out = page(&d, write_md("fake.man.md", "# OPTIONS\nmine\n# DESCRIPTION\nx\n"), &ret, err,
		   sizeof(err));
	CHECK_INT(ret, -1);
	CHECK(strstr(err, "section OPTIONS is generated"), "%s", err);
	free(out);

	out = page(&d, write_md("fake.man.md", "stray text\n# DESCRIPTION\nx\n"), &ret, err,
		   sizeof(err));
	CHECK_INT(ret, -1);
	CHECK(strstr(err, "text before the first"), "%s", err);
	free(out);

	d.ev_attrs = attrs;
	out = page(&d,
		   write_md("fake.man.md", "# DESCRIPTION\nx\n# EVENT ATTRIBUTES\n`key=EXPR`\n: "
					   "the key\n# OUTPUT\ny\n# HOW IT COUNTS\nz\n"),
		   &ret, err, sizeof(err));
	CHECK_INT(ret, -1);
	CHECK(strstr(err, "the -e attribute 'num' is not in its EVENT ATTRIBUTES"), "%s", err);
	free(out);
	out = page(&d,
		   write_md("fake.man.md", "# DESCRIPTION\nx\n# EVENT ATTRIBUTES\n`key=EXPR`\n: "
					   "the key\n\n`num=EXPR`\n: the number\n# OUTPUT\ny\n"
					   "# HOW IT COUNTS\nz\n"),
		   &ret, err, sizeof(err));
	CHECK(ret == 0, "%s", err);
	CHECK(strstr(out, ".SH OPTIONS") < strstr(out, ".SH EVENT ATTRIBUTES") &&
		      strstr(out, ".SH EVENT ATTRIBUTES") < strstr(out, ".SH OUTPUT"),
	      "%s", out);
	free(out);
	d.ev_attrs = NULL;

	unlink(write_md("fake.man.md", ""));
	out = page(&d, write_md("none.man.md", ""), &ret, err, sizeof(err));
	CHECK_INT(ret, -1);
	CHECK(strstr(err, "empty (fake needs its hand-written page)"), "%s", err);
	free(out);
	unlink(write_md("none.man.md", ""));
	out = page(&d, "/nonexistent/fake.man.md", &ret, err, sizeof(err));
	CHECK_INT(ret, -1);
	CHECK(strstr(err, "No such file or directory (fake needs its hand-written page)"), "%s",
	      err);
	free(out);

	rmdir(dir);
	return ut_done("test_doc");
}
