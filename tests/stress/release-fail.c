// SPDX-License-Identifier: GPL-2.0-only
/*
 * release-fail - make stress's item g (tests/stress/run): release a sched
 * link while the release's one allocation fails, and check what the hook
 * runs after that. Needs the debug flavour's fault injection
 * (/proc/PID/fail-nth, failslab with ignore-gfp-wait off: the item sets it)
 * and a CPU where two tasks take turns, so that the tick hook is called.
 *
 *   release-fail OBJ [SECONDS]
 *
 * OBJ is noop.bpf.o, whose tick program returns 0 and counts its calls in
 * .bss. It is loaded twice: the first copy's tick program (counter) is
 * attached, then the second's (victim), which runs first (the newest link
 * runs first). Victim's link is closed with /proc/thread-self/fail-nth set to
 * 1, 2, ... until the allocation that failed was the release's (the
 * kernel's FAULT_INJECTION stack names bpf_sched_link_release). The
 * release then cannot build the smaller array and puts a placeholder in
 * victim's slot. The hook must still reach counter, where a placeholder
 * that returned non-zero would end the run (and force every tick's
 * preemption): counter's calls are counted
 * for SECONDS (default 2) with kernel.bpf_stats_enabled off and SECONDS
 * with it on (the hook then runs the array through bpf_prog_run(), which
 * reads the placeholder's statistics pointer).
 *
 * Prints "fault=N calls=C calls_stats=S" and exits 0 when both counts are
 * non-zero; 1 otherwise or when the loader failed, 2 for bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define MAX_TRIES 8
#define FAIL_NTH "/proc/thread-self/fail-nth"
#define TICK_SEC "sched/cfs_check_preempt_tick"

static int perr(const char *what, const char *hint)
{
	fprintf(stderr, "release-fail: %s: %s%s\n", what, strerror(errno), hint);
	return 1;
}

/* Does a kernel log record from kmsg's position on name the release? */
static int release_failed(int kmsg)
{
	char rec[8192];
	ssize_t n;
	int found = 0;

	for (;;) {
		n = read(kmsg, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* overwritten: read on */
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		if (strstr(rec, "bpf_sched_link_release"))
			found = 1;
	}
	return found;
}

/*
 * Close link fd with the n-th fault-injection point of this task armed;
 * 1 if the fault was injected in the link's release.
 */
static int close_failing(int fd, int nth_fd, int n)
{
	char buf[16];
	int kmsg, left, in_release;

	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg < 0 || lseek(kmsg, 0, SEEK_END) < 0)
		return -1;
	snprintf(buf, sizeof(buf), "%d", n);
	if (pwrite(nth_fd, buf, strlen(buf), 0) < 0)
		return -1;
	close(fd);
	memset(buf, 0, sizeof(buf));
	if (pread(nth_fd, buf, sizeof(buf) - 1, 0) < 0)
		return -1;
	left = atoi(buf);
	if (left && pwrite(nth_fd, "0", 1, 0) < 0)	/* disarm */
		return -1;
	usleep(200000);		/* let the stack reach the log */
	in_release = release_failed(kmsg);
	close(kmsg);
	return !left && in_release;
}

/* counter's calls: the first variable of its object's .bss, its only one */
static unsigned long long calls(struct bpf_map *bss)
{
	unsigned long long v[64] = {};
	int zero = 0;

	if (bpf_map__value_size(bss) > sizeof(v) ||
	    bpf_map_lookup_elem(bpf_map__fd(bss), &zero, v)) {
		fprintf(stderr, "release-fail: reading .bss: %s\n", strerror(errno));
		exit(1);
	}
	return v[0];
}

static unsigned long long count(struct bpf_map *bss, int secs)
{
	unsigned long long c0 = calls(bss);

	sleep(secs);
	return calls(bss) - c0;
}

/* OBJ loaded, and its program on the tick hook */
static struct bpf_program *load_tick(const char *path, struct bpf_object **obj)
{
	struct bpf_program *prog;

	*obj = bpf_object__open_file(path, NULL);
	if (!*obj || bpf_object__load(*obj)) {
		perr(path, "");
		exit(1);
	}
	bpf_object__for_each_program(prog, *obj)
		if (!strcmp(bpf_program__section_name(prog), TICK_SEC))
			return prog;
	fprintf(stderr, "release-fail: %s: no " TICK_SEC " program\n", path);
	exit(1);
}

int main(int argc, char **argv)
{
	struct bpf_program *counter, *victim;
	struct bpf_object *obj_c, *obj_v;
	struct bpf_link *lc, *lv;
	unsigned long long n_plain, n_stats;
	struct bpf_map *bss;
	int nth_fd, stats_fd, secs = 2, n, r = 0;

	if (argc == 3)
		secs = atoi(argv[2]);
	if (argc < 2 || argc > 3 || secs < 1) {
		fprintf(stderr, "usage: release-fail OBJ [SECONDS]\n");
		return 2;
	}
	nth_fd = open(FAIL_NTH, O_RDWR);
	if (nth_fd < 0)
		return perr(FAIL_NTH, " (boot the debug flavour: CONFIG_FAULT_INJECTION)");
	counter = load_tick(argv[1], &obj_c);
	victim = load_tick(argv[1], &obj_v);
	bss = bpf_object__find_map_by_name(obj_c, ".bss");
	if (!bss) {
		fprintf(stderr, "release-fail: %s: no .bss\n", argv[1]);
		return 1;
	}
	lc = bpf_program__attach(counter);
	if (!lc)
		return perr("attach counter", "");
	for (n = 1; n <= MAX_TRIES; n++) {
		int fd;

		lv = bpf_program__attach(victim);
		if (!lv)
			return perr("attach victim", "");
		/* the link's fd, closed here and not by libbpf */
		fd = bpf_link__fd(lv);
		bpf_link__disconnect(lv);
		bpf_link__destroy(lv);
		r = close_failing(fd, nth_fd, n);
		if (r < 0)
			return perr(FAIL_NTH, "");
		if (r)
			break;
	}
	if (!r) {
		fprintf(stderr,
			"release-fail: no fault hit the release in %d tries (ignore-gfp-wait N?)\n",
			MAX_TRIES);
		return 1;
	}
	n_plain = count(bss, secs);
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0)
		return perr("BPF_ENABLE_STATS", "");
	n_stats = count(bss, secs);
	close(stats_fd);
	bpf_link__destroy(lc);
	bpf_object__close(obj_v);
	bpf_object__close(obj_c);
	printf("fault=%d calls=%llu calls_stats=%llu\n", n, n_plain, n_stats);
	return n_plain && n_stats ? 0 : 1;
}
