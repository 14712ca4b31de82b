#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Several programs on one hook: they run from the most recently attached
# to the first, and the first that returns non-zero decides; the ones
# after it do not run for that call (the hook's loop stops at the first
# non-zero result).
# Two schedtest instances on the tick hook, for a CPU-bound task A sharing
# a CPU with B; A is stopped until both are attached, so each program's
# count of ticks on A covers only the time they were attached together.
. "$(dirname "$0")/lib.sh"
require_sched_kernel
plan 10

old_out=$(mktemp) new_out=$(mktemp)
spawn a "$T/hog"
spawn b "$T/hog"
sleep 0.5
log_mark

# stop PID: SIGSTOP, and wait until PID has stopped. The signal only takes
# effect when PID next leaves the kernel; until then a tick on PID, seen by
# a program attached or still attached, would count in no pair's window.
stop() {
	kill -STOP "$1"
	for _ in $(seq 200); do
		[ "$(awk '{ print $3 }' "/proc/$1/stat")" = T ] && return
		sleep 0.01
	done
	bail "$1 did not stop"
}

# pair OLD NEW: attach "--tick OLD" then "--tick NEW", both for A; prints
# A's involuntary switches over 3 s, then the ticks on A each program saw.
pair() {
	local n0 n1 old_pid
	stop "$a"
	attach "$old_out" --tick "$1" --target "$a" || return
	old_pid=$st_pid
	attach "$new_out" --tick "$2" --target "$a" || return
	kill -CONT "$a"
	n0=$(nvcsw "$a")
	sleep 3
	n1=$(nvcsw "$a")
	stop "$a"
	detach			# the newer one first...
	st_pid=$old_pid
	detach
	kill -CONT "$a"
	echo "$((n1 - n0)) $(val "$old_out" hits_tick) $(val "$new_out" hits_tick)"
}

n0=$(nvcsw "$a"); sleep 3; base=$(($(nvcsw "$a") - n0))

read -r sA oldA newA < <(pair 0 -1)
read -r sB oldB newB < <(pair -1 0)
read -r sC oldC newC < <(pair 1 -1)
diag "A's involuntary switches in 3 s: no program $base;" \
	"old 0, new -1: $sA (ticks seen: old $oldA, new $newA);" \
	"old -1, new 0: $sB (old $oldB, new $newB);" \
	"old 1, new -1: $sC (old $oldC, new $newC)"

ok "CFS preempts A with no program" [ "$base" -gt 30 ]
ok "new -1 over old 0: A is not preempted" [ $((3 * sA)) -le "$base" ]
ok "... the newer program ran" [ "${newA:-0}" -gt 100 ]
ok "... the older one did not: the first non-zero answer ended the call" [ "${oldA:-1}" -eq 0 ]
ok "new 0 over old -1: A is not preempted" [ $((3 * sB)) -le "$base" ]
[ "${oldB:-0}" -gt 100 ] && [ "${newB:-0}" -gt 100 ]
tap_point $? "... both ran: a 0 lets the next program decide"
ok "new -1 over old 1: the newer program wins, A is not preempted" \
	[ $((3 * sC)) -le "$base" ]
ok "... and the older one did not run" [ "${oldC:-1}" -eq 0 ]
ok "the kernel log stays clean" log_clean
ok "nothing is left loaded" no_sched_prog
rm -f "$old_out" "$new_out"
tap_status
