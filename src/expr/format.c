// SPDX-License-Identifier: GPL-2.0
/*
 * printf() and system() of the language: C's integer and string
 * conversions done here, one at a time, on the language's 64-bit values
 * (never a user format handed to the C library), and the shell run of
 * system() in a child of its own.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "expr/expr_int.h"

#define MAX_WIDTH 256	 /* of a conversion's width or precision */
#define MAX_COMMAND 4096 /* system()'s text, its NUL included */

struct spec {
	char flags[6];
	int width, prec; /* -1: none */
	int size;	 /* 4: int, 1: hh, 2: h, 8: l ll z j t */
	char conv;
};

/* The conversion at @f[@i] == '%': the index after it, or -1 with @why. */
static int spec_parse(const char *f, int len, int i, struct spec *sp, const char **why)
{
	int nf = 0;

	memset(sp, 0, sizeof(*sp));
	sp->width = sp->prec = -1;
	sp->size = 4;
	for (i++; i < len && strchr("-+ #0", f[i]) && f[i]; i++)
		if (nf < (int)sizeof(sp->flags) - 1 && !strchr(sp->flags, f[i]))
			sp->flags[nf++] = f[i];
	if (i < len && f[i] == '*') {
		*why = "'*' widths are not supported: write the number";
		return -1;
	}
	for (; i < len && f[i] >= '0' && f[i] <= '9'; i++) {
		sp->width = (sp->width < 0 ? 0 : sp->width) * 10 + f[i] - '0';
		if (sp->width > MAX_WIDTH) {
			*why = "a width over 256";
			return -1;
		}
	}
	if (i < len && f[i] == '.') {
		sp->prec = 0;
		if (i + 1 < len && f[i + 1] == '*') {
			*why = "'*' precisions are not supported: write the number";
			return -1;
		}
		for (i++; i < len && f[i] >= '0' && f[i] <= '9'; i++) {
			sp->prec = sp->prec * 10 + f[i] - '0';
			if (sp->prec > MAX_WIDTH) {
				*why = "a precision over 256";
				return -1;
			}
		}
	}
	if (i + 1 < len && f[i] == 'h' && f[i + 1] == 'h')
		sp->size = 1, i += 2;
	else if (i + 1 < len && f[i] == 'l' && f[i + 1] == 'l')
		sp->size = 8, i += 2;
	else if (i < len && f[i] == 'h')
		sp->size = 2, i++;
	else if (i < len && (f[i] == 'l' || f[i] == 'z' || f[i] == 'j' || f[i] == 't'))
		sp->size = 8, i++;
	if (i >= len) {
		*why = "a '%' without its conversion";
		return -1;
	}
	sp->conv = f[i];
	if (!f[i] || !strchr("diouxXcsp%", f[i])) {
		*why = strchr("eEfFgGaA", f[i]) && f[i]
			       ? "no floating point: the language's values are integers"
			       : "an unknown conversion (d i u x X o c s p %)";
		return -1;
	}
	return i + 1;
}

int fmt__check(const char *fmt, int len, struct node *const *args, int nargs, char *err,
	       size_t errlen, int *col)
{
	const char *why = NULL;
	struct spec sp;
	int i = 0, next, k = 0;

	while (i < len) {
		if (fmt[i] != '%') {
			i++;
			continue;
		}
		next = spec_parse(fmt, len, i, &sp, &why);
		if (next < 0) {
			snprintf(err, errlen, "%s", why);
			*col = i;
			return -1;
		}
		if (sp.conv != '%') {
			const struct node *a = k < nargs ? args[k] : NULL;

			if (!a) {
				snprintf(err, errlen, "more conversions than values (%d)", nargs);
				*col = i;
				return -1;
			}
			if (!a->any && sp.conv == 's' && !a->is_str && !a->ptr) {
				snprintf(err, errlen, "%%s of value %d, a number", k + 1);
				*col = i;
				return -1;
			}
			if (!a->any && sp.conv != 's' && a->is_str) {
				snprintf(err, errlen, "%%%c of value %d, a string", sp.conv, k + 1);
				*col = i;
				return -1;
			}
			k++;
		}
		i = next;
	}
	if (k != nargs) {
		snprintf(err, errlen, "%d value%s for %d conversion%s", nargs,
			 nargs == 1 ? "" : "s", k, k == 1 ? "" : "s");
		*col = len;
		return -1;
	}
	return 0;
}

struct sink {
	FILE *out; /* printf */
	char *buf; /* system: the command so far */
	size_t len, cap;
	bool over;  /* system: longer than its buffer */
	long count; /* bytes given */
};

static void put(struct sink *k, const char *s, size_t n)
{
	if (!n)
		return;
	k->count += (long)n;
	if (k->out) {
		fwrite(s, 1, n, k->out);
		return;
	}
	if (n >= k->cap - k->len) {
		k->over = true;
		return;
	}
	memcpy(k->buf + k->len, s, n);
	k->len += n;
	k->buf[k->len] = '\0';
}

