// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run: attach, start CMD, print every interval, and stop as a wrapper
 * must (timeout(1) and sudo are the models):
 * - CMD never outlives the tool: it dies with it (launch.c), and whatever
 *   makes the tool stop early (--duration, SIGHUP, its output gone) stops
 *   CMD, with SIGKILL after --kill-after if it will not stop;
 * - a signal for CMD reaches it exactly once: it is passed on unless it
 *   reached CMD already (a terminal's, when CMD shares our process group);
 * - CMD is held by a pidfd and each -p process too, so nothing is waited
 *   for or signalled by a PID that may have been reused;
 * - the tool exits with CMD's status, or dies of the signal that killed it.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>

#include "parse.h"
#include "tool.h"

/* fds polled: signals, CMD, each -p process (by its index >= 0) */
#define MAX_POLL (2 + SCHEDBPF_MAX_PIDS)
#define POLL_SIGNALS (-1)
#define POLL_CMD (-2)
/* how far up /proc's parent links a signal's sender is looked for */
#define MAX_TREE_DEPTH 64

struct run {
	struct sched_tool *t;
	const struct sched_backend *b;
	struct report rep;
	struct child c;
	bool wrapped;
	int sigfd;
	int pids_left;
	/* CMD's exit */
	int wstatus;
	bool cmd_done;
	/* CMD was asked to stop by the tool: SIGKILL at kill_at (0: never) */
	__u64 kill_at;
	/* the error of writing our output, after which nothing is printed */
	int out_err;
	bool sigpipe_ignored;
};

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * NSEC_PER_SEC + (__u64)ts.tv_nsec;
}

/* pid is root or one of its descendants. */
static bool in_tree(pid_t pid, pid_t root)
{
	int depth;

	for (depth = 0; depth < MAX_TREE_DEPTH && pid > 1; depth++) {
		if (pid == root)
			return true;
		pid = proc_status_pid(pid, "PPid");
	}
	return false;
}

/*
 * Whether a signal the tool received has reached CMD too. Only if CMD is
 * in our process group: then a terminal's signal (SI_KERNEL) went to the
 * whole group, and so may a kill(0, sig) from inside CMD's own tree. A
 * kill(1) of the tool's PID, or any signal while CMD has a group of its
 * own (timeout(1), a shell with job control), reached only us.
 */
static bool reached_cmd(const struct run *r, const struct signalfd_siginfo *si)
{
	if (getpgid(r->c.pid) != getpgrp())
		return false;
	if (si->ssi_code == SI_KERNEL)
		return true;
	return si->ssi_code == SI_USER && in_tree((pid_t)si->ssi_pid, r->c.pid);
}

/* The tool stops CMD itself: sig now, SIGKILL after --kill-after. */
static void stop_cmd(struct run *r, int sig)
{
	child_signal(&r->c, sig);
	if (!r->kill_at)
		r->kill_at = now_ns() + r->t->opts.kill_after_ns;
}

/* Our output failed: nothing more is printed, and the run stops. */
static void output_failed(struct run *r, int err)
{
	if (!r->out_err)
		r->out_err = err;
}

static int read_counters(struct run *r, __u64 *stats, __u64 *hist)
{
	return r->b->read(r->b->ctx, stats, hist);
}

/* Returns true when the run must stop. */
static bool on_signal(struct run *r)
{
	struct signalfd_siginfo si;
	ssize_t n;

	n = read(r->sigfd, &si, sizeof(si));
	if (n != sizeof(si))
		return false;
	if (si.ssi_signo == SIGPIPE) {
		output_failed(r, -EPIPE);
		return true;
	}
	if (!r->wrapped || r->cmd_done)
		return true;
	if (!reached_cmd(r, &si))
		child_signal(&r->c, (int)si.ssi_signo);
	/* a hang-up is the tool's to end: CMD must not outlive it */
	if (si.ssi_signo == SIGHUP && !r->kill_at)
		r->kill_at = now_ns() + r->t->opts.kill_after_ns;
	return false;
}

static void on_cmd_exit(struct run *r)
{
	int ret = child_reap(&r->c, false, &r->wstatus);

	if (ret > 0 || ret == -ECHILD) {
		r->cmd_done = true;
		r->kill_at = 0;
	}
}

/* A -p process exited: its PID is free for another; forget it. */
static void on_pid_exit(struct run *r, int i)
{
	struct sched_opts *o = &r->t->opts;

	r->b->drop_pid(r->b->ctx, o->tgids[i]);
	close(o->pidfds[i]);
	o->pidfds[i] = -1;
	r->pids_left--;
}

