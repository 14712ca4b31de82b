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

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct schedbpf_percpu);
} percpu SEC(".maps");

/*
 * A program's handle on this CPU's struct schedbpf_percpu: each program
 * declares one, PCPU_INIT, and hands its address to whatever counts. It is
 * looked up on the first use, so a program that counts nothing (a call
 * about a non-target under --observe=none) looks up no map, and one that
 * counts three things looks it up once.
 */
typedef struct schedbpf_percpu *pcpu_t;
#define PCPU_INIT NULL

static __always_inline struct schedbpf_percpu *pcpu(pcpu_t *pc)
{
	u32 zero = 0;

	if (!*pc)
		*pc = bpf_map_lookup_elem(&percpu, &zero);
	return *pc;
}

static __always_inline void stat_inc(pcpu_t *pc, enum schedbpf_stat idx)
{
	struct schedbpf_percpu *v = pcpu(pc);

	if (v)
		v->stats[idx]++;
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
