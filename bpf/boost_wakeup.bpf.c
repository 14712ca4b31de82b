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
 *   the wakee preempts at once, and the kernel makes it the next buddy at
 *   every level, so it runs next even where it is not the leftmost. 0
 *   otherwise: CFS decides, so targets never preempt each other and
 *   non-targets are treated as without the tool.
 * - cfs_wakeup_preempt_entity: the same rule for the entities CFS compares
 *   (the woken entity against the running one, and when it picks a buddy):
 *   SCHED_FORCE makes the target's entity win; 0 otherwise.
 * - cfs_check_preempt_tick: SCHED_FORCE when a target woke on this CPU and
 *   has not run yet, the running task is not a target, and the entity that
 *   would run instead (CFS's leftmost, EEVDF's eligible entity with the
 *   earliest deadline: waiting_se()) is less than the lead ahead of the
 *   running one; the kernel then ends the running entity's slice and runs
 *   the next one once. 0 otherwise. This catches the wakeups the wakeup
 *   hook never saw: CFS skips it when the running task is already marked
 *   for rescheduling (in the emulator, 1 in 10 wakeups of a 1 kHz waker,
 *   whose timer often fires in the same interrupt as the tick), and then
 *   picks by vruntime; a target in a cgroup whose entity does not sleep
 *   has no sleeper credit there and waited for the running task's slice.
 *
 * On default knobs a task that sleeps gets up to sched_latency / 2 (6 ms
 * on 2 CPUs) of sleeper credit, more than wakeup_granularity (2 ms), so
 * CFS already lets a target preempt at its wakeups while it uses less than
 * its fair share and its own entity sleeps: there is nothing to boost.
 * Boosting matters where the target's entity is not that far behind: a
 * cgroup that stays runnable, a target using about its fair share, or the
 * throughput profile's 15 ms wakeup granularity (see the man page).
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

/*
 * A target woken on this CPU that has not run since, and when it woke: a
 * tick after that may hand the CPU over. Older than WAITING_MAX_NS, it
 * has most likely moved to another CPU and is forgotten. Kept by the
 * observers' tracepoint programs (observe.bpf.h), which call these two.
 */
#define WAITING_MAX_NS (50 * 1000 * 1000ULL)

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SCHEDBPF_MAX_CPUS);
	__type(key, u32);
	__type(value, u64);
} target_waiting SEC(".maps");

#define OBSERVE_POLICY_NOTES
static __always_inline void policy_note_wakeup(struct task_struct *p)
{
	u32 cpu;
	u64 *ts;

	if (!task_is_target(p))
		return;
	/* a direct load from the tracepoint's task: no helper call */
	cpu = p->thread_info.cpu;
	ts = bpf_map_lookup_elem(&target_waiting, &cpu);
	if (ts)
		*ts = bpf_ktime_get_ns();
}

static __always_inline void policy_note_switch(struct task_struct *next)
{
	u32 cpu;
	u64 *ts;

	if (!task_is_target(next))
		return;
	cpu = bpf_get_smp_processor_id();
	ts = bpf_map_lookup_elem(&target_waiting, &cpu);
	if (ts)
		*ts = 0;
}

#include "observe.bpf.h"
#include "wakeup.bpf.h"

const volatile __u64 cfg_max_lead_ns = 10000000;

CROSS_WAKEUP_HOOKS(boost_wakeup, true, false, cfg_max_lead_ns)

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(boost_wakeup_tick, struct sched_entity *curr,
	     unsigned long delta_exec)
{
	u32 cpu = bpf_get_smp_processor_id();
	struct sched_entity *next;
	u64 *ts, now;

	stat_inc(STAT_TICK_CALLS);
	ts = bpf_map_lookup_elem(&target_waiting, &cpu);
	if (!ts || !*ts)
		return SCHED_DEFAULT;
	now = bpf_ktime_get_ns();
	if (now - *ts > WAITING_MAX_NS) {
		*ts = 0;
		return SCHED_DEFAULT;
	}
	if (se_is_target(running_se(curr)))
		return SCHED_DEFAULT;
	stat_inc(STAT_TICK_TARGETS);
	/* the lead of the entity that runs instead (CFS: the leftmost) */
	next = waiting_se(curr);
	if (!next)
		return SCHED_DEFAULT;
	if ((s64)(BPF_CORE_READ(next, vruntime) - curr->vruntime) >=
	    (s64)cfg_max_lead_ns) {
		stat_inc(STAT_BOUNDED);
		return SCHED_DEFAULT;
	}
	stat_inc(STAT_TICK_FORCED);
	return verdict(SCHED_FORCE);
}