/* Only -p processes are targeted, and every one has exited. */
static bool no_target_left(const struct run *r)
{
	const struct sched_opts *o = &r->t->opts;

	return o->nr_tgids && !r->pids_left && !o->nr_cgroups && !o->all &&
	       !r->wrapped;
}

static int fill_poll(struct run *r, struct pollfd *fds, int *idx)
{
	const struct sched_opts *o = &r->t->opts;
	int i, n = 0;

	fds[n++] = (struct pollfd){ .fd = r->sigfd, .events = POLLIN };
	idx[0] = POLL_SIGNALS;
	if (r->wrapped && !r->cmd_done) {
		idx[n] = POLL_CMD;
		fds[n++] =
			(struct pollfd){ .fd = r->c.pidfd, .events = POLLIN };
	}
	for (i = 0; i < o->nr_tgids; i++) {
		if (o->pidfds[i] < 0)
			continue;
		idx[n] = i;
		fds[n++] =
			(struct pollfd){ .fd = o->pidfds[i], .events = POLLIN };
	}
	return n;
}

static __u64 earliest(__u64 a, __u64 b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return a < b ? a : b;
}

/*
 * Until CMD exits, or the tool is told to stop: a row every interval.
 * Returns 0, or 1 if the counters could not be read.
 */
static int loop(struct run *r)
{
	const struct sched_opts *o = &r->t->opts;
	__u64 next = now_ns() + o->interval_ns, end = 0, now, wake;
	__u64 cur[SCHEDBPF_NR_STATS];
	struct pollfd fds[MAX_POLL];
	int idx[MAX_POLL];
	struct timespec timeout;
	bool stopping = false, timed;
	int i, n, ret;

	if (o->duration_ns)
		end = now_ns() + o->duration_ns;
	for (;;) {
		if (r->wrapped && r->cmd_done)
			return 0;
		if (no_target_left(r))
			return 0;
		n = fill_poll(r, fds, idx);
		now = now_ns();
		wake = earliest(stopping ? 0 : next, earliest(end, r->kill_at));
		/* nothing timed left (CMD killed): wait for its exit alone */
		timed = wake != 0;
		wake = wake > now ? wake - now : 0;
		timeout.tv_sec = (time_t)(wake / NSEC_PER_SEC);
		timeout.tv_nsec = (long)(wake % NSEC_PER_SEC);
		ret = ppoll(fds, n, timed ? &timeout : NULL, NULL);
		if (ret < 0 && errno != EINTR) {
			sched_err("waiting: %s", strerror(errno));
			return 1;
		}
		for (i = 0; ret > 0 && i < n; i++) {
			if (!fds[i].revents)
				continue;
			if (idx[i] == POLL_SIGNALS) {
				if (on_signal(r) && !stopping) {
					stopping = true;
					if (!r->wrapped || r->cmd_done)
						return 0;
					if (r->out_err)
						stop_cmd(r, SIGTERM);
				}
			} else if (idx[i] == POLL_CMD) {
				on_cmd_exit(r);
			} else {
				on_pid_exit(r, idx[i]);
			}
		}
		now = now_ns();
		if (!stopping && now >= next) {
			if (read_counters(r, cur, NULL))
				return 1;
			ret = r->out_err ? 0 : report_interval(&r->rep, cur);
			if (ret) {
				output_failed(r, ret);
				stopping = true;
				if (!r->wrapped)
					return 0;
				stop_cmd(r, SIGTERM);
			}
			while (next <= now)
				next += o->interval_ns;
		}
		if (end && now >= end) {
			end = 0;
			stopping = true;
			if (!r->wrapped)
				return 0;
			stop_cmd(r, SIGTERM);
		}
		if (r->kill_at && now >= r->kill_at) {
			child_signal(&r->c, SIGKILL);
			r->kill_at = 0;
		}
	}
}

/*
 * The loop ended without CMD's exit (an error, or output that failed at
 * once): CMD is stopped and waited for all the same, never left behind.
 */
static void finish_cmd(struct run *r)
{
	struct pollfd pfd = { .fd = r->c.pidfd, .events = POLLIN };
	__u64 now;
	int ms;

	if (!r->wrapped || r->cmd_done)
		return;
	if (!r->kill_at)
		stop_cmd(r, SIGTERM);
	now = now_ns();
	ms = r->kill_at > now ? (int)((r->kill_at - now) / NSEC_PER_MSEC) : 0;
	if (poll(&pfd, 1, ms) <= 0)
		child_signal(&r->c, SIGKILL);
	if (child_reap(&r->c, true, &r->wstatus) > 0)
		r->cmd_done = true;
}

