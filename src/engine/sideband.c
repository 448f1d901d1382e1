// SPDX-License-Identifier: GPL-2.0
/* Side-band records: their decoding, and their way to the sideband hooks. */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/session_int.h"
#include "engine/sideband.h"

unsigned sideband__bit(u32 type)
{
	switch (type) {
	case PERF_RECORD_KSYMBOL:
		return SB_KSYMBOL;
	case PERF_RECORD_BPF_EVENT:
		return SB_BPF_EVENT;
	case PERF_RECORD_CGROUP:
		return SB_CGROUP;
	case PERF_RECORD_TEXT_POKE:
		return SB_TEXT_POKE;
	default:
		return 0;
	}
}

unsigned sideband__supported(unsigned want)
{
	unsigned ok = 0;

	for (unsigned bit = 1; bit <= SB_TEXT_POKE; bit <<= 1) {
		struct perf_event_attr a = {
			.size = sizeof(a),
			.type = PERF_TYPE_SOFTWARE,
			.config = PERF_COUNT_SW_DUMMY,
			.disabled = 1,
			.sample_id_all = 1,
			.ksymbol = bit == SB_KSYMBOL,
			.bpf_event = bit == SB_BPF_EVENT,
			.cgroup = bit == SB_CGROUP,
			.text_poke = bit == SB_TEXT_POKE,
		};
		int fd;

		if (!(want & bit))
			continue;
		fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0)
			close(fd);
		if (fd >= 0 || (errno != EINVAL && errno != E2BIG))
			ok |= bit;
	}
	return ok;
}

/* A NUL-terminated string from @off up to @end (the sample_id trailer), or NULL. */
static const char *body_string(const struct perf_event_header *hdr, size_t off, size_t end)
{
	const char *p = (const char *)hdr + off;

	if (off >= end || !memchr(p, 0, end - off))
		return NULL;
	return p;
}

int rec__sideband(const struct perf_event_header *hdr, u64 sample_type, struct rec_sideband *r)
{
	const unsigned char *p = (const unsigned char *)(hdr + 1);
	unsigned idsz = sample__id_size(sample_type);
	struct sample id;
	size_t end, body;
	uint16_t u;

	if (!sideband__bit(hdr->type))
		return -ENOENT;
	if (hdr->size < sizeof(*hdr) + idsz || sample__parse_id(hdr, sample_type, &id))
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->type = hdr->type;
	r->pid = id.pid;
	r->tid = id.tid;
	r->cpu = id.cpu;
	r->time = id.time;
	end = hdr->size - idsz; /* the body ends where the trailer starts */
	body = end - sizeof(*hdr);
	switch (hdr->type) {
	case PERF_RECORD_KSYMBOL:
		if (body < 16)
			return -EINVAL;
		memcpy(&r->ksym.addr, p, 8);
		memcpy(&r->ksym.len, p + 8, 4);
		memcpy(&r->ksym.ksym_type, p + 12, 2);
		memcpy(&u, p + 14, 2);
		r->ksym.unregister = u & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER;
		r->ksym.name = body_string(hdr, sizeof(*hdr) + 16, end);
		return r->ksym.name ? 0 : -EINVAL;
	case PERF_RECORD_BPF_EVENT:
		if (body < 16)
			return -EINVAL;
		memcpy(&r->bpf.type, p, 2);
		memcpy(&r->bpf.id, p + 4, 4);
		memcpy(r->bpf.tag, p + 8, 8);
		return 0;
	case PERF_RECORD_CGROUP:
		if (body < 8)
			return -EINVAL;
		memcpy(&r->cgroup.id, p, 8);
		r->cgroup.path = body_string(hdr, sizeof(*hdr) + 8, end);
		return r->cgroup.path ? 0 : -EINVAL;
	default: /* PERF_RECORD_TEXT_POKE */
		if (body < 12)
			return -EINVAL;
		memcpy(&r->poke.addr, p, 8);
		memcpy(&r->poke.old_len, p + 8, 2);
		memcpy(&r->poke.new_len, p + 10, 2);
		if ((size_t)r->poke.old_len + r->poke.new_len > body - 12)
			return -EINVAL;
		r->poke.old_bytes = p + 12;
		r->poke.new_bytes = p + 12 + r->poke.old_len;
		return 0;
	}
}

void session__sideband(struct session *s, const struct perf_event_header *h)
{
	struct rec_sideband r;

	if (!rec__sideband(h, BASE_SAMPLE_TYPE, &r))
		SESSION_CALL(s, sideband, &r);
}
