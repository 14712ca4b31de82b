#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The patched libbpf on any kernel: type names and numbers, SEC("sched/")
# parsing with no registered handler, a clean refusal where the kernel
# has no hooks, and the checks against the kernel's BTF (fake vmlinux BTF
# in a private mount namespace). See sched_skel.c, mode "host".
. "$(dirname "$0")/lib.sh"
need_bin
"$bin" host
