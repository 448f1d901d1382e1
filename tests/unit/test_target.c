// SPDX-License-Identifier: GPL-2.0
/*
 * The target set of CPU-wide sessions: -p matches every thread of the
 * process, -t one thread, the workload and the processes it forks (but not
 * their unrelated neighbours) through FORK records, and a followed process
 * leaves at its EXIT so that a reused pid is not a target.
 */
#include "engine/target.h"
#include "ut.h"

int main(void)
{
	int pids[1] = { 100 }, tids[2] = { 205, 206 };
	struct target_set *t = target_set__new(NULL, 0, NULL, 0);
	struct rec_task r;

	CHECK(target_set__all(t) && target_set__has(t, 1, 1), "no target: all");
	target_set__delete(t);

	t = target_set__new(pids, 1, tids, 2);
	CHECK(!target_set__all(t), "targets");
	CHECK(target_set__has(t, 100, 100) && target_set__has(t, 100, 101), "-p: every thread");
	CHECK(target_set__has(t, 200, 205) && !target_set__has(t, 200, 207), "-t: that thread");
	/* -p does not follow forks */
	r = (struct rec_task){ .pid = 300, .ppid = 100, .tid = 300, .ptid = 100 };
	target_set__fork(t, &r);
	CHECK(!target_set__has(t, 300, 300), "-p child not followed");
	target_set__delete(t);

	t = target_set__new(NULL, 0, NULL, 0);
	CHECK_INT(target_set__add_workload(t, 500), 0);
	CHECK(!target_set__all(t) && target_set__has(t, 500, 500), "workload");
	CHECK(!target_set__has(t, 1, 1), "not others");
	/* a thread of the workload: same pid */
	r = (struct rec_task){ .pid = 500, .ppid = 500, .tid = 501, .ptid = 500 };
	target_set__fork(t, &r);
	CHECK(target_set__has(t, 500, 501), "workload thread");
	/* its child process and grandchild (forked by a thread of the child) */
	r = (struct rec_task){ .pid = 600, .ppid = 500, .tid = 600, .ptid = 501 };
	target_set__fork(t, &r);
	r = (struct rec_task){ .pid = 700, .ppid = 600, .tid = 700, .ptid = 601 };
	target_set__fork(t, &r);
	CHECK(target_set__has(t, 600, 600) && target_set__has(t, 700, 700), "descendants");
	/* a fork elsewhere on the host */
	r = (struct rec_task){ .pid = 800, .ppid = 1, .tid = 800, .ptid = 1 };
	target_set__fork(t, &r);
	CHECK(!target_set__has(t, 800, 800), "unrelated fork");
	CHECK_INT(target_set__followed(t), 3);
	/* 600 gets a thread; its main thread exits first: still followed */
	r = (struct rec_task){ .pid = 600, .ppid = 600, .tid = 601, .ptid = 600 };
	target_set__fork(t, &r);
	r = (struct rec_task){ .pid = 600, .ppid = 500, .tid = 600, .ptid = 501 };
	target_set__exit(t, &r);
	CHECK(target_set__has(t, 600, 601), "main thread gone, the other runs on");
	/* the last thread's exit takes the process out */
	r = (struct rec_task){ .pid = 600, .ppid = 500, .tid = 601, .ptid = 600 };
	target_set__exit(t, &r);
	CHECK(!target_set__has(t, 600, 600), "process exit: its pid may be reused");
	CHECK_INT(target_set__followed(t), 2);
	target_set__delete(t);

	/* --inherit: -p's new processes, and those a -t thread forks, join */
	t = target_set__new(pids, 1, tids, 2);
	target_set__set_inherit(t);
	r = (struct rec_task){ .pid = 300, .ppid = 100, .tid = 300, .ptid = 101 };
	target_set__fork(t, &r);
	CHECK(target_set__has(t, 300, 300), "--inherit: -p child followed");
	r = (struct rec_task){ .pid = 310, .ppid = 300, .tid = 310, .ptid = 300 };
	target_set__fork(t, &r);
	CHECK(target_set__has(t, 310, 310), "--inherit: and its child");
	r = (struct rec_task){ .pid = 320, .ppid = 200, .tid = 320, .ptid = 205 };
	target_set__fork(t, &r);
	CHECK(target_set__has(t, 320, 320), "--inherit: a -t thread's child process");
	r = (struct rec_task){ .pid = 330, .ppid = 200, .tid = 330, .ptid = 207 };
	target_set__fork(t, &r);
	CHECK(!target_set__has(t, 330, 330), "--inherit: not another thread's child");
	r = (struct rec_task){ .pid = 800, .ppid = 1, .tid = 800, .ptid = 1 };
	target_set__fork(t, &r);
	CHECK(!target_set__has(t, 800, 800), "--inherit: unrelated fork");
	CHECK_INT(target_set__followed(t), 3);
	/* --ptrace: a new process known before its FORK record */
	CHECK_INT(target_set__add_process(t, 900), 0);
	CHECK(target_set__has(t, 900, 900), "--ptrace: added at birth");
	r = (struct rec_task){ .pid = 900, .ppid = 100, .tid = 900, .ptid = 100 };
	target_set__fork(t, &r); /* its FORK record, later: no second entry */
	CHECK_INT(target_set__followed(t), 4);
	target_set__delete(t);
	return ut_done("test_target");
}
