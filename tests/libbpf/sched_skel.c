// SPDX-License-Identifier: GPL-2.0-only
/*
 * Test of the patched libbpf (libbpf-patches/), linked statically against
 * build/libbpf. It loads sched_skel.bpf.c through its skeleton and never
 * calls libbpf_register_prog_handler() or bpf_program__set_attach_target()
 * before loading: program type, attach type, attach target and auto-attach
 * must all come from libbpf and the SEC("sched/<hook>") names.
 *
 * Prints TAP. Modes:
 *   host  what holds on any kernel: the type names and numbers, section
 *         parsing, a clean refusal on a kernel without the hooks, and the
 *         checks against the kernel's BTF, run against fake vmlinux BTF
 *         bind-mounted in a private mount namespace (needs root)
 *   run   on a kernel with the scheduler hooks (the 6.1 or the 6.12
 *         series): the kernel's numbering of the types, probe, load,
 *         __attach(), link and program info, every hook called under a
 *         workload, and silence after detach; without the hooks it skips,
 *         or fails when SCHEDBPF_REQUIRE_HOOKS=1
 *   hold  load and __attach(), print one line per program
 *         ("prog NAME id=N link=N target=BTF_ID") and "ready", then keep
 *         the links until stdin reaches EOF (for the bpftool test)
 *
 * SCHEDBPF_TEST_VERBOSE=1 echoes libbpf's debug output to stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "sched_skel.h"
#include "sched_skel.skel.h"

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

static const struct {
	const char *prog; /* program name in sched_skel.bpf.c */
	const char *section;
	const char *func; /* kernel function the section resolves to */
} hooks[NR_HOOKS] = {
	[HOOK_TICK] = { "tick", "sched/cfs_check_preempt_tick",
			"bpf_sched_cfs_check_preempt_tick" },
	[HOOK_WAKEUP] = { "wakeup", "sched/cfs_check_preempt_wakeup",
			  "bpf_sched_cfs_check_preempt_wakeup" },
	[HOOK_ENTITY] = { "entity", "sched/cfs_wakeup_preempt_entity",
			  "bpf_sched_cfs_wakeup_preempt_entity" },
};

/* --- TAP ---------------------------------------------------------------- */

static int tests_run;
static int tests_failed;

static void diag(const char *fmt, ...)
{
	char buf[4096], *line, *save;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("# %s\n", line);
	fflush(stdout);
}

static bool ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++tests_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!cond)
		tests_failed++;
	return cond;
}

static void skip(int n, const char *why)
{
	while (n-- > 0)
		printf("ok %d # SKIP %s\n", ++tests_run, why);
	fflush(stdout);
}

static int done_testing(void)
{
	printf("1..%d\n", tests_run);
	return tests_failed ? 1 : 0;
}

/* --- libbpf output, kept so tests can match libbpf's messages ----------- */

static char log_buf[65536];
static size_t log_len;
static bool verbose;

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	va_list copy;
	int n;

	if (verbose) {
		va_copy(copy, ap);
		vfprintf(stderr, fmt, copy);
		va_end(copy);
	}
	if (level == LIBBPF_DEBUG)
		return 0;
	n = vsnprintf(log_buf + log_len, sizeof(log_buf) - log_len, fmt, ap);
	if (n > 0)
		log_len += (size_t)n;
	if (log_len >= sizeof(log_buf))
		log_len = sizeof(log_buf) - 1;
	return 0;
}

static void log_reset(void)
{
	log_len = 0;
	log_buf[0] = '\0';
}

static bool log_has(const char *s)
{
	return strstr(log_buf, s) != NULL;
}

static void log_diag(void)
{
	if (log_len)
		diag("libbpf said:\n%s", log_buf);
}

/* --- helpers ------------------------------------------------------------- */

static bool kernel_has_hooks(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool found;

	if (!btf)
		return false;
	found = btf__find_by_name_kind(btf, hooks[HOOK_TICK].func,
				       BTF_KIND_FUNC) > 0;
	btf__free(btf);
	return found;
}

