// SPDX-License-Identifier: GPL-2.0-only
/*
 * release - two tick programs for make stress's item g (tests/stress/
 * release-fail): "counter" counts its calls, "victim" decides nothing.
 * Attached counter first, victim second, the hook runs victim first (the
 * newest link runs first); the loader then releases victim's link while
 * the one allocation of that release fails. The hook must go on calling
 * counter: victim's slot then holds a placeholder that returns 0, where
 * one that returned non-zero would end the run there (and force every
 * tick's preemption).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

__u64 calls;

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(counter, struct sched_entity *curr, unsigned long delta_exec)
{
	__sync_fetch_and_add(&calls, 1);
	return 0;
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(victim, struct sched_entity *curr, unsigned long delta_exec)
{
	return 0;
}

char _license[] SEC("license") = "GPL";
