// SPDX-License-Identifier: GPL-2.0-only
/*
 * slice-extend: targets run at least --slice before the tick preempts them.
 * The policy is in bpf/slice_extend.bpf.c.
 */
#include "parse.h"
#include "tool.h"
#include "slice_extend.skel.h"
#include "slice_extend_policy.skel.h"

#define SLICE_DEFAULT_NS (20 * NSEC_PER_MSEC)
#define SLICE_MIN_NS NSEC_PER_MSEC
#define SLICE_MAX_NS NSEC_PER_SEC

static struct env {
	__u64 slice_ns;
} env = {
	.slice_ns = SLICE_DEFAULT_NS,
};

static const char doc[] =
	"Give targets a longer time slice: the CFS tick does not preempt a "
	"target until it has run --slice without a break; after that CFS "
	"decides as usual. Wakeup preemption is left to CFS.\n"
	"\v"
	"EXAMPLES:\n"
	"  slice-extend -c batch --slice 50ms   50 ms turns for cgroup batch\n"
	"  slice-extend -s 20ms -- make -j2     start make, 20 ms turns\n"
	"  slice-extend -n -j -c batch > a.json A/B: what it would do here,\n"
	"  slice-extend -j -c batch > b.json    then what it does\n";

static const struct argp_option options[] = {
	{ 0, 0, 0, 0, "Policy:", SCHED_GROUP_POLICY },
	{ "slice", 's', "DURATION", 0,
	  "The least a target runs before the tick may preempt it (1ms to "
	  "1s; default 20ms). CFS's own slice is a few ms; the tick comes "
	  "every 1 to 10ms (HZ), so a shorter slice changes nothing, and "
	  "longer than 1s others on the CPU would wait long enough to notice "
	  "and approach the watchdogs' limits." },
	{},
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 's':
		env.slice_ns = sched_parse_duration_opt(
			"--slice", arg, SLICE_MIN_NS, SLICE_MAX_NS);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const enum schedbpf_stat columns[] = {
	STAT_TICK_CALLS, STAT_TICK_TARGETS, STAT_TICK_SUPPRESSED,
	STAT_BOUNDED,	 STAT_PREEMPTIONS,
};

static const struct sched_setting settings[] = {
	{ "slice_ns", SCHED_SETTING_NS, &env.slice_ns },
	{},
};

/* The tool's own .rodata settings, in either skeleton (skel.h). */
#define SETTINGS(t, r) ((r)->cfg_slice_ns = env.slice_ns)
SCHED_SKELETONS(slice_extend, SETTINGS)

int main(int argc, char **argv)
{
	struct sched_tool tool = {
		.name = "slice-extend",
		.doc = doc,
		.options = options,
		.parser = parse_opt,
		.columns = { columns, ARRAY_SIZE(columns) },
		.settings = settings,
		.open = slice_extend_open,
	};

	return sched_tool_main(&tool, argc, argv);
}