/* the value of enumerator `name` of enum `enum_name` in btf, or -1 */
static long long btf_enum_val(const struct btf *btf, const char *enum_name,
			      const char *name)
{
	const struct btf_type *t;
	const struct btf_enum *e;
	int id, i;

	id = btf ? btf__find_by_name_kind(btf, enum_name, BTF_KIND_ENUM) : -1;
	if (id <= 0)
		return -1;
	t = btf__type_by_id(btf, id);
	e = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++, e++)
		if (!strcmp(btf__name_by_offset(btf, e->name_off), name))
			return e->val;
	return -1;
}

static struct bpf_program *hook_prog(struct sched_skel *skel, enum hook h)
{
	return bpf_object__find_program_by_name(skel->obj, hooks[h].prog);
}

static struct bpf_link *hook_link(struct sched_skel *skel, enum hook h)
{
	switch (h) {
	case HOOK_TICK:
		return skel->links.tick;
	case HOOK_WAKEUP:
		return skel->links.wakeup;
	case HOOK_ENTITY:
		return skel->links.entity;
	default:
		return NULL;
	}
}

static const char *kernel_release(void)
{
	static struct utsname u;

	if (!u.release[0] && uname(&u))
		return "?";
	return u.release;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* first CPU this process may run on */
static int first_cpu(void)
{
	cpu_set_t set;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return 0;
}

/*
 * Reach all three hooks for `seconds`: two spinners sharing one CPU make
 * the tick see more than one runnable entity (cfs_check_preempt_tick),
 * and a task on the same CPU waking every millisecond wakes up onto a
 * running fair-class task (cfs_check_preempt_wakeup; and
 * cfs_wakeup_preempt_entity, from the wakeup check on 6.1's CFS, from
 * pick_eevdf() at wakeups and picks on 6.12's EEVDF).
 */
static int workload(double seconds)
{
	pid_t pids[3];
	int cpu = first_cpu(), i, status, ret = 0;
	double end = now() + seconds;

	for (i = 0; i < 3; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return -errno;
		if (pids[i] == 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			sched_setaffinity(0, sizeof(set), &set);
			if (i < 2) {
				while (now() < end)
					;
			} else {
				struct timespec ms = { 0, 1000000 };

				while (now() < end)
					nanosleep(&ms, NULL);
			}
			_exit(0);
		}
	}
	for (i = 0; i < 3; i++)
		if (waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status))
			ret = -ECHILD;
	return ret;
}

/* --- fake vmlinux BTF ---------------------------------------------------- */

/*
 * A vmlinux BTF with the three hook functions and, unless prog_type < 0,
 * the two enumerators with the given values. Bind-mounted over
 * VMLINUX_BTF in a private mount namespace, it shows libbpf a kernel
 * whose numbers differ from the ones libbpf was built with, or that has
 * hooks but no enumerators; the real kernel is still the one that
 * creates maps and would load programs.
 */
static int write_fake_btf(const char *path, int prog_type, int attach_type,
			  int *tick_id)
{
	struct btf *btf = btf__new_empty();
	const void *raw;
	__u32 size;
	int int_id, proto, id, fd, h, err = 0;

	if (!btf)
		return -errno;
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	proto = btf__add_func_proto(btf, int_id);
	for (h = 0; h < NR_HOOKS; h++) {
		id = btf__add_func(btf, hooks[h].func, BTF_FUNC_GLOBAL, proto);
		if (h == HOOK_TICK)
			*tick_id = id;
	}
	/* the kernel's two enums, one upstream enumerator each, plus the
	 * series' two (unless prog_type < 0)
	 */
	btf__add_enum(btf, "bpf_prog_type", 4);
	btf__add_enum_value(btf, "BPF_PROG_TYPE_SYSCALL", 31);
	if (prog_type >= 0)
		btf__add_enum_value(btf, "BPF_PROG_TYPE_SCHED", prog_type);
	btf__add_enum(btf, "bpf_attach_type", 4);
	btf__add_enum_value(btf, "BPF_LSM_CGROUP", 43);
	if (attach_type >= 0)
		btf__add_enum_value(btf, "BPF_SCHED", attach_type);

	raw = btf__raw_data(btf, &size);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (!raw || fd < 0 || write(fd, raw, size) != (ssize_t)size)
		err = -errno ? -errno : -EIO;
	if (fd >= 0)
		close(fd);
	btf__free(btf);
	return err;
}

