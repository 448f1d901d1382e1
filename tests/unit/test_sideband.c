// SPDX-License-Identifier: GPL-2.0
/*
 * Side-band records (engine/sideband.c) decoded from records laid out as
 * perf_event_open(2) documents them, misc's lines and JSON for each kind
 * on an injected session (text_poke among them: nothing on this host makes
 * the kernel patch its text for sure), and the /proc/kcore reader
 * (sym/kcore.c) on ELF core files made here.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/sideband.h"
#include "sym/kcore.h"
#include "synth_run.h"
#include "ut.h"

static const struct perf_event_header *ksymbol(struct synth *b, u64 addr, u32 len, uint16_t type,
					       uint16_t flags, const char *name, size_t name_room)
{
	char n[64] = { 0 };

	b->len = sizeof(struct perf_event_header);
	synth__u64(b, addr);
	synth__put(b, &len, 4);
	synth__put(b, &type, 2);
	synth__put(b, &flags, 2);
	strncpy(n, name, sizeof(n) - 1);
	synth__put(b, n, name_room);
	synth__trailer(b, 100, 101, 5000, 1, 0);
	return synth__finish(b, PERF_RECORD_KSYMBOL, 0);
}

static const struct perf_event_header *bpf_event(struct synth *b, uint16_t type, u32 id)
{
	static const unsigned char tag[8] = { 0x59, 0xf4, 0xa9, 0x31, 0x74, 0x4d, 0xcd, 0xc6 };
	uint16_t flags = 0;

	b->len = sizeof(struct perf_event_header);
	synth__put(b, &type, 2);
	synth__put(b, &flags, 2);
	synth__put(b, &id, 4);
	synth__put(b, tag, 8);
	synth__trailer(b, 100, 101, 6000, 0, 0);
	return synth__finish(b, PERF_RECORD_BPF_EVENT, 0);
}

static const struct perf_event_header *cgroup(struct synth *b, u64 id, const char *path)
{
	char p[32] = { 0 };

	b->len = sizeof(struct perf_event_header);
	synth__u64(b, id);
	strncpy(p, path, sizeof(p) - 1);
	synth__put(b, p, 32);
	synth__trailer(b, 200, 200, 7000, 1, 0);
	return synth__finish(b, PERF_RECORD_CGROUP, 0);
}

static const struct perf_event_header *text_poke(struct synth *b, u64 addr, uint16_t old_len,
						 uint16_t new_len, size_t room)
{
	static const unsigned char bytes[16] = { 0x0f, 0x1f, 0x44, 0x00, 0x00,
						 0xe9, 0x12, 0x34, 0x56, 0x78 };

	b->len = sizeof(struct perf_event_header);
	synth__u64(b, addr);
	synth__put(b, &old_len, 2);
	synth__put(b, &new_len, 2);
	synth__put(b, bytes, room);
	synth__trailer(b, 0, 0, 8000, 0, 0);
	return synth__finish(b, PERF_RECORD_TEXT_POKE, 0);
}

/* text_poke of @old_len + @new_len bytes: byte i of old is i, of new 0xff - i (% 256) */
static const struct perf_event_header *long_poke(struct synth *b, uint16_t old_len,
						 uint16_t new_len)
{
	b->len = sizeof(struct perf_event_header);
	synth__u64(b, 0xffffffffa0001000ULL);
	synth__put(b, &old_len, 2);
	synth__put(b, &new_len, 2);
	for (unsigned i = 0; i < old_len; i++)
		b->b[b->len++] = (unsigned char)i;
	for (unsigned i = 0; i < new_len; i++)
		b->b[b->len++] = (unsigned char)(0xff - i);
	while (b->len % 8)
		b->b[b->len++] = 0;
	synth__trailer(b, 0, 0, 9000, 1, 0);
	return synth__finish(b, PERF_RECORD_TEXT_POKE, 0);
}

/* a cgroup whose path is "/" then @n - 1 letters */
static const struct perf_event_header *long_cgroup(struct synth *b, size_t n)
{
	b->len = sizeof(struct perf_event_header);
	synth__u64(b, 77);
	b->b[b->len++] = '/';
	for (size_t i = 1; i < n; i++)
		b->b[b->len++] = (char)('a' + i % 26);
	do
		b->b[b->len++] = 0;
	while (b->len % 8);
	synth__trailer(b, 200, 200, 9100, 1, 0);
	return synth__finish(b, PERF_RECORD_CGROUP, 0);
}

