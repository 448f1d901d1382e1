// SPDX-License-Identifier: GPL-2.0
/*
 * The expression lexer: C's integer and character literals, strings with
 * C escapes, identifiers and operators, skipping # and // comments.  Every
 * token knows its column so
 * that errors point at it.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr_int.h"

void lex__error(struct lexer *lx, int col, const char *fmt, ...)
{
	va_list ap;

	if (lx->failed)
		return;
	lx->failed = true;
	lx->err->col = col;
	va_start(ap, fmt);
	vsnprintf(lx->err->msg, sizeof(lx->err->msg), fmt, ap);
	va_end(ap);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One character of a char or string literal at lx->pos; -1 on error. */
static int lex_char(struct lexer *lx)
{
	const char *s = lx->text;
	int start = lx->pos, c = (unsigned char)s[lx->pos++], v, n;

	if (c != '\\')
		return c;
	c = (unsigned char)s[lx->pos];
	if (!c) {
		lex__error(lx, start, "unterminated escape");
		return -1;
	}
	lx->pos++;
	switch (c) {
	case 'n':
		return '\n';
	case 't':
		return '\t';
	case 'r':
		return '\r';
	case 'a':
		return '\a';
	case 'b':
		return '\b';
	case 'f':
		return '\f';
	case 'v':
		return '\v';
	case '\\':
	case '\'':
	case '"':
	case '?':
		return c;
	case 'x':
		v = 0;
		for (n = 0; n < 2 && hexval(s[lx->pos]) >= 0; n++)
			v = v * 16 + hexval(s[lx->pos++]);
		if (!n) {
			lex__error(lx, start, "\\x needs hex digits");
			return -1;
		}
		return v;
	default:
		if (c >= '0' && c <= '7') {
			v = c - '0';
			for (n = 1; n < 3 && s[lx->pos] >= '0' && s[lx->pos] <= '7'; n++)
				v = v * 8 + (s[lx->pos++] - '0');
			if (v > 255) {
				lex__error(lx, start, "octal escape out of range");
				return -1;
			}
			return v;
		}
		if (isprint(c))
			lex__error(lx, start, "unknown escape '\\%c'", c);
		else
			lex__error(lx, start, "unknown escape");
		return -1;
	}
}

static bool lex_number(struct lexer *lx, struct token *t)
{
	const char *s = lx->text;
	int p = lx->pos, base = 10, digits = 0;
	u64 v = 0;
	bool over = false;

	if (s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X')) {
		base = 16;
		p += 2;
	} else if (s[p] == '0') {
		base = 8;
	}
	for (;; p++) {
		int d = hexval(s[p]);

		if (d < 0 || (base == 10 && d > 9) || (base == 8 && d > 9))
			break;
		if (base == 8 && d > 7) {
			lex__error(lx, p, "bad digit '%c' in an octal number", s[p]);
			return false;
		}
		if (v > (~0ULL - d) / base)
			over = true;
		v = v * base + d;
		digits++;
	}
	if (!digits) {
		lex__error(lx, p, "hex number without digits");
		return false;
	}
	if (over) {
		lex__error(lx, lx->pos, "number too large for 64 bits");
		return false;
	}
	t->uns = v > (u64)INT64_MAX;
	while (s[p] == 'u' || s[p] == 'U' || s[p] == 'l' || s[p] == 'L') {
		if (s[p] == 'u' || s[p] == 'U')
			t->uns = true;
		p++;
	}
	if (isalnum((unsigned char)s[p]) || s[p] == '_') {
		lex__error(lx, p, "bad character '%c' in a number", s[p]);
		return false;
	}
	t->type = T_NUM;
	t->num = v;
	lx->pos = p;
	return true;
}

static bool lex_string(struct lexer *lx, struct token *t)
{
	int start = lx->pos++, cap = 16, n = 0, c;
	char *buf = malloc(cap);

	if (!buf) {
		lex__error(lx, -1, "out of memory");
		return false;
	}
	while (lx->text[lx->pos] != '"') {
		if (!lx->text[lx->pos]) {
			lex__error(lx, start, "unterminated string");
			free(buf);
			return false;
		}
		c = lex_char(lx);
		if (c < 0) {
			free(buf);
			return false;
		}
		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				lex__error(lx, -1, "out of memory");
				return false;
			}
			buf = nb;
			cap *= 2;
		}
		buf[n++] = (char)c;
	}
	lx->pos++;
	buf[n] = '\0';
	t->type = T_STR;
	t->str = buf;
	t->len = n;
	return true;
}

