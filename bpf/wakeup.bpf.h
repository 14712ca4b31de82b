/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Wakeup preemption across a boundary, shared by the policies that let one
 * side's wakeups preempt the other (boost-wakeup, cgroup-isolate
 * --preempt-outsiders) or keep them from doing so (cgroup-isolate).
 *
 * "Inside" is se_is_target(). The wakeup hook sees tasks; the entity hook
 * sees the entities CFS compares, which are on the same cfs_rq but may be
 * group entities: a group entity is inside when its cgroup is a -c cgroup
 * or below one, so -c targets are recognised at every level, -p and the
 * wrapped command's tree at the task level.
 *
 * The lead guard: forcing a wakeup preemption hands the CPU to the wakee
 * whatever its vruntime, so a target that wakes constantly could take the
 * CPU from the running task indefinitely. cfg_max_lead_ns bounds that: a
 * wakee is forced in only while its vruntime is less than cfg_max_lead_ns
 * ahead of the running entity's, both compared on the cfs_rq where their
 * hierarchies meet (as CFS itself compares them). Once a target has run
 * that far past its fair share, its wakeups go back to CFS's own rule,
 * which never lets an entity ahead in vruntime preempt; the CPU is shared
 * fairly again, up to that lead. Counted in STAT_BOUNDED.
 */
#ifndef SCHEDBPF_WAKEUP_BPF_H
#define SCHEDBPF_WAKEUP_BPF_H

#include "target.bpf.h"
/* cross_wakeup() notes the wakeup checks: note_wakeup_check() */
#ifndef OBSERVE_CHECK_IN_HOOK
#error "define OBSERVE_CHECK_IN_HOOK and include observe.bpf.h first"
#endif

/*
 * A policy that needs to know of the targets' wakeups (boost-wakeup's
 * tick) defines TARGET_WOKE(p) before including this: the wakeup hook
 * calls it for every target p whose wakeup CFS checks, what a sched_wakeup
 * program would see but for the wakeups that find the resched flag set,
 * without the program call on every wakeup.
 */
#ifdef TARGET_WOKE
#define TARGET_WOKE_WANTED true
#else
#define TARGET_WOKE_WANTED false
#define TARGET_WOKE(p) do { } while (0)
#endif

/*
 * No guard: cgroup-isolate's outsiders may be kept waiting by any lead.
 * Otherwise the guard is a read-only global's address, read only where a
 * wakeup is to be forced: a policy's knob is `const volatile`, which clang
 * reads where the program names it, so a value handed down from the hook
 * was loaded and kept on the stack at every call.
 */
#define LEAD_UNBOUNDED NULL

/*
 * Whether a policy forces an inside wakee in: boost, or where knob is not
 * NULL, the read-only global it points to (cgroup-isolate's
 * --preempt-outsiders), read where it decides, for the reason above.
 */
static __always_inline bool boosts(bool boost, const volatile bool *knob)
{
	return knob ? *knob : boost;
}

/*
 * Walks a and b up to the entities of theirs that share a cfs_rq, as
 * find_matching_se() does. False if none is found within SE_MAX_DEPTH.
 *
 * The deeper side goes up first, by the difference of the depths read at
 * the start, one side at a time. A task's entity and a group's are
 * different types to the verifier (the first is a field of a task): one
 * loop that moved either side, testing the depths at every step, had it
 * check every mix of the two at every step. boost-wakeup's wakeup hook,
 * which matches two tasks, verified in 11090 instructions, then in 6759
 * with this walk (55 -> 37 ms on 6.12 in the VM).
 */
static __always_inline bool match_ses(struct sched_entity **a,
				      struct sched_entity **b)
{
	struct sched_entity *x = *a, *y = *b;
	int i, dx, dy;

	if (!bpf_core_field_exists(x->cfs_rq))
		return true;
	dx = x->depth;
	dy = y->depth;
	for (i = 0; i < SE_MAX_DEPTH && x && dx > dy; i++, dx--)
		x = x->parent;
	for (i = 0; i < SE_MAX_DEPTH && y && dy > dx; i++, dy--)
		y = y->parent;
	for (i = 0; i < SE_MAX_DEPTH && x && y; i++) {
		if (x->cfs_rq == y->cfs_rq) {
			*a = x;
			*b = y;
			return true;
		}
		x = x->parent;
		y = y->parent;
	}
	return false;
}

/*
 * May wakee be forced in ahead of curr? Both are entities on the same
 * cfs_rq, or anywhere in the hierarchy when matched is false.
 */
static __always_inline bool within_lead(struct sched_entity *curr,
					struct sched_entity *wakee,
					bool matched,
					const volatile u64 *max_lead_ns)
{
	if (!max_lead_ns)
		return true;
	if (!matched && !match_ses(&curr, &wakee))
		return false;
	return (s64)(wakee->vruntime - curr->vruntime) < (s64)*max_lead_ns;
}

