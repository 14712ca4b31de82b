// SPDX-License-Identifier: GPL-2.0-only
/*
 * schedtest - load and attach the test programs of schedtest.bpf.c for the
 * tests in tests/kernel/. Built against the in-tree libbpf of the patched
 * kernel's series (build/kernel/libbpf, build/kernel-6.12/libbpf), so
 * SEC("sched/...") and the skeleton's attach are the series' own.
 *
 * Attach mode: attach what the options ask for, print "attached", wait for
 * SIGINT or SIGTERM, print the counters as key=value lines, detach, wait
 * --after-detach seconds and print the counters again with an "_after"
 * suffix, so a test can check that nothing runs once the links are gone.
 *
 * --reject-nongpl / --reject-target FUNC: load a program that the verifier
 * must refuse; print the errno and the verifier log; exit 0 if it was
 * refused.
 *
 * --probe: print what libbpf_probe_bpf_prog_type() says of the type.
 *
 * --no-stats: leave kernel.bpf_stats_enabled alone. By default it is
 * turned on for as long as the programs are attached, so the report's
 * run_cnt counts runs; but then every BPF program in the system reads the
 * clock twice per run, which make bench must not count as the hooks' cost.
 *
 * --all makes every task a target and every wakeup a pair; --curr 0 (the
 * default) with --wakee W pairs W with whatever runs where it wakes.
 *
 * --observe-picks (EEVDF): an fentry and an fexit on pick_eevdf(), which
 * asks the entity hook, count the calls in which the entity program
 * answered non-zero for a pair (picks_asked) and those that returned the
 * entity it asked for (picks_obeyed).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "schedtest.skel.h"

#define NR_TARGETS 4
#define NR_PROBES 4

struct kf_record {
	__u64 tgidpid;
	__u64 cgrpid;
	long belongs[NR_PROBES];
};

static long num(const char *opt, const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end) {
		fprintf(stderr, "schedtest: %s: not a number: '%s'\n", opt, s);
		exit(2);
	}
	return v;
}

static int reject(const char *license, const char *func)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char log[4096] = "";
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = log, .log_size = sizeof(log),
		    .log_level = 1, .expected_attach_type = BPF_SCHED);
	struct btf *btf = btf__load_vmlinux_btf();
	int id, fd;

	if (!btf) {
		fprintf(stderr, "schedtest: no vmlinux BTF\n");
		return 1;
	}
	id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);
	if (id < 0) {
		fprintf(stderr, "schedtest: no function %s in BTF\n", func);
		return 1;
	}
	opts.attach_btf_id = id;
	fd = bpf_prog_load(BPF_PROG_TYPE_SCHED, "reject", license, insns, 2, &opts);
	printf("errno=%d\nlog=%s\n", fd < 0 ? errno : 0, log);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return 0;
}

static struct bpf_prog_info prog_info(struct bpf_program *prog)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		info.run_cnt = info.recursion_misses = ~0ULL;
	return info;
}

static void print_counters(struct schedtest_bpf *skel, const char *sfx)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj)
		if (bpf_program__autoload(prog)) {
			struct bpf_prog_info info = prog_info(prog);

			printf("%s.run_cnt%s=%llu\n", bpf_program__name(prog), sfx,
			       (unsigned long long)info.run_cnt);
			printf("%s.misses%s=%llu\n", bpf_program__name(prog), sfx,
			       (unsigned long long)info.recursion_misses);
		}
#define P(x) printf(#x "%s=%llu\n", sfx, (unsigned long long)skel->bss->x)
	P(calls_tick);
	P(hits_tick);
	P(calls_wakeup);
	P(hits_wakeup);
	P(calls_entity);
	P(hits_entity);
	P(wakeups_seen);
	P(wakeups_preempting);
	P(next_is_wakee);
	P(next_is_other);
	P(forced_ticks);
	P(forced_kept);
	P(picks_asked);
	P(picks_obeyed);
#undef P
}

static void print_kfuncs(struct schedtest_bpf *skel)
{
	int fd = bpf_map__fd(skel->maps.kf_seen);
	__u64 key, next, *prev = NULL;
	struct kf_record r;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &r))
			continue;
		if (key >> 63)
			printf("kf group cgid=%llu tgidpid=%lld", key & ~(1ULL << 63),
			       (long long)r.tgidpid);
		else
			printf("kf task tgid=%llu pid=%llu tgidpid=%llu cgrpid=%lld",
			       key >> 32, key & 0xffffffff, (unsigned long long)r.tgidpid,
			       (long long)r.cgrpid);
		for (int i = 0; i < NR_PROBES; i++)
			printf(" b%d=%ld", i, r.belongs[i]);
		printf("\n");
	}
}

/*
 * The observers name CFS's check_preempt_wakeup(), which 6.7 renamed
 * check_preempt_wakeup_fair() (EEVDF, 6.12): attach them to whichever the
 * running kernel's BTF has.
 */