static bool lex_charlit(struct lexer *lx, struct token *t)
{
	int start = lx->pos++, c;

	if (lx->text[lx->pos] == '\'') {
		lex__error(lx, start, "empty character constant");
		return false;
	}
	if (!lx->text[lx->pos]) {
		lex__error(lx, start, "unterminated character constant");
		return false;
	}
	c = lex_char(lx);
	if (c < 0)
		return false;
	if (lx->text[lx->pos] != '\'') {
		lex__error(lx, start, "unterminated character constant");
		return false;
	}
	lx->pos++;
	t->type = T_NUM;
	t->num = (u64)(s64)(signed char)c; /* a char is signed on x86 */
	t->uns = false;
	return true;
}

/* Operators, longest first. */
static const struct {
	const char *s;
	enum tok_type t;
} ops[] = {
	{ "++", T_INC },    { "--", T_DEC },   { "<<", T_SHL },	  { ">>", T_SHR },
	{ "&&", T_ANDAND }, { "||", T_OROR },  { "==", T_EQ },	  { "!=", T_NE },
	{ "<=", T_LE },	    { ">=", T_GE },    { "+", T_PLUS },	  { "-", T_MINUS },
	{ "*", T_STAR },    { "/", T_SLASH },  { "%", T_PCT },	  { "&", T_AMP },
	{ "|", T_PIPE },    { "^", T_CARET },  { "~", T_TILDE },  { "!", T_BANG },
	{ "?", T_QUEST },   { ":", T_COLON },  { "<", T_LT },	  { ">", T_GT },
	{ "(", T_LPAREN },  { ")", T_RPAREN }, { "[", T_LBRACK }, { "]", T_RBRACK },
	{ ",", T_COMMA },   { "=", T_ASSIGN },
};

bool lex__next(struct lexer *lx, struct token *t)
{
	const char *s = lx->text;
	unsigned char c;

	for (;;) {
		while (isspace((unsigned char)s[lx->pos]))
			lx->pos++;
		/* '#' and '//' start a comment up to the end of the line */
		if (s[lx->pos] != '#' && (s[lx->pos] != '/' || s[lx->pos + 1] != '/'))
			break;
		while (s[lx->pos] && s[lx->pos] != '\n')
			lx->pos++;
	}
	memset(t, 0, sizeof(*t));
	t->pos = lx->pos;
	c = s[lx->pos];
	if (!c) {
		t->type = T_EOF;
	} else if (isdigit(c)) {
		if (!lex_number(lx, t))
			return false;
	} else if (c == '"') {
		if (!lex_string(lx, t))
			return false;
	} else if (c == '\'') {
		if (!lex_charlit(lx, t))
			return false;
	} else if (isalpha(c) || c == '_') {
		while (isalnum((unsigned char)s[lx->pos]) || s[lx->pos] == '_')
			lx->pos++;
		t->type = T_IDENT;
		t->str = NULL;
		t->len = lx->pos - t->pos;
	} else {
		size_t i;

		for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
			size_t n = strlen(ops[i].s);

			if (!strncmp(s + lx->pos, ops[i].s, n)) {
				t->type = ops[i].t;
				lx->pos += n;
				break;
			}
		}
		if (i == sizeof(ops) / sizeof(ops[0])) {
			if (isprint(c))
				lex__error(lx, lx->pos, "unexpected character '%c'", c);
			else
				lex__error(lx, lx->pos, "unexpected byte 0x%02x", c);
			return false;
		}
	}
	t->end = lx->pos;
	return true;
}

bool lex__bareword(struct lexer *lx, struct token *t)
{
	const char *s = lx->text;
	int start;

	while (isspace((unsigned char)s[lx->pos]))
		lx->pos++;
	start = lx->pos;
	memset(t, 0, sizeof(*t));
	t->pos = start;
	t->type = T_STR;
	if (s[start] == '\'' || s[start] == '"') { /* the kernel's quotes: no escapes */
		const char *q = strchr(s + start + 1, s[start]);

		if (!q) {
			lex__error(lx, start, "unterminated string");
			return false;
		}
		lx->pos = (int)(q - s) + 1;
		t->len = lx->pos - start - 2;
		t->str = strndup(s + start + 1, t->len);
	} else {
		while (s[lx->pos] && !isspace((unsigned char)s[lx->pos]) && s[lx->pos] != ')' &&
		       s[lx->pos] != '&' && s[lx->pos] != '|')
			lx->pos++;
		t->len = lx->pos - start;
		t->str = strndup(s + start, t->len);
	}
	t->end = lx->pos;
	if (!t->str) {
		lex__error(lx, -1, "out of memory");
		return false;
	}
	return true;
}
