// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/lib on the host, as TAP. With --json-sample it prints
 * one interval and one summary JSON line instead, for json.t to check.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "cgroup.h"
#include "launch.h"
#include "parse.h"
#include "report.h"
#include "tap.h"
#include "tool.h"

static char tmpdir[] = "/tmp/schedbpf-unit-XXXXXX";

static const char *tmpfile_with(const char *name, const char *content)
{
	static char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (!f)
		return path;
	fputs(content, f);
	fclose(f);
	return path;
}

/* --- numbers --------------------------------------------------------- */

static void u64_ok(const char *s, __u64 min, __u64 max, __u64 want)
{
	char err[PARSE_ERR_LEN] = "";
	__u64 v = 0;
	int ret = parse_u64(s, min, max, &v, err, sizeof(err));

	ok(!ret && v == want, "parse_u64 '%s' = %llu (got %llu, %s)", s, want,
	   v, err);
}

static void u64_bad(const char *s, __u64 min, __u64 max, const char *why)
{
	char err[PARSE_ERR_LEN] = "";
	__u64 v = 12345;
	int ret = parse_u64(s, min, max, &v, err, sizeof(err));

	ok(ret == -1 && strstr(err, why) && v == 12345,
	   "parse_u64 '%s' rejected: '%s' (got '%s')", s, why, err);
}

static void test_numbers(void)
{
	u64_ok("0", 0, 10, 0);
	u64_ok("42", 1, 100, 42);
	u64_ok("007", 1, 100, 7);
	u64_ok("18446744073709551615", 0, ~0ULL, ~0ULL);
	u64_bad("", 0, 10, "empty");
	u64_bad("-1", 0, 10, "negative");
	u64_bad("+1", 0, 10, "not a number");
	u64_bad(" 1", 0, 10, "not a number");
	u64_bad("abc", 0, 10, "not a number");
	u64_bad("1 ", 0, 10, "trailing junk ' '");
	u64_bad("12abc", 0, 100, "trailing junk 'abc'");
	u64_bad("0x10", 0, 100, "trailing junk 'x10'");
	u64_bad("1.5", 0, 100, "trailing junk '.5'");
	u64_bad("18446744073709551616", 0, ~0ULL, "too large");
	u64_bad("99999999999999999999999", 0, 10, "too large");
	u64_bad("0", 1, 10, "out of range (1 to 10)");
	u64_bad("11", 1, 10, "out of range (1 to 10)");
}

/* --- durations ------------------------------------------------------- */

static void dur_ok(const char *s, __u64 want)
{
	char err[PARSE_ERR_LEN] = "";
	__u64 v = 0;
	int ret = parse_duration(s, 0, ~0ULL, &v, err, sizeof(err));

	ok(!ret && v == want, "duration '%s' = %llu ns (got %llu, %s)", s, want,
	   v, err);
}

static void dur_bad(const char *s, __u64 min, __u64 max, const char *why)
{
	char err[PARSE_ERR_LEN] = "";
	__u64 v = 12345;
	int ret = parse_duration(s, min, max, &v, err, sizeof(err));

	ok(ret == -1 && strstr(err, why) && v == 12345,
	   "duration '%s' rejected: '%s' (got '%s')", s, why, err);
}

