// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "parse.h"
#include "report.h"
#include "skel_libbpf.h"
#include "tool.h"

#define HIST_WIDTH 40
#define NR_PERCENTILES 3
/* per hook: calls, targets, suppressed, forced */
#define STATS_PER_HOOK (STAT_WAKEUP_CALLS - STAT_TICK_CALLS)

static const char *tool_name = "schedbpf";

void report_set_name(const char *name)
{
	tool_name = name;
}

const char *report_name(void)
{
	return tool_name;
}

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

/* print_summary_text() walks the hooks' counters four at a time */
_Static_assert(STAT_WAKEUP_CALLS == STAT_TICK_CALLS + 4 &&
		       STAT_ENTITY_CALLS == STAT_WAKEUP_CALLS + 4 &&
		       STAT_ENTITY_FORCED == STAT_ENTITY_CALLS + 3,
	       "per-hook counters are calls, targets, suppressed, forced");

/* Each counter's name in JSON, and its column title in tables. */
static const char *const stat_keys[SCHEDBPF_NR_STATS] = {
#define STAT_KEY(name, key, title) [STAT_##name] = #key,
	SCHEDBPF_STATS(STAT_KEY)
#undef STAT_KEY
};

static const char *const stat_titles[SCHEDBPF_NR_STATS] = {
#define STAT_TITLE(name, key, title) [STAT_##name] = title,
	SCHEDBPF_STATS(STAT_TITLE)
#undef STAT_TITLE
};

static long long slot_upper_us(int slot)
{
	return slot ? (1LL << (slot + 1)) - 1 : 1;
}

long long hist_percentile(const __u64 *hist, int n, double pct)
{
	__u64 total = 0, seen = 0, rank;
	int i;

	for (i = 0; i < n; i++)
		total += hist[i];
	if (!total)
		return -1;
	/* the smallest rank with at least pct percent of samples at or below */
	rank = (__u64)(pct / 100.0 * (double)total);
	if ((double)rank < pct / 100.0 * (double)total)
		rank++;
	if (!rank)
		rank = 1;
	for (i = 0; i < n; i++) {
		seen += hist[i];
		if (seen >= rank)
			return slot_upper_us(i);
	}
	return slot_upper_us(n - 1);
}

void print_log2_hist(FILE *f, const __u64 *hist, int n, const char *unit)
{
	int i, last = -1, width = HIST_WIDTH, stars;
	__u64 max = 0;

	for (i = 0; i < n; i++) {
		if (hist[i])
			last = i;
		if (hist[i] > max)
			max = hist[i];
	}
	if (last < 0)
		return;
	fprintf(f, "%*s%*s : count    distribution\n", 14, unit, 14, "");
	for (i = 0; i <= last; i++) {
		long long lo = i ? 1LL << i : 0;

		stars = max ? (int)(hist[i] * width / max) : 0;
		fprintf(f, "%*lld -> %-*lld : %-8llu |%.*s%*s|\n", 14, lo, 10,
			slot_upper_us(i), (unsigned long long)hist[i], stars,
			"****************************************",
			width - stars, "");
	}
}

void print_table_header(FILE *f, int time_width,
			const struct stat_columns *cols)
{
	int i;

	fprintf(f, "%-*s", time_width, "TIME");
	for (i = 0; i < cols->n; i++)
		fprintf(f, " %9s", stat_titles[cols->ids[i]]);
	fputc('\n', f);
}

void print_table_row(FILE *f, int time_width, const char *time,
		     const struct stat_columns *cols, const __u64 *v)
{
	int i;

	fprintf(f, "%-*s", time_width, time);
	for (i = 0; i < cols->n; i++)
		fprintf(f, " %9llu", (unsigned long long)v[cols->ids[i]]);
	fputc('\n', f);
}

