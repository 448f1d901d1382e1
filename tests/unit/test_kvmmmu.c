// SPDX-License-Identifier: GPL-2.0
/*
 * kvmmmu on an injected session, with this kernel's kvmmmu formats: shadow
 * pages created, found and zapped per role (a zap of a page made before
 * the start counts as zapped but leaves the live count alone), the live
 * pages across an interval, --spte's sptes per level (writable: bit 1 of
 * the spte, executable: the x field), --mmio's marks per guest frame, the
 * role words decoded as the kernel's trace prints them, --detail's lines
 * and --json's records.  kvmmmu:* fire here only while a VM is built (KVM
 * emulates: no vmx/svm), so the counts are checked on injected records.
 */
#include "fmt_common.h"
#include "synth_run.h"
#include "ut.h"

/* prof/kvmmmu.c */
void kvmmmu__role_text(u32 role, char *buf, size_t len);

#define PAGE_FIELDS                                                    \
	"\tfield:__u8 mmu_valid_gen;\toffset:8;\tsize:1;\tsigned:0;\n" \
	"\tfield:__u64 gfn;\toffset:16;\tsize:8;\tsigned:0;\n"         \
	"\tfield:__u32 role;\toffset:24;\tsize:4;\tsigned:0;\n"        \
	"\tfield:__u32 root_count;\toffset:28;\tsize:4;\tsigned:0;\n"  \
	"\tfield:bool unsync;\toffset:32;\tsize:1;\tsigned:0;\n"

static const char fmt_get[] =
	"name: kvm_mmu_get_page\nID: 128\nformat:\n" FMT_COMMON_FIELDS PAGE_FIELDS
	"\tfield:bool created;\toffset:33;\tsize:1;\tsigned:0;\n\n"
	"print fmt: \"sp gen %u gfn %llx\", REC->mmu_valid_gen, REC->gfn\n";
static const char fmt_zap[] =
	"name: kvm_mmu_prepare_zap_page\nID: 129\nformat:\n" FMT_COMMON_FIELDS PAGE_FIELDS
	"\nprint fmt: \"sp gen %u gfn %llx\", REC->mmu_valid_gen, REC->gfn\n";
static const char fmt_set[] =
	"name: kvm_mmu_set_spte\nID: 130\nformat:\n" FMT_COMMON_FIELDS
	"\tfield:u64 gfn;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 spte;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 sptep;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:u8 level;\toffset:32;\tsize:1;\tsigned:0;\n"
	"\tfield:bool r;\toffset:33;\tsize:1;\tsigned:0;\n"
	"\tfield:bool x;\toffset:34;\tsize:1;\tsigned:0;\n"
	"\tfield:signed char u;\toffset:35;\tsize:1;\tsigned:1;\n\n"
	"print fmt: \"gfn %llx spte %llx level %d\", REC->gfn, REC->spte, REC->level\n";
static const char fmt_mark[] = "name: mark_mmio_spte\nID: 131\nformat:\n" FMT_COMMON_FIELDS
			       "\tfield:void * sptep;\toffset:8;\tsize:8;\tsigned:0;\n"
			       "\tfield:gfn_t gfn;\toffset:16;\tsize:8;\tsigned:0;\n"
			       "\tfield:unsigned access;\toffset:24;\tsize:4;\tsigned:0;\n"
			       "\tfield:unsigned int gen;\toffset:28;\tsize:4;\tsigned:0;\n\n"
			       "print fmt: \"sptep:%p gfn %llx access %x gen %x\", REC->sptep, "
			       "REC->gfn, REC->access, REC->gen\n";

static const struct synth_fmt fmts[] = { { "kvmmmu", fmt_get },
					 { "kvmmmu", fmt_zap },
					 { "kvmmmu", fmt_set },
					 { "kvmmmu", fmt_mark },
					 { NULL, NULL } };

/* the roles of a VM built here: 32-bit PAE roots (l2) and a 4K table (l1), direct, nxe */
#define L2 0x1782u
#define L1 0x1781u

static u64 t;

static void page(struct synth_run *r, const char *which, u64 gfn, u32 role, bool created)
{
	struct evsel *ev = synth_run__evsel(r, which);
	unsigned char raw[36] = { 0 };

	synth__field_u64(ev, raw, "gfn", gfn);
	synth__field_u64(ev, raw, "role", role);
	synth__field_u64(ev, raw, "mmu_valid_gen", 0);
	if (created)
		synth__field_u64(ev, raw, "created", 1);
	synth_run__tp(r, ev, 100, 101, 0, t += 1000, raw, sizeof(raw));
}

