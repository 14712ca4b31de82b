// SPDX-License-Identifier: GPL-2.0-only
/*
 * BTF discovery, libbpf's sched/ handler, loading the tool's programs,
 * attaching them, and reading their counters back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "tool.h"

/* the kernel's longest symbol name, with its NUL */
#define KSYM_NAME_LEN 128

/*
 * What a kernel without the series needs, for an installed tool too: the
 * package that has one (schedbpf's make kernel-deb builds it).
 */
#define NEED_KERNEL \
	"install linux-image-*-schedbpf (make kernel-deb) and boot it"

static int sched_attach(const struct bpf_program *prog, long cookie,
			struct bpf_link **link)
{
	*link = bpf_program__attach_trace(prog);
	return *link ? 0 : -errno;
}

static int register_handler(struct sched_tool *t)
{
	LIBBPF_OPTS(libbpf_prog_handler_opts, opts,
		    .prog_attach_fn = sched_attach);
	enum bpf_attach_type attach_type;
	enum bpf_prog_type prog_type;
	int id;

	/*
	 * Our handler comes first even where libbpf knows sched/ itself: it
	 * uses the running kernel's numbers. Should a libbpf refuse a second
	 * handler, its own is used; sched_tool_load() sets each program's
	 * types and target anyway.
	 */
	id = libbpf_register_prog_handler(SCHED_SEC_PREFIX, t->btf.prog_type,
					  t->btf.attach_type, &opts);
	if (id >= 0) {
		t->handler_id = id;
		return 0;
	}
	if (!libbpf_prog_type_by_name(SCHED_SEC_PREFIX "x", &prog_type,
				      &attach_type))
		return 0;
	sched_err("registering the sched/ section with libbpf: %s",
		  strerror(-id));
	return 1;
}

int sched_tool_init(struct sched_tool *t)
{
	char why[PATH_MAX + 64];
	struct utsname u;
	int ret;

	ret = sched_btf_load(&t->btf, NULL, why, sizeof(why));
	if (t->opts.verbose && t->btf.nr_types)
		fprintf(stderr, "%s: " KERNEL_BTF_PATH ": %d types, %d bpf_sched_* functions\n",
			report_name(), t->btf.nr_types, t->btf.nr_hooks);
	if (ret == -ENOENT) {
		uname(&u);
		sched_err("kernel %s has no scheduler BPF (%s); " NEED_KERNEL,
			  u.release, why);
		return 1;
	}
	if (ret) {
		sched_err("%s", why);
		return 1;
	}
	return register_handler(t);
}

struct schedbpf_cfg sched_tool_cfg(const struct sched_tool *t)
{
	const struct sched_opts *o = &t->opts;
	struct schedbpf_cfg cfg = {
		.nr_cgrps = o->nr_cgroups,
		.all = o->all,
		.has_pids = o->nr_tgids > 0,
		.track_tree = o->cmd && !o->nr_cgroups && !o->all,
		.dry_run = o->dry_run,
		.observe = o->observe,
	};
	int i;

	cfg.cgrps_own_tg = o->nr_cgroups > 0;
	for (i = 0; i < o->nr_cgroups; i++) {
		cfg.cgrp_ids[i] = o->cgroups[i].id;
		cfg.cgrp_levels[i] = o->cgroups[i].level;
		if (!i || o->cgroups[i].level < cfg.cgrp_min_level)
			cfg.cgrp_min_level = o->cgroups[i].level;
		cfg.cgrps_own_tg &= o->cgroups[i].own_tg;
	}
	cfg.group_decides = cfg.cgrps_own_tg && !cfg.all && !cfg.has_pids &&
			    !cfg.track_tree;
	return cfg;
}

static bool is_sched_prog(const struct bpf_program *prog)
{
	return !strncmp(bpf_program__section_name(prog), SCHED_SEC_PREFIX,
			strlen(SCHED_SEC_PREFIX));
}

/*
 * Points every sched/<hook> program at bpf_sched_<hook>. Our copy of the
 * kernel's BTF is freed first: libbpf parses its own for the attach
 * targets and CO-RE, and two copies would double the tool's peak RSS.
 */
