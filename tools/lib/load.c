// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loading the tool's programs by their light skeleton (skel.h), attaching
 * them, and reading their counters back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "tool.h"

/*
 * What a kernel without the series needs, for an installed tool too: the
 * package that has one (schedbpf's make kernel-deb builds it).
 */
#define NEED_KERNEL \
	"install linux-image-*-schedbpf (make kernel-deb) and boot it"

int sched_tool_init(struct sched_tool *t)
{
	struct utsname u;

	/* the series' kill switch: there with the hooks, and only then */
	if (access(SCHED_KERNEL_MARK, F_OK)) {
		uname(&u);
		sched_err("kernel %s has no scheduler BPF (no %s); " NEED_KERNEL,
			  u.release, SCHED_KERNEL_MARK);
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

/*
 * The load failed with err: EPERM is privilege (without CAP_BPF the
 * loader's first map is refused so); anything else is a program or map
 * the kernel refused, and the verifier's log, with -v, says why.
 */
static void report_load_error(const struct sched_tool *t, int err,
			      const char *log)
{
	if (err == -EPERM) {
		sched_err("loading BPF programs: %s (needs root, or CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN)",
			  strerror(-err));
		return;
	}
	if (log && log[0])
		fputs(log, stderr);
	sched_err("loading BPF programs: %s%s", strerror(-err),
		  t->opts.verbose ? "" : " (-v shows the verifier's log)");
}

/* The verifier's log of a refused program, for -v */
#define VERIFIER_LOG_SIZE (16 << 20)

/*
 * Opens the skeleton, fills its .rodata and sizes, and runs its loader;
 * with a log, the verifier's for the program it refused. 0, or -errno,
 * and then holds nothing.
 */
static int load_skel(struct sched_tool *t, char *log, __u32 log_size)
{
	struct sched_skel *k = &t->skel;
	int err;

	err = t->open(t, t->opts.observe != SCHEDBPF_OBSERVE_NONE, k);
	if (err)
		return err;
	*k->cfg = sched_tool_cfg(t);
	/* below full, no marks of preempted targets: no room for them */
	if (t->opts.observe < SCHEDBPF_OBSERVE_FULL)
		k->preempted->max_entries = 1;
	if (log) {
		k->ctx->log_level = 1;
		k->ctx->log_size = log_size;
		k->ctx->log_buf = (long)log;
	}
	err = k->load(k->skel);
	if (err) {
		k->destroy(k->skel);
		memset(k, 0, sizeof(*k));
	}
	return err;
}

/* Adds pid to a map of targets: 0, or 1 having said why. */
static int add_target(const struct bpf_map_desc *map, __u32 pid)
{
	__u8 one = 1;
	int err;

	err = skel_map_update_elem(map->map_fd, &pid, &one, BPF_ANY);
	if (err < 0) {
		sched_err("adding pid %u to the targets: %s", pid,
			  strerror(errno));
		return 1;
	}
	return 0;
}

int sched_tool_load(struct sched_tool *t)
{
	char *log = NULL;
	int i, err;

	err = load_skel(t, NULL, 0);
	if (err && err != -EPERM && t->opts.verbose) {
		/* again, for the log: malloc's pages are touched as written */
		log = malloc(VERIFIER_LOG_SIZE);
		if (log) {
			log[0] = '\0';
			err = load_skel(t, log, VERIFIER_LOG_SIZE);
		}
	}
	if (err) {
		report_load_error(t, err, log);
		free(log);
		return 1;
	}
	free(log);
	for (i = 0; i < t->opts.nr_tgids; i++) {
		if (add_target(t->skel.target_tgids, t->opts.tgids[i]))
			return 1;
	}
	return 0;
}

void sched_tool_fini(struct sched_tool *t)
{
	int i;

	/* closes the links, the programs and the maps: detaches all */
	if (t->skel.skel)
		t->skel.destroy(t->skel.skel);
	memset(&t->skel, 0, sizeof(t->skel));
	for (i = 0; i < t->opts.nr_cgroups; i++)
		cgroup_target_close(&t->opts.cgroups[i]);
	for (i = 0; i < t->opts.nr_tgids; i++) {
		if (t->opts.pidfds[i] >= 0)
			close(t->opts.pidfds[i]);
		t->opts.pidfds[i] = -1;
	}
}

/* The loaded object as the run stage sees it. */

/* The type of the loaded program fd: a BPF_PROG_TYPE_*, or -errno. */
static int prog_type(int fd)
{
	struct bpf_prog_info info = {};
	union bpf_attr attr = {};

	attr.info.bpf_fd = fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (long)&info;
	if (skel_sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)) < 0)
		return -errno;
	return info.type;
}

