# SPDX-License-Identifier: GPL-2.0-only
# Builds what tests/kernel and tests/workload run, into build/tests/:
# the workload programs, and the loaders schedtest and safety with their
# skeletons. The loaders test each series' own libbpf and bpftool, so
# there is a set per series: against build/kernel (make kernel)
# in build/tests/, against build/kernel-6.12 (KERNEL=6.12) in
# build/tests/kernel-6.12/. tests/kernel/lib.sh picks the running
# kernel's. Included by the top-level Makefile; usable alone as
#   make -f tests/kernel/build.mk kernel-tests [KERNEL=6.12]
KERNEL ?= 6.1
KT_OUT := build/tests
KT_KERNEL := build/kernel$(if $(filter-out 6.1,$(KERNEL)),-$(KERNEL))
KT_LOAD := $(KT_OUT)$(if $(filter-out 6.1,$(KERNEL)),/kernel-$(KERNEL))
KT_CFLAGS := -O2 -g -Wall -Wextra
# the BPF programs of a series beyond 6.1 may use what it added
KT_BPF_DEFS := $(if $(filter-out 6.1,$(KERNEL)),-DSERIES_$(subst .,_,$(KERNEL)))

kernel-tests: $(KT_LOAD)/schedtest $(KT_LOAD)/safety $(KT_LOAD)/testrun $(KT_OUT)/hog $(KT_OUT)/waker \
	$(KT_OUT)/slice $(KT_OUT)/pingpong

$(KT_LOAD)/vmlinux.h: $(KT_KERNEL)/vmlinux | $(KT_LOAD)
	$(KT_KERNEL)/bpftool btf dump file $< format c > $@.tmp && mv $@.tmp $@

# schedtest (the hooks' positive tests), safety (the negative ones) and
# testrun (BPF_PROG_TEST_RUN): a loader each, with the skeleton of its BPF
# object.
$(KT_LOAD)/%.bpf.o: tests/kernel/%.bpf.c $(KT_LOAD)/vmlinux.h | $(KT_LOAD)
	clang -g -O2 -target bpf -D__TARGET_ARCH_x86 $(KT_BPF_DEFS) -I$(KT_LOAD) \
		-I$(KT_KERNEL)/libbpf/include -c $< -o $@

$(KT_LOAD)/%.skel.h: $(KT_LOAD)/%.bpf.o
	$(KT_KERNEL)/bpftool gen skeleton $< > $@.tmp && mv $@.tmp $@

$(KT_LOAD)/schedtest $(KT_LOAD)/safety $(KT_LOAD)/testrun: $(KT_LOAD)/%: tests/kernel/%.c $(KT_LOAD)/%.skel.h
	$(CC) $(KT_CFLAGS) -I$(KT_LOAD) -I$(KT_KERNEL)/libbpf/include \
		$(filter %.c,$^) $(KT_KERNEL)/libbpf/libbpf.a -lelf -lz -o $@

$(KT_OUT)/%: tests/workload/%.c tests/workload/workload.h | $(KT_OUT)
	$(CC) $(KT_CFLAGS) $< -o $@

$(sort $(KT_OUT) $(KT_LOAD)):
	mkdir -p $@

.PHONY: kernel-tests
