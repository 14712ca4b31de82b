/* SPDX-License-Identifier: GPL-2.0-only */
/* What the workload programs share: the clock, and their option values. */
#ifndef SCHEDBPF_WORKLOAD_H
#define SCHEDBPF_WORKLOAD_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The value of option opt of program prog, or exit 2 with one line. */
static inline long parse_opt(const char *prog, const char *opt, const char *s,
			     long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "%s: %s: invalid value '%s' (%ld..%ld)\n", prog, opt, s,
			min, max);
		exit(2);
	}
	return v;
}

#endif /* SCHEDBPF_WORKLOAD_H */
