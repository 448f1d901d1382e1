// SPDX-License-Identifier: GPL-2.0
/* The command table: one line per command (a tool that opens no events). */
#include "profiler.h"

extern const struct command cmd_list, cmd_flamegraph;
extern const struct command cmd_heatmap, cmd_check, cmd_usdt;
extern const struct command cmd_kcore;

const struct command *const commands[] = {
	&cmd_list, &cmd_flamegraph, &cmd_heatmap, &cmd_check, &cmd_usdt, &cmd_kcore,
};
const int nr_commands = sizeof(commands) / sizeof(commands[0]);