/* "00 01 02 ..." of @n bytes from @first, going up (@step 1) or down (-1) */
static char *hex_of(unsigned n, int first, int step)
{
	char *s = malloc(3 * (size_t)n + 1), *p = s;

	*p = 0;
	for (unsigned i = 0; i < n; i++)
		p += sprintf(p, "%s%02x", i ? " " : "", (unsigned char)(first + step * (int)i));
	return s;
}

static void test_decode(void)
{
	struct synth b;
	struct rec_sideband r;
	const struct perf_event_header *h;

	h = ksymbol(&b, 0xffffffffc0022050ULL, 23, PERF_RECORD_KSYMBOL_TYPE_BPF,
		    PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, "bpf_prog_x_BEGIN", 24);
	CHECK_INT(rec__sideband(h, SYNTH_ID_TYPE, &r), 0);
	CHECK_INT(r.type, PERF_RECORD_KSYMBOL);
	CHECK(r.ksym.addr == 0xffffffffc0022050ULL, "addr %llx", (unsigned long long)r.ksym.addr);
	CHECK_INT(r.ksym.len, 23);
	CHECK_INT(r.ksym.ksym_type, PERF_RECORD_KSYMBOL_TYPE_BPF);
	CHECK(r.ksym.unregister, "unregister");
	CHECK_STR(r.ksym.name, "bpf_prog_x_BEGIN");
	CHECK_INT(r.pid, 100);
	CHECK_INT(r.tid, 101);
	CHECK_INT(r.time, 5000);
	CHECK_INT(r.cpu, 1);
	/* a name without its NUL before the trailer: refused, not read into it */
	h = ksymbol(&b, 1, 1, 1, 0, "abcdefgh", 8);
	CHECK_INT(rec__sideband(h, SYNTH_ID_TYPE, &r), -EINVAL);

	h = bpf_event(&b, PERF_BPF_EVENT_PROG_LOAD, 486229);
	CHECK_INT(rec__sideband(h, SYNTH_ID_TYPE, &r), 0);
	CHECK_INT(r.bpf.type, PERF_BPF_EVENT_PROG_LOAD);
	CHECK_INT(r.bpf.id, 486229);
	CHECK_INT(r.bpf.tag[0], 0x59);
	CHECK_INT(r.bpf.tag[7], 0xc6);

	h = cgroup(&b, 1621, "/pp-misc");
	CHECK_INT(rec__sideband(h, SYNTH_ID_TYPE, &r), 0);
	CHECK_INT(r.cgroup.id, 1621);
	CHECK_STR(r.cgroup.path, "/pp-misc");

	h = text_poke(&b, 0xffffffff81000010ULL, 5, 5, 16);
	CHECK_INT(rec__sideband(h, SYNTH_ID_TYPE, &r), 0);
	CHECK_INT(r.poke.old_len, 5);
	CHECK_INT(r.poke.new_len, 5);
	CHECK_INT(r.poke.old_bytes[0], 0x0f);
	CHECK_INT(r.poke.new_bytes[0], 0xe9);
	CHECK_INT(r.poke.new_bytes[4], 0x78);
	/* lengths beyond the record */
	h = text_poke(&b, 0xffffffff81000010ULL, 5, 20, 16);
	CHECK_INT(rec__sideband(h, SYNTH_ID_TYPE, &r), -EINVAL);

	/* too short for its body, or for the trailer */
	b.len = sizeof(struct perf_event_header) + 4;
	synth__trailer(&b, 1, 1, 1, 0, 0);
	h = synth__finish(&b, PERF_RECORD_BPF_EVENT, 0);
	CHECK_INT(rec__sideband(h, SYNTH_ID_TYPE, &r), -EINVAL);
	b.len = sizeof(struct perf_event_header) + 8;
	h = synth__finish(&b, PERF_RECORD_CGROUP, 0);
	CHECK_INT(rec__sideband(h, SYNTH_ID_TYPE, &r), -EINVAL);
	/* another kind of record */
	h = synth__comm(&b, 1, 1, "x", 1, 0);
	CHECK_INT(rec__sideband(h, SYNTH_ID_TYPE, &r), -ENOENT);
	CHECK_INT(sideband__bit(PERF_RECORD_TEXT_POKE), SB_TEXT_POKE);
	CHECK_INT(sideband__bit(PERF_RECORD_SAMPLE), 0);
	/* Linux 5.9 or later: all four; what is not asked for is not probed */
	CHECK_INT(sideband__supported(SB_ALL), SB_ALL);
	CHECK_INT(sideband__supported(SB_CGROUP), SB_CGROUP);
	CHECK_INT(sideband__supported(0), 0);
}