/*
 * Run check() in a child that sees `btf_path` as the kernel's BTF. The
 * child prints its own diagnostics; the result is its exit status (0 =
 * pass, 77 = could not set up the namespace, else fail).
 */
static int with_fake_btf(const char *btf_path, int (*check)(void *), void *arg)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount(btf_path, VMLINUX_BTF, NULL, MS_BIND, NULL)) {
			diag("cannot bind-mount fake BTF over %s: %s",
			     VMLINUX_BTF, strerror(errno));
			_exit(77);
		}
		_exit(check(arg) ? 1 : 0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -ECHILD;
	return WEXITSTATUS(status);
}

struct fake {
	int tick_id;
	int want_err;
	const char *want_msg;
};

/* a hook named with or without the bpf_sched_ prefix resolves alike */
static int check_full_name(void *arg)
{
	struct fake *f = arg;
	int short_id, full_id, bogus;

	short_id =
		libbpf_find_vmlinux_btf_id("cfs_check_preempt_tick", BPF_SCHED);
	full_id = libbpf_find_vmlinux_btf_id(hooks[HOOK_TICK].func, BPF_SCHED);
	bogus = libbpf_find_vmlinux_btf_id("bpf_sched_no_such_hook", BPF_SCHED);
	if (short_id == f->tick_id && full_id == f->tick_id && bogus < 0)
		return 0;
	diag("ids: short %d, full %d, bogus %d; want %d, %d, <0", short_id,
	     full_id, bogus, f->tick_id, f->tick_id);
	return 1;
}

static int check_set_attach_target(void *arg)
{
	struct sched_skel *skel = sched_skel__open();
	struct bpf_program *prog;
	int e1, e2;

	(void)arg;
	if (!skel)
		return 1;
	prog = hook_prog(skel, HOOK_TICK);
	e1 = bpf_program__set_attach_target(prog, 0, hooks[HOOK_TICK].func);
	e2 = bpf_program__set_attach_target(prog, 0, "cfs_check_preempt_tick");
	sched_skel__destroy(skel);
	if (!e1 && !e2)
		return 0;
	diag("set_attach_target: full name %d, short name %d", e1, e2);
	return 1;
}

/* load must fail with f->want_err and f->want_msg, before any prog load */
static int check_load_refused(void *arg)
{
	struct fake *f = arg;
	struct sched_skel *skel;
	int err, h, fds = 0;

	log_reset();
	skel = sched_skel__open();
	if (!skel)
		return 1;
	err = sched_skel__load(skel);
	for (h = 0; h < NR_HOOKS; h++)
		fds += bpf_program__fd(hook_prog(skel, h)) >= 0;
	sched_skel__destroy(skel);
	if (err == f->want_err && log_has(f->want_msg) && !fds)
		return 0;
	diag("load returned %d (want %d), %d programs loaded", err, f->want_err,
	     fds);
	log_diag();
	return 1;
}

static int check_probe_unsupported(void *arg)
{
	int ret = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_SCHED, NULL);

	(void)arg;
	if (ret == 0)
		return 0;
	diag("libbpf_probe_bpf_prog_type() = %d, want 0", ret);
	return 1;
}

/*
 * Numberings libbpf must refuse: those of the series' earlier builds,
 * which appended the two types to each kernel's enums instead of giving
 * both 62 on every kernel.
 */
static const struct {
	int prog_type, attach_type;
	const char *what;
} other_numbers[] = {
	{ 32, 44, "an earlier build of the series for 6.1" },
	{ 33, 57, "an earlier build of the series for 6.12" },
};
#define NR_OTHER (int)(sizeof(other_numbers) / sizeof(other_numbers[0]))

