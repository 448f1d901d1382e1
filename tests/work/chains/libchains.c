// SPDX-License-Identifier: GPL-2.0
/* The shared-library half of bench_chains' call chains. */
#include "chains.h"

static const chains_step *tab;

void chains_lib_init(const chains_step *steps)
{
	tab = steps;
}

#define LIB_STEP(n)                                    \
	void lib_step##n(unsigned int path, int level) \
	{                                              \
		CHAINS_STEP_BODY(tab, path, level);    \
	}
LIB_STEP(0)
LIB_STEP(1)
LIB_STEP(2)
LIB_STEP(3)
LIB_STEP(4)
LIB_STEP(5)
LIB_STEP(6)
LIB_STEP(7)