static void set_spte(struct synth_run *r, u64 gfn, u64 spte, unsigned level, bool x)
{
	struct evsel *ev = synth_run__evsel(r, "kvm_mmu_set_spte");
	unsigned char raw[36] = { 0 };

	synth__field_u64(ev, raw, "gfn", gfn);
	synth__field_u64(ev, raw, "spte", spte);
	synth__field_u64(ev, raw, "level", level);
	synth__field_u64(ev, raw, "x", x);
	synth_run__tp(r, ev, 100, 101, 1, t += 1000, raw, sizeof(raw));
}

static void mark(struct synth_run *r, u64 gfn, unsigned access, unsigned gen)
{
	struct evsel *ev = synth_run__evsel(r, "mark_mmio_spte");
	unsigned char raw[32] = { 0 };

	synth__field_u64(ev, raw, "gfn", gfn);
	synth__field_u64(ev, raw, "access", access);
	synth__field_u64(ev, raw, "gen", gen);
	synth_run__tp(r, ev, 100, 101, 1, t += 1000, raw, sizeof(raw));
}

/* The records of a small run: 3 pages made, 1 found again, 2 zapped (1 of before the start). */
static void records(struct synth_run *r)
{
	page(r, "kvm_mmu_get_page", 0, L2, true);
	page(r, "kvm_mmu_get_page", 0x40000, L2, true);
	page(r, "kvm_mmu_get_page", 0, L2, false);
	page(r, "kvm_mmu_get_page", 0x100, L1, true);
	page(r, "kvm_mmu_prepare_zap_page", 0x100, L1, false);
	page(r, "kvm_mmu_prepare_zap_page", 0x200, L1, false);
}

static void test_roles(void)
{
	char buf[128];
	const char *b = buf;

	kvmmmu__role_text(L2, buf, sizeof(buf));
	CHECK_STR(b, "l2 8-byte q0 direct wux nxe ad");
	/* l4, 4-byte gptes, quadrant 3, not direct, access w--, invalid, no nxe, ad off, guest, smm */
	kvmmmu__role_text(4 | 1 << 4 | 3 << 5 | 2 << 8 | 1 << 11 | 1 << 16 | 1 << 17 | 1u << 24,
			  buf, sizeof(buf));
	CHECK_STR(b, "l4 4-byte q3 w-- invalid !nxe !ad guest smm");
}

static void test_pages(void)
{
	struct synth_run r;
	const char *out;

	CHECK(!synth_run__start(&r, "kvmmmu", "", &(struct synth_run_opts){ .fmts = fmts }), "%s",
	      synth_run__err(&r));
	records(&r);
	out = synth_run__finish(&r);
	CHECK_STR(out,
		  "LEVEL       ROLE ROLE WORDS                       CREATED  EXISTING    "
		  "ZAPPED      LIVE\n"
		  "    2     0x1782 l2 8-byte q0 direct wux nxe ad         2         1         "
		  "0         2\n"
		  "    1     0x1781 l1 8-byte q0 direct wux nxe ad         1         0         "
		  "2         0\n");
	synth_run__cleanup(&r);
}

/* An interval: its counts start again, the live pages stay; --spte, --mmio. */
static void test_interval(void)
{
	struct synth_run r;
	const char *out, *second;

	CHECK(!synth_run__start(&r, "kvmmmu", "--spte --mmio -i 1000",
				&(struct synth_run_opts){ .fmts = fmts }),
	      "%s", synth_run__err(&r));
	records(&r);
	set_spte(&r, 0x1000, 0x1000 | 3, 1, true);
	set_spte(&r, 0x1001, 0x1001000 | 1, 1, false);
	set_spte(&r, 0x40000, 0x80000 | 3, 2, false);
	mark(&r, 0xfee00, 3, 0x12);
	mark(&r, 0xfec00, 1, 0x12);
	mark(&r, 0xfee00, 3, 0x14);
	r.p->ops.interval(r.s, r.priv);
	page(&r, "kvm_mmu_prepare_zap_page", 0, L2, false);
	out = synth_run__finish(&r);
	CHECK(strstr(out, "    2     0x1782 l2 8-byte q0 direct wux nxe ad         2         1    "
			  "     0         2\n") != NULL,
	      "%s", out);
	CHECK(strstr(out, "LEVEL  SIZE  SPTES SET   WRITABLE EXECUTABLE\n"
			  "    1    4K          2          1          1\n"
			  "    2    2M          1          1          0\n") != NULL,
	      "%s", out);
	CHECK(strstr(out, "    MMIO GFN    MARKED   ACCESS      GEN\n"
			  "     0xfec00         1      0x1     0x12\n"
			  "     0xfee00         2      0x3     0x14\n") != NULL,
	      "%s", out);
	/* the end: one zap since the interval, the other page still alive; l1's row gone */
	second = strstr(out, "ZAPPED      LIVE\n    2");
	second = second ? strstr(second + 1, "ZAPPED      LIVE\n") : NULL;
	CHECK(second && !strncmp(second,
				 "ZAPPED      LIVE\n"
				 "    2     0x1782 l2 8-byte q0 direct wux nxe ad         0"
				 "         0         1         1\n\n",
				 strlen("ZAPPED      LIVE\n") + 83),
	      "%s", out);
	CHECK(second && strstr(second, "LEVEL  SIZE  SPTES SET   WRITABLE EXECUTABLE\n\n"),
	      "no sptes since: %s", out);
	synth_run__cleanup(&r);
}

