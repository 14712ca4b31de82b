/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Starting the wrapped command: created stopped (blocked on a pipe) so the
 * tool can register it as a target and attach its programs, then released
 * to exec. With a cgroup it is created inside it by clone3(CLONE_INTO_CGROUP)
 * and never runs a moment outside. It is held by a pidfd, so a signal or a
 * wait can never reach another process that reused its PID, and it dies
 * with the tool (PR_SET_PDEATHSIG): it never runs on without the policy.
 */
#ifndef SCHEDBPF_LAUNCH_H
#define SCHEDBPF_LAUNCH_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Exit statuses of the shell convention, which the tools follow. */
#define EXIT_CMD_NOT_FOUND 127
#define EXIT_CMD_NOT_EXECUTABLE 126
#define EXIT_SIGNAL_BASE 128

struct child {
	pid_t pid;
	int pidfd;
	int go_fd; /* parent writes a byte: exec now */
	int err_fd; /* child writes errno if exec fails; EOF when it execs */
};

#define CHILD_INIT                                               \
	{                                                        \
		.pid = 0, .pidfd = -1, .go_fd = -1, .err_fd = -1 \
	}

/*
 * Finds file as execvp() would. Returns 0 with the path in buf, -ENOENT if
 * it is nowhere, or -EACCES if what was found is not executable.
 */
int cmd_resolve(const char *file, char *buf, size_t len);

/*
 * Creates the child, in the cgroup cgroup_fd if >= 0, blocked until
 * child_release(). It execs path with argv and the signal mask child_mask.
 * Returns 0 or -errno.
 */
int child_spawn(struct child *c, const char *path, char *const argv[],
		int cgroup_fd, const sigset_t *child_mask);

/* Lets it exec. Returns 0, or the exec's -errno (the child has exited). */
int child_release(struct child *c);

/* Sends sig to the child, if it has not been reaped. */
void child_signal(struct child *c, int sig);

/*
 * Reaps the child if it has exited (or waits for it when block). Returns
 * 1 with its wait status in *wstatus, 0 if it is still running, or -errno.
 */
int child_reap(struct child *c, bool block, int *wstatus);

/* Makes a child that was never released exit, and reaps it. */
void child_abort(struct child *c);

/*
 * A pid-valued field of /proc/PID/status ("Tgid", "PPid"), or -1 if the
 * process or the field does not exist.
 */
pid_t proc_status_pid(pid_t pid, const char *field);

/* A wait status as a shell would report it: the code, or 128+signal. */
int exit_status_of(int wstatus);

/* The signal that killed the child, or 0. */
int term_signal_of(int wstatus);

#endif /* SCHEDBPF_LAUNCH_H */
