// SPDX-License-Identifier: GPL-2.0-only
/*
 * waker - a task that wakes up periodically and runs briefly, measuring its
 * own wakeup latency: how late it got the CPU after its timer expired. That
 * lateness is what a wakeup-preemption policy changes when a CPU-bound task
 * shares the CPU.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include "workload.h"

static long long ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "period-us", required_argument, NULL, 'p' },
		{ "run-us", required_argument, NULL, 'r' },
		{ "seconds", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	long period_us = 1000, run_us = 50, seconds = 3;
	long long *lat, start_ns, end_ns;
	size_t n = 0, cap;
	struct timespec ts, due, cpu0;
	struct rusage ru;
	int c;

	while ((c = getopt_long(argc, argv, "p:r:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': period_us = parse_opt("waker", "--period-us", optarg, 10, 10000000); break;
		case 'r': run_us = parse_opt("waker", "--run-us", optarg, 0, 10000000); break;
		case 's': seconds = parse_opt("waker", "--seconds", optarg, 1, 3600); break;
		case 'h':
			printf("Usage: waker [--period-us US] [--run-us US] [--seconds S]\n"
			       "Sleep US microseconds (default 1000), spin --run-us of CPU time (default 50),\n"
			       "repeat for S seconds (default 3), then print the number of wakeups\n"
			       "and the wakeup latency (timer expiry to running) percentiles:\n"
			       "  wakeups=N p50_us=X p90_us=X p99_us=X max_us=X nivcsw=N\n"
			       "where nivcsw counts its involuntary context switches (getrusage).\n");
			return 0;
		default:
			fprintf(stderr, "waker: see waker --help\n");
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "waker: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	cap = seconds * 1000000 / period_us + 16;
	lat = calloc(cap, sizeof(*lat));
	if (!lat) {
		perror("waker: calloc");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	start_ns = ns(&ts);
	end_ns = start_ns + seconds * 1000000000LL;
	while (n < cap) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		if (ns(&ts) >= end_ns)
			break;
		due = ts;
		due.tv_nsec += period_us * 1000;
		due.tv_sec += due.tv_nsec / 1000000000;
		due.tv_nsec %= 1000000000;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL);
		clock_gettime(CLOCK_MONOTONIC, &ts);
		lat[n++] = ns(&ts) - ns(&due);
		/* CPU time, not wall time: the demand is the same however
		 * often it is preempted */
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0);
		while (1) {
			struct timespec t2;

			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t2);
			if (ns(&t2) - ns(&cpu0) >= run_us * 1000)
				break;
		}
	}
	getrusage(RUSAGE_SELF, &ru);
	qsort(lat, n, sizeof(*lat), cmp);
	if (!n) {
		printf("wakeups=0 nivcsw=%ld\n", ru.ru_nivcsw);
		return 0;
	}
	printf("wakeups=%zu p50_us=%lld p90_us=%lld p99_us=%lld max_us=%lld nivcsw=%ld\n",
	       n, lat[n / 2] / 1000, lat[n * 9 / 10] / 1000, lat[n * 99 / 100] / 1000,
	       lat[n - 1] / 1000, ru.ru_nivcsw);
	return 0;
}
