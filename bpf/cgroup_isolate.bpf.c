// SPDX-License-Identifier: GPL-2.0-only
/*
 * cgroup-isolate: outsiders do not preempt insiders. Insiders are the tasks
 * in the -c cgroups or below them. A running insider is not preempted for
 * an outsider, neither when the outsider wakes up nor at the tick, until
 * the insider has run cfg_min_run_ns (--min-run) without a break for an
 * outsider; then CFS decides. Between insiders, and between outsiders, CFS
 * decides. With --preempt-outsiders, an insider's wakeup preempts a running
 * outsider at once.
 *
 * Why the tick: a waking outsider that CFS may not preempt with gets in at
 * the next tick anyway, once the insider has run min_granularity and the
 * outsider's sleeper credit (sched_latency / 2) puts it more than the ideal
 * slice behind (check_preempt_tick()'s vruntime test): on default knobs,
 * a 1 kHz outside waker still preempted a CPU-bound insider a few hundred
 * times a second with the wakeup hooks alone. (On EEVDF, 6.12, the "tick"
 * hook runs at the tick and wherever EEVDF ends the running entity's
 * slice.) The tick is suppressed only when
 * the entity the scheduler would run instead (waiting_se(): CFS's
 * leftmost, EEVDF's eligible entity with the earliest deadline) is an
 * outsider: an insider waiting there is left to the scheduler, so
 * insiders share their CPU as without the tool.
 *
 * Hooks and what they return:
 * - cfs_check_preempt_tick: SCHED_SUPPRESS (<0) when the running task is an
 *   insider, the entity that would run in place of the one the tick is
 *   for is an outsider, and that entity has run less than cfg_min_run_ns
 *   since it was picked; 0 otherwise (counted in STAT_BOUNDED past
 *   cfg_min_run_ns).
 * - cfs_check_preempt_wakeup: SCHED_SUPPRESS when the running task is an
 *   insider and the woken task an outsider; with cfg_preempt_outsiders,
 *   SCHED_FORCE (>0) when the woken task is an insider and the running
 *   task an outsider; 0 otherwise.
 * - cfs_wakeup_preempt_entity: the same rule for the entities CFS compares,
 *   group entities included: an entity of a -c cgroup is an insider.
 *
 * Outsiders still get the CPU: after cfg_min_run_ns, and at the latest
 * after the kernel's bound (kernel.sched_bpf_max_suppress_ms), CFS decides,
 * and an outsider behind in vruntime runs until it has caught up, so a
 * CPU-bound outsider keeps its share by weight. A task that runs briefly
 * after each wakeup gets one run per cfg_min_run_ns at least.
 * "Targets" counters count calls across the boundary.
 */
#include "common.bpf.h"
#include "target.bpf.h"
/* the wakeup hook of CROSS_WAKEUP_HOOKS() notes the wakeup checks */
#define OBSERVE_CHECK_IN_HOOK
#include "observe.bpf.h"
#include "wakeup.bpf.h"

const volatile bool cfg_preempt_outsiders = false;
const volatile __u64 cfg_min_run_ns = 100000000;

CROSS_WAKEUP_HOOKS(cgroup_isolate, false, &cfg_preempt_outsiders, true,
		   LEAD_UNBOUNDED)

/*
 * Is the entity that would run in place of curr (waiting_se(): CFS's
 * leftmost, EEVDF's eligible entity with the earliest deadline) an
 * insider? It is read with CO-RE reads, and judged as task_is_target()
 * judges a task (se_is_target()'s kfuncs need a typed pointer): a task by
 * its pid and cgroup2 cgroup, a group entity by the cgroup of the task
 * group it runs. Without FAIR_GROUP_SCHED (no se->cfs_rq) it answers
 * false: the tick is suppressed whoever waits.
 */
static __always_inline bool waiting_is_inside(struct sched_entity *curr)
{
	struct sched_entity *next;
	struct task_struct *p;
	struct cgroup *cgrp;
	struct cfs_rq *my_q;

	if (cfg_common.all)
		return true;
	/*
	 * Where the group decides, whatever waits on an inside group's
	 * runqueue is inside too (its tasks, and its child groups): no need
	 * to find which one runs next. That search is a CO-RE read a step.
	 */
	if (group_decides()) {
		cgrp = se_queue_cgroup(curr);
		if (cgrp && cgrp_is_target(cgrp))
			return true;
	}
	next = waiting_se(curr);
	if (!next)
		return false;
	my_q = BPF_CORE_READ(next, my_q);
	if (my_q)
		return cgrp_anc_is_target(BPF_CORE_READ(my_q, tg, css.cgroup));
	p = (void *)next - bpf_core_field_offset(struct task_struct, se);
	if (pid_is_target(BPF_CORE_READ(p, tgid), BPF_CORE_READ(p, pid)))
		return true;
	return cfg_common.nr_cgrps &&
	       cgrp_anc_is_target(BPF_CORE_READ(p, cgroups, dfl_cgrp));
}

/*
 * A target's tick, out of line. The tick program then holds only curr
 * across se_is_target(), and counts the call after it: clang spills a
 * value the rare path needs where it is defined, so when this path was
 * inline, curr and the counters' handle went to the stack on every call,
 * 4 ns a call more than no-preempt's tick (2.00 / 2.03x the no-op's on
 * 6.1 / 6.12). Out of line: 3 ns less a call about a non-target, 4 to
 * 12 ns more about a target (the call), over two CPU hogs.
 */
static __noinline int isolate_target_tick(struct sched_entity *curr)
{
	pcpu_t pc = observe_tick();

	stat_seen(&pc, STAT_TICK_TARGETS);
	if (waiting_is_inside(curr))
		return SCHED_DEFAULT;
	/*
	 * curr's run, not the insider task's: insiders switching among
	 * themselves do not restart the time an outsider waits.
	 */
	return suppress_within(&pc, curr, cfg_min_run_ns, STAT_TICK_SUPPRESSED);
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(cgroup_isolate_tick, struct sched_entity *curr,
	     unsigned long delta_exec)
{
	if (se_is_target(running_se(curr)))
		return isolate_target_tick(curr);
	observe_tick();
	return SCHED_DEFAULT;
}