static void test_detail_json(void)
{
	struct synth_run r;
	const char *out;

	CHECK(!synth_run__start(&r, "kvmmmu", "--records --mmio",
				&(struct synth_run_opts){ .fmts = fmts, .json = true }),
	      "%s", synth_run__err(&r));
	page(&r, "kvm_mmu_get_page", 0x40000, L2, true);
	mark(&r, 0xfee00, 3, 0x12);
	out = synth_run__finish(&r);
	CHECK(strstr(out, "{\"type\":\"kvmmmu_event\",\"time_ns\":") &&
		      strstr(out,
			     ",\"cpu\":0,\"pid\":100,\"event\":\"get_page\",\"gfn\":\"0x40000\","
			     "\"what\":\"l2 8-byte q0 direct wux nxe ad gen 0 root 0 new\"}\n") &&
		      strstr(out,
			     "\"event\":\"mark_mmio_spte\",\"gfn\":\"0xfee00\",\"what\":\"access "
			     "0x3 gen 0x12\"}\n"),
	      "%s", out);
	CHECK(strstr(out, "{\"type\":\"kvmmmu_pages\",\"scope\":\"run\",") &&
		      strstr(out, "\"level\":2,\"role\":\"0x1782\",\"role_text\":\"l2 8-byte q0 "
				  "direct wux nxe ad\",\"created\":1,\"existing\":0,\"zapped\":0,"
				  "\"live\":1}\n") &&
		      strstr(out, "\"gfn\":\"0xfee00\",\"marked\":1,\"access\":\"0x3\",\"gen\":"
				  "\"0x12\"}\n"),
	      "%s", out);
	synth_run__cleanup(&r);

	CHECK(!synth_run__start(&r, "kvmmmu", "--records",
				&(struct synth_run_opts){ .fmts = fmts }),
	      "%s", synth_run__err(&r));
	page(&r, "kvm_mmu_get_page", 0x40000, L2, true);
	page(&r, "kvm_mmu_prepare_zap_page", 0x40000, L2, false);
	out = synth_run__finish(&r);
	CHECK(!strncmp(
		      out,
		      "TIME                       CPU     PID EVENT                     GFN WHAT\n",
		      73),
	      "one header: %s", out);
	CHECK(strstr(out,
		     "   0     100 get_page              0x40000 l2 8-byte q0 direct wux nxe ad "
		     "gen 0 root 0 new\n") &&
		      strstr(out,
			     "   0     100 prepare_zap_page      0x40000 l2 8-byte q0 direct wux "
			     "nxe ad gen 0 root 0\n") &&
		      !strstr(strstr(out, "\n"), "TIME "),
	      "%s", out);
	synth_run__cleanup(&r);
}

static void page_root(struct synth_run *r, u64 gfn, u32 role, u32 root)
{
	struct evsel *ev = synth_run__evsel(r, "kvm_mmu_get_page");
	unsigned char raw[36] = { 0 };

	synth__field_u64(ev, raw, "gfn", gfn);
	synth__field_u64(ev, raw, "role", role);
	synth__field_u64(ev, raw, "root_count", root);
	synth__field_u64(ev, raw, "created", 1);
	synth_run__tp(r, ev, 100, 101, 0, t += 1000, raw, sizeof(raw));
}

