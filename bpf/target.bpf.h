/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which tasks are targets: the -c cgroups and their descendants, every
 * thread of the -p processes, the wrapped command's process tree, or every
 * task with --all.
 *
 * Two versions of the same test: se_is_target() for the scheduler hooks,
 * which may use the sched-entity kfuncs, and task_is_target() for the
 * tp_btf observers, which may not and read the task's cgroup2 ancestry with
 * CO-RE reads instead. Both use the cgroup2 (default hierarchy) cgroup of a
 * task, so they agree.
 *
 * Both run on every event, for every task, so a non-target must cost as
 * little as possible: a cgroup above the highest -c cgroup (the lowest
 * level) is decided with one load; below it, the walk up to that level is
 * two direct loads a level, no helper call, for CGROUP_WALK_DEPTH levels,
 * and deeper a few CO-RE reads (cgroup->ancestors[]). The pid maps are
 * looked up only when there are -p processes or a command's tree. A hook's
 * entity is judged by its task group where every -c cgroup has one (the
 * cpu controller is on for it): its tasks queue on that group's runqueues,
 * so the group's cgroup is a -c cgroup or below one exactly when the
 * task's is; and a group above every -c cgroup is known from the entity's
 * depth, one load, without its cgroup (group_above_targets()). Otherwise
 * the running task is found through its runqueue; only for another
 * entity, and for -p and a command's tree, does it take the kfuncs,
 * whose every read is a get_kernel_nofault(). Where the group decides,
 * two entities of one task group need no test at all to know they agree
 * (same_verdict()): a policy that acts only when the running entity and
 * the other one differ stops there.
 */
#ifndef SCHEDBPF_TARGET_BPF_H
#define SCHEDBPF_TARGET_BPF_H

#include "common.bpf.h"

/* Levels cgrp_is_target() walks up with direct loads. */
#define CGROUP_WALK_DEPTH 4
/* Deepest task-group nesting running_se() walks down from an entity. */
#define SE_MAX_DEPTH 8

/* tgids of the -p processes, filled by the tool before it attaches */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCHEDBPF_MAX_PIDS);
	__type(key, u32);
	__type(value, u8);
} target_tgids SEC(".maps");

/* pids (threads) of the wrapped command's tree, kept on fork and exit */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCHEDBPF_MAX_TREE);
	__type(key, u32);
	__type(value, u8);
} tree_pids SEC(".maps");

static __always_inline bool pid_is_target(u32 tgid, u32 pid)
{
	if (cfg_common.has_pids && bpf_map_lookup_elem(&target_tgids, &tgid))
		return true;
	if (cfg_common.track_tree && bpf_map_lookup_elem(&tree_pids, &pid))
		return true;
	return false;
}

/*
 * With FAIR_GROUP_SCHED the hooks may be handed a group entity: the tick
 * runs once per level of the running task's hierarchy. The task that would
 * be preempted is found by following each level's running entity down, so
 * a target nested in an untargeted cgroup is protected at every level. An
 * entity that is not running (my_q->curr is NULL) is returned as is.
 */
static __always_inline struct sched_entity *running_se(struct sched_entity *se)
{
	int i;

	if (!bpf_core_field_exists(se->my_q))
		return se;
	for (i = 0; i < SE_MAX_DEPTH; i++) {
		struct cfs_rq *q = se->my_q;
		struct sched_entity *next;

		if (!q)
			break;
		next = q->curr;
		if (!next)
			break;
		se = next;
	}
	return se;
}

static __always_inline bool cgrp_id_is_target(u64 id)
{
	u32 i;

	for (i = 0; i < SCHEDBPF_MAX_CGROUPS && i < cfg_common.nr_cgrps; i++) {
		if (cfg_common.cgrp_ids[i] == id)
			return true;
	}
	return false;
}

/*
 * cgrp is a -c cgroup or below one, in a few CO-RE reads whatever the
 * depth: its ancestor at each -c cgroup's level (cgroup->ancestors[],
 * which the verifier does not let a direct load reach: it lies past the
 * end of struct cgroup). For a cgroup pointer the verifier cannot follow
 * (cgroup-isolate reads the waiting entity's with BPF_CORE_READ()), and
 * below the direct walk's reach. Not inlined: its helper calls would
 * make the direct walk's callers keep more values on the stack, a few
 * instructions more on every event though it seldom runs.
 */
