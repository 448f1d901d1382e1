// SPDX-License-Identifier: GPL-2.0
/* procfs__maps_line: the one /proc/PID/maps line parser (sym/maps, libpath, symaddr). */
#include <errno.h>
#include <string.h>

#include "engine/procfs.h"
#include "ut.h"

static int parse(const char *text, struct maps_line *m, char *buf, size_t len)
{
	snprintf(buf, len, "%s", text);
	return procfs__maps_line(buf, m);
}

int main(void)
{
	struct maps_line m;
	char b[512];

	CHECK_INT(parse("7f3a1c000000-7f3a1c028000 r-xp 00028000 fe:01 1835012                    "
			"/usr/lib/x86_64-linux-gnu/libc.so.6\n",
			&m, b, sizeof(b)),
		  0);
	CHECK(m.start == 0x7f3a1c000000ULL && m.end == 0x7f3a1c028000ULL && m.pgoff == 0x28000,
	      "range and offset");
	CHECK_STR(m.perms, "r-xp");
	CHECK(m.has_id && m.maj == 0xfe && m.min == 1 && m.ino == 1835012, "device and inode");
	CHECK_STR(m.path, "/usr/lib/x86_64-linux-gnu/libc.so.6");

	CHECK_INT(parse("7ffd5a1f2000-7ffd5a213000 rw-p 00000000 00:00 0                          "
			"[stack]\n",
			&m, b, sizeof(b)),
		  0);
	CHECK_STR(m.path, "[stack]");
	CHECK(m.has_id && m.ino == 0, "anonymous: inode 0");

	CHECK_INT(parse("55d0c0a00000-55d0c0a21000 rw-p 00000000 00:00 0 \n", &m, b, sizeof(b)), 0);
	CHECK_STR(m.path, "");

	CHECK_INT(
		parse("400000-401000 r-xp 00001000 08:02 42 /tmp/a b (deleted)", &m, b, sizeof(b)),
		0);
	CHECK_STR(m.path, "/tmp/a b (deleted)");

	/* no device and inode (some kernels' synthetic lines) */
	CHECK_INT(parse("1000-2000 r-xp 00000000 [vdso]\n", &m, b, sizeof(b)), 0);
	CHECK(!m.has_id, "no id");
	CHECK_STR(m.path, "[vdso]");

	CHECK_INT(parse("not a mapping\n", &m, b, sizeof(b)), -EINVAL);
	CHECK_INT(parse("1000-2000\n", &m, b, sizeof(b)), -EINVAL);
	CHECK_INT(parse("", &m, b, sizeof(b)), -EINVAL);
	return ut_done("test_procfs");
}
