// SPDX-License-Identifier: GPL-2.0-only
/*
 * cgroup-isolate: outsiders of the -c cgroups do not preempt insiders, at a
 * wakeup or at the tick, until the insider has run --min-run. The policy
 * is in bpf/cgroup_isolate.bpf.c.
 */
#include "parse.h"
#include "tool.h"
#include "cgroup_isolate.skel.h"
#include "cgroup_isolate_policy.skel.h"

#define MIN_RUN_DEFAULT_NS (100 * NSEC_PER_MSEC)
#define MIN_RUN_MIN_NS NSEC_PER_MSEC
/* kernel.sched_bpf_max_suppress_ms's range; its value caps --min-run */
#define MIN_RUN_MAX_NS (10 * NSEC_PER_SEC)

static struct env {
	bool preempt_outsiders;
	__u64 min_run_ns;
} env = {
	.min_run_ns = MIN_RUN_DEFAULT_NS,
};

static const char doc[] =
	"Isolate cgroups from outsiders: a task outside the -c cgroups does "
	"not preempt a task inside them, neither when it wakes up nor at the "
	"tick, until the insider has run --min-run; then CFS decides. With "
	"--preempt-outsiders, an insider that wakes up preempts a running "
	"outsider at once. Inside the cgroups, and outside them, CFS decides. "
	"Needs at least one -c.\n"
	"\v"
	"EXAMPLES:\n"
	"  cgroup-isolate -c rt -- ./server     start ./server in cgroup rt,\n"
	"                                       shielded from outside wakeups\n"
	"  cgroup-isolate -o -c rt -c audio     shield both, and let them preempt\n"
	"  cgroup-isolate -n -j -c rt > a.json  A/B: what it would do here,\n"
	"  cgroup-isolate -j -c rt > b.json     then what it does\n";

static const struct argp_option options[] = {
	{ 0, 0, 0, 0, "Policy:", SCHED_GROUP_POLICY },
	{ "preempt-outsiders", 'o', 0, 0,
	  "Also let an insider's wakeup preempt a running outsider at once, "
	  "whatever their vruntimes." },
	{ "min-run", 'm', "DURATION", 0,
	  "Keep outsiders from preempting an insider until it has run "
	  "DURATION without a break for an outsider (1ms to 10s; default "
	  "100ms, as long as no-preempt holds a CPU): outsiders wait at "
	  "most that long for the CPU, and preempt it at most 1s/DURATION "
	  "times a second. The kernel's "
	  "kernel.sched_bpf_max_suppress_ms (250ms by default) caps it." },
	{},
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	const struct sched_opts *o;
	int i;

	switch (key) {
	case 'o':
		env.preempt_outsiders = true;
		return 0;
	case 'm':
		env.min_run_ns = sched_parse_duration_opt(
			"--min-run", arg, MIN_RUN_MIN_NS, MIN_RUN_MAX_NS);
		return 0;
	case ARGP_KEY_END:
		/* the common options were checked first: there is a target */
		o = sched_state_opts(state);
		if (o->all)
			sched_usage_error(
				"--all leaves no outsiders: give -c CGROUP");
		if (!o->nr_cgroups)
			sched_usage_error(
				"no cgroup: give -c CGROUP, whose tasks are the insiders");
		/* the root holds every task, as --all does */
		for (i = 0; i < o->nr_cgroups; i++) {
			if (o->cgroups[i].root)
				sched_usage_error(
					"--cgroup %s is the root cgroup, which leaves no outsiders: give a child cgroup",
					o->cgroups[i].path);
		}
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const enum schedbpf_stat columns[] = {
	STAT_TICK_TARGETS,	STAT_TICK_SUPPRESSED, STAT_WAKEUP_TARGETS,
	STAT_WAKEUP_SUPPRESSED, STAT_WAKEUP_FORCED,   STAT_ENTITY_TARGETS,
	STAT_ENTITY_SUPPRESSED, STAT_ENTITY_FORCED,   STAT_BOUNDED,
	STAT_WAKEUPS,		STAT_PREEMPTIONS,
};

static const struct sched_setting settings[] = {
	{ "preempt_outsiders", SCHED_SETTING_BOOL, &env.preempt_outsiders },
	{ "min_run_ns", SCHED_SETTING_NS, &env.min_run_ns },
	{},
};

/* The tool's own .rodata settings, in either skeleton (skel.h). */
#define SETTINGS(t, r) do { \
	(r)->cfg_preempt_outsiders = env.preempt_outsiders; \
	(r)->cfg_min_run_ns = env.min_run_ns; \
	} while (0)
SCHED_SKELETONS(cgroup_isolate, SETTINGS)

int main(int argc, char **argv)
{
	struct sched_tool tool = {
		.name = "cgroup-isolate",
		.doc = doc,
		.options = options,
		.parser = parse_opt,
		.columns = { columns, ARRAY_SIZE(columns) },
		.settings = settings,
		.open = cgroup_isolate_open,
	};

	return sched_tool_main(&tool, argc, argv);
}
