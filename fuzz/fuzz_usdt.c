// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: USDT operands (the note's argument string, split on
 * spaces as probe_elf__usdt splits it) and the same bytes as an ELF file
 * for the probe lookups: notes with their operands, DT_NEEDED/RUNPATH,
 * functions and the "did you mean" scan.  The file may be anything.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sym/probe_elf.h"

static char path[64];
static int fd = -1;

static int any_sym(void *priv, const char *name, u64 *addr)
{
	(void)priv;
	if (!*name)
		abort(); /* the parser hands over a name only */
	*addr = strlen(name) * 0x1000;
	return name[0] == 'x' ? -ENOENT : 0;
}

static void check_arg(const struct usdt_arg *a)
{
	if (a->size != 1 && a->size != 2 && a->size != 4 && a->size != 8)
		abort();
	if (a->kind != USDT_ARG_IMM && a->kind != USDT_ARG_REG && a->kind != USDT_ARG_MEM)
		abort();
	if (a->reg < -1 || a->reg > 23 || a->index < -1 || a->index > 23)
		abort();
	if (a->kind == USDT_ARG_REG && (a->reg < 0 || a->reg == 8))
		abort(); /* no register, or %rip */
	if (a->index >= 0 && a->scale != 1 && a->scale != 2 && a->scale != 4 && a->scale != 8)
		abort();
}

static void operands(const uint8_t *data, size_t size)
{
	/* exactly @size bytes, no NUL: a read past them is an ASan report */
	char *text = malloc(size ? size : 1);
	struct usdt_arg a;
	size_t i = 0;

	if (!text)
		return;
	memcpy(text, data, size);
	while (i < size) {
		size_t e = i;

		while (e < size && text[e] != ' ')
			e++;
		if (e > i && !usdt_arg__parse(text + i, (int)(e - i), &a, any_sym, NULL))
			check_arg(&a);
		if (e > i && !usdt_arg__parse(text + i, (int)(e - i), &a, NULL, NULL))
			check_arg(&a);
		i = e + 1;
	}
	free(text);
}

static void lookups(struct probe_elf *pe)
{
	struct usdt_note *notes;
	struct probe_func f;
	char buf[128], **names;
	int nr, n;
	u64 off;

	if (!probe_elf__usdt(pe, "*", "*", &notes, &nr)) {
		for (int i = 0; i < nr; i++) {
			const struct usdt_note *u = &notes[i];

			if (!u->provider || !u->name || !u->args_text || u->nr_args < 0 ||
			    u->nr_args > USDT_MAX_ARGS || probe_elf__offset(pe, u->vaddr, &off) ||
			    off != u->offset)
				abort();
			for (int k = 0; k < u->nr_args; k++)
				check_arg(&u->args[k]);
		}
		usdt_notes__free(notes, nr);
	}
	n = probe_elf__needed(pe, &names);
	if (n >= 0) {
		for (int i = 0; i < n; i++)
			if (!names[i])
				abort();
		if (names[n])
			abort();
		probe_elf__free_list(names);
	}
	if (probe_elf__runpath(pe))
		(void)strlen(probe_elf__runpath(pe));
	if (!probe_elf__func(pe, "main", &f) &&
	    (probe_elf__offset(pe, f.vaddr, &off) || off != f.offset))
		abort();
	probe_elf__similar(pe, "mian", 3, buf, sizeof(buf));
	if (strlen(buf) >= sizeof(buf))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct probe_elf *pe = NULL;

	operands(data, size);
	if (fd < 0) {
		/*
		 * In memory (a file on ext4, truncated and rewritten, starts
		 * its writeback at each close: seconds on a busy host, over
		 * the -timeout); the path through /proc opens it.
		 */
		fd = memfd_create("fuzz_usdt", 0);
		if (fd < 0)
			return 0;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	if (!probe_elf__open(path, &pe)) {
		lookups(pe);
		probe_elf__delete(pe);
	}
	return 0;
}
