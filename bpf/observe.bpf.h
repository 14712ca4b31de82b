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
 *   observers' own that decides nothing, notes that CFS checks a wakeup
 *   while a task that is or may be a target runs without TIF_NEED_RESCHED
 *   yet (note_wakeup_check(), below), and at
 *   sched_wakeup, which 6.1 and 6.12 trace right after check_preempt_curr()
 *   (wakeup_preempt() on 6.12) on the same runqueue under its lock, the
 *   flag set since then is that wakeup's doing. (The flag alone at
 *   sched_wakeup is not enough: a tick that ended the target's slice in
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
 * non-target costs at most one task_is_target() (a few loads) and no map
 * helper: the note of a wakeup check is kept per runqueue in an array
 * map, whose lookups the verifier inlines, and only where the running
 * task is or may be a target. Earlier versions attached fentry and fexit to
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
 * Per runqueue, indexed by its CPU (the hook and the tracepoint may run on
 * another CPU, for a remote wakeup; both under the runqueue's lock): what
 * the observers know of the running target there. Both fields are cleared
 * at the runqueue's next switch.
 */
struct wakeup_note {
	union {
		struct {
			/*
			 * CFS checks a wakeup here, and the running task,
			 * not yet to be rescheduled, is a target
			 * (NOTE_TARGET) or may be one (NOTE_MAYBE: the hook
			 * did not test it); set by the hook, read at the
			 * next sched_wakeup here
			 */
			u32 checked;
			/*
			 * that wakeup left the running target to be
			 * rescheduled; until the next switch here
			 */
			u32 resched;
		};
		/* both, for one load at the switch */
		u64 any;
	};
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SCHEDBPF_MAX_CPUS);
	__type(key, u32);
	__type(value, struct wakeup_note);
} wakeup_note SEC(".maps");

#define NOTE_TARGET 1
#define NOTE_MAYBE 2

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
 * The note of a wakeup check is taken in the cfs_check_preempt_wakeup
 * hook: it runs inside CFS's check, under the runqueue's lock, with the
 * running task in hand. A tool with a program of its own there defines
 * OBSERVE_CHECK_IN_HOOK and has that program call note_wakeup_check():
 * with NOTE_TARGET once it has found the running task a target, with
 * NOTE_MAYBE where it did not test it (nothing where it found a
 * non-target); in any other tool observe_check (below) does only that,
 * NOTE_MAYBE, and the tracepoint tests the running task only if the
 * wakeup left it to be rescheduled. The hook is called
 * after the check's early returns but one (the running task already to be
 * rescheduled); only one of those returns ever preempts: a running entity
 * that is idle (SCHED_IDLE, or an idle cgroup) is preempted by any wakeup
 * of a non-idle one, before the hook. Such a preemption of a target counts
 * as one, not as one by a wakeup. (An fentry program on
 * check_preempt_wakeup() saw those too, but cost a trampoline on every
 * wakeup, about 20 ns more than the hook program, and about 140 ms of the
 * tool's start-up in the VM to patch it in.)
 *
 * The note says that CFS checks p's wakeup on p's runqueue, where curr
 * runs and may be preempted, unless curr is already to be rescheduled (CFS
 * then decides nothing); what is known of curr: NOTE_TARGET or NOTE_MAYBE.
 */
static __always_inline void note_wakeup_check(struct task_struct *curr,
					      struct task_struct *p, u32 what)
{
	struct wakeup_note *n;
	u32 cpu;

	if (cfg_common.observe == SCHEDBPF_OBSERVE_NONE || need_resched(curr))
		return;
	cpu = p->thread_info.cpu;
	n = bpf_map_lookup_elem(&wakeup_note, &cpu);
	if (n)
		n->checked = what;
}

#ifndef OBSERVE_CHECK_IN_HOOK
/*
 * Decides nothing: CFS decides, as with no program. An observer (its name),
 * so not loaded under --observe=none.
 */
SEC("sched/cfs_check_preempt_wakeup")
int BPF_PROG(observe_check, struct task_struct *curr, struct task_struct *p)
{
	note_wakeup_check(curr, p, NOTE_MAYBE);
	return SCHED_DEFAULT;
}
#endif

/*
 * Did p's wakeup, checked by CFS just before on p's runqueue, leave the
 * target running there to be preempted?
 */
static __always_inline void note_wakeup_preemption(struct task_struct *p)
{
	u32 cpu = p->thread_info.cpu, what;
	struct task_struct *curr;
	struct wakeup_note *n;
	struct rq *rq;

	n = bpf_map_lookup_elem(&wakeup_note, &cpu);
	if (!n || !n->checked)
		return;
	what = n->checked;
	n->checked = 0;
	/* still under the lock the hook ran under: the same running task */
	rq = bpf_per_cpu_ptr(&runqueues, cpu);
	if (!rq)
		return;
	curr = rq->curr;
	if (!curr || curr == p || !need_resched(curr))
		return;
	if (what == NOTE_TARGET || (curr->pid && task_is_target(curr)))
		n->resched = 1;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(observe_wakeup, struct task_struct *p)
{
	u64 now, *tsp;
	u32 pid;

	policy_note_wakeup(p);
	if (cfg_common.observe == SCHEDBPF_OBSERVE_NONE)
		return 0;
	note_wakeup_preemption(p);
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
	struct wakeup_note *n;
	u64 *tsp;

	policy_note_switch(next);
	if (cfg_common.observe == SCHEDBPF_OBSERVE_NONE)
		return 0;
	cpu = bpf_get_smp_processor_id();
	n = bpf_map_lookup_elem(&wakeup_note, &cpu);
	if ((preempt || prev_state == TASK_RUNNING) && prev->pid &&
	    task_is_target(prev)) {
		stat_inc(&pc, STAT_PREEMPTIONS);
		if (next->policy == POLICY_FIFO || next->policy == POLICY_RR ||
		    next->policy == POLICY_DEADLINE)
			stat_inc(&pc, STAT_PREEMPTIONS_RT);
		else if (n && n->resched)
			stat_inc(&pc, STAT_PREEMPTIONS_WAKEUP);
	}
	/* the note is about the task that ran until now */
	if (n && n->any)
		n->any = 0;

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
