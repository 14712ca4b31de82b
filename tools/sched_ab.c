// SPDX-License-Identifier: GPL-2.0-only
/*
 * sched-ab: the A/B comparison the tools are for, without a hand-written
 * loop. A workload runs in rounds; each round runs it once under
 * `TOOL --dry-run` (A: the same hooks and observers, CFS decides) and once
 * under `TOOL` (B: the policy decides), in an order drawn at random for
 * each round, so that a drift of the machine (a neighbour's build, thermal
 * limits) falls on both sides alike. Each run's tool summary (the NDJSON
 * the tools write with --json --output) and numbers taken from the
 * workload's output by regular expressions are collected, and per metric
 * it prints both sides' medians and ranges, the ratio B/A with a 95%
 * confidence interval, and a verdict.
 *
 * The statistics (tools/lib/stats.c) are distribution-free and
 * deterministic: the ratio is the Hodges-Lehmann estimate (the median of
 * every B_j/A_i), its interval Mann-Whitney's. With 3 rounds or fewer no
 * interval reaches 95%, and the verdict says so rather than pretend.
 */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "parse.h"
#include "stats.h"
#include "tool.h"

#define NAME "sched-ab"
#define ROUNDS_DEFAULT 5
#define ROUNDS_MIN 1
#define ROUNDS_MAX 100
#define MAX_USER_METRICS 16
#define MAX_METRICS (MAX_USER_METRICS + 4)
#define METRIC_NAME_MAX 32

extern char **environ;

static const char *const known_tools[] = {
	"no-preempt",
	"boost-wakeup",
	"slice-extend",
	"cgroup-isolate",
};

enum metric_source { FROM_TOOL, FROM_WORKLOAD };

struct metric {
	char name[METRIC_NAME_MAX + 1];
	enum metric_source source;
	bool higher_is_better;
	/* FROM_WORKLOAD: the pattern; FROM_TOOL: its place in the summary */
	const char *regex;
	regex_t re;
	const char *key, *subkey;
	/* a built-in one missing from any run is left out of the report */
	bool missing;
};

/* One run of the workload, under one side. */
struct ab_run {
	int round;
	bool dry_run; /* A */
	int status;
	double round_s;
	/* the tool's summary line, verbatim */
	char *summary;
	double values[MAX_METRICS];
};

static struct env {
	__u64 rounds;
	__u64 seed;
	bool seed_given;
	bool json;
	bool verbose;
	struct metric metrics[MAX_METRICS];
	int nr_metrics;
	const char *tool;
	char tool_path[PATH_MAX];
	char **tool_opts;
	int nr_tool_opts;
	char **workload;
	char workload_path[PATH_MAX];
} env = {
	.rounds = ROUNDS_DEFAULT,
};

static const struct {
	const char *name, *key, *subkey;
} builtins[] = {
	{ "wall_s", "elapsed_s", NULL },
	{ "preemptions", "preemptions", NULL },
	{ "latency_p50_us", "latency_us", "p50" },
	{ "latency_p99_us", "latency_us", "p99" },
};

static const char doc[] =
	"Run WORKLOAD in rounds under TOOL --dry-run (A) and under TOOL (B), "
	"in a random order within each round, and compare: per metric the "
	"medians and ranges of A and B, the ratio B/A with a 95% confidence "
	"interval (Hodges-Lehmann, Mann-Whitney), and a verdict: better, "
	"worse, or no difference at this noise. TOOL is no-preempt, "
	"boost-wakeup, slice-extend or cgroup-isolate (found beside sched-ab, "
	"then in PATH) or a path; TOOL-OPTS are its own options, the targets "
	"among them.\n"
	"\v"
	"Built-in metrics, from each run's tool summary: wall_s (seconds from "
	"attach to the workload's exit), preemptions (of targets), "
	"latency_p50_us and latency_p99_us (targets' wakeup-to-run latency: "
	"sched-ab runs TOOL with --observe=full, which TOOL-OPTS may "
	"override); lower is better for all. --metric adds the workload's "
	"own: REGEX (POSIX extended) is matched against each line of its "
	"stdout and stderr, the last matching line counts, and its first "
	"group must be a non-negative decimal number, taken as printed "
	"(write the unit into REGEX).\n"
	"\n"
	"EXAMPLES:\n"
	"  sched-ab no-preempt -c web -- ./bench.sh\n"
	"  sched-ab -r 8 -m 'rps:higher=([0-9.]+) requests/s' \\\n"
	"      boost-wakeup -c web -- ./load.sh\n"
	"  sched-ab -j -m 'p99=p99: ([0-9]+) us' cgroup-isolate -c db -- ./q > ab.json\n"
	"\n"
	"--json prints one object: tool, tool_path, tool_opts, workload, rounds, "
	"seed, version; runs [{round, side, dry_run, status, round_s, metrics, "
	"summary}] in the order run; metrics [{name, source, regex, better, "
	"a and b {n, median, min, q1, q3, max}, ratio, ci, confidence, "
	"verdict}].\n"
	"\n"
	"Exit status: 0 when every round ran, 1 when one failed (the tool or "
	"the workload exited non-zero, or a metric was not found), 2 bad usage.";

