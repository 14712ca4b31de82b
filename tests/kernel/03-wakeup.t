#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# cfs_check_preempt_wakeup and cfs_wakeup_preempt_entity: a task waking
# every millisecond shares a CPU with a CPU-bound one. An fentry/fexit pair
# on check_preempt_wakeup() counts, independently of the hooks, the wakeups
# of the waker on the hog's CPU and how many of them made CFS call
# resched_curr(), i.e. preempted the hog. <0 must stop every such preemption, >0 must make every
# wakeup preempt.
. "$(dirname "$0")/lib.sh"
require_sched_kernel
plan 8

out=$(mktemp)
spawn hog "$T/hog"
spawn waker "$T/waker" --seconds 600
sleep 0.5

# run HOOK RET: prints "wakeups preempting" over 3 s.
run() {
	attach "$out" --"$1" "$2" --wakee "$waker" --curr "$hog" --observe-wakeups ||
		{ echo "0 0"; return; }
	sleep 3
	detach
	echo "$(val "$out" wakeups_seen) $(val "$out" wakeups_preempting)"
}

for hook in wakeup entity; do
	read -r seen0 pre0 < <(run "$hook" 0)
	read -r seen_s pre_s < <(run "$hook" -1)
	read -r seen_f pre_f < <(run "$hook" 1)
	diag "$hook: wakeups/preempting: return 0: $seen0/$pre0, <0: $seen_s/$pre_s, >0: $seen_f/$pre_f"
	ok "$hook <0: the waker woke on the hog's CPU" [ "$seen_s" -gt 100 ]
	ok "$hook <0: no wakeup preempted the hog" [ "$pre_s" -eq 0 ]
	ok "$hook >0: the waker woke on the hog's CPU" [ "$seen_f" -gt 100 ]
	ok "$hook >0: every wakeup preempted the hog" [ "$pre_f" -eq "$seen_f" ]
done
rm -f "$out"
tap_status
