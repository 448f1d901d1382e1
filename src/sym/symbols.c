// SPDX-License-Identifier: GPL-2.0
/*
 * perf-prof --symbols BINARY: what gperftools' heap checker expects of
 * "$PPROF_PATH --symbols ARGV0": stdin carries the process's
 * /proc/self/maps, then one "0xADDR" per line; stdout gets one line per
 * address, in the same order, with pprof's short function name or "??".
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sym/maps.h"
#include "sym/stack.h"

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

/* pprof takes a line as an address when it holds a word "0x<hex>". */
static bool parse_addr(const char *line, u64 *addr)
{
	const char *p;

	for (p = line; *p; p++) {
		const char *h = p + 2, *e = h;

		if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
			continue;
		if (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		while (isxdigit((unsigned char)*e))
			e++;
		if (e == h || isalnum((unsigned char)*e) || *e == '_')
			continue;
		*addr = strtoull(h, NULL, 16);
		return true;
	}
	return false;
}

int symbols__check(const char *binary, const char **why)
{
	struct elfsyms *es = NULL;
	struct stat st;
	int err;

	if (stat(binary, &st)) {
		err = -errno;
		*why = strerror(errno);
		return err;
	}
	if (S_ISDIR(st.st_mode)) {
		*why = strerror(EISDIR);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = "not a regular file";
		return -EINVAL;
	}
	if (!st.st_size) {
		*why = "empty file";
		return -ENOEXEC;
	}
	err = elfsyms__open(binary, &es);
	elfsyms__delete(es);
	if (err)
		*why = err == -ENOEXEC ? "not an ELF file" : strerror(-err);
	return err;
}

int symbols__main(const char *binary, FILE *in, FILE *out)
{
	char *maps_text = NULL, line[8192], name[4096];
	size_t maps_len = 0, nr = 0, cap = 0, i;
	struct elfsyms *bin = NULL;
	struct dso_cache *dc;
	struct maps *m = NULL;
	FILE *mf;
	u64 *addrs = NULL, a;
	int err = 0, nmaps = 0;
	bool bin_tried = false;

	if (!binary || !in || !out)
		return -EINVAL;
	mf = open_memstream(&maps_text, &maps_len);
	if (!mf)
		return -errno;
	while (fgets(line, sizeof(line), in)) {
		if (!parse_addr(line, &a)) {
			fputs(line, mf);
			continue;
		}
		if (nr == cap) {
			u64 *n = realloc(addrs, (cap = cap ? cap * 2 : 256) * sizeof(*n));

			if (!n) {
				err = -ENOMEM;
				fclose(mf);
				goto out;
			}
			addrs = n;
		}
		addrs[nr++] = a;
	}
	fclose(mf);
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
	for (i = 0; i < nr; i++) {
		struct resolved r = { 0 };

		/* pid 0: the maps above, files opened by their plain path */
		if (nmaps > 0)
			maps__resolve(m, 0, addrs[i], addrs[i], &r);
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
				const struct sym *s = elfsyms__find(bin, addrs[i]);

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
	free(addrs);
	free(maps_text);
	return err;
}
