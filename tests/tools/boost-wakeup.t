#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# boost-wakeup in the VM: a target waking every ~1 ms to run 200 us of CPU
# shares CPU 1 with a CPU-bound non-target; its wakeup-to-run latency
# against --dry-run in the same boot. Then the --max-lead guard, the
# command wrapping, signals and bad input.
. "$(dirname "$0")/lib.sh"
require_vm

BW=$BIN/boost-wakeup
WAKER=$ROOT/build/tests/waker
CG=schedbpf-bw-$$
new_cgroup "$CG"

# --- the effect -----------------------------------------------------------
# CFS lets a waking task preempt only when it is more than the wakeup
# granularity behind in vruntime. Here CFS is tuned for throughput
# (tune_throughput), so the waker waits for the hog's tick; boost-wakeup's
# job is to cut that wait for the targets alone.
tune_throughput
taskset -c 1 "$HOG" &
hog=$!
# The waker is the wrapped command, so it is a task of the same cfs_rq as
# the hog (no group entity between them) and the tool's status is its own.
effect() {
	run "$BW" -j "${@:2}" -- taskset -c 1 "$WAKER" --seconds 3 --run-us 200
	printf '%s\n' "$OUT" | grep '^{' >"$TAP_TMP/$1.json"
	W=$(printf '%s\n' "$OUT" | grep '^wakeups=')
	TOOL_STATUS=$STATUS
}
effect dry --dry-run
dry_status=$TOOL_STATUS dry_w=$W
effect pol
tune_restore
ok $dry_status "--dry-run -- waker: exit 0, the waker's"
ok $TOOL_STATUS "policy -- waker: exit 0, the waker's"
dry99=$(summary "$TAP_TMP/dry.json" .latency_us.p99)
pol99=$(summary "$TAP_TMP/pol.json" .latency_us.p99)
diag "wakeup-to-run p50/p90/p99 us (tool, log2 bucket bounds):" \
	"  --dry-run    $(summary "$TAP_TMP/dry.json" '.latency_us | "\(.p50)/\(.p90)/\(.p99)"')" \
	"  boost-wakeup $(summary "$TAP_TMP/pol.json" '.latency_us | "\(.p50)/\(.p90)/\(.p99)"')" \
	"timer-to-running as the waker measured it itself:" \
	"  --dry-run    $dry_w" "  boost-wakeup $W"
[ "$dry99" -gt 0 ] && [ $((pol99 * 5)) -le "$dry99" ]
ok $? "p99 wakeup-to-run latency at least 5x lower ($dry99 -> $pol99 us)"
[ "$(kv "$W" p50_us)" -lt "$(kv "$dry_w" p50_us)" ]
ok $? "the waker's own median latency is lower too ($(kv "$dry_w" p50_us) -> $(kv "$W" p50_us) us)"
summary "$TAP_TMP/dry.json" '.dry_run and .wakeup_forced > 100' | grep -qx true
ok $? "--dry-run counts the boosts it would give"
summary "$TAP_TMP/pol.json" '(.dry_run | not) and .wakeup_forced > 100 and .wakeups > 100' |
	grep -qx true
ok $? "policy counters: boosts given, wakeups measured"

# --- the guard ------------------------------------------------------------
# A target that sleeps 10 us after each 1 ms of CPU would, boosted at
# every wakeup, leave the hog the gaps only. The lead guard hands the
# decision back to CFS (bounded > 0) and the hog keeps its share.
greedy() {
	start_tool "$TAP_TMP/g.json" "$BW" -j -c "$CG" "$@"
	in_cgroup "$CG" "$WAKER" --seconds 4 --period-us 10 \
		--run-us 1000 >/dev/null &
	w=$!
	sleep 1
	c0=$(cputicks $hog) t0=$(date +%s%N)
	sleep 2
	c1=$(cputicks $hog) t1=$(date +%s%N)
	wait $w
	stop_tool
	HOG_PCT=$(((c1 - c0) * 1000000000 / $(getconf CLK_TCK) * 100 / (t1 - t0)))
}
greedy --max-lead 100us
diag "greedy target, --max-lead 100us: the hog's CPU share $HOG_PCT%," \
	"$(summary "$TAP_TMP/g.json" '"forced \(.wakeup_forced), bounded \(.bounded)"')"
summary "$TAP_TMP/g.json" '.bounded > 0' | grep -qx true
ok $? "--max-lead bounds a target that wakes constantly (bounded > 0)"
[ "$HOG_PCT" -ge 33 ]
ok $? "the non-target keeps at least a third of the CPU ($HOG_PCT%)"
kill $hog
wait $hog 2>/dev/null

# --- wrapping, signals, bad input -------------------------------------------
common_lifecycle boost-wakeup "$CG"
before=$(ls "$CGROOT")
common_bad_input boost-wakeup "$CG"
bad boost-wakeup 2 "invalid --max-lead '50us': out of range (100us to 1s)" \
	"$BW" -c "$CG" --max-lead 50us
bad boost-wakeup 2 "invalid --max-lead '2s': out of range (100us to 1s)" \
	"$BW" -c "$CG" -l 2s
bad boost-wakeup 2 "invalid --max-lead '10': missing unit" "$BW" -c "$CG" -l 10
[ "$(sched_progs)" = 0 ] && [ "$(observer_progs)" = 0 ]
ok $? "no program attached after any bad input"
[ "$(ls "$CGROOT")" = "$before" ]
ok $? "no cgroup created"

done_testing
