#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Forced means forced, with 8 CPU-bound tasks on the CPU (from 8 runnable
# tasks on, CFS nominates the preempted task as the "last" buddy, which it
# prefers to run again):
# - a wakeup that a program forces to preempt sets the woken task as the
#   next buddy, and it runs next even when it is ahead of the others in
#   vruntime (a waker busy 15% of the time, more than its 11%
#   here): before, the preempted task often ran again;
# - a tick that a program forces ends the running task's slice and hands
#   the CPU to another task, even when the running task is still the
#   leftmost (it yields): before, CFS often picked it again.
. "$(dirname "$0")/lib.sh"
require_sched_kernel
plan 6

out=$(mktemp)
hogs=()
for i in 1 2 3 4 5 6 7 8; do
	spawn h "$T/hog"
	hogs+=("$h")
done
spawn waker "$T/waker" --period-us 1000 --run-us 150 --seconds 600
sleep 1
log_mark

# wakeups RET: "preempting next_is_wakee next_is_other bounded" over 3 s,
# bounded: the picks where the waker, forced, was past the kernel's bound
wakeups() {
	local b0

	b0=$(bounded cfs_check_preempt_wakeup)
	attach "$out" --wakeup "$1" --wakee "$waker" --observe-wakeups ||
		{ echo "0 0 0 0"; return; }
	sleep 3
	detach
	echo "$(val "$out" wakeups_preempting) $(val "$out" next_is_wakee)" \
		"$(val "$out" next_is_other) $(($(bounded cfs_check_preempt_wakeup) - b0))"
}

read -r p0 w0 o0 _ < <(wakeups 0)
read -r pf wf of bf < <(wakeups 1)
diag "wakeups that preempted / then the waker ran next / another ran next:" \
	"return 0: $p0 / $w0 / $o0; forced: $pf / $wf / $of, the bound handed back $bf"
ok "forced: the waker's wakeups preempted" [ "$pf" -gt 100 ]
# (Before, another task ran next after 2.7% of them: 32 of 1168.) The
# waker, busy 15% where its share is 11%, runs ahead of the others in
# vruntime, and past sched_bpf_max_suppress_ms the kernel stops honouring
# its forced buddy: those picks are the bound's, not a failure to hand over.
ok "forced: the waker ran next after all but at most 1% of them, besides the bound's" \
	[ $((100 * (of - bf))) -le "$pf" -a "$wf" -gt 100 ]

# A forced tick on the first hog for 1 s: how many, and after how many of
# them the next pick chose it again (it was still running at the next
# forced tick, no longer the skip buddy).
# (Not much longer: as its slices end at once it falls behind the others
# in vruntime, and once they are the kernel's bound (250 ms) ahead, CFS
# picks it again, as it should.)
kill "$waker"
b0=$(bounded cfs_check_preempt_tick)
attach "$out" --tick 1 --target "${hogs[0]}" || bail "schedtest did not attach"
sleep 1
detach
b1=$(bounded cfs_check_preempt_tick)
ft=$(val "$out" forced_ticks) kept=$(val "$out" forced_kept)
diag "hog 1: forced ticks $ft, after which it ran on: $kept; bounded: $((b1 - b0))" \
	"(before: after about 10% of them, CFS picked it again as the leftmost)"
ok "forced ticks: the hog's slice was ended many times" [ "${ft:-0}" -gt 30 ]
ok "... and it handed the CPU over every time but at most 3%, besides the bound's" \
	[ $((100 * (${kept:-999999} - (b1 - b0)))) -le $((3 * ${ft:-0})) ]
ok "the kernel log stays clean" log_clean
ok "nothing is left loaded" no_sched_prog
rm -f "$out"
tap_status