static void pad(struct sink *k, int n)
{
	static const char spaces[] = "                                ";

	while (n > 0) {
		int m = n < (int)sizeof(spaces) - 1 ? n : (int)sizeof(spaces) - 1;

		put(k, spaces, (size_t)m);
		n -= m;
	}
}

/* %s: @s of @len bytes (up to a NUL), the precision and width applied. */
static void put_str(struct sink *k, const struct spec *sp, const char *s, u64 len)
{
	size_t n = strnlen(s, len);

	if (sp->prec >= 0 && (size_t)sp->prec < n)
		n = (size_t)sp->prec;
	if (!strchr(sp->flags, '-'))
		pad(k, sp->width - (int)n);
	put(k, s, n);
	if (strchr(sp->flags, '-'))
		pad(k, sp->width - (int)n);
}

/* One integer, %c or %p conversion of @v as C's printf gives it for the type @sp names. */
static void put_int(struct sink *k, const struct spec *sp, u64 v)
{
	char spec[24], tmp[2 * MAX_WIDTH + 32];
	int o, n;

	o = snprintf(spec, sizeof(spec), "%%%s", sp->flags);
	if (sp->width >= 0)
		o += snprintf(spec + o, sizeof(spec) - o, "%d", sp->width);
	if (sp->prec >= 0 && sp->conv != 'c' && sp->conv != 'p')
		o += snprintf(spec + o, sizeof(spec) - o, ".%d", sp->prec);
	if (sp->conv == 'c') {
		snprintf(spec + o, sizeof(spec) - o, "c");
		n = snprintf(tmp, sizeof(tmp), spec, (int)(unsigned char)v);
	} else if (sp->conv == 'p') {
		snprintf(spec + o, sizeof(spec) - o, "p");
		n = snprintf(tmp, sizeof(tmp), spec, (void *)(uintptr_t)v);
	} else {
		bool sgn = sp->conv == 'd' || sp->conv == 'i';

		snprintf(spec + o, sizeof(spec) - o, "ll%c", sp->conv);
		switch (sp->size) {
		case 1:
			v = sgn ? (u64)(s64)(signed char)v : (unsigned char)v;
			break;
		case 2:
			v = sgn ? (u64)(s64)(short)v : (unsigned short)v;
			break;
		case 4:
			v = sgn ? (u64)(s64)(int)v : (unsigned int)v;
			break;
		default:
			break;
		}
		n = sgn ? snprintf(tmp, sizeof(tmp), spec, (long long)v)
			: snprintf(tmp, sizeof(tmp), spec, (unsigned long long)v);
	}
	if (n > 0)
		put(k, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* The format (args[0], checked at compile time) with the values of this evaluation. */
static void run(struct expr *e, struct node *n, const struct expr_ctx *c, struct sink *k)
{
	const char *f = n->args[0]->str, *why, *s;
	int len = n->args[0]->len, i = 0, lit, next, arg = 1, slen;
	struct spec sp;
	u64 v, avail;

	while (i < len) {
		for (lit = i; i < len && f[i] != '%'; i++)
			;
		put(k, f + lit, (size_t)(i - lit));
		if (i >= len)
			break;
		next = spec_parse(f, len, i, &sp, &why);
		if (next < 0) /* never: checked at compile time */
			break;
		i = next;
		if (sp.conv == '%') {
			put(k, "%", 1);
			continue;
		}
		if (arg >= n->nargs)
			break;
		if (n->args[arg]->is_str) {
			s = eval__str(e, n->args[arg++], c, &slen);
			put_str(k, &sp, s, (u64)slen);
			continue;
		}
		v = eval__int(e, n->args[arg++], c);
		if (sp.conv != 's') {
			put_int(k, &sp, v);
			continue;
		}
		/* %s of a pointer: a string inside the record or one the language made */
		s = eval__span(e, c, v, &avail);
		if (!s) {
			e->faults.bad_reads++;
			continue;
		}
		put_str(k, &sp, s, avail);
	}
}

long fmt__print(struct expr *e, struct node *n, const struct expr_ctx *c)
{
	struct sink k = { .out = e->out };

	run(e, n, c, &k);
	return k.count;
}

/* The child of system(): default signals, nothing blocked, then the shell. */
static void child(const char *cmd, int out)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	sigset_t none;

	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (out > 1)
		dup2(out, 1);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	_exit(127);
}

u64 fmt__system(struct expr *e, struct node *n, const struct expr_ctx *c)
{
	char cmd[MAX_COMMAND];
	struct sink k = { .buf = cmd, .cap = sizeof(cmd) };
	int status, out;
	pid_t pid;

	cmd[0] = '\0';
	run(e, n, c, &k);
	if (k.over) /* never a command cut short */
		return (u64)-1;
	/* what was printed before comes before what it prints */
	fflush(e->out);
	if (e->out != stdout)
		fflush(stdout);
	out = fileno(e->out);
	pid = fork();
	if (pid < 0)
		return (u64)-1;
	if (!pid)
		child(cmd, out);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return (u64)-1;
	return (u64)(s64)status;
}
