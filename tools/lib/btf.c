// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf.h"
#include "util.h"

/* Value of enumerator name in enum enum_name, or -ENOENT. */
static int enum_value(const struct btf *btf, const char *enum_name,
		      const char *name)
{
	const struct btf_enum *e;
	const struct btf_type *t;
	int id, i;

	id = btf__find_by_name_kind(btf, enum_name, BTF_KIND_ENUM);
	if (id < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, id);
	e = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, e++) {
		if (!strcmp(btf__name_by_offset(btf, e->name_off), name))
			return e->val;
	}
	return -ENOENT;
}

int sched_btf_load(struct sched_btf *sb, const char *path, char *err,
		   size_t errlen)
{
	const char *file = path ? path : KERNEL_BTF_PATH;
	int ret;

	sb->btf = path ? btf__parse(path, NULL) : btf__load_vmlinux_btf();
	if (!sb->btf) {
		ret = -errno;
		snprintf(err, errlen, "cannot read kernel BTF %s: %s", file,
			 strerror(-ret));
		return ret;
	}
	sb->prog_type =
		enum_value(sb->btf, "bpf_prog_type", SCHED_PROG_TYPE_NAME);
	sb->attach_type =
		enum_value(sb->btf, "bpf_attach_type", SCHED_ATTACH_TYPE_NAME);
	if (sb->prog_type < 0 || sb->attach_type < 0) {
		snprintf(err, errlen, "%s has no %s", file,
			 sb->prog_type < 0 ? SCHED_PROG_TYPE_NAME :
					     SCHED_ATTACH_TYPE_NAME);
		sched_btf_free(sb);
		return -ENOENT;
	}
	return 0;
}

int sched_btf_hook(const struct sched_btf *sb, const char *hook)
{
	char name[128];
	int id;

	if (snprintf(name, sizeof(name), SCHED_HOOK_PREFIX "%s", hook) >=
	    (int)sizeof(name))
		return -ENOENT;
	id = btf__find_by_name_kind(sb->btf, name, BTF_KIND_FUNC);
	return id < 0 ? -ENOENT : id;
}

/*
 * Functions a tracing program attaches to that later kernels renamed: the
 * program names the 6.1 one in its section, and is pointed at whichever
 * name the running kernel has.
 */
static const char *const renamed[][2] = {
	/* 6.7: the sched_class method became wakeup_preempt() */
	{ "check_preempt_wakeup", "check_preempt_wakeup_fair" },
};

static bool has_func(const struct sched_btf *sb, const char *func)
{
	return btf__find_by_name_kind(sb->btf, func, BTF_KIND_FUNC) > 0;
}

const char *sched_btf_func(const struct sched_btf *sb, const char *func)
{
	size_t i;

	if (has_func(sb, func))
		return func;
	for (i = 0; i < ARRAY_SIZE(renamed); i++) {
		if (!strcmp(renamed[i][0], func) && has_func(sb, renamed[i][1]))
			return renamed[i][1];
	}
	return NULL;
}

void sched_btf_free(struct sched_btf *sb)
{
	btf__free(sb->btf);
	sb->btf = NULL;
}
