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
 *   CFS's check_preempt_wakeup() and fentry on resched_curr() see whether
 *   the wakeup check rescheduled the running task. check_preempt_wakeup()
 *   is only ever called through fair_sched_class's function pointer, and
 *   resched_curr() from fair.c is a call into core.c, so neither is
 *   inlined away from its trampoline.
 */
#ifndef SCHEDBPF_OBSERVE_BPF_H
#define SCHEDBPF_OBSERVE_BPF_H

#include "target.bpf.h"

#define TASK_RUNNING 0

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

/* this CPU's check_preempt_wakeup() in progress, and whether it rescheduled */
struct cpw_state {
	u32 in_check;
	u32 resched;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct cpw_state);
} cpw SEC(".maps");

SEC("fentry/check_preempt_wakeup")
int BPF_PROG(observe_cpw_enter, struct rq *rq)
{
	u32 zero = 0;
	struct cpw_state *st = bpf_map_lookup_elem(&cpw, &zero);

	if (st) {
		st->in_check = 1;
		st->resched = 0;
	}
	return 0;
}

/* CFS's way to preempt: TIF_NEED_RESCHED is also set by others (RCU) */
SEC("fentry/resched_curr")
int BPF_PROG(observe_resched, struct rq *rq)
{
	u32 zero = 0;
	struct cpw_state *st = bpf_map_lookup_elem(&cpw, &zero);

	if (st && st->in_check)
		st->resched = 1;
	return 0;
}

SEC("fexit/check_preempt_wakeup")
int BPF_PROG(observe_cpw_exit, struct rq *rq)
{
	u32 zero = 0, cpu = rq->cpu, *flag;
	struct cpw_state *st = bpf_map_lookup_elem(&cpw, &zero);

	if (!st)
		return 0;
	st->in_check = 0;
	if (!st->resched || !task_is_target(rq->curr))
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
