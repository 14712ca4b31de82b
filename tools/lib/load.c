// SPDX-License-Identifier: GPL-2.0-only
/*
 * BTF discovery, loading the tool's programs by their loader (loader.h),
 * attaching them, and reading their counters back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/skel_internal.h>

#include "tool.h"

/*
 * What a kernel without the series needs, for an installed tool too: the
 * package that has one (schedbpf's make kernel-deb builds it).
 */
#define NEED_KERNEL \
	"install linux-image-*-schedbpf (make kernel-deb) and boot it"

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
	return 0;
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

/* The program's hook: HOOK of its section sched/HOOK, or NULL. */
static const char *prog_hook(const struct loader_prog *p)
{
	size_t n = strlen(SCHED_SEC_PREFIX);

	return strncmp(p->sec, SCHED_SEC_PREFIX, n) ? NULL : p->sec + n;
}

/* The index of the object's map name, or -1. */
static int map_index(const struct loader_desc *d, const char *name)
{
	int i;

	for (i = 0; i < d->nr_maps; i++) {
		if (!strcmp(d->maps[i].name, name))
			return i;
	}
	return -1;
}

/* The fd of the loaded object's map name, or -1. */
static int map_fd(const struct sched_tool *t, const char *name)
{
	int i = map_index(t->bpf.desc, name);

	return i < 0 ? -1 : t->bpf.map_fds[i];
}

/*
 * The loader's data, in memory of its own: the segments over zeros (the
 * pages of .bss's zeros are never touched, so they cost no memory), with
 * each sched program's stand-in numbers replaced by the running kernel's:
 * its type, its attach type and its hook's BTF id.
 */
