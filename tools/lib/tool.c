// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "parse.h"
#include "tool.h"

#define PID_MAX_LIMIT 4194304 /* the kernel's ceiling for pid_max */
#define INTERVAL_MIN_NS (10 * NSEC_PER_MSEC)
#define INTERVAL_MAX_NS (3600 * NSEC_PER_SEC)
#define DURATION_MIN_NS NSEC_PER_MSEC
#define DURATION_MAX_NS (365 * 24 * 3600 * NSEC_PER_SEC)

static const char *tool_name = "schedbpf";
static bool verbose;

const char *argp_program_bug_address =
	"https://github.com/schedbpf/schedbpf/issues";

static void vreport(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", tool_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void sched_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
}

void sched_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	exit(2);
}

__u64 sched_parse_duration_opt(const char *opt, const char *arg, __u64 min_ns,
			       __u64 max_ns)
{
	char why[PARSE_ERR_LEN];
	__u64 ns;

	if (parse_duration(arg, min_ns, max_ns, &ns, why, sizeof(why)))
		sched_usage_error("invalid %s '%s': %s", opt, arg, why);
	return ns;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (!verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* Common options. */

enum {
	OPT_CGROUP = 'c',
	OPT_PID = 'p',
	OPT_ALL = 'a',
	OPT_INTERVAL = 'i',
	OPT_DURATION = 'd',
	OPT_JSON = 'j',
	OPT_DRY_RUN = 'n',
	OPT_VERBOSE = 'v',
	OPT_HELP = '?',
	OPT_USAGE = 0x100,
	OPT_VERSION = 'V',
};

static const struct argp_option common_options[] = {
	{ 0, 0, 0, 0, "Targets (at least one):", SCHED_GROUP_TARGETS },
	{ "cgroup", OPT_CGROUP, "PATH", 0,
	  "Tasks in this cgroup2 directory or below it; PATH is absolute or "
	  "relative to the cgroup2 mount. Repeatable (up to 8). A CMD starts "
	  "in the first one." },
	{ "pid", OPT_PID, "PID", 0,
	  "Every thread of process PID. Repeatable (up to 64)." },
	{ "all", OPT_ALL, 0, 0, "Every task (not with -c or -p)." },
	{ 0, 0, 0, 0, "Output:", SCHED_GROUP_OUTPUT },
	{ "interval", OPT_INTERVAL, "DURATION", 0,
	  "Print counters every DURATION (10ms to 1h; default 1s)." },
	{ "duration", OPT_DURATION, "DURATION", 0,
	  "Stop after DURATION (a wrapped CMD gets SIGTERM); default: at "
	  "Ctrl-C, SIGTERM, or when CMD exits." },
	{ "json", OPT_JSON, 0, 0,
	  "One JSON object per line instead of a table; the keys are listed "
	  "below." },
	{ "dry-run", OPT_DRY_RUN, 0, 0,
	  "Attach the same hooks but leave every decision to CFS; count what "
	  "the policy would have done." },
	{ "verbose", OPT_VERBOSE, 0, 0, "Show libbpf's debug output." },
	/* argp's own would be silenced by ARGP_NO_ERRS */
	{ "help", OPT_HELP, 0, 0, "Give this help list.", -1 },
	{ "usage", OPT_USAGE, 0, 0, "Give a short usage message.", -1 },
	{ "version", OPT_VERSION, 0, 0, "Print the program version.", -1 },
	{},
};

static const char common_doc[] =
	"\nDURATION is a number with a unit: ns, us, ms, s, m or h (500us, "
	"10ms, 1.5s).\n"
	"\nWith -- CMD [ARG...] the tool starts CMD once its programs are "
	"attached: inside the first -c cgroup if given (clone3 "
	"CLONE_INTO_CGROUP), otherwise CMD and its descendants are targets. "
	"SIGINT and SIGTERM are passed to CMD; the tool exits with CMD's "
	"status when it ends (128+N if killed by signal N, 127 if not "
	"found).\n"
	"\nJSON keys: type (interval|summary), tool, time, elapsed_s, "
	"dry_run; per hook (tick, wakeup, entity) X_calls, X_targets, "
	"X_suppressed, X_forced; bounded, preemptions, preemptions_rt, "
	"preemptions_wakeup, wakeups; the summary "
	"adds latency_us {count, p50, p90, p99, hist} and status.\n"
	"\nExit status: 0 success or stopped by a signal, 1 runtime failure "
	"(e.g. a kernel without the scheduler BPF hooks), 2 bad usage, or "
	"CMD's.";

/* The cgroup2 mount, looked up once on the first -c. */
static const char *cgroup2_root(void)
{
	static char mount[PATH_MAX];
	static int ret = 1;

	if (ret > 0)
		ret = cgroup2_mount(MOUNTINFO_PATH, mount, sizeof(mount));
	return ret ? NULL : mount;
}

/* The tgid of a pid (which may be any thread), or -1 if it does not exist. */
static pid_t tgid_of(pid_t pid)
{
	char path[64], line[256];
	pid_t tgid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	}
	fclose(f);
	return tgid;
}

static void add_cgroup(struct sched_opts *o, const char *arg)
{
	char why[PATH_MAX + 64];
	struct cgroup_target *cg;

	if (o->nr_cgroups == SCHEDBPF_MAX_CGROUPS)
		sched_usage_error("too many --cgroup (at most %d)",
				  SCHEDBPF_MAX_CGROUPS);
	cg = &o->cgroups[o->nr_cgroups];
	if (cgroup_resolve(cgroup2_root(), arg, cg, why, sizeof(why)))
		sched_usage_error("invalid --cgroup '%s': %s", arg, why);
	o->nr_cgroups++;
}

static void add_pid(struct sched_opts *o, const char *arg)
{
	char why[PARSE_ERR_LEN];
	__u64 pid;
	pid_t tgid;
	int i;

	if (o->nr_tgids == SCHEDBPF_MAX_PIDS)
		sched_usage_error("too many --pid (at most %d)",
				  SCHEDBPF_MAX_PIDS);
	if (parse_u64(arg, 1, PID_MAX_LIMIT, &pid, why, sizeof(why)))
		sched_usage_error("invalid --pid '%s': %s", arg, why);
	tgid = tgid_of((pid_t)pid);
	if (tgid < 0)
		sched_usage_error("invalid --pid '%s': no such process", arg);
	for (i = 0; i < o->nr_tgids; i++) {
		if (o->tgids[i] == tgid)
			return;
	}
	o->tgids[o->nr_tgids++] = tgid;
}

static void check_cmd(struct sched_opts *o)
{
	int ret = cmd_resolve(o->cmd[0], o->cmd_path, sizeof(o->cmd_path));

	if (ret == -ENOENT) {
		sched_err("%s: command not found", o->cmd[0]);
		exit(EXIT_CMD_NOT_FOUND);
	}
	if (ret) {
		sched_err("%s: %s", o->cmd[0], strerror(-ret));
		exit(EXIT_CMD_NOT_EXECUTABLE);
	}
}

static void check_targets(struct argp_state *state, struct sched_opts *o)
{
	if (!o->cmd && state->argc > 1 &&
	    !strcmp(state->argv[state->argc - 1], "--"))
		sched_usage_error("no command after '--'");
	if (o->all && (o->nr_cgroups || o->nr_tgids))
		sched_usage_error("--all conflicts with --cgroup and --pid");
	if (!o->all && !o->nr_cgroups && !o->nr_tgids && !o->cmd)
		sched_usage_error(
			"no target: give -c CGROUP, -p PID, --all or -- CMD");
	if (o->cmd)
		check_cmd(o);
}

static error_t common_parse(int key, char *arg, struct argp_state *state)
{
	struct sched_opts *o = state->input;

	switch (key) {
	case OPT_CGROUP:
		add_cgroup(o, arg);
		break;
	case OPT_PID:
		add_pid(o, arg);
		break;
	case OPT_ALL:
		o->all = true;
		break;
	case OPT_INTERVAL:
		o->interval_ns = sched_parse_duration_opt(
			"--interval", arg, INTERVAL_MIN_NS, INTERVAL_MAX_NS);
		break;
	case OPT_DURATION:
		o->duration_ns = sched_parse_duration_opt(
			"--duration", arg, DURATION_MIN_NS, DURATION_MAX_NS);
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_DRY_RUN:
		o->dry_run = true;
		break;
	case OPT_VERBOSE:
		o->verbose = true;
		break;
	case OPT_HELP:
		argp_help(state->root_argp, stdout, ARGP_HELP_STD_HELP,
			  (char *)tool_name);
		exit(0);
	case OPT_USAGE:
		argp_help(state->root_argp, stdout, ARGP_HELP_USAGE,
			  (char *)tool_name);
		exit(0);
	case OPT_VERSION:
		printf("%s %s\n", tool_name, SCHEDBPF_VERSION);
		exit(0);
	case ARGP_KEY_ARG:
		/* CMD and everything after it belong to CMD */
		o->cmd = &state->argv[state->next - 1];
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		check_targets(state, o);
		break;
	case ARGP_KEY_ERROR:
		/* getopt's own message is off (ARGP_NO_ERRS): one line here */
		if (state->next > 0 && state->next <= state->argc)
			sched_usage_error(
				"unknown option or missing argument: '%s' (see --help)",
				state->argv[state->next - 1]);
		sched_usage_error("bad arguments (see --help)");
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp common_argp = {
	.options = common_options,
	.parser = common_parse,
};

static error_t root_parse(int key, char *arg, struct argp_state *state)
{
	struct sched_tool *t = state->input;

	if (key == ARGP_KEY_INIT)
		state->child_inputs[0] = &t->opts;
	if (t->parser)
		return t->parser(key, arg, state);
	return ARGP_ERR_UNKNOWN;
}

void sched_tool_parse(struct sched_tool *t, int argc, char **argv)
{
	const struct argp_child children[] = { { &common_argp }, {} };
	char doc[4096];
	struct argp argp = {
		.options = t->options,
		.parser = root_parse,
		.args_doc = "[-- CMD [ARG...]]",
		.doc = doc,
		.children = children,
	};

	tool_name = t->name;
	snprintf(doc, sizeof(doc), "%s%s", t->doc, common_doc);
	t->opts.interval_ns = NSEC_PER_SEC;
	t->handler_id = -1;
	argp_err_exit_status = 2;
	/*
	 * IN_ORDER: the first non-option starts CMD, whose own options must
	 * not be taken for ours. NO_ERRS: argp's two-line errors are replaced
	 * by one line (ARGP_KEY_ERROR above); it also silences argp's --help,
	 * hence NO_HELP and our own.
	 */
	if (argp_parse(&argp, argc, argv,
		       ARGP_IN_ORDER | ARGP_NO_ERRS | ARGP_NO_HELP, NULL, t))
		sched_usage_error("bad arguments (see --help)");
	verbose = t->opts.verbose;
	libbpf_set_print(libbpf_print);
}

/* BTF discovery and libbpf's sched/ handler. */

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
	if (ret == -ENOENT) {
		uname(&u);
		sched_err(
			"kernel %s has no scheduler BPF (%s); boot one that has: make kernel && kernel/vm-run -- %s ...",
			u.release, why, t->name);
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
	};
	int i;

	for (i = 0; i < o->nr_cgroups; i++)
		cfg.cgrp_ids[i] = o->cgroups[i].id;
	return cfg;
}

static bool is_sched_prog(const struct bpf_program *prog)
{
	return !strncmp(bpf_program__section_name(prog), SCHED_SEC_PREFIX,
			strlen(SCHED_SEC_PREFIX));
}

/* Points every sched/<hook> program at bpf_sched_<hook>. */
static int set_hooks(struct sched_tool *t, struct bpf_object *obj)
{
	struct bpf_program *prog;
	struct utsname u;
	char func[128];
	int err;

	bpf_object__for_each_program(prog, obj) {
		const char *hook;

		if (!is_sched_prog(prog))
			continue;
		hook = bpf_program__section_name(prog) +
		       strlen(SCHED_SEC_PREFIX);
		snprintf(func, sizeof(func), SCHED_HOOK_PREFIX "%s", hook);
		if (sched_btf_hook(&t->btf, hook) < 0) {
			uname(&u);
			sched_err(
				"kernel %s has no hook %s; boot one that has: make kernel && kernel/vm-run -- %s ...",
				u.release, func, t->name);
			return 1;
		}
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

int sched_tool_load(struct sched_tool *t, struct bpf_object_skeleton *s)
{
	int err;

	err = set_hooks(t, *s->obj);
	if (err)
		return err;
	err = bpf_object__load_skeleton(s);
	if (err) {
		if (err == -EPERM || err == -EACCES)
			sched_err(
				"loading BPF programs: %s (needs root, or CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN)",
				strerror(-err));
		else
			sched_err("loading BPF programs: %s%s", strerror(-err),
				  verbose ? "" :
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
}

/* Attaching, the wrapped command, the loop and the output. */

/*
 * The hooks first, then the observers (which the skeleton attaches, skipping
 * the links already set): an observer running before the hooks would count
 * what no policy decided yet, e.g. a wakeup preemption of a target. The
 * links go into the skeleton's slots, so destroying it detaches all.
 */
static int attach_all(struct bpf_object_skeleton *s)
{
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

struct run {
	struct sched_tool *t;
	int stats_fd;
	int hist_fd;
	__u64 prev[SCHEDBPF_NR_STATS];
	struct timespec start;
};

static double seconds_since(const struct timespec *a)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - a->tv_sec) +
	       (double)(now.tv_nsec - a->tv_nsec) / 1e9;
}

static void wall_time(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
}

static struct json_head json_head(const struct run *r, const char *type,
				  char *time, size_t len)
{
	wall_time(time, len);
	return (struct json_head){
		.type = type,
		.tool = r->t->name,
		.time = time,
		.elapsed_s = seconds_since(&r->start),
		.dry_run = r->t->opts.dry_run,
	};
}

static int print_interval(struct run *r)
{
	__u64 cur[SCHEDBPF_NR_STATS], delta[SCHEDBPF_NR_STATS];
	char now[16];
	int i, err;

	err = percpu_sum(r->stats_fd, SCHEDBPF_NR_STATS, cur);
	if (err) {
		sched_err("reading counters: %s", strerror(-err));
		return 1;
	}
	for (i = 0; i < SCHEDBPF_NR_STATS; i++)
		delta[i] = cur[i] - r->prev[i];
	memcpy(r->prev, cur, sizeof(cur));
	if (r->t->opts.json) {
		struct json_head h = json_head(r, "interval", now, sizeof(now));

		print_json_interval(stdout, &h, delta);
	} else {
		wall_time(now, sizeof(now));
		print_table_row(stdout, now, &r->t->columns, delta);
	}
	fflush(stdout);
	return 0;
}

static int print_summary(struct run *r, int status, bool wrapped)
{
	__u64 v[SCHEDBPF_NR_STATS], hist[SCHEDBPF_LAT_SLOTS];
	struct json_head h;
	char now[16];
	int err;

	err = percpu_sum(r->stats_fd, SCHEDBPF_NR_STATS, v);
	if (!err)
		err = percpu_sum(r->hist_fd, SCHEDBPF_LAT_SLOTS, hist);
	if (err) {
		sched_err("reading counters: %s", strerror(-err));
		return 1;
	}
	if (r->t->opts.json) {
		h = json_head(r, "summary", now, sizeof(now));
		print_json_summary(stdout, &h, v, hist,
				   wrapped ? &status : NULL);
	} else {
		print_summary_text(stdout, r->t->name, seconds_since(&r->start),
				   r->t->opts.dry_run, v, hist);
	}
	fflush(stdout);
	return 0;
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * NSEC_PER_SEC + (__u64)ts.tv_nsec;
}

/*
 * Waits for signals until the command exits or the tool is told to stop,
 * printing a row every interval. Returns the exit status.
 */
static int loop(struct run *r, struct child *c, const sigset_t *set)
{
	const struct sched_opts *o = &r->t->opts;
	__u64 next = now_ns() + o->interval_ns, end = 0, now, wake;
	struct timespec timeout;
	siginfo_t info;
	int sig, wstatus;

	if (o->duration_ns)
		end = now_ns() + o->duration_ns;
	for (;;) {
		now = now_ns();
		wake = end && end < next ? end : next;
		wake = wake > now ? wake - now : 0;
		timeout.tv_sec = (time_t)(wake / NSEC_PER_SEC);
		timeout.tv_nsec = (long)(wake % NSEC_PER_SEC);
		sig = sigtimedwait(set, &info, &timeout);
		if (sig < 0 && errno == EINTR)
			continue;
		if (sig < 0) {
			now = now_ns();
			if (now >= next) {
				if (print_interval(r))
					return 1;
				while (next <= now)
					next += o->interval_ns;
			}
			if (end && now >= end) {
				if (!c->pid)
					return 0;
				/* stop CMD; its status is ours */
				kill(c->pid, SIGTERM);
				end = 0;
			}
			continue;
		}
		if (sig == SIGCHLD) {
			if (c->pid &&
			    waitpid(c->pid, &wstatus, WNOHANG) == c->pid)
				return exit_status_of(wstatus);
			continue;
		}
		if (!c->pid)
			return 0;
		/*
		 * A terminal's Ctrl-C (SI_KERNEL) already reached CMD, which
		 * shares our process group; a kill(1) reached only us.
		 */
		if (info.si_code != SI_KERNEL)
			kill(c->pid, sig);
	}
}

static int start_child(struct sched_tool *t, struct bpf_object *obj,
		       struct child *c, const sigset_t *orig_mask)
{
	const struct sched_opts *o = &t->opts;
	struct bpf_map *tree;
	__u32 pid;
	__u8 one = 1;
	int err;

	err = child_spawn(c, o->cmd_path, o->cmd,
			  o->nr_cgroups ? o->cgroups[0].fd : -1, orig_mask);
	if (err) {
		if (o->nr_cgroups)
			sched_err("starting %s in %s: %s", o->cmd[0],
				  o->cgroups[0].path, strerror(-err));
		else
			sched_err("starting %s: %s", o->cmd[0], strerror(-err));
		return 1;
	}
	if (!sched_tool_cfg(t).track_tree)
		return 0;
	tree = bpf_object__find_map_by_name(obj, "tree_pids");
	pid = c->pid;
	if (!tree || bpf_map__update_elem(tree, &pid, sizeof(pid), &one,
					  sizeof(one), BPF_ANY)) {
		sched_err("adding %s to the targets: %s", o->cmd[0],
			  strerror(tree ? errno : ENOENT));
		child_abort(c);
		return 1;
	}
	return 0;
}

int sched_tool_run(struct sched_tool *t, struct bpf_object_skeleton *s)
{
	struct child c = { .pid = 0, .go_fd = -1, .err_fd = -1 };
	struct run r = { .t = t };
	struct bpf_object *obj = *s->obj;
	int status = 0, wstatus, err;
	sigset_t set, orig;

	r.stats_fd = bpf_object__find_map_fd_by_name(obj, "stats");
	r.hist_fd = bpf_object__find_map_fd_by_name(obj, "lat_hist");
	if (r.stats_fd < 0 || r.hist_fd < 0) {
		sched_err("BPF object lacks the stats or lat_hist map");
		return 1;
	}

	/* signals are taken synchronously by sigtimedwait() in loop() */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &orig);

	if (t->opts.cmd && start_child(t, obj, &c, &orig)) {
		status = 1;
		goto out;
	}
	if (attach_all(s)) {
		child_abort(&c);
		status = 1;
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &r.start);
	if (c.pid) {
		err = child_release(&c);
		if (err) {
			sched_err("%s: %s", t->opts.cmd[0], strerror(-err));
			waitpid(c.pid, &wstatus, 0);
			status = exit_status_of(wstatus);
			goto out;
		}
	}
	if (!t->opts.json) {
		print_table_header(stdout, &t->columns);
		fflush(stdout);
	}
	status = loop(&r, &c, &set);
	if (print_summary(&r, status, c.pid != 0) && !status)
		status = 1;
out:
	sigprocmask(SIG_SETMASK, &orig, NULL);
	return status;
}
