// SPDX-License-Identifier: GPL-2.0
/*
 * Option groups: a profiler gets exactly the groups it lists, each group's
 * options land in its own struct, checks run in the listed order (the stack
 * group sees the events, the flame group sees the stack group), "--" goes
 * to the target group, and the engine's configuration holds only the
 * engine's groups.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "ut.h"

struct own {
	bool flag;
	int level;
	unsigned long long than;
};

static const struct popt own_opts[] = {
	{ .lname = "flag", .sname = 'F', POPT_BIND_FLAG(struct own, flag) },
	{ .lname = "level", .sname = 'L', POPT_BIND_COUNT(struct own, level) },
	{ .lname = "than", .argname = "TIME", POPT_BIND_TIME(struct own, than, "ms") },
	{ 0 },
};

static int init_none(struct session *s, void *priv, const struct opt_set *opts)
{
	(void)s, (void)priv, (void)opts;
	return 0;
}

static const struct profiler prof = {
	.name = "fake",
	.desc = "a fake profiler",
	.groups = (const struct opt_group *const[]){ &event_group, &target_group, &stack_group,
						     &flame_group, NULL },
	.own = own_opts,
	.priv_size = sizeof(struct own),
	.init = init_none,
};

/* The same groups listed the other way round: the checks still see what they read. */
static const struct profiler prof_rev = {
	.name = "fake-rev",
	.desc = "groups in reverse",
	.groups = (const struct opt_group *const[]){ &flame_group, &stack_group, &target_group,
						     &event_group, NULL },
	.own = own_opts,
	.priv_size = sizeof(struct own),
	.init = init_none,
};

