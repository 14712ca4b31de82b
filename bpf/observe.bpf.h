/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Observers of what a policy changed, as ordinary tp_btf programs that load
 * on any BTF kernel, at the level --observe chose (cfg_common.observe;
 * the library does not load them for none, unless a policy works in them,
 * below):
 * - counts: involuntary context switches of targets, counted the way the
 *   kernel counts nonvoluntary_ctxt_switches in /proc/PID/status (the task
 *   was preempted, or was still runnable when it switched out), and which
 *   of them a task of a higher class caused, and which a wakeup: the
 *   tool's cfs_check_preempt_wakeup program (OBSERVE_CHECK_IN_HOOK,
 *   below), or in a tool without one a wakeup hook program of the
 *   observers' own that decides nothing, notes whether the running task
 *   already had
 *   TIF_NEED_RESCHED (then CFS returns at once, deciding nothing), and at
 *   sched_wakeup, which 6.1 and 6.12 trace right after check_preempt_curr()
 *   (wakeup_preempt() on 6.12) on the same CPU under the same runqueue
 *   lock, the flag set since then is that wakeup's doing. (The flag alone
 *   at sched_wakeup is not enough: a tick that ended the target's slice in
 *   the same interrupt as a timer's wakeup would count as the wakeup's.)
 * - full: also the targets' wakeup-to-run latency, from sched_wakeup to the
 *   sched_switch that runs them, in a log2 histogram of microseconds
 *   (layout in schedbpf.h).
 * Not sched_wakeup_new: in three VM runs, detaching a program from it left
 * text_poke_bp() waiting forever for the other CPU (a soft lockup, under
 * qemu TCG); a new task's first run is not a wakeup a preemption policy is
 * about anyway.
 *
 * They run on every context switch and every wakeup of every task, so a
 * non-target costs one task_is_target() (a few loads) and nothing else: no
 * map is looked up for it. Earlier versions attached fentry and fexit to
 * check_preempt_wakeup() and fentry to resched_curr(): an fexit trampoline
 * and two more programs on every wakeup, where one hook program does.
 */
#ifndef SCHEDBPF_OBSERVE_BPF_H
#define SCHEDBPF_OBSERVE_BPF_H

#include "target.bpf.h"

/*
 * A policy that must itself see every wakeup and switch (boost-wakeup)
 * does it in these observers, not in tracepoint programs of its own: it
 * defines OBSERVE_POLICY_NOTES and the two functions below before
 * including this file, and its tool sets struct sched_tool's tp_notes, so
 * that the library loads the two tracepoint observers at every --observe
 * level (under none they do the policy's part only). One program a
 * tracepoint instead of two: half the calls, and one attach fewer each at
 * start-up.
 */
#ifndef OBSERVE_POLICY_NOTES
static __always_inline void policy_note_wakeup(struct task_struct *p)
{
}

static __always_inline void policy_note_switch(struct task_struct *next)
{
}
#endif

#define TASK_RUNNING 0
/* arch/x86/include/asm/thread_info.h */
#define TIF_NEED_RESCHED 3

extern struct rq runqueues __ksym;

/*
 * Wakeup time of targets, 0 once they ran; LRU so exits need no cleanup.
 * A task's entry is written in place after its first wakeup and zeroed at
 * its switch, not updated and deleted: an LRU update takes the map's locks
 * and a free element, a lookup neither.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 10240);
	__type(key, u32);
	__type(value, u64);
} wake_ts SEC(".maps");

/*
 * Indexed by runqueue CPU (the wakeup may be traced on another CPU): 1 when
 * a wakeup there left the running target to be rescheduled, until its
 * next switch.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SCHEDBPF_MAX_CPUS);
	__type(key, u32);
	__type(value, u32);
} wakeup_resched SEC(".maps");

static __always_inline u32 log2_slot(u64 v)
{
	u32 slot = 0;

	while (v > 1 && slot < SCHEDBPF_LAT_SLOTS - 1) {
		v >>= 1;
		slot++;
	}
	return slot;
}

static __always_inline bool need_resched(struct task_struct *t)
{
	return t->thread_info.flags & (1UL << TIF_NEED_RESCHED);
}

/*
 * Note that CFS checks a wakeup that may preempt curr, on this CPU, until
 * the next sched_wakeup here (struct schedbpf_percpu's cpw_*).
 */
static __always_inline void note_wakeup_check(pcpu_t *pc,
					      struct task_struct *curr)
{
	struct schedbpf_percpu *v = pcpu(pc);

	if (v) {
		v->cpw_checked = 1;
		v->cpw_before = curr && need_resched(curr);
	}
}

