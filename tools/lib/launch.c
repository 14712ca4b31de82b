// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/sched.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "launch.h"

static int check_exec(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode) || access(path, X_OK))
		return -EACCES;
	return 0;
}

int cmd_resolve(const char *file, char *buf, size_t len)
{
	const char *path, *dir, *end;
	int ret = -ENOENT, err;

	if (!*file)
		return -ENOENT;
	if (strchr(file, '/')) {
		if (snprintf(buf, len, "%s", file) >= (int)len)
			return -ENAMETOOLONG;
		return check_exec(buf);
	}
	path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (dir = path; dir; dir = *end ? end + 1 : NULL) {
		end = strchrnul(dir, ':');
		/* an empty PATH element means the current directory */
		if (snprintf(buf, len, "%.*s%s%s", (int)(end - dir), dir,
			     end == dir ? "" : "/", file) >= (int)len)
			continue;
		err = check_exec(buf);
		if (!err)
			return 0;
		/* like execvp: report EACCES if that is all we found */
		if (err == -EACCES)
			ret = err;
	}
	return ret;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* In the child: wait to be released, then exec; never returns. */
static void child_run(pid_t parent, int go_fd, int err_fd, const char *path,
		      char *const argv[], const sigset_t *mask)
{
	char go;
	int err;

	/*
	 * Die with the tool, whatever kills it: the policy goes with it. The
	 * tool may have died before the prctl(); then we have a new parent.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(EXIT_FAILURE);
	if (read(go_fd, &go, 1) != 1)
		_exit(EXIT_FAILURE);
	sigprocmask(SIG_SETMASK, mask, NULL);
	execv(path, argv);
	err = errno;
	if (write(err_fd, &err, sizeof(err)) < 0)
		_exit(EXIT_CMD_NOT_EXECUTABLE);
	_exit(err == ENOENT ? EXIT_CMD_NOT_FOUND : EXIT_CMD_NOT_EXECUTABLE);
}

int child_spawn(struct child *c, const char *path, char *const argv[],
		int cgroup_fd, const sigset_t *child_mask)
{
	struct clone_args args = { .exit_signal = SIGCHLD,
				   .flags = CLONE_PIDFD };
	pid_t parent = getpid();
	int go[2], err[2], pidfd = -1;
	long pid;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		int ret = -errno;

		close(go[0]);
		close(go[1]);
		return ret;
	}
	if (cgroup_fd >= 0) {
		args.flags |= CLONE_INTO_CGROUP;
		args.cgroup = (__u64)cgroup_fd;
	}
	args.pidfd = (__u64)(unsigned long)&pidfd;
	/* glibc has no clone3() wrapper; without CLONE_VM this is a fork */
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0) {
		close(go[1]);
		close(err[0]);
		child_run(parent, go[0], err[1], path, argv, child_mask);
	}
	close(go[0]);
	close(err[1]);
	if (pid < 0) {
		int ret = -errno;

		close(go[1]);
		close(err[0]);
		return ret;
	}
	c->pid = (pid_t)pid;
	c->pidfd = pidfd;
	c->go_fd = go[1];
	c->err_fd = err[0];
	return 0;
}

/* Takes a SIGPIPE raised by our own write back, if it is blocked. */
static void drop_sigpipe(void)
{
	struct timespec zero = { 0, 0 };
	sigset_t pipe, blocked;

	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	if (!sigprocmask(SIG_BLOCK, NULL, &blocked) &&
	    sigismember(&blocked, SIGPIPE))
		sigtimedwait(&pipe, NULL, &zero);
}

int child_release(struct child *c)
{
	char go = 1;
	int err = 0;
	ssize_t n;

	/*
	 * A child that died before its release makes this write fail with
	 * EPIPE, and raise a SIGPIPE that the tool, which takes SIGPIPE as
	 * "the reader of my output is gone", must not see.
	 */
	if (write(c->go_fd, &go, 1) != 1) {
		err = errno;
		if (err == EPIPE)
			drop_sigpipe();
	}
	close_fd(&c->go_fd);
	if (!err) {
		do {
			n = read(c->err_fd, &err, sizeof(err));
		} while (n < 0 && errno == EINTR);
		if (n != sizeof(err))
			err = 0;
	}
	close_fd(&c->err_fd);
	return -err;
}

void child_signal(struct child *c, int sig)
{
	if (c->pid <= 0)
		return;
	if (c->pidfd >= 0)
		pidfd_send_signal(c->pidfd, sig, NULL, 0);
	else
		kill(c->pid, sig);
}

int child_reap(struct child *c, bool block, int *wstatus)
{
	siginfo_t info = { .si_pid = 0 };
	int flags = WEXITED | (block ? 0 : WNOHANG);
	int ret;

	if (c->pid <= 0)
		return -ECHILD;
	do {
		if (c->pidfd >= 0)
			ret = waitid(P_PIDFD, c->pidfd, &info, flags);
		else
			ret = waitid(P_PID, c->pid, &info, flags);
	} while (ret && errno == EINTR);
	if (ret)
		return -errno;
	if (!info.si_pid)
		return 0;
	if (info.si_code == CLD_EXITED)
		*wstatus = W_EXITCODE(info.si_status, 0);
	else
		*wstatus = (info.si_status & 0x7f) |
			   (info.si_code == CLD_DUMPED ? WCOREFLAG : 0);
	c->pid = 0;
	close_fd(&c->pidfd);
	return 1;
}

void child_abort(struct child *c)
{
	int wstatus;

	close_fd(&c->go_fd);
	close_fd(&c->err_fd);
	if (c->pid > 0)
		child_reap(c, true, &wstatus);
	c->pid = 0;
	close_fd(&c->pidfd);
}

pid_t proc_status_pid(pid_t pid, const char *field)
{
	char path[64], line[256];
	size_t len = strlen(field);
	pid_t value = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, field, len) && line[len] == ':' &&
		    sscanf(line + len + 1, "%d", &value) == 1)
			break;
	}
	fclose(f);
	return value;
}

int exit_status_of(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return EXIT_SIGNAL_BASE + WTERMSIG(wstatus);
	return EXIT_FAILURE;
}

int term_signal_of(int wstatus)
{
	return WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
}