static __noinline bool cgrp_anc_is_target(struct cgroup *cgrp)
{
	u32 i, level;

	if (!cgrp)
		return false;
	level = BPF_CORE_READ(cgrp, level);
	for (i = 0; i < SCHEDBPF_MAX_CGROUPS && i < cfg_common.nr_cgrps; i++) {
		u32 l = cfg_common.cgrp_levels[i];
		struct cgroup *anc;

		if (l > level)
			continue;
		anc = BPF_CORE_READ(cgrp, ancestors[l]);
		if (anc && BPF_CORE_READ(anc, kn, id) == cfg_common.cgrp_ids[i])
			return true;
	}
	return false;
}

/*
 * The same test with direct loads, for a pointer the verifier follows:
 * walk up from cgrp to the highest -c cgroup's level, comparing ids on the
 * way, two loads a level. CGROUP_WALK_DEPTH levels at most: each level is
 * one more unrolled step for the verifier to check at every call site,
 * and it is the tool's start-up. Deeper, cgrp_anc_is_target() finishes.
 * deep: cgrp is known to be at the highest -c cgroup's level or below
 * (group_above_targets() said no), so its level is not read first (the
 * ids decide: a wrong deep costs loads, not a wrong answer).
 */
static __always_inline bool cgrp_walk(struct cgroup *cgrp, bool deep)
{
	int depth;

	for (depth = 0; depth < CGROUP_WALK_DEPTH && cgrp; depth++) {
		if ((depth || !deep) &&
		    (u32)cgrp->level < cfg_common.cgrp_min_level)
			return false;
		if (cgrp_id_is_target(cgrp->kn->id))
			return true;
		if (!cgrp->self.parent)
			return false;
		cgrp = cgrp->self.parent->cgroup;
	}
	return cgrp_anc_is_target(cgrp);
}

static __always_inline bool cgrp_is_target(struct cgroup *cgrp)
{
	return cgrp_walk(cgrp, false);
}

/*
 * Only cgroups, each with its task group: the group an entity queues on
 * (or runs) decides whether it is a target.
 */
static __always_inline bool group_decides(void)
{
	return cfg_common.group_decides;
}

/*
 * Where the group decides: is the task group se belongs to (se_group_rq();
 * my_q is se->my_q, read once by the caller) above the highest -c cgroup,
 * so in none, from one load? A task group's level is its cgroup's (the cpu
 * controller is on in a cgroup only where it is on in all its ancestors,
 * so each has a task group), and an entity's depth counts the group
 * entities above it: a task's group is at its depth, the group a group
 * entity runs one below.
 */
static __always_inline bool group_above_targets(struct sched_entity *se,
						struct cfs_rq *my_q)
{
	return bpf_core_field_exists(se->depth) &&
	       (u32)se->depth + (my_q ? 1 : 0) < cfg_common.cgrp_min_level;
}

/* The cgroup of task group tg; NULL for an autogroup's. A direct load. */
static __always_inline struct cgroup *tg_cgroup(struct task_group *tg)
{
	return tg ? tg->css.cgroup : NULL;
}

/*
 * Same answer as se_is_target() on &p->se, for tracing programs (which
 * cannot call the kfuncs) and for hooks that hold the task itself: a few
 * loads instead of a kfunc whose every read is a get_kernel_nofault(),
 * and one where the task's group is above every -c cgroup.
 *
 * Where the group decides, the walk starts from the task's task group
 * (p->sched_task_group), as se_is_target() does, not from its cgroup2
 * cgroup (p->cgroups->dfl_cgrp): the same number of loads, but the
 * verifier of 6.12 checks every pointer loaded through a tracepoint's
 * task (a trusted pointer) and through the RCU-protected pointers reached
 * from it, such as those two, against lists of safe fields, each check a
 * search of all of vmlinux's BTF by name. sched_task_group is on no list:
 * one check, and the pointers from it are plain ones, checked no more.
 */
static __always_inline bool task_is_target(struct task_struct *p)
{
	/* a task's cgroup is its task group's or below it */
	if (group_decides()) {
		/* group_above_targets(&p->se, NULL), in one CO-RE read */
		if (bpf_core_field_exists(p->se.depth) &&
		    (u32)p->se.depth < cfg_common.cgrp_min_level)
			return false;
		if (bpf_core_field_exists(p->sched_task_group)) {
			struct cgroup *cgrp = tg_cgroup(p->sched_task_group);

			/*
			 * NULL: an autogroup's, whose tasks are all in the
			 * root cgroup: targets if it is a -c cgroup, the only
			 * one of level 0
			 */
			if (!cgrp)
				return cfg_common.cgrp_min_level == 0;
			return cgrp_walk(cgrp, true);
		}
		return cgrp_walk(p->cgroups->dfl_cgrp, true);
	}
	if (cfg_common.all)
		return true;
	if ((cfg_common.has_pids || cfg_common.track_tree) &&
	    pid_is_target(p->tgid, p->pid))
		return true;
	if (!cfg_common.nr_cgrps)
		return false;
	return cgrp_is_target(p->cgroups->dfl_cgrp);
}

