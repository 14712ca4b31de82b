// SPDX-License-Identifier: GPL-2.0-only
/*
 * slice - run a command with the slice it asks EEVDF for: sched_setattr(2)
 * with SCHED_OTHER and sched_runtime, EEVDF's own per-task knob (Linux 6.12:
 * 0.1 to 100 ms; the kernel clamps). The attribute stays across exec, so
 * the command runs with it. bench/eevdf.sh sets it beside the tools to
 * compare them with what EEVDF offers alone. util-linux's chrt sets
 * sched_runtime only for SCHED_DEADLINE.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

/* include/uapi/linux/sched/types.h, the first version (48 bytes) */
struct sched_attr_v1 {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

int main(int argc, char **argv)
{
	struct sched_attr_v1 attr = { .size = sizeof(attr) };
	char *end;
	long us;

	if (argc < 3) {
		fprintf(stderr, "usage: slice MICROSECONDS CMD [ARG...]\n");
		return 2;
	}
	errno = 0;
	us = strtol(argv[1], &end, 10);
	if (errno || end == argv[1] || *end || us < 1 || us > 1000000) {
		fprintf(stderr, "slice: invalid MICROSECONDS '%s' (1..1000000)\n", argv[1]);
		return 2;
	}
	attr.sched_policy = 0;	/* SCHED_OTHER */
	attr.sched_nice = 0;
	attr.sched_runtime = (uint64_t)us * 1000;
	if (syscall(SYS_sched_setattr, 0, &attr, 0)) {
		fprintf(stderr, "slice: sched_setattr: %s\n", strerror(errno));
		return 1;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "slice: %s: %s\n", argv[2], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