/*
 * The note is taken in the cfs_check_preempt_wakeup hook: it runs inside
 * CFS's check, on the same CPU, with the running task in hand. A tool with
 * a program of its own there defines OBSERVE_CHECK_IN_HOOK and has that
 * program call this first; in any other tool observe_check (below) does
 * only this. The hook is called after the check's early returns but one
 * (the running task already to be rescheduled); only one of those returns
 * ever preempts: a running entity that is idle (SCHED_IDLE, or an idle
 * cgroup) is preempted by any wakeup of a non-idle one, before the hook.
 * Such a preemption of a target counts as one, not as one by a wakeup.
 * (An fentry program on check_preempt_wakeup() saw those too, but cost a
 * trampoline on every wakeup, about 20 ns more than the hook program, and
 * about 140 ms of the tool's start-up in the VM to patch it in.)
 */
static __always_inline void observe_wakeup_check(pcpu_t *pc,
						 struct task_struct *curr)
{
	if (cfg_common.observe != SCHEDBPF_OBSERVE_NONE)
		note_wakeup_check(pc, curr);
}

#ifndef OBSERVE_CHECK_IN_HOOK
/*
 * Decides nothing: CFS decides, as with no program. An observer (its name),
 * so not loaded under --observe=none.
 */
SEC("sched/cfs_check_preempt_wakeup")
int BPF_PROG(observe_check, struct task_struct *curr, struct task_struct *p)
{
	pcpu_t pc = PCPU_INIT;

	observe_wakeup_check(&pc, curr);
	return SCHED_DEFAULT;
}
#endif

/*
 * Did p's wakeup, checked by CFS just before on this CPU, leave a target
 * running on p's runqueue to be preempted?
 */
static __always_inline void note_wakeup_preemption(pcpu_t *pc,
						   struct task_struct *p)
{
	u32 cpu = p->thread_info.cpu, *flag;
	struct schedbpf_percpu *v = pcpu(pc);
	struct task_struct *curr;
	struct rq *rq;

	if (!v || !v->cpw_checked)
		return;
	v->cpw_checked = 0;
	if (v->cpw_before)
		return;
	rq = bpf_per_cpu_ptr(&runqueues, cpu);
	if (!rq)
		return;
	curr = rq->curr;
	if (!curr || curr == p || !need_resched(curr) || !curr->pid ||
	    !task_is_target(curr))
		return;
	flag = bpf_map_lookup_elem(&wakeup_resched, &cpu);
	if (flag)
		*flag = 1;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(observe_wakeup, struct task_struct *p)
{
	pcpu_t pc = PCPU_INIT;
	u64 now, *tsp;
	u32 pid;

	policy_note_wakeup(p);
	if (cfg_common.observe == SCHEDBPF_OBSERVE_NONE)
		return 0;
	note_wakeup_preemption(&pc, p);
	if (cfg_common.observe < SCHEDBPF_OBSERVE_FULL || !task_is_target(p))
		return 0;
	now = bpf_ktime_get_ns();
	pid = p->pid;
	tsp = bpf_map_lookup_elem(&wake_ts, &pid);
	if (tsp)
		*tsp = now;
	else
		bpf_map_update_elem(&wake_ts, &pid, &now, BPF_ANY);
	return 0;
}

/* uapi/linux/sched.h: the policies of the classes above CFS */
#define POLICY_FIFO 1
#define POLICY_RR 2
#define POLICY_DEADLINE 6

SEC("tp_btf/sched_switch")
int BPF_PROG(observe_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	u32 pid = next->pid, cpu, slot;
	struct schedbpf_percpu *v;
	pcpu_t pc = PCPU_INIT;
	u32 *woke;
	u64 *tsp;

	policy_note_switch(next);
	if (cfg_common.observe == SCHEDBPF_OBSERVE_NONE)
		return 0;
	cpu = bpf_get_smp_processor_id();
	woke = bpf_map_lookup_elem(&wakeup_resched, &cpu);
	if ((preempt || prev_state == TASK_RUNNING) && prev->pid &&
	    task_is_target(prev)) {
		stat_inc(&pc, STAT_PREEMPTIONS);
		if (next->policy == POLICY_FIFO || next->policy == POLICY_RR ||
		    next->policy == POLICY_DEADLINE)
			stat_inc(&pc, STAT_PREEMPTIONS_RT);
		else if (woke && *woke)
			stat_inc(&pc, STAT_PREEMPTIONS_WAKEUP);
	}
	if (woke && *woke)
		*woke = 0;

	if (cfg_common.observe < SCHEDBPF_OBSERVE_FULL || !pid ||
	    !task_is_target(next))
		return 0;
	tsp = bpf_map_lookup_elem(&wake_ts, &pid);
	if (!tsp || !*tsp)
		return 0;
	slot = log2_slot((bpf_ktime_get_ns() - *tsp) / 1000);
	*tsp = 0;
	v = pcpu(&pc);
	if (v)
		v->lat[slot]++;
	stat_inc(&pc, STAT_WAKEUPS);
	return 0;
}

#endif /* SCHEDBPF_OBSERVE_BPF_H */