static void fake_btf_tests(void)
{
	char path[] = "/tmp/schedbpf-fake-btf.XXXXXX";
	char msg[160];
	struct fake f = { 0 };
	int fd, r, i;
	const int n = 2 + 2 * NR_OTHER + 2;

	if (geteuid() != 0) {
		skip(n, "fake BTF tests need root (mount namespace)");
		return;
	}
	fd = mkstemp(path);
	if (fd < 0) {
		skip(n, "cannot create a temporary file");
		return;
	}
	close(fd);

	/* hooks present, numbered as this libbpf does not */
	if (write_fake_btf(path, other_numbers[0].prog_type,
			   other_numbers[0].attach_type, &f.tick_id)) {
		unlink(path);
		skip(n, "cannot write fake BTF");
		return;
	}
	r = with_fake_btf(path, check_full_name, &f);
	if (r == 77) {
		unlink(path);
		skip(n, "no private mount namespace here");
		return;
	}
	ok(r == 0,
	   "attach target found by hook name and by full function name");
	ok(with_fake_btf(path, check_set_attach_target, &f) == 0,
	   "bpf_program__set_attach_target() accepts both name forms");

	for (i = 0; i < NR_OTHER; i++) {
		int pt = other_numbers[i].prog_type;
		int at = other_numbers[i].attach_type;

		if (write_fake_btf(path, pt, at, &f.tick_id)) {
			skip(2, "cannot write fake BTF");
			continue;
		}
		snprintf(msg, sizeof(msg),
			 "kernel numbers BPF_PROG_TYPE_SCHED %d and BPF_SCHED %d, libbpf was built with %d and %d",
			 pt, at, BPF_PROG_TYPE_SCHED, BPF_SCHED);
		f.want_err = -EINVAL;
		f.want_msg = msg;
		ok(with_fake_btf(path, check_load_refused, &f) == 0,
		   "kernel BTF numbering the types %d/%d (%s): load refused (-EINVAL) before any program load",
		   pt, at, other_numbers[i].what);
		ok(with_fake_btf(path, check_probe_unsupported, &f) == 0,
		   "kernel BTF numbering the types %d/%d: probe reports unsupported",
		   pt, at);
	}

	/* hooks present, enumerators missing */
	if (write_fake_btf(path, -1, -1, &f.tick_id)) {
		unlink(path);
		skip(2, "cannot write fake BTF");
		return;
	}
	f.want_err = -EOPNOTSUPP;
	f.want_msg = "kernel has no scheduler BPF programs";
	ok(with_fake_btf(path, check_load_refused, &f) == 0,
	   "kernel BTF without the enumerators: load refused (-EOPNOTSUPP)");
	ok(with_fake_btf(path, check_probe_unsupported, &f) == 0,
	   "kernel BTF without the enumerators: probe reports unsupported");
	unlink(path);
}

/* --- modes --------------------------------------------------------------- */

static int mode_host(void)
{
	enum bpf_attach_type at;
	enum bpf_prog_type pt;
	struct sched_skel *skel;
	const char *s;
	int h, err;

	ok(BPF_PROG_TYPE_SCHED == 62 && BPF_SCHED == 62,
	   "UAPI numbering is the series', 62/62 on every kernel (BPF_PROG_TYPE_SCHED %d, BPF_SCHED %d)",
	   BPF_PROG_TYPE_SCHED, BPF_SCHED);
	s = libbpf_bpf_prog_type_str(BPF_PROG_TYPE_SCHED);
	ok(s && !strcmp(s, "sched"),
	   "libbpf_bpf_prog_type_str(BPF_PROG_TYPE_SCHED) is \"sched\" (%s)",
	   s ? s : "NULL");
	s = libbpf_bpf_attach_type_str(BPF_SCHED);
	ok(s && !strcmp(s, "sched"),
	   "libbpf_bpf_attach_type_str(BPF_SCHED) is \"sched\" (%s)",
	   s ? s : "NULL");
	err = libbpf_prog_type_by_name("sched/cfs_check_preempt_tick", &pt,
				       &at);
	ok(!err && pt == BPF_PROG_TYPE_SCHED && at == BPF_SCHED,
	   "libbpf_prog_type_by_name(\"sched/cfs_check_preempt_tick\") gives sched/sched");
	err = libbpf_prog_type_by_name("schedfoo/x", &pt, &at);
	ok(err < 0, "\"schedfoo/x\" is not a sched section");

	skel = sched_skel__open();
	if (!ok(skel != NULL, "skeleton opens with no registered handler")) {
		log_diag();
		return done_testing();
	}
	for (h = 0; h < NR_HOOKS; h++) {
		struct bpf_program *p = hook_prog(skel, h);

		ok(p && bpf_program__type(p) == BPF_PROG_TYPE_SCHED &&
			   bpf_program__expected_attach_type(p) == BPF_SCHED &&
			   !strcmp(bpf_program__section_name(p),
				   hooks[h].section),
		   "SEC(\"%s\") gives program type and attach type sched",
		   hooks[h].section);
	}

	if (!kernel_has_hooks()) {
		int ret = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_SCHED, NULL);

		ok(ret == 0,
		   "kernel without hooks: probe reports unsupported (%d)", ret);
		log_reset();
		err = sched_skel__load(skel);
		ok(err == -ESRCH &&
			   log_has("failed to find kernel BTF type ID of 'cfs_check_preempt_tick'"),
		   "kernel without hooks: load fails naming the missing hook (%d)",
		   err);
		if (err != -ESRCH)
			log_diag();
	} else {
		skip(2, "kernel has the hooks; see the run mode");
	}
	sched_skel__destroy(skel);

	fake_btf_tests();
	return done_testing();
}