/*
 * se's runqueue, with direct loads (no helper call); NULL without
 * FAIR_GROUP_SCHED, where neither se->cfs_rq nor cfs_rq->rq exists.
 */
static __always_inline struct rq *se_rq(struct sched_entity *se)
{
	struct cfs_rq *q = NULL;

	if (!bpf_core_field_exists(se->cfs_rq) ||
	    !bpf_core_field_exists(q->rq))
		return NULL;
	q = se->cfs_rq;
	return q ? q->rq : NULL;
}

/*
 * The running task of se's runqueue if se is its entity, else NULL: the
 * tick's entity, and the running side of a wakeup, are found without a
 * kfunc this way (the runqueue is only reachable with FAIR_GROUP_SCHED).
 */
static __always_inline struct task_struct *running_task_of(struct sched_entity *se)
{
	struct task_struct *curr;
	struct rq *rq = se_rq(se);

	if (!rq)
		return NULL;
	curr = rq->curr;
	return curr && &curr->se == se ? curr : NULL;
}

/*
 * EEVDF's fields (6.6 on), which the 6.1 vmlinux.h lacks: local flavours
 * that CO-RE matches to struct sched_entity and struct cfs_rq (libbpf
 * drops the ___ suffix). zero_vruntime is cfs_rq's min_vruntime as 6.18
 * and Debian's 6.12.118 name it; a kernel with the old name gets the
 * leftmost (below): reading either field under a bpf_core_field_exists()
 * test is not enough, as the compiler computes both fields' offsets
 * ahead of the test, and the missing one's fails the load.
 */
struct sched_entity___eevdf {
	struct load_weight load;
	struct rb_node run_node;
	u64 deadline;
	u64 min_vruntime;
	unsigned char on_rq;
	u64 vruntime;
} __attribute__((preserve_access_index));

struct cfs_rq___eevdf {
	s64 avg_vruntime;
	u64 avg_load;
	u64 zero_vruntime;
	struct rb_root_cached tasks_timeline;
	struct sched_entity *curr;
} __attribute__((preserve_access_index));

/* kernel/sched/sched.h, 64-bit */
#define SCHED_FIXEDPOINT_SHIFT 10
/*
 * Deepest the tree walk below goes. A red-black tree of n nodes is at
 * most 2 log2(n + 1) deep: 32 holds any runqueue of fewer than 2^16
 * entities, more tasks than the default pid_max allows in all on a
 * machine of up to 64 CPUs (1024 a CPU, at least 32768). Each step is
 * another iteration for the verifier to check, about 0.5 ms each on 6.12
 * in the VM: the tick programs verify in 24 ms (with the counters of a
 * per-CPU map, checked twice: 45 ms, 62 with 48 steps, 79 with 64). A
 * deeper tree's search stops there and gives the leftmost entity (the
 * earliest deadline, eligible or not), as it did past 48 before.
 */
#define RB_MAX_DEPTH 32

static __always_inline struct sched_entity *node_se(struct rb_node *node)
{
	return (void *)node - bpf_core_field_offset(struct sched_entity,
						     run_node);
}

/*
 * vruntime_eligible() of kernel/sched/fair.c, split in two: the queue's
 * weighted average, read once with CO-RE reads (it does not change while
 * the hook runs, under the runqueue lock), and the test of one vruntime
 * against it, which the tree walk below repeats.
 */
struct eevdf_avg {
	s64 avg;
	s64 load;
	u64 zero;
};

static __always_inline void eevdf_avg_read(struct cfs_rq___eevdf *q,
					   struct eevdf_avg *a)
{
	struct sched_entity___eevdf *curr = (void *)BPF_CORE_READ(q, curr);

	a->avg = BPF_CORE_READ(q, avg_vruntime);
	a->load = BPF_CORE_READ(q, avg_load);
	a->zero = BPF_CORE_READ(q, zero_vruntime);
	if (curr && BPF_CORE_READ(curr, on_rq)) {
		unsigned long w = BPF_CORE_READ(curr, load.weight);

		if (w) {
			w >>= SCHED_FIXEDPOINT_SHIFT;
			w = w < 2 ? 2 : w;
		}
		a->avg += (s64)(BPF_CORE_READ(curr, vruntime) - a->zero) * (s64)w;
		a->load += w;
	}
}