static void test_durations(void)
{
	char buf[32];

	dur_ok("1ns", 1);
	dur_ok("500us", 500000);
	dur_ok("10ms", 10000000);
	dur_ok("2s", 2000000000);
	dur_ok("1.5s", 1500000000);
	dur_ok("0.25ms", 250000);
	dur_ok("0.5us", 500);
	dur_ok("2m", 120000000000ULL);
	dur_ok("1h", 3600000000000ULL);
	dur_ok("0s", 0);
	dur_ok("1.000000001s", 1000000001);
	dur_ok("18446744073709551615ns", ~0ULL);
	dur_bad("", 0, ~0ULL, "empty");
	dur_bad("-1s", 0, ~0ULL, "negative");
	dur_bad("+1s", 0, ~0ULL, "not a number");
	dur_bad(".5s", 0, ~0ULL, "not a number");
	dur_bad("s", 0, ~0ULL, "not a number");
	dur_bad("junk", 0, ~0ULL, "not a number");
	dur_bad("10", 0, ~0ULL, "missing unit");
	dur_bad("1.", 0, ~0ULL, "no digits after '.'");
	dur_bad("1.s", 0, ~0ULL, "no digits after '.'");
	dur_bad("10xs", 0, ~0ULL, "unknown unit 'xs'");
	dur_bad("10 ms", 0, ~0ULL, "unknown unit ' ms'");
	dur_bad("10ms ", 0, ~0ULL, "unknown unit 'ms '");
	dur_bad("10MS", 0, ~0ULL, "unknown unit 'MS'");
	dur_bad("10sec", 0, ~0ULL, "unknown unit 'sec'");
	dur_bad("1.5ns", 0, ~0ULL, "finer than a nanosecond");
	dur_bad("1.0000000001s", 0, ~0ULL, "more than 9 decimal places");
	dur_bad("18446744073709551616ns", 0, ~0ULL, "out of range");
	dur_bad("18446744073709551615s", 0, ~0ULL, "out of range");
	dur_bad("99999999999999999999999h", 0, ~0ULL, "out of range");
	dur_bad("500us", NSEC_PER_MSEC, 10 * NSEC_PER_SEC,
		"out of range (1ms to 10s)");
	dur_bad("10.5s", NSEC_PER_MSEC, 10 * NSEC_PER_SEC,
		"out of range (1ms to 10s)");

	ok(!strcmp(format_duration(100 * NSEC_PER_MSEC, buf, sizeof(buf)),
		   "100ms"),
	   "format 100ms (%s)", buf);
	ok(!strcmp(format_duration(1500 * NSEC_PER_USEC, buf, sizeof(buf)),
		   "1500us"),
	   "format 1500us (%s)", buf);
	ok(!strcmp(format_duration(120 * NSEC_PER_SEC, buf, sizeof(buf)), "2m"),
	   "format 2m (%s)", buf);
	ok(!strcmp(format_duration(0, buf, sizeof(buf)), "0ns"),
	   "format 0ns (%s)", buf);
}

/* --- cgroups --------------------------------------------------------- */

static void test_mountinfo(void)
{
	char mnt[PATH_MAX];
	const char *p;
	int ret;

	p = tmpfile_with(
		"mi1",
		"22 1 0:21 / /proc rw,nosuid - proc proc rw\n"
		"30 25 0:26 / /sys/fs/cgroup/cpu rw shared:11 - cgroup cgroup rw,cpu\n"
		"31 25 0:27 / /sys/fs/cgroup/my\\040cg\\134x rw shared:12 master:3 - cgroup2 cgroup2 rw\n"
		"32 25 0:28 / /second rw - cgroup2 cgroup2 rw\n");
	ret = cgroup2_mount(p, mnt, sizeof(mnt));
	ok(!ret && !strcmp(mnt, "/sys/fs/cgroup/my cg\\x"),
	   "mountinfo: first cgroup2, optional fields skipped, \\ooo unescaped (%d, '%s')",
	   ret, mnt);

	p = tmpfile_with(
		"mi2", "30 25 0:26 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw\n"
		       "40 25 0:26 / /cgroup2fake rw - tmpfs cgroup2 rw\n");
	ok(cgroup2_mount(p, mnt, sizeof(mnt)) == -ENOENT,
	   "mountinfo without cgroup2 (v1 and a source named cgroup2): -ENOENT");

	ok(cgroup2_mount("/nonexistent/mountinfo", mnt, sizeof(mnt)) == -ENOENT,
	   "missing mountinfo: -ENOENT");

	p = tmpfile_with(
		"mi3",
		"31 25 0:27 / /a/very/long/mount rw - cgroup2 cgroup2 rw\n");
	ok(cgroup2_mount(p, mnt, 8) == -ENAMETOOLONG,
	   "mount point longer than the buffer: -ENAMETOOLONG");
}

static void resolve_bad(const char *mount, const char *arg, const char *why)
{
	struct cgroup_target cg = { .fd = -1 };
	char err[PATH_MAX + 64] = "";
	int ret = cgroup_resolve(mount, arg, &cg, err, sizeof(err));

	ok(ret == -1 && strstr(err, why) && cg.fd == -1,
	   "cgroup '%s' rejected: '%s' (got '%s')", arg, why, err);
}

