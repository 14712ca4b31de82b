// SPDX-License-Identifier: GPL-2.0-only
/*
 * testrun - runs one of testrun.bpf.c's programs once through
 * BPF_PROG_TEST_RUN (tests/kernel/17-test-run.t):
 *
 *   testrun WANT_TGID HOOK CURR_PID PID DELTA_EXEC [FIELD]
 *
 * WANT_TGID is the programs' want_tgid ("self": testrun's own, the task a
 * CURR_PID of 0 names); HOOK is tick, wakeup or entity; the three numbers
 * are struct bpf_sched_test_ctx's. FIELD sets one more attribute the kernel must
 * refuse: size (ctx_size_in one byte short), repeat (2), data (a data_in),
 * ctx-out (a ctx_out), flags (1), cpu (1).
 *
 * Prints "retval=N" (the program's return value, as an int) or
 * "error errno=N"; exits 0 when the run was tried, 1 when the loader
 * failed, 2 for bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "testrun.skel.h"

int main(int argc, char **argv)
{
	struct bpf_sched_test_ctx ctx = {};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx));
	struct testrun_bpf *skel;
	struct bpf_program *prog;
	char data[64] = {}, out[64];
	int err;

	if (argc < 6 || argc > 7) {
		fprintf(stderr, "usage: testrun WANT_TGID tick|wakeup|entity CURR_PID PID DELTA_EXEC [size|repeat|data|ctx-out|flags|cpu]\n");
		return 2;
	}
	ctx.curr_pid = strtoul(argv[3], NULL, 0);
	ctx.pid = strtoul(argv[4], NULL, 0);
	ctx.delta_exec = strtoull(argv[5], NULL, 0);
	if (argc == 7) {
		if (!strcmp(argv[6], "size"))
			opts.ctx_size_in = sizeof(ctx) - 1;
		else if (!strcmp(argv[6], "repeat"))
			opts.repeat = 2;
		else if (!strcmp(argv[6], "data"))
			opts.data_in = data, opts.data_size_in = sizeof(data);
		else if (!strcmp(argv[6], "ctx-out"))
			opts.ctx_out = out, opts.ctx_size_out = sizeof(out);
		else if (!strcmp(argv[6], "flags"))
			opts.flags = 1;
		else if (!strcmp(argv[6], "cpu"))
			opts.cpu = 1;
		else
			return 2;
	}
	skel = testrun_bpf__open();
	if (!skel) {
		fprintf(stderr, "testrun: open: %s\n", strerror(errno));
		return 1;
	}
	skel->rodata->want_tgid = strcmp(argv[1], "self") ?
					  strtoul(argv[1], NULL, 0) :
					  (unsigned long)getpid();
	err = testrun_bpf__load(skel);
	if (err) {
		fprintf(stderr, "testrun: load: %s\n", strerror(-err));
		testrun_bpf__destroy(skel);
		return 1;
	}
	prog = !strcmp(argv[2], "tick")	  ? skel->progs.tr_tick :
	       !strcmp(argv[2], "wakeup") ? skel->progs.tr_wakeup :
	       !strcmp(argv[2], "entity") ? skel->progs.tr_entity :
					    NULL;
	if (!prog) {
		testrun_bpf__destroy(skel);
		return 2;
	}
	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
	if (err)
		printf("error errno=%d\n", errno);
	else
		printf("retval=%d\n", (int)opts.retval);
	testrun_bpf__destroy(skel);
	return 0;
}
