#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# cgroup-isolate in the VM, on the kernel's default CFS knobs, each part
# against --dry-run in the same boot, in ROUNDS alternating pairs (lib.sh):
# - an insider CPU hog and an outsider waking every 1 ms to run 100 us,
#   both on CPU 1: the insider's involuntary switches (/proc), the
#   outsider's CPU share and runs, and the tool's counters;
# - an outside CPU hog instead keeps its share by weight;
# - two insider hogs: the tick between them is left to CFS;
# - --preempt-outsiders: an insider waking every 1 ms next to a CPU-bound
#   outsider, on default knobs and again under the throughput profile.
# Then the command wrapping, signals and bad input.
. "$(dirname "$0")/lib.sh"
require_vm

CI=$BIN/cgroup-isolate
WAKER=$ROOT/build/tests/waker
CG=schedbpf-ci-$$
new_cgroup "$CG"
diag "CFS knobs: $(knobs)"

# --- outsiders do not preempt insiders ------------------------------------
# On default knobs a waking outsider has a 6 ms sleeper credit: if its
# wakeup may not preempt, the tick lets it in once the insider has run
# min_granularity. The tool holds both off for --min-run. In this VM CFS
# lets the waker preempt 300 to 500 times a second (the emulator makes
# each 1.1 ms cycle take 2 to 3 ms), and per-CPU kthreads (ksoftirqd),
# which the kernel never lets a program hold off, 5 to 10 times a second,
# each letting the waiting outsider in too: 90% fewer needs --min-run
# 100ms here (10 a second), its default; with 20 ms it was 76%, with
# 50 ms 89%.
# The kernel's overrides of wakeup suppressions (kernel/README.md): a
# per-CPU kthread waking on the insider's CPU preempts it whatever the
# policy says.
kernel_overrides() {
	awk '$1 ~ /wakeup/ { s += $2 } END { print s + 0 }' \
		/sys/kernel/debug/sched/bpf_bounded
}
SECS=3
declare -A N OUT RUNS ST
in_cgroup "$CG" "$HOG" &
ins=$!
taskset -c 1 "$WAKER" --seconds 3600 --period-us 1000 --run-us 100 >/dev/null &
out=$!
sleep 1
b0=$(kernel_overrides)
# shield SIDE ROUND: the tool attached (under --dry-run for dry) for SECS.
shield() {
	local n0 n1 o0 o1 r0 r1 t0 t1 dry=

	[ "$1" = dry ] && dry=--dry-run
	start_tool "$TAP_TMP/s$1$2.json" "$CI" -j -c "$CG" $dry
	n0=$(nivcsw $ins) o0=$(cpuns $out) r0=$(nvcsw $out) t0=$(date +%s%N)
	sleep $SECS
	n1=$(nivcsw $ins) o1=$(cpuns $out) r1=$(nvcsw $out) t1=$(date +%s%N)
	stop_tool
	ST[$1]+="$TOOL_STATUS"
	N[$1]+=" $((n1 - n0))"
	OUT[$1]+=" $(((o1 - o0) * 1000 / (t1 - t0)))"
	RUNS[$1]+=" $(((r1 - r0) * 1000000000 / (t1 - t0)))"
}
ab_rounds shield
B=$(($(kernel_overrides) - b0))
kill $out
wait $out 2>/dev/null
ok $((${ST[dry]//0/} + 0)) "--dry-run: exit 0 after SIGINT, every round (${ST[dry]})"
ok $((${ST[pol]//0/} + 0)) "policy: exit 0 after SIGINT, every round (${ST[pol]})"
# sum KEY SIDE: a counter of the summaries of SIDE's rounds, added up.
sum() {
	local t=0 i

	for i in $(seq "$ROUNDS"); do
		t=$((t + $(summary "$TAP_TMP/s$2$i.json" ".$1")))
	done
	echo $t
}
cnt() { echo "preemptions $(sum preemptions $1) ($(sum preemptions_wakeup $1) by a wakeup, $(sum preemptions_rt $1) by RT)," \
	"suppressed: tick $(sum tick_suppressed $1), wakeup $(sum wakeup_suppressed $1), entity $(sum entity_suppressed $1); bounded $(sum bounded $1)"; }
permille() { awk -v v="$1" 'BEGIN { printf "%.1f%%", v / 10 }'; }
nd=$(median ${N[dry]}) np=$(median ${N[pol]})
od=$(median ${OUT[dry]}) op=$(median ${OUT[pol]})
rd=$(median ${RUNS[dry]}) rp=$(median ${RUNS[pol]})
diag "insider CPU hog, outsider waking every 1 ms for 100 us, default --min-run (100ms); $ROUNDS rounds of $SECS s, median (min..max):" \
	"insider's nonvoluntary_ctxt_switches: --dry-run $nd ($(spread ${N[dry]})), cgroup-isolate $np ($(spread ${N[pol]}))" \
	"outsider's CPU share (it wants 100 us in 1.1 ms, 9.1%): --dry-run $(permille $od), cgroup-isolate $(permille $op)" \
	"outsider's runs a second: --dry-run $rd ($(spread ${RUNS[dry]})), cgroup-isolate $rp ($(spread ${RUNS[pol]}))" \
	"tool's counters, all rounds: --dry-run $(cnt dry)" "  cgroup-isolate $(cnt pol)"
[ "$nd" -gt 20 ]
ok $? "--dry-run: the outsider preempts the insider ($nd in $SECS s)"
[ $((np * 10)) -le "$nd" ]
ok $? "cgroup-isolate: the insider's involuntary switches fall by 90% or more ($nd -> $np)"
[ "$(sum tick_suppressed dry)" -gt 20 ] && [ "$(sum wakeup_suppressed dry)" -gt 20 ]
ok $? "--dry-run: the tool counts the ticks and wakeups it would hold off"
[ "$(sum tick_suppressed pol)" -gt 20 ] && [ "$(sum bounded pol)" -gt 0 ]
ok $? "cgroup-isolate: ticks held off, then CFS decides after --min-run (bounded > 0)"
# The observers tell the preemptions by a wakeup from the rest: under
# --dry-run most of the insider's are the outsider's wakeups (6.1: 99%;
# 6.12: 51 to 100%, the others where EEVDF found the insider's slice over
# at the tick, or at the outsider's enqueue, before CFS checked the
# wakeup itself)
dp=$(sum preemptions dry) dw=$(sum preemptions_wakeup dry)
[ $((dw * 3)) -ge "$dp" ] && [ "$dw" -gt 20 ]
ok $? "--dry-run: the tool counts the insider's preemptions by the outsider's wakeups ($dw of $dp, a third or more)"
pw=$(sum preemptions_wakeup pol)
[ "$pw" -le "$B" ]
ok $? "cgroup-isolate: no insider preempted because an outsider woke up, but for the kernel's overrides ($pw <= $B)"
# --min-run 100ms: the outsider runs once per 100 ms of the insider at
# least, 10 a second; half that leaves room for the emulator's stalls.
[ "$rp" -ge 5 ]
ok $? "cgroup-isolate: the outsider still runs $rp times a second (>= 5, one per --min-run 100ms)"

# --- a CPU-bound outsider keeps its share -----------------------------------
# (default --min-run, 100ms)
taskset -c 1 "$HOG" &
ohog=$!
sleep 0.5
start_tool "$TAP_TMP/fair.json" "$CI" -j -c "$CG"
o0=$(cpuns $ohog) t0=$(date +%s%N)
sleep $SECS
o1=$(cpuns $ohog) t1=$(date +%s%N)
stop_tool
kill $ohog
wait $ohog 2>/dev/null
share=$(((o1 - o0) * 100 / (t1 - t0)))
diag "outside CPU hog next to the insider hog: its CPU share $share%," \
	"$(summary "$TAP_TMP/fair.json" '"tick suppressed \(.tick_suppressed), bounded \(.bounded)"')"
[ "$share" -ge 35 ] && [ "$share" -le 65 ]
ok $? "cgroup-isolate: an outside CPU hog keeps its share by weight, half ($share%)"

# --- insiders among themselves: CFS decides -----------------------------------
in_cgroup "$CG" "$HOG" &
ins2=$!
sleep 0.5
start_tool "$TAP_TMP/in.json" "$CI" -j -c "$CG"
sleep $SECS
stop_tool
kill $ins $ins2
wait $ins $ins2 2>/dev/null
tt=$(summary "$TAP_TMP/in.json" .tick_targets)
ts=$(summary "$TAP_TMP/in.json" .tick_suppressed)
diag "two insider hogs: ticks on an insider $tt, suppressed $ts"
[ "$tt" -gt 100 ] && [ $((ts * 10)) -le "$tt" ]
ok $? "two insiders: the tick between them is left to CFS ($ts of $tt suppressed)"

# --- a -c cgroup without the cpu controller ------------------------------------
# Its tasks queue on its parent's runqueues, so an entity cannot be judged
# by its task group (bpf/target.bpf.h): the tool takes the kfuncs. The
# same insider hog and outside waker, one run a side.
NOCPU=$CG/nocpu
mkdir "$CGROOT/$NOCPU"
grep -qw cpu "$CGROOT/$NOCPU/cgroup.controllers"
ok $((! $?)) "$NOCPU has no cpu controller (its parent's subtree_control is empty)"
in_cgroup "$NOCPU" "$HOG" &
ins=$!
taskset -c 1 "$WAKER" --seconds 3600 --period-us 1000 --run-us 100 >/dev/null &
out=$!
sleep 0.5
declare -A NC
for side in dry pol; do
	dry=
	[ $side = dry ] && dry=--dry-run
	start_tool "$TAP_TMP/nc$side.json" "$CI" -j -c "$NOCPU" $dry
	n0=$(nivcsw $ins)
	sleep $SECS
	NC[$side]=$(($(nivcsw $ins) - n0))
	stop_tool
done
kill $ins $out
wait $ins $out 2>/dev/null
rmdir "$CGROOT/$NOCPU"
diag "-c $NOCPU (no cpu controller): insider's involuntary switches --dry-run ${NC[dry]}, cgroup-isolate ${NC[pol]}"
[ "${NC[dry]}" -gt 20 ] && [ $((NC[pol] * 10)) -le "${NC[dry]}" ]
ok $? "without the cpu controller too, 90% fewer (${NC[dry]} -> ${NC[pol]})"

# --- --preempt-outsiders ----------------------------------------------------
# An insider waking every 1 ms to run 200 us next to an outside CPU hog.
# On default knobs CFS already lets it preempt (sleeper credit 6 ms >
# wakeup_granularity 2 ms): forcing must not make it worse. Under the
# throughput profile (wakeup_granularity 15 ms) CFS makes it wait for the
# hog's tick, and forcing cuts that.
taskset -c 1 "$HOG" &
hog=$!
declare -A P99 W99
boost() {
	local dry=

	[ "$1" = dry ] && dry=--dry-run
	start_tool "$TAP_TMP/b$1$2.json" "$CI" -j -o --observe=full -c "$CG" $dry
	W=$(in_cgroup "$CG" "$WAKER" --seconds $SECS --run-us 200)
	stop_tool
	ST[b$1]+="$TOOL_STATUS"
	P99[$PROFILE$1]+=" $(summary "$TAP_TMP/b$1$2.json" .latency_us.p99)"
	W99[$PROFILE$1]+=" $(kv "$W" p99_us)"
	[ "$(summary "$TAP_TMP/b$1$2.json" .wakeup_forced)" -gt 100 ] || FORCED_FEW=1
}
for PROFILE in default throughput; do
	use_profile $PROFILE
	# five rounds: on default knobs the claim is "no worse" (below); under
	# the throughput profile one log2 bucket, where on 6.12 a round of
	# --dry-run alone ranges over two (511..1023 us): one run of three
	# rounds had a median of 511 and failed
	n=$ROUNDS
	[ "$n" -lt 5 ] && n=5
	ROUNDS=$n ab_rounds boost
	diag "$PROFILE knobs ($(knobs)): insider's wakeup-to-run p99 us, median (min..max) of $n:" \
		"  tool:  --dry-run $(median ${P99[${PROFILE}dry]}) ($(spread ${P99[${PROFILE}dry]})), --preempt-outsiders $(median ${P99[${PROFILE}pol]}) ($(spread ${P99[${PROFILE}pol]}))" \
		"  waker: --dry-run $(median ${W99[${PROFILE}dry]}) ($(spread ${W99[${PROFILE}dry]})), --preempt-outsiders $(median ${W99[${PROFILE}pol]}) ($(spread ${W99[${PROFILE}pol]}))"
done
use_profile default
kill $hog
wait $hog 2>/dev/null
ok $((${ST[bdry]//0/}${ST[bpol]//0/} + 0)) "--preempt-outsiders runs: exit 0 after SIGINT (${ST[bdry]} ${ST[bpol]})"
[ -z "$FORCED_FEW" ]
ok $? "--preempt-outsiders: wakeups forced (> 100 a run, --dry-run counting them)"
# Default knobs: not worse beyond the run-to-run spread, by lib.sh's
# not_worse. One CI run saw the waker's 392 -> 593 us (worst --dry-run
# 528) with the tool's p99 255 -> 127; another 451 -> 949 (374..914 ->
# 445..2164) with the tool's 255 -> 255.
not_worse default "default knobs: --preempt-outsiders does not make the insider's p99 worse"
d=$(median ${P99[throughputdry]}) p=$(median ${P99[throughputpol]})
[ "$d" -gt 0 ] && [ $((p * 2)) -le "$d" ]
ok $? "throughput profile: --preempt-outsiders halves the insider's p99 or better ($d -> $p us)"

common_lifecycle cgroup-isolate "$CG"
before=$(ls "$CGROOT")
common_bad_input cgroup-isolate "$CG"
bad cgroup-isolate 2 "no cgroup: give -c CGROUP" "$CI" -p $$
bad cgroup-isolate 2 "no cgroup: give -c CGROUP" "$CI" -- true
bad cgroup-isolate 2 "--all leaves no outsiders" "$CI" --all
run "$CI" -c "$CG" --preempt-outsiders=yes
option_error cgroup-isolate "option '--preempt-outsiders' doesn't allow an argument"
ok $? "cgroup-isolate --preempt-outsiders=yes: exit 2, Try --help"
bad cgroup-isolate 2 "is the root cgroup, which leaves no outsiders" "$CI" -c "$CGROOT"
bad cgroup-isolate 2 "invalid --min-run '999us': out of range (1ms to 10s)" \
	"$CI" -c "$CG" --min-run 999us
bad cgroup-isolate 2 "invalid --min-run '20': missing unit" "$CI" -c "$CG" -m 20
[ "$(sched_progs)" = 0 ] && [ "$(observer_progs)" = 0 ]
ok $? "no program attached after any bad input"
[ "$(ls "$CGROOT")" = "$before" ]
ok $? "no cgroup created"

done_testing