static __always_inline bool eevdf_eligible(const struct eevdf_avg *a,
					   u64 vruntime)
{
	return a->avg >= (s64)(vruntime - a->zero) * a->load;
}

/*
 * The entity that would run in place of curr, the running entity of its
 * cfs_rq, read with CO-RE reads (the tree holds rb_node pointers, and the
 * verifier does not follow container_of() back to the entity), or NULL if
 * none waits. On CFS the leftmost: the tree is ordered by vruntime. On
 * EEVDF the tree is ordered by deadline, and what runs is the eligible
 * entity with the earliest deadline: pick_eevdf_waiting()'s heap search,
 * or the leftmost if none is eligible, as the series hands a forced
 * preemption over (bpf_sched_hand_over()); the leftmost too on an EEVDF
 * kernel whose cfs_rq fields are named otherwise (6.6 to 6.12 upstream:
 * min_vruntime; 6.18: sum_w_vruntime). Without FAIR_GROUP_SCHED (no
 * se->cfs_rq), NULL.
 */
static __always_inline struct sched_entity *waiting_se(struct sched_entity *curr)
{
	struct sched_entity___eevdf *se;
	struct sched_entity *first;
	struct cfs_rq___eevdf *q;
	struct rb_node *node, *left;
	struct eevdf_avg a;
	int i;

	if (!bpf_core_field_exists(curr->cfs_rq))
		return NULL;
	node = BPF_CORE_READ(curr, cfs_rq, tasks_timeline.rb_leftmost);
	if (!node)
		return NULL;
	first = node_se(node);
	se = (void *)first;
	q = (void *)BPF_CORE_READ(curr, cfs_rq);
	if (!bpf_core_field_exists(se->deadline) ||
	    !bpf_core_field_exists(q->avg_vruntime) ||
	    !bpf_core_field_exists(q->zero_vruntime))
		return first;
	eevdf_avg_read(q, &a);
	if (eevdf_eligible(&a, BPF_CORE_READ(se, vruntime)))
		return first;
	node = BPF_CORE_READ(q, tasks_timeline.rb_root.rb_node);
#pragma clang loop unroll(disable)
	for (i = 0; i < RB_MAX_DEPTH && node; i++) {
		/* an eligible entity on the left has an earlier deadline */
		left = BPF_CORE_READ(node, rb_left);
		if (left) {
			se = (void *)node_se(left);
			if (eevdf_eligible(&a, BPF_CORE_READ(se, min_vruntime))) {
				node = left;
				continue;
			}
		}
		se = (void *)node_se(node);
		if (eevdf_eligible(&a, BPF_CORE_READ(se, vruntime)))
			return (void *)se;
		node = BPF_CORE_READ(node, rb_right);
	}
	return first;
}

/*
 * The runqueue of the task group se belongs to: for a task, the one it is
 * queued on (its cgroup's group, or that of its nearest ancestor with the
 * cpu controller); for a group entity, the group's own, which it runs.
 * NULL without FAIR_GROUP_SCHED.
 */
static __always_inline struct cfs_rq *se_group_rq(struct sched_entity *se)
{
	if (!bpf_core_field_exists(se->my_q))
		return NULL;
	return se->my_q ?: se->cfs_rq;
}

/* The cgroup of q's task group; NULL for an autogroup's. Direct loads. */
static __always_inline struct cgroup *cfs_rq_cgroup(struct cfs_rq *q)
{
	if (!bpf_core_field_exists(q->tg) || !q)
		return NULL;
	/* once: clang does not merge two CO-RE reads of one field */
	return tg_cgroup(q->tg);
}

/* The cgroup of the task group se belongs to (se_group_rq()). */
static __always_inline struct cgroup *se_group_cgroup(struct sched_entity *se)
{
	return cfs_rq_cgroup(se_group_rq(se));
}

/*
 * The cgroup of the task group whose runqueue se is queued on (for a task
 * as se_group_cgroup(); for a group entity, its parent group).
 */
static __always_inline struct cgroup *se_queue_cgroup(struct sched_entity *se)
{
	if (!bpf_core_field_exists(se->cfs_rq))
		return NULL;
	return cfs_rq_cgroup(se->cfs_rq);
}

/*
 * a and b are both targets or both not, known from two loads each: where
 * the group decides, two entities of the same task group (se_group_rq())
 * agree; with --all, everything is a target. False says nothing.
 * (Two autogroup entities agree too: no task of a -c cgroup with its own
 * task group is in an autogroup.)
 */
static __always_inline bool same_verdict(struct sched_entity *a,
					 struct sched_entity *b)
{
	struct cfs_rq *q;