static void inject_all(struct synth_run *r)
{
	struct synth b;

	session__inject(r->s, synth__comm(&b, 100, 101, "loader", 1, 1), 1);
	session__inject(r->s,
			ksymbol(&b, 0xffffffffc0022050ULL, 23, PERF_RECORD_KSYMBOL_TYPE_BPF, 0,
				"bpf_prog_59f4a931744dcdc6_t", 32),
			1);
	session__inject(r->s, bpf_event(&b, PERF_BPF_EVENT_PROG_UNLOAD, 42), 0);
	session__inject(r->s, cgroup(&b, 1621, "/pp-misc"), 1);
	session__inject(r->s, text_poke(&b, 0xffffffff81000010ULL, 5, 5, 16), 0);
}

static void test_misc_text(void)
{
	struct synth_run r;
	const char *out;

	CHECK(!synth_run__start(&r, "misc", "-C 0", NULL), "%s", synth_run__err(&r));
	CHECK(synth_run__evsel(&r, "misc") != NULL, "the dummy event");
	if (r.s) {
		struct evsel *ev = synth_run__evsel(&r, "misc");

		CHECK(ev && ev->attr.ksymbol && ev->attr.bpf_event && ev->attr.cgroup &&
			      ev->attr.text_poke,
		      "side-band bits");
		inject_all(&r);
	}
	out = synth_run__finish(&r);
	CHECK(strstr(out, "loader     101 [001] misc:ksymbol: bpf register ffffffffc0022050 len 23 "
			  "bpf_prog_59f4a931744dcdc6_t\n"),
	      "%s", out);
	CHECK(strstr(out, "misc:bpf_event: prog unload id 42 tag 59f4a931744dcdc6\n"), "%s", out);
	CHECK(strstr(out, "[001] misc:cgroup: id 1621 /pp-misc\n"), "%s", out);
	CHECK(strstr(out,
		     "[000] misc:text_poke: ffffffff81000010 0f 1f 44 00 00 => e9 12 34 56 78"),
	      "%s", out);
	synth_run__cleanup(&r);
}

static void test_misc_json(void)
{
	struct synth_run r;
	const char *out;

	CHECK(!synth_run__start(&r, "misc", "--json", NULL), "%s", synth_run__err(&r));
	if (r.s)
		inject_all(&r);
	out = synth_run__finish(&r);
	CHECK(strstr(out, "\"event\":\"misc:ksymbol\",\"kind\":\"ksymbol\",\"action\":\"register\","
			  "\"ksym_type\":\"bpf\",\"addr\":\"0xffffffffc0022050\",\"len\":23,"
			  "\"name\":\"bpf_prog_59f4a931744dcdc6_t\"}"),
	      "%s", out);
	CHECK(strstr(out, "\"kind\":\"bpf_event\",\"action\":\"unload\",\"prog_id\":42,"
			  "\"tag\":\"59f4a931744dcdc6\"}"),
	      "%s", out);
	CHECK(strstr(out, "\"kind\":\"cgroup\",\"cgroup_id\":1621,\"path\":\"/pp-misc\"}"), "%s",
	      out);
	CHECK(strstr(out, "\"kind\":\"text_poke\",\"addr\":\"0xffffffff81000010\",\"old\":\"0f 1f "
			  "44 00 00\",\"new\":\"e9 12 34 56 78\""),
	      "%s", out);
	synth_run__cleanup(&r);
}

/*
 * An x86 ftrace trampoline's text_poke carries hundreds of bytes, a cgroup
 * path may be as long as PATH_MAX: all of them, in the line and in JSON.
 */
static void test_misc_long(void)
{
	char *old = hex_of(5, 0, 1), *new = hex_of(400, 0xff, -1), *want, *path;
	struct synth_run r;
	struct synth b;
	const char *out;

	want = malloc(8192);
	path = malloc(3001);
	path[0] = '/';
	for (int i = 1; i < 3000; i++)
		path[i] = (char)('a' + i % 26);
	path[3000] = 0;
	for (int json = 0; json < 2; json++) {
		CHECK(!synth_run__start(&r, "misc", json ? "--json" : "-C 1", NULL), "%s",
		      synth_run__err(&r));
		if (r.s) {
			session__inject(r.s, long_poke(&b, 5, 400), 1);
			session__inject(r.s, long_cgroup(&b, 3000), 1);
		}
		out = synth_run__finish(&r);
		if (json)
			sprintf(want, "\"old\":\"%s\",\"new\":\"%s\"", old, new);
		else
			sprintf(want, "misc:text_poke: ffffffffa0001000 %s => %s", old, new);
		CHECK(out && strstr(out, want), "json %d: all 400 new bytes: %.300s", json, out);
		if (json)
			sprintf(want, "\"cgroup_id\":77,\"path\":\"%s\"}", path);
		else
			sprintf(want, "misc:cgroup: id 77 %s\n", path);
		CHECK(out && strstr(out, want), "json %d: the 3000-byte path whole", json);
		synth_run__cleanup(&r);
	}
	free(old);
	free(new);
	free(want);
	free(path);
}

