#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# boost-wakeup in the VM, on the kernel's default CFS knobs first, each
# case against --dry-run in the same boot, in ROUNDS alternating pairs
# (lib.sh), the claims made on the medians:
# - never worse: a target waking every 1 ms to run 100 us next to a CPU
#   hog, where CFS already lets it preempt;
# - where it helps on default knobs: the same target in a cgroup whose
#   other task is CPU-bound, next to an outside CPU hog;
# - under the throughput profile: the first case, where CFS makes the
#   target wait for the hog's tick.
# Then the --max-lead guard, the command wrapping, signals and bad input.
. "$(dirname "$0")/lib.sh"
require_vm

BW=$BIN/boost-wakeup
WAKER=$ROOT/build/tests/waker
CG=schedbpf-bw-$$
new_cgroup "$CG"
SECS=3

# effect SIDE ROUND: boost-wakeup (--dry-run for dry) wrapping $WAKE_CMD,
# the waker, a task of its own (so its status is the tool's) on CPU 1.
# Keeps per $CASE and side the tool's p99 (log2 bucket bound), the
# waker's own p99 and the competitors' ($HOGS) CPU share in per mille.
declare -A P99 W99 SHARE ST TF
effect() {
	local dry= c0=0 c1=0 t0 t1 h

	[ "$1" = dry ] && dry=--dry-run
	for h in $HOGS; do c0=$((c0 + $(cpuns $h))); done
	t0=$(date +%s%N)
	run "$BW" -j --observe=full $dry -- "${WAKE_CMD[@]}"
	t1=$(date +%s%N)
	for h in $HOGS; do c1=$((c1 + $(cpuns $h))); done
	printf '%s\n' "$OUT" | grep '^{' >"$TAP_TMP/$CASE$1$2.json"
	W=$(printf '%s\n' "$OUT" | grep '^wakeups=')
	ST[$CASE]+="$STATUS"
	P99[$CASE$1]+=" $(summary "$TAP_TMP/$CASE$1$2.json" .latency_us.p99)"
	W99[$CASE$1]+=" $(kv "$W" p99_us)"
	SHARE[$CASE$1]+=" $(((c1 - c0) * 1000 / (t1 - t0)))"
	TF[$CASE$1]+=" $(summary "$TAP_TMP/$CASE$1$2.json" '"\(.wakeup_forced)/\(.tick_forced)/\(.bounded)"')"
	[ "$(summary "$TAP_TMP/$CASE$1$2.json" .wakeup_forced)" -gt 100 ] ||
		FORCED_FEW="$FORCED_FEW $CASE$1$2"
}
# report CASE TEXT: the medians and spreads of CASE.
report() {
	local k n

	n=$(set -- ${P99[$1dry]} && echo $#)
	diag "$2 ($PROFILE knobs: $(knobs)); median (min..max) of $n runs:"
	for k in dry pol; do
		diag "  $([ $k = dry ] && echo '--dry-run   ' || echo 'boost-wakeup')\
 p99 us: tool $(median ${P99[$1$k]}) ($(spread ${P99[$1$k]})),\
 waker $(median ${W99[$1$k]}) ($(spread ${W99[$1$k]}));\
 competitors' CPU $(median ${SHARE[$1$k]})‰ ($(spread ${SHARE[$1$k]}));\
 forced at wakeup/tick, bounded:${TF[$1$k]}"
	done
}
# The waker's own latency (timer expiry to running) includes how late
# the emulator delivers the timer: its p99 swings by 1.5x between runs of
# the same side. The tool's p99 is the scheduler's part, wakeup to
# running, in log2 buckets. not_worse (lib.sh) judges both.

# better_by CASE FACTOR TEXT: the median boosted p99 (the tool's) is at
# least FACTOR times lower than --dry-run's. The emulator has a floor of
# its own, FLOOR: the one-hog case's p99, where CFS already preempts at
# once (4 to 16 ms on a host under load, when the vCPU thread waits for
# the host's CPU between a wakeup and the switch). A boosted p99 at that
# floor counts when the floor is above --dry-run's / FACTOR; when
# --dry-run's is not even twice the floor, the effect cannot be seen at
# this noise and the point is skipped, saying so.
better_by() {
	local dt pt

	dt=$(median ${P99[$1dry]}) pt=$(median ${P99[$1pol]})
	if [ "$dt" -lt $((FLOOR * 2)) ]; then
		skip "$3: --dry-run's p99 $dt us is within 2x of the VM's floor $FLOOR us: too noisy to tell"
		return
	fi
	[ $((pt * $2)) -le "$dt" ] || { [ $((FLOOR * $2)) -gt "$dt" ] && [ "$pt" -le "$FLOOR" ]; }
	ok $? "$3: p99 wakeup-to-run latency at least $2x lower, or down to the VM's floor $FLOOR us ($dt -> $pt us)"
}

# --- default knobs: never worse ---------------------------------------------
# The issue's case: on default knobs the waker's sleeper credit (6 ms) is
# more than wakeup_granularity (2 ms), so CFS already lets it preempt the
# hog at every wakeup: boosting has nothing to add, and must not hurt.
taskset -c 1 "$HOG" &
hog=$!
HOGS=$hog
WAKE_CMD=(taskset -c 1 "$WAKER" --seconds $SECS --run-us 100)
CASE=one
# five rounds here, where the claim is "no worse": see not_worse
ROUNDS=$((ROUNDS < 5 ? 5 : ROUNDS)) ab_rounds effect
report one "a waker (1 ms, 100 us) next to one CPU hog"
not_worse one "$PROFILE knobs, one hog: boosting does not make the target's p99 worse"
# the worst of its rounds: the floor's own run-to-run spread (4095 to
# 8191 in one boot) is one log2 bucket
FLOOR=$(spread ${P99[onedry]} ${P99[onepol]}) FLOOR=${FLOOR#*..}

# --- default knobs: where it helps --------------------------------------------
# The target shares its cgroup with a CPU-bound task, so the cgroup's
# entity never sleeps and gets no sleeper credit: when the target wakes
# while the outside hog runs, CFS compares the cgroup's entity with the
# hog, and lets it preempt only once the hog has run 2 ms
# (wakeup_granularity) past it; until then the target waits. Boosting
# makes it the next buddy at every level and it runs at once; the lead
# guard keeps the cgroup within --max-lead of its share, so the outside
# hog keeps half the CPU.
in_cgroup "$CG" "$HOG" &
inner=$!
HOGS=$hog
WAKE_CMD=(bash -c "echo \$\$ >'$CGROOT/$CG/cgroup.procs' && exec taskset -c 1 '$WAKER' --seconds $SECS --run-us 100")
CASE=nest
# five rounds, as for "no worse": on 6.12 one boot's three rounds were all
# 8191 us boosted (against 8191 under --dry-run), where four more rounds
# in the next boot, beside the same host load, gave 2047 to 4095
ROUNDS=$((ROUNDS < 5 ? 5 : ROUNDS)) ab_rounds effect
kill $inner
wait $inner 2>/dev/null
sleep 0.2
report nest "the waker in a cgroup with a CPU hog, next to an outside CPU hog"
# The rule is 3x; in log2 buckets that is two buckets down. Without the
# tick hook's lead guard this reached one: at about 4% of the wakeups the target
# waited a millisecond or more, because a tick in the same interrupt as its
# timer ended its cgroup's slice (the tick hook even forced that) and CFS
# or EEVDF gave the CPU to the outside hog. Now the tick hook keeps a
# group the waiting target is in, and the series asks the wakeup hook
# also when a reschedule is pending: on a quiet host, 8191 -> 255 on 6.1.
better_by nest 3 "default knobs, nested"
ds=$(median ${SHARE[nestdry]}) ps=$(median ${SHARE[nestpol]})
[ "$ps" -ge 400 ] && [ $((ps + 50)) -ge "$ds" ]
ok $? "default knobs, nested: the outside hog keeps its half (${ds}‰ -> ${ps}‰, >= 400‰ and within 50‰)"

# --- the throughput profile ---------------------------------------------------
# min_granularity 10 ms, wakeup_granularity 15 ms: the waker's 6 ms credit
# no longer preempts, it waits for the hog's tick, and boosting cuts that.
use_profile throughput
WAKE_CMD=(taskset -c 1 "$WAKER" --seconds $SECS --run-us 200)
CASE=tp
ab_rounds effect
report tp "a waker (1 ms, 200 us) next to one CPU hog"
not_worse tp "$PROFILE knobs, one hog: boosting does not make the target's p99 worse"
use_profile default
better_by tp 5 "throughput knobs"
# The waker's own p99 has a floor of its own, how late the emulator
# delivers its timer: the worst waker p99 of the one-hog case, where CFS
# lets it preempt at once (2.6 ms in a 6.12 boot whose --dry-run here had
# 0.98 ms, the boosted 1.4 ms, while the tool's p99 halved).
# When --dry-run's scheduling delay (the tool's p99) is itself below that
# floor, the waker's own p99 is the emulator's timer and nothing else: on
# 6.12 base_slice 10 ms often lets the waker preempt at once (tool p99
# 1023 us, waker 2720 us in one boot), and a CI run failed here on a
# waker p99 a little above --dry-run's. Then the claim cannot be seen at
# this noise, and "not worse" above is the one that holds. The tool's p99
# is a log2 bucket's top (1023: 512 to 1023 us), so the delay may be
# below the floor whenever the bucket's bottom is: another CI run failed
# on a tool p99 of 1023 against a floor of 1022 us (waker 984 -> 1111,
# its runs 413 to 1495).
WFLOOR=$(spread ${W99[onedry]} ${W99[onepol]}) WFLOOR=${WFLOOR#*..}
dw=$(median ${W99[tpdry]}) pw=$(median ${W99[tppol]})
dt=$(median ${P99[tpdry]})
if [ $(((dt + 1) / 2)) -le "$WFLOOR" ]; then
	skip "throughput knobs: the waker's own p99: --dry-run's delay (tool p99 $dt us, a log2 bucket) may be within the VM's timer floor $WFLOOR us ($dw -> $pw us): too noisy to tell"
else
	[ "$pw" -lt "$dw" ] || [ "$pw" -le "$WFLOOR" ]
	ok $? "throughput knobs: the waker's own p99 is lower too, or within the VM's floor $WFLOOR us ($dw -> $pw us)"
fi

ok $((${ST[one]//0/}${ST[nest]//0/}${ST[tp]//0/} + 0)) "boost-wakeup -- waker: exit 0, the waker's, every run"
[ -z "$FORCED_FEW" ]
ok $? "boosts counted (> 100 a run) under --dry-run and given by the policy${FORCED_FEW:+; too few in$FORCED_FEW}"

# --- the guard ------------------------------------------------------------
# A target that sleeps 10 us after each 1 ms of CPU would, boosted at
# every wakeup, leave the hog the gaps only. The lead guard hands the
# decision back to CFS (bounded > 0) and the hog keeps its share.
# greedy TOOL-OPTS...: HOG_PCT, the hog's share over 2 s of the run;
# PROGS, what is loaded 1 s into it: "sched programs/tracing programs"
# (but the command tree's track_fork and track_exit, always loaded).
greedy() {
	start_tool "$TAP_TMP/g.json" "$BW" -j -c "$CG" "$@"
	in_cgroup "$CG" "$WAKER" --seconds 4 --period-us 10 \
		--run-us 1000 >/dev/null &
	w=$!
	sleep 1
	PROGS=$("$BPFTOOL" -j prog show | jq -r '[([.[] | select(.type == "sched")] | length),
		([.[] | select(.type == "tracing" and
			(.name | startswith("track_") | not))] | length)] | join("/")')
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

# --- --observe=none: the policy alone -----------------------------------------
# The three hooks alone (the wakeup hook notes a waiting target for the
# tick): no observer is loaded, and the policy still decides.
greedy --max-lead 100us --observe=none
[ "$PROGS" = 3/0 ]
ok $? "--observe=none: the three hooks, no tracing program ($PROGS)"
summary "$TAP_TMP/g.json" '.wakeup_forced + .bounded > 0 and .wakeup_calls == 0 and
	.preemptions == 0' | grep -qx true
ok $? "--observe=none: the policy decides (forced or bounded: $(summary "$TAP_TMP/g.json" '"\(.wakeup_forced)/\(.bounded)"')), nothing observed is counted"
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
