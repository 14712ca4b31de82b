// SPDX-License-Identifier: GPL-2.0-only
/*
 * noop - the three sched hooks, returning 0 (CFS decides) and counting:
 * in the text_poke investigation (kernel/README.md, "Debug flavour and
 * stress"), the sched links alone, whose release flips the series' static
 * key, without schedtest's fentry/fexit on scheduler functions; and make
 * stress's item g, where release-fail loads it twice for two tick programs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

__u64 calls;

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(noop_tick, struct sched_entity *curr, unsigned long delta_exec)
{
	__sync_fetch_and_add(&calls, 1);
	return 0;
}

SEC("sched/cfs_check_preempt_wakeup")
int BPF_PROG(noop_wakeup, struct task_struct *curr, struct task_struct *p)
{
	__sync_fetch_and_add(&calls, 1);
	return 0;
}

SEC("sched/cfs_wakeup_preempt_entity")
int BPF_PROG(noop_entity, struct sched_entity *curr, struct sched_entity *se)
{
	__sync_fetch_and_add(&calls, 1);
	return 0;
}

char _license[] SEC("license") = "GPL";