enum {
	OPT_ROUNDS = 'r',
	OPT_METRIC = 'm',
	OPT_SEED = 's',
	OPT_JSON = 'j',
	OPT_VERBOSE = 'v',
};

static const struct argp_option options[] = {
	{ "rounds", OPT_ROUNDS, "N", 0,
	  "Rounds, each one run of A and one of B (1 to 100; default 5). A "
	  "verdict needs at least 4." },
	{ "metric", OPT_METRIC, "NAME[:higher]=REGEX", 0,
	  "Also compare the number REGEX's first group finds in the "
	  "workload's output; lower is better unless NAME ends in :higher. "
	  "Repeatable (up to 16)." },
	{ "seed", OPT_SEED, "N", 0,
	  "Draw the order within rounds from seed N, to repeat a run's order "
	  "(default: a random seed, printed)." },
	{ "json", OPT_JSON, 0, 0, "Print one JSON object instead of a table." },
	{ "verbose", OPT_VERBOSE, 0, 0,
	  "A line per run on stderr, and a failed run's output." },
	{},
};

/* --- options ------------------------------------------------------------ */

static bool valid_name(const char *s, size_t len)
{
	size_t i;

	if (!len || len > METRIC_NAME_MAX)
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_'))
			return false;
	}
	return true;
}

static struct metric *find_metric(const char *name)
{
	int i;

	for (i = 0; i < env.nr_metrics; i++) {
		if (!strcmp(env.metrics[i].name, name))
			return &env.metrics[i];
	}
	return NULL;
}

/* NAME[:higher|:lower]=REGEX */
static void add_metric(const char *arg)
{
	const char *eq = strchr(arg, '='), *colon;
	char why[256];
	struct metric *m;
	size_t len;
	int err;

	if (env.nr_metrics - (int)ARRAY_SIZE(builtins) == MAX_USER_METRICS)
		sched_usage_error("too many --metric (at most %d)",
				  MAX_USER_METRICS);
	if (!eq)
		sched_usage_error("invalid --metric '%s': no '=' (NAME=REGEX)",
				  arg);
	m = &env.metrics[env.nr_metrics];
	colon = memchr(arg, ':', (size_t)(eq - arg));
	len = (size_t)((colon ? colon : eq) - arg);
	if (!len)
		sched_usage_error("invalid --metric '%s': empty NAME", arg);
	if (!valid_name(arg, len))
		sched_usage_error(
			"invalid --metric '%s': NAME has only letters, digits and _ (at most %d)",
			arg, METRIC_NAME_MAX);
	memcpy(m->name, arg, len);
	m->name[len] = '\0';
	if (colon) {
		size_t dlen = (size_t)(eq - colon - 1);

		if (dlen == 6 && !strncmp(colon + 1, "higher", 6))
			m->higher_is_better = true;
		else if (!(dlen == 5 && !strncmp(colon + 1, "lower", 5)))
			sched_usage_error(
				"invalid --metric '%s': unknown direction '%.*s' (higher or lower)",
				arg, (int)dlen, colon + 1);
	}
	if (find_metric(m->name))
		sched_usage_error(
			"invalid --metric '%s': %s is already a metric", arg,
			m->name);
	m->regex = eq + 1;
	if (!*m->regex)
		sched_usage_error("invalid --metric '%s': empty REGEX", arg);
	err = regcomp(&m->re, m->regex, REG_EXTENDED | REG_NEWLINE);
	if (err) {
		regerror(err, &m->re, why, sizeof(why));
		sched_usage_error("invalid --metric '%s': %s", arg, why);
	}
	if (m->re.re_nsub < 1)
		sched_usage_error(
			"invalid --metric '%s': REGEX has no group to capture the number",
			arg);
	m->source = FROM_WORKLOAD;
	env.nr_metrics++;
}

