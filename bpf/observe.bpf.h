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
 *   a preemption policy is about anyway.
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

/* uapi/linux/sched.h: the policies of the classes above CFS */
#define POLICY_FIFO 1
#define POLICY_RR 2
#define POLICY_DEADLINE 6

SEC("tp_btf/sched_switch")
int BPF_PROG(observe_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	u32 pid = next->pid, slot;
	u64 *tsp, *cnt;

	if ((preempt || prev_state == TASK_RUNNING) && prev->pid &&
	    task_is_target(prev)) {
		stat_inc(STAT_PREEMPTIONS);
		if (next->policy == POLICY_FIFO || next->policy == POLICY_RR ||
		    next->policy == POLICY_DEADLINE)
			stat_inc(STAT_PREEMPTIONS_RT);
	}

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
