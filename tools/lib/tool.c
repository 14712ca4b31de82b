// SPDX-License-Identifier: GPL-2.0-only
/* A tool's life, from its arguments to its exit (tool.h). */
#include <errno.h>
#include <string.h>

#include "tool.h"

int sched_tool_main(struct sched_tool *t, int argc, char **argv)
{
	struct bpf_object_skeleton *s = NULL;
	struct sched_backend b;
	struct schedbpf_cfg cfg;
	int status;

	sched_tool_parse(t, argc, argv);
	sched_block_signals(t);
	status = sched_tool_init(t);
	if (!status) {
		cfg = sched_tool_cfg(t);
		s = t->open(&cfg);
		if (!s) {
			sched_err("opening BPF object: %s", strerror(errno));
			status = 1;
		}
	}
	if (!status)
		status = sched_tool_load(t, s);
	if (!status) {
		b = sched_skel_backend(s);
		status = sched_run(t, &b);
	}
	/* detaches: nothing of the policy outlives the tool */
	if (s)
		t->destroy();
	sched_tool_fini(t);
	if (t->die_signal)
		sched_die_of(t->die_signal);
	return status;
}
