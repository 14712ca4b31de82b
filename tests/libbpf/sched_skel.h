/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by sched_skel.bpf.c and its loader sched_skel.c. */
#ifndef SCHED_SKEL_H
#define SCHED_SKEL_H

/* index into the BPF object's calls[] counters */
enum hook {
	HOOK_TICK, /* bpf_sched_cfs_check_preempt_tick */
	HOOK_WAKEUP, /* bpf_sched_cfs_check_preempt_wakeup */
	HOOK_ENTITY, /* bpf_sched_cfs_wakeup_preempt_entity */
	NR_HOOKS
};

#endif /* SCHED_SKEL_H */
