// SPDX-License-Identifier: GPL-2.0-only
/*
 * slice-extend: a target runs at least cfg_slice_ns (--slice) without a
 * break before the CFS tick may preempt it. CFS's own slice is the
 * scheduling period divided by weight among the runnable tasks (a few ms
 * for a handful of tasks); a target that benefits from longer turns (cache
 * warmth, batch work, fewer switches) gets --slice instead, and the
 * others on the CPU get correspondingly longer, rarer turns, as the
 * target's vruntime keeps advancing while it runs.
 *
 * Hook and what it returns:
 * - cfs_check_preempt_tick: SCHED_SUPPRESS (<0) while the running task is
 *   a target that has run less than cfg_slice_ns since it was last picked
 *   (sum_exec_runtime - prev_sum_exec_runtime); 0 after that, and for
 *   non-targets: CFS decides, and preempts at this tick if the target has
 *   also used its own slice. Never SCHED_FORCE.
 * Wakeup preemption is left to CFS: a waking task that CFS finds far enough
 * behind in vruntime still preempts a target. (At --observe=counts and
 * full the observers attach a cfs_check_preempt_wakeup program that only
 * notes each check and returns 0: observe_check in observe.bpf.h.)
 *
 * "Targets" counters count ticks on a running target; "bounded" the ticks
 * after its --slice, when CFS decided.
 */
#include "common.bpf.h"
#include "target.bpf.h"
#include "observe.bpf.h"

const volatile __u64 cfg_slice_ns = 20000000;

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(slice_extend_tick, struct sched_entity *curr,
	     unsigned long delta_exec)
{
	pcpu_t pc = observe_tick();
	struct sched_entity *se;

	se = tick_target(&pc, curr);
	return se ? suppress_within(&pc, se, cfg_slice_ns,
				    STAT_TICK_SUPPRESSED) :
		    SCHED_DEFAULT;
}
