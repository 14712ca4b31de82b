# SPDX-License-Identifier: GPL-2.0-only
#
# schedbpf: bpf/NAME.bpf.c -> build/bpf/NAME.bpf.o (and build/bpf/policy/,
# without the observers) -> build/skel/NAME.skel.h, NAME_policy.skel.h (the
# series' bpftool: bpftool gen skeleton -L) -> tools/NAME.c + the library,
# build/obj/libsched.a (tools/lib/*.c) -> build/bin/NAME (underscores as
# dashes); sched-ab, which runs the others, is tools/sched_ab.c + the
# library alone. `make help` lists the targets.

OUTPUT := build
BIN := $(OUTPUT)/bin
OBJ := $(OUTPUT)/obj
BPFOBJ := $(OUTPUT)/bpf
SKEL := $(OUTPUT)/skel
TESTBIN := $(OUTPUT)/unit
LIBSCHED := $(OBJ)/libsched.a
# the series' bpftool, built for this host by kernel/build-bpftool: it
# generates the skeletons, and its include/ has the light skeleton's
# header and the series' UAPI header (BPF_PROG_TYPE_SCHED, BPF_SCHED)
BPFTOOL_DIR := $(OUTPUT)/host/bpftool
BPFTOOL := $(BPFTOOL_DIR)/bpftool
BPFTOOL_STAMP := $(OUTPUT)/host/bpftool.stamp

CC ?= cc
CLANG ?= clang
LLVM_STRIP ?= llvm-strip
PKG_CONFIG ?= pkg-config
ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')

PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
# where each shell looks for completions (bash-completion loads a file
# named after the command; zsh autoloads _NAME from site-functions)
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
DESTDIR ?=
INSTALL ?= install

# CPPFLAGS and LDFLAGS too, for a packager's (dpkg-buildflags) hardening
CFLAGS ?= -g -O2
WARNINGS := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers
INCLUDES := -D_GNU_SOURCE -I$(BPFTOOL_DIR)/include -Iinclude -Itools/lib -I$(SKEL)
# the tools link no libbpf (a light skeleton needs none); libm is
# sched-ab's statistics
LDLIBS_OWN := -lm
BPF_CFLAGS := -g -O2 -Wall -target bpf -D__TARGET_ARCH_$(ARCH) \
	-Iinclude -Iinclude/$(ARCH)

