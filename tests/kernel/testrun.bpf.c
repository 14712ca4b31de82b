// SPDX-License-Identifier: GPL-2.0-only
/*
 * One program per hook for testrun (tests/kernel/17-test-run.t), each
 * answering from both of its arguments, so that what BPF_PROG_TEST_RUN
 * passes shows in what it returns: 1 when the other task (or entity) is of
 * the process want_tgid, -1 when the running one is, else 0; the tick
 * program returns -1 when delta_exec is at least 1000, else 1 when the
 * running entity is want_tgid's, else 0.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

extern u64 bpf_sched_entity_to_tgidpid(struct sched_entity *se) __ksym;

const volatile __u32 want_tgid;

static __always_inline bool is_want(struct sched_entity *se)
{
	u64 id = bpf_sched_entity_to_tgidpid(se);

	return id != (u64)-1 && id >> 32 == want_tgid;
}

SEC("sched/cfs_check_preempt_tick")
int BPF_PROG(tr_tick, struct sched_entity *curr, unsigned long delta_exec)
{
	if (delta_exec >= 1000)
		return -1;
	return is_want(curr) ? 1 : 0;
}

SEC("sched/cfs_check_preempt_wakeup")
int BPF_PROG(tr_wakeup, struct task_struct *curr, struct task_struct *p)
{
	if (p->tgid == want_tgid)
		return 1;
	return curr->tgid == want_tgid ? -1 : 0;
}

SEC("sched/cfs_wakeup_preempt_entity")
int BPF_PROG(tr_entity, struct sched_entity *curr, struct sched_entity *se)
{
	if (is_want(se))
		return 1;
	return is_want(curr) ? -1 : 0;
}
