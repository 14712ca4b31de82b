// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "cgroup.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape_octal(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
					(s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

int cgroup2_mount(const char *mountinfo, char *buf, size_t len)
{
	char *line = NULL;
	size_t cap = 0;
	int ret = -ENOENT;
	FILE *f;

	f = fopen(mountinfo, "re");
	if (!f)
		return -errno;
	/* "36 35 0:30 / /sys/fs/cgroup rw,... shared:9 - cgroup2 cgroup2 rw" */
	while (getline(&line, &cap, f) > 0) {
		char *sep = strstr(line, " - "), *mnt, *save;
		int field;

		if (!sep || strncmp(sep + 3, "cgroup2 ", 8))
			continue;
		mnt = strtok_r(line, " ", &save);
		for (field = 1; mnt && field < 5; field++)
			mnt = strtok_r(NULL, " ", &save);
		if (!mnt)
			continue;
		unescape_octal(mnt);
		if (strlen(mnt) >= len) {
			ret = -ENAMETOOLONG;
			break;
		}
		strcpy(buf, mnt);
		ret = 0;
		break;
	}
	free(line);
	fclose(f);
	return ret;
}

/* ".", "..", "./x", "../x": what a shell user means relative to here. */
static bool dot_relative(const char *arg)
{
	if (arg[0] != '.')
		return false;
	if (arg[1] == '\0' || arg[1] == '/')
		return true;
	return arg[1] == '.' && (arg[2] == '\0' || arg[2] == '/');
}

/* Max depth cgroup_level() walks up: the kernel's own limit is INT_MAX. */
#define CGROUP_LEVEL_MAX 4096

/*
 * How many ".." steps from the cgroup2 directory fd stay on cgroup2: its
 * level below the root of its mount. -1 with errno set on error.
 */
static int cgroup_level(int fd)
{
	struct stat st, pst;
	struct statfs sfs;
	int level = 0, cur, parent;

	cur = dup(fd);
	if (cur < 0 || fstat(cur, &st))
		goto fail;
	while (level < CGROUP_LEVEL_MAX) {
		parent = openat(cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (parent < 0)
			goto fail;
		if (fstatfs(parent, &sfs) || fstat(parent, &pst)) {
			close(parent);
			goto fail;
		}
		if (sfs.f_type != CGROUP2_SUPER_MAGIC ||
		    (pst.st_dev == st.st_dev && pst.st_ino == st.st_ino)) {
			close(parent);
			break;
		}
		close(cur);
		cur = parent;
		st = pst;
		level++;
	}
	close(cur);
	return level;
fail:
	if (cur >= 0)
		close(cur);
	return -1;
}

/*
 * Is the cpu controller on for the cgroup at dirfd (its cgroup.controllers
 * lists cpu), so that it is a task group of its own? The root always is.
 */
static bool cgroup_has_cpu(int dirfd)
{
	char buf[256], *tok, *save;
	ssize_t n;
	int fd;

	fd = openat(dirfd, "cgroup.controllers", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (tok = strtok_r(buf, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		if (!strcmp(tok, "cpu"))
			return true;
	}
	return false;
}

int cgroup_resolve(const char *mount, const char *arg,
		   struct cgroup_target *out, char *err, size_t errlen)
{
	char path[PATH_MAX], link[64];
	struct statfs sfs;
	struct stat st;
	ssize_t n;
	int fd;

	if (!*arg) {
		snprintf(err, errlen, "empty path");
		return -1;
	}
	if (arg[0] == '/' || dot_relative(arg)) {
		if (snprintf(path, sizeof(path), "%s", arg) >=
		    (int)sizeof(path))
			goto too_long;
	} else {
		if (!mount) {
			snprintf(err, errlen,
				 "no cgroup2 mount to resolve a relative path");
			return -1;
		}
		if (snprintf(path, sizeof(path), "%s/%s", mount, arg) >=
		    (int)sizeof(path))
			goto too_long;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s",
			 errno == ENOTDIR ? "not a directory" :
					    strerror(errno));
		return -1;
	}
	if (fstatfs(fd, &sfs) || fstat(fd, &st)) {
		snprintf(err, errlen, "%s", strerror(errno));
		goto fail;
	}
	if (sfs.f_type != CGROUP2_SUPER_MAGIC) {
		if (mount)
			snprintf(err, errlen,
				 "not on cgroup2 (cgroup2 is mounted at %s)",
				 mount);
		else
			snprintf(err, errlen,
				 "not on cgroup2 (no cgroup2 is mounted)");
		goto fail;
	}
	/* the canonical path of what was opened, not of what was named */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, out->path, sizeof(out->path) - 1);
	if (n < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		goto fail;
	}
	out->path[n] = '\0';
	n = cgroup_level(fd);
	if (n < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		goto fail;
	}
	out->level = n;
	out->id = st.st_ino;
	out->fd = fd;
	out->root = mount && !strcmp(out->path, mount);
	out->own_tg = out->root || cgroup_has_cpu(fd);
	return 0;

fail:
	close(fd);
	return -1;
too_long:
	snprintf(err, errlen, "%s", strerror(ENAMETOOLONG));
	return -1;
}

void cgroup_target_close(struct cgroup_target *cg)
{
	if (cg->fd >= 0)
		close(cg->fd);
	cg->fd = -1;
}
