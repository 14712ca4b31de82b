/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Included first by every tool's .bpf.c: kernel types, libbpf's helpers, the
 * scheduler kfuncs, the configuration every tool shares and its counters.
 */
#ifndef SCHEDBPF_COMMON_BPF_H
#define SCHEDBPF_COMMON_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "schedbpf.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * Kfuncs of the scheduler BPF series, callable from BPF_PROG_TYPE_SCHED
 * programs only (the tracing observers cannot use them).
 * to_tgidpid: tgid << 32 | pid for a task entity, (u64)-1 for a group.
 * belongs_to_cgrp: 1 if the entity's cgroup (for a task, its cgroup2 cgroup)
 * is cgrpid or one of its descendants, else 0.
 */
extern u64 bpf_sched_entity_to_tgidpid(struct sched_entity *se) __ksym;
extern u64 bpf_sched_entity_to_cgrpid(struct sched_entity *se) __ksym;
extern long bpf_sched_entity_belongs_to_cgrp(struct sched_entity *se,
					     u64 cgrpid) __ksym;

/* Return values of the hooks. */
#define SCHED_SUPPRESS -1
#define SCHED_DEFAULT 0
#define SCHED_FORCE 1

const volatile struct schedbpf_cfg cfg_common = {};

/*
 * The counters: entry c for the programs that run on CPU c, as a per-CPU
 * map would keep them, all of them with interrupts off (under a
 * runqueue's lock). A global array, where a per-CPU map's lookup is a
 * helper call before 6.8 and may fail: the address is the CPU's number
 * times the entry's size, never NULL, so the verifier no longer checks the
 * rest of a program once with the counters and once without. A CPU past
 * SCHEDBPF_MAX_CPUS shares an entry (the tools sum them all).
 */
struct schedbpf_percpu counters[SCHEDBPF_MAX_CPUS];

_Static_assert((SCHEDBPF_MAX_CPUS & (SCHEDBPF_MAX_CPUS - 1)) == 0,
	       "counters[] is indexed by the CPU's number, masked");

/*
 * A program's handle on this CPU's struct schedbpf_percpu: each program
 * declares one, PCPU_INIT, and hands its address to whatever counts. It is
 * taken on the first use, so a program that counts nothing (a call about
 * a non-target under --observe=none) does not ask for the CPU's number,
 * a helper call before 6.10.
 */
typedef struct schedbpf_percpu *pcpu_t;
#define PCPU_INIT NULL

static __always_inline struct schedbpf_percpu *pcpu(pcpu_t *pc)
{
	if (!*pc)
		*pc = &counters[bpf_get_smp_processor_id() &
				(SCHEDBPF_MAX_CPUS - 1)];
	return *pc;
}

static __always_inline void stat_inc(pcpu_t *pc, enum schedbpf_stat idx)
{
	pcpu(pc)->stats[idx]++;
}

/*
 * For the counters of what the hooks saw, calls and calls about targets:
 * they are observation, kept at --observe counts and full only. (cfg_common
 * is read-only data: the verifier drops the branch it never takes.)
 */
static __always_inline void stat_seen(pcpu_t *pc, enum schedbpf_stat idx)
{
	if (cfg_common.observe != SCHEDBPF_OBSERVE_NONE)
		stat_inc(pc, idx);
}

/*
 * What a hook returns once it has decided: under --dry-run the decision is
 * only counted, so the A side of an A/B run pays the same overhead.
 */
static __always_inline int verdict(int ret)
{
	return cfg_common.dry_run ? SCHED_DEFAULT : ret;
}

/* Time an entity has run since it was last picked: its current slice. */
static __always_inline u64 se_ran_ns(struct sched_entity *se)
{
	return se->sum_exec_runtime - se->prev_sum_exec_runtime;
}

#endif /* SCHEDBPF_COMMON_BPF_H */