/* Does mnt/cgroup.subtree_control list cpu, as the test reads it? */
static bool root_enables_cpu(const char *mnt)
{
	char path[PATH_MAX + 32], line[256] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", mnt);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	return !strncmp(line, "cpu ", 4) || strstr(line, " cpu ") ||
	       strstr(line, " cpu\n") || !strcmp(line, "cpu\n");
}

static void test_cgroup_resolve(void)
{
	struct cgroup_target cg = { .fd = -1 };
	char mnt[PATH_MAX], err[PATH_MAX + 64], child[PATH_MAX + 32];
	char cwd[PATH_MAX];
	struct stat st;
	int ret;

	if (cgroup2_mount(MOUNTINFO_PATH, mnt, sizeof(mnt))) {
		skip(16, "no cgroup2 mounted on this host");
		return;
	}
	/* "." is the current directory, as bpftool takes paths */
	if (getcwd(cwd, sizeof(cwd)) && !chdir(mnt)) {
		ret = cgroup_resolve(mnt, ".", &cg, err, sizeof(err));
		stat(mnt, &st);
		ok(!ret && !strcmp(cg.path, mnt) && cg.id == st.st_ino &&
			   cg.fd >= 0 && cg.root,
		   "'.' in %s is the cgroup2 root, id %llu, marked root", mnt,
		   (unsigned long long)st.st_ino);
		cgroup_target_close(&cg);
		ok(cg.fd == -1, "closed");
		if (chdir("/tmp"))
			ok(0, "chdir /tmp");
		resolve_bad(mnt, ".", "not on cgroup2");
		resolve_bad(mnt, "./schedbpf-no-such-cgroup",
			    "No such file or directory");
		if (chdir(cwd))
			ok(0, "chdir back");
	} else {
		skip(4, "cannot chdir to the cgroup2 mount");
	}

	ret = cgroup_resolve(mnt, mnt, &cg, err, sizeof(err));
	ok(!ret && !strcmp(cg.path, mnt), "absolute root resolves to itself");
	ok(!ret && cg.own_tg, "the root is a task group of its own");
	cgroup_target_close(&cg);

	snprintf(child, sizeof(child), "%s/schedbpf-unit-%d", mnt, getpid());
	if (mkdir(child, 0755)) {
		skip(3, "cannot create a cgroup here");
	} else {
		ret = cgroup_resolve(mnt, strrchr(child, '/') + 1, &cg, err,
				     sizeof(err));
		stat(child, &st);
		ok(!ret && !strcmp(cg.path, child) && cg.id == st.st_ino &&
			   !cg.root,
		   "relative 'schedbpf-unit-N' is %s, not the root", child);
		ok(!ret && cg.own_tg == root_enables_cpu(mnt),
		   "a child has its own task group exactly when the root's "
		   "subtree_control enables cpu (%d)", root_enables_cpu(mnt));
		cgroup_target_close(&cg);
		snprintf(err, sizeof(err), "%s/./", child);
		ret = cgroup_resolve(mnt, err, &cg, err, sizeof(err));
		ok(!ret && !strcmp(cg.path, child),
		   "absolute with ./ and / canonicalised");
		cgroup_target_close(&cg);
		rmdir(child);
	}

	resolve_bad(mnt, "schedbpf-no-such-cgroup",
		    "No such file or directory");
	resolve_bad(mnt, "/schedbpf/no/such/cgroup",
		    "No such file or directory");
	resolve_bad(mnt, "cgroup.procs", "not a directory");
	resolve_bad(mnt, "/tmp", "not on cgroup2 (cgroup2 is mounted at");
	resolve_bad(mnt, "..", "not on cgroup2");
	resolve_bad(mnt, "", "empty path");
	resolve_bad(NULL, "web", "no cgroup2 mount");
	resolve_bad(NULL, "/tmp", "no cgroup2 is mounted");
}

/* --- histogram ------------------------------------------------------- */