/* Parse the words of @line; 0, 1 (help) or -1.  @set must be freed. */
static int parse_p(const struct profiler *p, const char *line, struct opt_set *set, struct own *own)
{
	static char buf[512];
	char *argv[32], *save = NULL;
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	argv[argc++] = "fake";
	for (char *t = strtok_r(buf, " ", &save); t && argc < 31; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	memset(own, 0, sizeof(*own));
	return options__parse(p, argc, argv, set, own);
}

static int parse(const char *line, struct opt_set *set, struct own *own)
{
	return parse_p(&prof, line, set, own);
}

int main(void)
{
	const struct stack_opts *st;
	const struct target_opts *t;
	const struct log_opts *log;
	struct engine_conf conf;
	struct opt_set set;
	struct own own;
	int ret;

	/* own options and the always-present log group */
	ret = parse("-F -LL --than 20us -vv -q", &set, &own);
	CHECK_INT(ret, 0);
	CHECK(own.flag, "--flag");
	CHECK_INT(own.level, 2);
	CHECK_INT(own.than, 20000);
	log = opt_set__get(&set, &log_group);
	CHECK(log && log->verbose == 2 && log->quiet, "log group");
	/* the target check filled in the online CPUs; no ring group was listed */
	t = opt_set__get(&set, &target_group);
	CHECK(t && t->nr_cpus > 0 && t->cpus && !t->cpus_given, "default CPUs");
	CHECK(!opt_set__get(&set, &ring_group), "ring group not listed");
	options__engine_conf(&set, &conf);
	CHECK(conf.target == t && !conf.ring && !conf.run && conf.log == log, "engine conf");
	CHECK(conf.capture && conf.capture->cg == CG_NONE && !conf.output_file, "capture");
	options__free(&set);

	/* a group the profiler does not list: its options are unknown */
	CHECK_INT(parse("-m 64", &set, &own), -1);
	options__free(&set);
	CHECK_INT(parse("-o out.txt", &set, &own), -1);
	options__free(&set);

	/* the stack group turns stacks on for a "stack" event; the flame group then accepts */
	ret = parse("-e sched:sched_switch/stack/ --flame-graph x.svg", &set, &own);
	CHECK_INT(ret, 0);
	st = opt_set__get(&set, &stack_group);
	CHECK(st && st->capture.cg == CG_FP && st->capture.by_attr, "stack attribute");
	CHECK_STR(((const struct flame_opts *)opt_set__get(&set, &flame_group))->name, "x.svg");
	options__free(&set);
	/* ... and refuses a flame graph without stacks */
	CHECK_INT(parse("-e sched:sched_switch --flame-graph x.svg", &set, &own), -1);
	options__free(&set);

	/* stack options: capture and print halves together */
	ret = parse("--call-graph dwarf,4096 --kernel-stack --no-dso", &set, &own);
	CHECK_INT(ret, 0);
	st = opt_set__get(&set, &stack_group);
	CHECK(st->capture.cg == CG_DWARF && st->capture.dwarf_size == 4096, "dwarf");
	CHECK(st->capture.no_user && (st->print & STACK_KERNEL_ONLY) && (st->print & STACK_NO_DSO),
	      "kernel half");
	options__free(&set);
	CHECK_INT(parse("-g --user-stack --kernel-stack", &set, &own), -1);
	options__free(&set);

	/* the original's long names: an alias is the same option */
	ret = parse("--cpus 0 --pids 1,2 --tids=3", &set, &own);
	CHECK_INT(ret, 0);
	t = opt_set__get(&set, &target_group);
	CHECK(t->cpus_given && t->nr_cpus == 1 && t->cpus[0] == 0, "--cpus 0");
	CHECK(t->nr_pids == 2 && t->pids[1] == 2 && t->nr_tids == 1 && t->tids[0] == 3,
	      "--pids, --tids=");
	options__free(&set);
	{
		char left[64];

		popt__left(&target_group.opts[0], left, sizeof(left));
		CHECK(!strcmp(left, "-C, --cpu, --cpus CPUS"), "help left: %s", left);
	}
	/* --call-graph: alone fp; its mode as the next word or after '=' */
	ret = parse("--call-graph -C 0", &set, &own);
	CHECK_INT(ret, 0);
	st = opt_set__get(&set, &stack_group);
	CHECK(st->capture.cg == CG_FP && !st->capture.defaulted, "--call-graph alone");
	options__free(&set);
	ret = parse("--call-graph fp", &set, &own);
	CHECK_INT(ret, 0);
	CHECK(((struct stack_opts *)opt_set__get(&set, &stack_group))->capture.cg == CG_FP,
	      "--call-graph fp");
	options__free(&set);
	ret = parse("--call-graph=dwarf", &set, &own);
	CHECK_INT(ret, 0);
	CHECK(((struct stack_opts *)opt_set__get(&set, &stack_group))->capture.cg == CG_DWARF,
	      "--call-graph=dwarf");
	options__free(&set);
	ret = parse("--call-graph dwarf,16 --", &set, &own);
	CHECK_INT(ret, -1); /* "--" with nothing after */
	options__free(&set);
	CHECK_INT(parse("--call-graph dwarf,7", &set, &own), -1);
	options__free(&set);
	/* a word that is no mode stays a word: here an unexpected argument */
	CHECK_INT(parse("--call-graph dwraf", &set, &own), -1);
	options__free(&set);
	/* -V and "help" as the last word: printed, 1 (exit 0) */
	CHECK_INT(parse("-V", &set, &own), 1);
	options__free(&set);
	CHECK_INT(parse("-C 0 --version", &set, &own), 1);
	options__free(&set);
	CHECK_INT(parse("-e sched:sched_wakeup -C 0 help", &set, &own), 1);
	options__free(&set);
	CHECK_INT(parse("-e help", &set, &own), -1); /* -e's value, a bad event */
	options__free(&set);
	CHECK_INT(parse("help -C 0", &set, &own), -1); /* not the last word */
	options__free(&set);
	ret = parse("-C 0 -- /bin/echo help", &set, &own); /* the workload's */
	CHECK_INT(ret, 0);
	t = opt_set__get(&set, &target_group);
	CHECK(t->argv && !strcmp(t->argv[1], "help"), "help after --");
	options__free(&set);

	/* "--" is the target group's workload; -p with it is refused */
	ret = parse("-C 0 -- /bin/true x", &set, &own);
	CHECK_INT(ret, 0);
	t = opt_set__get(&set, &target_group);
	CHECK(t->argv && !strcmp(t->argv[0], "/bin/true") && !strcmp(t->argv[1], "x"), "argv");
	CHECK(t->cpus_given && t->nr_cpus == 1 && t->cpus[0] == 0, "-C 0");
	options__free(&set);
	CHECK_INT(parse("-p 1 -- /bin/true", &set, &own), -1);
	options__free(&set);
	CHECK_INT(parse("-p 1,x", &set, &own), -1);
	options__free(&set);

	/* checks run events -> stack -> flame whatever the listed order */
	CHECK_INT(parse_p(&prof_rev, "-e sched:sched_switch/stack/ --flame-graph x", &set, &own),
		  0);
	st = opt_set__get(&set, &stack_group);
	CHECK(st && st->capture.cg == CG_FP, "stack attribute seen before the stack check");
	options__free(&set);

	/* -e repeats: each is a position; aliases are unique across them */
	CHECK_INT(
		parse("-e sched:sched_wakeup,sched:sched_waking -e sched:sched_switch", &set, &own),
		0);
	{
		const struct event_opts *ev = opt_set__get(&set, &event_group);

		CHECK(ev && ev->nr_texts == 2 && ev->nr_specs == 3, "two -e, three events");
		CHECK(ev && ev->specs[0].pos == 0 && ev->specs[1].pos == 0 && ev->specs[2].pos == 1,
		      "positions");
	}
	options__free(&set);
	CHECK_INT(parse("-e sched:a//alias=x/ -e sched:b//alias=x/", &set, &own), -1);
	options__free(&set);

	/*
	 * The 60 s rule: a bare --than in the option's unit (ms) over 60 s is
	 * refused (the original's later versions read it as ns); with a unit
	 * any length goes; exactly 60 s bare is still taken.
	 */
	CHECK_INT(parse("--than 60000", &set, &own), 0);
	CHECK(own.than == 60000000000ULL, "--than 60000 = 60s: %llu", own.than);
	options__free(&set);
	CHECK_INT(parse("--than 60001", &set, &own), -1);
	options__free(&set);
	CHECK_INT(parse("--than 60000.5", &set, &own), -1);
	options__free(&set);
	CHECK_INT(parse("--than 1000000", &set, &own), -1);
	options__free(&set);
	CHECK_INT(parse("--than 1000000ns", &set, &own), 0);
	CHECK(own.than == 1000000ULL, "--than 1000000ns: %llu", own.than);
	options__free(&set);
	CHECK_INT(parse("--than 2m", &set, &own), 0);
	CHECK(own.than == 120000000000ULL, "--than 2m: %llu", own.than);
	options__free(&set);
	CHECK_INT(parse("--than 1000s", &set, &own), 0);
	options__free(&set);
	{
		struct own o = { .than = 7 };
		char buf[256], *err = buf;

		CHECK_INT(popt__set_as(&own_opts[2], &o, "1000000", "task-state", buf, sizeof(buf)),
			  -1);
		CHECK_STR(err, "--than 1000000: 1000 s in task-state's unit (ms): write the unit, "
			       "e.g. 1ms or 1000s");
		CHECK(o.than == 7, "refused value stored: %llu", o.than);
		CHECK_INT(popt__set(&own_opts[2], &o, "60000.001", buf, sizeof(buf)), -1);
		CHECK_STR(err, "--than 60000.001: 60.000001 s in this option's unit (ms): write "
			       "the unit, e.g. 60us or 60000001us");
		CHECK_INT(popt__set(&own_opts[2], &o, "100", buf, sizeof(buf)), 0);
		CHECK(o.than == 100000000ULL, "--than 100 = 100ms: %llu", o.than);
	}

	{ /* a multi-line value (sql's --query) takes newlines and tabs, no other control */
		struct ml {
			const char *q;
		} m = { 0 };
		const struct popt one = { .lname = "query", POPT_BIND_STR(struct ml, q) };
		const struct popt many = { .lname = "query",
					   .multiline = true,
					   POPT_BIND_STR(struct ml, q) };
		char buf[256], *err = buf;

		CHECK_INT(popt__set(&one, &m, "SELECT 1\nFROM t", buf, sizeof(buf)), -1);
		CHECK_STR(err, "bad --query: control character 0x0a at offset 8 (values are "
			       "printable text)");
		CHECK_INT(popt__set(&many, &m, "SELECT 1\n\tFROM t\r\n", buf, sizeof(buf)), 0);
		CHECK_STR(m.q, "SELECT 1\n\tFROM t\r\n");
		CHECK_INT(popt__set(&many, &m, "SELECT 1\x01", buf, sizeof(buf)), -1);
		CHECK_STR(err, "bad --query: control character 0x01 at offset 8 (values are "
			       "printable text)");
	}

	/* an unknown -e attribute of this profiler is refused */
	CHECK_INT(parse("-e sched:sched_switch//num=prev_pid/", &set, &own), -1);
	options__free(&set);
	return ut_done("test_opt");
}
