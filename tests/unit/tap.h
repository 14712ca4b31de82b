/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TAP for the unit tests written in C (tests/tap.sh is the shell's): ok()
 * and skip() per test point, then tap_done() prints the plan and returns
 * the exit status.
 */
#ifndef SCHEDBPF_TAP_H
#define SCHEDBPF_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_tests, tap_failed;

static inline __attribute__((format(printf, 2, 3))) void
ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_tests++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline void skip(int n, const char *why)
{
	while (n--)
		printf("ok %d # skip %s\n", ++tap_tests, why);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_tests);
	return tap_failed ? 1 : 0;
}

#endif /* SCHEDBPF_TAP_H */
