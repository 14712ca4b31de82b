/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A tool's BPF object as the library sees it: one of the two light
 * skeletons that `bpftool gen skeleton -L` generates from bpf/NAME.bpf.c
 * (Makefile), build/skel/NAME.skel.h with every program and
 * build/skel/NAME_policy.skel.h without the observers, for --observe=none.
 *
 * A light skeleton holds a loader program, which runs in the kernel
 * (BPF_PROG_TYPE_SYSCALL): it creates the maps, loads the programs, and
 * finds their hooks, kfuncs and CO-RE relocations in the kernel's own BTF.
 * So the tool reads no BTF and links no libbpf, and stays a few MB.
 *
 * Its struct is the tool's own type; SCHED_SKELETONS() below turns it into
 * a struct sched_skel for the library, the compiler checking every field
 * it names.
 */
#ifndef SCHEDBPF_SKEL_H
#define SCHEDBPF_SKEL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
/* skel_internal.h needs errno.h first */
#include <bpf/skel_internal.h>

#include "schedbpf.h"

struct sched_skel {
	/* the skeleton (struct NAME), its loader's context first */
	void *skel;
	struct bpf_loader_ctx *ctx;
	int (*load)(void *skel);
	void (*destroy)(void *skel);
	/* its programs, and the link of each (the skeleton's links) */
	struct bpf_prog_desc *progs;
	int *links;
	int nr_progs;
	/* the maps the library fills or sizes */
	struct bpf_map_desc *target_tgids, *tree_pids, *preempted;
	/* .rodata's cfg_common, to fill before the load */
	struct schedbpf_cfg *cfg;
	/* .bss once loaded (mapped by the skeleton), counters[] in it */
	void **bss;
	size_t counters_off;
};

struct sched_tool;

/*
 * Opens the tool's skeleton, with the observers or without (the policy
 * alone), and fills the tool's own .rodata settings: 0, or -errno.
 */
typedef int sched_skel_open_fn(const struct sched_tool *t, bool observers,
			       struct sched_skel *k);

#define SCHED_SKEL_DEFINE_(NAME, SETTINGS)                                   \
	static int NAME##_skel_load(void *s)                                 \
	{                                                                    \
		return NAME##__load(s);                                      \
	}                                                                    \
	static void NAME##_skel_destroy(void *s)                             \
	{                                                                    \
		NAME##__destroy(s);                                          \
	}                                                                    \
	static int NAME##_skel_open(const struct sched_tool *t,              \
				    struct sched_skel *k)                    \
	{                                                                    \
		struct NAME *s = NAME##__open();                             \
                                                                             \
		if (!s)                                                      \
			return -ENOMEM;                                      \
		*k = (struct sched_skel){                                    \
			.skel = s,                                           \
			.ctx = &s->ctx,                                      \
			.load = NAME##_skel_load,                            \
			.destroy = NAME##_skel_destroy,                      \
			.progs = (struct bpf_prog_desc *)&s->progs,          \
			.links = (int *)&s->links,                           \
			.nr_progs = sizeof(s->progs) /                       \
				    sizeof(struct bpf_prog_desc),            \
			.target_tgids = &s->maps.target_tgids,               \
			.tree_pids = &s->maps.tree_pids,                     \
			.preempted = &s->maps.preempted,                     \
			.cfg = &s->rodata->cfg_common,                       \
			.bss = (void **)&s->bss,                             \
			.counters_off = offsetof(struct NAME##__bss, counters), \
		};                                                           \
		SETTINGS(t, s->rodata);                                      \
		return 0;                                                    \
	}

/*
 * In a tool's .c, after including build/skel/NAME.skel.h and
 * NAME_policy.skel.h: defines NAME_open(), a sched_skel_open_fn.
 * SETTINGS(t, rodata) sets the tool's own fields of either skeleton's
 * .rodata (rodata->cfg_<setting> = ...); the library sets cfg_common.
 */
#define SCHED_SKELETONS(NAME, SETTINGS)                                      \
	SCHED_SKEL_DEFINE_(NAME, SETTINGS)                                   \
	SCHED_SKEL_DEFINE_(NAME##_policy, SETTINGS)                          \
	static int NAME##_open(const struct sched_tool *t, bool observers,   \
			       struct sched_skel *k)                         \
	{                                                                    \
		return observers ? NAME##_skel_open(t, k) :                  \
				   NAME##_policy_skel_open(t, k);            \
	}

#endif /* SCHEDBPF_SKEL_H */
