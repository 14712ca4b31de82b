#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Each hook: a minimal program loads, attaches, is called under a workload
# (its run count grows, with BPF stats enabled), and is no longer called
# once its link is closed.
. "$(dirname "$0")/lib.sh"
require_sched_kernel
plan 12

out=$(mktemp)
# A CPU hog and a task waking every millisecond on one CPU: the tick finds
# two runnable tasks, and every wakeup has a running task to preempt.
spawn hog "$T/hog"
spawn waker "$T/waker" --seconds 600

for hook in tick wakeup entity; do
	if ! attach "$out" --"$hook" 0 --after-detach 2; then
		for i in 1 2 3 4; do ok "$hook: attached" false; done
		continue
	fi
	sleep 2
	detach
	runs=$(val "$out" "$hook.run_cnt")
	after=$(val "$out" "$hook.run_cnt_after")
	calls=$(val "$out" "calls_$hook")
	calls_after=$(val "$out" "calls_${hook}_after")
	diag "$hook: run_cnt=$runs calls=$calls; 2 s after detach: run_cnt=$after calls=$calls_after"
	ok "$hook: the program ran under the workload" [ "${runs:-0}" -gt 0 ]
	ok "$hook: its own count of calls agrees" [ "${calls:-0}" -gt 0 ]
	ok "$hook: not run after its link was closed" [ "${after:-x}" = "$runs" ]
	ok "$hook: not called after its link was closed" [ "${calls_after:-x}" = "$calls" ]
done
rm -f "$out"
tap_status
