// SPDX-License-Identifier: GPL-2.0-only
/*
 * no-preempt: keep targets from being preempted, for a bounded time.
 * The policy is in bpf/no_preempt.bpf.c.
 */
#include <stdlib.h>

#include "parse.h"
#include "tool.h"
#include "no_preempt.skel.h"
#include "no_preempt_policy.skel.h"

#define MAX_RUN_DEFAULT_NS (100 * NSEC_PER_MSEC)
#define MAX_RUN_MIN_NS NSEC_PER_MSEC
#define MAX_RUN_MAX_NS (10 * NSEC_PER_SEC)

static struct env {
	__u64 max_run_ns;
} env = {
	.max_run_ns = MAX_RUN_DEFAULT_NS,
};

static const char doc[] =
	"Keep targets from being preempted: the CFS tick does not end their "
	"slice and a waking non-target does not preempt them, until they have "
	"run --max-run without a break; then CFS decides as usual until they "
	"next sleep or are switched out.\n"
	"\v"
	"EXAMPLES:\n"
	"  no-preempt -c web -- ./server      start ./server in cgroup web, "
	"protected\n"
	"  no-preempt -p 1234 --duration 10s  protect process 1234 for 10 s\n"
	"  no-preempt -n -j -c web > a.json   A/B: what it would do here,\n"
	"  no-preempt -j -c web > b.json      then what it does\n";

static const struct argp_option options[] = {
	{ 0, 0, 0, 0, "Policy:", SCHED_GROUP_POLICY },
	{ "max-run", 'm', "DURATION", 0,
	  "Longest continuous run during which preemption is suppressed "
	  "(1ms to 10s; default 100ms). After it, CFS decides, so others on "
	  "the CPU wait at most about this long and still get their fair "
	  "share, in longer turns. 100ms is SCHED_RR's default time slice "
	  "and about 15 of CFS's slices for two tasks, so a CPU-bound target "
	  "sharing a CPU is preempted about 90% less often, while a "
	  "competitor's delay stays near what a person notices and far from "
	  "the 21 s RCU stall and 120 s hung-task watchdogs." },
	{},
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'm':
		env.max_run_ns = sched_parse_duration_opt(
			"--max-run", arg, MAX_RUN_MIN_NS, MAX_RUN_MAX_NS);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const enum schedbpf_stat columns[] = {
	STAT_TICK_TARGETS,	STAT_TICK_SUPPRESSED, STAT_WAKEUP_TARGETS,
	STAT_WAKEUP_SUPPRESSED, STAT_ENTITY_TARGETS,  STAT_ENTITY_SUPPRESSED,
	STAT_BOUNDED,		STAT_PREEMPTIONS,
};

static const struct sched_setting settings[] = {
	{ "max_run_ns", SCHED_SETTING_NS, &env.max_run_ns },
	{},
};

/* The tool's own .rodata settings, in either skeleton (skel.h). */
#define SETTINGS(t, r) ((r)->cfg_max_run_ns = env.max_run_ns)
SCHED_SKELETONS(no_preempt, SETTINGS)

int main(int argc, char **argv)
{
	struct sched_tool tool = {
		.name = "no-preempt",
		.doc = doc,
		.options = options,
		.parser = parse_opt,
		.columns = { columns, ARRAY_SIZE(columns) },
		.settings = settings,
		.open = no_preempt_open,
	};

	return sched_tool_main(&tool, argc, argv);
}
