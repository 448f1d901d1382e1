// SPDX-License-Identifier: GPL-2.0
/*
 * perf-prof --symbols BINARY: what gperftools' heap checker expects of
 * "$PPROF_PATH --symbols ARGV0": stdin carries the process's
 * /proc/self/maps, then one "0xADDR" per line; stdout gets one line per
 * address, in the same order, with pprof's short function name or "??".
 * The heap checker pairs the answers with its addresses by their order, so
 * a line that is neither a maps line nor an address is taken for a bad
 * address: reported on stderr and answered "??", never dropped.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/procfs.h"
#include "sym/elfsyms.h"
#include "sym/maps.h"
#include "sym/stack.h"

/* an input line's question: an address, or a bad line (answered "??") */
struct query {
	u64 addr;
	bool bad;
};

/* Does s[0..end) end with the keyword "operator" (conversion operators)? */
static bool ends_with_operator(const char *s, size_t end)
{
	while (end > 0 && isspace((unsigned char)s[end - 1]))
		end--;
	if (end < 8 || strncmp(s + end - 8, "operator", 8))
		return false;
	return end == 8 || !(isalnum((unsigned char)s[end - 9]) || s[end - 9] == '_');
}

/*
 * pprof's ShortFunctionName: no argument lists, no template arguments, no
 * return type.  Unlike pprof, the type after "operator" in a conversion
 * operator ("ns::C::operator std::string") is not taken for a return type.
 */
void symbols__short_name(const char *full, char *out, size_t size)
{
	size_t len = strlen(full), i, j;
	char *s = strndup(full, len);
	bool changed;

	if (!s) {
		snprintf(out, size, "%s", full);
		return;
	}
	do { /* innermost "(...)" with an optional " const" after it */
		char *o = NULL, *c;

		changed = false;
		for (c = s; *c; c++) {
			if (*c == '(')
				o = c;
			else if (*c == ')' && o) {
				char *e = c + 1, *k = e;

				while (isspace((unsigned char)*k))
					k++;
				if (!strncmp(k, "const", 5))
					e = k + 5;
				memmove(o, e, strlen(e) + 1);
				changed = true;
				break;
			}
		}
	} while (changed);
	do {
		char *o = NULL, *c;

		changed = false;
		for (c = s; *c; c++) {
			if (*c == '<')
				o = c;
			else if (*c == '>' && o) {
				memmove(o, c + 1, strlen(c + 1) + 1);
				changed = true;
				break;
			}
		}
	} while (changed);
	/* the last "<space>word::" starts the name: drop a return type before it */
	len = strlen(s);
	for (i = len; i-- > 0;) {
		if (!isspace((unsigned char)s[i]))
			continue;
		for (j = i + 1; isspace((unsigned char)s[j]); j++)
			;
		if (isalnum((unsigned char)s[j]) || s[j] == '_') {
			size_t w = j;

			while (isalnum((unsigned char)s[w]) || s[w] == '_')
				w++;
			if (s[w] == ':' && s[w + 1] == ':' && !ends_with_operator(s, i)) {
				memmove(s, s + j, len - j + 1);
				break;
			}
		}
	}
	snprintf(out, size, "%s", s);
	free(s);
}

/*
 * pprof takes a line as an address when it holds a word "0x<hex>".  1, or
 * 0 for no such word, or -ERANGE for one of more than 64 bits.
 */
static int parse_addr(const char *line, u64 *addr)
{
	const char *p;

	for (p = line; *p; p++) {
		const char *h = p + 2, *e = h, *z;

		if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
			continue;
		if (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		while (isxdigit((unsigned char)*e))
			e++;
		if (e == h || isalnum((unsigned char)*e) || *e == '_')
			continue;
		for (z = h; z < e - 1 && *z == '0'; z++)
			;
		if (e - z > 16)
			return -ERANGE;
		*addr = strtoull(h, NULL, 16);
		return 1;
	}
	return 0;
}

/* A line of /proc/PID/maps ("start-end perms offset ...")? */
static bool maps_line(const char *line)
{
	struct maps_line l;
	char *copy = strdup(line);
	bool ok = copy && !procfs__maps_line(copy, &l) && l.start < l.end;

	free(copy);
	return ok;
}

int symbols__check(const char *binary, char *why, size_t len)
{
	struct stat st;
	int fd, err;

	if (stat(binary, &st)) {
		err = -errno;
		snprintf(why, len, "%s", strerror(errno));
		return err;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(why, len, "%s", strerror(EISDIR));
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, len, "not a regular file");
		return -EINVAL;
	}
	if (!st.st_size) {
		snprintf(why, len, "empty file");
		return -ENOEXEC;
	}
	fd = open(binary, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(why, len, "%s", strerror(errno));
		return err;
	}
	err = elfsyms__check_fd(fd, why, len);
	close(fd);
	if (err && err != -ENOEXEC)
		snprintf(why, len, "%s", strerror(-err));
	return err;
}

