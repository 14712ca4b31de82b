// SPDX-License-Identifier: GPL-2.0-only
/*
 * cycle - attach and detach every program of a BPF object, over and over,
 * for make stress (tests/stress/run) and the text_poke investigation
 * (kernel/README.md). Built against the patched kernel's in-tree libbpf, so
 * SEC("sched/...") attaches like the tools' programs do; plain tp_btf and
 * fentry objects work on a kernel without CONFIG_BPF_SCHED too.
 *
 *   cycle OBJ [-n CYCLES]  load OBJ once, then CYCLES times attach every
 *                          program and destroy every link (the release is
 *                          where the hang was seen); prints a line each
 *                          10 cycles and "cycles=N seconds=S" at the end
 *   cycle OBJ --hold       load and attach, print "attached", wait for
 *                          SIGINT or SIGTERM, detach
 *   cycle OBJ --reload     with -n: open and load OBJ anew each cycle too
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/libbpf.h>

#define MAX_PROGS 16

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct bpf_object *load(const char *path)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);

	if (!obj) {
		fprintf(stderr, "cycle: open %s: %s\n", path, strerror(errno));
		exit(1);
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "cycle: load %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return obj;
}

static int attach_all(struct bpf_object *obj, struct bpf_link **links)
{
	struct bpf_program *prog;
	int n = 0;

	bpf_object__for_each_program(prog, obj) {
		if (n == MAX_PROGS) {
			fprintf(stderr, "cycle: more than %d programs\n", MAX_PROGS);
			exit(2);
		}
		links[n] = bpf_program__attach(prog);
		if (!links[n]) {
			fprintf(stderr, "cycle: attach %s: %s\n", bpf_program__name(prog),
				strerror(errno));
			exit(1);
		}
		n++;
	}
	return n;
}

static void detach_all(struct bpf_link **links, int n)
{
	for (int i = 0; i < n; i++)
		bpf_link__destroy(links[i]);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cycles", required_argument, NULL, 'n' },
		{ "hold", no_argument, NULL, 'H' },
		{ "reload", no_argument, NULL, 'r' },
		{}
	};
	struct bpf_link *links[MAX_PROGS];
	bool hold = false, reload = false;
	long cycles = 1, i;
	struct bpf_object *obj;
	double start;
	char *end;
	int c, n;

	while ((c = getopt_long(argc, argv, "n:", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			errno = 0;
			cycles = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || cycles < 1) {
				fprintf(stderr, "cycle: -n: not a positive number: '%s'\n", optarg);
				return 2;
			}
			break;
		case 'H': hold = true; break;
		case 'r': reload = true; break;
		default: return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: cycle OBJ [-n CYCLES] [--reload] | cycle OBJ --hold\n");
		return 2;
	}

	obj = load(argv[optind]);
	if (hold) {
		sigset_t set;
		int sig;

		sigemptyset(&set);
		sigaddset(&set, SIGINT);
		sigaddset(&set, SIGTERM);
		sigprocmask(SIG_BLOCK, &set, NULL);
		n = attach_all(obj, links);
		printf("attached\n");
		fflush(stdout);
		sigwait(&set, &sig);
		detach_all(links, n);
		bpf_object__close(obj);
		printf("detached\n");
		return 0;
	}

	setvbuf(stdout, NULL, _IOLBF, 0);
	start = now();
	for (i = 1; i <= cycles; i++) {
		if (reload && i > 1) {
			bpf_object__close(obj);
			obj = load(argv[optind]);
		}
		n = attach_all(obj, links);
		detach_all(links, n);
		if (i % 10 == 0)
			printf("cycle %ld %.1fs\n", i, now() - start);
	}
	bpf_object__close(obj);
	printf("cycles=%ld seconds=%.1f\n", cycles, now() - start);
	return 0;
}
