// SPDX-License-Identifier: GPL-2.0-only
/*
 * cgroup-isolate: wakeup preemption does not cross the boundary of the -c
 * cgroups. Insiders (tasks in a -c cgroup or below it) are never preempted
 * because an outsider woke up; with --preempt-outsiders, an insider's wakeup
 * preempts a running outsider at once. Between insiders, and between
 * outsiders, CFS decides. The tick is left to CFS, so insiders and
 * outsiders still share the CPU by weight: what changes is who waits for
 * whom when a task wakes.
 *
 * Hooks and what they return:
 * - cfs_check_preempt_wakeup: SCHED_SUPPRESS (<0) when the running task is
 *   an insider and the woken task an outsider; with cfg_preempt_outsiders,
 *   SCHED_FORCE (>0) when the woken task is an insider and the running task
 *   an outsider; 0 otherwise.
 * - cfs_wakeup_preempt_entity: the same rule for the entities CFS compares,
 *   group entities included: an entity of a -c cgroup is an insider.
 *
 * No lead guard (unlike boost-wakeup): the boundary is the policy, and an
 * insider that keeps waking still loses the CPU at the tick once its slice
 * is used. "Targets" counters count calls across the boundary.
 */
#include "common.bpf.h"
#include "target.bpf.h"
#include "observe.bpf.h"
#include "wakeup.bpf.h"

const volatile bool cfg_preempt_outsiders = false;

CROSS_WAKEUP_HOOKS(cgroup_isolate, cfg_preempt_outsiders, true, LEAD_UNBOUNDED)