static int set_hooks(struct sched_tool *t, struct bpf_object *obj)
{
	struct bpf_program *prog;
	struct utsname u;
	char func[KSYM_NAME_LEN];
	int err;

	bpf_object__for_each_program(prog, obj) {
		const char *hook;

		if (!is_sched_prog(prog))
			continue;
		hook = bpf_program__section_name(prog) +
		       strlen(SCHED_SEC_PREFIX);
		if (sched_btf_hook(&t->btf, hook) < 0) {
			uname(&u);
			sched_err("kernel %s has no hook " SCHED_HOOK_PREFIX
				  "%s; " NEED_KERNEL,
				  u.release, hook);
			return 1;
		}
	}
	sched_btf_free(&t->btf);
	bpf_object__for_each_program(prog, obj) {
		if (!is_sched_prog(prog))
			continue;
		snprintf(func, sizeof(func), SCHED_HOOK_PREFIX "%s",
			 bpf_program__section_name(prog) +
				 strlen(SCHED_SEC_PREFIX));
		bpf_program__set_type(prog, t->btf.prog_type);
		bpf_program__set_expected_attach_type(prog, t->btf.attach_type);
		err = bpf_program__set_attach_target(prog, 0, func);
		if (err) {
			sched_err("resolving %s: %s", func, strerror(-err));
			return 1;
		}
	}
	return 0;
}

static int fill_tgids(struct sched_tool *t, struct bpf_object *obj)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, "target_tgids");
	__u8 one = 1;
	int i;

	for (i = 0; i < t->opts.nr_tgids; i++) {
		__u32 tgid = t->opts.tgids[i];

		if (!map || bpf_map__update_elem(map, &tgid, sizeof(tgid), &one,
						 sizeof(one), BPF_ANY)) {
			sched_err("adding pid %u to the targets: %s", tgid,
				  strerror(map ? errno : ENOENT));
			return 1;
		}
	}
	return 0;
}

/* Observers' names start so (bpf/observe.bpf.h). */
#define OBSERVER_PREFIX "observe_"

/*
 * What --observe leaves out: no observer under none, and below full no
 * room for the marks of preempted targets, which only full keeps.
 */
static int set_observe(struct sched_tool *t, struct bpf_object *obj)
{
	struct bpf_program *prog;
	struct bpf_map *ts = bpf_object__find_map_by_name(obj, "preempted");
	int err;

	bpf_object__for_each_program(prog, obj) {
		if (strncmp(bpf_program__name(prog), OBSERVER_PREFIX,
			    strlen(OBSERVER_PREFIX)))
			continue;
		bpf_program__set_autoload(prog, t->opts.observe !=
							SCHEDBPF_OBSERVE_NONE);
	}
	if (ts && t->opts.observe < SCHEDBPF_OBSERVE_FULL) {
		err = bpf_map__set_max_entries(ts, 1);
		if (err) {
			sched_err("sizing preempted: %s", strerror(-err));
			return 1;
		}
	}
	return 0;
}

int sched_tool_load(struct sched_tool *t, struct bpf_object_skeleton *s)
{
	int err;

	if (set_observe(t, *s->obj) || set_hooks(t, *s->obj))
		return 1;
	report_libbpf_hold();
	err = bpf_object__load_skeleton(s);
	/* no permission: our line says all, libbpf's only repeat it */
	report_libbpf_release(err != -EPERM && err != -EACCES);
	if (err) {
		if (err == -EPERM || err == -EACCES)
			sched_err(
				"loading BPF programs: %s (needs root, or CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN)",
				strerror(-err));
		else
			sched_err("loading BPF programs: %s%s", strerror(-err),
				  t->opts.verbose ?
					  "" :
					  " (-v shows the verifier's log)");
		return 1;
	}
	return fill_tgids(t, *s->obj);
}

void sched_tool_fini(struct sched_tool *t)
{
	int i;

	if (t->handler_id >= 0)
		libbpf_unregister_prog_handler(t->handler_id);
	t->handler_id = -1;
	sched_btf_free(&t->btf);
	for (i = 0; i < t->opts.nr_cgroups; i++)
		cgroup_target_close(&t->opts.cgroups[i]);
	for (i = 0; i < t->opts.nr_tgids; i++) {
		if (t->opts.pidfds[i] >= 0)
			close(t->opts.pidfds[i]);
		t->opts.pidfds[i] = -1;
	}
}

/* The skeleton as the run stage sees it. */

/*
 * The hooks first, then the observers (which the skeleton attaches, skipping
 * the links already set): an observer running before the hooks would count
 * what no policy decided yet, e.g. a wakeup preemption of a target. The
 * links go into the skeleton's slots, so destroying it detaches all.
 */