static void test_hist(void)
{
	__u64 h[SCHEDBPF_LAT_SLOTS] = {};

	ok(hist_percentile(h, SCHEDBPF_LAT_SLOTS, 50) == -1, "empty: -1");
	h[0] = 1;
	ok(hist_percentile(h, SCHEDBPF_LAT_SLOTS, 99) == 1,
	   "slot 0 holds 0-1 us");
	h[0] = 0;
	h[3] = 50;
	h[5] = 40;
	h[10] = 10;
	ok(hist_percentile(h, SCHEDBPF_LAT_SLOTS, 50) == 15, "p50 <= 15 us");
	ok(hist_percentile(h, SCHEDBPF_LAT_SLOTS, 51) == 63, "p51 <= 63 us");
	ok(hist_percentile(h, SCHEDBPF_LAT_SLOTS, 90) == 63, "p90 <= 63 us");
	ok(hist_percentile(h, SCHEDBPF_LAT_SLOTS, 99) == 2047,
	   "p99 <= 2047 us");
	memset(h, 0, sizeof(h));
	h[SCHEDBPF_LAT_SLOTS - 1] = 1;
	ok(hist_percentile(h, SCHEDBPF_LAT_SLOTS, 50) ==
		   (1LL << SCHEDBPF_LAT_SLOTS) - 1,
	   "last slot");
}

/* --- command launch -------------------------------------------------- */

static int run_child(char *const argv[], int cgroup_fd, int *status)
{
	struct child c = { .go_fd = -1, .err_fd = -1 };
	char path[PATH_MAX];
	sigset_t mask;
	int ret, ws;

	sigemptyset(&mask);
	ret = cmd_resolve(argv[0], path, sizeof(path));
	if (ret == -ENOENT)
		snprintf(path, sizeof(path), "%s", argv[0]);
	else if (ret)
		return ret;
	ret = child_spawn(&c, path, argv, cgroup_fd, &mask);
	if (ret)
		return ret;
	ret = child_release(&c);
	waitpid(c.pid, &ws, 0);
	*status = exit_status_of(ws);
	return ret;
}

static void test_launch(void)
{
	char *exit7[] = { "sh", "-c", "exit 7", NULL };
	char *killed[] = { "sh", "-c", "kill -TERM $$", NULL };
	char *missing[] = { "/nonexistent/cmd", NULL };
	char path[2 * PATH_MAX], mnt[PATH_MAX], cg[PATH_MAX + 32],
		out[PATH_MAX];
	char *cat[] = { "sh", "-c", NULL, NULL };
	struct child c = { .go_fd = -1, .err_fd = -1 };
	sigset_t mask;
	int status = -1, ret, fd;
	FILE *f;

	ok(!cmd_resolve("sh", path, sizeof(path)) && strstr(path, "/sh"),
	   "sh found in PATH: %s", path);
	ok(cmd_resolve("schedbpf-no-such-command", path, sizeof(path)) ==
		   -ENOENT,
	   "unknown command: -ENOENT");
	ok(cmd_resolve(tmpfile_with("noexec", "echo hi\n"), path,
		       sizeof(path)) == -EACCES,
	   "a file without x: -EACCES");
	ok(cmd_resolve("/", path, sizeof(path)) == -EACCES,
	   "a directory: -EACCES");
	ok(cmd_resolve("/nonexistent/x", path, sizeof(path)) == -ENOENT,
	   "missing path: -ENOENT");
	ok(cmd_resolve("", path, sizeof(path)) == -ENOENT, "empty: -ENOENT");

	ret = run_child(exit7, -1, &status);
	ok(!ret && status == 7, "child's exit status 7 (%d, %d)", ret, status);
	ret = run_child(killed, -1, &status);
	ok(!ret && status == 128 + SIGTERM, "killed by SIGTERM: 143 (%d)",
	   status);
	ret = run_child(missing, -1, &status);
	ok(ret == -ENOENT && status == EXIT_CMD_NOT_FOUND,
	   "exec failure comes back: -ENOENT, status 127 (%d, %d)", ret,
	   status);

	/* a child that is never released never runs its command */
	snprintf(out, sizeof(out), "%s/ran", tmpdir);
	snprintf(path, sizeof(path), "touch %s", out);
	cat[2] = path;
	sigemptyset(&mask);
	ret = child_spawn(&c, "/bin/sh", cat, -1, &mask);
	child_abort(&c);
	ok(!ret && access(out, F_OK) && c.pid == 0,
	   "aborted child did not exec");

	/* CLONE_INTO_CGROUP: in the cgroup from its first instruction */
	if (cgroup2_mount(MOUNTINFO_PATH, mnt, sizeof(mnt))) {
		skip(1, "no cgroup2");
		return;
	}
	snprintf(cg, sizeof(cg), "%s/schedbpf-unit-%d", mnt, getpid());
	fd = mkdir(cg, 0755) ? -1 : open(cg, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		skip(1, "cannot create a cgroup here");
		return;
	}
	snprintf(path, sizeof(path), "cat /proc/self/cgroup > %s", out);
	ret = run_child(cat, fd, &status);
	close(fd);
	rmdir(cg);
	path[0] = '\0';
	f = fopen(out, "r");
	if (f) {
		while (fgets(path, sizeof(path), f) && strncmp(path, "0::", 3))
			;
		fclose(f);
	}
	ok(!ret && !status && strstr(path, strrchr(cg, '/')),
	   "clone3 into %s: cgroup2 line '%.*s'", cg, (int)strcspn(path, "\n"),
	   path);
}

