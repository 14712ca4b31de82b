// SPDX-License-Identifier: GPL-2.0-only
/*
 * no-preempt: targets are not preempted, for at most cfg_max_run_ns of
 * continuous running.
 *
 * Hooks and what they return:
 * - cfs_check_preempt_tick: SCHED_SUPPRESS (<0) when the running task is a
 *   target, so the tick never ends its slice; 0 otherwise.
 * - cfs_check_preempt_wakeup: SCHED_SUPPRESS when the running task is a
 *   target and the woken task is not, so a wakeup never preempts a target;
 *   0 otherwise (a target waking another target is left to CFS).
 * - cfs_wakeup_preempt_entity: the same rule at the entity level, which CFS
 *   also consults when picking between buddies; 0 otherwise.
 *
 * The bound: once a target has run cfg_max_run_ns since it was last picked
 * (sum_exec_runtime - prev_sum_exec_runtime, updated at every tick), every
 * hook returns 0 and CFS decides again, as if no policy were loaded. Others
 * on the CPU therefore wait at most about that long, and as the target's
 * vruntime keeps advancing while it runs, CFS repays them afterwards: the
 * CPU is still shared fairly, in longer turns. Counted in STAT_BOUNDED.
 *
 * "Targets" counters count the tick's calls where the running task is a
 * target, and the wakeup and entity hooks' where it is and the other task
 * (or entity) is not: the calls the policy decides. So the hooks can
 * first ask whether the two agree (one task group, or --all:
 * same_verdict()), two or four loads that end most calls of a workload
 * inside one cgroup, before the running task's cgroup walk, which would
 * otherwise come on every call (and with the benchmark as target, a
 * count). The
 * wakeup hook asks before that whether the running task is above every
 * -c cgroup's level, one load: most calls of its neighbours.
 */
#include "common.bpf.h"
#include "target.bpf.h"
/* no_preempt_wakeup() notes the wakeup checks for the observers */
#define OBSERVE_CHECK_IN_HOOK
#include "observe.bpf.h"

const volatile __u64 cfg_max_run_ns = 100000000;

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(no_preempt_tick, struct sched_entity *curr,
	     unsigned long delta_exec)
{
	pcpu_t pc = observe_tick();
	struct sched_entity *se;

	se = tick_target(&pc, curr);
	return se ? suppress_within(&pc, se, cfg_max_run_ns,
				    STAT_TICK_SUPPRESSED) :
		    SCHED_DEFAULT;
}

SEC("sched/cfs_check_preempt_wakeup")
int BPF_PROG(no_preempt_wakeup, struct task_struct *curr,
	     struct task_struct *p)
{
	pcpu_t pc = PCPU_INIT;

	stat_seen(&pc, STAT_WAKEUP_CALLS);
	/* a running task above every -c cgroup's level: one load */
	if (group_decides() && group_above_targets(&curr->se, NULL))
		return SCHED_DEFAULT;
	if (same_verdict_tasks(curr, p)) {
		/* curr may be a target: the observer tests it at the switch */
		note_wakeup_check(curr, p);
		return SCHED_DEFAULT;
	}
	/* curr is the running task: no need to find it through its runqueue */
	if (!task_is_target(curr))
		return SCHED_DEFAULT;
	note_wakeup_check(curr, p);
	if (task_is_target(p))
		return SCHED_DEFAULT;
	stat_seen(&pc, STAT_WAKEUP_TARGETS);
	return suppress_within(&pc, &curr->se, cfg_max_run_ns,
			       STAT_WAKEUP_SUPPRESSED);
}

SEC("sched/cfs_wakeup_preempt_entity")
int BPF_PROG(no_preempt_entity, struct sched_entity *curr,
	     struct sched_entity *se)
{
	struct sched_entity *running = running_se(curr);
	pcpu_t pc = PCPU_INIT;

	stat_seen(&pc, STAT_ENTITY_CALLS);
	if (same_verdict(running, se) || !se_is_target(running) ||
	    se_is_target(se))
		return SCHED_DEFAULT;
	stat_seen(&pc, STAT_ENTITY_TARGETS);
	return suppress_within(&pc, running, cfg_max_run_ns,
			       STAT_ENTITY_SUPPRESSED);
}
