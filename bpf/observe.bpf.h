/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Observers of what a policy changed, as ordinary tp_btf programs that load
 * on any BTF kernel, at the level --observe chose (cfg_common.observe;
 * the library does not load them at all for none):
 * - counts: involuntary context switches of targets, counted the way the
 *   kernel counts nonvoluntary_ctxt_switches in /proc/PID/status (the task
 *   was preempted, or was still runnable when it switched out), and which
 *   of them a task of a higher class caused, and which a wakeup: an fentry
 *   program on CFS's check_preempt_wakeup() (check_preempt_wakeup_fair()
 *   from 6.7 on: the library points it at the running kernel's name, see
 *   sched_btf_func()) notes whether the running task already had
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
 * and two more programs on every wakeup, where one fentry does.
 */
#ifndef SCHEDBPF_OBSERVE_BPF_H
#define SCHEDBPF_OBSERVE_BPF_H

#include "target.bpf.h"

#define TASK_RUNNING 0
/* arch/x86/include/asm/thread_info.h */
#define TIF_NEED_RESCHED 3

extern struct rq runqueues __ksym;

/* wakeup time of targets not yet running; LRU so exits need no cleanup */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 10240);
	__type(key, u32);
	__type(value, u64);
} wake_ts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SCHEDBPF_LAT_SLOTS);
	__type(key, u32);
	__type(value, u64);
} lat_hist SEC(".maps");

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

/* this CPU's check_preempt_wakeup() since its last sched_wakeup */
struct cpw_state {
	/* it ran */
	u32 checked;
	/* and found TIF_NEED_RESCHED set already */
	u32 before;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct cpw_state);
} cpw SEC(".maps");

static __always_inline bool need_resched(struct task_struct *t)
{
	return t->thread_info.flags & (1UL << TIF_NEED_RESCHED);
}

/* 6.1's name: sched_tool_load() retargets it where the kernel renamed it */
SEC("fentry/check_preempt_wakeup")
int BPF_PROG(observe_cpw, struct rq *rq)
{
	u32 zero = 0;
	struct cpw_state *st = bpf_map_lookup_elem(&cpw, &zero);
	struct task_struct *curr = rq->curr;

	if (st) {
		st->checked = 1;
		st->before = curr && need_resched(curr);
	}
	return 0;
}

/*
 * Did p's wakeup, checked by CFS just before on this CPU, leave a target
 * running on p's runqueue to be preempted?
 */
static __always_inline void note_wakeup_preemption(struct task_struct *p)
{
	u32 cpu = p->thread_info.cpu, zero = 0, *flag;
	struct cpw_state *st = bpf_map_lookup_elem(&cpw, &zero);
	struct task_struct *curr;
	struct rq *rq;

	if (!st || !st->checked)
		return;
	st->checked = 0;
	if (st->before)
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
	u64 now;
	u32 pid;

	note_wakeup_preemption(p);
	if (cfg_common.observe < SCHEDBPF_OBSERVE_FULL || !task_is_target(p))
		return 0;
	now = bpf_ktime_get_ns();
	pid = p->pid;
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
	u32 pid = next->pid, cpu = bpf_get_smp_processor_id(), slot;
	u32 *woke = bpf_map_lookup_elem(&wakeup_resched, &cpu);
	u64 *tsp, *cnt;

	if ((preempt || prev_state == TASK_RUNNING) && prev->pid &&
	    task_is_target(prev)) {
		stat_inc(STAT_PREEMPTIONS);
		if (next->policy == POLICY_FIFO || next->policy == POLICY_RR ||
		    next->policy == POLICY_DEADLINE)
			stat_inc(STAT_PREEMPTIONS_RT);
		else if (woke && *woke)
			stat_inc(STAT_PREEMPTIONS_WAKEUP);
	}
	if (woke && *woke)
		*woke = 0;

	if (cfg_common.observe < SCHEDBPF_OBSERVE_FULL || !pid ||
	    !task_is_target(next))
		return 0;
	tsp = bpf_map_lookup_elem(&wake_ts, &pid);
	if (!tsp)
		return 0;
	slot = log2_slot((bpf_ktime_get_ns() - *tsp) / 1000);
	bpf_map_delete_elem(&wake_ts, &pid);
	cnt = bpf_map_lookup_elem(&lat_hist, &slot);
	if (cnt)
		(*cnt)++;
	stat_inc(STAT_WAKEUPS);
	return 0;
}

#endif /* SCHEDBPF_OBSERVE_BPF_H */
