// SPDX-License-Identifier: GPL-2.0-only
/*
 * boost-wakeup: a waking target preempts a running non-target at once.
 * The policy is in bpf/boost_wakeup.bpf.c, the guard in bpf/wakeup.bpf.h.
 */
#include "parse.h"
#include "tool.h"
#include "boost_wakeup.skel.h"
#include "boost_wakeup_policy.skel.h"

#define MAX_LEAD_DEFAULT_NS (10 * NSEC_PER_MSEC)
#define MAX_LEAD_MIN_NS (100 * NSEC_PER_USEC)
#define MAX_LEAD_MAX_NS NSEC_PER_SEC

static struct env {
	__u64 max_lead_ns;
} env = {
	.max_lead_ns = MAX_LEAD_DEFAULT_NS,
};

static const char doc[] =
	"Let a waking target preempt the running non-target at once, instead "
	"of waiting until CFS finds it far enough behind in vruntime or the "
	"running task's slice ends; a target that woke and still waits gets "
	"the CPU at the next tick. Targets never preempt each other for it. "
	"A target is boosted only while it is less than --max-lead ahead of "
	"the running task in vruntime, so one that wakes constantly cannot "
	"keep the CPU.\n"
	"\v"
	"EXAMPLES:\n"
	"  boost-wakeup -c audio -- ./player   start ./player in cgroup audio, "
	"boosted\n"
	"  boost-wakeup -p 1234 --duration 10s boost process 1234 for 10 s\n"
	"  boost-wakeup -n -j -c audio > a.json  A/B: what it would do here,\n"
	"  boost-wakeup -j -c audio > b.json     then what it does\n";

static const struct argp_option options[] = {
	{ 0, 0, 0, 0, "Policy:", SCHED_GROUP_POLICY },
	{ "max-lead", 'l', "DURATION", 0,
	  "Boost a waking target only while its vruntime is less than "
	  "DURATION ahead of the running task's (100us to 1s; default 10ms). "
	  "Past that lead CFS decides, and never lets a task that far ahead "
	  "preempt, so a target that wakes constantly gets at most this much "
	  "CPU time more than its fair share before the others catch up. "
	  "10ms is about one CFS scheduling period on a small machine (6ms "
	  "times 1 + log2 of the CPUs, at most 24ms)." },
	{},
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'l':
		env.max_lead_ns = sched_parse_duration_opt(
			"--max-lead", arg, MAX_LEAD_MIN_NS, MAX_LEAD_MAX_NS);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const enum schedbpf_stat columns[] = {
	STAT_WAKEUP_TARGETS, STAT_WAKEUP_FORCED, STAT_ENTITY_TARGETS,
	STAT_ENTITY_FORCED,  STAT_TICK_FORCED,	 STAT_BOUNDED,
	STAT_WAKEUPS,	     STAT_PREEMPTIONS,
};

static const struct sched_setting settings[] = {
	{ "max_lead_ns", SCHED_SETTING_NS, &env.max_lead_ns },
	{},
};

/* The tool's own .rodata settings, in either skeleton (skel.h). */
#define SETTINGS(t, r) ((r)->cfg_max_lead_ns = env.max_lead_ns)
SCHED_SKELETONS(boost_wakeup, SETTINGS)

int main(int argc, char **argv)
{
	struct sched_tool tool = {
		.name = "boost-wakeup",
		.doc = doc,
		.options = options,
		.parser = parse_opt,
		.columns = { columns, ARRAY_SIZE(columns) },
		.settings = settings,
		.open = boost_wakeup_open,
	};

	return sched_tool_main(&tool, argc, argv);
}
