// SPDX-License-Identifier: GPL-2.0-only
/*
 * safety - the negative tests' loader (tests/kernel/07-*.t to 09-*.t):
 * tries what a sched program must not be able to do and prints what the
 * kernel said, for the test to check.
 *
 *   safety load PROG          load PROG of safety.bpf.c alone
 *   safety ret CASE           a two-to-four instruction program returning
 *                             CASE: 0, 1, -1, 2, -2, w32:-1 (a 32-bit move),
 *                             1<<32, random, random&1, (random&1)-1
 *   safety attach-type N      "return 0" for the tick hook, loaded with
 *                             expected_attach_type N instead of BPF_SCHED;
 *                             "none" loads it without an attach_btf_id,
 *                             "sleepable" with BPF_F_SLEEPABLE,
 *                             "nongpl-rawtp" non-GPL as BPF_TRACE_RAW_TP
 *   safety link FIELD         BPF_LINK_CREATE for that program with FIELD
 *                             set: none, target_fd, target_btf_id, cookie,
 *                             flags
 *   safety helper ID          a tick program that calls helper ID
 *   safety may-goto           a program with a may_goto (6.12's bounded
 *                             loop instruction; an unknown opcode on 6.1)
 *   safety ctx N              a tick program that reads the N-th u64 of
 *                             its context (the hook has two arguments)
 *   safety ctx-write N        one that writes 0 there
 *   safety run SECONDS PROG.. attach PROGs, wait, print the kf_* counters
 *
 * Loads and updates print "loaded"/"refused errno=N" (the verifier log
 * follows as "log: " lines); the exit status is 0 when the step was tried,
 * 1 when the loader itself failed, 2 for bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "safety.skel.h"

#define HOOK "bpf_sched_cfs_check_preempt_tick"
#define INSN(c, d, i) { .code = (c), .dst_reg = (d), .imm = (i) }
#define MOV64(v) INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, v)
#define MOV32(v) INSN(BPF_ALU | BPF_MOV | BPF_K, BPF_REG_0, v)
#define ALU64(op, v) INSN(BPF_ALU64 | (op) | BPF_K, BPF_REG_0, v)
#define RANDOM INSN(BPF_JMP | BPF_CALL, 0, BPF_FUNC_get_prandom_u32)
#define EXIT INSN(BPF_JMP | BPF_EXIT, 0, 0)

static char vlog[65536];

static int usage(void)
{
	fprintf(stderr, "usage: safety load PROG | ret CASE | attach-type N | "
			"link FIELD | helper ID | may-goto | ctx N | "
			"ctx-write N | "
			"run SECONDS PROG...\n");
	return 2;
}

static void report(int err, const char *log)
{
	const char *line = log;

	if (err)
		printf("refused errno=%d (%s)\n", err, strerror(err));
	else
		printf("loaded\n");
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		int len = nl ? (int)(nl - line) : (int)strlen(line);

		printf("log: %.*s\n", len, line);
		line = nl ? nl + 1 : NULL;
	}
}

static int hook_btf_id(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int id;

	if (!btf) {
		fprintf(stderr, "safety: no vmlinux BTF\n");
		exit(1);
	}
	id = btf__find_by_name_kind(btf, HOOK, BTF_KIND_FUNC);
	btf__free(btf);
	if (id < 0) {
		fprintf(stderr, "safety: no %s in BTF: not the sched kernel\n", HOOK);
		exit(1);
	}
	return id;
}

/* Loads a raw program for the tick hook; returns its fd or -errno. */
static int load_raw(const struct bpf_insn *insns, size_t n, const char *license,
		    enum bpf_attach_type type, int btf_id, __u32 flags)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = vlog,
		    .log_size = sizeof(vlog), .log_level = 1,
		    .expected_attach_type = type, .attach_btf_id = btf_id,
		    .prog_flags = flags);
	int fd;

	vlog[0] = '\0';
	fd = bpf_prog_load(BPF_PROG_TYPE_SCHED, "safety", license, insns, n, &opts);
	return fd < 0 ? -errno : fd;
}

