// SPDX-License-Identifier: GPL-2.0-only
/* The options every tool shares, and their parsing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/pidfd.h>

#include "parse.h"
#include "skel_libbpf.h"
#include "tool.h"

#define PID_MAX_LIMIT 4194304 /* the kernel's ceiling for pid_max */
#define INTERVAL_MIN_NS (10 * NSEC_PER_MSEC)
#define INTERVAL_MAX_NS (3600 * NSEC_PER_SEC)
#define INTERVAL_DEFAULT_NS NSEC_PER_SEC
#define DURATION_MIN_NS NSEC_PER_MSEC
#define DURATION_MAX_NS (365 * 24 * 3600 * NSEC_PER_SEC)
#define KILL_AFTER_MIN_NS NSEC_PER_MSEC
#define KILL_AFTER_MAX_NS (3600 * NSEC_PER_SEC)
#define KILL_AFTER_DEFAULT_NS (5 * NSEC_PER_SEC)
#define DOC_MAX 4096

const char *argp_program_bug_address =
	"https://github.com/schedbpf/schedbpf/issues";

__u64 sched_parse_duration_opt(const char *opt, const char *arg, __u64 min_ns,
			       __u64 max_ns)
{
	char why[PARSE_ERR_LEN];
	__u64 ns;

	if (parse_duration(arg, min_ns, max_ns, &ns, why, sizeof(why)))
		sched_usage_error("invalid %s '%s': %s", opt, arg, why);
	return ns;
}

enum {
	OPT_CGROUP = 'c',
	OPT_PID = 'p',
	OPT_ALL = 'a',
	OPT_INTERVAL = 'i',
	OPT_DURATION = 'd',
	OPT_KILL_AFTER = 'k',
	OPT_JSON = 'j',
	OPT_QUIET = 'q',
	OPT_DRY_RUN = 'n',
	OPT_VERBOSE = 'v',
	OPT_OUTPUT = 0x101,
	OPT_OBSERVE = 0x102,
	/* sched_argp_parse()'s, which sched-ab has too */
	OPT_HELP = 'h',
	OPT_HELP_QMARK = '?',
	OPT_USAGE = 0x100,
	OPT_VERSION = 'V',
};

static const struct argp_option common_options[] = {
	{ 0, 0, 0, 0, "Targets (at least one):", SCHED_GROUP_TARGETS },
	{ "cgroup", OPT_CGROUP, "PATH", 0,
	  "Tasks in this cgroup2 directory or below it; PATH is absolute, "
	  "relative to the current directory if it starts with . or .., or "
	  "else relative to the cgroup2 mount. Repeatable (up to 8). A CMD "
	  "starts in the first one." },
	{ "pid", OPT_PID, "PID", 0,
	  "Every thread of process PID; the tool stops when every -p process "
	  "has exited and it has no other target. Repeatable (up to 64)." },
	{ "all", OPT_ALL, 0, 0, "Every task (not with -c or -p)." },
	{ 0, 0, 0, 0, "Output:", SCHED_GROUP_OUTPUT },
	{ "interval", OPT_INTERVAL, "DURATION", 0,
	  "Print counters every DURATION (10ms to 1h; default 1s)." },
	{ "duration", OPT_DURATION, "DURATION", 0,
	  "Stop after DURATION (a wrapped CMD gets SIGTERM); default: at "
	  "Ctrl-C, SIGTERM, or when CMD exits." },
	{ "kill-after", OPT_KILL_AFTER, "DURATION", 0,
	  "When the tool stops CMD itself (--duration, SIGHUP, its output "
	  "gone), send SIGKILL if CMD still runs DURATION later (1ms to 1h; "
	  "default 5s)." },
	{ "json", OPT_JSON, 0, 0,
	  "One JSON object per line instead of a table; the keys are listed "
	  "below." },
	{ "output", OPT_OUTPUT, "FILE", 0,
	  "Write the rows, JSON lines and summary to FILE (truncated) instead "
	  "of stdout, which a wrapped CMD keeps to itself." },
	{ "quiet", OPT_QUIET, 0, 0,
	  "Print only the summary (with --json: the run record and the "
	  "summary), no row per interval." },
	{ "observe", OPT_OBSERVE, "LEVEL", 0,
	  "What the tool watches besides its policy: none (the policy alone; "
	  "the preemptions, wakeups and latency stay 0), counts (the targets' "
	  "involuntary switches and their causes) or full (and the targets' "
	  "wakeup-to-run latency). Default: counts. Each costs the scheduler "
	  "more than the one before; the man page has the numbers." },
	{ "dry-run", OPT_DRY_RUN, 0, 0,
	  "Attach the same hooks but leave every decision to CFS; count what "
	  "the policy would have done." },
	{ "verbose", OPT_VERBOSE, 0, 0,
	  "Say what the tool found and did: the kernel's BTF, the time to "
	  "attach, and the verifier's log of a program it refused." },
	{},
};