# Every tool is bpf/NAME.bpf.c + tools/NAME.c; a plain tool, tools/NAME.c
# alone, loads no BPF of its own (sched-ab runs the others).
TOOLS := $(patsubst bpf/%.bpf.c,%,$(wildcard bpf/*.bpf.c))
PLAIN_TOOLS := sched_ab
TOOL_BINS := $(addprefix $(BIN)/,$(subst _,-,$(TOOLS) $(PLAIN_TOOLS)))
LIB_OBJS := $(patsubst tools/lib/%.c,$(OBJ)/lib/%.o,$(wildcard tools/lib/*.c))
SKELS := $(foreach t,$(TOOLS),$(SKEL)/$(t).skel.h $(SKEL)/$(t)_policy.skel.h)
# man/NAME.8.in, with the pages' shared parts from man/common/ included
MAN_PAGES := $(patsubst man/%.8.in,$(OUTPUT)/man/%.8,$(wildcard man/*.8.in))
UNIT_TESTS := $(patsubst tests/unit/%.c,$(TESTBIN)/%,$(wildcard tests/unit/*.c))

# Quiet unless V=1.
ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

# Debian packages the build and the tests need; `make deps` installs what is
# missing. Skip it with NO_DEPS=1 (other distributions, or no root).
DEPS := clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev pkg-config \
	linux-source-6.12 gcc libc6-dev make perl jq qemu-system-x86 \
	zsh fish man-db groff-base bash-completion python3 strace
DEPS_CHECK := $(if $(NO_DEPS),,deps)
# make deb and make check (tests/pkg) build and check Debian packages
DEB_DEPS := dpkg-dev debhelper lintian

.DEFAULT_GOAL := all
.PHONY: all deps help install uninstall clean check check-unit check-vm check-vms demo bench \
	stress bench-real bench-eevdf kernel kernel-deb deb vmlinux.h format \
	libbpf-patched

all: $(TOOL_BINS) $(MAN_PAGES)

help:
	@echo 'Targets:'
	@echo '  all        build the tools into $(BIN)/ (default)'
	@echo '  deps       install the Debian packages the build and tests need'
	@echo '  check      unit tests on this host, the packages (deb, tests/pkg),'
	@echo '             then the kernel and VM tests on the packaged kernel'
	@echo '  check-unit only the unit tests (tests/unit, no kernel needed)'
	@echo '  demo       no-preempt --dry-run against no-preempt, in the VM'
	@echo '  bench      what the hooks and tools cost perf bench sched pipe and'
	@echo '             messaging (BENCH_WORKLOADS), as ratios to nothing attached, in the VM'
	@echo '             under --icount (BENCH_BOOTS=3 ROUNDS=5; BENCH_CPUS=2: plain TCG)'
	@echo '  bench-real nginx and redis-server beside a CPU hog, A/B of each tool'
	@echo '             through sched-ab, in the VM (REAL_ROUNDS=6)'
	@echo '  bench-eevdf each tool beside EEVDF'"'"'s own knobs (sched_runtime slices,'
	@echo '             SCHED_BATCH/IDLE, nice) on the 6.12 kernel (ROUNDS=3 SECS=3)'
	@echo '  stress     tests/stress/run on the debug kernel: attach/detach cycles'
	@echo '             (single-threaded TCG), then under multi-threaded TCG'
	@echo '             SIGKILL, cgroup removal, the kernel bound on suppression, a'
	@echo '             release without memory; fails on any splat (not in check;'
	@echo '             STRESS_CYCLES=500 scales it, STRESS_ITEMS=abcdefg, STRESS_CPUS=2)'
	@echo '  kernel     build the patched kernel (kernel/build); FLAVOR=debug'
	@echo '             builds build/kernel-debug, with KASAN, lockdep and the'
	@echo '             lockup detectors (kernel/config/debug.config); KERNEL=6.12'
	@echo '             the 6.12 series, build/kernel-6.12 (also for kernel-deb, demo)'
	@echo '  kernel-deb the kernel as Debian packages (linux-image, linux-headers):'
	@echo '             KCONFIG=defconfig (default) the VM'"'"'s kernel, which boots a'
	@echo '             cloud VM too, in $(OUTPUT)/kernel/deb/; KCONFIG=/boot/config-X'
	@echo '             that configuration with the series on top, $(OUTPUT)/kernel-distro/deb/'
	@echo '  vmlinux.h  regenerate include/$(ARCH)/vmlinux.h from that kernel'
	@echo '  libbpf-patched  libbpf-patches/ on the libbpf apt serves: static,'
	@echo '             cached, $(OUTPUT)/libbpf; and what tests/libbpf runs'
	@echo '  install    install the tools into $$(DESTDIR)$$(SBINDIR), their man'
	@echo '             pages and bash, zsh and fish completions under $$(DATADIR)'
	@echo '             (SBINDIR=$$(PREFIX)/sbin, DATADIR=$$(PREFIX)/share,'
	@echo '             PREFIX=$(PREFIX))'
	@echo '  deb        the tools as a Debian package, schedbpf-tools (debian/), in'
	@echo '             $(OUTPUT)/deb/, checked by lintian'
	@echo '  uninstall  remove what install installed'
	@echo '  format     clang-format the C sources in place'
	@echo '  clean      remove what all built (not the kernel in $(OUTPUT)/kernel)'
	@echo 'Variables: V=1 shows commands; NO_DEPS=1 skips the package check;'
	@echo '  CC, CLANG, CFLAGS as usual.'

deps:
	@missing=; for p in $(DEPS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q '^install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		command -v apt-get >/dev/null || { \
			echo "missing packages:$$missing (no apt-get: install them, or NO_DEPS=1)" >&2; \
			exit 1; }; \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		echo "  DEPS    installing$$missing"; \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq \
			--no-install-recommends $$missing; \
	fi

$(BIN) $(OBJ)/lib $(BPFOBJ) $(BPFOBJ)/policy $(SKEL) $(TESTBIN) $(OUTPUT)/man $(OUTPUT)/host:
	$(Q)mkdir -p $@

# BPF objects: CO-RE against include/<arch>/vmlinux.h. -g gives them BTF;
# its DWARF (four fifths of the object) is stripped, since each tool
# embeds its object and nothing reads DWARF. Each object twice: with the
# observers, and in policy/ without them (--observe=none loads that one).
bpf_compile = $(CLANG) $(BPF_CFLAGS) $(2) -MMD -MP -MF $(@:.o=.d) -MT $@ -c $(1) -o $@.tmp && \
	$(LLVM_STRIP) -g $@.tmp && mv $@.tmp $@
$(BPFOBJ)/%.bpf.o: bpf/%.bpf.c | $(BPFOBJ) $(DEPS_CHECK)
	$(call msg,BPF,$@)
	$(Q)$(call bpf_compile,$<)
$(BPFOBJ)/policy/%.bpf.o: bpf/%.bpf.c | $(BPFOBJ)/policy $(DEPS_CHECK)
	$(call msg,BPF,$@)
	$(Q)$(call bpf_compile,$<,-DSCHEDBPF_NO_OBSERVERS)

# The series' bpftool (kernel/build-bpftool, cached outside the checkout;
# it checks its key, so this rule only asks it when the series changes),
# and what the tools print as the libbpf that generated their skeletons.
$(BPFTOOL_STAMP): kernel/build-bpftool $(wildcard kernel/6.12/patches/*.patch) | $(OUTPUT)/host $(DEPS_CHECK)
	$(Q)kernel/build-bpftool $(BPFTOOL_DIR)
	$(Q)touch $@
$(SKEL)/skel_libbpf.h: $(BPFTOOL_STAMP) | $(SKEL)
	$(call msg,GEN,$@)
	$(Q)v=$$($(BPFTOOL) version | sed -n 's/^using libbpf //p'); \
		[ -n "$$v" ] || { echo "$(BPFTOOL) names no libbpf" >&2; exit 1; }; \
		printf '#define SCHEDBPF_SKEL_LIBBPF "%s"\n' "$$v" > $@

# Each object's light skeleton (tools/lib/skel.h says what it is).
$(SKEL)/%_policy.skel.h: $(BPFOBJ)/policy/%.bpf.o $(BPFTOOL_STAMP) | $(SKEL)
	$(call msg,BPFTOOL,gen skeleton -L $< > $@)
	$(Q)$(BPFTOOL) gen skeleton -L $< name $*_policy > $@.tmp && mv $@.tmp $@
$(SKEL)/%.skel.h: $(BPFOBJ)/%.bpf.o $(BPFTOOL_STAMP) | $(SKEL)
	$(call msg,BPFTOOL,gen skeleton -L $< > $@)
	$(Q)$(BPFTOOL) gen skeleton -L $< name $* > $@.tmp && mv $@.tmp $@

# A tool's object needs its skeletons before its first compile, when there
# are no .d files yet to say so.
$(OBJ)/%.o: tools/%.c $(SKEL)/%.skel.h $(SKEL)/%_policy.skel.h | $(OBJ)/lib $(DEPS_CHECK)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) $(INCLUDES) -MMD -MP -c $< -o $@

$(PLAIN_TOOLS:%=$(OBJ)/%.o): $(OBJ)/%.o: tools/%.c $(BPFTOOL_STAMP) | $(OBJ)/lib $(DEPS_CHECK)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) $(INCLUDES) -MMD -MP -c $< -o $@

$(OBJ)/lib/%.o: tools/lib/%.c $(SKEL)/skel_libbpf.h | $(OBJ)/lib $(DEPS_CHECK)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) $(INCLUDES) -MMD -MP -c $< -o $@

# The library as an archive: each binary links only what it calls.
$(LIBSCHED): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(OUTPUT)/man/%.8: man/%.8.in $(wildcard man/common/*.roff) | $(OUTPUT)/man
	$(call msg,MAN,$@)
	$(Q)awk '/^\.\\" @include .*@$$/ { f = $$3; sub(/@$$/, "", f); \
		while ((getline l < ("man/common/" f)) > 0) print l; next } 1' \
		$< > $@.tmp && mv $@.tmp $@

define tool_rule
$(BIN)/$(subst _,-,$(1)): $(OBJ)/$(1).o $(LIBSCHED) | $(BIN)
	$$(call msg,LINK,$$@)
	$$(Q)$$(CC) $$(CFLAGS) $$(LDFLAGS) $$^ $$(LDLIBS_OWN) -o $$@
endef
$(foreach t,$(TOOLS) $(PLAIN_TOOLS),$(eval $(call tool_rule,$(t))))

# Unit tests written in C link the library; their .t wrappers run them.
$(TESTBIN)/%: tests/unit/%.c $(LIBSCHED) | $(TESTBIN)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(WARNINGS) $(INCLUDES) -MMD -MP $< $(LIBSCHED) \
		$(LDFLAGS) $(LDLIBS_OWN) -o $@

-include $(wildcard $(OBJ)/*.d $(OBJ)/lib/*.d $(BPFOBJ)/*.d $(BPFOBJ)/policy/*.d $(TESTBIN)/*.d)

# KERNEL=6.12: the 6.12 series (kernel/6.12/), linked as build/kernel-6.12
# (-distro, -NAME); 6.1 (build/kernel) when not given. kernel/build refuses
# a series it does not have; kernel/vm-run (make demo) boots the same one.
KERNEL ?= 6.1
KERNEL_LINK = $(OUTPUT)/kernel$(if $(filter-out 6.1,$(KERNEL)),-$(KERNEL))

# What the VM tests run besides the tools (build/tests/: hog, waker; and
# the loaders schedtest and safety, built against the series' own libbpf:
# build/tests/ for 6.1, build/tests/kernel-6.12/ for KERNEL=6.12): the
# kernel-tests target.
-include tests/kernel/build.mk
# make stress's loader and programs (build/tests/stress/): stress-tests.
-include tests/stress/build.mk

check-unit: all $(UNIT_TESTS)
	prove -r tests/unit

# The whole suite: host tests first (tests/pkg: the tools' package, and
# the distribution-config kernel's configuration), then a VM boot per
# kernel series, each on the kernel inside the linux-image .deb that make
# kernel-deb ships (the same build as build/kernel*/bzImage), for
# everything that needs the hooks: tests/kernel, tests/tools and
# tests/libbpf on 6.1 (CFS) and on 6.12 (EEVDF), with the same tool
# binaries (the program and attach types have the same values on both).
# tests/libbpf runs on the host too (only its host part there); it tests
# the standalone libbpf 1.1 patches.
#
# The series' VMs run at the same time (CHECK_PARALLEL=0: one after the
# other): a single-threaded TCG guest keeps one host core busy, so on two
# cores the two suites take about as long as the longer one alone. Each
# boot's output goes to build/check-KERNEL.log and is printed, under its
# name, when both are done.
CHECK_KERNELS ?= 6.1 6.12
CHECK_PARALLEL ?= 1
check: DEPS += $(DEB_DEPS) linux-config-6.1
check: $(DEPS_CHECK) check-unit
	$(MAKE) deb
	prove tests/pkg
	$(foreach k,$(CHECK_KERNELS),$(MAKE) kernel kernel-tests KERNEL=$(k) &&) true
	$(MAKE) libbpf-patched
	prove tests/libbpf
	@$(MAKE) --no-print-directory check-vms

check-vms:
	@failed=; \
	if [ "$(CHECK_PARALLEL)" = 1 ]; then \
		for k in $(CHECK_KERNELS); do \
			echo "  VM      $$k: started, output in $(OUTPUT)/check-$$k.log"; \
			$(MAKE) --no-print-directory check-vm KERNEL=$$k CHECK_VM_QUIET=1 \
				>$(OUTPUT)/check-$$k.out 2>&1 & \
		done; \
		wait; \
	fi; \
	for k in $(CHECK_KERNELS); do \
		if [ "$(CHECK_PARALLEL)" = 1 ]; then \
			echo "==== $$k"; cat $(OUTPUT)/check-$$k.log $(OUTPUT)/check-$$k.out; \
			grep -qx "check-vm $$k: passed" $(OUTPUT)/check-$$k.out; \
		else $(MAKE) --no-print-directory check-vm KERNEL=$$k; fi; \
		if [ $$? = 0 ]; then echo "check: $$k: all passed"; \
		else echo "check: $$k: FAILED"; failed="$$failed $$k"; fi; \
	done; [ -z "$$failed" ] || { echo "check: failed on$$failed"; exit 1; }

# check's VM part on one series (KERNEL), booted from its linux-image .deb.
# The boot's output is kept in build/check-KERNEL.log; on a failure the
# failed points (prove -f) and the lines before each, the tests' numbers,
# are printed again at the end, where a CI log's tail shows them.
VM_TESTS = tests/kernel tests/tools tests/libbpf
CHECK_LOG = $(OUTPUT)/check-$(KERNEL).log
check-vm:
	@echo '  VM      $(KERNEL): prove -f -r $(VM_TESTS)'
	@mkdir -p $(OUTPUT)
	@{ KERNEL=$(KERNEL) kernel/vm-run --timeout 2400 --deb "$$(ls $(KERNEL_LINK)/deb/linux-image-*.deb)" \
		-- env SCHEDBPF_REQUIRE_HOOKS=1 prove -f -r $(VM_TESTS) 2>&1; \
		echo $$? >$(CHECK_LOG).rc; } | $(if $(CHECK_VM_QUIET),cat >$(CHECK_LOG),tee $(CHECK_LOG)); \
	rc=$$(cat $(CHECK_LOG).rc); rm -f $(CHECK_LOG).rc; \
	if [ "$$rc" = 0 ]; then echo "check-vm $(KERNEL): passed"; else \
		echo "check-vm $(KERNEL): exit $$rc; the failed points, each after the lines before it ($(CHECK_LOG)):"; \
		grep -a -B8 '^not ok' $(CHECK_LOG); fi; exit $$rc

# The build scripts run a make of their own (the kernel's, libbpf's) and
# read what it prints: none of this make's flags may reach it. In a
# sub-make (make check runs make kernel) MAKEFLAGS carries -w, and the
# kernel's `make -s kernelrelease` came back inside "Entering directory"
# lines: kernel/build refused the release, and a cold make check failed.
OWN_MAKE := env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL

# FLAVOR=NAME: kernel/config/NAME.config merged on top, cached under its
# own key, linked as build/kernel-NAME (kernel/build-flavour); without it,
# or with FLAVOR=default, kernel/build as ever.
# kernel/build installs what the build needs itself, but 6.12's bindeb-pkg
# also wants debhelper (debhelper-compat), which its list lacks: on a new
# machine make kernel KERNEL=6.12 failed there (make check installs it
# first). It is added here, since kernel/build is part of the cache key.
kernel kernel-deb: DEPS := debhelper
kernel: $(DEPS_CHECK)
	$(OWN_MAKE) KERNEL=$(KERNEL) $(if $(filter-out default,$(FLAVOR)),kernel/build-flavour $(FLAVOR),kernel/build)

# The kernel as Debian packages: linux-image-VERSION-schedbpf and
# linux-headers-VERSION-schedbpf, made by the kernel's bindeb-pkg with every
# kernel/build. KCONFIG=defconfig is the kernel the VM boots (make kernel),
# packages in build/kernel/deb/; KCONFIG=FILE (/boot/config-$$(uname -r)) is
# FILE with the series' fragment on top, cached under its own key,
# build/kernel-distro/deb/ (hours on two cores: every module of a
# distribution).
KCONFIG ?= defconfig
kernel-deb: $(DEPS_CHECK)
	$(OWN_MAKE) KERNEL=$(KERNEL) $(if $(filter defconfig,$(KCONFIG)),kernel/build,kernel/build --config $(KCONFIG))
	@ls -l $(KERNEL_LINK)$(if $(filter-out defconfig,$(KCONFIG)),-distro)/deb/*.deb

# libbpf-patches/README.md; tests/libbpf/Makefile builds the test program
# against it.
libbpf-patched:
	$(Q)$(OWN_MAKE) libbpf-patches/build
	$(Q)$(MAKE) --no-print-directory -C tests/libbpf V=$(V)

vmlinux.h: kernel
	$(call msg,GEN,include/$(ARCH)/vmlinux.h)
	$(Q)$(OUTPUT)/kernel/bpftool btf dump file $(OUTPUT)/kernel/vmlinux \
		format c > include/$(ARCH)/vmlinux.h.tmp
	$(Q)mv include/$(ARCH)/vmlinux.h.tmp include/$(ARCH)/vmlinux.h

# KERNEL=6.12 runs it on that series.
demo: all
	$(MAKE) kernel
	$(MAKE) kernel-tests
	KERNEL=$(KERNEL) kernel/vm-run --timeout 1200 -- bench/demo.sh

# bench/overhead.sh: numbers, not a test (make check does not run it). In
# BENCH_BOOTS boots of BENCH_CPUS vCPUs, one under --icount (the guest's
# clock counts instructions, so the host's load does not show), more under
# plain TCG (icount does not boot an SMP guest: kernel/vm-run), each boot's
# results in $(OUTPUT)/bench/; bench/report tables them all at the end.
# Every BENCH_* variable and ROUNDS, WARMUP, PIPE_LOOPS, MSG_* reach the
# guest.
BENCH_BOOTS ?= 1
BENCH_CPUS ?= 1
bench: DEPS += linux-perf
bench: $(DEPS_CHECK) all
	$(MAKE) kernel
	$(MAKE) kernel-tests
	$(Q)mkdir -p $(OUTPUT)/bench && rm -f $(OUTPUT)/bench/boot-*.tsv
	for b in $$(seq $(BENCH_BOOTS)); do \
		kernel/vm-run $(if $(filter 1,$(BENCH_CPUS)),--icount) --cpus $(BENCH_CPUS) --timeout 2400 -- \
			env $(foreach v,$(sort $(filter BENCH_% ROUNDS WARMUP \
			PIPE_LOOPS MSG_%,$(.VARIABLES))),$(v)='$($(v))') \
			BENCH_OUT=$(OUTPUT)/bench/boot-$$b.tsv bench/overhead.sh || exit; \
	done
	bench/report $(OUTPUT)/bench/boot-*.tsv

# bench/eevdf.sh: each tool's scenario beside EEVDF's own knobs (a task's
# sched_runtime slice, the competitor's policy), ratios to nothing, one
# boot; KERNEL=6.12 (default here), or 6.1 for the tools alone. Numbers,
# not a test. ROUNDS and SECS reach the guest.
bench-eevdf: KERNEL = 6.12
bench-eevdf: $(DEPS_CHECK) all
	$(MAKE) kernel kernel-tests KERNEL=$(KERNEL)
	KERNEL=$(KERNEL) kernel/vm-run --cpus 2 --timeout 3600 -- \
		env $(if $(ROUNDS),ROUNDS=$(ROUNDS)) $(if $(SECS),SECS=$(SECS)) bench/eevdf.sh

# bench/real/run: nginx and redis-server next to a CPU hog, each tool A/B
# through sched-ab (numbers, not a test; make check does not run it).
# REAL_ROUNDS=N rounds per tool (default 6); REAL_LAYOUTS="beside nested"
# (the default) or either one alone; REAL_SERVERS, REAL_TOOLS: see the
# script. REAL_MTTCG=1 runs the two vCPUs on two host threads.
bench-real: DEPS += nginx-light wrk redis-server redis-tools
bench-real: $(DEPS_CHECK) all
	$(MAKE) kernel
	$(MAKE) kernel-tests
	kernel/vm-run --cpus 2 --timeout 7200 $(if $(REAL_MTTCG),--mttcg) -- \
		env REAL_ROUNDS=$(or $(REAL_ROUNDS),6) \
		REAL_LAYOUTS='$(or $(REAL_LAYOUTS),beside nested)' \
		$(if $(REAL_SERVERS),REAL_SERVERS='$(REAL_SERVERS)') \
		$(if $(REAL_TOOLS),REAL_TOOLS='$(REAL_TOOLS)') bench/real/run

# tests/stress/run: not part of check. The debug kernel for the checkers;
# the default one because kernel-tests builds against its libbpf and BTF.
# KERNEL=6.12 does the same with the 6.12 series.
# Every STRESS_* variable (tests/stress/run lists them) reaches the guest.
# Two boots: item a under single-threaded TCG, whose many attach/release
# cycles under --mttcg meet qemu's stale-int3 hang (kernel/README.md), and
# the other items under --mttcg, for the vCPUs' real concurrency.
STRESS_CPUS ?= 2
STRESS_TIMEOUT ?= 36000
STRESS_ITEMS ?= abcdefg
stress_vm = KERNEL=$(KERNEL) kernel/vm-run --flavor debug --cpus $(STRESS_CPUS) --mem 4G \
	--timeout $(STRESS_TIMEOUT)
stress_env = env $(foreach v,$(sort $(filter-out STRESS_ITEMS,$(filter STRESS_%,\
	$(.VARIABLES)))),$(v)='$($(v))')
stress: DEPS += rt-tests
stress: $(DEPS_CHECK) all
	$(MAKE) kernel FLAVOR=debug
	$(MAKE) kernel FLAVOR=default
	$(MAKE) stress-tests
	@single=$$(echo '$(STRESS_ITEMS)' | tr -cd a); multi=$$(echo '$(STRESS_ITEMS)' | tr -d a); st=0; \
	if [ -n "$$single" ]; then $(stress_vm) -- $(stress_env) STRESS_ITEMS=$$single \
		tests/stress/run || st=1; fi; \
	if [ -n "$$multi" ]; then $(stress_vm) --mttcg -- $(stress_env) STRESS_ITEMS=$$multi \
		tests/stress/run || st=1; fi; \
	exit $$st

# The tools as a Debian package, schedbpf-tools (debian/): built by
# dpkg-buildpackage in a copy of this tree under $(OUTPUT)/deb/ (it writes
# beside the tree it builds; SCHEDBPF_CACHE keeps the series' bpftool
# cached where debhelper moves HOME), then checked by lintian, which must report
# no error and no warning that debian/*.lintian-overrides does not explain.
DEB_VERSION = $(shell dpkg-parsechangelog -S Version 2>/dev/null)
deb: DEPS += $(DEB_DEPS)
deb: $(DEPS_CHECK)
	$(call msg,DEB,$(OUTPUT)/deb/schedbpf-tools_$(DEB_VERSION)_*.deb)
	$(Q)rm -rf $(OUTPUT)/deb && mkdir -p $(OUTPUT)/deb/schedbpf-$(DEB_VERSION)
	$(Q)tar -c --exclude=./$(OUTPUT) --exclude=./.git . | \
		tar -x -C $(OUTPUT)/deb/schedbpf-$(DEB_VERSION)
	$(Q)cd $(OUTPUT)/deb/schedbpf-$(DEB_VERSION) && \
		SCHEDBPF_CACHE=$${SCHEDBPF_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/schedbpf} \
		dpkg-buildpackage -b -us -uc >../build.log 2>&1 || \
		{ tail -n 30 ../build.log >&2; \
		echo "make deb: dpkg-buildpackage failed; log: $(OUTPUT)/deb/build.log" >&2; exit 1; }
	$(call msg,LINTIAN,$(OUTPUT)/deb/schedbpf_$(DEB_VERSION)_*.changes)
	$(Q)lintian --fail-on error,warning --info \
		$(OUTPUT)/deb/schedbpf_$(DEB_VERSION)_*.changes

install: all
	$(INSTALL) -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
		$(DESTDIR)$(FISHCOMPDIR)
	$(INSTALL) -m 0755 $(TOOL_BINS) $(DESTDIR)$(SBINDIR)/
	$(INSTALL) -m 0644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man8/
	$(INSTALL) -m 0644 completions/_schedbpf $(DESTDIR)$(ZSHCOMPDIR)/
	for t in $(notdir $(TOOL_BINS)); do \
		$(INSTALL) -m 0644 completions/schedbpf.bash \
			$(DESTDIR)$(BASHCOMPDIR)/$$t && \
		$(INSTALL) -m 0644 completions/schedbpf.fish \
			$(DESTDIR)$(FISHCOMPDIR)/$$t.fish || exit; \
	done

uninstall:
	rm -f $(addprefix $(DESTDIR)$(SBINDIR)/,$(notdir $(TOOL_BINS))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man8/,$(notdir $(MAN_PAGES))) \
		$(addprefix $(DESTDIR)$(BASHCOMPDIR)/,$(notdir $(TOOL_BINS))) \
		$(patsubst %,$(DESTDIR)$(FISHCOMPDIR)/%.fish,$(notdir $(TOOL_BINS))) \
		$(DESTDIR)$(ZSHCOMPDIR)/_schedbpf

format:
	clang-format -i tools/*.c tools/lib/*.[ch] tests/unit/*.c include/schedbpf.h

# build/kernel is the kernel's cache (kernel/build), not ours to remove.
clean:
	rm -rf $(BIN) $(OBJ) $(BPFOBJ) $(SKEL) $(TESTBIN) $(OUTPUT)/man $(OUTPUT)/host

# Generated skeletons must not be deleted as intermediates.
.SECONDARY:
