/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fields every tracepoint's format file on this host opens with (as
 * /sys/kernel/tracing/events/SYS/NAME/format gives them), and the blank
 * line after them, for the tests' format texts:
 *
 *	"name: burst\nID: 4242\nformat:\n" FMT_COMMON_FIELDS "\tfield:int n;..."
 */
#ifndef PP_FMT_COMMON_H
#define PP_FMT_COMMON_H

#define FMT_COMMON_FIELDS                                                              \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"         \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"         \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"                     \
	"\n"

#endif
