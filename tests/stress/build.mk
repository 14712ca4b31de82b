# SPDX-License-Identifier: GPL-2.0-only
# Builds what make stress and the text_poke investigation run besides
# tests/kernel's programs: the cycle and release-fail loaders against the
# patched kernel's in-tree libbpf (like schedtest), the all-suppress sched
# program, and the text_poke controls (plain tp_btf/fentry; the sched hooks
# alone, returning 0, which release-fail uses too). A set per series, as
# tests/kernel's loaders (the series' libbpf knows its own number for the
# program type): build/tests/stress/ for 6.1,
# build/tests/kernel-6.12/stress/ with KERNEL=6.12; tests/stress/run takes
# the running kernel's. Included by the top-level Makefile.
ST_OUT := $(KT_LOAD)/stress

stress-tests: kernel-tests $(ST_OUT)/cycle $(ST_OUT)/allsuppress.bpf.o $(ST_OUT)/noop.bpf.o \
	$(ST_OUT)/plain.bpf.o $(ST_OUT)/release-fail

$(ST_OUT)/%.bpf.o: tests/stress/%.bpf.c $(KT_LOAD)/vmlinux.h | $(ST_OUT)
	clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -I$(KT_LOAD) \
		-I$(KT_KERNEL)/libbpf/include -c $< -o $@

$(ST_OUT)/cycle $(ST_OUT)/release-fail: $(ST_OUT)/%: tests/stress/%.c \
		$(KT_KERNEL)/libbpf/libbpf.a | $(ST_OUT)
	$(CC) $(KT_CFLAGS) -I$(KT_KERNEL)/libbpf/include $< \
		$(KT_KERNEL)/libbpf/libbpf.a -lelf -lz -o $@

$(ST_OUT):
	mkdir -p $@

.PHONY: stress-tests
