#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# On a kernel with the scheduler hooks (the schedbpf VM): the skeleton's
# SEC("sched/...") programs load and attach through __attach() with no
# runtime registration, libbpf_probe_bpf_prog_type() reports the type,
# each hook is called under a workload, and none after detach. See
# sched_skel.c, mode "run".
. "$(dirname "$0")/lib.sh"
kernel_has_sched_bpf ||
	skip_all "kernel has no scheduler BPF hooks (run: kernel/vm-run -- prove tests/libbpf)"
need_bin
exec "$bin" run
