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
 *   the next one once. SCHED_SUPPRESS (<0) instead where the entity the
 *   tick is for is a group that the waiting target is in (the running task
 *   is its sibling, further down): ending that group's slice would clear
 *   the next buddy that the forced wakeup set for it and hand the CPU to
 *   another group, which is what kept a nested 1 kHz waker waiting a
 *   millisecond or more at 4% of its wakeups (its timer often fires in the
 *   same interrupt as the tick). 0 otherwise. The tick catches the targets
 *   the wakeup hook did not force in, whose cgroup's entity has no sleeper
 *   credit: they would wait for the running task's slice.
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
 * A target woken on this CPU that has not run since: when it woke, its
 * task's entity and that entity's exec_start then, and its entity at each
 * depth of its cgroup hierarchy (se[d] is the one of depth d, up to depth;
 * with FAIR_GROUP_SCHED), so that the tick can tell the levels where the
 * target waits beside the running entity from those where it waits inside
 * it. Taken by the wakeup hook at every wakeup of a target it sees
 * (note_waiting(), below).
 *
 * Whether the target has run since, the tick asks the entity itself: CFS
 * sets exec_start when it picks an entity to run (and while it runs, and
 * to 0 when it moves to another CPU), nowhere else, so an exec_start that
 * is not the one noted means the target ran, or left. One read at a tick
 * with a note, where the switch observer clearing the note would cost a
 * target test at every switch, and the observer under --observe=none for
 * the policy alone. Older than WAITING_MAX_NS, the note is forgotten too.
 */
#define WAITING_MAX_NS (50 * 1000 * 1000ULL)

/*
 * The note's clock: the runqueue's, which CFS brought up to date before
 * the enqueue that the wakeup hook follows and before the tick, three
 * loads from the entity where bpf_ktime_get_ns() is a helper call and a
 * read of the clocksource: 16 ns less a target's wakeup, and a target's
 * tick, under the VM's instruction clock (6.1). Both sides read a
 * runqueue's clock (the tick's may be another CPU's on 6.12, which runs
 * it at slice ends too: the clocks agree to far less than the 50 ms).
 * Without FAIR_GROUP_SCHED the entity does not lead to it: the helper, on
 * both sides.
 */
static __always_inline u64 note_clock(struct sched_entity *se)
{
	struct rq *rq = se_rq(se);

	return rq ? rq->clock : bpf_ktime_get_ns();
}

struct waiting {
	u64 ts;
	u64 task_se;
	u64 exec_start;
	u32 depth;
	u64 se[SE_MAX_DEPTH];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SCHEDBPF_MAX_CPUS);
	__type(key, u32);
	__type(value, struct waiting);
} target_waiting SEC(".maps");

/*
 * Notes target p's wakeup on its CPU, from the wakeup hook, which sees
 * every wakeup CFS checks (cross_wakeup(): TARGET_WOKE). p is the hook's
 * argument: direct loads, no helper call for its CPU.
 */
static __always_inline void note_waiting(struct task_struct *p)
{
	struct sched_entity *se = &p->se;
	struct waiting *w;
	u32 cpu, d;
	int i;

	cpu = p->thread_info.cpu;
	w = bpf_map_lookup_elem(&target_waiting, &cpu);
	if (!w)
		return;
	w->ts = note_clock(se);
	w->task_se = (u64)se;
	w->exec_start = se->exec_start;
	w->depth = 0;
	if (!bpf_core_field_exists(se->depth))
		return;
	/* the task's own entity, then its parents */
	d = se->depth;
	w->depth = d;
	for (i = 0; i < SE_MAX_DEPTH && se; i++) {
		d = se->depth;
		if (d < SE_MAX_DEPTH)
			w->se[d] = (u64)se;
		se = se->parent;
	}
}

/*
 * Is w's target still waiting, woken less than WAITING_MAX_NS ago and not
 * run since? Forgets it if not. curr: the tick's entity.
 */
static __always_inline bool still_waiting(struct waiting *w,
					  struct sched_entity *curr)
{
	struct sched_entity *se = (struct sched_entity *)w->task_se;

	if (!w->ts)
		return false;
	if (note_clock(curr) - w->ts > WAITING_MAX_NS ||
	    BPF_CORE_READ(se, exec_start) != w->exec_start) {
		w->ts = 0;
		return false;
	}
	return true;
}

/*
 * Does the waiting target run inside curr, the entity the tick is for: is
 * curr a group entity of the target's hierarchy?
 */
static __always_inline bool waits_inside(const struct waiting *w,
					 struct sched_entity *curr)
{
	u32 d;

	if (!bpf_core_field_exists(curr->depth))
		return false;
	d = curr->depth;
	return d < w->depth && d < SE_MAX_DEPTH && w->se[d] == (u64)curr;
}

/* the wakeup hook of CROSS_WAKEUP_HOOKS() notes the wakeup checks */
#define OBSERVE_CHECK_IN_HOOK
/* and the targets' wakeups, for the tick */
#define TARGET_WOKE(p) note_waiting(p)
#include "observe.bpf.h"
#include "wakeup.bpf.h"

const volatile __u64 cfg_max_lead_ns = 10000000;

CROSS_WAKEUP_HOOKS(boost_wakeup, true, NULL, false, &cfg_max_lead_ns)

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(boost_wakeup_tick, struct sched_entity *curr,
	     unsigned long delta_exec)
{
	u32 cpu = bpf_get_smp_processor_id();
	pcpu_t pc = observe_tick();
	struct sched_entity *next;
	struct waiting *w;

	w = bpf_map_lookup_elem(&target_waiting, &cpu);
	if (!w || !still_waiting(w, curr))
		return SCHED_DEFAULT;
	if (se_is_target(running_se(curr)))
		return SCHED_DEFAULT;
	stat_seen(&pc, STAT_TICK_TARGETS);
	/* the lead of the entity that runs instead (CFS: the leftmost) */
	next = waiting_se(curr);
	if (!next)
		return SCHED_DEFAULT;
	if (waits_inside(w, curr)) {
		/*
		 * The target waits in curr's group, for the non-target
		 * running there: ending curr's slice would clear the next
		 * buddy the forced wakeup set for it at this level and hand
		 * the CPU to another group. Keep curr; the level below
		 * hands over.
		 */
		if ((s64)(curr->vruntime - BPF_CORE_READ(next, vruntime)) >=
		    (s64)cfg_max_lead_ns) {
			stat_inc(&pc, STAT_BOUNDED);
			return SCHED_DEFAULT;
		}
		stat_inc(&pc, STAT_TICK_SUPPRESSED);
		return verdict(SCHED_SUPPRESS);
	}
	if ((s64)(BPF_CORE_READ(next, vruntime) - curr->vruntime) >=
	    (s64)cfg_max_lead_ns) {
		stat_inc(&pc, STAT_BOUNDED);
		return SCHED_DEFAULT;
	}
	stat_inc(&pc, STAT_TICK_FORCED);
	return verdict(SCHED_FORCE);
}
