#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Forced means forced, with 8 CPU-bound tasks on the CPU (from 8 runnable
# tasks on, CFS nominates the preempted task as the "last" buddy, which it
# prefers to run again):
# - a wakeup that a program forces to preempt sets the woken task as the
#   next buddy, and it runs next even when it is ahead of the others in
#   vruntime (a waker busy 15% of the time, more than its 11%
#   here): before, the preempted task often ran again;
# - a tick that a program forces ends the running task's slice at once:
#   it is switched out at the first tick instead of after its 1.5 ms slice.
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

# wakeups RET: "preempting next_is_wakee next_is_other" over 3 s
wakeups() {
	attach "$out" --wakeup "$1" --wakee "$waker" --observe-wakeups ||
		{ echo "0 0 0"; return; }
	sleep 3
	detach
	echo "$(val "$out" wakeups_preempting) $(val "$out" next_is_wakee) $(val "$out" next_is_other)"
}

read -r p0 w0 o0 < <(wakeups 0)
read -r pf wf of < <(wakeups 1)
diag "wakeups that preempted / then the waker ran next / another ran next:" \
	"return 0: $p0 / $w0 / $o0; forced: $pf / $wf / $of"
ok "forced: the waker's wakeups preempted" [ "$pf" -gt 100 ]
# (Before, another task ran next after 2.7% of them: 32 of 1168.)
ok "forced: the waker ran next after all but at most 1% of them" \
	[ $((100 * of)) -le "$pf" ] && [ "$wf" -gt 100 ]

# ticks RET: the first hog's involuntary switches over 3 s, and its ticks.
# It is stopped while the program attaches and detaches, so that both
# counts cover the same time.
ticks() {
	local n0 n1 h=${hogs[0]}
	kill -STOP "$h"
	attach "$out" --tick "$1" --target "$h" || { echo "0 0"; return; }
	n0=$(nvcsw "$h")
	kill -CONT "$h"
	sleep 3
	kill -STOP "$h"
	n1=$(nvcsw "$h")
	detach
	kill -CONT "$h"
	echo "$((n1 - n0)) $(val "$out" hits_tick)"
}

kill "$waker"
read -r s0 t0 < <(ticks 0)
read -r sf tf < <(ticks 1)
diag "hog 1: involuntary switches / ticks while it ran: return 0: $s0 / $t0, forced: $sf / $tf"
ok "forced ticks: the hog is switched out more often than CFS does it" \
	[ "$sf" -gt $((3 * s0 / 2)) ]
# (Before, at 87% of them: 247 of 283; CFS picked it again when it was
# still the leftmost.)
ok "forced ticks: switched out at 95% or more of them" \
	[ $((100 * sf)) -ge $((95 * tf)) ] && [ "$tf" -gt 0 ]
ok "the kernel log stays clean" log_clean
ok "nothing is left loaded" no_sched_prog
rm -f "$out"
tap_status
