#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The other worst program: one that forces every preemption of every task
# (all three hooks return 1). 10-bound.t holds every task back; this one
# lets every woken task in at once and makes it the next buddy, ends every
# slice at the tick, and makes every pick choose the other entity. Where it
# could hurt is a pair that keeps waking each other: on one CPU, each
# wakeup of the pair preempts and hands it the CPU, and a CPU-bound task
# beside it might never run again. The kernel's bound stops that: a forced
# next buddy is not honoured once it is kernel.sched_bpf_max_suppress_ms
# ahead in vruntime. On the hogged CPU, with nothing attached and then
# under the program, 3 s each: the pair (pingpong), a 1 kHz waker and the
# hog. All make progress, nothing waits longer than the bound, and the
# kernel log stays clean.
. "$(dirname "$0")/lib.sh"
require_sched_kernel
plan 9

out=$(mktemp)
taskset -cp 0 $$ >/dev/null
log_mark

spawn hog "$T/hog"
sleep 0.5

# round NAME: 3 s of the pair and the waker beside the hog, their reports
# in $TAP_TMP/NAME.pp and NAME.wk, the hog's CPU time in per mille in
# $share, and how long `taskset -c $CPU true` took, in ms, in $took.
round() {
	local c0 t0 t1 pp wk
	c0=$(cpuns "$hog") t0=$(date +%s%N)
	timeout -k 5 30 taskset -c "$CPU" "$T/pingpong" --seconds 3 >"$TAP_TMP/$1.pp" 2>&1 &
	pp=$!
	timeout -k 5 30 taskset -c "$CPU" "$T/waker" --period-us 1000 --run-us 100 \
		--seconds 3 >"$TAP_TMP/$1.wk" 2>&1 &
	wk=$!
	sleep 1
	t1=$(date +%s%N)
	timeout 30 taskset -c "$CPU" true
	took=$((($(date +%s%N) - t1) / 1000000))
	wait "$pp" "$wk"
	share=$((($(cpuns "$hog") - c0) * 1000 / ($(date +%s%N) - t0)))
	diag "$1: pair $(cat "$TAP_TMP/$1.pp"); waker $(cat "$TAP_TMP/$1.wk");" \
		"hog $share per mille; taskset -c $CPU true $took ms"
}
report() { sed -n "s/.*$2=\([0-9]*\).*/\1/p" "$TAP_TMP/$1"; }

round none
share_none=$share rounds_none=$(report none.pp rounds)
attach "$out" --all --tick 1 --wakeup 1 --entity 1 || bail "schedtest did not attach"
round forced
detach

diag "calls about every task: wakeup $(val "$out" hits_wakeup), tick $(val "$out" hits_tick)," \
	"entity $(val "$out" hits_entity)"
# EEVDF asks the entity hook only about a running task that is still
# eligible and has lost its slice protection: 99 times in the 3 s on
# 6.12 (172 when the tick hook is asked, and so forces, at every runtime
# update), against 1769 on 6.1.
# (one command for ok: a `&& [ ]` after it would run outside the point)
ran_everywhere() {
	[ "$(val "$out" hits_wakeup)" -gt 1000 ] && [ "$(val "$out" hits_tick)" -gt 100 ] &&
		[ "$(val "$out" hits_entity)" -gt 20 ]
}
ok "the programs forced the wakeups, ticks and picks of every task" ran_everywhere
rounds=$(report forced.pp rounds)
ok "the pair kept handing the CPU back and forth ($rounds round trips; $rounds_none with nothing attached)" \
	[ "${rounds:-0}" -gt 100 ]
ok "... no round trip longer than the 250 ms bound (+150 ms, emulated)" \
	[ "$(report forced.pp max_us)" -lt 400000 ]
# With nothing attached the hog gets about half the CPU. The pair
# together is about one task runnable at a time; a quarter of that share
# is far from the starvation a pair that never lets go would cause.
ok "the hog beside it still runs: $share per mille (a quarter of $share_none or more)" \
	[ $((4 * share)) -ge "$share_none" ]
wakeups=$(report forced.wk wakeups)
ok "the waker got the CPU again and again ($wakeups wakeups)" [ "${wakeups:-0}" -gt 100 ]
ok "... never waiting more than the bound (+150 ms)" [ "$(report forced.wk max_us)" -lt 400000 ]
ok "a short task pinned there completes within 3 s" [ "$took" -lt 3000 ]
ok "the kernel log stays clean" log_clean
ok "nothing is left loaded" no_sched_prog
rm -f "$out"
tap_status
