// SPDX-License-Identifier: GPL-2.0-only
/*
 * boost-wakeup: a waking target preempts the running non-target at once,
 * instead of waiting until CFS finds it far enough behind in vruntime
 * (wakeup granularity) or the running task's slice ends at a tick. For
 * latency-sensitive tasks that sleep and wake often and run briefly.
 *
 * Hooks and what they return:
 * - cfs_check_preempt_wakeup: SCHED_FORCE (>0) when the woken task is a
 *   target and the running task is not, and the lead guard allows (below):
 *   the wakee preempts at once. 0 otherwise: CFS decides, so targets never
 *   preempt each other and non-targets are treated as without the tool.
 * - cfs_wakeup_preempt_entity: the same rule for the entities CFS compares
 *   (the woken entity against the running one, and when it picks a buddy):
 *   SCHED_FORCE makes the target's entity win; 0 otherwise.
 * The tick is left to CFS: a boosted target that keeps running is preempted
 * by it as usual.
 *
 * The guard against a target that wakes constantly monopolising a CPU is
 * cfg_max_lead_ns (--max-lead), see wakeup.bpf.h: a target is forced in
 * only while its vruntime is less than that far ahead of the running
 * entity's, so over time the CPU stays shared as CFS would share it, give
 * or take that lead. Counted in STAT_BOUNDED.
 *
 * "Targets" counters count calls where exactly one of wakee and running
 * task is a target; "forced" the boosts.
 */
#include "common.bpf.h"
#include "target.bpf.h"
#include "observe.bpf.h"
#include "wakeup.bpf.h"

const volatile __u64 cfg_max_lead_ns = 10000000;

CROSS_WAKEUP_HOOKS(boost_wakeup, true, false, cfg_max_lead_ns)
