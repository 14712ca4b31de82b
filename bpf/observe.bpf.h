/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Observers of what a policy changed, as ordinary tp_btf programs that load
 * on any BTF kernel:
 * - involuntary context switches of targets, counted the way the kernel
 *   counts nonvoluntary_ctxt_switches in /proc/PID/status: the task was
 *   preempted, or was still runnable when it switched out;
 * - the targets' wakeup-to-run latency, from sched_wakeup to the
 *   sched_switch that runs them, in a log2 histogram of microseconds (layout
 *   in schedbpf.h). Not sched_wakeup_new: in three VM runs, detaching a
 *   program from it left text_poke_bp() waiting forever for the other CPU
 *   (a soft lockup, under qemu TCG); a new task's first run is not a wakeup
 *   a preemption policy is about anyway;
 * - which of those involuntary switches a wakeup caused: fentry and fexit on
 *   CFS's check_preempt_wakeup() see whether it set need_resched on the
 *   running task. It is only ever called through fair_sched_class's
 *   function pointer, so no call of it is inlined away from the trampoline.
 */
#ifndef SCHEDBPF_OBSERVE_BPF_H
#define SCHEDBPF_OBSERVE_BPF_H

#include "target.bpf.h"

#define TASK_RUNNING 0
/* arch/x86/include/asm/thread_info.h */
#define TIF_NEED_RESCHED 3

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

static __always_inline void record_wakeup(struct task_struct *p)
{
	u64 now;
	u32 pid;

	if (!task_is_target(p))
		return;
	now = bpf_ktime_get_ns();
	pid = p->pid;
	bpf_map_update_elem(&wake_ts, &pid, &now, BPF_ANY);
}

static __always_inline u32 log2_slot(u64 v)
{
	u32 slot = 0;

	while (v > 1 && slot < SCHEDBPF_LAT_SLOTS - 1) {
		v >>= 1;
		slot++;
	}
	return slot;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(observe_wakeup, struct task_struct *p)
{
	record_wakeup(p);
	return 0;
}

/*
 * Indexed by runqueue CPU (the waker may run on another CPU): 1 when a
 * wakeup has rescheduled the target running there, until its next switch.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SCHEDBPF_MAX_CPUS);
	__type(key, u32);
	__type(value, u32);
} wakeup_resched SEC(".maps");

/* need_resched of the running task when check_preempt_wakeup() began */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u32);
} resched_before SEC(".maps");

static __always_inline u32 need_resched(struct task_struct *t)
{
	return (t->thread_info.flags >> TIF_NEED_RESCHED) & 1;
}

SEC("fentry/check_preempt_wakeup")
int BPF_PROG(observe_preempt_enter, struct rq *rq)
{
	u32 zero = 0, *before = bpf_map_lookup_elem(&resched_before, &zero);

	if (before)
		*before = need_resched(rq->curr);
	return 0;
}

SEC("fexit/check_preempt_wakeup")
int BPF_PROG(observe_preempt_exit, struct rq *rq)
{
	u32 zero = 0, cpu = rq->cpu, *before, *flag;
	struct task_struct *curr = rq->curr;

	before = bpf_map_lookup_elem(&resched_before, &zero);
	if (!before || *before || !need_resched(curr) || !task_is_target(curr))
		return 0;
	flag = bpf_map_lookup_elem(&wakeup_resched, &cpu);
	if (flag)
		*flag = 1;
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
	if (woke)
		*woke = 0;

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
