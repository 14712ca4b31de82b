/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Everything a tool prints: its errors, the table, the JSON
 * lines and the summary.
 *
 * JSON output (--json): one object per line, keys stable across releases.
 * The first line describes the run, for a file to say what produced it:
 *   "type"      "run"
 *   "tool", "time", "dry_run"  as below
 *   "version"   the tool's version; "libbpf" the version of the libbpf
 *               that generated its skeleton (at build time), e.g. "v1.5";
 *   "kernel"    the running kernel's release (uname -r)
 *   "targets"   {"all": bool, "cgroups": [canonical paths], "pids": [tgids],
 *                "cmd": [CMD and its arguments] or null}
 *   "settings"  {"interval_ns", "duration_ns" (null: none), "kill_after_ns",
 *                "quiet", "output" (null: stdout), "observe" (none, counts
 *                or full), and the tool's own, e.g. "max_run_ns"}
 *   "attach_ns" from the tool's exec to its programs attached (to the
 *               kernel's clock tick, 10 ms at most HZ)
 * Every other line has
 *   "type"      "interval" (one per --interval) or "summary" (the last line)
 *   "tool"      the tool's name, e.g. "no-preempt"
 *   "time"      local wall-clock time, "HH:MM:SS"
 *   "elapsed_s" seconds since the programs were attached
 *   "dry_run"   true under --dry-run (the policy counted but did not act)
 * and one integer per counter: per interval its increase, in the summary
 * its total.
 *   "tick_calls", "tick_targets", "tick_suppressed", "tick_forced",
 *   "wakeup_calls", "wakeup_targets", "wakeup_suppressed", "wakeup_forced",
 *   "entity_calls", "entity_targets", "entity_suppressed", "entity_forced":
 *      per hook, calls, calls concerning a target, and preemptions the
 *      policy suppressed or forced (would have, under --dry-run);
 *   "bounded"      times a safety bound handed a decision back to CFS;
 *   "preemptions"  involuntary context switches of targets;
 *   "preemptions_rt"  those of them by an RT, deadline or stop task, which
 *                  no CFS hook decides;
 *   "preemptions_wakeup"  those of them because a CFS task woke up and was
 *                  preferred (check_preempt_wakeup() rescheduled the target);
 *   "wakeups"      target wakeups whose wakeup-to-run latency was measured.
 * The summary adds
 *   "latency_us"   {"count": N (samples in hist), "p50": us, "p90": us, "p99": us,
 *                   "hist": [N0, N1, ...]} where hist[0] counts 0-1 us and
 *                  hist[i] counts [2^i, 2^(i+1)) us; a percentile is the
 *                  upper bound of the bucket it falls in (null if count is 0)
 *   "status"       the wrapped command's exit status, or null without one.
 */
#ifndef SCHEDBPF_REPORT_H
#define SCHEDBPF_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <linux/types.h>

#include "schedbpf.h"

struct sched_tool;

/* Errors: "TOOL: fmt\n" on stderr; the name is set by report_set_name(). */
void report_set_name(const char *name);
const char *report_name(void);
void sched_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* For tools' parsers: sched_err() and exit 2. */
void sched_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* What one run has printed so far, and where. */
struct report {
	const struct sched_tool *t;
	FILE *out;
	struct timespec start;
	/* from exec to attached, or -1 if /proc does not say */
	long long attach_ns;
	__u64 prev[SCHEDBPF_NR_STATS];
};

/*
 * Where the run's lines go: stdout, or --output's file. Returns 0, or 1
 * having said why the file cannot be written.
 */
int report_open(struct report *r, const struct sched_tool *t);

/* Closes --output's file; 0 or the -errno of its last write. */
int report_close(struct report *r);

/*
 * The run's start (elapsed time counts from here; call it once attached)
 * and its first output: under -v a line on stderr with the time from exec
 * to attached; the run record under --json, else the table's header
 * unless --quiet.
 * These return 0, or the -errno of writing stdout.
 */
int report_begin(struct report *r, const struct sched_tool *t);

/* One row (or JSON line) of the counters' increase since the last. */
int report_interval(struct report *r, const __u64 *cur);

/* The summary; status is the wrapped command's exit status, or NULL. */
int report_end(struct report *r, const __u64 *v, const __u64 *hist,
	       const int *status);

/*
 * Upper bound in us of the log2 bucket holding the pct-th percentile
 * (0 < pct <= 100) of hist, or -1 when it is empty.
 */
long long hist_percentile(const __u64 *hist, int n, double pct);

/* runqlat-style rendering of a log2 histogram. */
void print_log2_hist(FILE *f, const __u64 *hist, int n, const char *unit);

/* Table columns, chosen by each tool. */
struct stat_columns {
	const enum schedbpf_stat *ids;
	int n;
};

/* TIME is HH:MM:SS, or HH:MM:SS.mmm when rows come more than once a second. */
#define TIME_WIDTH 8
#define TIME_WIDTH_MS 12

void print_table_header(FILE *f, int time_width,
			const struct stat_columns *cols);
void print_table_row(FILE *f, int time_width, const char *time,
		     const struct stat_columns *cols, const __u64 *v);

/* s as a JSON string, quoted and escaped. */
void json_string(FILE *f, const char *s);

/* What starts every JSON line. */
struct json_head {
	const char *type;
	const char *tool;
	const char *time;
	double elapsed_s;
	bool dry_run;
};

/* One JSON line per interval: the counters' increase. */
void print_json_interval(FILE *f, const struct json_head *h, const __u64 *v);

/*
 * The last JSON line: totals, latency from hist and status, the wrapped
 * command's exit status (NULL: no command).
 */
void print_json_summary(FILE *f, const struct json_head *h, const __u64 *v,
			const __u64 *hist, const int *status);

/*
 * A human summary: per-hook table, the other counters, latency (measured
 * at observe level full only, enum schedbpf_observe).
 */
void print_summary_text(FILE *f, const char *tool, double elapsed, bool dry_run,
			int observe, const __u64 *v, const __u64 *hist);

#endif /* SCHEDBPF_REPORT_H */
