#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench runs this in the VM: what the hooks cost the scheduler's hot
# paths, as ratios to the same benchmark with nothing attached, measured in
# the same boot. Configurations:
#   none      no program attached: the static key keeps the hooks patched out
#   no-op     tests/kernel's schedtest programs on all three hooks, returning
#             0 (a kfunc call and a counter each)
#   TOOL      each tool with -c on an empty cgroup: its hooks and observers
#             run their full target test on every call and decide nothing
# Workloads: perf bench sched pipe (two tasks waking each other: the wakeup
# path) and hackbench (many tasks: wakeups, ticks and picks). ROUNDS rounds
# visit the configurations in turn, so a drift of the emulated machine hits
# them all alike; each configuration's median is reported. Numbers, not a
# test: nothing here fails on a ratio.
. "$(dirname "$0")/../tests/tools/lib.sh"

ROUNDS=${ROUNDS:-5}
PIPE_LOOPS=${PIPE_LOOPS:-50000}
HB_LOOPS=${HB_LOOPS:-100}
SCHEDTEST=$ROOT/build/tests/schedtest
if ! kernel_has_sched_bpf; then
	echo "bench: this kernel has no scheduler BPF; run: make bench" >&2
	exit 1
fi
for b in perf hackbench "$SCHEDTEST"; do
	command -v "$b" >/dev/null ||
		{ echo "bench: $b missing; run: make deps kernel-tests" >&2; exit 1; }
done
CG=schedbpf-bench-empty
new_cgroup "$CG"
CONFIGS=(none no-op no-preempt boost-wakeup slice-extend cgroup-isolate)

# attach CONFIG: leaves its programs attached (ATT_PID) until detach.
attach() {
	ATT_PID=
	case $1 in
	none) return 0 ;;
	no-op)
		"$SCHEDTEST" --tick 0 --wakeup 0 --entity 0 >"$TAP_TMP/noop" &
		ATT_PID=$!
		for _ in $(seq 100); do
			grep -q attached "$TAP_TMP/noop" && return 0
			sleep 0.1
		done
		echo "bench: schedtest did not attach" >&2
		exit 1
		;;
	*)
		"$BIN/$1" -c "$CG" --interval 1h >/dev/null &
		ATT_PID=$!
		wait_attached
		sleep 0.5
		;;
	esac
}
detach() {
	[ -z "$ATT_PID" ] && return
	kill -INT "$ATT_PID"
	wait "$ATT_PID"
	no_programs_left || { echo "bench: programs left attached" >&2; exit 1; }
}

# The benchmarks' own times, in seconds.
pipe_s() {
	perf bench sched pipe -l "$PIPE_LOOPS" |
		awk '/Total time:/ { print $3 }'
}
hackbench_s() {
	hackbench -g 2 -l "$HB_LOOPS" | awk '/^Time:/ { print $2 }'
}

echo "hook overhead: ratio of each configuration's median time to 'none',"
echo "$ROUNDS rounds; kernel $(uname -r), $(nproc) CPUs (qemu TCG: ratios only)"
echo "perf bench sched pipe -l $PIPE_LOOPS; hackbench -g 2 -l $HB_LOOPS"
for r in $(seq "$ROUNDS"); do
	for c in "${CONFIGS[@]}"; do
		attach "$c"
		echo "$c $(pipe_s) $(hackbench_s)" >>"$TAP_TMP/times"
		detach
	done
	echo "round $r of $ROUNDS done" >&2
done

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
med() { awk -v c="$1" -v f="$2" '$1 == c { print $f }' "$TAP_TMP/times" | median; }
base_p=$(med none 2) base_h=$(med none 3)
echo
printf '%-16s %10s %8s %12s %8s\n' configuration "pipe s" ratio "hackbench s" ratio
for c in "${CONFIGS[@]}"; do
	p=$(med "$c" 2) h=$(med "$c" 3)
	printf '%-16s %10s %8s %12s %8s\n' "$c" "$p" \
		"$(awk -v a="$p" -v b="$base_p" 'BEGIN { printf "%.2f", a / b }')" \
		"$h" "$(awk -v a="$h" -v b="$base_h" 'BEGIN { printf "%.2f", a / b }')"
done
