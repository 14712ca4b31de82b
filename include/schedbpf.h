/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the BPF programs and the tools share: the counter layout, the wakeup
 * latency histogram and the configuration common to every tool.
 *
 * Included by BPF code after vmlinux.h and by userspace after <linux/types.h>.
 */
#ifndef SCHEDBPF_H
#define SCHEDBPF_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* Most cgroups (-c) a tool accepts; the BPF side loops over them per event. */
#define SCHEDBPF_MAX_CGROUPS 8
/* Most processes (-p) a tool accepts. */
#define SCHEDBPF_MAX_PIDS 64
/* Processes of a wrapped command's tree tracked at once. */
#define SCHEDBPF_MAX_TREE 32768

/*
 * Wakeup-to-run latency histogram: slot 0 counts 0-1 us, slot i > 0 counts
 * [2^i, 2^(i+1)) us; the last slot also takes everything longer (~67 s).
 */
#define SCHEDBPF_LAT_SLOTS 27

/* CPUs the observers keep per-runqueue state for; more are not observed. */
#define SCHEDBPF_MAX_CPUS 1024

/*
 * Counters, struct schedbpf_percpu's stats[], summed by the tools: each
 * one's enum name (STAT_<NAME>), its key in the tools' JSON lines and its
 * column title, here and nowhere else. Per hook: calls, calls that concern
 * a target (what "concern" means is each tool's to state), and the calls
 * where the program suppressed or forced a preemption (or, under
 * --dry-run, would have).
 */
#define SCHEDBPF_STATS(X)                                                    \
	X(TICK_CALLS, tick_calls, "TICK")                                    \
	X(TICK_TARGETS, tick_targets, "TICK:TGT")                            \
	X(TICK_SUPPRESSED, tick_suppressed, "TICK:SUP")                      \
	X(TICK_FORCED, tick_forced, "TICK:FRC")                              \
	X(WAKEUP_CALLS, wakeup_calls, "WAKE")                                \
	X(WAKEUP_TARGETS, wakeup_targets, "WAKE:TGT")                        \
	X(WAKEUP_SUPPRESSED, wakeup_suppressed, "WAKE:SUP")                  \
	X(WAKEUP_FORCED, wakeup_forced, "WAKE:FRC")                          \
	X(ENTITY_CALLS, entity_calls, "ENT")                                 \
	X(ENTITY_TARGETS, entity_targets, "ENT:TGT")                         \
	X(ENTITY_SUPPRESSED, entity_suppressed, "ENT:SUP")                   \
	X(ENTITY_FORCED, entity_forced, "ENT:FRC")                           \
	/* a target hit the tool's safety bound, so CFS decided instead */   \
	X(BOUNDED, bounded, "BOUNDED")                                       \
	/* involuntary context switches of targets (sched_switch observer) */ \
	X(PREEMPTIONS, preemptions, "PREEMPT")                               \
	/* those by a task of a higher class (RT, deadline, stop): no CFS   \
	 * hook is asked about these */                                      \
	X(PREEMPTIONS_RT, preemptions_rt, "PRE:RT")                          \
	/* those because a CFS task woke up and CFS (or a hook) chose it    \
	 * over the target: check_preempt_wakeup() called resched_curr() */  \
	X(PREEMPTIONS_WAKEUP, preemptions_wakeup, "PRE:WAKE")                \
	/* target wakeups whose wakeup-to-run latency was measured */        \
	X(WAKEUPS, wakeups, "WAKEUPS")

enum schedbpf_stat {
#define SCHEDBPF_STAT_ENUM(name, key, title) STAT_##name,
	SCHEDBPF_STATS(SCHEDBPF_STAT_ENUM)
#undef SCHEDBPF_STAT_ENUM
	SCHEDBPF_NR_STATS
};

/*
 * Each CPU's counters and histogram: entry c of the BPF objects' global
 * array counters[] (bpf/common.bpf.h), which programs on CPU c count in.
 * The tools sum stats and lat over the CPUs, reading the array where
 * libbpf maps it (.bss). Each entry starts on a cache line of its own.
 */
struct schedbpf_percpu {
	__u64 stats[SCHEDBPF_NR_STATS];
	__u64 lat[SCHEDBPF_LAT_SLOTS];
} __attribute__((aligned(64)));

/*
 * What the observers (observe.bpf.h) watch, --observe: each level adds to
 * the one before it, and costs more (README.md has the numbers).
 */
enum schedbpf_observe {
	/* the policy only: no observer is loaded, their counters stay 0 */
	SCHEDBPF_OBSERVE_NONE,
	/* involuntary switches of targets, and what caused them */
	SCHEDBPF_OBSERVE_COUNTS,
	/* and the targets' wakeup-to-run latency */
	SCHEDBPF_OBSERVE_FULL,
};

/* Set by the tool between open and load (const volatile cfg_common). */
struct schedbpf_cfg {
	/* cgroup2 ids (inode numbers) of the -c cgroups */
	__u64 cgrp_ids[SCHEDBPF_MAX_CGROUPS];
	/* their levels: 0 for the cgroup2 root, 1 for its children... */
	__u32 cgrp_levels[SCHEDBPF_MAX_CGROUPS];
	__u32 nr_cgrps;
	/* the lowest of cgrp_levels: a cgroup above it is no target's */
	__u32 cgrp_min_level;
	/*
	 * every -c cgroup has the cpu controller (its own task group), so an
	 * entity's task group tells whether it is inside one
	 */
	__u8 cgrps_own_tg;
	/* every CFS task is a target */
	__u8 all;
	/* -p was given: look tgids up in the target_tgids map */
	__u8 has_pids;
	/* a command is wrapped without -c: track its tree in tree_pids */
	__u8 track_tree;
	/* hooks count what they would do but return 0 */
	__u8 dry_run;
	/* enum schedbpf_observe */
	__u8 observe;
	/*
	 * cgrps_own_tg and only -c cgroups (no --all, -p or command tree):
	 * the group decides, tested once where it is three tests
	 */
	__u8 group_decides;
};

#endif /* SCHEDBPF_H */