static int start_child(struct run *r, const sigset_t *orig_mask)
{
	const struct sched_opts *o = &r->t->opts;
	int err;

	err = child_spawn(&r->c, o->cmd_path, o->cmd,
			  o->nr_cgroups ? o->cgroups[0].fd : -1, orig_mask);
	if (err) {
		if (o->nr_cgroups)
			sched_err("starting %s in %s: %s", o->cmd[0],
				  o->cgroups[0].path, strerror(-err));
		else
			sched_err("starting %s: %s", o->cmd[0], strerror(-err));
		return 1;
	}
	r->wrapped = true;
	if (!sched_tool_cfg(r->t).track_tree)
		return 0;
	if (r->b->add_tree(r->b->ctx, r->c.pid)) {
		child_abort(&r->c);
		return 1;
	}
	return 0;
}

/*
 * The status the run ends with, after CMD (if any) has been waited for,
 * and the signal to die of.
 */
static int final_status(struct run *r, int status)
{
	struct sched_tool *t = r->t;

	if (r->out_err) {
		if (r->out_err == -EPIPE && !r->sigpipe_ignored) {
			t->die_signal = SIGPIPE;
		} else {
			sched_err("writing output: %s", strerror(-r->out_err));
		}
		return 1;
	}
	if (status || !r->cmd_done)
		return status;
	t->die_signal = term_signal_of(r->wstatus);
	return exit_status_of(r->wstatus);
}

/*
 * The signals that stop a run, or are passed to CMD, read from a signalfd.
 * SIGPIPE is among them: a write to a closed pipe fails with EPIPE, and
 * both mean "stop".
 */
static void stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGPIPE);
}

void sched_block_signals(struct sched_tool *t)
{
	sigset_t set;

	stop_signals(&set);
	sigprocmask(SIG_BLOCK, &set, &t->orig_mask);
	t->signals_blocked = true;
}

int sched_run(struct sched_tool *t, const struct sched_backend *b)
{
	struct run r = { .t = t, .b = b, .c = CHILD_INIT, .sigfd = -1 };
	__u64 v[SCHEDBPF_NR_STATS], hist[SCHEDBPF_LAT_SLOTS];
	int status = 0, wstatus, err, cmd_status;
	const sigset_t *orig = &t->orig_mask;
	struct sigaction old;
	sigset_t set;

	/*
	 * An inherited SIGCHLD=SIG_IGN would have the kernel reap CMD and
	 * lose its status: CMD is waited for as a child should be.
	 */
	signal(SIGCHLD, SIG_DFL);
	sigaction(SIGPIPE, NULL, &old);
	r.sigpipe_ignored = old.sa_handler == SIG_IGN;

	/* blocked since sched_block_signals(): one sent meanwhile is pending */
	if (!t->signals_blocked)
		sched_block_signals(t);
	stop_signals(&set);
	r.sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (r.sigfd < 0) {
		sched_err("signalfd: %s", strerror(errno));
		status = 1;
		goto out;
	}
	/* one without a pidfd (a kernel before 5.3) is never seen to exit */
	r.pids_left = t->opts.nr_tgids;
	if (report_open(&r.rep, t)) {
		status = 1;
		goto out;
	}

	if (t->opts.cmd && start_child(&r, orig)) {
		status = 1;
		goto out;
	}
	if (b->attach(b->ctx)) {
		child_abort(&r.c);
		status = 1;
		goto out;
	}
	if (r.wrapped) {
		err = child_release(&r.c);
		if (err) {
			sched_err("%s: %s", t->opts.cmd[0], strerror(-err));
			child_reap(&r.c, true, &wstatus);
			status = exit_status_of(wstatus);
			goto out;
		}
	}
	err = report_begin(&r.rep, t);
	if (err) {
		output_failed(&r, err);
		if (r.wrapped)
			stop_cmd(&r, SIGTERM);
	}
	if (!r.out_err)
		status = loop(&r);
	finish_cmd(&r);
	if (read_counters(&r, v, hist)) {
		status = status ?: 1;
	} else if (!r.out_err) {
		cmd_status = exit_status_of(r.wstatus);
		err = report_end(&r.rep, v, hist,
				 r.wrapped ? &cmd_status : NULL);
		if (err)
			output_failed(&r, err);
	}
	err = report_close(&r.rep);
	if (err)
		output_failed(&r, err);
	status = final_status(&r, status);
out:
	report_close(&r.rep);
	if (r.sigfd >= 0)
		close(r.sigfd);
	sigprocmask(SIG_SETMASK, orig, NULL);
	return status;
}

void sched_die_of(int sig)
{
	struct rlimit no_core = { 0, 0 };
	sigset_t set;

	/* CMD may have dumped core; the tool has nothing to add */
	setrlimit(RLIMIT_CORE, &no_core);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}