/* --detail: the live page tables, each page under its parent, its sptes' runs under it. */
static void test_tables(void)
{
	struct synth_run r;
	const char *out;

	CHECK(!synth_run__start(&r, "kvmmmu", "--detail --spte --mmio",
				&(struct synth_run_opts){ .fmts = fmts }),
	      "%s", synth_run__err(&r));
	page_root(&r, 0, L2, 2);
	page(&r, "kvm_mmu_get_page", 0x200, L1, true);
	page(&r, "kvm_mmu_get_page", 0x40000, L1, true); /* its l2 is not live: a tree of its own */
	page(&r, "kvm_mmu_get_page", 0x400, L1, true);
	page(&r, "kvm_mmu_prepare_zap_page", 0x400, L1, false); /* zapped: not shown */
	set_spte(&r, 0x201, 0x201003, 1, false);
	set_spte(&r, 0x202, 0x202003, 1, false);
	mark(&r, 0x205, 3, 0x12);
	set_spte(&r, 0x1000, 0x1000083, 2, true); /* a 2M spte: entry 8 of the l2 page */
	set_spte(&r, 0x9000000, 0x3, 1, false);	  /* in no live page: counted, not placed */
	out = synth_run__finish(&r);
	CHECK(strstr(out,
		     "\nsp2 0x00000000-0x0003ffff role 0x1782 root_count 2 ; l2 8-byte q0 "
		     "direct wux nxe ad\n"
		     "    spte 0x00001000-0x000011ff\n"
		     "    sp1 0x00000200-0x000003ff role 0x1781 ; l1 8-byte q0 direct wux nxe ad\n"
		     "        spte 0x00000201-0x00000202\n"
		     "        spte 0x00000205-0x00000205 mmio\n"
		     "    sp1 0x00040000-0x000401ff role 0x1781 ; l1 8-byte q0 direct wux nxe "
		     "ad\n"),
	      "%s", out);
	CHECK(!strstr(out, "0x00000400-"), "the zapped page: %s", out);
	synth_run__cleanup(&r);

	CHECK(!synth_run__start(&r, "kvmmmu", "--detail --spte",
				&(struct synth_run_opts){ .fmts = fmts, .json = true }),
	      "%s", synth_run__err(&r));
	page(&r, "kvm_mmu_get_page", 0x200, L1, true);
	set_spte(&r, 0x201, 0x201003, 1, false);
	out = synth_run__finish(&r);
	CHECK(strstr(out, "{\"type\":\"kvmmmu_sp\",\"scope\":\"run\",") &&
		      strstr(out, ",\"level\":1,\"gfn\":\"0x200\",\"gfn_end\":\"0x3ff\",\"role\":"
				  "\"0x1781\",\"role_text\":\"l1 8-byte q0 direct wux nxe ad\","
				  "\"root_count\":0,\"sptes\":1,\"mmio_sptes\":0}\n"),
	      "%s", out);
	synth_run__cleanup(&r);
}

/*
 * --detail: two pages at one gfn and level (another role): the newest takes
 * the sptes, and keeps them when the older goes; a page of 256 runs (every
 * other spte set) printed whole.
 */
static void test_tables_shared(void)
{
	struct synth_run r;
	const char *out;

	CHECK(!synth_run__start(&r, "kvmmmu", "--detail --spte",
				&(struct synth_run_opts){ .fmts = fmts }),
	      "%s", synth_run__err(&r));
	page(&r, "kvm_mmu_get_page", 0x600, L1, true);
	page(&r, "kvm_mmu_get_page", 0x600, L1 ^ 0x100, true);
	page(&r, "kvm_mmu_prepare_zap_page", 0x600, L1, false);
	set_spte(&r, 0x601, 0x601003, 1, false);
	page(&r, "kvm_mmu_get_page", 0x800, L1, true);
	for (u64 g = 0x800; g < 0xa00; g += 2)
		set_spte(&r, g, (g << 12) | 3, 1, false);
	out = synth_run__finish(&r);
	CHECK(strstr(out, "sp1 0x00000600-0x000007ff role 0x1681 ; ") &&
		      strstr(out, "\n    spte 0x00000601-0x00000601\n"),
	      "the newer page at 0x600 keeps its spte: %s", out);
	CHECK(!strstr(out, "role 0x1781 ; l1 8-byte q0 direct wux nxe ad\n    spte 0x00000601"),
	      "not under the zapped one: %s", out);
	CHECK(strstr(out, "\n    spte 0x00000800-0x00000800\n") &&
		      strstr(out, "\n    spte 0x000009fe-0x000009fe\n"),
	      "the page of 256 runs, its first and last: %s", out);
	synth_run__cleanup(&r);
}

int main(void)
{
	test_roles();
	test_tables_shared();
	test_pages();
	test_interval();
	test_detail_json();
	test_tables();
	return ut_done("test_kvmmmu");
}