/* Loads a raw GPL program for the tick hook and reports what happened. */
static int try_raw(const struct bpf_insn *insns, size_t n)
{
	int fd = load_raw(insns, n, "GPL", BPF_SCHED, hook_btf_id(), 0);

	report(fd < 0 ? -fd : 0, vlog);
	return 0;
}

static int ret_case(const char *c)
{
	static const struct {
		const char *name;
		struct bpf_insn insns[4];
		size_t n;
	} cases[] = {
		{ "0", { MOV64(0), EXIT }, 2 },
		{ "1", { MOV64(1), EXIT }, 2 },
		{ "-1", { MOV64(-1), EXIT }, 2 },
		{ "2", { MOV64(2), EXIT }, 2 },
		{ "-2", { MOV64(-2), EXIT }, 2 },
		{ "w32:-1", { MOV32(-1), EXIT }, 2 },
		{ "1<<32", { MOV64(1), ALU64(BPF_LSH, 32), EXIT }, 3 },
		{ "random", { RANDOM, EXIT }, 2 },
		{ "random&1", { RANDOM, ALU64(BPF_AND, 1), EXIT }, 3 },
		{ "(random&1)-1", { RANDOM, ALU64(BPF_AND, 1), ALU64(BPF_SUB, 1), EXIT }, 4 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (!strcmp(cases[i].name, c))
			return try_raw(cases[i].insns, cases[i].n);
	}
	fprintf(stderr, "safety: ret: unknown case '%s'\n", c);
	return 2;
}

/* BPF_JMP | BPF_JCOND with src_reg BPF_MAY_GOTO (0): "may_goto +1" */
static int may_goto_case(void)
{
	const struct bpf_insn insns[] = {
		MOV64(0),
		{ .code = BPF_JMP | 0xe0, .off = 1 },
		MOV64(0),
		EXIT,
	};

	return try_raw(insns, 4);
}

/* r0 = *(u64 *)(r1 + 8 * n); r0 = 0; exit */
static int ctx_case(int n)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_0,
		  .src_reg = BPF_REG_1, .off = 8 * n },
		MOV64(0),
		EXIT,
	};

	return try_raw(insns, 3);
}

/*
 * r0 = 0; *(u64 *)(r1 + 8 * n) = r0; exit. The context is the hook's
 * arguments: a program that could overwrite one could hand itself, or the
 * programs that run after it, any address as a trusted pointer.
 */
static int ctx_write_case(int n)
{
	const struct bpf_insn insns[] = {
		MOV64(0),
		{ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_REG_0, .off = 8 * n },
		EXIT,
	};

	return try_raw(insns, 3);
}

static int attach_type_case(const char *c)
{
	const struct bpf_insn insns[] = { MOV64(0), EXIT };
	int fd;

	if (!strcmp(c, "none"))
		fd = load_raw(insns, 2, "GPL", BPF_SCHED, 0, 0);
	else if (!strcmp(c, "sleepable"))
		fd = load_raw(insns, 2, "GPL", BPF_SCHED, hook_btf_id(),
			      BPF_F_SLEEPABLE);
	else if (!strcmp(c, "nongpl-rawtp"))
		fd = load_raw(insns, 2, "Dual BSD/MIT", BPF_TRACE_RAW_TP,
			      hook_btf_id(), 0);
	else
		fd = load_raw(insns, 2, "GPL", atoi(c), hook_btf_id(), 0);
	report(fd < 0 ? -fd : 0, vlog);
	return 0;
}

