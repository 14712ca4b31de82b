// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf.h"

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

void sched_btf_free(struct sched_btf *sb)
{
	btf__free(sb->btf);
	sb->btf = NULL;
}
