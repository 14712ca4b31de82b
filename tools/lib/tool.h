/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The life of a schedbpf tool, shared by all of them:
 *
 *	sched_tool_parse(&tool, argc, argv);     common + tool options
 *	sched_tool_init(&tool);                  BTF, sched/ handler
 *	skel = X_bpf__open();
 *	skel->rodata->cfg_common = sched_tool_cfg(&tool);
 *	skel->rodata->cfg_... = env....;         the tool's own knobs
 *	sched_tool_load(&tool, skel->skeleton);  hooks resolved, load, targets
 *	status = sched_tool_run(&tool, skel->skeleton);
 *	X_bpf__destroy(skel);                    detaches
 *	sched_tool_fini(&tool);
 *
 * which SCHED_TOOL_MAIN() below is, for every tool's main().
 * Errors are printed here, one line "TOOL: what failed: why"; the functions
 * return 0 or the exit status (1 runtime failure, 2 bad usage, 126/127 for
 * a command that cannot run). Usage errors found while parsing exit at once.
 */
#ifndef SCHEDBPF_TOOL_H
#define SCHEDBPF_TOOL_H

#include <argp.h>
#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>
#include <bpf/libbpf.h>

#include "btf.h"
#include "cgroup.h"
#include "launch.h"
#include "schedbpf.h"
#include "stats.h"

#define SCHEDBPF_VERSION "0.1"

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
	int nr_tgids;
	bool all;
	char **cmd;
	char cmd_path[PATH_MAX];
	__u64 interval_ns;
	__u64 duration_ns;
	bool json;
	bool dry_run;
	bool verbose;
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

	/* set by the library */
	struct sched_opts opts;
	struct sched_btf btf;
	int handler_id;
};

/* Parses argv; on bad usage prints one line and exits 2. */
void sched_tool_parse(struct sched_tool *t, int argc, char **argv);

/* Prints "TOOL: fmt\n" to stderr. */
void sched_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* For tools' parsers: sched_err() and exit 2. */
void sched_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/*
 * For tools' parsers: parses a duration option in [min_ns, max_ns], or
 * exits 2 with a message naming the option and quoting arg.
 */
__u64 sched_parse_duration_opt(const char *opt, const char *arg, __u64 min_ns,
			       __u64 max_ns);

int sched_tool_init(struct sched_tool *t);
struct schedbpf_cfg sched_tool_cfg(const struct sched_tool *t);
int sched_tool_load(struct sched_tool *t, struct bpf_object_skeleton *s);
int sched_tool_run(struct sched_tool *t, struct bpf_object_skeleton *s);
void sched_tool_fini(struct sched_tool *t);

/* In a tool's argp parser: the common options parsed so far. */
static inline const struct sched_opts *sched_state_opts(struct argp_state *s)
{
	return &((struct sched_tool *)s->input)->opts;
}

/*
 * The whole of a tool's main() after it has filled its struct sched_tool:
 * the life above, with the skeleton PREFIX_bpf, SETUP(skel) filling the
 * tool's own cfg_* knobs. Evaluates to the exit status.
 */
#define SCHED_TOOL_MAIN(t, argc, argv, prefix, setup)                    \
	({                                                               \
		struct prefix##_bpf *skel_ = NULL;                       \
		int status_;                                             \
                                                                         \
		sched_tool_parse((t), (argc), (argv));                   \
		status_ = sched_tool_init(t);                            \
		if (!status_) {                                          \
			skel_ = prefix##_bpf__open();                    \
			if (!skel_) {                                    \
				sched_err("opening BPF object: %m");     \
				status_ = 1;                             \
			}                                                \
		}                                                        \
		if (!status_) {                                          \
			skel_->rodata->cfg_common = sched_tool_cfg(t);   \
			setup(skel_);                                    \
			status_ = sched_tool_load((t), skel_->skeleton); \
		}                                                        \
		if (!status_)                                            \
			status_ = sched_tool_run((t), skel_->skeleton);  \
		prefix##_bpf__destroy(skel_);                            \
		sched_tool_fini(t);                                      \
		status_;                                                 \
	})

#endif /* SCHEDBPF_TOOL_H */
