// SPDX-License-Identifier: GPL-2.0-only
/*
 * allsuppress - the program of issue 9's third hole: suppress preemption on
 * every hook for every task, with no bound of its own. make stress
 * (tests/stress/run, item f) attaches it with tests/stress/cycle --hold
 * while a hog holds one CPU, and times a short task pinned to that CPU:
 * only the kernel's bound (kernel.sched_bpf_max_suppress_ms) lets it run.
 * Returns -1 (suppress) from cfs_check_preempt_tick, cfs_check_preempt_wakeup
 * and cfs_wakeup_preempt_entity; counts its calls.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

__u64 calls_tick, calls_wakeup, calls_entity;

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(suppress_tick, struct sched_entity *curr, unsigned long delta_exec)
{
	__sync_fetch_and_add(&calls_tick, 1);
	return -1;
}

SEC("sched/cfs_check_preempt_wakeup")
int BPF_PROG(suppress_wakeup, struct task_struct *curr, struct task_struct *p)
{
	__sync_fetch_and_add(&calls_wakeup, 1);
	return -1;
}

SEC("sched/cfs_wakeup_preempt_entity")
int BPF_PROG(suppress_entity, struct sched_entity *curr, struct sched_entity *se)
{
	__sync_fetch_and_add(&calls_entity, 1);
	return -1;
}

char _license[] SEC("license") = "GPL";
