// SPDX-License-Identifier: GPL-2.0
/*
 * perf-prof PROFILER [options] [-- command args]
 *
 * The CLI front: picks the profiler, parses options, wires the profiler's
 * hooks to a session, and turns failures into one line on stderr and a
 * non-zero exit status.  Exit status: 0 success (or the workload's own
 * status with -- COMMAND), 1 runtime failure, 2 usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/doc.h"
#include "cli/joint.h"
#include "cli/options.h"
#include "cli/output.h"
#include "engine/fdcloser.h"
#include "expr/expr.h"
#include "report/outfile.h"
#include "profiler.h"
#include "sym/probe_res.h"
#include "sym/stack.h"
#include "util/json.h"
#include "util/ofile.h"
#include "util/stopsig.h"

#define VERSION PERF_PROF_VERSION

struct run {
	const struct profiler *p;
	const struct output_opts *output; /* -o */
	const struct log_opts *log;
	void *priv;
	struct stack_ctx *stack;
	u64 lost_seen;		       /* losses already reported by an interval */
	u64 budget_seen;	       /* of those, drops over the order queue's budget */
	double cpu_usr, cpu_sys, wall; /* at the last usage line (s) */
	struct output *o;	       /* -o FILE */
	bool own_snapshot;	       /* the profiler's (or its modules') sets have a snapshot */
};

static void top_help(FILE *fp)
{
	int w = 12; /* the names' column: as wide as the longest name */

	for (int i = 0; i < nr_profilers; i++)
		if (profilers[i] && (int)strlen(profilers[i]->name) > w)
			w = (int)strlen(profilers[i]->name);
	for (int i = 0; i < nr_commands; i++)
		if ((int)strlen(commands[i]->name) > w)
			w = (int)strlen(commands[i]->name);
	fprintf(fp, "Usage: perf-prof PROFILER [options] [-- command args]\n"
		    "       perf-prof COMMAND [options] [args]\n"
		    "       perf-prof PROFILER|COMMAND -h\n"
		    "       perf-prof --symbols /path/to/binary < addresses\n\n"
		    "Live monitoring on perf_event_open(2): events are filtered in the kernel and\n"
		    "processed as they arrive; nothing is written to disk.\n\nProfilers:\n");
	for (int i = 0; i < nr_profilers; i++)
		if (profilers[i])
			fprintf(fp, "  %-*s %s\n", w, profilers[i]->name, profilers[i]->desc);
	fprintf(fp, "\nCommands (no events):\n");
	for (int i = 0; i < nr_commands; i++)
		fprintf(fp, "  %-*s %s\n", w, commands[i]->name, commands[i]->desc);
}

/* A command: parse its options (positional arguments anywhere) and run it. */
static int run_command(const struct command *c, int argc, char **argv)
{
	struct opt_set set;
	char **pos;
	int nr_pos, ret;
	void *priv = calloc(1, c->priv_size ? c->priv_size : 1);

	if (!priv)
		return 1;
	ret = options__parse_command(c, argc, argv, &set, priv, &pos, &nr_pos);
	if (!ret)
		ret = c->run(&set, priv, nr_pos, pos);
	else
		ret = ret > 0 ? 0 : 2;
	fflush(stdout);
	free(priv);
	options__free(&set);
	return ret;
}

/* Each interval names its own losses; the totals come at the end on stderr. */
static void print_interval_lost(struct session *s, struct run *r)
{
	u64 budget = session__lost_budget(s), lost = session__lost(s) - budget;

	if (session__json(s)) {
		struct json j;

		if (lost <= r->lost_seen && budget <= r->budget_seen)
			return;
		json__begin(&j, session__out(s), "lost");
		json__str(&j, "scope", "interval");
		json__u64(&j, "lost", lost - r->lost_seen);
		json__u64(&j, "dropped", budget - r->budget_seen);
		json__end(&j);
		return;
	}
	if (lost > r->lost_seen)
		fprintf(session__out(s),
			"perf-prof: %llu events lost or throttled in this interval (-m PAGES for "
			"more buffer)\n",
			(unsigned long long)(lost - r->lost_seen));
	if (budget > r->budget_seen)
		fprintf(session__out(s),
			"perf-prof: %llu records dropped in this interval: the time-order queue "
			"was full (--order-mem SIZE)\n",
			(unsigned long long)(budget - r->budget_seen));
}