static bool is_known_tool(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known_tools); i++) {
		if (!strcmp(name, known_tools[i]))
			return true;
	}
	return false;
}

/* A path as given; a name beside our own binary, then in PATH. */
static void resolve_tool(void)
{
	char self[PATH_MAX], *slash;
	ssize_t n;
	int ret;

	if (strchr(env.tool, '/')) {
		if (access(env.tool, X_OK))
			sched_usage_error("TOOL '%s': %s", env.tool,
					  strerror(errno));
		snprintf(env.tool_path, sizeof(env.tool_path), "%s", env.tool);
		return;
	}
	if (!is_known_tool(env.tool))
		sched_usage_error(
			"unknown TOOL '%s' (no-preempt, boost-wakeup, slice-extend, cgroup-isolate, or a path)",
			env.tool);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash &&
		    (size_t)snprintf(env.tool_path, sizeof(env.tool_path),
				     "%.*s/%s", (int)(slash - self), self,
				     env.tool) < sizeof(env.tool_path) &&
		    !access(env.tool_path, X_OK))
			return;
	}
	ret = cmd_resolve(env.tool, env.tool_path, sizeof(env.tool_path));
	if (ret)
		sched_usage_error("TOOL '%s': %s", env.tool,
				  ret == -ENOENT ? "not found beside " NAME
						   " or in PATH" :
						   strerror(-ret));
}

/*
 * sched-ab sets the side and where the summary goes; TOOL-OPTS that set
 * them too would turn B into A or hide the summary.
 */
static void check_tool_opts(void)
{
	const char *o;
	int i;

	for (i = 0; i < env.nr_tool_opts; i++) {
		o = env.tool_opts[i];
		if (!strcmp(o, "-n") || !strcmp(o, "--dry-run"))
			sched_usage_error(
				"TOOL-OPTS has '%s': sched-ab runs A with it and B without",
				o);
		if (!strcmp(o, "--output") || !strncmp(o, "--output=", 9))
			sched_usage_error(
				"TOOL-OPTS has '%s': sched-ab reads the summary from a file of its own",
				o);
	}
}

