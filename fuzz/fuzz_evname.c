// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the counting-mode event names (-e of stat, hrcount,
 * hwstat), against a small fake sysfs (a PMU with split, single-bit and
 * config1/config2 formats, and aliases with .scale/.unit) made at start
 * and removed at exit.
 */
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/evname.h"
#include "engine/features.h"
#include "../tests/unit/fake_sysfs.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (fake_sysfs__make("fuzz-evname"))
		abort();
	atexit(fake_sysfs__remove);
	fake_sysfs__put("uncore_imc_0/type", "17\n");
	fake_sysfs__put("uncore_imc_0/format/event", "config:0-7\n");
	fake_sysfs__put("uncore_imc_0/format/umask", "config:8-15\n");
	fake_sysfs__put("uncore_imc_0/events/cas_count_read", "event=0x04,umask=0x03\n");
	fake_sysfs__put("uncore_imc_0/events/cas_count_read.scale", "6.103515625e-5\n");
	fake_sysfs__put("uncore_imc_0/events/cas_count_read.unit", "MiB\n");
	fake_sysfs__put("f/type", "42\n");
	fake_sysfs__put("f/format/s", "config:0-3,32-35\n");
	fake_sysfs__put("f/format/b", "config:21\n");
	fake_sysfs__put("f/format/e", "config1:0-15\n");
	fake_sysfs__put("f/format/w", "config2:0-63\n");
	fake_sysfs__put("f/format/o", "config3:0-7\n");
	fake_sysfs__put("f/format/x", "config:9-2\n");
	fake_sysfs__put("f/events/n", "b=1,e=?\n");
	fake_sysfs__put("f/events/p", "s=0x5,period=1000\n");
	fake_sysfs__put("f/events/u", "b\n");
	fake_sysfs__put("f/events/u.unit", "a-very-long-unit-name\n");
	fake_sysfs__put("f/events/u.scale", "1e999\n");
	return 0;
}

static void check_err(const char *err)
{
	size_t n = strnlen(err, 256);

	if (n == 0 || n == 256 || strchr(err, '\n'))
		abort(); /* one line, always said */
}

static void check_events(const struct evname *evs, int base, int nr)
{
	for (int i = base; i < nr; i++) {
		const struct evname *e = &evs[i];

		if (strnlen(e->name, sizeof(e->name)) == sizeof(e->name) ||
		    strnlen(e->unit, sizeof(e->unit)) == sizeof(e->unit) || !e->name[0])
			abort();
		if (e->attr.size != sizeof(e->attr) || !(e->scale > 0) || !isfinite(e->scale))
			abort();
		if (!e->sys != !e->tp || (e->sys && e->attr.type != PERF_TYPE_TRACEPOINT))
			abort();
		if (e->sys &&
		    (!e->sys[0] || !e->tp[0] || strchr(e->sys, '/') || strchr(e->tp, '/')))
			abort();
		if (e->leader != -1 &&
		    (e->leader < base || e->leader > i || evs[e->leader].leader != e->leader))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *str = malloc(size + 1), err[256];
	struct evname *evs = NULL, one;
	int nr = 0, ret;

	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';

	/* Something already in the list: appending must keep it. */
	if (evname__parse_list("cs", &evs, &nr, err, sizeof(err)) || nr != 1)
		abort();
	ret = evname__parse_list(str, &evs, &nr, err, sizeof(err));
	if (ret) {
		check_err(err);
		if (nr != 1)
			abort();
	} else {
		check_events(evs, 1, nr);
	}
	if (strcmp(evs[0].name, "cs") || evs[0].attr.config != 3)
		abort();

	/* One event alone: the same result as a list of that one event. */
	ret = evname__parse(str, &one, err, sizeof(err));
	if (ret) {
		check_err(err);
		if (one.sys || one.tp)
			abort();
	} else {
		check_events(&one, 0, 1);
		if (nr != 2 || evs[1].leader != -1 ||
		    memcmp(&one.attr, &evs[1].attr, sizeof(one.attr)) ||
		    strcmp(one.name, evs[1].name) || strcmp(one.unit, evs[1].unit) ||
		    one.scale != evs[1].scale)
			abort();
		evname__clear(&one);
	}
	if (ret && nr == 2 && evs[1].leader == -1)
		abort(); /* a list of one event parsed, the event alone did not */
	evname__free(evs, nr);
	free(str);
	return 0;
}
