// SPDX-License-Identifier: GPL-2.0-only
/* A tool's life, from its arguments to its exit (tool.h). */
#include "tool.h"

int sched_tool_main(struct sched_tool *t, int argc, char **argv)
{
	struct sched_backend b;
	int status;

	sched_tool_parse(t, argc, argv);
	sched_block_signals(t);
	status = sched_tool_init(t);
	if (!status)
		status = sched_tool_load(t);
	if (!status) {
		b = sched_bpf_backend(t);
		status = sched_run(t, &b);
	}
	/* detaches: nothing of the policy outlives the tool */
	sched_tool_fini(t);
	if (t->die_signal)
		sched_die_of(t->die_signal);
	return status;
}