/*
 * Attaches each program by a link of its own, in the skeleton's links
 * (so that its destroy detaches them): the hooks first, then the others
 * (the observers, which --observe=none does not load, and CMD's tree
 * tracking), tp_btf programs all. An observer running before the hooks
 * would count what no policy decided yet, e.g. a wakeup preemption of a
 * target.
 */
static int obj_attach(void *ctx)
{
	struct sched_tool *t = ctx;
	struct sched_skel *k = &t->skel;
	int i, fd, type;

	/* the hooks, found by their type */
	for (i = 0; i < k->nr_progs; i++) {
		type = prog_type(k->progs[i].prog_fd);
		if (type < 0) {
			sched_err("attaching BPF programs: %s", strerror(-type));
			return 1;
		}
		if (type != BPF_PROG_TYPE_SCHED)
			continue;
		fd = skel_link_create(k->progs[i].prog_fd, 0, BPF_SCHED);
		if (fd < 0)
			goto fail;
		k->links[i] = fd;
	}
	/* then the rest, which have no link yet (the skeleton's links start 0) */
	for (i = 0; i < k->nr_progs; i++) {
		if (k->links[i])
			continue;
		fd = skel_raw_tracepoint_open(NULL, k->progs[i].prog_fd);
		if (fd < 0)
			goto fail;
		k->links[i] = fd;
	}
	return 0;
fail:
	sched_err("attaching BPF programs: %s", strerror(errno));
	return 1;
}

static int obj_add_tree(void *ctx, pid_t pid)
{
	return add_target(((struct sched_tool *)ctx)->skel.tree_pids, pid);
}

static void obj_drop_pid(void *ctx, pid_t tgid)
{
	struct sched_tool *t = ctx;
	__u32 key = tgid;

	skel_map_delete_elem(t->skel.target_tgids->map_fd, &key);
}

/* The CPUs the kernel may ever bring up (/sys/.../possible: "0-N"). */
static int possible_cpus(void)
{
	static int n;
	unsigned int lo, hi;
	FILE *f;

	if (n)
		return n;
	n = SCHEDBPF_MAX_CPUS;
	f = fopen("/sys/devices/system/cpu/possible", "re");
	if (f) {
		/* one range, "0-N" or "0", on every kernel these tools run on */
		switch (fscanf(f, "%u-%u", &lo, &hi)) {
		case 1:
			hi = lo;
			/* fall through */
		case 2:
			if (hi < SCHEDBPF_MAX_CPUS)
				n = hi + 1;
		}
		fclose(f);
	}
	return n;
}

/*
 * The counters and the histogram, summed over the CPUs' entries of
 * counters[] in .bss, which the skeleton maps into our memory: no system
 * call. Each count is one aligned 8-byte word, read whole while the
 * programs add to it.
 */
static int obj_read(void *ctx, __u64 *stats, __u64 *hist)
{
	struct sched_tool *t = ctx;
	const struct schedbpf_percpu *v =
		(const void *)((char *)*t->skel.bss + t->skel.counters_off);
	int ncpus = possible_cpus(), cpu, i;

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