static void print_json_head(FILE *f, const struct json_head *h)
{
	fprintf(f,
		"{\"type\":\"%s\",\"tool\":\"%s\",\"time\":\"%s\","
		"\"elapsed_s\":%.3f,\"dry_run\":%s",
		h->type, h->tool, h->time, h->elapsed_s,
		h->dry_run ? "true" : "false");
}

static void print_json_stats(FILE *f, const __u64 *v)
{
	int i;

	for (i = 0; i < SCHEDBPF_NR_STATS; i++)
		fprintf(f, ",\"%s\":%llu", stat_keys[i],
			(unsigned long long)v[i]);
}

void print_json_interval(FILE *f, const struct json_head *h, const __u64 *v)
{
	print_json_head(f, h);
	print_json_stats(f, v);
	fputs("}\n", f);
}

void print_json_summary(FILE *f, const struct json_head *h, const __u64 *v,
			const __u64 *hist, const int *status)
{
	static const int pcts[NR_PERCENTILES] = { 50, 90, 99 };
	__u64 count = 0;
	int i;

	for (i = 0; i < SCHEDBPF_LAT_SLOTS; i++)
		count += hist[i];
	print_json_head(f, h);
	print_json_stats(f, v);
	fprintf(f, ",\"latency_us\":{\"count\":%llu",
		(unsigned long long)count);
	for (i = 0; i < NR_PERCENTILES; i++) {
		long long p =
			hist_percentile(hist, SCHEDBPF_LAT_SLOTS, pcts[i]);

		if (p < 0)
			fprintf(f, ",\"p%d\":null", pcts[i]);
		else
			fprintf(f, ",\"p%d\":%lld", pcts[i], p);
	}
	fputs(",\"hist\":[", f);
	for (i = 0; i < SCHEDBPF_LAT_SLOTS; i++)
		fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)hist[i]);
	fputs("]},\"status\":", f);
	if (status)
		fprintf(f, "%d}\n", *status);
	else
		fputs("null}\n", f);
}

void print_summary_text(FILE *f, const char *tool, double elapsed, bool dry_run,
			int observe, const __u64 *v, const __u64 *hist)
{
	static const char *const hooks[] = { "tick", "wakeup", "entity" };
	long long p50, p90, p99;
	int h;

	fprintf(f, "\n%s: %.1f s%s\n", tool, elapsed,
		dry_run ? " (dry run: counted, not done)" : "");
	fprintf(f, "  %-8s %12s %12s %12s %12s\n", "hook", "calls", "targets",
		"suppressed", "forced");
	for (h = 0; h < (int)ARRAY_SIZE(hooks); h++) {
		const __u64 *s = v + STAT_TICK_CALLS + STATS_PER_HOOK * h;

		fprintf(f, "  %-8s %12llu %12llu %12llu %12llu\n", hooks[h],
			(unsigned long long)s[0], (unsigned long long)s[1],
			(unsigned long long)s[2], (unsigned long long)s[3]);
	}
	fprintf(f,
		"  bounded %llu, target preemptions %llu (%llu by RT, %llu by a wakeup)",
		(unsigned long long)v[STAT_BOUNDED],
		(unsigned long long)v[STAT_PREEMPTIONS],
		(unsigned long long)v[STAT_PREEMPTIONS_RT],
		(unsigned long long)v[STAT_PREEMPTIONS_WAKEUP]);
	/* the wakeups are those whose latency full measured */
	if (observe < SCHEDBPF_OBSERVE_FULL) {
		fprintf(f, "\n  wakeup-to-run latency: not measured (--observe=full)\n");
		return;
	}
	fprintf(f, ", wakeups %llu\n", (unsigned long long)v[STAT_WAKEUPS]);
	p50 = hist_percentile(hist, SCHEDBPF_LAT_SLOTS, 50);
	if (p50 < 0) {
		fprintf(f, "  no target wakeups measured\n");
		return;
	}
	p90 = hist_percentile(hist, SCHEDBPF_LAT_SLOTS, 90);
	p99 = hist_percentile(hist, SCHEDBPF_LAT_SLOTS, 99);
	fprintf(f,
		"  wakeup-to-run latency of targets: p50 <= %lld us, p90 <= %lld us, p99 <= %lld us\n",
		p50, p90, p99);
	print_log2_hist(f, hist, SCHEDBPF_LAT_SLOTS, "usecs");
}

