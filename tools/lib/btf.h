/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the running kernel calls its scheduler BPF program and attach types,
 * which bpf_sched_* hooks it has, and what it names the functions the
 * observers trace, read from its BTF: the enum values are appended to each
 * kernel's UAPI and differ between 6.1 and 6.12, so they are never
 * compiled in.
 */
#ifndef SCHEDBPF_BTF_H
#define SCHEDBPF_BTF_H

#include <stddef.h>

#define KERNEL_BTF_PATH "/sys/kernel/btf/vmlinux"
#define SCHED_PROG_TYPE_NAME "BPF_PROG_TYPE_SCHED"
#define SCHED_ATTACH_TYPE_NAME "BPF_SCHED"
#define SCHED_HOOK_PREFIX "bpf_sched_"
#define SCHED_SEC_PREFIX "sched/"

struct btf;

struct sched_btf {
	struct btf *btf;
	int prog_type;
	int attach_type;
};

/*
 * Loads BTF from path (the running kernel's when NULL) and reads both enum
 * values. Returns 0; -ENOENT when either is missing (err names which); or
 * another -errno when the BTF cannot be read.
 */
int sched_btf_load(struct sched_btf *sb, const char *path, char *err,
		   size_t errlen);

/* BTF id of the function bpf_sched_<hook>, or -ENOENT. */
int sched_btf_hook(const struct sched_btf *sb, const char *hook);

/*
 * The name the running kernel has for function func, which a tracing
 * program names as 6.1 does: func itself, the name a later kernel gave
 * it (check_preempt_wakeup_fair for check_preempt_wakeup), or NULL when
 * it has neither. For tests/kernel/schedtest's fentry observers: the
 * tools trace no function.
 */
const char *sched_btf_func(const struct sched_btf *sb, const char *func);

void sched_btf_free(struct sched_btf *sb);

#endif /* SCHEDBPF_BTF_H */
