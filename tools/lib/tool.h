/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The life of a schedbpf tool, shared by all of them, in four stages, one
 * module each:
 *
 *	options.c   sched_tool_parse()   common + tool options, targets
 *	load.c      sched_tool_init()    whether the kernel has the hooks
 *	            sched_tool_load()    the tool's skeleton filled and
 *	                                 loaded, -p targets
 *	run.c       sched_run()          attach, CMD, the loop, signals
 *	report.c    report_*()           every line the tool prints
 *
 * sched_tool_main() (tool.c) runs them in order; a tool's main() fills a
 * struct sched_tool and calls it. Errors are printed where they happen,
 * one line "TOOL: what failed: why"; the functions return 0 or the exit
 * status (1 runtime failure, 2 bad usage, 126/127 for a command that cannot
 * run). Usage errors found while parsing exit at once.
 */
#ifndef SCHEDBPF_TOOL_H
#define SCHEDBPF_TOOL_H

#include <argp.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

#include "cgroup.h"
#include "launch.h"
#include "skel.h"
#include "util.h"
#include "report.h"
#include "schedbpf.h"

#define SCHEDBPF_VERSION "0.1"

/*
 * A file the series creates (its kill switch), so a kernel has the hooks
 * if it is there.
 */
#define SCHED_KERNEL_MARK "/proc/sys/kernel/sched_bpf_detach_all"

/* Option groups, so each tool's options sit between targets and output. */
enum {
	SCHED_GROUP_TARGETS = 1,
	SCHED_GROUP_POLICY = 2,
	SCHED_GROUP_OUTPUT = 3,
};

/* What the common options set; tools read it, the library fills it. */
struct sched_opts {
	struct cgroup_target cgroups[SCHEDBPF_MAX_CGROUPS];
	int nr_cgroups;
	pid_t tgids[SCHEDBPF_MAX_PIDS];
	/* each -p process held from parsing on, so its PID cannot be reused */
	int pidfds[SCHEDBPF_MAX_PIDS];
	int nr_tgids;
	bool all;
	char **cmd;
	char cmd_path[PATH_MAX];
	__u64 interval_ns;
	__u64 duration_ns;
	/* after the tool has asked CMD to stop, SIGKILL this much later */
	__u64 kill_after_ns;
	/* the rows, JSON lines and summary go here instead of stdout */
	const char *output;
	bool json;
	bool quiet;
	bool dry_run;
	bool verbose;
	/* enum schedbpf_observe, --observe */
	int observe;
};

/*
 * One of a tool's own settings, for the JSON run record (its .rodata field
 * is set by the tool's SETTINGS, skel.h).
 */
struct sched_setting {
	const char *key;
	enum { SCHED_SETTING_NS, SCHED_SETTING_BOOL } type;
	const void *value; /* __u64 or bool */
};

struct sched_tool {
	/* set by the tool */
	const char *name;
	/* argp doc: one-line summary, "\v", then EXAMPLES */
	const char *doc;
	/* the tool's own options (group SCHED_GROUP_POLICY) and parser */
	const struct argp_option *options;
	argp_parser_t parser;
	struct stat_columns columns;
	/* the tool's knobs, ended by { NULL } */
	const struct sched_setting *settings;
	/* opens the tool's skeleton: NAME_open of SCHED_SKELETONS() */
	sched_skel_open_fn *open;

	/* set by the library */
	struct sched_opts opts;
	/* the loaded skeleton (none until sched_tool_load()) */
	struct sched_skel skel;
	/* the tool dies of this signal once it has cleaned up (0: exits) */
	int die_signal;
	/* the signal mask the tool started with (sched_block_signals()) */
	sigset_t orig_mask;
	bool signals_blocked;
};

/* The whole life above; returns the exit status (or dies of CMD's signal). */
int sched_tool_main(struct sched_tool *t, int argc, char **argv);

/* --- options.c ----------------------------------------------------------- */

/* Parses argv; on bad usage prints the error and exits 2. */
void sched_tool_parse(struct sched_tool *t, int argc, char **argv);

/*
 * Every program's parsing, the tools' and sched-ab's: argv by argp (input
 * for its parser), under name in help and errors, in order (an argument
 * that is not an option reaches argp's parser where it stands, to take
 * the rest). --help (-h, -?), --usage and --version follow argp's options,
 * print on stdout and exit 0; --version names libbpf's too if libbpf. On
 * bad usage prints the error and exits 2.
 */
void sched_argp_parse(const char *name, const struct argp *argp, void *input,
		      bool libbpf, int argc, char **argv);

/*
 * For tools' parsers: parses a duration option in [min_ns, max_ns], or
 * exits 2 with a message naming the option and quoting arg.
 */
__u64 sched_parse_duration_opt(const char *opt, const char *arg, __u64 min_ns,
			       __u64 max_ns);

/* --observe's names, indexed by enum schedbpf_observe. */
extern const char *const sched_observe_names[];

/* In a tool's argp parser: the common options parsed so far. */
static inline const struct sched_opts *sched_state_opts(struct argp_state *s)
{
	return &((struct sched_tool *)s->input)->opts;
}

/* --- load.c -------------------------------------------------------------- */

int sched_tool_init(struct sched_tool *t);
struct schedbpf_cfg sched_tool_cfg(const struct sched_tool *t);
int sched_tool_load(struct sched_tool *t);
void sched_tool_fini(struct sched_tool *t);

/*
 * What the run stage needs of the loaded programs, so that it knows
 * nothing of BPF (and its tests can run without it). Each returns 0 or an
 * exit status, having printed why.
 */
struct sched_backend {
	void *ctx;
	/* make pid and its descendants targets (CMD without -c) */
	int (*add_tree)(void *ctx, pid_t pid);
	/* a -p process has exited: its tgid may be reused */
	void (*drop_pid)(void *ctx, pid_t tgid);
	int (*attach)(void *ctx);
	/* the counters' totals, and the latency histogram (may be NULL) */
	int (*read)(void *ctx, __u64 *stats, __u64 *hist);
};

/* The backend of the tool's loaded object. */
struct sched_backend sched_bpf_backend(struct sched_tool *t);

/* --- run.c --------------------------------------------------------------- */

/*
 * Blocks the signals that stop a run (SIGINT, SIGTERM, SIGHUP, SIGPIPE)
 * from the tool's start, keeping the mask it started with for CMD:
 * sched_run() reads them from a signalfd, so one that comes while the
 * programs load stops the run once it starts. (Unblocked, a signal the
 * tool inherited as ignored, as a script's `tool &` does with SIGINT, was
 * dropped during the load, and the tool ran on.) sched_run() does it
 * itself if nothing did before.
 */
void sched_block_signals(struct sched_tool *t);

/*
 * Attaches, starts CMD, prints until told to stop, prints the summary.
 * Returns the exit status; sets t->die_signal when the tool must die of a
 * signal after cleaning up.
 */
int sched_run(struct sched_tool *t, const struct sched_backend *b);

/* Dies of sig, without a core dump; returns only if sig does not kill. */
void sched_die_of(int sig);

#endif /* SCHEDBPF_TOOL_H */
