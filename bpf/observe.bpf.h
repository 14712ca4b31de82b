/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Observers of what a policy changed, at the level --observe chose
 * (cfg_common.observe; the library does not load them for none). One
 * tp_btf program on every context switch, which loads on any BTF kernel,
 * and notes taken in the hooks:
 * - counts: involuntary context switches of targets, counted the way the
 *   kernel counts nonvoluntary_ctxt_switches in /proc/PID/status (the task
 *   was preempted, or was still runnable when it switched out), and which
 *   of them a task of a higher class caused, and which a wakeup. For the
 *   last, the tool's cfs_check_preempt_wakeup program notes the runqueue's
 *   clock when CFS checks a wakeup while a task that is or may be a target
 *   runs, not yet to be rescheduled (note_wakeup_check();
 *   OBSERVE_CHECK_IN_HOOK, below; in a tool without a wakeup policy a hook
 *   program of the observers' own that decides nothing), and its tick
 *   program marks that note where the running task is still not to be
 *   rescheduled: the check let it run on (observe_tick()). The switch counts
 *   a wakeup's preemption where a note stands unmarked, or where the
 *   runqueue's clock still reads the note: a check that has the running
 *   task rescheduled also has the kernel skip the clock's next update, the
 *   one at the switch (rq_clock_skip_update(), in 6.1's
 *   check_preempt_curr() and 6.12's wakeup_preempt()), and a tick, or
 *   anything else that ends the run, moves it first. (The resched flag
 *   alone is not enough: a tick that ended the target's slice in the same
 *   interrupt as a timer's wakeup would count as the wakeup's. The clock
 *   alone is not enough either: where a tick or a second wakeup on the
 *   runqueue falls between the check and the switch, in the same
 *   interrupt, it moves the clock; in the VM that was one wakeup
 *   preemption in nine. A resched the CFS hooks are not asked about, rare
 *   for a target, counts as a wakeup's if an unmarked note stands: a
 *   change of its nice value or policy, CFS bandwidth throttling, or its
 *   own sched_yield() right after a wakeup check let it run on.)
 * - full: also the targets' wakeup-to-run latency, in a log2 histogram of
 *   microseconds (layout in schedbpf.h), as the kernel's delay accounting
 *   (CONFIG_SCHED_INFO) measures the wait: at the switch that runs a
 *   target, the runqueue's clock less the task's sched_info.last_queued,
 *   which enqueue_task() set when it woke (or when it moved to this
 *   runqueue while it waited), and which sched_info_arrive() clears just
 *   after the tracepoint. A target that was still runnable when it switched
 *   out waits again, for the CPU and not after a wakeup: the switch marks
 *   it (the preempted map), and its next run is not counted. Nor is a new
 *   task's first run (sched_info.pcount 0), which is no wakeup. The
 *   kernel does not advance that clock between a wakeup that preempts and
 *   its switch (rq_clock_skip_update()): such a wakeup reads 0-1 us, as
 *   it does in /proc/PID/schedstat.
 * No observer on sched_wakeup: one there could take the wakeup time and
 * see whether the check had set the resched flag, but at two program calls
 * more per wakeup and switch pair, about 2% of pipe's time on 6.1.
 * Nor on sched_wakeup_new: in three VM runs, detaching a program from it
 * left text_poke_bp() waiting forever for the other CPU (a soft lockup,
 * under qemu TCG).
 *
 * The switch observer runs on every context switch of every task, so a
 * non-target costs at most two task_is_target() (a few loads) and no map
 * helper: the note of a wakeup check is kept per runqueue in a global
 * array, taken only where the running task is or may be a target. Earlier
 * versions attached fentry and fexit to check_preempt_wakeup() and fentry
 * to resched_curr(): an fexit trampoline and two more programs on every
 * wakeup, where one hook program does.
 */
#ifndef SCHEDBPF_OBSERVE_BPF_H
#define SCHEDBPF_OBSERVE_BPF_H

#include "target.bpf.h"

#define TASK_RUNNING 0
/* arch/x86/include/asm/thread_info.h */
#define TIF_NEED_RESCHED 3

extern struct rq runqueues __ksym;

/*
 * The targets that were still runnable when they switched out (the value
 * is unused), until their next switch in, which is then no wakeup's; LRU,
 * so exits need no cleanup. Only full writes it: below full the library
 * sizes it to one entry.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 10240);
	__type(key, u32);
	__type(value, u8);
} preempted SEC(".maps");

/*
 * Per runqueue, indexed by its CPU (the wakeup hook may run on another
 * CPU, for a remote wakeup; under the runqueue's lock): CFS checked a
 * wakeup here while the running task, not yet to be rescheduled, was or
 * may have been a target (the hook did not test it; the switch does, if
 * it switches out still runnable). Set by the wakeup hook
 * (note_wakeup_check()), marked by the tick hook (observe_tick()), read and
 * cleared at the runqueue's next switch. A global array, as the counters
 * are: no lookup, and the tick programs find the entry with the CPU's
 * number they take for the counters anyway.
 */
struct wakeup_note {
	/* the runqueue's clock at the check, 0 for none */
	u64 clock;
	/* a tick since found the running task still not to be rescheduled */
	u64 let_run;
};

static struct wakeup_note wakeup_notes[SCHEDBPF_MAX_CPUS];

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
 * OBSERVE_CHECK_IN_HOOK and has that program call note_wakeup_check()
 * where it found the running task a target or did not test it (not where
 * it found a non-target); in any other tool observe_check (below) does
 * only that. The hook is called after the check's early returns but
 * one (the running task already to be rescheduled); only one of those
 * returns ever preempts: a running entity that is idle (SCHED_IDLE, or an
 * idle cgroup) is preempted by any wakeup of a non-idle one, before the
 * hook. Such a preemption of a target counts as one, not as one by a
 * wakeup. (An fentry program on check_preempt_wakeup() saw those too, but
 * cost a trampoline on every wakeup, about 20 ns more than the hook
 * program, and about 140 ms of the tool's start-up in the VM to patch it
 * in.)
 *
 * The note says that CFS checks p's wakeup on p's runqueue, where curr
 * runs and may be preempted, unless curr is already to be rescheduled (CFS
 * then decides nothing).
 */
static __always_inline void note_wakeup_check(struct task_struct *curr,
					      struct task_struct *p)
{
	struct wakeup_note *n;
	struct rq *rq;
	u32 cpu;

	if (cfg_common.observe == SCHEDBPF_OBSERVE_NONE || need_resched(curr))
		return;
	cpu = p->thread_info.cpu;
	/* p's runqueue, where it was just enqueued */
	rq = se_rq(&p->se);
	if (!rq)
		rq = bpf_per_cpu_ptr(&runqueues, cpu);
	if (!rq)
		return;
	n = &wakeup_notes[cpu & (SCHEDBPF_MAX_CPUS - 1)];
	n->clock = rq->clock;
	n->let_run = 0;
}

/*
 * The observer programs, this one and observe_switch below. Each tool's
 * object is built twice (Makefile): with them, and with
 * SCHEDBPF_NO_OBSERVERS for --observe=none, whose skeleton loads neither.
 */
#ifndef SCHEDBPF_NO_OBSERVERS
#ifndef OBSERVE_CHECK_IN_HOOK
/* Decides nothing: CFS decides, as with no program. */
SEC("sched/cfs_check_preempt_wakeup")
int BPF_PROG(observe_check, struct task_struct *curr, struct task_struct *p)
{
	note_wakeup_check(curr, p);
	return SCHED_DEFAULT;
}
#endif
#endif /* !SCHEDBPF_NO_OBSERVERS */

/*
 * The observers' part of every tool's cfs_check_preempt_tick program, which
 * takes its counters' handle from this first: at counts and full it counts
 * the call, and where a wakeup check's note stands on this CPU's runqueue
 * and the running task is still not to be rescheduled, the check let it
 * run on, and whatever ends the run from here on (this tick, a later one)
 * is not that wakeup's doing: the note is marked. The hook runs before the
 * tick's own decision. On 6.12 it also runs where EEVDF ends a slice,
 * possibly for a remote wakeup's enqueue (another CPU's runqueue), and
 * inside the noted check itself, after the wakeup hook: this CPU's note
 * and running task still go together (the running task is the one the
 * note is about until the switch clears it), and the in-check case is
 * counted at the switch by the clock. A note is rare where no target
 * runs: then one load more than the count. Under --observe=none, nothing
 * (no helper call): the handle is taken where something is counted.
 */
static __always_inline pcpu_t observe_tick(void)
{
	struct wakeup_note *n;
	u32 cpu;

	if (cfg_common.observe == SCHEDBPF_OBSERVE_NONE)
		return PCPU_INIT;
	cpu = bpf_get_smp_processor_id() & (SCHEDBPF_MAX_CPUS - 1);
	n = &wakeup_notes[cpu];
	if (n->clock && !n->let_run &&
	    !need_resched(bpf_get_current_task_btf()))
		n->let_run = 1;
	counters[cpu].stats[STAT_TICK_CALLS]++;
	return &counters[cpu];
}

/* this CPU's runqueue's clock, 0 if the runqueue is not found */
static __always_inline u64 this_rq_clock(void)
{
	struct rq *rq = bpf_this_cpu_ptr(&runqueues);

	return rq ? rq->clock : 0;
}

/* uapi/linux/sched.h: the policies of the classes above CFS */
#define POLICY_FIFO 1
#define POLICY_RR 2
#define POLICY_DEADLINE 6

/*
 * counts: prev, a target, switched out preempted or still runnable, for
 * next; n: the wakeup check's note, read before the switch cleared it. The
 * check's wakeup preempted prev if no tick marked the note since, or if
 * this runqueue's clock has not moved since. At full, one still runnable
 * waits on the runqueue again (sched_info_depart() re-enqueues it), for
 * the CPU and not after a wakeup: marked, so that note_run() does not
 * count that wait.
 */
static __always_inline void note_preempted(struct task_struct *prev,
					   struct task_struct *next,
					   unsigned int prev_state,
					   struct wakeup_note n)
{
	pcpu_t pc = PCPU_INIT;
	u32 pid = prev->pid;
	u8 one = 1;

	/* not the idle task, switching out runnable whenever it does */
	if (!pid || !task_is_target(prev))
		return;
	stat_inc(&pc, STAT_PREEMPTIONS);
	if (next->policy == POLICY_FIFO || next->policy == POLICY_RR ||
	    next->policy == POLICY_DEADLINE)
		stat_inc(&pc, STAT_PREEMPTIONS_RT);
	else if (n.clock && (!n.let_run || n.clock == this_rq_clock()))
		stat_inc(&pc, STAT_PREEMPTIONS_WAKEUP);
	if (cfg_common.observe == SCHEDBPF_OBSERVE_FULL &&
	    prev_state == TASK_RUNNING)
		bpf_map_update_elem(&preempted, &pid, &one, BPF_ANY);
}

/*
 * full: next, a target, is about to run; how long it waited since its
 * wakeup, as the delay accounting will count it just after this: this
 * runqueue's clock, which __schedule() has updated, less the time it was
 * enqueued. Not a wait after a preemption (marked by note_preempted(),
 * and always enqueued: last_queued is set), nor a new task's first run,
 * nor where nothing was enqueued (the idle task).
 */
static __always_inline void note_run(struct task_struct *next)
{
	pcpu_t pc = PCPU_INIT;
	struct schedbpf_percpu *v;
	u64 queued, now;
	u32 pid;

	if (!bpf_core_field_exists(next->sched_info))
		return;
	queued = next->sched_info.last_queued;
	if (!queued)
		return;
	pid = next->pid;
	if (bpf_map_lookup_elem(&preempted, &pid)) {
		bpf_map_delete_elem(&preempted, &pid);
		return;
	}
	if (!next->sched_info.pcount)
		return;
	now = this_rq_clock();
	if (now < queued)
		return;
	v = pcpu(&pc);
	v->lat[log2_slot((now - queued) / 1000)]++;
	stat_inc(&pc, STAT_WAKEUPS);
}

/*
 * On every switch of every task: for a non-target, the note's read and
 * clear (no helper call), at full one task_is_target(), and loads of the
 * arguments.
 *
 * next's part first, then prev's, each with a pcpu handle of its own:
 * nothing of the first is live in the second, so the verifier checks the
 * second once, not once for each way the first went. (With one handle,
 * looked up or not, and prev's part first, it checked next's part twice;
 * a policy's note of next, as boost-wakeup's was, made that four times.
 * On 6.12, whose verifier searches vmlinux's BTF at loads through a
 * task's pointers, that was 53 ms of every tool's start-up: the program
 * verified in 139 ms instead of 86.) A switch between two targets looks
 * the handle up twice.
 */
#ifndef SCHEDBPF_NO_OBSERVERS
SEC("tp_btf/sched_switch")
int BPF_PROG(observe_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	struct wakeup_note *n, note;
	u32 cpu;

	if (cfg_common.observe == SCHEDBPF_OBSERVE_FULL && task_is_target(next))
		note_run(next);
	/* prev's CPU is this one: a load, where the helper is a call on 6.1 */
	cpu = prev->thread_info.cpu;
	/*
	 * The note is about the task that ran until now. Read and cleared
	 * without a branch on it: the verifier then checks prev's part once,
	 * not once with a note and once without (on 6.12 each check of its
	 * load through prev costs name searches of the kernel's BTF).
	 */
	n = &wakeup_notes[cpu & (SCHEDBPF_MAX_CPUS - 1)];
	note = *n;
	n->clock = 0;
	if (preempt || prev_state == TASK_RUNNING)
		note_preempted(prev, next, prev_state, note);
	return 0;
}
#endif /* !SCHEDBPF_NO_OBSERVERS */

#endif /* SCHEDBPF_OBSERVE_BPF_H */