/* TOOL [TOOL-OPTS] -- WORKLOAD [ARG...], all that follows our options. */
static void take_command(char **argv, int argc)
{
	int i, ret;

	env.tool = argv[0];
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		;
	if (i == argc)
		sched_usage_error(
			"no '--' after TOOL's options: give TOOL [TOOL-OPTS] -- WORKLOAD");
	if (i + 1 == argc)
		sched_usage_error("no WORKLOAD after '--'");
	env.tool_opts = argv + 1;
	env.nr_tool_opts = i - 1;
	env.workload = argv + i + 1;
	if (!*env.tool)
		sched_usage_error("TOOL '': empty");
	resolve_tool();
	check_tool_opts();
	ret = cmd_resolve(env.workload[0], env.workload_path,
			  sizeof(env.workload_path));
	if (ret)
		sched_usage_error("WORKLOAD '%s': %s", env.workload[0],
				  ret == -ENOENT ? "command not found" :
						   strerror(-ret));
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	char why[PARSE_ERR_LEN];

	switch (key) {
	case OPT_ROUNDS:
		if (parse_u64(arg, ROUNDS_MIN, ROUNDS_MAX, &env.rounds, why,
			      sizeof(why)))
			sched_usage_error("invalid --rounds '%s': %s", arg,
					  why);
		break;
	case OPT_METRIC:
		add_metric(arg);
		break;
	case OPT_SEED:
		if (parse_u64(arg, 0, UINT64_MAX, &env.seed, why, sizeof(why)))
			sched_usage_error("invalid --seed '%s': %s", arg, why);
		env.seed_given = true;
		break;
	case OPT_JSON:
		env.json = true;
		break;
	case OPT_VERBOSE:
		env.verbose = true;
		break;
	case ARGP_KEY_ARG:
		take_command(&state->argv[state->next - 1],
			     state->argc - state->next + 1);
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		if (!env.tool)
			sched_usage_error(
				"no TOOL: give TOOL [TOOL-OPTS] -- WORKLOAD");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static void parse_args(int argc, char **argv)
{
	static const struct argp argp = {
		.options = options,
		.parser = parse_opt,
		.args_doc = "TOOL [TOOL-OPTS] -- WORKLOAD [ARG...]",
		.doc = doc,
	};
	size_t i;

	/* the built-ins first, so that --metric cannot take their names */
	for (i = 0; i < ARRAY_SIZE(builtins); i++) {
		struct metric *m = &env.metrics[env.nr_metrics++];

		snprintf(m->name, sizeof(m->name), "%s", builtins[i].name);
		m->source = FROM_TOOL;
		m->key = builtins[i].key;
		m->subkey = builtins[i].subkey;
	}
	/* TOOL's options after TOOL are TOOL's */
	sched_argp_parse(NAME, &argp, NULL, false, argc, argv);
}

/* --- the tools' JSON lines, as far as sched-ab reads them ---------------- */

static const char *json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return p;
}

/* p at '"'; returns what follows the closing quote, or NULL. */
static const char *json_skip_string(const char *p)
{
	for (p++; *p && *p != '"'; p++) {
		if (*p == '\\' && !*++p)
			return NULL;
	}
	return *p ? p + 1 : NULL;
}

/* Returns what follows the value at p, or NULL if it is not JSON. */
static const char *json_skip_value(const char *p, int depth)
{
	char close;

	p = json_ws(p);
	if (*p == '"')
		return json_skip_string(p);
	if (*p == '{' || *p == '[') {
		if (depth > 16)
			return NULL;
		close = *p == '{' ? '}' : ']';
		p = json_ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (close == '}') {
				if (*p != '"')
					return NULL;
				p = json_ws(json_skip_string(p) ?: "");
				if (*p++ != ':')
					return NULL;
			}
			p = json_skip_value(p, depth + 1);
			if (!p)
				return NULL;
			p = json_ws(p);
			if (*p == close)
				return p + 1;
			if (*p++ != ',')
				return NULL;
			p = json_ws(p);
		}
	}
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	if (*p == '-' || (*p >= '0' && *p <= '9')) {
		char *end;

		strtod(p, &end);
		return end;
	}
	return NULL;
}

/* The value of key in the object at obj (a valid one), or NULL. */
static const char *json_get(const char *obj, const char *key)
{
	size_t len = strlen(key);
	const char *p = json_ws(obj), *k;

	if (*p != '{')
		return NULL;
	p = json_ws(p + 1);
	while (*p == '"') {
		k = p + 1;
		p = json_ws(json_skip_string(p));
		p = json_ws(p + 1); /* the ':' */
		if ((size_t)(p - k) >= len + 2 && !strncmp(k, key, len) &&
		    k[len] == '"')
			return p;
		p = json_ws(json_skip_value(p, 0));
		if (*p != ',')
			return NULL;
		p = json_ws(p + 1);
	}
	return NULL;
}

/* A number (NAN if null or not one) at key[.subkey] of obj. */
static double json_number(const char *obj, const char *key, const char *subkey)
{
	const char *v = json_get(obj, key);
	char *end;
	double d;

	if (v && subkey)
		v = json_get(v, subkey);
	if (!v || !(*v == '-' || (*v >= '0' && *v <= '9')))
		return NAN;
	d = strtod(v, &end);
	return end == v ? NAN : d;
}

static bool json_is(const char *obj, const char *key, const char *literal)
{
	const char *v = json_get(obj, key);
	size_t len = strlen(literal);

	return v && !strncmp(v, literal, len) && strchr(" \t,}", v[len]);
}

/* --- one run ------------------------------------------------------------ */

/* Set by the handler: the signal that stops us, and the tool running. */
static volatile sig_atomic_t stop_signal;
static volatile pid_t running;

static void on_stop(int sig, siginfo_t *si, void *uc)
{
	stop_signal = sig;
	/* a terminal's signal has reached the tool's process group already */
	if (running > 0 && si->si_code != SI_KERNEL)
		kill(running, sig);
}