static void test_misc_refuses(void)
{
	struct synth_run r;

	synth_run__start(&r, "misc", "-p 1", &(struct synth_run_opts){ .init_may_fail = true });
	CHECK(r.init_err < 0, "-p refused");
	CHECK(strstr(synth_run__err(&r), "whole system"), "%s", synth_run__err(&r));
	synth_run__finish(&r);
	synth_run__cleanup(&r);
}

/* ---- /proc/kcore's reader ---- */

struct core {
	unsigned char b[4096];
	size_t len;
};

/* An ELF64 core: @n PT_LOAD segments of 64 bytes (byte i of segment k is k * 64 + i) */
static void core_make(struct core *c, const u64 *vaddr, int n, bool xnum)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)c->b;
	Elf64_Phdr *ph = (Elf64_Phdr *)(c->b + sizeof(*eh));
	size_t data = sizeof(*eh) + (n + 1) * sizeof(*ph);

	memset(c, 0, sizeof(*c));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_CORE;
	eh->e_machine = EM_X86_64;
	eh->e_phoff = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = n + 1;
	ph[0].p_type = PT_NOTE;
	for (int k = 0; k < n; k++) {
		ph[k + 1] = (Elf64_Phdr){ .p_type = PT_LOAD,
					  .p_offset = data + 64 * k,
					  .p_vaddr = vaddr[k],
					  .p_filesz = 64,
					  .p_memsz = 64 };
		for (int i = 0; i < 64; i++)
			c->b[data + 64 * k + i] = (unsigned char)(k * 64 + i);
	}
	c->len = data + 64 * n;
	if (xnum) { /* the count in section 0's sh_info */
		Elf64_Shdr *sh = (Elf64_Shdr *)(c->b + c->len);

		memset(sh, 0, sizeof(*sh));
		sh->sh_info = n + 1;
		eh->e_shoff = c->len;
		eh->e_shentsize = sizeof(*sh);
		eh->e_shnum = 0;
		eh->e_phnum = PN_XNUM;
		c->len += sizeof(*sh);
	}
}

static int core_open(const struct core *c, struct kcore **kc)
{
	FILE *fp = tmpfile();
	int fd;

	if (!fp)
		return -errno;
	fwrite(c->b, 1, c->len, fp);
	fflush(fp);
	fd = dup(fileno(fp));
	fclose(fp);
	return kcore__from_fd(fd, kc);
}