static void *loader_data(struct sched_tool *t)
{
	const struct loader_desc *d = t->bpf.desc;
	struct utsname u;
	char *data;
	int i;

	data = mmap(NULL, d->data_sz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (data == MAP_FAILED) {
		sched_err("loading BPF programs: %s", strerror(errno));
		return NULL;
	}
	for (i = 0; i < d->nr_segs; i++)
		memcpy(data + d->segs[i].off, d->segs[i].bytes, d->segs[i].len);
	for (i = 0; i < d->nr_progs; i++) {
		const char *hook = prog_hook(&d->progs[i]);
		union bpf_attr *a;
		int id;

		if (!hook || !d->progs[i].load)
			continue;
		id = sched_btf_hook(&t->btf, hook);
		if (id < 0) {
			uname(&u);
			sched_err("kernel %s has no hook " SCHED_HOOK_PREFIX
				  "%s; " NEED_KERNEL,
				  u.release, hook);
			munmap(data, d->data_sz);
			return NULL;
		}
		a = (void *)(data + d->progs[i].attr_off);
		a->prog_type = t->btf.prog_type;
		a->expected_attach_type = t->btf.attach_type;
		a->attach_btf_id = id;
	}
	return data;
}

/*
 * Copies value into .rodata's variable cfg_<key>: 0, or 1 if the object
 * lacks it or has it of another size (the tool and its object disagree).
 */
static int set_cfg(const struct loader_desc *d, char *rodata, const char *key,
		   const void *value, size_t size)
{
	char name[64];
	int i;

	snprintf(name, sizeof(name), "cfg_%s", key);
	for (i = 0; i < d->nr_vars; i++) {
		if (strcmp(d->vars[i].name, name))
			continue;
		if (d->vars[i].size != size ||
		    d->vars[i].off + size > d->rodata_sz)
			break;
		memcpy(rodata + d->vars[i].off, value, size);
		return 0;
	}
	sched_err("BPF object %s lacks %s of %zu bytes in .rodata", d->name,
		  name, size);
	return 1;
}

/* .rodata's initial value, with cfg_common and each setting's cfg_<key>. */
static void *loader_rodata(struct sched_tool *t)
{
	const struct loader_desc *d = t->bpf.desc;
	struct schedbpf_cfg cfg = sched_tool_cfg(t);
	const struct sched_setting *s;
	char *rodata;

	rodata = malloc(d->rodata_sz);
	if (!rodata) {
		sched_err("loading BPF programs: %s", strerror(ENOMEM));
		return NULL;
	}
	memcpy(rodata, d->rodata, d->rodata_sz);
	if (set_cfg(d, rodata, "common", &cfg, sizeof(cfg)))
		goto fail;
	for (s = t->settings; s && s->key; s++) {
		if (set_cfg(d, rodata, s->key, s->value,
			    s->type == SCHED_SETTING_NS ? sizeof(__u64) :
							  sizeof(bool)))
			goto fail;
	}
	return rodata;
fail:
	free(rodata);
	return NULL;
}

/*
 * The load failed with err. ran: the loader ran, and a program or map it
 * loaded was refused (the verifier refuses with EACCES or EINVAL, and its
 * log says why); else the loader itself was refused, which without
 * privilege is the first thing to be. EPERM is always privilege.
 */
static void report_load_error(const struct sched_tool *t, int err, bool ran,
			      const char *log)
{
	if (err == -EPERM || (!ran && err == -EACCES)) {
		sched_err("loading BPF programs: %s (needs root, or CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN)",
			  strerror(-err));
		return;
	}
	if (log && log[0])
		fputs(log, stderr);
	sched_err("loading BPF programs: %s%s", strerror(-err),
		  t->opts.verbose ? "" : " (-v shows the verifier's log)");
}

/*
 * Runs the loader; with a log, the verifier's for the program it refused.
 * 0, or -errno, with *ran whether the loader itself ran.
 */
static int run_loader(struct sched_tool *t, void *data, void *rodata,
		      char *log, __u32 log_size, bool *ran)
{
	const struct loader_desc *d = t->bpf.desc;
	struct bpf_map_desc *maps;
	struct bpf_prog_desc *progs;
	struct bpf_loader_ctx *ctx;
	size_t sz = sizeof(*ctx) + d->nr_maps * sizeof(*maps) +
		    d->nr_progs * sizeof(*progs);
	int i, k, preempted, err;
	struct bpf_load_and_run_opts opts = {
		.data = data,
		.insns = d->insns,
		.data_sz = d->data_sz,
		.insns_sz = d->insns_sz,
	};

	ctx = calloc(1, sz);
	if (!ctx)
		return -ENOMEM;
	maps = (void *)(ctx + 1);
	progs = (void *)(maps + d->nr_maps);
	ctx->sz = sz;
	if (log) {
		ctx->log_level = 1;
		ctx->log_size = log_size;
		ctx->log_buf = (long)log;
	}
	maps[d->rodata_map].initial_value = (long)rodata;
	/* below full, no marks of preempted targets: no room for them */
	preempted = map_index(d, "preempted");
	if (preempted >= 0 && t->opts.observe < SCHEDBPF_OBSERVE_FULL)
		maps[preempted].max_entries = 1;
	opts.ctx = ctx;
	err = bpf_load_and_run(&opts);
	/* skel_internal.h's word for a failure inside the loader */
	*ran = err && opts.errstr &&
	       !strcmp(opts.errstr, "failed to execute loader prog");
	if (!err) {
		for (i = 0; i < d->nr_maps; i++)
			t->bpf.map_fds[i] = maps[i].map_fd;
		/* the loader numbers only the programs it loads */
		for (i = 0, k = 0; i < d->nr_progs; i++)
			t->bpf.prog_fds[i] = d->progs[i].load ?
						     progs[k++].prog_fd :
						     -1;
	}
	free(ctx);
	return err;
}

/* The verifier's log of a refused program, for -v */
#define VERIFIER_LOG_SIZE (16 << 20)

/* Adds pid to the object's map name of targets: 0, or 1 having said why. */
static int add_target(const struct sched_tool *t, const char *name, __u32 pid)
{
	int fd = map_fd(t, name);
	__u8 one = 1;

	if (fd < 0 || bpf_map_update_elem(fd, &pid, &one, BPF_ANY)) {
		sched_err("adding pid %u to the targets: %s", pid,
			  strerror(fd < 0 ? ENOENT : errno));
		return 1;
	}
	return 0;
}

static int fill_tgids(struct sched_tool *t)
{
	int i;

	for (i = 0; i < t->opts.nr_tgids; i++) {
		if (add_target(t, "target_tgids", t->opts.tgids[i]))
			return 1;
	}
	return 0;
}

/* counters[] in .bss, mapped read-only into our memory: no system call. */
static int map_counters(struct sched_tool *t)
{
	const struct loader_desc *d = t->bpf.desc;
	size_t len = (d->bss_sz + getpagesize() - 1) & ~(getpagesize() - 1UL);
	void *bss;

	if (d->bss_map < 0 || d->counters_off < 0 ||
	    d->counters_off + SCHEDBPF_MAX_CPUS * sizeof(struct schedbpf_percpu) >
		    d->bss_sz) {
		sched_err("BPF object %s lacks its counters (counters[] in .bss)",
			  d->name);
		return 1;
	}
	bss = mmap(NULL, len, PROT_READ, MAP_SHARED,
		   t->bpf.map_fds[d->bss_map], 0);
	if (bss == MAP_FAILED) {
		sched_err("mapping the counters: %s", strerror(errno));
		return 1;
	}
	t->bpf.bss = bss;
	t->bpf.bss_len = len;
	return 0;
}

int sched_tool_load(struct sched_tool *t)
{
	const struct loader_desc *d = t->loader;
	void *data = NULL, *rodata = NULL;
	char *log = NULL;
	bool ran;
	int i, err;

	/* --observe=none: the object's loader that loads no observer */
	if (t->opts.observe == SCHEDBPF_OBSERVE_NONE && d->policy)
		d = d->policy;
	t->bpf.desc = d;
	t->bpf.map_fds = malloc(d->nr_maps * sizeof(int));
	t->bpf.prog_fds = malloc(d->nr_progs * sizeof(int));
	t->bpf.link_fds = malloc(d->nr_progs * sizeof(int));
	if (!t->bpf.map_fds || !t->bpf.prog_fds || !t->bpf.link_fds) {
		sched_err("loading BPF programs: %s", strerror(ENOMEM));
		return 1;
	}
	for (i = 0; i < d->nr_maps; i++)
		t->bpf.map_fds[i] = -1;
	for (i = 0; i < d->nr_progs; i++)
		t->bpf.prog_fds[i] = t->bpf.link_fds[i] = -1;
	data = loader_data(t);
	if (!data)
		return 1;
	rodata = loader_rodata(t);
	if (!rodata) {
		munmap(data, d->data_sz);
		return 1;
	}
	err = run_loader(t, data, rodata, NULL, 0, &ran);
	if (err && err != -EPERM && ran && t->opts.verbose) {
		/* again, for the log: malloc's pages are touched as written */
		log = malloc(VERIFIER_LOG_SIZE);
		if (log) {
			log[0] = '\0';
			err = run_loader(t, data, rodata, log,
					 VERIFIER_LOG_SIZE, &ran);
		}
	}
	munmap(data, d->data_sz);
	free(rodata);
	if (err) {
		report_load_error(t, err, ran, log);
		free(log);
		return 1;
	}
	free(log);
	return map_counters(t) || fill_tgids(t);
}

void sched_tool_fini(struct sched_tool *t)
{
	const struct loader_desc *d = t->bpf.desc;
	int i;

	for (i = 0; d && t->bpf.link_fds && i < d->nr_progs; i++) {
		if (t->bpf.link_fds[i] >= 0)
			close(t->bpf.link_fds[i]);
	}
	for (i = 0; d && t->bpf.prog_fds && i < d->nr_progs; i++) {
		if (t->bpf.prog_fds[i] >= 0)
			close(t->bpf.prog_fds[i]);
	}
	for (i = 0; d && t->bpf.map_fds && i < d->nr_maps; i++) {
		if (t->bpf.map_fds[i] >= 0)
			close(t->bpf.map_fds[i]);
	}
	if (t->bpf.bss)
		munmap(t->bpf.bss, t->bpf.bss_len);
	free(t->bpf.link_fds);
	free(t->bpf.prog_fds);
	free(t->bpf.map_fds);
	memset(&t->bpf, 0, sizeof(t->bpf));
	sched_btf_free(&t->btf);
	for (i = 0; i < t->opts.nr_cgroups; i++)
		cgroup_target_close(&t->opts.cgroups[i]);
	for (i = 0; i < t->opts.nr_tgids; i++) {
		if (t->opts.pidfds[i] >= 0)
			close(t->opts.pidfds[i]);
		t->opts.pidfds[i] = -1;
	}
}

/* The loaded object as the run stage sees it. */

/*
 * Attaches each program by a link of its own: the hooks first, then the
 * others (the observers, which --observe=none does not load, and CMD's
 * tree tracking).
 * An observer running before the hooks would count what no policy decided
 * yet, e.g. a wakeup preemption of a target. sched_tool_fini() closes the
 * links, detaching all.
 */
static int obj_attach(void *ctx)
{
	struct sched_tool *t = ctx;
	const struct loader_desc *d = t->bpf.desc;
	int pass, i, fd;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < d->nr_progs; i++) {
			const struct loader_prog *p = &d->progs[i];
			bool hook = prog_hook(p);

			if (hook != !pass || !p->load)
				continue;
			fd = bpf_link_create(t->bpf.prog_fds[i], 0,
					     hook ? t->btf.attach_type :
						    BPF_TRACE_RAW_TP,
					     NULL);
			if (fd < 0) {
				sched_err("attaching %s: %s", p->name,
					  strerror(errno));
				return 1;
			}
			t->bpf.link_fds[i] = fd;
		}
	}
	return 0;
}

static int obj_add_tree(void *ctx, pid_t pid)
{
	return add_target(ctx, "tree_pids", pid);
}

static void obj_drop_pid(void *ctx, pid_t tgid)
{
	int fd = map_fd(ctx, "target_tgids");
	__u32 key = tgid;

	if (fd >= 0)
		bpf_map_delete_elem(fd, &key);
}

/*
 * The counters and the histogram, summed over the CPUs' entries of
 * counters[], read in our memory: no system call. Each count is one
 * aligned 8-byte word, read whole while the programs add to it.
 */
static int obj_read(void *ctx, __u64 *stats, __u64 *hist)
{
	struct sched_tool *t = ctx;
	const struct schedbpf_percpu *v =
		(const void *)((char *)t->bpf.bss + t->bpf.desc->counters_off);
	int ncpus = libbpf_num_possible_cpus(), cpu, i;

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

struct sched_backend sched_bpf_backend(struct sched_tool *t)
{
	return (struct sched_backend){
		.ctx = t,
		.add_tree = obj_add_tree,
		.drop_pid = obj_drop_pid,
		.attach = obj_attach,
		.read = obj_read,
	};
}
