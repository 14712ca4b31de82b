// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test object for the patched libbpf (libbpf-patches/): one program on
 * each scheduler hook, declared by section name only. With the patches,
 * libbpf derives program type, attach type and attach target from
 * SEC("sched/<hook>") and the skeleton's __attach() links all three; the
 * loader (sched_skel.c) registers nothing at run time.
 *
 * Policy: none. Every program returns 0, which for all three hooks means
 * "let the scheduler decide" (CFS on 6.1, EEVDF on 6.12), so attaching
 * them changes no scheduling decision.
 * They only count their calls, so the test can tell that each hook runs.
 *
 * Built without vmlinux.h on purpose: the programs read no argument, so
 * the hook's types need only be declared, and the test builds on a host
 * whose kernel has no scheduler hooks.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "sched_skel.h"

struct sched_entity;
struct task_struct;

__u64 calls[NR_HOOKS];

static __always_inline void count(enum hook hook)
{
	__sync_fetch_and_add(&calls[hook], 1);
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(tick, struct sched_entity *curr, unsigned long delta_exec)
{
	count(HOOK_TICK);
	return 0;
}

SEC("sched/cfs_check_preempt_wakeup")
int BPF_PROG(wakeup, struct task_struct *curr, struct task_struct *p)
{
	count(HOOK_WAKEUP);
	return 0;
}

SEC("sched/cfs_wakeup_preempt_entity")
int BPF_PROG(entity, struct sched_entity *curr, struct sched_entity *se)
{
	count(HOOK_ENTITY);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
