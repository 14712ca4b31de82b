#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# cfs_check_preempt_tick: two CPU-bound tasks share one CPU. A program that
# returns >0 on the tick for them (forced preemption) multiplies the
# involuntary context switches of each, one that returns <0 for task A
# (suppressed preemption) makes them nearly vanish, against a program that
# returns 0 (CFS decides).
. "$(dirname "$0")/lib.sh"
require_sched_kernel
plan 3

out=$(mktemp)
spawn a "$T/hog"
spawn b "$T/hog"
sleep 0.5

# preemptions RET TARGETS...: A's involuntary switches over 3 s.
preemptions() {
	local ret=$1 args=() t n0 n1
	shift
	for t in "$@"; do args+=(--target "$t"); done
	attach "$out" --tick "$ret" "${args[@]}" || { echo -1; return; }
	n0=$(nvcsw "$a")
	sleep 3
	n1=$(nvcsw "$a")
	detach
	echo $((n1 - n0))
}

# CFS's own slices 10 ms long: under TCG, ticks are sometimes lost (the
# forced case counted 727 instead of about 1500 in one run), and with CFS's
# default 3-6 ms slices the 0 case then came within 3x of it.
tune_throughput
base=$(preemptions 0 "$a" "$b")
forced=$(preemptions 1 "$a" "$b")
suppressed=$(preemptions -1 "$a")
tune_restore
diag "involuntary switches of A in 3 s: return 0: $base, >0: $forced, <0: $suppressed"
ok "CFS preempts A when the program returns 0" [ "$base" -gt 10 ]
ok ">0 raises A's preemptions at least 3x" [ "$forced" -ge $((3 * base)) ]
ok "<0 cuts A's preemptions at least 3x" [ "$suppressed" -ge 0 -a $((3 * suppressed)) -le "$base" ]
rm -f "$out"
tap_status
