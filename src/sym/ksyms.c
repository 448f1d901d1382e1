// SPDX-License-Identifier: GPL-2.0
/* /proc/kallsyms: "ADDR TYPE NAME[\t[MODULE]]" lines. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sym/ksyms.h"

#define KERNEL_DSO "[kernel.kallsyms]"
#define MAX_MODS 4096

/* fewer data symbols: a kernel without CONFIG_KALLSYMS_ALL (see ksyms__find_data) */
#define KSYMS_MIN_DATA 1000

struct ksyms {
	struct symtab *st;
	const char **mods; /* "[ext4]"; index 0 is the kernel */
	u32 nr_mods, cap_mods;
	char *path;	     /* read again for the data symbols */
	struct symtab *data; /* d, D, b, B, r, R: read at the first ksyms__find_data */
	bool data_tried;
};

static int mod_index(struct ksyms *ks, const char *name, size_t len)
{
	u32 i;

	/* modules come in runs, so the last one usually matches */
	for (i = ks->nr_mods; i-- > 1;) {
		const char *m = ks->mods[i];

		if (strlen(m) == len + 2 && !memcmp(m + 1, name, len))
			return i;
	}
	if (ks->nr_mods >= MAX_MODS)
		return 0;
	if (ks->nr_mods == ks->cap_mods) {
		u32 cap = ks->cap_mods * 2;
		const char **n = realloc(ks->mods, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		ks->mods = n;
		ks->cap_mods = cap;
	}
	{
		char buf[256];
		int n = snprintf(buf, sizeof(buf), "[%.*s]", (int)len, name);
		const char *s = symtab__strdup(ks->st, buf,
					       n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);

		if (!s)
			return -ENOMEM;
		ks->mods[ks->nr_mods] = s;
	}
	return ks->nr_mods++;
}

/* A variable's type: data, bss, read-only data (local or global). */
static bool data_type(char t)
{
	return t == 'd' || t == 'D' || t == 'b' || t == 'B' || t == 'r' || t == 'R';
}

/* A line into @st: code, or with @data the variables (not the linker's section bounds). */
static int parse_line(struct ksyms *ks, struct symtab *st, bool data, char *line, bool *nonzero)
{
	char *p = line, *name, *end;
	u64 addr = 0;
	int digits = 0, mod = 0;
	char type;

	for (; *p; p++, digits++) {
		int v;

		if (*p >= '0' && *p <= '9')
			v = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			v = *p - 'a' + 10;
		else
			break;
		addr = addr << 4 | v;
	}
	if (!digits || p[0] != ' ' || !p[1] || p[2] != ' ')
		return 0;
	type = p[1];
	/* only code appears in stacks */
	if (data ? !data_type(type) : type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	if (addr)
		*nonzero = true;
	name = p + 3;
	end = name + strcspn(name, "\t\n");
	if (*end == '\t' && end[1] == '[') {
		char *m = end + 2, *me = strchr(m, ']');

		if (me && me > m) {
			mod = mod_index(ks, m, me - m);
			if (mod < 0)
				return mod;
		}
	}
	if (end == name)
		return 0;
	/* __start_SECTION, __stop_SECTION: where sections begin and end, not variables */
	if (data && (!strncmp(name, "__start_", 8) || !strncmp(name, "__stop_", 7)))
		return 0;
	return symtab__add(st, addr, 0, name, end - name, mod ? 1 : 2, mod);
}

/* Every line of @fp into @st (code, or the variables with @data): 0 or -errno. */
static int read_lines(struct ksyms *ks, FILE *fp, struct symtab *st, bool data, bool *nonzero)
{
	char line[1024];
	int err;

	while (fgets(line, sizeof(line), fp)) {
		size_t len = strlen(line);

		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			int c;

			/* an absurdly long line: skip the rest of it */
			while ((c = getc(fp)) != EOF && c != '\n')
				;
			continue;
		}
		err = parse_line(ks, st, data, line, nonzero);
		if (err)
			return err;
	}
	return ferror(fp) ? -EIO : 0;
}

int ksyms__load(const char *path, struct ksyms **out)
{
	struct ksyms *ks;
	bool nonzero = false;
	FILE *fp;
	int err = 0;

	*out = NULL;
	fp = fopen(path ? path : "/proc/kallsyms", "re");
	if (!fp)
		return -errno;
	ks = calloc(1, sizeof(*ks));
	if (!ks || !(ks->st = symtab__new()) || !(ks->mods = malloc(64 * sizeof(*ks->mods))) ||
	    !(ks->path = strdup(path ? path : "/proc/kallsyms"))) {
		err = -ENOMEM;
		goto out;
	}
	ks->cap_mods = 64;
	ks->mods[0] = KERNEL_DSO;
	ks->nr_mods = 1;
	err = read_lines(ks, fp, ks->st, false, &nonzero);
	if (err)
		goto out;
	if (!nonzero) {
		err = -EPERM;
		goto out;
	}
	/* the last symbol has no successor: give it a page */
	symtab__finish(ks->st, 4096);
	*out = ks;
	ks = NULL;
out:
	fclose(fp);
	ksyms__delete(ks);
	return err;
}

void ksyms__delete(struct ksyms *ks)
{
	if (!ks)
		return;
	symtab__delete(ks->st);
	symtab__delete(ks->data);
	free(ks->mods);
	free(ks->path);
	free(ks);
}

const struct sym *ksyms__find_data(struct ksyms *ks, u64 addr, const char **dso)
{
	const struct sym *s = NULL;

	if (ks && !ks->data_tried) {
		FILE *fp = fopen(ks->path, "re");
		bool nonzero = false;

		ks->data_tried = true;
		ks->data = fp ? symtab__new() : NULL;
		if (ks->data && read_lines(ks, fp, ks->data, true, &nonzero)) {
			symtab__delete(ks->data);
			ks->data = NULL;
		}
		if (fp)
			fclose(fp);
		/* the last one has no successor: a page */
		if (ks->data)
			symtab__finish(ks->data, 4096);
		/*
		 * Without CONFIG_KALLSYMS_ALL kallsyms names a few section
		 * markers only (__init_begin, __bss_start, ...): an address
		 * would be named after a marker megabytes before it.  A kernel
		 * with its variables has tens of thousands: below
		 * KSYMS_MIN_DATA, no kernel data is named.
		 */
		if (ks->data && symtab__nr(ks->data) < KSYMS_MIN_DATA) {
			symtab__delete(ks->data);
			ks->data = NULL;
		}
	}
	if (ks && ks->data)
		s = symtab__find(ks->data, addr);
	if (dso)
		*dso = s && s->aux < ks->nr_mods ? ks->mods[s->aux] : KERNEL_DSO;
	return s;
}

const struct sym *ksyms__find(struct ksyms *ks, u64 addr, const char **dso)
{
	const struct sym *s = ks ? symtab__find(ks->st, addr) : NULL;

	if (dso)
		*dso = s && s->aux < ks->nr_mods ? ks->mods[s->aux] : KERNEL_DSO;
	return s;
}

size_t ksyms__nr(const struct ksyms *ks)
{
	return ks ? symtab__nr(ks->st) : 0;
}
