/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint formats of this host (Debian 12, kernel 6.18), as
 * /sys/kernel/tracing/events/SYS/NAME/format gives them, for the expression
 * tests, the fuzz target and the injected-session tests of profilers; long print formats are shortened (the fields
 * are what matters).  expr_formats__load parses them all.
 */
#ifndef PP_EXPR_FORMATS_H
#define PP_EXPR_FORMATS_H

#include <event-parse.h>
#include <string.h>

#include "engine/session.h"
#include "fmt_common.h"

static const char fmt_sched_switch[] =
	"name: sched_switch\n"
	"ID: 372\n"
	"format:\n" FMT_COMMON_FIELDS
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
	"next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
	"(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & "
	"((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, "
	"\"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { "
	"0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", "
	"REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, "
	"REC->next_pid, REC->next_prio\n";

static const char fmt_sched_wakeup[] =
	"name: sched_wakeup\n"
	"ID: 374\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, "
	"REC->target_cpu\n";

static const char fmt_sys_enter[] =
	"name: sys_enter\n"
	"ID: 443\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n"
	"\n"
	"print fmt: \"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, REC->args[0], "
	"REC->args[1], REC->args[2], REC->args[3], REC->args[4], REC->args[5]\n";

static const char fmt_inet_sock_set_state[] =
	"name: inet_sock_set_state\n"
	"ID: 2287\n"
	"format:\n" FMT_COMMON_FIELDS
	"\tfield:const void * skaddr;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int oldstate;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:int newstate;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:__u16 sport;\toffset:24;\tsize:2;\tsigned:0;\n"
	"\tfield:__u16 dport;\toffset:26;\tsize:2;\tsigned:0;\n"
	"\tfield:__u16 family;\toffset:28;\tsize:2;\tsigned:0;\n"
	"\tfield:__u16 protocol;\toffset:30;\tsize:2;\tsigned:0;\n"
	"\tfield:__u8 saddr[4];\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:__u8 daddr[4];\toffset:36;\tsize:4;\tsigned:0;\n"
	"\tfield:__u8 saddr_v6[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:__u8 daddr_v6[16];\toffset:56;\tsize:16;\tsigned:0;\n"
	"\n"
	"print fmt: \"sport=%hu dport=%hu\", REC->sport, REC->dport\n";

static const char fmt_sched_process_exec[] =
	"name: sched_process_exec\n"
	"ID: 365\n"
	"format:\n" FMT_COMMON_FIELDS
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, "
	"REC->old_pid\n";

static const char fmt_dma_unmap_sg[] =
	"name: dma_unmap_sg\n"
	"ID: 429\n"
	"format:\n" FMT_COMMON_FIELDS
	"\tfield:__data_loc char[] device;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc u64[] addrs;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:enum dma_data_direction dir;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long attrs;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"%s dir=%d\", __get_str(device), REC->dir\n";

static const char fmt_kvm_pvclock_update[] =
	"name: kvm_pvclock_update\n"
	"ID: 78\n"
	"format:\n" FMT_COMMON_FIELDS
	"\tfield:unsigned int vcpu_id;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:__u32 version;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:__u64 tsc_timestamp;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:__u64 system_time;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:__u32 tsc_to_system_mul;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:__s8 tsc_shift;\toffset:36;\tsize:1;\tsigned:1;\n"
	"\tfield:__u8 flags;\toffset:37;\tsize:1;\tsigned:0;\n"
	"\n"
	"print fmt: \"vcpu_id %u, pvclock { version %u, tsc_timestamp 0x%llx, system_time 0x%llx, "
	"tsc_to_system_mul 0x%x, tsc_shift %d, flags 0x%x }\", REC->vcpu_id, REC->version, "
	"REC->tsc_timestamp, REC->system_time, REC->tsc_to_system_mul, REC->tsc_shift, "
	"REC->flags\n";

static const char fmt_oom_score_adj_update[] =
	"name: oom_score_adj_update\n"
	"ID: 611\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:0;\n"
	"\tfield:short oom_score_adj;\toffset:28;\tsize:2;\tsigned:1;\n"
	"\n"
	"print fmt: \"pid=%d comm=%s oom_score_adj=%hd\", REC->pid, REC->comm, "
	"REC->oom_score_adj\n";

static const char fmt_kmalloc[] =
	"name: kmalloc\n"
	"ID: 658\n"
	"format:\n" FMT_COMMON_FIELDS
	"\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:const void * ptr;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:size_t bytes_req;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:size_t bytes_alloc;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long gfp_flags;\toffset:40;\tsize:8;\tsigned:0;\n"
	"\tfield:int node;\toffset:48;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"call_site=%pS ptr=%p bytes_req=%zu\", (void *)REC->call_site, REC->ptr, "
	"REC->bytes_req\n";

static const char fmt_sys_enter_write[] =
	"name: sys_enter_write\n"
	"ID: 840\n"
	"format:\n" FMT_COMMON_FIELDS "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:const char * buf;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:size_t count;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"fd: 0x%08lx, buf: 0x%08lx, count: 0x%08lx\", ((unsigned long)(REC->fd)), "
	"((unsigned long)(REC->buf)), ((unsigned long)(REC->count))\n";

enum {
	EV_SCHED_SWITCH,
	EV_SCHED_WAKEUP,
	EV_SYS_ENTER,
	EV_INET_SOCK_SET_STATE,
	EV_SCHED_PROCESS_EXEC,
	EV_DMA_UNMAP_SG,
	EV_KVM_PVCLOCK_UPDATE,
	EV_OOM_SCORE_ADJ_UPDATE,
	EV_KMALLOC,
	EV_SYS_ENTER_WRITE,
	NR_EV_FORMATS,
};

static const struct {
	const char *sys, *name, *format;
} expr_formats[NR_EV_FORMATS] = {
	{ "sched", "sched_switch", fmt_sched_switch },
	{ "sched", "sched_wakeup", fmt_sched_wakeup },
	{ "raw_syscalls", "sys_enter", fmt_sys_enter },
	{ "sock", "inet_sock_set_state", fmt_inet_sock_set_state },
	{ "sched", "sched_process_exec", fmt_sched_process_exec },
	{ "dma", "dma_unmap_sg", fmt_dma_unmap_sg },
	{ "kvm", "kvm_pvclock_update", fmt_kvm_pvclock_update },
	{ "oom", "oom_score_adj_update", fmt_oom_score_adj_update },
	{ "kmem", "kmalloc", fmt_kmalloc },
	{ "syscalls", "sys_enter_write", fmt_sys_enter_write },
};

/* Parse every format into @tep and point @evs[i].tp at them; 0 or -1. */
static inline int expr_formats__load(struct tep_handle *tep, struct evsel *evs)
{
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	for (int i = 0; i < NR_EV_FORMATS; i++) {
		const char *f = expr_formats[i].format;

		memset(&evs[i], 0, sizeof(evs[i]));
		if (tep_parse_event(tep, f, strlen(f), expr_formats[i].sys) != TEP_ERRNO__SUCCESS)
			return -1;
		evs[i].tp = tep_find_event_by_name(tep, expr_formats[i].sys, expr_formats[i].name);
		if (!evs[i].tp)
			return -1;
	}
	return 0;
}

#endif
