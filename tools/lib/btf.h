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

/*
 * bpf_sched_* names kept by sched_btf_load() (more are not looked at):
 * 6.1's kernel has 21 such functions, the series' 3 hooks and 5 kfuncs
 * among them
 */
#define SCHED_BTF_MAX_HOOKS 128

struct btf_type;

struct sched_btf {
	/* the raw BTF, read by sched_btf_read(), until sched_btf_free() */
	void *data;
	size_t size;
	const char *types, *types_end, *strs;
	size_t str_len;
	/*
	 * What sched_btf_load() found, kept after sched_btf_free(): the
	 * functions named bpf_sched_*, how many types it stepped over, and
	 * both enum values
	 */
	struct {
		int id;
		char name[48];
	} hooks[SCHED_BTF_MAX_HOOKS];
	int nr_hooks;
	int nr_types;
	int prog_type;
	int attach_type;
};

/*
 * Reads the BTF at path (the running kernel's when NULL) a piece at a
 * time, without keeping it, for both enum values and the bpf_sched_*
 * functions. Returns 0; -ENOENT when either value is missing (err names
 * which); or another -errno when the BTF cannot be read (-EPROTO: not BTF,
 * or a type kind newer than this code). Names of strings that repeat
 * (pahole and libbpf write each once) are looked up at their first.
 */
int sched_btf_load(struct sched_btf *sb, const char *path, char *err,
		   size_t errlen);

/*
 * Reads all of the raw BTF at path (the running kernel's when NULL), for
 * sched_btf_find() and sched_btf_func(), and checks its header: 0, or
 * -errno (-EPROTO: not BTF), and then holds nothing.
 */
int sched_btf_read(struct sched_btf *sb, const char *path);

/*
 * Type id of the first type of kind (BTF_KIND_*) named name in the BTF
 * sched_btf_read() read (the id libbpf's btf__find_by_name_kind() gives);
 * -ENOENT if there is none, or no BTF read; -EPROTO if a record is cut
 * short or of a kind newer than this code, which it cannot step over.
 */
int sched_btf_find(const struct sched_btf *sb, int kind, const char *name);

/* BTF id of the function bpf_sched_<hook> sched_btf_load() found, or -ENOENT. */
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