/* "stdin line N: WHAT: 'TEXT'" with TEXT cut short and its odd bytes escaped. */
static void report_line(FILE *err, size_t nr, const char *what, const char *text, size_t len)
{
	size_t i;

	if (!err)
		return;
	fprintf(err, "perf-prof --symbols: stdin line %zu: %s: '", nr, what);
	for (i = 0; i < len && i < SYMBOLS_SHOW_TEXT; i++) {
		unsigned char c = text[i];

		if (c < 0x20 || c >= 0x7f || c == '\'' || c == '\\')
			fprintf(err, "\\x%02x", c);
		else
			fputc(c, err);
	}
	fprintf(err, "'%s\n", len > SYMBOLS_SHOW_TEXT ? "..." : "");
}

/*
 * One line of input: a maps line (into @mf), an address or a bad line
 * (into @qs, reported on @err), or blank (ignored).
 */
static int take_line(char *line, size_t len, size_t nr, FILE *mf, struct query **qs, size_t *cap,
		     FILE *err, struct symbols_stats *ss)
{
	const char *what = NULL;
	size_t n = len, i;
	u64 a = 0;
	int r = 0;

	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	for (i = 0; i < n && isspace((unsigned char)line[i]); i++)
		;
	if (i == n)
		return 0;
	if (memchr(line, '\0', n)) {
		what = "a NUL byte";
	} else {
		line[n] = '\0';
		if (maps_line(line)) {
			fprintf(mf, "%s\n", line);
			ss->maps++;
			return 0;
		}
		r = parse_addr(line, &a);
		what = r < 0 ? "address of more than 64 bits"
		       : r   ? NULL
			     : "not a 0x address or a maps line";
	}
	if (ss->addrs + ss->bad == *cap) {
		size_t c = *cap ? *cap * 2 : 256;
		struct query *p = realloc(*qs, c * sizeof(*p));

		if (!p)
			return -ENOMEM;
		*qs = p;
		*cap = c;
	}
	(*qs)[ss->addrs + ss->bad] = (struct query){ a, what != NULL };
	if (what) {
		ss->bad++;
		if (ss->bad <= SYMBOLS_SHOW_BAD)
			report_line(err, nr, what, line, n);
		if (!ss->first_bad)
			ss->first_bad = nr;
		return 0;
	}
	ss->addrs++;
	return 0;
}

int symbols__main(const char *binary, FILE *in, FILE *out, FILE *errf, struct symbols_stats *ss)
{
	char *maps_text = NULL, *line = NULL, name[4096];
	size_t maps_len = 0, cap = 0, lcap = 0, nr, i, n_in;
	struct symbols_stats dummy;
	struct elfsyms *bin = NULL;
	struct dso_cache *dc;
	struct maps *m = NULL;
	ssize_t len;
	FILE *mf;
	struct query *qs = NULL;
	int err = 0, nmaps = 0;
	bool bin_tried = false;

	if (!ss)
		ss = &dummy;
	*ss = (struct symbols_stats){ 0 };
	if (!binary || !in || !out)
		return -EINVAL;
	mf = open_memstream(&maps_text, &maps_len);
	if (!mf)
		return -errno;
	for (nr = 1; (len = getline(&line, &lcap, in)) > 0; nr++) {
		err = take_line(line, len, nr, mf, &qs, &cap, errf, ss);
		if (err) {
			fclose(mf);
			goto out;
		}
	}
	if (ferror(in))
		err = -EIO;
	fclose(mf);
	if (err)
		goto out;
	if (errf && ss->bad > SYMBOLS_SHOW_BAD)
		fprintf(errf, "perf-prof --symbols: %zu bad lines on stdin (the first %d shown)\n",
			ss->bad, SYMBOLS_SHOW_BAD);
	n_in = ss->addrs + ss->bad;
	dc = dso_cache__new();
	m = dc ? maps__new(dc) : NULL;
	if (!m) {
		dso_cache__delete(dc);
		err = -ENOMEM;
		goto out;
	}
	if (maps_len) {
		FILE *fp = fmemopen(maps_text, maps_len, "r");

		if (fp) {
			nmaps = maps__load_text(m, 0, fp);
			fclose(fp);
		}
	}
	for (i = 0; i < n_in; i++) {
		struct resolved r = { 0 };

		if (qs[i].bad) {
			fputs("??\n", out);
			continue;
		}
		/* pid 0: the maps above, files opened by their plain path */
		if (nmaps > 0)
			maps__resolve(m, 0, qs[i].addr, qs[i].addr, &r);
		if (!r.sym && !r.dso) {
			/* no mapping: a link-time address of BINARY */
			if (!bin && !bin_tried) {
				int e = elfsyms__open(binary, &bin);

				/* pprof wants ?? lines, but a person wants to know why */
				bin_tried = true;
				if (e) {
					bin = NULL;
					sym__warn("no symbols for %s: %s", binary,
						  e == -ENOEXEC ? "not an ELF file" : strerror(-e));
				}
			}
			if (bin) {
				const struct sym *s = elfsyms__find(bin, qs[i].addr);

				r.sym = s ? s->name : NULL;
			}
		}
		if (r.sym) {
			symbols__short_name(r.sym, name, sizeof(name));
			fprintf(out, "%s\n", name);
		} else {
			fputs("??\n", out);
		}
	}
	if (fflush(out))
		err = -errno;
	elfsyms__delete(bin);
	maps__delete(m);
	dso_cache__delete(dc);
out:
	free(line);
	free(qs);
	free(maps_text);
	return err;
}
