// SPDX-License-Identifier: GPL-2.0-only
/*
 * hog - a CPU-bound task: spins until killed or until SECONDS pass.
 * Tests pin it next to another task and watch how often it is preempted.
 *
 * With --runs it also measures its own run lengths: as it spins it reads
 * the clock and its context-switch counts (getrusage), and a change of
 * the counts means it was switched out, so the time from one change to
 * the last read before the next is one run on the CPU. The guest's own
 * counts, not gaps in the clock: under emulation the host deschedules the
 * virtual CPU too, which is no switch. At the end (SECONDS, or
 * SIGTERM/SIGINT) it prints their percentiles.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include "workload.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig __attribute__((unused)))
{
	stop = 1;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static void usage(void)
{
	printf("Usage: hog [--runs] [SECONDS]\n"
	       "Spin on the CPU for SECONDS (default: until killed).\n"
	       "  --runs  measure run lengths on the CPU between context switches\n"
	       "          (getrusage). At the end (SECONDS, SIGTERM or SIGINT)\n"
	       "          print runs=N p10_us=X p50_us=X p90_us=X max_us=X\n"
	       "          (the first and the last, partial, run left out)\n");
}

static long switches(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/* Spins, recording runs into *lens; returns how many. */
static size_t spin_runs(long long end, long long **lens)
{
	size_t n = 0, cap = 4096;
	long long start, last, t;
	long sw = switches(), now_sw;
	int first = 1;

	*lens = malloc(cap * sizeof(**lens));
	if (!*lens) {
		perror("hog: malloc");
		exit(1);
	}
	start = last = now_ns();
	while (!stop && (!end || last < end)) {
		now_sw = switches();
		t = now_ns();
		if (now_sw != sw) {
			sw = now_sw;
			if (!first) {
				if (n == cap) {
					cap *= 2;
					*lens = realloc(*lens, cap * sizeof(**lens));
					if (!*lens) {
						perror("hog: realloc");
						exit(1);
					}
				}
				(*lens)[n++] = last - start;
			}
			first = 0;
			start = t;
		}
		last = t;
	}
	return n;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "runs", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	double seconds = 0;
	long long end = 0, *lens;
	volatile unsigned long spins = 0;
	int runs = 0, c;
	char *endp;
	size_t n;

	while ((c = getopt_long(argc, argv, "rh", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			runs = 1;
			break;
		case 'h':
			usage();
			return 0;
		default:
			fprintf(stderr, "hog: see hog --help\n");
			return 2;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "hog: too many arguments (see hog --help)\n");
		return 2;
	}
	if (argc - optind == 1) {
		seconds = strtod(argv[optind], &endp);
		if (*argv[optind] == '\0' || *endp || seconds <= 0) {
			fprintf(stderr, "hog: invalid SECONDS '%s'\n", argv[optind]);
			return 2;
		}
		end = now_ns() + (long long)(seconds * 1e9);
	}
	if (!runs) {
		for (;;) {
			for (int i = 0; i < 1000000; i++)
				spins++;
			if (end && now_ns() >= end)
				return 0;
		}
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	n = spin_runs(end, &lens);
	if (!n) {
		printf("runs=0\n");
		return 0;
	}
	qsort(lens, n, sizeof(*lens), cmp);
	printf("runs=%zu p10_us=%lld p50_us=%lld p90_us=%lld max_us=%lld\n", n,
	       lens[n / 10] / 1000, lens[n / 2] / 1000, lens[n * 9 / 10] / 1000,
	       lens[n - 1] / 1000);
	fflush(stdout);
	return 0;
}