/* After the profiler's interval output (its hooks run first). */
static void on_interval(struct session *s, void *arg)
{
	struct run *r = arg;
	u64 budget = session__lost_budget(s);

	print_interval_lost(s, r);
	session__print_perfeval(s, "interval");
	r->lost_seen = session__lost(s) - budget;
	r->budget_seen = budget;
}

/* SIGUSR1: the statistics so far; a profiler without any gives its event counts. */
static void on_snapshot(struct session *s, void *arg)
{
	struct run *r = arg;
	FILE *out = session__out(s);

	/* a profiler's own snapshot ran before this hook; else the counts, on the output */
	if (!r->own_snapshot && session__json(s)) {
		struct json j;

		json__begin(&j, out, "events");
		json__str(&j, "scope", "so_far");
		json__obj(&j, "events");
		for (struct evsel *ev = session__evsels(s); ev; ev = ev->next)
			if (ev->nr_samples)
				json__u64(&j, ev->name, ev->nr_samples);
		json__close(&j);
		json__end(&j);
	} else if (!r->own_snapshot) {
		u64 total = 0;

		for (struct evsel *ev = session__evsels(s); ev; ev = ev->next)
			total += ev->nr_samples;
		fprintf(out, "perf-prof: %llu events so far", (unsigned long long)total);
		for (struct evsel *ev = session__evsels(s); ev; ev = ev->next)
			if (ev->nr_samples)
				fprintf(out, "%s %s %llu", total ? ":" : ",", ev->name,
					(unsigned long long)ev->nr_samples);
		fputc('\n', out);
	}
	print_interval_lost(s, r);
	fflush(out);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* SIGUSR2 and --usage-self: perf-prof's own cost since the last such line. */
static void on_usage(struct session *s, void *arg)
{
	double usr, sys, wall = now_s(), span;
	struct run *r = arg;
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return;
	usr = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	sys = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	span = wall - r->wall;
	if (span <= 0)
		span = 1e-9;
	/* data asked for: on the output, in order with the rest (not a problem: no stderr) */
	if (session__json(s)) {
		struct json j;

		json__begin(&j, session__out(s), "usage");
		json__f64(&j, "usr_pct", 100 * (usr - r->cpu_usr) / span);
		json__f64(&j, "sys_pct", 100 * (sys - r->cpu_sys) / span);
		json__f64(&j, "span_s", span);
		json__f64(&j, "max_rss_mib", ru.ru_maxrss / 1024.0);
		json__u64(&j, "records", session__records_read(s));
		json__u64(&j, "lost", session__lost(s));
		json__end(&j);
	} else {
		fprintf(session__out(s),
			"perf-prof: usage: %.1f%% usr %.1f%% sys (of one CPU, last %.2f s), max "
			"RSS %.1f MiB, %llu records read, %llu lost\n",
			100 * (usr - r->cpu_usr) / span, 100 * (sys - r->cpu_sys) / span, span,
			ru.ru_maxrss / 1024.0, (unsigned long long)session__records_read(s),
			(unsigned long long)session__lost(s));
	}
	fflush(session__out(s));
	r->cpu_usr = usr;
	r->cpu_sys = sys;
	r->wall = wall;
}

/*
 * SIGHUP with -o: log rotation.  The file is reopened (created if it was
 * moved away) and appended to, under the same stream.
 */
static void on_reopen(struct session *s, void *arg)
{
	struct run *r = arg;
	int err;

	fflush(session__out(s));
	err = output__reopen(r->o);
	if (err)
		fprintf(stderr,
			"perf-prof %s: SIGHUP: cannot reopen '%s': %s (still writing to the old "
			"file)\n",
			r->p->name, r->output->path, ofile__strerror(-err));
	else if (r->log->verbose)
		fprintf(stderr, "perf-prof: SIGHUP: reopened '%s'\n", r->output->path);
}

/* The run started: now -o is opened (truncated), not before (cli/output.h). */
static int on_started(struct session *s, void *arg)
{
	struct run *r = arg;
	int err = output__start(r->o);

	if (err)
		return session__set_err(s, err, "cannot write '%s': %s", r->output->path,
					ofile__strerror(-err));
	return 0;
}

/*
 * One line for a failure: the session's message, unless the profiler
 * already said why.  Returns the exit status: 2 for a usage error.
 */
static int report(const struct profiler *p, struct session *s)
{
	const char *msg = session__strerror(s);

	if (msg)
		fprintf(stderr, "perf-prof %s: %s\n", p->name, msg);
	return session__err_is_usage(s) ? 2 : 1;
}

/* "skipped 2 events the kernel refuses: a, b" (the first few names). */
static void report_skipped(const struct profiler *p, struct session *s)
{
	char *const *names;
	int n = session__skipped(s, &names);

	if (!n || session__quiet(s))
		return;
	fprintf(stderr, "perf-prof %s: skipped %d event%s the kernel refuses: ", p->name, n,
		n > 1 ? "s" : "");
	for (int i = 0; i < n && i < 8; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", names[i]);
	fprintf(stderr, "%s%s\n", n > 8 ? "..." : "",
		geteuid() ? " (not root: run as root, or lower kernel.perf_event_paranoid)" : "");
}

static int exit_code_of(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

/*
 * The workload died of the stop signal perf-prof passed on to it (or, a
 * shell's way, exited with 128 + that signal): the run's own end.
 */
static bool died_of_stop(int status, int sig)
{
	if (!sig)
		return false;
	if (WIFSIGNALED(status))
		return WTERMSIG(status) == sig;
	return WIFEXITED(status) && WEXITSTATUS(status) == 128 + sig;
}

/*
 * 0, or why writing the output failed.  A closed pipe (EPIPE) is the
 * reader's choice, not a failure of ours.
 */
static int out_error(struct session *s, FILE *out, struct output *o)
{
	struct pollfd pfd = { .fd = fileno(out), .events = POLLOUT };
	int e;

	errno = 0;
	if (!fflush(out) && !ferror(out))
		return 0;
	e = o && *output__errno(o) ? *output__errno(o) : errno ? errno : session__out_errno(s);
	if (e == EPIPE)
		return 0;
	/* the write failed long ago: a pipe without a reader polls POLLERR */
	if (!e && poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLERR))
		return 0;
	return e ? e : EIO;
}

static int run_profiler(const struct profiler *p, const struct opt_set *set, void *priv,
			struct joint *j)
{
	static const struct output_opts no_output;
	const struct output_opts *output = opt_set__get(set, &output_group);
	const struct log_opts *log = opt_set__get(set, &log_group);
	const struct target_opts *target = opt_set__get(set, &target_group);
	const struct stack_opts *stack = opt_set__get(set, &stack_group);
	/* an inner profiler's -g: the maps and time order for all, stacks for its events */
	const struct stack_opts *inner_stack = joint__stack(j);
	struct capture_opts inner_cap;
	struct engine_conf conf;
	/* the CLI's hooks: per-interval losses, SIGUSR1/SIGUSR2, SIGHUP */
	static const struct session_ops cli_ops = {
		.interval = on_interval,
		.snapshot = on_snapshot,
		.usage = on_usage,
		.reopen = on_reopen,
		.started = on_started,
	};
	struct run r = { .p = p, .priv = priv, .wall = now_s(), .log = log };
	struct session *s = NULL;
	struct output *o = NULL;
	FILE *out = stdout;
	int ret = 1, err, status;
	u64 sig, sig_cpu, sig_now;
	sigset_t pipe;

	/*
	 * A reader that goes away (| head) ends the run through EPIPE, never
	 * kills it: the flame graph and the other outputs are still written.
	 */
	signal(SIGPIPE, SIG_IGN);
	/*
	 * Nor does a file size limit (ulimit -f): the write fails with EFBIG,
	 * the run ends as on any output error (status 1) and cleans up.
	 */
	signal(SIGXFSZ, SIG_IGN);
	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	sigprocmask(SIG_UNBLOCK, &pipe, NULL);
	options__engine_conf(set, &conf);
	if (inner_stack && (!stack || stack->capture.cg == CG_NONE)) {
		inner_cap = inner_stack->capture;
		inner_cap.by_attr = true; /* the outer's events: with the 'stack' attribute only */
		conf.capture = &inner_cap;
		stack = inner_stack;
	}
	if (!output)
		output = &no_output;
	r.output = output;
	if (output->path) {
		err = outfile__check(output->path);
		if (err) {
			fprintf(stderr, "perf-prof %s: cannot write '%s': %s\n", p->name,
				output->path, ofile__strerror(-err));
			return 1;
		}
		/* the file itself is opened once the run started (on_started) */
		out = output__new(output->path, &o);
		if (!out) {
			fprintf(stderr, "perf-prof: %s\n", strerror(errno));
			return 1;
		}
		setvbuf(out, NULL, _IOFBF, 1 << 20);
		r.o = o;
	}
	s = session__new(&conf, out);
	if (!s) {
		fprintf(stderr, "perf-prof: %s\n", strerror(errno));
		goto out;
	}
	session__set_out(s, out, output__errno(o));
	session__set_name(s, p->name);
	session__set_json(s, output->json);
	session__set_user_filters(s, &expr_user_filters);
	session__set_probe_resolver(s, probe_res__resolve);
	if (stack && stack->capture.cg != CG_NONE) {
		r.stack = stack_ctx__new(stack->print);
		if (!r.stack) {
			fprintf(stderr, "perf-prof %s: cannot set up symbol resolution: %s\n",
				p->name, strerror(errno));
			goto out;
		}
		session__set_stack(s, r.stack);
		/* a stop during start-up: no stack will be resolved */
		if (!stopsig__pending(!output->path))
			stack_ctx__preload(r.stack);
	}
	/*
	 * Maps and names first, then the profiler, then the sets of the modules
	 * it registers in init, then the CLI (exit: reverse).
	 */
	if ((r.stack && session__add_ops(s, &stack_ctx__ops, r.stack)) ||
	    joint__add_ops(s, &p->ops, priv, j)) {
		ret = report(p, s);
		goto out_deinit;
	}
	err = joint__init(s, p, priv, set, j);
	r.own_snapshot = session__has_snapshot(s);
	if (!err)
		err = session__add_ops(s, &cli_ops, &r);
	if (err) {
		ret = report(p, s);
		goto out_deinit;
	}
	/* init ended it (a help text, a script that exited while loading): nothing to open */
	if (session__stopping(s)) {
		ret = 0;
		goto out_deinit;
	}
	err = session__open(s);
	if (err) {
		ret = report(p, s);
		goto out_deinit;
	}
	report_skipped(p, s);
	err = session__run(s);
	if (log->verbose)
		stack_ctx__print_stats(r.stack, stderr);
	if (err) {
		ret = report(p, s);
		goto out_deinit;
	}
	ret = 0;
out_deinit:
	if (p->deinit)
		p->deinit(s, priv);
	joint__deinit(s, j);
	/* --perfeval-*: the cost since the last interval, after the profiler's report */
	if (session__started(s))
		session__print_perfeval(s, "end");
	/* a flame graph, a heat map... that was not written (said already) */
	if (!ret && session__output_failed(s))
		ret = 1;
	if (!ret && (err = out_error(s, out, o))) {
		fprintf(stderr, "perf-prof %s: writing %s failed: %s\n", p->name,
			output->path ? output->path : "the output", strerror(err));
		ret = 1;
	}
	if (session__lost(s) || session__limited(s) || session__noted(s))
		session__print_lost(s, stderr);
	if (session__json(s) && session__started(s))
		session__json_lost(s, out);
	status = session__workload_status(s);
	/*
	 * A workload perf-prof ended itself (-N, a stop signal passed on to
	 * it and which it died of) is part of a successful run: said only
	 * with -v.  One that failed or died on its own gives its status.
	 */
	if (!ret && session__workload_unstarted(s)) {
		if (log->verbose && !log->quiet)
			fprintf(stderr, "perf-prof: stopped before '%s' was started\n",
				target->argv[0]);
	} else if (!ret && session__workload_stopped(s)) {
		if (log->verbose && !log->quiet)
			fprintf(stderr,
				"perf-prof: stopped '%s' (pid %d) at the end of monitoring\n",
				target->argv[0], session__workload_pid(s));
	} else if (!ret && status >= 0 && died_of_stop(status, session__stop_signal(s))) {
		if (log->verbose && !log->quiet)
			fprintf(stderr, "perf-prof: '%s' ended by the stop signal (%s)\n",
				target->argv[0], strsignal(session__stop_signal(s)));
	} else if (!ret && status >= 0) {
		ret = exit_code_of(status);
		/* quiet on success: scripts take anything on stderr for a failure */
		if (!log->quiet && (ret || log->verbose))
			fprintf(stderr, "perf-prof: '%s' exited with status %d%s\n",
				target->argv[0], ret,
				WIFSIGNALED(status) ? " (killed by a signal)" : "");
	}
out:
	sig = session__signal_time(s, &sig_cpu);
	sig_now = session__now(s); /* the clock of sig (perf's own under --tsc) */
	session__delete(s);
	stack_ctx__delete(r.stack);
	if (sig && log->verbose) {
		struct timespec cpu = { 0 };

		/* CPU time tells work from waiting for a CPU on a busy host */
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
		fprintf(stderr, "perf-prof: done %.0f ms after the stop signal (%.0f ms of CPU)\n",
			(sig_now - sig) / 1e6,
			((double)cpu.tv_sec * 1e9 + cpu.tv_nsec - (double)sig_cpu) / 1e6);
	}
	if (out != stdout) {
		err = output__close(out, o);
		if (err && !ret) {
			fprintf(stderr, "perf-prof %s: writing '%s' failed: %s\n", p->name,
				output->path, strerror(err));
			ret = 1;
		}
	}
	return ret;
}

/*
 * multi-trace --impl syscalls|kmemprof|call|call-delay (the original's
 * modes): those are profilers of their own here, with the same -e, -k and
 * options; the command runs that profiler, its --impl taken out of argv
 * (before any "--": the command's own words stay), but for nested-trace's
 * call and call-delay, which are its own --impl.  Returns the profiler,
 * else @p.
 */
static const struct profiler *mt_impl(const struct profiler *p, int *argc, char **argv)
{
	static const char *const as_profiler[] = { "syscalls", "kmemprof" };
	const char *v = NULL;
	int at = -1,
	    n = 0; /* the last --impl (the one the option parser keeps): where, its words */

	if (!p || strcmp(p->name, "multi-trace"))
		return p;
	for (int i = 2; i < *argc && strcmp(argv[i], "--"); i++) {
		if (!strncmp(argv[i], "--impl=", 7)) {
			v = argv[i] + 7;
			at = i;
			n = 1;
		} else if (!strcmp(argv[i], "--impl") && i + 1 < *argc) {
			v = argv[i + 1];
			at = i;
			n = 2;
			i++;
		}
	}
	if (at < 0)
		return p;
	/* nested-trace's modes: its own --impl, kept */
	if (!strcmp(v, "call") || !strcmp(v, "call-delay")) {
		argv[1] = (char *)"nested-trace";
		return profiler__find(argv[1]);
	}
	for (size_t k = 0; k < sizeof(as_profiler) / sizeof(as_profiler[0]); k++) {
		if (strcmp(v, as_profiler[k]))
			continue;
		argv[1] = (char *)as_profiler[k];
		memmove(&argv[at], &argv[at + n], (size_t)(*argc - at - n + 1) * sizeof(*argv));
		*argc -= n;
		return profiler__find(argv[1]);
	}
	return p;
}

int main(int argc, char **argv)
{
	const struct profiler *p = NULL;
	struct opt_set set;
	struct joint j = { 0 };
	int ret;
	void *priv;

	/*
	 * Before anything else: a stop signal (or SIGUSR1/SIGUSR2 of a
	 * monitoring script) that comes while the options are parsed, the
	 * symbols load and the events open is held until the event loop reads
	 * it (util/stopsig.h).  Commands get the mask back.
	 */
	stopsig__hold();
	if (argc == 2 && !strcmp(argv[1], FDCLOSER_ARG)) {
		stopsig__release();
		return fdcloser__main();
	}
	if (argc >= 2)
		p = mt_impl(profiler__find(argv[1]), &argc, argv);
	if (!p)
		stopsig__release();
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		top_help(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	/* man pages and shell completion from the option tables (cli/doc.h) */
	if (!strcmp(argv[1], "--man") || !strcmp(argv[1], "--complete"))
		return doc__main(argc - 1, argv + 1, VERSION);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("perf-prof %s\n", VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "--symbols") || !strncmp(argv[1], "--symbols=", 10)) {
		const char *bin = argv[1][9] == '=' ? argv[1] + 10 : argc > 2 ? argv[2] : NULL;
		struct symbols_stats ss;
		char why[256];
		int err;

		if (!bin) {
			fprintf(stderr, "perf-prof: --symbols needs a binary path\n");
			return 2;
		}
		if (symbols__check(bin, why, sizeof(why))) {
			fprintf(stderr, "perf-prof --symbols: %s: %s\n", bin, why);
			return 1;
		}
		/* bad lines are answered "??" and reported: an error only if all were bad */
		err = symbols__main(bin, stdin, stdout, stderr, &ss);
		if (err) {
			fprintf(stderr, "perf-prof --symbols: %s\n", strerror(-err));
			return 1;
		}
		if (ss.bad && !ss.addrs) {
			fprintf(stderr,
				"perf-prof --symbols: no address on stdin, %zu bad line%s\n",
				ss.bad, ss.bad == 1 ? "" : "s");
			return 1;
		}
		return 0;
	}
	for (int i = 0; i < nr_commands; i++)
		if (!strcmp(commands[i]->name, argv[1]))
			return run_command(commands[i], argc - 1, argv + 1);
	if (!p) {
		fprintf(stderr, "perf-prof: unknown profiler '%s' (see: perf-prof -h)\n", argv[1]);
		return 2;
	}
	priv = calloc(1, p->priv_size ? p->priv_size : 1);
	if (!priv)
		return 1;
	ret = options__parse(p, argc - 1, argv + 1, &set, priv);
	if (!ret)
		ret = joint__parse(p, &set, &j);
	if (ret) {
		joint__free(&j);
		free(priv);
		options__free(&set);
		return ret > 0 ? 0 : 2;
	}
	ret = run_profiler(p, &set, priv, &j);
	fflush(stdout);
	joint__free(&j);
	free(priv);
	options__free(&set);
	return ret;
}