static int load_and_attach(struct sched_skel **skelp)
{
	struct sched_skel *skel;
	int err;

	log_reset();
	skel = sched_skel__open();
	if (!skel)
		return -errno;
	err = sched_skel__load(skel);
	if (!err)
		err = sched_skel__attach(skel);
	if (err) {
		sched_skel__destroy(skel);
		return err;
	}
	*skelp = skel;
	return 0;
}

static bool all_called(const __u64 *calls)
{
	int h;

	for (h = 0; h < NR_HOOKS; h++)
		if (!calls[h])
			return false;
	return true;
}

static int mode_run(void)
{
	struct bpf_prog_info pinfo[NR_HOOKS];
	__u64 before[NR_HOOKS], after[NR_HOOKS];
	struct sched_skel *skel = NULL;
	struct btf *vmlinux;
	long long pt, at;
	int h, ret, err, stats_fd;
	double t0;

	if (!kernel_has_hooks()) {
		const char *why =
			"kernel has no scheduler BPF hooks (no bpf_sched_cfs_check_preempt_tick in its BTF)";
		const char *req = getenv("SCHEDBPF_REQUIRE_HOOKS");

		if (req && !strcmp(req, "1")) {
			printf("Bail out! %s\n", why);
			return 1;
		}
		printf("1..0 # SKIP %s\n", why);
		return 0;
	}
	vmlinux = btf__load_vmlinux_btf();

	/* 62/62 on every kernel of the series, so on 6.1 and 6.12 alike */
	pt = btf_enum_val(vmlinux, "bpf_prog_type", "BPF_PROG_TYPE_SCHED");
	at = btf_enum_val(vmlinux, "bpf_attach_type", "BPF_SCHED");
	ok(pt == BPF_PROG_TYPE_SCHED && at == BPF_SCHED,
	   "kernel %s numbers the types as this libbpf: BTF %lld/%lld, UAPI %d/%d",
	   kernel_release(), pt, at, BPF_PROG_TYPE_SCHED, BPF_SCHED);

	ret = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_SCHED, NULL);
	ok(ret == 1,
	   "libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_SCHED) is 1 (%d)", ret);
	ret = libbpf_find_vmlinux_btf_id("cfs_check_preempt_tick", BPF_SCHED);
	ok(ret > 0 && ret == libbpf_find_vmlinux_btf_id(hooks[HOOK_TICK].func,
							BPF_SCHED),
	   "hook found by name and by full function name (id %d)", ret);

	err = load_and_attach(&skel);
	if (!ok(!err,
		"skeleton loads and __attach() attaches, nothing registered (%d)",
		err)) {
		log_diag();
		btf__free(vmlinux);
		return done_testing();
	}

	for (h = 0; h < NR_HOOKS; h++) {
		struct bpf_link *link = hook_link(skel, h);
		struct bpf_link_info linfo = {};
		__u32 len = sizeof(linfo);
		const struct btf_type *t;
		const char *name = "?";

		memset(&pinfo[h], 0, sizeof(pinfo[h]));
		len = sizeof(pinfo[h]);
		err = bpf_obj_get_info_by_fd(
			bpf_program__fd(hook_prog(skel, h)), &pinfo[h], &len);
		ok(!err && pinfo[h].type == BPF_PROG_TYPE_SCHED,
		   "%s: kernel reports program type %u", hooks[h].prog,
		   pinfo[h].type);

		len = sizeof(linfo);
		err = link ? bpf_obj_get_info_by_fd(bpf_link__fd(link), &linfo,
						    &len) :
			     -ENOENT;
		t = vmlinux && !err ?
			    btf__type_by_id(vmlinux,
					    linfo.tracing.target_btf_id) :
			    NULL;
		if (t)
			name = btf__name_by_offset(vmlinux, t->name_off);
		ok(!err && linfo.type == BPF_LINK_TYPE_TRACING &&
			   linfo.tracing.attach_type == BPF_SCHED &&
			   !strcmp(name, hooks[h].func),
		   "%s: link %u is a tracing link, attach type sched, target %s",
		   hooks[h].prog, linfo.id, name);
	}

	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	/* run until every hook has counted, 10 s at most (TCG is slow) */
	t0 = now();
	do {
		if (workload(0.5)) {
			ok(false, "workload ran");
			break;
		}
	} while (!all_called(skel->bss->calls) && now() - t0 < 10);
	for (h = 0; h < NR_HOOKS; h++) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);

		bpf_obj_get_info_by_fd(bpf_program__fd(hook_prog(skel, h)),
				       &info, &len);
		ok(skel->bss->calls[h] > 0,
		   "%s: called %llu times under the workload", hooks[h].func,
		   (unsigned long long)skel->bss->calls[h]);
		if (stats_fd >= 0)
			ok(info.run_cnt > 0,
			   "%s: kernel counts %llu runs (bpf_stats)",
			   hooks[h].prog, (unsigned long long)info.run_cnt);
		else
			skip(1, "bpf_enable_stats() failed");
	}
	if (stats_fd >= 0)
		close(stats_fd);

	/* links gone, programs still loaded: the hooks must not run them */
	sched_skel__detach(skel);
	/* let calls that read the program array before the unlink finish */
	usleep(200000);
	memcpy(before, skel->bss->calls, sizeof(before));
	workload(1.0);
	memcpy(after, skel->bss->calls, sizeof(after));
	ok(!memcmp(before, after, sizeof(before)),
	   "after detach no hook runs (tick %llu->%llu, wakeup %llu->%llu, entity %llu->%llu)",
	   (unsigned long long)before[0], (unsigned long long)after[0],
	   (unsigned long long)before[1], (unsigned long long)after[1],
	   (unsigned long long)before[2], (unsigned long long)after[2]);

	sched_skel__destroy(skel);
	btf__free(vmlinux);
	return done_testing();
}

