// SPDX-License-Identifier: GPL-2.0-only
/*
 * pingpong - two processes that hand a byte back and forth over a pair of
 * pipes: each wakes the other and then sleeps until woken in turn. On one
 * CPU every round trip is two wakeups of a task that has slept, the pattern
 * a program forcing every wakeup to preempt could turn into a pair that
 * never lets anything else run; the round trips it manages and the longest
 * one show whether it, and what shares the CPU with it, still make
 * progress.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>
#include "workload.h"

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	long long t, last, end, max = 0, rounds = 0;
	int ping[2], pong[2], c, st;
	long seconds = 3;
	pid_t child;
	char b = 0;

	while ((c = getopt_long(argc, argv, "s:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': seconds = parse_opt("pingpong", "--seconds", optarg, 1, 3600); break;
		case 'h':
			printf("Usage: pingpong [--seconds S]\n"
			       "Pass a byte to a child process and back over two pipes for S\n"
			       "seconds (default 3), then print\n"
			       "  rounds=N max_us=X\n"
			       "the round trips made and the longest one.\n");
			return 0;
		default:
			fprintf(stderr, "pingpong: see pingpong --help\n");
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "pingpong: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (pipe(ping) || pipe(pong)) {
		perror("pingpong: pipe");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("pingpong: fork");
		return 1;
	}
	if (!child) {
		/* echo each byte back until the parent closes its end */
		close(ping[1]);
		close(pong[0]);
		while (read(ping[0], &b, 1) == 1)
			if (write(pong[1], &b, 1) != 1)
				break;
		_exit(0);
	}
	close(ping[0]);
	close(pong[1]);
	last = now_ns();
	end = last + seconds * 1000000000LL;
	while (last < end) {
		if (write(ping[1], &b, 1) != 1 || read(pong[0], &b, 1) != 1) {
			perror("pingpong: round trip");
			kill(child, SIGKILL);
			return 1;
		}
		t = now_ns();
		if (t - last > max)
			max = t - last;
		last = t;
		rounds++;
	}
	close(ping[1]);
	waitpid(child, &st, 0);
	printf("rounds=%lld max_us=%lld\n", rounds, max / 1000);
	return 0;
}
