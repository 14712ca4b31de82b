#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The series' bpftool and libbpf: an attached program shows as type sched,
# its link as attach type sched, the type is probed as available, and
# nothing is left once the program is gone.
. "$(dirname "$0")/lib.sh"
require_sched_kernel
plan 7

out=$(mktemp)
spawn hog "$T/hog"
spawn hog2 "$T/hog"
attach "$out" --tick 0 --after-detach 0
ok "bpftool prog show lists the program with type sched" \
	bash -c "'$BPFTOOL' prog show | grep -qE '^[0-9]+: sched +name tick '"
ok "bpftool link show lists its link with prog_type and attach_type sched" \
	bash -c "'$BPFTOOL' link show | grep -A1 'prog_type sched' | grep -q 'attach_type sched'"
ok "bpftool -j prog show gives type sched" \
	bash -c "'$BPFTOOL' -j prog show | jq -e 'map(select(.type == \"sched\" and .name == \"tick\")) | length == 1' >/dev/null"
detach
ok "after detach, bpftool lists no sched program" no_sched_prog
"$LOAD/schedtest" --probe >"$out" 2>&1
ok "libbpf_probe_bpf_prog_type() reports the type supported" grep -qx "probe=1" "$out"
ok "bpftool feature probe lists the sched program type" \
	bash -c "'$BPFTOOL' feature probe kernel 2>/dev/null | grep -q 'eBPF program_type sched is available'"
ok "bpftool prog help lists sched among the types" \
	bash -c "'$BPFTOOL' prog help 2>&1 | grep -q 'sched }'"
rm -f "$out"
tap_status
