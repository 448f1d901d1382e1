/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line options in groups.  A module that takes options (the
 * engine's targets, ring buffers and events, stack capture and printing,
 * flame graphs, the output file) describes them once as a struct opt_group:
 * a table of options bound to the members of its own struct, and a check
 * that validates the parsed struct.  A profiler or a command lists the
 * groups it accepts; the CLI builds one getopt table from them, allocates
 * each group's struct, and hands the parsed set (struct opt_set) on.
 */
#ifndef PP_OPT_H
#define PP_OPT_H

#include <stdbool.h>
#include <stddef.h>

enum popt_type {
	POPT_FLAG,  /* bool at off, no argument */
	POPT_STR,   /* const char * at off */
	POPT_UINT,  /* unsigned long long at off */
	POPT_TIME,  /* unsigned long long nanoseconds at off: "10ms", "5us", "1s", "300" (= unit) */
	POPT_COUNT, /* int at off, one more per use (-vv) */
	POPT_CB,    /* cb(data, arg) */
};

struct popt {
	const char *lname; /* long name without "--" */
	int sname;	   /* short option character, 0 for none */
	/* NULL: no argument; "[=...]": an optional one (--opt=VALUE only) */
	const char *argname;
	const char *help;
	enum popt_type type;
	size_t off;	  /* offset in the bound struct */
	const char *unit; /* POPT_TIME: unit of a bare number ("ms") */
	/* POPT_UINT: the values allowed, when either is set (max 0: no upper bound) */
	unsigned long long min, max;
	/* POPT_CB: 0, or -1 with one line (no newline) in @err */
	int (*cb)(void *data, const char *arg, char *err, size_t errlen);
	/*
	 * A second long name, the original perf-prof's spelling ("cpus" beside
	 * "cpu"): the same option, shown as "--cpu, --cpus" in -h and man pages.
	 */
	const char *alias;
	/*
	 * An optional argument ("[=...]") that may also be the next word: when
	 * the option is given without "=VALUE" and this says yes to the word
	 * after it ("--call-graph dwarf"), that word is the value.
	 */
	bool (*takes_word)(const char *word);
	/*
	 * POPT_STR: '' is a value, meaning the default (the option left as
	 * if not given: --title '').  Otherwise '' is refused.
	 */
	bool empty_default;
	/* POPT_STR: newlines and tabs are text too (an SQL query over several lines) */
	bool multiline;
};

/*
 * Bindings checked at compile time: the member must have the type the
 * option writes (a flag a bool, a string a const char *, a number or a
 * time an unsigned long long, a count an int), or the table does not
 * compile.  Use these, never a bare .off.
 */
#define POPT_OFF_(T, m, type)                                                              \
	__builtin_choose_expr(__builtin_types_compatible_p(__typeof__(((T *)0)->m), type), \
			      offsetof(T, m), (void)0)
#define POPT_BIND_FLAG(T, m) .type = POPT_FLAG, .off = POPT_OFF_(T, m, bool)
#define POPT_BIND_STR(T, m) .type = POPT_STR, .off = POPT_OFF_(T, m, const char *)
#define POPT_BIND_UINT(T, m) .type = POPT_UINT, .off = POPT_OFF_(T, m, unsigned long long)
#define POPT_BIND_COUNT(T, m) .type = POPT_COUNT, .off = POPT_OFF_(T, m, int)
/* POPT_UINT within [lo, hi] (hi 0: no upper bound): "-F 0" is refused with min 1 */
#define POPT_RANGE(lo, hi) .min = (lo), .max = (hi)
#define POPT_BIND_TIME_MS(T, m) POPT_BIND_TIME(T, m, "ms")
#define POPT_BIND_TIME(T, m, u) \
	.type = POPT_TIME, .off = POPT_OFF_(T, m, unsigned long long), .unit = (u)

struct opt_set;

struct opt_group {
	const char *name;	 /* "target", "stack", ... (for messages and tests) */
	const struct popt *opts; /* terminated by { 0 } */
	size_t size;		 /* of the struct the options are bound to */
	/*
	 * After parsing: validate and complete the struct (defaults).  A check
	 * may read another group through opt_set__get: the events before the
	 * stack group, the stack group before the flame group (the CLI runs
	 * them in that order).  0, or -1 with one line (no newline) in @err.
	 */
	int (*check)(void *data, const struct opt_set *set, char *err, size_t errlen);
	void (*free)(void *data); /* what the options allocated, not data itself */
};

#define OPT_MAX_GROUPS 14

/* The parsed groups of one command line. */
struct opt_set {
	int n;
	struct {
		const struct opt_group *g;
		void *data;
	} e[OPT_MAX_GROUPS];
};

/* The parsed struct of group @g, or NULL when the command line had no such group. */
void *opt_set__get(const struct opt_set *set, const struct opt_group *g);

/*
 * Store @arg in @data per @o (POPT_FLAG, _STR, _UINT, _TIME, _COUNT, _CB).
 * 0, or -1 with one line in @err.  Every value is printable text: a control
 * character (a tab, a newline, 0x7f...) is refused wherever it is, with its
 * offset; a string option's value may not be empty unless it says '' is
 * its default (.empty_default); a number must be in the option's range
 * (POPT_RANGE).
 */
int popt__set(const struct popt *o, void *data, const char *arg, char *err, size_t errlen);
/*
 * The same, for @owner (a profiler's name, or NULL) in messages.  A
 * POPT_TIME value written as a bare number ("1000000", read in the option's
 * unit) that means more than POPT_BARE_MAX_NS is refused with a hint to
 * write the unit: "--than 1000000: 1000 s in task-state's unit (ms): write
 * the unit, e.g. 1ms or 1000s" (the original's later versions read a bare
 * --than or --period as ns).  With a unit ("2m", "120s") any length goes.
 */
#define POPT_BARE_MAX_NS (60ULL * 1000000000ULL)
int popt__set_as(const struct popt *o, void *data, const char *arg, const char *owner, char *err,
		 size_t errlen);
/* "-v, --verbose" / "    --order-mem SIZE" into @buf, for help. */
void popt__left(const struct popt *o, char *buf, size_t len);

/* -v, -q and -V: every profiler and command takes them. */
struct log_opts {
	int verbose;  /* -v (repeatable) */
	bool quiet;   /* -q */
	bool version; /* -V: print the version and exit 0 (the CLI does) */
};
extern const struct opt_group log_group;

#endif