static char *read_file(const char *path)
{
	struct stat st;
	char *buf;
	size_t got = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !(buf = malloc((size_t)st.st_size + 1))) {
		close(fd);
		return NULL;
	}
	while (got < (size_t)st.st_size &&
	       (n = read(fd, buf + got, (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	close(fd);
	return buf;
}

/* The last non-empty line of text, for an error message. */
static const char *last_line(char *text)
{
	char *end = text + strlen(text), *start;

	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	start = strrchr(text, '\n');
	return start ? start + 1 : text;
}

struct run_ctx {
	const char *dir;
	/* the directory's name, then "/output" or "/tool.json" */
	char out_path[PATH_MAX + 16];
	char json_path[PATH_MAX + 16];
};

static int run_failed(const struct ab_run *r, const char *output,
		      const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int run_failed(const struct ab_run *r, const char *output,
		      const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (env.verbose && output && *output)
		fprintf(stderr, "%s", output);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sched_err("round %d (%c): %s", r->round, r->dry_run ? 'A' : 'B', msg);
	return 1;
}

/* A non-negative decimal number, all of s[0..len). */
static int parse_number(const char *s, size_t len, double *out)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf) || !(*s >= '0' && *s <= '9'))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (strspn(buf, "0123456789.eE+-") != len)
		return -1;
	*out = strtod(buf, &end);
	return *end || !isfinite(*out) ? -1 : 0;
}

/* The workload's metrics, from the last line each REGEX matches. */
static int match_metrics(struct ab_run *r, char *output)
{
	const char *found;
	struct metric *m;
	regmatch_t g[2];
	size_t len = 0;
	char *line, *nl;
	int i;

	for (i = 0; i < env.nr_metrics; i++) {
		m = &env.metrics[i];
		if (m->source != FROM_WORKLOAD)
			continue;
		found = NULL;
		for (line = output; line; line = nl) {
			nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			if (!regexec(&m->re, line, 2, g, 0) &&
			    g[1].rm_so >= 0) {
				found = line + g[1].rm_so;
				len = (size_t)(g[1].rm_eo - g[1].rm_so);
			}
			if (nl)
				*nl++ = '\n';
		}
		if (!found)
			return run_failed(
				r, output,
				"metric %s: no line of the output matches '%s'",
				m->name, m->regex);
		if (parse_number(found, len, &r->values[i]))
			return run_failed(
				r, output,
				"metric %s: '%.*s' is not a non-negative number",
				m->name, (int)len, found);
	}
	return 0;
}

/* The run record opens the tool's file, the summary closes it. */
static int read_summary(struct ab_run *r, char *file, char *output, int wstatus)
{
	char *first = file, *last, *nl;
	const char *end;
	double status;
	int i;

	nl = strchr(file, '\n');
	if (nl)
		*nl = '\0';
	end = json_skip_value(first, 0);
	if (!end || *json_ws(end) || !json_is(first, "type", "\"run\"")) {
		if (WIFSIGNALED(wstatus))
			return run_failed(r, output, "%s killed by signal %d",
					  env.tool, WTERMSIG(wstatus));
		return run_failed(r, output, "%s %s (exit %d): %s", env.tool,
				  WEXITSTATUS(wstatus) ? "failed" :
							 "wrote no run record",
				  WEXITSTATUS(wstatus), last_line(output));
	}
	if (!json_is(first, "dry_run", r->dry_run ? "true" : "false"))
		return run_failed(
			r, output,
			"%s ran %s --dry-run: its options decide the side",
			env.tool, r->dry_run ? "without" : "with");
	last = nl ? nl + 1 : first + strlen(first);
	/* the last line: the summary */
	for (nl = last; (nl = strchr(last, '\n')) && nl[1];)
		last = nl + 1;
	if (nl)
		*nl = '\0';
	end = json_skip_value(last, 0);
	if (!*last || !end || *json_ws(end) ||
	    !json_is(last, "type", "\"summary\""))
		return run_failed(r, output,
				  "%s wrote no summary (exit %d): %s", env.tool,
				  exit_status_of(wstatus), last_line(output));
	r->summary = strdup(last);
	if (!r->summary)
		return run_failed(r, NULL, "%s", strerror(ENOMEM));
	status = json_number(last, "status", NULL);
	r->status = isnan(status) ? -1 : (int)status;
	if (r->status)
		return run_failed(r, output,
				  "the workload exited with status %d",
				  r->status);
	if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus))
		return run_failed(r, output, "%s exited with status %d",
				  env.tool, exit_status_of(wstatus));
	for (i = 0; i < env.nr_metrics; i++) {
		struct metric *m = &env.metrics[i];

		if (m->source != FROM_TOOL)
			continue;
		r->values[i] = json_number(last, m->key, m->subkey);
		if (isnan(r->values[i]))
			m->missing = true;
	}
	return 0;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static int run_once(struct run_ctx *c, struct ab_run *r)
{
	char **argv, *file = NULL, *output = NULL;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t stop, orig;
	struct timespec t0;
	int argc = 0, i, n, err, wstatus = 0, ret;
	pid_t pid;

	for (n = 0; env.workload[n]; n++)
		;
	argv = calloc((size_t)(env.nr_tool_opts + n + 9), sizeof(*argv));
	if (!argv)
		return run_failed(r, NULL, "%s", strerror(ENOMEM));
	argv[argc++] = env.tool_path;
	if (r->dry_run)
		argv[argc++] = "--dry-run";
	argv[argc++] = "--json";
	argv[argc++] = "--quiet";
	argv[argc++] = "--output";
	argv[argc++] = c->json_path;
	/* the latency metrics; a later --observe in TOOL-OPTS wins */
	argv[argc++] = "--observe=full";
	for (i = 0; i < env.nr_tool_opts; i++)
		argv[argc++] = env.tool_opts[i];
	argv[argc++] = "--";
	for (i = 0; i < n; i++)
		argv[argc++] = env.workload[i];
	argv[argc] = NULL;

	unlink(c->json_path);
	/* stdout and stderr into one file, in the order written */
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, c->out_path,
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	/*
	 * A stop signal is held until the tool is known as running, so it
	 * is passed on or stops us before the run; the tool gets our mask.
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &orig);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &orig);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = stop_signal ? EINTR :
			    posix_spawn(&pid, env.tool_path, &fa, &attr, argv,
					environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	if (!err)
		running = pid;
	sigprocmask(SIG_SETMASK, &orig, NULL);
	if (err == EINTR && stop_signal)
		return 1;
	if (err)
		return run_failed(r, NULL, "starting %s: %s", env.tool_path,
				  strerror(err));
	/* a signal for us was passed on; the tool ends the run */
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	running = 0;
	r->round_s = seconds_since(&t0);
	output = read_file(c->out_path);
	file = read_file(c->json_path);
	if (!output)
		ret = run_failed(r, NULL, "reading the output: %s",
				 strerror(errno));
	else if (stop_signal)
		ret = 1;
	else
		ret = read_summary(r, file ?: "", output, wstatus);
	if (!ret)
		ret = match_metrics(r, output);
	free(output);
	free(file);
	return ret;
}