static const char common_doc[] =
	"\nDURATION is a number with a unit: ns, us, ms, s, m or h (500us, "
	"10ms, 1.5s).\n"
	"\nWith -- CMD [ARG...] the tool starts CMD once its programs are "
	"attached: inside the first -c cgroup if given (clone3 "
	"CLONE_INTO_CGROUP), otherwise CMD and its descendants are targets. "
	"SIGINT, SIGTERM and SIGHUP are passed to CMD (once: not if they "
	"reached it already, as a terminal's do); CMD is killed if the tool "
	"dies. The tool exits with CMD's status when it ends (127 if not "
	"found), or dies of the signal that killed it.\n"
	"\nJSON keys: the first line, type run, has tool, version, libbpf, "
	"kernel, time, dry_run, targets {all, cgroups, pids, cmd} and "
	"settings {interval_ns, duration_ns, kill_after_ns, quiet, output, observe, "
	"and the tool's own}, attach_ns (from exec to attached); then type (interval|summary), tool, time, elapsed_s, "
	"dry_run; per hook (tick, wakeup, entity) X_calls, X_targets, "
	"X_suppressed, X_forced; bounded, preemptions, preemptions_rt, "
	"preemptions_wakeup, wakeups; the summary "
	"adds latency_us {count, p50, p90, p99, hist} and status.\n"
	"\nExit status: 0 success or stopped by a signal, 1 runtime failure "
	"(e.g. a kernel without the scheduler BPF hooks), 2 bad usage, or "
	"CMD's.";

const char *const sched_observe_names[] = {
	[SCHEDBPF_OBSERVE_NONE] = "none",
	[SCHEDBPF_OBSERVE_COUNTS] = "counts",
	[SCHEDBPF_OBSERVE_FULL] = "full",
};

static int parse_observe(const char *arg)
{
	int i;

	for (i = SCHEDBPF_OBSERVE_NONE; i <= SCHEDBPF_OBSERVE_FULL; i++) {
		if (!strcmp(arg, sched_observe_names[i]))
			return i;
	}
	sched_usage_error("invalid --observe '%s': not none, counts or full",
			  arg);
}

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
	return proc_status_pid(pid, "Tgid");
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

/*
 * The process is held by a pidfd from here on: its PID, used again only
 * after the programs are loaded, cannot be taken by another process
 * unnoticed, and its exit wakes the run loop.
 */