static void test_kcore(void)
{
	static const u64 va[3] = { 0xffffffff81000000ULL, 0xffffffff81000040ULL,
				   0xffffffffa0000000ULL };
	static const u64 top[2] = { 0xffffffff81000000ULL, 0xffffffffffffffc0ULL };
	unsigned char buf[128];
	struct core c;
	struct kcore *kc;
	char why[256];

	core_make(&c, va, 3, false);
	CHECK_INT(core_open(&c, &kc), 0);
	CHECK_INT(kcore__nr_segments(kc), 3);
	CHECK_INT(kcore__read(kc, va[0] + 3, buf, 2), 0);
	CHECK(buf[0] == 3 && buf[1] == 4, "%d %d", buf[0], buf[1]);
	/* across two segments that follow each other */
	CHECK_INT(kcore__read(kc, va[0] + 60, buf, 8), 0);
	CHECK(buf[3] == 63 && buf[4] == 64 && buf[7] == 67, "%d %d %d", buf[3], buf[4], buf[7]);
	CHECK_INT(kcore__read(kc, va[2] + 63, buf, 1), 0);
	CHECK_INT(buf[0], 128 + 63);
	/* beyond: a byte in no segment */
	CHECK_INT(kcore__read(kc, va[1] + 60, buf, 8), -EFAULT);
	CHECK_INT(kcore__read(kc, va[2] + 64, buf, 1), -EFAULT);
	CHECK_INT(kcore__read(kc, 0x1000, buf, 1), -EFAULT);
	CHECK_INT(kcore__read(kc, ~0ULL, buf, 2), -EFAULT);
	kcore__delete(kc);

	core_make(&c, va, 2, true);
	CHECK_INT(core_open(&c, &kc), 0);
	CHECK_INT(kcore__nr_segments(kc), 2);
	CHECK_INT(kcore__read(kc, va[1], buf, 1), 0);
	CHECK_INT(buf[0], 64);
	kcore__delete(kc);

	/* a segment that ends at the top of the address space (its end wraps to 0) */
	core_make(&c, top, 2, false);
	CHECK_INT(core_open(&c, &kc), 0);
	CHECK_INT(kcore__nr_segments(kc), 2);
	buf[0] = 0;
	CHECK_INT(kcore__read(kc, ~0ULL, buf, 1), 0);
	CHECK_INT(buf[0], 64 + 63);
	CHECK_INT(kcore__read(kc, top[1], buf, 64), 0);
	CHECK(buf[0] == 64 && buf[63] == 127, "%d %d", buf[0], buf[63]);
	CHECK_INT(kcore__read(kc, ~0ULL - 7, buf, 8), 0);
	CHECK_INT(buf[7], 127);
	/* nothing past it: the address would wrap */
	CHECK_INT(kcore__read(kc, ~0ULL, buf, 2), -EFAULT);
	CHECK_INT(kcore__read(kc, ~0ULL - 7, buf, 9), -EFAULT);
	kcore__delete(kc);
	/* one that would go past it: not a segment */
	core_make(&c, top, 2, false);
	((Elf64_Phdr *)(c.b + sizeof(Elf64_Ehdr)))[2].p_vaddr = ~0ULL - 62;
	CHECK_INT(core_open(&c, &kc), 0);
	CHECK_INT(kcore__nr_segments(kc), 1);
	CHECK_INT(kcore__read(kc, ~0ULL, buf, 1), -EFAULT);
	kcore__delete(kc);

	/* a segment the file ends inside of: the file's fault, not the address's */
	core_make(&c, va, 2, false);
	c.len -= 32;
	CHECK_INT(core_open(&c, &kc), 0);
	CHECK_INT(kcore__read(kc, va[1] + 16, buf, 8), 0);
	CHECK_INT(kcore__read(kc, va[1] + 30, buf, 8), -ENODATA);
	kcore__delete(kc);

	/* not a core of this machine: refused */
	core_make(&c, va, 1, false);
	c.b[EI_CLASS] = ELFCLASS32;
	CHECK_INT(core_open(&c, &kc), -ENOEXEC);
	core_make(&c, va, 1, false);
	((Elf64_Ehdr *)c.b)->e_type = ET_EXEC;
	CHECK_INT(core_open(&c, &kc), -ENOEXEC);
	core_make(&c, va, 1, false);
	c.len = 20;
	CHECK_INT(core_open(&c, &kc), -ENOEXEC);
	core_make(&c, va, 1, false);
	((Elf64_Ehdr *)c.b)->e_phnum = 40; /* headers past the end */
	CHECK_INT(core_open(&c, &kc), -ENOEXEC);
	CHECK(kc == NULL, "nothing on error");
	CHECK_INT(kcore__open("/nonexistent/kcore", &kc), -ENOENT);

	/* the reasons */
	CHECK_STR(kcore__lockdown_mode("none [integrity] confidentiality\n"), "integrity");
	CHECK_STR(kcore__lockdown_mode("none integrity [confidentiality]\n"), "confidentiality");
	CHECK_STR(kcore__lockdown_mode("[none] integrity confidentiality\n"), "none");
	CHECK(kcore__lockdown_mode("none") == NULL, "no brackets");
	CHECK(kcore__lockdown_mode(NULL) == NULL, "no file");
	CHECK(strstr(kcore__why(-ENOENT, NULL, 1, why, sizeof(why)), "CONFIG_PROC_KCORE"), "%s",
	      why);
	CHECK(strstr(kcore__why(-EPERM, "none integrity [confidentiality]", 1, why, sizeof(why)),
		     "kernel lockdown (confidentiality)"),
	      "%s", why);
	/* integrity mode leaves kcore readable: the capability is the reason then */
	CHECK(strstr(kcore__why(-EPERM, "none [integrity] confidentiality", 0, why, sizeof(why)),
		     "needs root (CAP_SYS_RAWIO)"),
	      "%s", why);
	CHECK(strstr(kcore__why(-EACCES, NULL, 0, why, sizeof(why)), "CAP_SYS_RAWIO"), "%s", why);
	CHECK(strstr(kcore__why(-ENOEXEC, NULL, 1, why, sizeof(why)), "not a 64-bit ELF core"),
	      "%s", why);
	CHECK_STR(kcore__why(-EIO, NULL, 1, why, sizeof(why)), strerror(EIO));
}

int main(void)
{
	test_decode();
	test_misc_text();
	test_misc_json();
	test_misc_long();
	test_misc_refuses();
	test_kcore();
	return ut_done("test_sideband");
}