/* --- the report ---------------------------------------------------------- */

static const char *verdict_name(int v)
{
	return v < 0 ? "better" : v > 0 ? "worse" : "no difference";
}

static void json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.10g", v);
	else
		fputs("null", f);
}

static void json_side(FILE *f, const struct stats_spread *s)
{
	fprintf(f, "{\"n\":%d,\"median\":", s->n);
	json_num(f, s->median);
	fputs(",\"min\":", f);
	json_num(f, s->min);
	fputs(",\"q1\":", f);
	json_num(f, s->q1);
	fputs(",\"q3\":", f);
	json_num(f, s->q3);
	fputs(",\"max\":", f);
	json_num(f, s->max);
	fputc('}', f);
}

static void json_strings(FILE *f, char **v, int n)
{
	int i;

	fputc('[', f);
	for (i = 0; i < n && v[i]; i++) {
		if (i)
			fputc(',', f);
		json_string(f, v[i]);
	}
	fputc(']', f);
}

static bool reported(const struct metric *m)
{
	return !m->missing;
}

static void print_json(FILE *f, const struct ab_run *runs, int nr_runs,
		       const struct stats_ab *res)
{
	int i, j;
	bool first;

	fputs("{\"tool\":", f);
	json_string(f, env.tool);
	fputs(",\"tool_path\":", f);
	json_string(f, env.tool_path);
	fputs(",\"tool_opts\":", f);
	json_strings(f, env.tool_opts, env.nr_tool_opts);
	fputs(",\"workload\":", f);
	json_strings(f, env.workload, INT_MAX);
	fprintf(f, ",\"rounds\":%llu,\"seed\":%llu,\"version\":\"%s\"",
		(unsigned long long)env.rounds, (unsigned long long)env.seed,
		SCHEDBPF_VERSION);
	fputs(",\"runs\":[", f);
	for (i = 0; i < nr_runs; i++) {
		const struct ab_run *r = &runs[i];

		fprintf(f,
			"%s{\"round\":%d,\"side\":\"%c\",\"dry_run\":%s,"
			"\"status\":%d,\"round_s\":%.3f,\"metrics\":{",
			i ? "," : "", r->round, r->dry_run ? 'A' : 'B',
			r->dry_run ? "true" : "false", r->status, r->round_s);
		for (j = 0; j < env.nr_metrics; j++) {
			if (j)
				fputc(',', f);
			json_string(f, env.metrics[j].name);
			fputc(':', f);
			json_num(f, r->values[j]);
		}
		fprintf(f, "},\"summary\":%s}", r->summary);
	}
	fputs("],\"metrics\":[", f);
	first = true;
	for (j = 0; j < env.nr_metrics; j++) {
		const struct metric *m = &env.metrics[j];
		const struct stats_ab *x = &res[j];

		if (!reported(m))
			continue;
		fprintf(f, "%s{\"name\":", first ? "" : ",");
		first = false;
		json_string(f, m->name);
		fprintf(f, ",\"source\":\"%s\",\"regex\":",
			m->source == FROM_TOOL ? "tool" : "workload");
		if (m->regex)
			json_string(f, m->regex);
		else
			fputs("null", f);
		fprintf(f, ",\"better\":\"%s\",\"a\":",
			m->higher_is_better ? "higher" : "lower");
		json_side(f, &x->a);
		fputs(",\"b\":", f);
		json_side(f, &x->b);
		fputs(",\"ratio\":", f);
		json_num(f, x->ratio);
		if (x->confidence > 0) {
			fputs(",\"ci\":[", f);
			json_num(f, x->lo);
			fputc(',', f);
			json_num(f, x->hi);
			fprintf(f, "],\"confidence\":%.4f", x->confidence);
		} else {
			fputs(",\"ci\":null,\"confidence\":null", f);
		}
		fprintf(f, ",\"verdict\":\"%s\"}", verdict_name(x->verdict));
	}
	fputs("]}\n", f);
}

