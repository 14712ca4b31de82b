# SPDX-License-Identifier: GPL-2.0-only
# Builds what tests/kernel and tests/workload run, into build/tests/:
# the schedtest loader against the patched kernel's in-tree libbpf and
# bpftool (build/kernel, from 'make kernel'), and the workload programs.
# Included by the top-level Makefile; usable alone as
#   make -f tests/kernel/build.mk kernel-tests
KT_OUT := build/tests
KT_KERNEL := build/kernel
KT_CFLAGS := -O2 -g -Wall -Wextra

kernel-tests: $(KT_OUT)/schedtest $(KT_OUT)/safety $(KT_OUT)/hog $(KT_OUT)/waker

$(KT_OUT)/vmlinux.h: $(KT_KERNEL)/vmlinux | $(KT_OUT)
	$(KT_KERNEL)/bpftool btf dump file $< format c > $@.tmp && mv $@.tmp $@

# schedtest (the hooks' positive tests) and safety (the negative ones): a
# loader each, with the skeleton of its BPF object.
$(KT_OUT)/%.bpf.o: tests/kernel/%.bpf.c $(KT_OUT)/vmlinux.h | $(KT_OUT)
	clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -I$(KT_OUT) \
		-I$(KT_KERNEL)/libbpf/include -c $< -o $@

$(KT_OUT)/%.skel.h: $(KT_OUT)/%.bpf.o
	$(KT_KERNEL)/bpftool gen skeleton $< > $@.tmp && mv $@.tmp $@

$(KT_OUT)/schedtest $(KT_OUT)/safety: $(KT_OUT)/%: tests/kernel/%.c $(KT_OUT)/%.skel.h
	$(CC) $(KT_CFLAGS) -I$(KT_OUT) -I$(KT_KERNEL)/libbpf/include $< \
		$(KT_KERNEL)/libbpf/libbpf.a -lelf -lz -o $@

$(KT_OUT)/%: tests/workload/%.c | $(KT_OUT)
	$(CC) $(KT_CFLAGS) $< -o $@

$(KT_OUT):
	mkdir -p $@

.PHONY: kernel-tests