/*
 * The verdict for a wakeup of wakee while curr runs, the hook's counters
 * starting at calls (then targets, suppressed, forced, as in schedbpf.h).
 * curr is the entity CFS compares the wakee with, running the task that
 * would be preempted (found with running_se() from a group entity);
 * tasks says whether the hook has the tasks (a constant, so that clang
 * drops the other branch, where a test of two pointers it cannot know
 * are set kept both): curr_task and wakee_task, the running task and the
 * wakee's; without them the entities are tested:
 * - an inside wakee and an outside curr: force (boost) if boosts() and the
 *   lead guard allow;
 * - an outside wakee and an inside curr: suppress if shield is set;
 * - otherwise, or on the same side: CFS decides.
 * "targets" counts the calls where exactly one of the two is inside.
 */
static __always_inline int cross_wakeup(pcpu_t *pc, struct sched_entity *curr,
					struct sched_entity *running,
					struct sched_entity *wakee,
					bool tasks,
					struct task_struct *curr_task,
					struct task_struct *wakee_task,
					bool matched, bool boost,
					const volatile bool *boost_knob,
					bool shield,
					const volatile u64 *max_lead_ns,
					enum schedbpf_stat calls)
{
	bool curr_in, wakee_in, lazy;

	/*
	 * One task group, or --all: the two sides agree, nothing to cross.
	 * Tested first, before any read of the configuration but its own:
	 * the call most often ends here (the tasks of one cgroup).
	 */
	if (tasks ? same_verdict_tasks(curr_task, wakee_task) :
		    same_verdict(running, wakee)) {
		stat_seen(pc, calls);
		/* the wakeup hook (it has the tasks): curr may be a target */
		if (tasks && !agreed_outside(running)) {
			if (cfg_common.observe != SCHEDBPF_OBSERVE_NONE)
				note_wakeup_check(curr_task, wakee_task);
			if (TARGET_WOKE_WANTED && task_is_target(wakee_task))
				TARGET_WOKE(wakee_task);
		}
		return SCHED_DEFAULT;
	}
	stat_seen(pc, calls);
	/*
	 * Counting "targets" needs both sides. Without it (--observe=none),
	 * a policy that acts on one side only tests that side first, and the
	 * other only where it matters: a wakeup that boost-wakeup cannot
	 * boost costs one target test, not two.
	 */
	lazy = cfg_common.observe == SCHEDBPF_OBSERVE_NONE &&
	       !(shield && boosts(boost, boost_knob));
	/* the tasks, where the hook has them: fewer loads, no kfunc */
	if (!shield && boosts(boost, boost_knob)) {
		wakee_in = tasks ? task_is_target(wakee_task) :
				   se_is_target(wakee);
		if (lazy && !wakee_in)
			return SCHED_DEFAULT;
		curr_in = tasks ? task_is_target(curr_task) :
				  se_is_target(running);
	} else {
		curr_in = tasks ? task_is_target(curr_task) :
				  se_is_target(running);
		if (lazy && !curr_in)
			return SCHED_DEFAULT;
		wakee_in = tasks ? task_is_target(wakee_task) :
				   se_is_target(wakee);
	}
	/*
	 * curr_in is known here at every --observe level that takes notes
	 * (lazy is --observe=none only); the note needs both tasks.
	 */
	if (curr_in && tasks)
		note_wakeup_check(curr_task, wakee_task);
	if (wakee_in && tasks)
		TARGET_WOKE(wakee_task);
	if (curr_in == wakee_in)
		return SCHED_DEFAULT;
	stat_seen(pc, calls + 1);
	if (wakee_in && boosts(boost, boost_knob)) {
		if (!within_lead(curr, wakee, matched, max_lead_ns)) {
			stat_inc(pc, STAT_BOUNDED);
			return SCHED_DEFAULT;
		}
		stat_inc(pc, calls + 3);
		return verdict(SCHED_FORCE);
	}
	if (curr_in && shield) {
		stat_inc(pc, calls + 2);
		return verdict(SCHED_SUPPRESS);
	}
	return SCHED_DEFAULT;
}

/* The two hooks for a policy: cross_wakeup() with its own knobs. */
#define CROSS_WAKEUP_HOOKS(prefix, boost, boost_knob, shield, max_lead_ns)   \
	SEC("sched/cfs_check_preempt_wakeup")                                \
	int BPF_PROG(prefix##_wakeup, struct task_struct *curr,              \
		     struct task_struct *p)                                  \
	{                                                                    \
		pcpu_t pc = PCPU_INIT;                                       \
                                                                             \
		return cross_wakeup(&pc, &curr->se, &curr->se, &p->se, true, \
				    curr, p, false, (boost), (boost_knob),   \
				    (shield), (max_lead_ns),                 \
				    STAT_WAKEUP_CALLS);                      \
	}                                                                    \
                                                                             \
	SEC("sched/cfs_wakeup_preempt_entity")                               \
	int BPF_PROG(prefix##_entity, struct sched_entity *curr,             \
		     struct sched_entity *se)                                \
	{                                                                    \
		pcpu_t pc = PCPU_INIT;                                       \
                                                                             \
		return cross_wakeup(&pc, curr, running_se(curr), se, false,  \
				    NULL, NULL, true, (boost), (boost_knob), \
				    (shield), (max_lead_ns),                 \
				    STAT_ENTITY_CALLS);                      \
	}

#endif /* SCHEDBPF_WAKEUP_BPF_H */
