// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "stats.h"

/* print_summary_text() walks the hooks' counters four at a time */
_Static_assert(STAT_WAKEUP_CALLS == STAT_TICK_CALLS + 4 &&
		       STAT_ENTITY_CALLS == STAT_TICK_CALLS + 8 &&
		       STAT_ENTITY_FORCED == STAT_TICK_CALLS + 11,
	       "per-hook counters are calls, targets, suppressed, forced");

const char *const stat_keys[SCHEDBPF_NR_STATS] = {
	[STAT_TICK_CALLS] = "tick_calls",
	[STAT_TICK_TARGETS] = "tick_targets",
	[STAT_TICK_SUPPRESSED] = "tick_suppressed",
	[STAT_TICK_FORCED] = "tick_forced",
	[STAT_WAKEUP_CALLS] = "wakeup_calls",
	[STAT_WAKEUP_TARGETS] = "wakeup_targets",
	[STAT_WAKEUP_SUPPRESSED] = "wakeup_suppressed",
	[STAT_WAKEUP_FORCED] = "wakeup_forced",
	[STAT_ENTITY_CALLS] = "entity_calls",
	[STAT_ENTITY_TARGETS] = "entity_targets",
	[STAT_ENTITY_SUPPRESSED] = "entity_suppressed",
	[STAT_ENTITY_FORCED] = "entity_forced",
	[STAT_BOUNDED] = "bounded",
	[STAT_PREEMPTIONS] = "preemptions",
	[STAT_PREEMPTIONS_RT] = "preemptions_rt",
	[STAT_PREEMPTIONS_WAKEUP] = "preemptions_wakeup",
	[STAT_WAKEUPS] = "wakeups",
};

const char *const stat_titles[SCHEDBPF_NR_STATS] = {
	[STAT_TICK_CALLS] = "TICK",
	[STAT_TICK_TARGETS] = "TICK:TGT",
	[STAT_TICK_SUPPRESSED] = "TICK:SUP",
	[STAT_TICK_FORCED] = "TICK:FRC",
	[STAT_WAKEUP_CALLS] = "WAKE",
	[STAT_WAKEUP_TARGETS] = "WAKE:TGT",
	[STAT_WAKEUP_SUPPRESSED] = "WAKE:SUP",
	[STAT_WAKEUP_FORCED] = "WAKE:FRC",
	[STAT_ENTITY_CALLS] = "ENT",
	[STAT_ENTITY_TARGETS] = "ENT:TGT",
	[STAT_ENTITY_SUPPRESSED] = "ENT:SUP",
	[STAT_ENTITY_FORCED] = "ENT:FRC",
	[STAT_BOUNDED] = "BOUNDED",
	[STAT_PREEMPTIONS] = "PREEMPT",
	[STAT_PREEMPTIONS_RT] = "PRE:RT",
	[STAT_PREEMPTIONS_WAKEUP] = "PRE:WAKE",
	[STAT_WAKEUPS] = "WAKEUPS",
};

int percpu_sum(int map_fd, __u32 n, __u64 *out)
{
	int ncpus = libbpf_num_possible_cpus();
	__u64 *vals;
	__u32 key;
	int cpu;

	if (ncpus < 0)
		return ncpus;
	vals = calloc(ncpus, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	for (key = 0; key < n; key++) {
		if (bpf_map_lookup_elem(map_fd, &key, vals)) {
			int ret = -errno;

			free(vals);
			return ret;
		}
		out[key] = 0;
		for (cpu = 0; cpu < ncpus; cpu++)
			out[key] += vals[cpu];
	}
	free(vals);
	return 0;
}

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
	int i, last = -1, width = 40, stars;
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

void print_table_header(FILE *f, const struct stat_columns *cols)
{
	int i;

	fprintf(f, "%-8s", "TIME");
	for (i = 0; i < cols->n; i++)
		fprintf(f, " %9s", stat_titles[cols->ids[i]]);
	fputc('\n', f);
}

void print_table_row(FILE *f, const char *time, const struct stat_columns *cols,
		     const __u64 *v)
{
	int i;

	fprintf(f, "%-8s", time);
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
	static const int pcts[] = { 50, 90, 99 };
	__u64 count = 0;
	int i;

	for (i = 0; i < SCHEDBPF_LAT_SLOTS; i++)
		count += hist[i];
	print_json_head(f, h);
	print_json_stats(f, v);
	fprintf(f, ",\"latency_us\":{\"count\":%llu",
		(unsigned long long)count);
	for (i = 0; i < 3; i++) {
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
			const __u64 *v, const __u64 *hist)
{
	static const char *const hooks[] = { "tick", "wakeup", "entity" };
	long long p50, p90, p99;
	int h;

	fprintf(f, "\n%s: %.1f s%s\n", tool, elapsed,
		dry_run ? " (dry run: counted, not done)" : "");
	fprintf(f, "  %-8s %12s %12s %12s %12s\n", "hook", "calls", "targets",
		"suppressed", "forced");
	for (h = 0; h < 3; h++) {
		const __u64 *s = v + STAT_TICK_CALLS + 4 * h;

		fprintf(f, "  %-8s %12llu %12llu %12llu %12llu\n", hooks[h],
			(unsigned long long)s[0], (unsigned long long)s[1],
			(unsigned long long)s[2], (unsigned long long)s[3]);
	}
	fprintf(f,
		"  bounded %llu, target preemptions %llu (%llu by RT, %llu by a wakeup), wakeups %llu\n",
		(unsigned long long)v[STAT_BOUNDED],
		(unsigned long long)v[STAT_PREEMPTIONS],
		(unsigned long long)v[STAT_PREEMPTIONS_RT],
		(unsigned long long)v[STAT_PREEMPTIONS_WAKEUP],
		(unsigned long long)v[STAT_WAKEUPS]);
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
