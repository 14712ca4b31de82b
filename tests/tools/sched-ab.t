#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# sched-ab end to end in the VM, with a real tool: two rounds of a 1 s
# CPU-bound workload in a cgroup under no-preempt --dry-run (A) and
# no-preempt (B), a competitor outside the cgroup on the same CPU. Its
# JSON, the tools' summaries in it, the sides the right way
# round, a tool's failure as a failed round, nothing left attached.
# The statistics and the table are tested on the host
# (tests/unit/sched-ab.t); each run here loads the tool, slow under TCG.
. "$(dirname "$0")/lib.sh"
require_vm

AB=$BIN/sched-ab
CG=schedbpf-ab-$$
new_cgroup "$CG"

# the competitor, outside the cgroup: the tick has preemptions to decide
taskset -c 0 "$HOG" &
comp=$!
trap 'kill $comp 2>/dev/null; cleanup_tools' EXIT

run "$AB" --rounds 2 --seed 3 --json -m 'run_p50_us:higher=p50_us=([0-9]+)' \
	no-preempt -c "$CG" -- taskset -c 0 "$HOG" --runs 1
ok $STATUS "sched-ab --rounds 2 -j -m ... no-preempt -c CG -- hog: exit 0"
[ "$STATUS" -eq 0 ] || diag "stderr: $ERR"
J=$OUT
jq -e . >/dev/null <<<"$J"
ok $? "its JSON parses"
jq -e '[.runs[].side] | sort == ["A","A","B","B"]' <<<"$J" >/dev/null
ok $? "two runs of A, two of B ($(jq -r '[.runs[].side] | join("")' <<<"$J"))"
jq -e '[.runs[] | .summary.type == "summary" and .summary.tool == "no-preempt" and
	.summary.dry_run == .dry_run and (.dry_run == (.side == "A")) and
	.summary.status == 0 and .summary.tick_targets > 0] | all' <<<"$J" >/dev/null
ok $? "each run carries no-preempt's summary: A a dry run, B not, the hog a target"
jq -e '[.runs[] | select(.side == "A") | .summary.tick_suppressed > 0] | all' <<<"$J" >/dev/null
ok $? "A counted what it would have suppressed"
jq -e '[.runs[] | .metrics.wall_s >= 1 and .metrics.wall_s < .round_s and .metrics.run_p50_us > 0] | all' <<<"$J" >/dev/null
ok $? "wall_s at least the hog's 1 s, within the run; the hog's own p50 run length from its output"
diag "$(jq -r '.runs[] | "round \(.round) \(.side): \(.round_s) s in all, wall_s \(.metrics.wall_s), preemptions \(.metrics.preemptions), hog p50 run \(.metrics.run_p50_us) us"' <<<"$J")"
jq -e '(.metrics | map(.name)) as $n | ($n | index("wall_s")) and ($n | index("preemptions")) and ($n | index("run_p50_us"))' <<<"$J" >/dev/null
ok $? "the report has wall_s, preemptions and the workload's run_p50_us"
# no-preempt's effect is large (tests/tools/no-preempt.t): even two runs
# a side show the sides were not swapped
a=$(jq '.metrics[] | select(.name == "preemptions") | .a.median' <<<"$J")
b=$(jq '.metrics[] | select(.name == "preemptions") | .b.median' <<<"$J")
awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > 20 && b * 2 < a) }'
ok $? "the hog's preemptions: A (dry run) $a, B (no-preempt) $b"
jq -e '[.metrics[] | .ci == null and .verdict == "no difference"] | all' <<<"$J" >/dev/null
ok $? "two rounds: no 95% interval, no verdict beyond no difference"
no_programs_left
ok $? "nothing attached afterwards"

# a tool that fails is a failed round: its error quoted, exit 1
run "$AB" -r 1 no-preempt -c "$CG" --max-run 1h -- true
one_line_error 1 sched-ab "round 1 (A): no-preempt failed (exit 2): no-preempt: invalid --max-run '1h'" ||
	one_line_error 1 sched-ab "round 1 (B): no-preempt failed (exit 2): no-preempt: invalid --max-run '1h'"
ok $? "no-preempt refusing its options: round 1 failed, exit 1, one line"
[ "$STATUS" -eq 1 ] || diag "status $STATUS" "$ERR"
# the workload failing under the real tool
run "$AB" -r 1 no-preempt -c "$CG" -- sh -c 'exit 5'
one_line_error 1 sched-ab "the workload exited with status 5"
ok $? "a workload exiting 5: exit 1, one line"
no_programs_left
ok $? "nothing attached after the failed rounds"

kill $comp
done_testing
