#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# cgroup-isolate in the VM, each part against --dry-run in the same boot:
# - an insider running 500 us every 2 ms and an outsider waking every 1 ms,
#   both on CPU 1: how often the outsider's wakeups preempt the insider,
#   from the insider's nonvoluntary_ctxt_switches and the tool's counters;
# - --preempt-outsiders: an insider waking every 1 ms next to a CPU-bound
#   outsider: its wakeup-to-run latency.
# Then the command wrapping, signals and bad input.
. "$(dirname "$0")/lib.sh"
require_vm

CI=$BIN/cgroup-isolate
WAKER=$ROOT/build/tests/waker
CG=schedbpf-ci-$$
new_cgroup "$CG"

# --- outsiders never preempt insiders -------------------------------------
# Both run before the tool attaches, so the window sees only the steady
# state; nivcsw is read from attach to just before detach. They outlive the
# window (loading the tool under TCG can take seconds) and are killed after.
# The kernel's overrides of wakeup suppressions (kernel/README.md): a
# per-CPU kthread waking on the insider's CPU preempts it whatever the
# policy says.
kernel_overrides() {
	awk '$1 ~ /wakeup/ { s += $2 } END { print s + 0 }' \
		/sys/kernel/debug/sched/bpf_bounded
}
shield() {
	taskset -c 1 "$WAKER" --seconds 60 --period-us 1000 --run-us 50 >/dev/null &
	out=$!
	in_cgroup "$CG" "$WAKER" --seconds 60 --period-us 2000 \
		--run-us 500 >/dev/null &
	ins=$!
	sleep 1
	b0=$(kernel_overrides)
	start_tool "$TAP_TMP/$1.json" "$CI" -j -c "$CG" "${@:2}"
	n0=$(nivcsw $ins)
	sleep 3
	n1=$(nivcsw $ins)
	stop_tool
	B=$(($(kernel_overrides) - b0))
	kill $out $ins 2>/dev/null
	wait $out $ins 2>/dev/null
	N=$((${n1:-0} - ${n0:-0}))
	[ -n "$n0" ] && [ -n "$n1" ] || N=-1
}
shield sdry --dry-run
sdry_status=$TOOL_STATUS sdry_n=$N
shield spol
ok $sdry_status "--dry-run: exit 0 after SIGINT"
ok $TOOL_STATUS "policy: exit 0 after SIGINT"
cnt() { summary "$TAP_TMP/$1.json" '"preemptions \(.preemptions) (\(.preemptions_wakeup) by a wakeup, \(.preemptions_rt) by RT), wakeups of outsiders on insiders \(.wakeup_targets), suppressed \(.wakeup_suppressed)"'; }
diag "insider's nonvoluntary_ctxt_switches in 3 s: --dry-run $sdry_n, cgroup-isolate $N" \
	"tool's counters: --dry-run $(cnt sdry); cgroup-isolate $(cnt spol)"
[ "$sdry_n" -gt 20 ]
ok $? "--dry-run: outsiders' wakeups preempt the insider ($sdry_n)"
summary "$TAP_TMP/sdry.json" '.dry_run and .wakeup_suppressed > 20 and .preemptions_wakeup > 20' |
	grep -qx true
ok $? "--dry-run: the tool counts those preemptions and what it would suppress"
summary "$TAP_TMP/spol.json" '.wakeup_suppressed > 100' | grep -qx true
ok $? "cgroup-isolate: outsiders' wakeups on the insider suppressed"
pw=$(summary "$TAP_TMP/spol.json" '.preemptions_wakeup')
[ "${pw:-1}" -le "$B" ]
ok $? "cgroup-isolate: no insider preempted because an outsider woke up, but for the kernel's overrides ($pw <= $B)"
# The policy is about wakeups: the tick still ends an insider's slice when
# CFS says so, and RT tasks preempt through no CFS hook at all. /proc sees
# no more involuntary switches than the tool counted (all of them not by a
# wakeup), a fraction of --dry-run's.
tot=$(summary "$TAP_TMP/spol.json" .preemptions)
[ "$N" -ge 0 ] && [ "$N" -le "$tot" ] && [ $((N * 3)) -le "$sdry_n" ]
ok $? "cgroup-isolate: /proc agrees: $N involuntary switches, within the tool's $tot, under a third of --dry-run's"

# --- --preempt-outsiders ----------------------------------------------------
taskset -c 1 "$HOG" &
hog=$!
boost() {
	start_tool "$TAP_TMP/$1.json" "$CI" -j -o -c "$CG" "${@:2}"
	W=$(in_cgroup "$CG" "$WAKER" --seconds 3 --run-us 200)
	stop_tool
}
# as in boost-wakeup.t: CFS tuned for throughput, so it does not preempt
tune_throughput
boost bdry --dry-run
bdry_w=$W
boost bpol
tune_restore
kill $hog
wait $hog 2>/dev/null
lat() { summary "$TAP_TMP/$1.json" '.latency_us | "\(.p50)/\(.p90)/\(.p99)"'; }
diag "insider's wakeup-to-run p50/p90/p99 us (tool): --dry-run $(lat bdry)," \
	"--preempt-outsiders $(lat bpol)" \
	"as the waker measured it: --dry-run $bdry_w" "  --preempt-outsiders $W"
d=$(summary "$TAP_TMP/bdry.json" .latency_us.p99)
p=$(summary "$TAP_TMP/bpol.json" .latency_us.p99)
[ "$d" -gt 0 ] && [ $((p * 2)) -le "$d" ]
ok $? "--preempt-outsiders: the insider's p99 latency drops ($d -> $p us)"
summary "$TAP_TMP/bpol.json" '.wakeup_forced > 100' | grep -qx true
ok $? "--preempt-outsiders: wakeups forced"

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
[ "$(sched_progs)" = 0 ] && [ "$(observer_progs)" = 0 ]
ok $? "no program attached after any bad input"
[ "$(ls "$CGROOT")" = "$before" ]
ok $? "no cgroup created"

done_testing