/* --- JSON ------------------------------------------------------------ */

static void json_sample(void)
{
	struct json_head h = { "interval", "no-preempt", "12:00:00", 1.0,
			       true };
	__u64 v[SCHEDBPF_NR_STATS], hist[SCHEDBPF_LAT_SLOTS] = {};
	int i, status = 7;

	for (i = 0; i < SCHEDBPF_NR_STATS; i++)
		v[i] = 100 + i;
	hist[2] = 5;
	print_json_interval(stdout, &h, v);
	h.type = "summary";
	h.dry_run = false;
	print_json_summary(stdout, &h, v, hist, &status);
	memset(hist, 0, sizeof(hist));
	print_json_summary(stdout, &h, v, hist, NULL);
}

/* --- the programs' configuration ------------------------------------ */

static void test_cfg(void)
{
	char *cmd[] = { "true", NULL };
	struct sched_tool t = { 0 };
	struct schedbpf_cfg c;

	t.opts.nr_cgroups = 2;
	t.opts.cgroups[0] = (struct cgroup_target){ .id = 7, .level = 3,
						    .own_tg = true };
	t.opts.cgroups[1] = (struct cgroup_target){ .id = 9, .level = 2,
						    .own_tg = true };
	c = sched_tool_cfg(&t);
	ok(c.group_decides && c.cgrps_own_tg && c.cgrp_min_level == 2 &&
		   c.nr_cgrps == 2 && c.cgrp_ids[1] == 9,
	   "cfg: -c cgroups with the cpu controller: the group decides");
	t.opts.cmd = cmd;
	c = sched_tool_cfg(&t);
	ok(c.group_decides && !c.track_tree,
	   "cfg: a command run in -c cgroups: the group decides");
	t.opts.nr_tgids = 1;
	c = sched_tool_cfg(&t);
	ok(!c.group_decides && c.has_pids, "cfg: with -p: the group does not decide");
	t.opts.nr_tgids = 0;
	t.opts.cgroups[0].own_tg = false;
	c = sched_tool_cfg(&t);
	ok(!c.group_decides && !c.cgrps_own_tg,
	   "cfg: a -c cgroup without the cpu controller: the group does not decide");
	t.opts.nr_cgroups = 0;
	c = sched_tool_cfg(&t);
	ok(!c.group_decides && c.track_tree,
	   "cfg: a command's tree: the group does not decide");
	t.opts.cmd = NULL;
	t.opts.all = true;
	c = sched_tool_cfg(&t);
	ok(!c.group_decides && c.all, "cfg: --all: the group does not decide");
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--json-sample")) {
		json_sample();
		return 0;
	}
	if (!mkdtemp(tmpdir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	test_numbers();
	test_durations();
	test_mountinfo();
	test_cgroup_resolve();
	test_hist();
	test_launch();
	test_cfg();
	if (fork() == 0)
		execlp("rm", "rm", "-rf", tmpdir, NULL);
	wait(NULL);
	return tap_done();
}