/* One run: the record that opens it, the rows, the summary. */

static double seconds_since(const struct timespec *a)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - a->tv_sec) +
	       (double)(now.tv_nsec - a->tv_nsec) / 1e9;
}

static bool subsecond(const struct report *r)
{
	return r->t->opts.interval_ns < NSEC_PER_SEC;
}

static int time_width(const struct report *r)
{
	return subsecond(r) ? TIME_WIDTH_MS : TIME_WIDTH;
}

/* Local wall-clock time, with milliseconds when with_ms. */
static void wall_time(char *buf, size_t len, bool with_ms)
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, len, "%H:%M:%S", &tm);
	if (with_ms && n)
		snprintf(buf + n, len - n, ".%03ld", ts.tv_nsec / 1000000);
}

/* 0, or the -errno of the last failed write to the output. */
static int flush_out(FILE *out)
{
	errno = 0;
	if (fflush(out) || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void print_run_record(FILE *f, const struct sched_tool *t,
			     const char *time, long long attach_ns)
{
	const struct sched_opts *o = &t->opts;
	const struct sched_setting *s;
	struct utsname u;
	int i;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	fprintf(f, "{\"type\":\"run\",\"tool\":");
	json_string(f, t->name);
	fprintf(f, ",\"time\":\"%s\",\"dry_run\":%s,\"version\":\"%s\"", time,
		o->dry_run ? "true" : "false", SCHEDBPF_VERSION);
	fprintf(f, ",\"libbpf\":");
	json_string(f, SCHEDBPF_SKEL_LIBBPF);
	fprintf(f, ",\"kernel\":");
	json_string(f, u.release);
	fprintf(f, ",\"targets\":{\"all\":%s,\"cgroups\":[",
		o->all ? "true" : "false");
	for (i = 0; i < o->nr_cgroups; i++) {
		if (i)
			fputc(',', f);
		json_string(f, o->cgroups[i].path);
	}
	fprintf(f, "],\"pids\":[");
	for (i = 0; i < o->nr_tgids; i++)
		fprintf(f, "%s%d", i ? "," : "", o->tgids[i]);
	fprintf(f, "],\"cmd\":");
	if (o->cmd) {
		fputc('[', f);
		for (i = 0; o->cmd[i]; i++) {
			if (i)
				fputc(',', f);
			json_string(f, o->cmd[i]);
		}
		fputc(']', f);
	} else {
		fputs("null", f);
	}
	fprintf(f, "},\"settings\":{\"interval_ns\":%llu,\"duration_ns\":",
		(unsigned long long)o->interval_ns);
	if (o->duration_ns)
		fprintf(f, "%llu", (unsigned long long)o->duration_ns);
	else
		fputs("null", f);
	fprintf(f, ",\"kill_after_ns\":%llu,\"quiet\":%s",
		(unsigned long long)o->kill_after_ns,
		o->quiet ? "true" : "false");
	fprintf(f, ",\"output\":");
	if (o->output)
		json_string(f, o->output);
	else
		fputs("null", f);
	fprintf(f, ",\"observe\":\"%s\"", sched_observe_names[o->observe]);
	for (s = t->settings; s && s->key; s++) {
		fputc(',', f);
		json_string(f, s->key);
		if (s->type == SCHED_SETTING_BOOL)
			fprintf(f, ":%s",
				*(const bool *)s->value ? "true" : "false");
		else
			fprintf(f, ":%llu",
				(unsigned long long)*(const __u64 *)s->value);
	}
	fputs("},\"attach_ns\":", f);
	if (attach_ns >= 0)
		fprintf(f, "%lld", attach_ns);
	else
		fputs("null", f);
	fputs("}\n", f);
}

static struct json_head json_head(const struct report *r, const char *type,
				  char *time, size_t len)
{
	wall_time(time, len, false);
	return (struct json_head){
		.type = type,
		.tool = r->t->name,
		.time = time,
		.elapsed_s = seconds_since(&r->start),
		.dry_run = r->t->opts.dry_run,
	};
}

int report_open(struct report *r, const struct sched_tool *t)
{
	r->t = t;
	r->out = stdout;
	if (!t->opts.output)
		return 0;
	/* close-on-exec: CMD must not hold it open */
	r->out = fopen(t->opts.output, "we");
	if (!r->out) {
		sched_err("opening %s: %s", t->opts.output, strerror(errno));
		r->out = stdout;
		return 1;
	}
	return 0;
}

int report_close(struct report *r)
{
	int err = 0;

	if (r->out && r->out != stdout && fclose(r->out))
		err = -errno;
	r->out = NULL;
	return err;
}

/*
 * Nanoseconds since this process was exec'd: /proc/self/stat's start time
 * is in clock ticks of CLOCK_BOOTTIME. -1 if it cannot be read.
 */
static long long since_exec_ns(void)
{
	unsigned long long start;
	struct timespec now;
	char buf[1024], *p;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f = fopen("/proc/self/stat", "re");
	int i;

	if (!f)
		return -1;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	/* the fields after the command name, which may hold spaces */
	p = p ? strrchr(buf, ')') : NULL;
	for (i = 0; p && i < 20; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, "%llu", &start) != 1 || hz <= 0 ||
	    clock_gettime(CLOCK_BOOTTIME, &now))
		return -1;
	return (long long)now.tv_sec * NSEC_PER_SEC + now.tv_nsec -
	       (long long)(start * NSEC_PER_SEC / hz);
}

int report_begin(struct report *r, const struct sched_tool *t)
{
	char now[TIME_WIDTH_MS + 4];

	clock_gettime(CLOCK_MONOTONIC, &r->start);
	r->attach_ns = since_exec_ns();
	if (t->opts.verbose && r->attach_ns >= 0)
		fprintf(stderr, "%s: attached %.1f ms after exec\n",
			report_name(), r->attach_ns / 1e6);
	if (t->opts.json) {
		wall_time(now, sizeof(now), false);
		print_run_record(r->out, t, now, r->attach_ns);
	} else if (!t->opts.quiet) {
		print_table_header(r->out, time_width(r), &t->columns);
	}
	return flush_out(r->out);
}

int report_interval(struct report *r, const __u64 *cur)
{
	__u64 delta[SCHEDBPF_NR_STATS];
	char now[TIME_WIDTH_MS + 4];
	struct json_head h;
	int i;

	for (i = 0; i < SCHEDBPF_NR_STATS; i++)
		delta[i] = cur[i] - r->prev[i];
	memcpy(r->prev, cur, sizeof(r->prev));
	if (r->t->opts.quiet)
		return 0;
	if (r->t->opts.json) {
		h = json_head(r, "interval", now, sizeof(now));
		print_json_interval(r->out, &h, delta);
	} else {
		wall_time(now, sizeof(now), subsecond(r));
		print_table_row(r->out, time_width(r), now, &r->t->columns,
				delta);
	}
	return flush_out(r->out);
}

int report_end(struct report *r, const __u64 *v, const __u64 *hist,
	       const int *status)
{
	char now[TIME_WIDTH_MS + 4];
	struct json_head h;

	if (r->t->opts.json) {
		h = json_head(r, "summary", now, sizeof(now));
		print_json_summary(r->out, &h, v, hist, status);
	} else {
		print_summary_text(r->out, r->t->name, seconds_since(&r->start),
				   r->t->opts.dry_run, r->t->opts.observe, v,
				   hist);
	}
	return flush_out(r->out);
}
