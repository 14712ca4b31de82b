/* SPDX-License-Identifier: GPL-2.0-only */
/* Finding the cgroup2 mount and resolving -c/--cgroup arguments. */
#ifndef SCHEDBPF_CGROUP_H
#define SCHEDBPF_CGROUP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#define MOUNTINFO_PATH "/proc/self/mountinfo"

struct cgroup_target {
	/* canonical absolute path */
	char path[PATH_MAX];
	/* cgroup id: the directory's inode number on cgroup2 */
	__u64 id;
	/*
	 * its depth below the root of the cgroup2 mount it is on (the
	 * kernel's cgroup->level when that mount shows the whole hierarchy,
	 * as outside a cgroup namespace)
	 */
	__u32 level;
	/* O_RDONLY directory fd, for clone3(CLONE_INTO_CGROUP) */
	int fd;
	/* the cgroup2 mount's root: every task */
	bool root;
	/*
	 * the cpu controller is on for it (cgroup.controllers lists cpu): a
	 * task group of its own, whose runqueues its tasks queue on; read
	 * once, when resolved
	 */
	bool own_tg;
};

/*
 * Mount point of the first cgroup2 file system in a mountinfo file
 * (MOUNTINFO_PATH unless testing). Returns 0, -ENOENT when none is mounted,
 * or another -errno.
 */
int cgroup2_mount(const char *mountinfo, char *buf, size_t len);

/*
 * Resolves arg to an open cgroup2 directory: absolute; relative to the
 * current directory if it is . or .. or starts with ./ or ../ (as bpftool
 * takes paths); else relative to mount. The checks are made on the opened
 * directory, so what is checked is what is used. Returns 0 or -1 with the
 * reason in err.
 */
int cgroup_resolve(const char *mount, const char *arg,
		   struct cgroup_target *out, char *err, size_t errlen);

void cgroup_target_close(struct cgroup_target *cg);

#endif /* SCHEDBPF_CGROUP_H */
