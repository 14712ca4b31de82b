// SPDX-License-Identifier: GPL-2.0-only
/*
 * cgroup-isolate: wakeup preemption does not cross the -c cgroups'
 * boundary. The policy is in bpf/cgroup_isolate.bpf.c.
 */
#include "tool.h"
#include "cgroup_isolate.skel.h"

static struct env {
	bool preempt_outsiders;
} env;

static const char doc[] =
	"Isolate cgroups from outside wakeups: a task outside the -c cgroups "
	"that wakes up never preempts a task inside them. With "
	"--preempt-outsiders, an insider that wakes up preempts a running "
	"outsider at once. Inside the cgroups, and outside them, CFS decides; "
	"the tick is left to CFS. Needs at least one -c.\n"
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
	STAT_WAKEUP_TARGETS, STAT_WAKEUP_SUPPRESSED, STAT_WAKEUP_FORCED,
	STAT_ENTITY_TARGETS, STAT_ENTITY_SUPPRESSED, STAT_ENTITY_FORCED,
	STAT_WAKEUPS,	     STAT_PREEMPTIONS,
};

static const struct sched_setting settings[] = {
	{ "preempt_outsiders", SCHED_SETTING_BOOL, &env.preempt_outsiders },
	{},
};

static struct cgroup_isolate_bpf *skel;

static struct bpf_object_skeleton *open_bpf(const struct schedbpf_cfg *cfg)
{
	skel = cgroup_isolate_bpf__open();
	if (!skel)
		return NULL;
	skel->rodata->cfg_common = *cfg;
	skel->rodata->cfg_preempt_outsiders = env.preempt_outsiders;
	return skel->skeleton;
}

static void destroy_bpf(void)
{
	cgroup_isolate_bpf__destroy(skel);
}

int main(int argc, char **argv)
{
	struct sched_tool tool = {
		.name = "cgroup-isolate",
		.doc = doc,
		.options = options,
		.parser = parse_opt,
		.columns = { columns, sizeof(columns) / sizeof(columns[0]) },
		.settings = settings,
		.open = open_bpf,
		.destroy = destroy_bpf,
	};

	return sched_tool_main(&tool, argc, argv);
}
