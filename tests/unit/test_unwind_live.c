// SPDX-License-Identifier: GPL-2.0
/*
 * sym/unwind.c on real kernel samples, without the rest of perf-prof: run
 * the stack workloads (tests/work/stk) under a syscalls:sys_enter_getppid
 * event with PERF_SAMPLE_REGS_USER + STACK_USER, follow their maps from
 * MMAP2 records (the processes are gone when we unwind) and check the
 * unwound chains by name.  Needs root and `make workloads`; else it says
 * why and checks nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libgen.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/sample.h"
#include "sym/unwind.h"
#include "sym/unwind_elf.h"
#include "ut.h"

#define NR_CALLS 3
#define RING_PAGES 64
#define MAX_MAPS 64
#define STACK_SIZE 8192

static struct unwind_map maps[MAX_MAPS];
static char map_paths[MAX_MAPS][PATH_MAX];
static int nr_maps;

static const struct unwind_map *find_map(void *arg, u64 addr)
{
	int i;

	(void)arg;
	/* the newest mapping wins, as in the process */
	for (i = nr_maps - 1; i >= 0; i--)
		if (addr >= maps[i].start && addr < maps[i].end)
			return &maps[i];
	return NULL;
}

/* Function name at @addr of @m from the .symtab of its file or of the
 * debug file beside it; NULL if none. */
static const char *sym_name(const struct unwind_map *m, u64 addr, char *buf, size_t len)
{
	const char *cands[2] = { m->path, NULL };
	char dbg[PATH_MAX + 8];
	const char *found = NULL;
	int c, fd;
	u64 bias;

	snprintf(dbg, sizeof(dbg), "%s.debug", m->path);
	cands[1] = dbg;
	fd = open(m->path, O_RDONLY);
	if (fd < 0)
		return NULL;
	if (uw_elf_bias(fd, m, &bias)) {
		close(fd);
		return NULL;
	}
	close(fd);
	for (c = 0; c < 2 && !found; c++) {
		Elf_Scn *scn = NULL;
		Elf *elf;

		fd = open(cands[c], O_RDONLY);
		if (fd < 0)
			continue;
		elf = elf_begin(fd, ELF_C_READ, NULL);
		while (elf && !found && (scn = elf_nextscn(elf, scn))) {
			Elf_Data *data;
			GElf_Shdr sh;
			size_t i;

			if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
				continue;
			data = elf_getdata(scn, NULL);
			for (i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
				GElf_Sym s;

				if (!gelf_getsym(data, i, &s) ||
				    GELF_ST_TYPE(s.st_info) != STT_FUNC ||
				    addr - bias < s.st_value ||
				    addr - bias >= s.st_value + s.st_size)
					continue;
				snprintf(buf, len, "%s", elf_strptr(elf, sh.sh_link, s.st_name));
				found = buf;
				break;
			}
		}
		elf_end(elf);
		close(fd);
	}
	return found;
}

static int tp_id(const char *name)
{
	char path[256];
	FILE *f;
	int id = -1;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/id", name);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &id) != 1)
			id = -1;
		fclose(f);
	}
	return id;
}

struct run {
	unsigned char *ring;
	size_t ring_size;
	int fd;
	u64 sample_type, regs_mask;
};

