// SPDX-License-Identifier: GPL-2.0
/* The man pages' hand-written markup (cli/roff.h) to roff. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/roff.h"

int mdoc__read(const char *path, struct mdoc *d, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "r");
	char *p;
	size_t n = 0, cap = 0;
	int c;

	memset(d, 0, sizeof(*d));
	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((c = getc(fp)) != EOF) {
		if (n + 2 > cap) {
			char *nb = realloc(d->buf, cap = cap ? cap * 2 : 4096);

			if (!nb) {
				fclose(fp);
				snprintf(err, errlen, "%s: out of memory", path);
				return -1;
			}
			d->buf = nb;
		}
		d->buf[n++] = (char)c;
	}
	fclose(fp);
	if (!d->buf || !n) {
		snprintf(err, errlen, "%s: empty", path);
		return -1;
	}
	d->buf[n] = 0;
	/* sections: "# TITLE" at the start of a line */
	for (p = d->buf; p && *p;) {
		char *eol = strchr(p, '\n');

		if (p[0] == '#' && p[1] == ' ') {
			if (d->n == MDOC_MAX_SECS) {
				snprintf(err, errlen, "%s: more than %d sections", path,
					 MDOC_MAX_SECS);
				return -1;
			}
			if (eol)
				*eol = 0;
			if (d->n)
				p[-1] = 0; /* ends the previous body */
			d->sec[d->n].title = p + 2;
			d->sec[d->n++].body = eol ? eol + 1 : "";
		} else if (!d->n && strspn(p, " \t") != (size_t)(eol ? eol - p : (long)strlen(p))) {
			snprintf(err, errlen, "%s: text before the first '# SECTION' line", path);
			return -1;
		}
		p = eol ? eol + 1 : NULL;
	}
	return 0;
}

void mdoc__free(struct mdoc *d)
{
	free(d->buf);
	memset(d, 0, sizeof(*d));
}

const char *mdoc__section(const struct mdoc *d, const char *title)
{
	for (int i = 0; i < d->n; i++)
		if (!strcmp(d->sec[i].title, title))
			return d->sec[i].body;
	return NULL;
}

/* One character of text, escaped; returns the bytes it took from @s. */
static int put_char(FILE *out, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned int cp;
	int len;

	if (*u < 0x80) {
		if (*u == '\\')
			fputs("\\e", out);
		else if (*u == '-')
			fputs("\\-", out);
		else if (*u == '\t')
			fputs("    ", out);
		else
			fputc(*u, out);
		return 1;
	}
	/* UTF-8: named by code point, so the page is plain ASCII */
	if ((*u & 0xe0) == 0xc0)
		cp = *u & 0x1f, len = 2;
	else if ((*u & 0xf0) == 0xe0)
		cp = *u & 0x0f, len = 3;
	else if ((*u & 0xf8) == 0xf0)
		cp = *u & 0x07, len = 4;
	else
		return fputs("?", out), 1;
	for (int i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return fputs("?", out), 1;
		cp = cp << 6 | (u[i] & 0x3f);
	}
	fprintf(out, "\\[u%04X]", cp);
	return len;
}

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* *word*: an opening star after a space or a bracket, before a letter. */
static const char *emph_end(const char *start, const char *s)
{
	const char *e;

	if (s > start && !strchr(" ([\"'", s[-1]))
		return NULL;
	if (!word_char(s[1]))
		return NULL;
	for (e = s + 1; *e && *e != '*' && *e != '`'; e++)
		;
	if (*e != '*' || !word_char(e[-1]) || word_char(e[1]))
		return NULL;
	return e;
}

void roff__text(FILE *out, const char *s, int markup)
{
	const char *start = s, *e;

	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	while (*s) {
		if (markup && *s == '`' && (e = strchr(s + 1, '`'))) {
			fputs("\\fB", out);
			for (s++; s < e;)
				s += put_char(out, s);
			fputs("\\fR", out);
			s = e + 1;
		} else if (markup && *s == '*' && (e = emph_end(start, s))) {
			fputs("\\fI", out);
			for (s++; s < e;)
				s += put_char(out, s);
			fputs("\\fR", out);
			s = e + 1;
		} else {
			s += put_char(out, s);
		}
	}
}

/* One line of text (leading blanks dropped: roff would break there). */
static void text_line(FILE *out, const char *s)
{
	s += strspn(s, " \t");
	roff__text(out, s, 1);
	fputc('\n', out);
}

enum mode { M_NONE, M_PARA, M_ITEM, M_DEF };

int roff__body(FILE *out, const char *body, char *err, size_t errlen)
{
	char *copy = strdup(body), *line, *next;
	enum mode mode = M_NONE;
	bool verbatim = false, blank = false, fresh = true; /* fresh: after .SH or .SS */
	int ret = 0;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (line = copy; line; line = next) {
		size_t ind = strspn(line, " \t");

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (!next && !*line)
			break; /* the newline at the end */
		if (verbatim) {
			if (!strncmp(line, "```", 3)) {
				fputs(".fi\n.RE\n", out);
				verbatim = false;
			} else if (!*line) {
				fputs("\\&\n", out);
			} else {
				roff__text(out, line, 0);
				fputc('\n', out);
			}
			continue;
		}
		if (!strncmp(line + ind, "```", 3)) {
			/* at the left margin after a blank line: out of a list */
			if (fresh) {
				fputs(".RS 4\n.nf\n", out);
			} else if (!ind && (mode == M_NONE || blank)) {
				fputs(".PP\n.RS 4\n.nf\n", out);
				mode = M_PARA;
			} else {
				fputs(".sp\n.RS 4\n.nf\n", out);
			}
			if (mode == M_NONE)
				mode = M_PARA;
			verbatim = true;
			blank = false;
			fresh = false;
			continue;
		}
		if (ind == strlen(line)) {
			blank = true;
			continue;
		}
		if (!strncmp(line, "## ", 3)) {
			fputs(".SS ", out);
			text_line(out, line + 3);
			mode = M_NONE;
			blank = false;
			fresh = true;
			continue;
		}
		if (!strncmp(line, "- ", 2)) {
			fputs(".IP \\(bu 2\n", out);
			text_line(out, line + 2);
			mode = M_ITEM;
		} else if (!ind && next && !strncmp(next, ": ", 2)) {
			fputs(".TP\n", out);
			text_line(out, line);
			mode = M_DEF;
		} else if (!ind && !strncmp(line, ": ", 2) && mode == M_DEF && !blank) {
			text_line(out, line + 2);
		} else if (ind && (mode == M_ITEM || mode == M_DEF)) {
			if (blank)
				fputs(".IP\n", out);
			text_line(out, line);
		} else {
			if ((mode != M_PARA || blank) && !fresh)
				fputs(".PP\n", out);
			mode = M_PARA;
			text_line(out, line);
		}
		blank = false;
		fresh = false;
	}
	if (verbatim) {
		snprintf(err, errlen, "a ``` block is not closed");
		ret = -1;
	}
	free(copy);
	return ret;
}