static int skel_attach(void *ctx)
{
	struct bpf_object_skeleton *s = ctx;
	int i, err;

	for (i = 0; i < s->prog_cnt; i++) {
		struct bpf_prog_skeleton *ps =
			(void *)((char *)s->progs + i * s->prog_skel_sz);

		if (*ps->link || !is_sched_prog(*ps->prog) ||
		    !bpf_program__autoload(*ps->prog))
			continue;
		*ps->link = bpf_program__attach_trace(*ps->prog);
		if (!*ps->link) {
			sched_err("attaching %s: %s", ps->name,
				  strerror(errno));
			return 1;
		}
	}
	err = bpf_object__attach_skeleton(s);
	if (err) {
		sched_err("attaching BPF programs: %s", strerror(-err));
		return 1;
	}
	return 0;
}

static int skel_add_tree(void *ctx, pid_t pid)
{
	struct bpf_object_skeleton *s = ctx;
	struct bpf_map *tree =
		bpf_object__find_map_by_name(*s->obj, "tree_pids");
	__u32 key = pid;
	__u8 one = 1;

	if (!tree || bpf_map__update_elem(tree, &key, sizeof(key), &one,
					  sizeof(one), BPF_ANY)) {
		sched_err("adding pid %d to the targets: %s", pid,
			  strerror(tree ? errno : ENOENT));
		return 1;
	}
	return 0;
}

static void skel_drop_pid(void *ctx, pid_t tgid)
{
	struct bpf_object_skeleton *s = ctx;
	struct bpf_map *map =
		bpf_object__find_map_by_name(*s->obj, "target_tgids");
	__u32 key = tgid;

	if (map)
		bpf_map__delete_elem(map, &key, sizeof(key), 0);
}

/*
 * counters[] of the BPF object (bpf/common.bpf.h), where libbpf maps the
 * object's .bss into our memory, or NULL: found by name in the section's
 * BTF, so that other zero-initialised globals may share the section.
 */
static const struct schedbpf_percpu *skel_counters(struct bpf_object *obj)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, ".bss");
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *vs;
	const struct btf_type *sec;
	size_t size = 0;
	const char *data;
	int i;

	if (!map || !btf ||
	    !(data = bpf_map__initial_value(map, &size)) ||
	    !(sec = btf__type_by_id(btf, bpf_map__btf_value_type_id(map))) ||
	    !btf_is_datasec(sec))
		return NULL;
	vs = btf_var_secinfos(sec);
	for (i = 0; i < btf_vlen(sec); i++, vs++) {
		const struct btf_type *var = btf__type_by_id(btf, vs->type);

		if (!var ||
		    strcmp(btf__name_by_offset(btf, var->name_off), "counters"))
			continue;
		if (vs->size != SCHEDBPF_MAX_CPUS *
					sizeof(struct schedbpf_percpu) ||
		    vs->offset + vs->size > size)
			return NULL;
		return (const void *)(data + vs->offset);
	}
	return NULL;
}

/*
 * The counters and the histogram, summed over the CPUs' entries of
 * counters[], read in our memory: no system call. Each count is one
 * aligned 8-byte word, read whole while the programs add to it.
 */
static int skel_read(void *ctx, __u64 *stats, __u64 *hist)
{
	struct bpf_object_skeleton *s = ctx;
	const struct schedbpf_percpu *v = skel_counters(*s->obj);
	int ncpus = libbpf_num_possible_cpus(), cpu, i;

	if (!v) {
		sched_err("BPF object lacks its counters (counters[] in .bss)");
		return 1;
	}
	if (ncpus < 0 || ncpus > SCHEDBPF_MAX_CPUS)
		ncpus = SCHEDBPF_MAX_CPUS;
	memset(stats, 0, SCHEDBPF_NR_STATS * sizeof(*stats));
	if (hist)
		memset(hist, 0, SCHEDBPF_LAT_SLOTS * sizeof(*hist));
	for (cpu = 0; cpu < ncpus; cpu++) {
		for (i = 0; i < SCHEDBPF_NR_STATS; i++)
			stats[i] += __atomic_load_n(&v[cpu].stats[i],
						    __ATOMIC_RELAXED);
		for (i = 0; hist && i < SCHEDBPF_LAT_SLOTS; i++)
			hist[i] += __atomic_load_n(&v[cpu].lat[i],
						   __ATOMIC_RELAXED);
	}
	return 0;
}

struct sched_backend sched_skel_backend(struct bpf_object_skeleton *s)
{
	return (struct sched_backend){
		.ctx = s,
		.add_tree = skel_add_tree,
		.drop_pid = skel_drop_pid,
		.attach = skel_attach,
		.read = skel_read,
	};
}