	if (!group_decides())
		return cfg_common.all;
	q = se_group_rq(a);
	return q && q == se_group_rq(b);
}

/*
 * same_verdict() for two tasks: a task's group runqueue is the one it
 * queues on (a task's my_q is NULL), two loads where same_verdict() on
 * their entities makes four.
 */
static __always_inline bool same_verdict_tasks(struct task_struct *a,
					       struct task_struct *b)
{
	struct cfs_rq *q;

	if (!group_decides())
		return cfg_common.all;
	if (!bpf_core_field_exists(a->se.cfs_rq))
		return false;
	q = a->se.cfs_rq;
	return q && q == b->se.cfs_rq;
}

/*
 * Of a, which agrees with another entity (same_verdict()): is it known to
 * be outside from one load? Where the group decides, an entity of the root
 * task group (depth 0) is in no -c cgroup: each has a task group of its
 * own, below the root.
 */
static __always_inline bool agreed_outside(struct sched_entity *a)
{
	return group_decides() && cfg_common.cgrp_min_level > 0 &&
	       bpf_core_field_exists(a->depth) && a->depth == 0;
}

/* For scheduler hooks (BPF_PROG_TYPE_SCHED) only. */
static __always_inline bool se_is_target(struct sched_entity *se)
{
	struct task_struct *p;
	u64 tgidpid;
	u32 i;

	/*
	 * The group se queues on (or runs) decides, running or not: in two
	 * loads where it is above every -c cgroup, else in four and the ids.
	 * (An autogroup's task group has no cgroup: then as below.)
	 */
	if (group_decides() && bpf_core_field_exists(se->my_q)) {
		struct cfs_rq *q = se->my_q;
		struct cgroup *cgrp;

		if (group_above_targets(se, q))
			return false;
		cgrp = cfs_rq_cgroup(q ?: se->cfs_rq);
		if (cgrp)
			return cgrp_walk(cgrp, true);
	}
	if (cfg_common.all)
		return true;
	p = running_task_of(se);
	if (p)
		return task_is_target(p);
	if (cfg_common.has_pids || cfg_common.track_tree) {
		tgidpid = bpf_sched_entity_to_tgidpid(se);
		if (tgidpid != (u64)-1 &&
		    pid_is_target(tgidpid >> 32, (u32)tgidpid))
			return true;
	}
	if (cfg_common.cgrps_own_tg) {
		struct cgroup *cgrp = se_group_cgroup(se);

		if (cgrp)
			return cgrp_is_target(cgrp);
	}
	for (i = 0; i < SCHEDBPF_MAX_CGROUPS && i < cfg_common.nr_cgrps; i++) {
		if (bpf_sched_entity_belongs_to_cgrp(se, cfg_common.cgrp_ids[i]))
			return true;
	}
	return false;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(track_fork, struct task_struct *parent, struct task_struct *child)
{
	u32 ppid = parent->pid, pid = child->pid;
	u8 one = 1;

	if (cfg_common.track_tree && bpf_map_lookup_elem(&tree_pids, &ppid))
		bpf_map_update_elem(&tree_pids, &pid, &one, BPF_ANY);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(track_exit, struct task_struct *p)
{
	u32 pid = p->pid;

	if (cfg_common.track_tree)
		bpf_map_delete_elem(&tree_pids, &pid);
	return 0;
}

/*
 * The tick hook's first step in every tool that protects a running target,
 * after observe_tick() counted the call: the running task's entity (below
 * any group entity the tick was called for) if it is a target, counted;
 * NULL if it is not. (cgroup-isolate makes the same test before it counts,
 * its target's path out of line: isolate_target_tick().)
 */
static __always_inline struct sched_entity *tick_target(pcpu_t *pc,
							struct sched_entity *curr)
{
	struct sched_entity *se = running_se(curr);

	if (!se_is_target(se))
		return NULL;
	stat_seen(pc, STAT_TICK_TARGETS);
	return se;
}

/*
 * Suppress a preemption of the running target se until it has run limit_ns
 * since it was last picked, counting it in suppressed; after that, count
 * STAT_BOUNDED and let CFS decide.
 */
static __always_inline int suppress_within(pcpu_t *pc, struct sched_entity *se,
					   u64 limit_ns,
					   enum schedbpf_stat suppressed)
{
	if (se_ran_ns(se) >= limit_ns) {
		stat_inc(pc, STAT_BOUNDED);
		return SCHED_DEFAULT;
	}
	stat_inc(pc, suppressed);
	return verdict(SCHED_SUPPRESS);
}

#endif /* SCHEDBPF_TARGET_BPF_H */
