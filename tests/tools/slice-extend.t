#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# slice-extend in the VM: a CPU-bound target and a CPU-bound competitor on
# CPU 1; the target measures its own run lengths between switches (hog
# --runs), under --dry-run and under --slice 20ms, in the same boot. Then
# the command wrapping, signals and bad input.
. "$(dirname "$0")/lib.sh"
require_vm

SE=$BIN/slice-extend
CG=schedbpf-se-$$
new_cgroup "$CG"

taskset -c 1 "$HOG" &
comp=$!
effect() {
	start_tool "$TAP_TMP/$1.json" "$SE" -j --slice 20ms -c "$CG" "${@:2}"
	R=$(in_cgroup "$CG" "$HOG" --runs 3)
	stop_tool
}
effect dry --dry-run
dry_status=$TOOL_STATUS dry_r=$R
effect pol
kill $comp
wait $comp 2>/dev/null
ok $dry_status "--dry-run: exit 0 after SIGINT"
ok $TOOL_STATUS "policy: exit 0 after SIGINT"
diag "the target's runs between switches:" "  --dry-run           $dry_r" \
	"  slice-extend 20ms   $R"
dry50=$(kv "$dry_r" p50_us) pol50=$(kv "$R" p50_us)
[ "$(kv "$R" runs)" -ge 20 ] && [ "$pol50" -ge 15000 ]
ok $? "--slice 20ms: median run at least 15 ms ($pol50 us)"
# CFS's slice for two tasks is 6 ms here; TCG stretches it now and then
# (7.6 ms, once over 10 ms), so the bar is the one the policy must clear.
[ "$dry50" -lt 15000 ]
ok $? "--dry-run: CFS's own median run stays under 15 ms ($dry50 us)"
summary "$TAP_TMP/dry.json" '.dry_run and .tick_suppressed > 100' | grep -qx true
ok $? "--dry-run counts the ticks it would suppress"
summary "$TAP_TMP/pol.json" '(.dry_run | not) and .tick_suppressed > 100 and .bounded > 0' |
	grep -qx true
ok $? "policy: ticks suppressed, then CFS decides after the slice (bounded > 0)"

common_lifecycle slice-extend "$CG"
before=$(ls "$CGROOT")
common_bad_input slice-extend "$CG"
for s in 0ms 999us 1.5s 2s 1h; do
	bad slice-extend 2 "invalid --slice '$s': out of range (1ms to 1s)" \
		"$SE" -c "$CG" --slice "$s"
done
bad slice-extend 2 "invalid --slice '20': missing unit" "$SE" -c "$CG" -s 20
bad slice-extend 2 "invalid --slice 'abc': not a number" "$SE" -c "$CG" -s abc
[ "$(sched_progs)" = 0 ] && [ "$(observer_progs)" = 0 ]
ok $? "no program attached after any bad input"
[ "$(ls "$CGROOT")" = "$before" ]
ok $? "no cgroup created"

done_testing
