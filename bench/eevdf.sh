#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench-eevdf runs this in the VM on the 6.12 kernel (KERNEL=6.12):
# each tool's scenario beside the nearest thing EEVDF offers without BPF,
# as ratios to the same scenario with nothing, all in one boot. Numbers,
# not a test: nothing fails on a ratio.
#
# EEVDF's own knobs (6.12):
# - the slice a task asks for, sched_setattr(2)'s sched_runtime (0.1 to
#   100 ms; build/tests/slice sets it): a longer one runs longer per pick,
#   a shorter one gets an earlier deadline and, with PREEMPT_SHORT, may
#   preempt a task with a longer slice at wakeup;
# - the competitor's policy: SCHED_BATCH (never preempts at wakeup),
#   SCHED_IDLE (weight 3, and preempted by any other), or nice 19.
#
# Scenarios, each on CPU 1 with a CPU-bound competitor, SECS seconds a run,
# ROUNDS runs a configuration, median (min..max) printed:
#   hogs   a CPU-bound target in a cgroup (no-preempt, slice-extend): its
#          runs between switches (hog --runs) and their p50
#   waker  a target waking every 1 ms for 100 us (boost-wakeup), alone in
#          its cgroup (one) or beside a CPU-bound task there (nest): its
#          wakeup-to-run p99 as it measures it
#   isol   a CPU-bound insider and an outside waker (cgroup-isolate): the
#          insider's runs, the outsider's p99
# On 6.1 (CFS) the knob rows are left out: sched_runtime means nothing to
# CFS for SCHED_OTHER.
. "$(dirname "$0")/../tests/tools/lib.sh"

ROUNDS=${ROUNDS:-3}
SECS=${SECS:-3}
WAKER=$ROOT/build/tests/waker
SLICE=$ROOT/build/tests/slice
CG=schedbpf-eevdf-$$
new_cgroup "$CG"
trap cleanup_tools EXIT
kernel_has_sched_bpf || { echo "bench: not the series' kernel" >&2; exit 1; }
[ -x "$SLICE" ] || { echo "bench: $SLICE missing: run 'make kernel-tests'" >&2; exit 1; }
eevdf=
[ -e /sys/kernel/debug/sched/base_slice_ns ] && eevdf=1

# one CONFIG METRIC-KEY... : runs the scenario's workload once under
# CONFIG and appends each KEY's value to R[CONFIG.KEY]. The scenario
# ($SCENARIO) and CONFIG decide the commands:
#   none           nothing
#   TOOL[:ARGS]    the tool with -q -c CG (and ARGS, commas for spaces)
#   slice:US       the target asks for a US slice
#   comp:POLICY    the competitor (isol: the outsider) as batch, idle or
#                  nice19
declare -A R
one() {
	local cfg=$1 line k tprefix=() cprefix=(taskset -c 1) pids=() tool=()

	shift
	case $cfg in
	none) ;;
	slice:*) tprefix=("$SLICE" "${cfg#slice:}") ;;
	comp:batch) cprefix=(chrt -b 0 taskset -c 1) ;;
	comp:idle) cprefix=(chrt -i 0 taskset -c 1) ;;
	comp:nice19) cprefix=(nice -n 19 taskset -c 1) ;;
	*:*) tool=("$BIN/${cfg%%:*}" -q -c "$CG" $(tr , ' ' <<<"${cfg#*:}")) ;;
	*) tool=("$BIN/$cfg" -q -c "$CG") ;;
	esac
	[ ${#tool[@]} = 0 ] || start_tool "$TAP_TMP/tool.out" "${tool[@]}"
	case $SCENARIO in
	hogs)	"${cprefix[@]}" "$HOG" & pids+=($!)
		line=$(in_cgroup "$CG" "${tprefix[@]}" "$HOG" --runs "$SECS") ;;
	waker*)	"${cprefix[@]}" "$HOG" & pids+=($!)
		[ "$SCENARIO" = waker-nest ] && { in_cgroup "$CG" "$HOG" & pids+=($!); }
		line=$(in_cgroup "$CG" "${tprefix[@]}" "$WAKER" --seconds "$SECS" --run-us 100) ;;
	isol)	"${cprefix[@]}" "$WAKER" --seconds "$SECS" --run-us 100 >"$TAP_TMP/outsider" &
		line=$(in_cgroup "$CG" "${tprefix[@]}" "$HOG" --runs "$SECS")
		wait $!
		line="$line outsider_$(grep -o 'p99_us=[0-9]*' "$TAP_TMP/outsider")" ;;
	esac
	[ ${#pids[@]} = 0 ] || { kill "${pids[@]}"; wait "${pids[@]}"; } 2>/dev/null
	[ ${#tool[@]} = 0 ] || stop_tool
	for k in "$@"; do
		R[$cfg.$k]+=" $(kv "$line" "$k")"
	done
}

# scenario NAME "KEY..." CONFIG...: ROUNDS rounds, the configurations in
# turn within each, then a table: per key the median (min..max) and its
# ratio to none's median.
scenario() {
	local name=$1 keys=$2 cfg k med base

	shift 2
	SCENARIO=$name
	R=()
	for _ in $(seq "$ROUNDS"); do
		for cfg in none "$@"; do
			one "$cfg" $keys
		done
	done
	echo "# $name ($(knobs)), $ROUNDS runs of ${SECS} s, median (min..max), ratio to none:"
	for cfg in none "$@"; do
		printf '  %-28s' "$cfg"
		for k in $keys; do
			med=$(median ${R[$cfg.$k]}) base=$(median ${R[none.$k]})
			printf ' %s %s (%s) %s' "$k" "$med" "$(spread ${R[$cfg.$k]})" \
				"$(awk -v a="$med" -v b="$base" 'BEGIN { printf (b > 0 ? "%.2fx" : "-"), a / b }')"
		done
		echo
	done
}

knob() { [ -n "$eevdf" ] && echo "$@"; }

scenario hogs "runs p50_us" no-preempt slice-extend:--slice,20ms \
	$(knob slice:20000 slice:100000 comp:batch comp:nice19)
scenario waker-one "p99_us" boost-wakeup \
	$(knob slice:100 comp:batch comp:idle comp:nice19)
scenario waker-nest "p99_us" boost-wakeup \
	$(knob slice:100 comp:idle comp:nice19)
scenario isol "runs outsider_p99_us" cgroup-isolate:--min-run,20ms \
	$(knob slice:20000 comp:batch comp:nice19)