static void add_pid(struct sched_opts *o, const char *arg)
{
	char why[PARSE_ERR_LEN];
	int i, fd;
	__u64 pid;
	pid_t tgid;

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
	fd = pidfd_open(tgid, 0);
	/* the tgid read from /proc must still be that process's */
	if (fd < 0 && errno == ESRCH)
		sched_usage_error("invalid --pid '%s': no such process", arg);
	if (fd >= 0 && tgid_of(tgid) != tgid) {
		close(fd);
		sched_usage_error("invalid --pid '%s': no such process", arg);
	}
	o->tgids[o->nr_tgids] = tgid;
	o->pidfds[o->nr_tgids++] = fd;
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
	case OPT_KILL_AFTER:
		o->kill_after_ns = sched_parse_duration_opt("--kill-after", arg,
							    KILL_AFTER_MIN_NS,
							    KILL_AFTER_MAX_NS);
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_QUIET:
		o->quiet = true;
		break;
	case OPT_OUTPUT:
		if (!*arg)
			sched_usage_error("invalid --output '': empty path");
		o->output = arg;
		break;
	case OPT_DRY_RUN:
		o->dry_run = true;
		break;
	case OPT_OBSERVE:
		o->observe = parse_observe(arg);
		break;
	case OPT_VERBOSE:
		o->verbose = true;
		break;
	case ARGP_KEY_ARG:
		/* CMD and everything after it belong to CMD */
		o->cmd = &state->argv[state->next - 1];
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		check_targets(state, o);
		break;
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
	char doc[DOC_MAX];
	struct argp argp = {
		.options = t->options,
		.parser = root_parse,
		.args_doc = "[-- CMD [ARG...]]",
		.doc = doc,
		.children = children,
	};
	int i;

	snprintf(doc, sizeof(doc), "%s%s", t->doc, common_doc);
	t->opts.interval_ns = INTERVAL_DEFAULT_NS;
	t->opts.kill_after_ns = KILL_AFTER_DEFAULT_NS;
	t->opts.observe = SCHEDBPF_OBSERVE_COUNTS;
	for (i = 0; i < SCHEDBPF_MAX_PIDS; i++)
		t->opts.pidfds[i] = -1;
	sched_argp_parse(t->name, &argp, t, true, argc, argv);
}

/* --- every program's --help, --usage and --version ----------------------- */

/* Whether --version names libbpf's version: set once, before parsing. */
static bool version_libbpf;

/* argp's own would print to stderr on an error, and lack -h */
static const struct argp_option help_options[] = {
	{ "help", OPT_HELP, 0, 0, "Give this help list.", -1 },
	/* argp's own spelling, kept */
	{ 0, OPT_HELP_QMARK, 0, OPTION_ALIAS | OPTION_HIDDEN, 0, -1 },
	{ "usage", OPT_USAGE, 0, 0, "Give a short usage message.", -1 },
	{ "version", OPT_VERSION, 0, 0, "Print the program version.", -1 },
	{},
};

static error_t help_parse(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case OPT_HELP:
	case OPT_HELP_QMARK:
		argp_help(state->root_argp, stdout, ARGP_HELP_STD_HELP,
			  (char *)report_name());
		exit(0);
	case OPT_USAGE:
		argp_help(state->root_argp, stdout, ARGP_HELP_USAGE,
			  (char *)report_name());
		exit(0);
	case OPT_VERSION:
		printf("%s %s", report_name(), SCHEDBPF_VERSION);
		if (version_libbpf)
			printf(" (libbpf %s)", SCHEDBPF_SKEL_LIBBPF);
		putchar('\n');
		exit(0);
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/* argp frees what differs from text */
static char *help_filter(int key, const char *text, void *input)
{
	if (key == OPT_VERSION && version_libbpf)
		return strdup("Print the program version and that of the libbpf that generated its skeleton.");
	return (char *)text;
}

static const struct argp help_argp = {
	.options = help_options,
	.parser = help_parse,
	.help_filter = help_filter,
};

void sched_argp_parse(const char *name, const struct argp *argp, void *input,
		      bool libbpf, int argc, char **argv)
{
	const struct argp_child children[] = { { argp }, { &help_argp }, {} };
	/* without a parser of its own it hands input to argp, its first child */
	const struct argp root = { .children = children };

	report_set_name(name);
	version_libbpf = libbpf;
	argp_err_exit_status = 2;
	/*
	 * getopt names the program after argv[0] and argp after this, in
	 * their errors ("TOOL: unrecognized option '--x'", then "Try ...").
	 */
	if (argc > 0)
		argv[0] = (char *)name;
	program_invocation_name = (char *)name;
	program_invocation_short_name = (char *)name;
	/*
	 * IN_ORDER: the first non-option starts CMD (or TOOL), whose own
	 * options must not be taken for ours. NO_HELP: ours print the
	 * program's name, not argv[0]'s, and add -h.
	 */
	if (argp_parse(&root, argc, argv, ARGP_IN_ORDER | ARGP_NO_HELP, NULL,
		       input))
		sched_usage_error("bad arguments (see --help)");
}
