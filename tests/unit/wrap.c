// SPDX-License-Identifier: GPL-2.0-only
/*
 * wrap-test: a tool without BPF, for the host. It parses the common
 * options and runs the run and report stages (tools/lib/run.c, report.c)
 * as every tool does, against counters that count the reads, so wrap.t
 * can test the wrapper on a kernel without the hooks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static __u64 reads;

static const char doc[] = "A tool without BPF, for the wrapper's tests.\v";

static const enum schedbpf_stat columns[] = { STAT_TICK_CALLS, STAT_WAKEUPS };

static const __u64 setting = 42;
static const struct sched_setting settings[] = {
	{ "answer_ns", SCHED_SETTING_NS, &setting },
	{},
};

static int fake_add_tree(void *ctx, pid_t pid)
{
	return 0;
}

static void fake_drop_pid(void *ctx, pid_t tgid)
{
	fprintf(stderr, "wrap-test: dropped %d\n", tgid);
}

static int fake_attach(void *ctx)
{
	return 0;
}

static int fake_read(void *ctx, __u64 *stats, __u64 *hist)
{
	memset(stats, 0, SCHEDBPF_NR_STATS * sizeof(*stats));
	stats[STAT_TICK_CALLS] = ++reads;
	if (hist)
		memset(hist, 0, SCHEDBPF_LAT_SLOTS * sizeof(*hist));
	return 0;
}

int main(int argc, char **argv)
{
	struct sched_tool t = {
		.name = "wrap-test",
		.doc = doc,
		.columns = { columns, ARRAY_SIZE(columns) },
		.settings = settings,
	};
	struct sched_backend b = {
		.add_tree = fake_add_tree,
		.drop_pid = fake_drop_pid,
		.attach = fake_attach,
		.read = fake_read,
	};
	int status;

	sched_tool_parse(&t, argc, argv);
	status = sched_run(&t, &b);
	sched_tool_fini(&t);
	if (t.die_signal)
		sched_die_of(t.die_signal);
	return status;
}