static int link_case(const char *field)
{
	const struct bpf_insn insns[] = { MOV64(0), EXIT };
	union bpf_attr attr;
	int prog, fd, id = hook_btf_id();

	prog = load_raw(insns, 2, "GPL", BPF_SCHED, id, 0);
	if (prog < 0) {
		fprintf(stderr, "safety: load: %s\n%s", strerror(-prog), vlog);
		return 1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog;
	attr.link_create.attach_type = BPF_SCHED;
	if (!strcmp(field, "target_fd"))
		attr.link_create.target_fd = prog;
	else if (!strcmp(field, "target_btf_id"))
		attr.link_create.tracing.target_btf_id = id;
	else if (!strcmp(field, "cookie"))
		attr.link_create.tracing.cookie = 42;
	else if (!strcmp(field, "flags"))
		attr.link_create.flags = 1;
	else if (strcmp(field, "none"))
		return usage();
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	report(fd < 0 ? errno : 0, NULL);
	if (fd >= 0)
		close(fd);
	close(prog);
	return 0;
}

/* Opens the object with only the named programs to be loaded. */
static struct safety_bpf *open_only(char **names, int n)
{
	struct safety_bpf *skel = safety_bpf__open();
	struct bpf_program *prog;
	int i, found = 0;

	if (!skel) {
		fprintf(stderr, "safety: open: %s\n", strerror(errno));
		exit(1);
	}
	bpf_object__for_each_program(prog, skel->obj) {
		bool want = false;

		for (i = 0; i < n; i++)
			want |= !strcmp(bpf_program__name(prog), names[i]);
		bpf_program__set_autoload(prog, want);
		bpf_program__set_log_buf(prog, vlog, sizeof(vlog));
		/*
		 * The verifier's messages and its statistics, without every
		 * instruction it walked: the log of a long loop would not fit
		 * the buffer, and a full buffer fails the load (ENOSPC).
		 */
		bpf_program__set_log_level(prog, 4);
		found += want;
	}
	if (found != n) {
		fprintf(stderr, "safety: no such program among: %s...\n", names[0]);
		exit(2);
	}
	return skel;
}

/*
 * A program that calls helper ID with no arguments set up: the verifier
 * first asks whether the program type may call the helper at all, and
 * only then checks arguments, so the log says which of the two refused it.
 */
static int helper_case(int id)
{
	const struct bpf_insn prog[] = {
		INSN(BPF_JMP | BPF_CALL, 0, id),
		MOV64(0),
		EXIT,
	};

	return try_raw(prog, 3);
}

int main(int argc, char **argv)
{
	struct safety_bpf *skel;

	if (argc == 2 && !strcmp(argv[1], "may-goto"))
		return may_goto_case();
	if (argc < 3)
		return usage();
	if (!strcmp(argv[1], "ret"))
		return ret_case(argv[2]);
	if (!strcmp(argv[1], "ctx"))
		return ctx_case(atoi(argv[2]));
	if (!strcmp(argv[1], "ctx-write"))
		return ctx_write_case(atoi(argv[2]));
	if (!strcmp(argv[1], "attach-type"))
		return attach_type_case(argv[2]);
	if (!strcmp(argv[1], "link"))
		return link_case(argv[2]);
	if (!strcmp(argv[1], "helper"))
		return helper_case(atoi(argv[2]));
	if (!strcmp(argv[1], "load")) {
		skel = open_only(&argv[2], 1);
		report(safety_bpf__load(skel) ? errno : 0, vlog);
		safety_bpf__destroy(skel);
		return 0;
	}
	if (!strcmp(argv[1], "run") && argc >= 4) {
		skel = open_only(&argv[3], argc - 3);
		if (safety_bpf__load(skel) || safety_bpf__attach(skel)) {
			fprintf(stderr, "safety: load/attach: %s\n%s", strerror(errno),
				vlog);
			return 1;
		}
		printf("attached\n");
		fflush(stdout);
		sleep(atoi(argv[2]));
		safety_bpf__detach(skel);
		printf("kf_calls=%llu\nkf_null_calls=%llu\nkf_null_wrong=%llu\n"
		       "kf_tasks_found=%llu\n",
		       (unsigned long long)skel->bss->kf_calls,
		       (unsigned long long)skel->bss->kf_null_calls,
		       (unsigned long long)skel->bss->kf_null_wrong,
		       (unsigned long long)skel->bss->kf_tasks_found);
		safety_bpf__destroy(skel);
		return 0;
	}
	return usage();
}