static int mode_hold(void)
{
	struct sched_skel *skel = NULL;
	char c;
	int h, err;

	err = load_and_attach(&skel);
	if (err) {
		fprintf(stderr, "sched_skel: load/attach failed: %s\n%s",
			strerror(-err), log_buf);
		return 1;
	}
	for (h = 0; h < NR_HOOKS; h++) {
		struct bpf_prog_info pinfo = {};
		struct bpf_link_info linfo = {};
		__u32 len = sizeof(pinfo);

		bpf_obj_get_info_by_fd(bpf_program__fd(hook_prog(skel, h)),
				       &pinfo, &len);
		len = sizeof(linfo);
		bpf_obj_get_info_by_fd(bpf_link__fd(hook_link(skel, h)), &linfo,
				       &len);
		printf("prog %s id=%u link=%u target=%u\n", hooks[h].prog,
		       pinfo.id, linfo.id, linfo.tracing.target_btf_id);
	}
	printf("ready\n");
	fflush(stdout);
	while (read(STDIN_FILENO, &c, 1) > 0)
		;
	sched_skel__destroy(skel);
	return 0;
}

int main(int argc, char **argv)
{
	const char *v = getenv("SCHEDBPF_TEST_VERBOSE");

	verbose = v && !strcmp(v, "1");
	libbpf_set_print(print_fn);
	signal(SIGPIPE, SIG_IGN);

	if (argc == 2 && !strcmp(argv[1], "host"))
		return mode_host();
	if (argc == 2 && !strcmp(argv[1], "run"))
		return mode_run();
	if (argc == 2 && !strcmp(argv[1], "hold"))
		return mode_hold();
	fprintf(stderr, "usage: %s host|run|hold\n", argv[0]);
	return 2;
}
