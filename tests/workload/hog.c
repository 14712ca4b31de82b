// SPDX-License-Identifier: GPL-2.0-only
/*
 * hog - a CPU-bound task: spins until killed or until --seconds pass.
 * Tests pin it next to another task and watch how often it is preempted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double seconds = 0, end;
	char *endp;
	volatile unsigned long spins = 0;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("Usage: hog [SECONDS]\n"
		       "Spin on the CPU for SECONDS (default: until killed).\n");
		return 0;
	}
	if (argc > 2) {
		fprintf(stderr, "hog: too many arguments (see hog --help)\n");
		return 2;
	}
	if (argc == 2) {
		seconds = strtod(argv[1], &endp);
		if (*argv[1] == '\0' || *endp || seconds <= 0) {
			fprintf(stderr, "hog: invalid SECONDS '%s'\n", argv[1]);
			return 2;
		}
	}
	end = now() + seconds;
	for (;;) {
		for (int i = 0; i < 1000000; i++)
			spins++;
		if (seconds > 0 && now() >= end)
			return 0;
	}
}
