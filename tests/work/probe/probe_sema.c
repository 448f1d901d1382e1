// SPDX-License-Identifier: GPL-2.0
/* A USDT probe with a semaphore: the tracer's uprobe increments it (ref_ctr_offset). */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

#include "probe_sema.h"

unsigned short ppwork_sematick_semaphore __attribute__((section(".probes")));

long pp_sematick(long i)
{
	if (!ppwork_sematick_semaphore)
		return 0;
	DTRACE_PROBE1(ppwork, sematick, i);
	return 1;
}