static const char *fmt_num(double v, char *buf, size_t len)
{
	if (isinf(v))
		snprintf(buf, len, "inf");
	else if (isnan(v))
		snprintf(buf, len, "n/a");
	else if (fabs(v) >= 1e4)
		snprintf(buf, len, "%.0f", v); /* 16383, not 1.638e+04 */
	else
		snprintf(buf, len, "%.4g", v);
	return buf;
}

static const char *fmt_side(const struct stats_spread *s, char *buf, size_t len)
{
	char m[32], lo[32], hi[32];

	snprintf(buf, len, "%s (%s..%s)", fmt_num(s->median, m, sizeof(m)),
		 fmt_num(s->min, lo, sizeof(lo)),
		 fmt_num(s->max, hi, sizeof(hi)));
	return buf;
}

static void print_table(FILE *f, const struct stats_ab *res)
{
	char a[112], b[112], r[32], lo[32], hi[32], ci[80];
	int i;

	fprintf(f, "%s: %s", NAME, env.tool);
	for (i = 0; i < env.nr_tool_opts; i++)
		fprintf(f, " %s", env.tool_opts[i]);
	fprintf(f,
		", %llu round%s of A (--dry-run) and B in random order, seed %llu\n",
		(unsigned long long)env.rounds, env.rounds == 1 ? "" : "s",
		(unsigned long long)env.seed);
	fprintf(f, "%-16s %-26s %-26s %8s  %-18s %s\n", "metric",
		"A median (min..max)", "B median (min..max)", "B/A", "95% CI",
		"verdict");
	for (i = 0; i < env.nr_metrics; i++) {
		const struct metric *m = &env.metrics[i];
		const struct stats_ab *x = &res[i];

		if (!reported(m))
			continue;
		if (x->confidence > 0)
			snprintf(ci, sizeof(ci), "%s..%s",
				 fmt_num(x->lo, lo, sizeof(lo)),
				 fmt_num(x->hi, hi, sizeof(hi)));
		else
			snprintf(ci, sizeof(ci), "none");
		fprintf(f, "%-16s %-26s %-26s %8s  %-18s %s%s\n", m->name,
			fmt_side(&x->a, a, sizeof(a)),
			fmt_side(&x->b, b, sizeof(b)),
			fmt_num(x->ratio, r, sizeof(r)), ci,
			x->verdict ? verdict_name(x->verdict) :
				     "no difference at this noise",
			x->confidence > 0 ? "" :
					    " (4 rounds or more for a 95% CI)");
	}
	fprintf(f,
		"lower is better%s; B/A is the median of every B/A pair, its CI Mann-Whitney's\n",
		env.nr_metrics > (int)ARRAY_SIZE(builtins) ?
			" unless the metric says :higher" :
			"");
}