static int retarget_cpw(struct schedtest_bpf *skel)
{
	static const char *const names[] = { "check_preempt_wakeup",
					     "check_preempt_wakeup_fair" };
	struct btf *vmlinux = btf__load_vmlinux_btf();
	const char *fn = NULL;
	int i, ret = -1;

	if (!vmlinux) {
		fprintf(stderr, "schedtest: cannot read the kernel's BTF: %s\n",
			strerror(errno));
		return -1;
	}
	for (i = 0; i < 2 && !fn; i++) {
		if (btf__find_by_name_kind(vmlinux, names[i], BTF_KIND_FUNC) > 0)
			fn = names[i];
	}
	if (!fn)
		fprintf(stderr, "schedtest: no check_preempt_wakeup(_fair) in the kernel's BTF\n");
	else if (bpf_program__set_attach_target(skel->progs.cpw_enter, 0, fn) ||
		 bpf_program__set_attach_target(skel->progs.cpw_exit, 0, fn))
		fprintf(stderr, "schedtest: attach target %s: %s\n", fn, strerror(errno));
	else
		ret = 0;
	btf__free(vmlinux);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tick", required_argument, NULL, 't' },
		{ "wakeup", required_argument, NULL, 'w' },
		{ "entity", required_argument, NULL, 'e' },
		{ "target", required_argument, NULL, 'T' },
		{ "wakee", required_argument, NULL, 'W' },
		{ "curr", required_argument, NULL, 'C' },
		{ "observe-wakeups", no_argument, NULL, 'o' },
		{ "observe-picks", no_argument, NULL, 'p' },
		{ "kfunc-probe", required_argument, NULL, 'k' },
		{ "after-detach", required_argument, NULL, 'a' },
		{ "reject-nongpl", no_argument, NULL, 'N' },
		{ "reject-target", required_argument, NULL, 'R' },
		{ "probe", no_argument, NULL, 'P' },
		{ "all", no_argument, NULL, 'A' },
		{ "no-stats", no_argument, NULL, 'S' },
		{}
	};
	bool tick = false, wakeup = false, entity = false, observe = false, kfunc = false;
	bool picks = false;
	bool all = false, stats = true;
	int ret_tick = 0, ret_wakeup = 0, ret_entity = 0, ntargets = 0, nprobes = 0;
	long wakee = 0, curr = 0, after = 1;
	__u32 targets[NR_TARGETS] = {};
	__u64 probes[NR_PROBES] = {};
	struct schedtest_bpf *skel;
	sigset_t set;
	int c, sig, stats_fd;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't': tick = true; ret_tick = num("--tick", optarg); break;
		case 'w': wakeup = true; ret_wakeup = num("--wakeup", optarg); break;
		case 'e': entity = true; ret_entity = num("--entity", optarg); break;
		case 'T':
			if (ntargets == NR_TARGETS)
				return fprintf(stderr, "schedtest: too many --target\n"), 2;
			targets[ntargets++] = num("--target", optarg);
			break;
		case 'W': wakee = num("--wakee", optarg); break;
		case 'C': curr = num("--curr", optarg); break;
		case 'o': observe = true; break;
		case 'p': picks = true; break;
		case 'A': all = true; break;
		case 'S': stats = false; break;
		case 'k':
			if (nprobes == NR_PROBES)
				return fprintf(stderr, "schedtest: too many --kfunc-probe\n"), 2;
			kfunc = true;
			probes[nprobes++] = strtoull(optarg, NULL, 0);
			break;
		case 'a': after = num("--after-detach", optarg); break;
		case 'N': return reject("Dual BSD/MIT", "bpf_sched_cfs_check_preempt_tick");
		case 'R': return reject("GPL", optarg);
		case 'P':
			c = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_SCHED, NULL);
			printf("probe=%d\n", c);
			return c == 1 ? 0 : 1;
		default: return 2;
		}
	}

	skel = schedtest_bpf__open();
	if (!skel) {
		perror("schedtest: open");
		return 1;
	}
	skel->rodata->cfg_ret_tick = ret_tick;
	skel->rodata->cfg_ret_wakeup = ret_wakeup;
	skel->rodata->cfg_ret_entity = ret_entity;
	memcpy((void *)skel->rodata->cfg_target, targets, sizeof(targets));
	memcpy((void *)skel->rodata->cfg_probe_cgid, probes, sizeof(probes));
	skel->rodata->cfg_wakee = wakee;
	skel->rodata->cfg_curr = curr;
	skel->rodata->cfg_all = all;
	bpf_program__set_autoload(skel->progs.tick, tick);
	bpf_program__set_autoload(skel->progs.tick_switch, tick && ret_tick > 0);
	bpf_program__set_autoload(skel->progs.wakeup, wakeup);
	bpf_program__set_autoload(skel->progs.entity, entity);
	bpf_program__set_autoload(skel->progs.kfunc_probe, kfunc);
	bpf_program__set_autoload(skel->progs.cpw_enter, observe);
	bpf_program__set_autoload(skel->progs.cpw_exit, observe);
	bpf_program__set_autoload(skel->progs.cpw_resched, observe);
	bpf_program__set_autoload(skel->progs.cpw_switch, observe);
	bpf_program__set_autoload(skel->progs.pick_enter, picks);
	bpf_program__set_autoload(skel->progs.pick_exit, picks);
	if (observe && retarget_cpw(skel))
		return 1;
	if (schedtest_bpf__load(skel)) {
		fprintf(stderr, "schedtest: load: %s\n", strerror(errno));
		return 1;
	}
	stats_fd = stats ? bpf_enable_stats(BPF_STATS_RUN_TIME) : -1;
	if (stats && stats_fd < 0) {
		fprintf(stderr, "schedtest: enable stats: %s\n", strerror(errno));
		return 1;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (schedtest_bpf__attach(skel)) {
		fprintf(stderr, "schedtest: attach: %s\n", strerror(errno));
		return 1;
	}
	printf("attached\n");
	fflush(stdout);
	sigwait(&set, &sig);

	/*
	 * Counters as of the detach: nothing may be added to them later.
	 * The observers go first: once a hook is gone, they would count
	 * wakeups that it no longer decides. And the one that counts first:
	 * each detach waits for a grace period (tens of ms in the VM), and
	 * an fexit on check_preempt_wakeup() without its fentry would count
	 * wakeups against the state the last entry left (one 6.1 CI run:
	 * 18 of 2488 forced wakeups "not preempting").
	 */
	bpf_link__destroy(skel->links.cpw_exit);
	bpf_link__destroy(skel->links.cpw_enter);
	bpf_link__destroy(skel->links.cpw_resched);
	bpf_link__destroy(skel->links.cpw_switch);
	bpf_link__destroy(skel->links.pick_exit);
	bpf_link__destroy(skel->links.pick_enter);
	skel->links.cpw_enter = skel->links.cpw_exit = NULL;
	skel->links.cpw_resched = skel->links.cpw_switch = NULL;
	skel->links.pick_exit = skel->links.pick_enter = NULL;
	schedtest_bpf__detach(skel);
	print_counters(skel, "");
	print_kfuncs(skel);
	printf("detached\n");
	fflush(stdout);
	sleep(after);
	print_counters(skel, "_after");
	schedtest_bpf__destroy(skel);
	if (stats_fd >= 0)
		close(stats_fd);
	return 0;
}