/* Start @prog stopped before exec, with the event attached to it. */
static int run_workload(const char *prog, struct run *r)
{
	struct perf_event_attr a = { 0 };
	char arg[16];
	int go[2], id = tp_id("syscalls/sys_enter_getppid");
	pid_t pid;
	char c;

	if (id < 0 || pipe(go))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		snprintf(arg, sizeof(arg), "%d", NR_CALLS);
		execl(prog, prog, arg, (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = id;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	a.sample_regs_user = unwinder__regs_mask();
	a.sample_stack_user = STACK_SIZE;
	a.mmap = 1; /* the kernel emits none without it, mmap2 or not */
	a.mmap2 = 1;
	a.sample_id_all = 1;
	a.enable_on_exec = 1;
	a.disabled = 1;
	a.exclude_kernel = 1;
	r->sample_type = a.sample_type;
	r->regs_mask = a.sample_regs_user;
	r->fd = syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	r->ring_size = (RING_PAGES + 1) * 4096;
	r->ring = r->fd < 0
			  ? MAP_FAILED
			  : mmap(NULL, r->ring_size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (write(go[1], "g", 1) != 1)
		return -1;
	close(go[1]);
	waitpid(pid, NULL, 0);
	if (r->ring == MAP_FAILED) {
		if (r->fd >= 0)
			close(r->fd);
		return -1;
	}
	return 0;
}

static int check_chain(struct unwinder *u, struct run *r, const char *prog, const char **expect)
{
	struct perf_event_mmap_page *pg = (void *)r->ring;
	unsigned char *data = r->ring + pg->data_offset, rec[65536];
	u64 head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), tail = pg->data_tail;
	u64 size = pg->data_size;
	int good = 0, samples = 0;

	nr_maps = 0;
	while (tail < head) {
		struct perf_event_header *h = (void *)rec;
		u64 off = tail % size, i;

		for (i = 0; i < sizeof(*h); i++)
			rec[i] = data[(off + i) % size];
		if (h->size < sizeof(*h))
			break;
		for (i = 0; i < h->size; i++)
			rec[i] = data[(off + i) % size];
		tail += h->size;
		if (h->type == PERF_RECORD_MMAP2) {
			struct rec_mmap2 m;

			if (rec__mmap2(h, &m) || m.filename[0] != '/' || nr_maps == MAX_MAPS)
				continue;
			snprintf(map_paths[nr_maps], PATH_MAX, "%s", m.filename);
			maps[nr_maps] = (struct unwind_map){ m.addr, m.addr + m.len, m.pgoff,
							     map_paths[nr_maps] };
			nr_maps++;
		} else if (h->type == PERF_RECORD_SAMPLE) {
			struct sample s = { 0 };
			u64 ips[64];
			char line[1024] = "", name[256];
			int n, k, e = 0, len = 0;

			if (sample__parse(h, r->sample_type, 0, r->regs_mask, &s))
				continue;
			s.sample_type = r->sample_type;
			samples++;
			n = unwinder__user(u, &s, find_map, NULL, ips, 64);
			if (samples == NR_CALLS) {
				/* the cost of a warm unwind of a real sample */
				struct timespec t0, t1;
				int rep;

				clock_gettime(CLOCK_MONOTONIC, &t0);
				for (rep = 0; rep < 1000; rep++)
					unwinder__user(u, &s, find_map, NULL, ips, 64);
				clock_gettime(CLOCK_MONOTONIC, &t1);
				printf("# %s: warm unwind of %d frames: %.2f us\n", prog, n,
				       ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) /
					       1e3 / 1000);
			}
			for (k = 0; k < n; k++) {
				const struct unwind_map *m =
					find_map(NULL, k ? ips[k] - 1 : ips[k]);
				const char *nm =
					m ? sym_name(m, k ? ips[k] - 1 : ips[k], name, sizeof(name))
					  : NULL;

				if (!nm)
					nm = m && strstr(m->path, "libc.so") ? "[libc]" : "?";
				len += snprintf(line + len, sizeof(line) - len, " %s", nm);
				/* frame 0 is getppid in libc, then the chain in order */
				if (k > 0 && expect[e] && strcmp(nm, expect[e]) == 0)
					e++;
				else if (k > 0 && expect[e])
					e = 99;
				if (len >= (int)sizeof(line) - 1)
					break;
			}
			if (e < 99 && !expect[e])
				good++;
			else
				printf("# %s: got%s\n", prog, line);
		}
	}
	pg->data_tail = tail;
	printf("# %s: %d of %d samples unwound to main (%d maps)\n", prog, good, samples, nr_maps);
	return good == NR_CALLS && samples == NR_CALLS ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const char *chains[][6] = {
		{ "stk_fp", "lib_c", "lib_b", "stk_a", "main" },
		{ "stk_nofp", "lib_c", "lib_b", "stk_a", "main" },
		{ "stk_dbgframe", "strip_b", "strip_a", "main" },
		{ "stk_stripped", "strip_b", "strip_a", "main" },
		{ "stk_exit", "exit_b", "exit_a", "main" },
		{ "stk_cxx", "_ZN2ns5innerEiPKc", "_ZN2ns5OuterIiE3runEv", "main" },
	};
	char self[PATH_MAX], work[PATH_MAX + 16], prog[PATH_MAX + 64];
	struct unwinder *u;
	unsigned i;
	ssize_t n;

	(void)argc, (void)argv;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return ut_done("unwind_live");
	self[n] = 0;
	/* BUILD/tests/test_unwind_live -> BUILD/work */
	snprintf(work, sizeof(work), "%s/work", dirname(dirname(self)));
	if (geteuid() != 0) {
		printf("# skip: needs root\n");
		return ut_done("unwind_live");
	}
	elf_version(EV_CURRENT);
	u = unwinder__new();
	CHECK(u != NULL, "unwinder__new");
	for (i = 0; u && i < sizeof(chains) / sizeof(chains[0]); i++) {
		struct run r;

		snprintf(prog, sizeof(prog), "%s/%s", work, chains[i][0]);
		if (access(prog, X_OK)) {
			printf("# skip %s: not built (make workloads)\n", prog);
			continue;
		}
		if (run_workload(prog, &r)) {
			printf("# skip %s: cannot open the event: %s\n", prog, strerror(errno));
			continue;
		}
		CHECK(check_chain(u, &r, chains[i][0], chains[i] + 1) == 0, "%s", chains[i][0]);
		munmap(r.ring, r.ring_size);
		close(r.fd);
	}
	unwinder__delete(u);
	return ut_done("unwind_live");
}