/* --- main ---------------------------------------------------------------- */

/* splitmix64: a small generator whose sequence a seed fixes everywhere */
static __u64 next_random(__u64 *state)
{
	__u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void remove_dir(struct run_ctx *c)
{
	unlink(c->out_path);
	unlink(c->json_path);
	rmdir(c->dir);
}

static int run_rounds(struct ab_run *runs)
{
	char dir[PATH_MAX];
	const char *tmp = getenv("TMPDIR");
	struct run_ctx c = { .dir = dir };
	__u64 state = env.seed;
	int i, side, ret = 0;
	bool b_first;

	snprintf(dir, sizeof(dir), "%s/sched-ab.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		sched_err("creating a directory in %s: %s",
			  tmp && *tmp ? tmp : "/tmp", strerror(errno));
		return 1;
	}
	snprintf(c.out_path, sizeof(c.out_path), "%s/output", dir);
	snprintf(c.json_path, sizeof(c.json_path), "%s/tool.json", dir);
	for (i = 0; i < (int)env.rounds && !ret; i++) {
		b_first = next_random(&state) >> 63;
		for (side = 0; side < 2 && !ret; side++) {
			struct ab_run *r = &runs[2 * i + side];

			r->round = i + 1;
			r->dry_run = (side == 0) != b_first;
			ret = run_once(&c, r);
			if (!ret && env.verbose)
				fprintf(stderr,
					"%s: round %d/%llu (%c): %.3f s\n",
					NAME, r->round,
					(unsigned long long)env.rounds,
					r->dry_run ? 'A' : 'B', r->round_s);
			if (stop_signal)
				ret = 1;
		}
	}
	remove_dir(&c);
	return ret;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_sigaction = on_stop,
				.sa_flags = SA_SIGINFO };
	double a[ROUNDS_MAX], b[ROUNDS_MAX];
	struct stats_ab res[MAX_METRICS];
	struct ab_run *runs;
	int i, j, na, nb, ret;

	parse_args(argc, argv);
	if (!env.seed_given &&
	    getrandom(&env.seed, sizeof(env.seed), 0) != sizeof(env.seed))
		env.seed = (__u64)time(NULL) ^ (__u64)getpid();
	runs = calloc(2 * env.rounds, sizeof(*runs));
	if (!runs) {
		sched_err("%s", strerror(ENOMEM));
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	ret = run_rounds(runs);
	if (stop_signal)
		sched_die_of(stop_signal);
	if (ret)
		return ret;

	for (j = 0; j < env.nr_metrics; j++) {
		if (!reported(&env.metrics[j]))
			continue;
		for (i = na = nb = 0; i < 2 * (int)env.rounds; i++) {
			if (runs[i].dry_run)
				a[na++] = runs[i].values[j];
			else
				b[nb++] = runs[i].values[j];
		}
		stats_compare(a, na, b, nb, env.metrics[j].higher_is_better,
			      &res[j]);
	}
	if (env.json)
		print_json(stdout, runs, 2 * (int)env.rounds, res);
	else
		print_table(stdout, res);
	if (fflush(stdout) || ferror(stdout)) {
		sched_err("writing output: %s", strerror(errno));
		return 1;
	}
	return 0;
}
