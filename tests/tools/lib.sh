# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the tools' tests in the VM (kernel/vm-run), on top of the
# host tests' TAP helpers.
. "$(dirname "${BASH_SOURCE[0]}")/../tap.sh"

BPFTOOL=${BPFTOOL:-$(kernel_build_dir)/bpftool}
HOG=$ROOT/build/tests/hog
CGROOT=$(cgroup2_mount)
TEST_CGS=

# Skips the whole file unless this kernel has the hooks and we are root.
require_vm() {
	if ! kernel_has_sched_bpf; then
		echo "1..0 # SKIP kernel has no scheduler BPF (run under kernel/vm-run)"
		exit 0
	fi
	if [ "$(id -u)" != 0 ] || [ -z "$CGROOT" ] || [ ! -x "$HOG" ]; then
		echo "1..0 # SKIP needs root, cgroup2 and $HOG"
		exit 0
	fi
}

# new_cgroup NAME: creates $CGROOT/NAME, and each level of a nested NAME,
# removed at exit (the deepest first).
new_cgroup() {
	local path= part

	mkdir -p "$CGROOT/$1"
	for part in ${1//\// }; do
		path=${path:+$path/}$part
		case " $TEST_CGS " in
		*" $CGROOT/$path "*) ;;
		*) TEST_CGS="$CGROOT/$path $TEST_CGS" ;;
		esac
	done
}

cleanup_tools() {
	[ -n "$TUNED" ] && tune_restore
	for cg in $TEST_CGS; do
		[ -d "$cg" ] || continue
		for p in $(cat "$cg/cgroup.procs" 2>/dev/null); do
			kill -KILL "$p" 2>/dev/null
		done
		sleep 0.2
		rmdir "$cg" 2>/dev/null
	done
	rm -rf "$TAP_TMP"
}
trap cleanup_tools EXIT

# Number of loaded sched programs, and of our tp_btf programs (observers,
# the command tree's).
sched_progs() {
	"$BPFTOOL" -j prog show | jq '[.[] | select(.type == "sched")] | length'
}
observer_progs() {
	"$BPFTOOL" -j prog show |
		jq '[.[] | select(.name == "observe_switch" or
			.name == "track_fork")] | length'
}

# no_programs_left: every program is gone within 5 s (freeing is deferred).
no_programs_left() {
	for _ in $(seq 50); do
		[ "$(sched_progs)" = 0 ] && [ "$(observer_progs)" = 0 ] && return 0
		sleep 0.1
	done
	return 1
}

# wait_attached: the tool's sched programs are loaded, within 20 s.
wait_attached() {
	for _ in $(seq 200); do
		[ "$(sched_progs)" -gt 0 ] && return 0
		sleep 0.1
	done
	return 1
}

# A task's nonvoluntary_ctxt_switches and voluntary ones (for a task
# that sleeps after each run: its runs) and CPU time in clock ticks; in
# ns: tap.sh's cpuns.
nivcsw() { awk '/^nonvoluntary_ctxt_switches/ { print $2 }' "/proc/$1/status"; }
nvcsw() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$1/status"; }
cputicks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# --- default knobs first ----------------------------------------------------
# Every policy test runs on the knobs the kernel boots with (on the VM's 2
# CPUs, 6.1's CFS: min_granularity 1.5 ms, wakeup_granularity 2 ms,
# latency 12 ms; 6.12's EEVDF: base_slice 1.4 ms). use_profile throughput
# switches to tuned's throughput-performance values, or on EEVDF their
# equivalent (tap.sh's tune_throughput: base_slice 10 ms), use_profile
# default back; PROFILE names the one in force, and knobs prints the
# kernel's values, for the diagnostics. Restored at exit.
PROFILE=default TUNED=
use_profile() {
	case $1 in
	default) [ -z "$TUNED" ] || tune_restore; TUNED= ;;
	throughput) [ -n "$TUNED" ] || tune_throughput; TUNED=1 ;;
	*) echo "use_profile: unknown profile '$1'" >&2; return 2 ;;
	esac
	PROFILE=$1
}
knobs() {
	local kv file out=

	for kv in $(sched_knobs); do
		file=${kv%%=*}
		out="$out${out:+, }${file%_ns} $(($(cat "$SCHED_DEBUG/$file") / 1000)) us"
	done
	echo "$out"
}

# --- repeated runs ------------------------------------------------------------
# The VM is emulated and shares the host: one run's timing swings by tens
# of percent, and a p99 by more. Claims are made on the median of ROUNDS
# runs of each side, run in pairs whose order alternates (A B, B A, ...)
# so a drift in host load hits both sides alike.
ROUNDS=${ROUNDS:-3}
# median N...: the median (the lower middle one of an even count).
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# spread N...: "min..max" of the values.
spread() { printf '%s\n' "$@" | sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo ".." hi }'; }
# shifted A B: true if the values of B (space-separated) are above those
# of A in at least 84% of the (a, b) pairs, ties counting half: a
# one-sided Mann-Whitney test at about 5% for five rounds a side (21 of
# 25 pairs), and all pairs for three (9 of 9, p = 0.05).
shifted() {
	local a b twice=0 n=0

	for a in $1; do
		for b in $2; do
			n=$((n + 1))
			if [ "$b" -gt "$a" ]; then
				twice=$((twice + 2))
			elif [ "$b" = "$a" ]; then
				twice=$((twice + 1))
			fi
		done
	done
	[ $((twice * 100)) -ge $((n * 2 * 84)) ]
}

# not_worse CASE TEXT: forcing a target's wakeups does not make its p99
# worse beyond the run-to-run spread, for the p99s that the caller kept
# per round in W99 (the waker's own, timer expiry to running, in us) and
# P99 (the tool's, wakeup to running, log2 buckets), under the keys
# CASE dry and CASE pol. The tool's median may pass the worst --dry-run
# round by one bucket. The waker's p99 includes how late the emulator
# delivers its timer, and its rounds of one side swing by 1.5x to 2x in
# a boot: its median under the policy may pass --dry-run's worst round by
# up to 1.5x its median, and beyond that only if the policy's rounds are
# not shifted above --dry-run's (shifted). The worst run alone is not a
# bound: with both sides equal, the median of N runs of one side is above
# the worst of N of the other with a probability of 20% for N = 3 and 8%
# for N = 5. A consistent regression (the issue's: 3x worse) fails.
not_worse() {
	local dw dmax pw dt dtmax pt

	dw=$(median ${W99[$1dry]}) pw=$(median ${W99[$1pol]})
	dmax=$(spread ${W99[$1dry]}) dmax=${dmax#*..}
	dt=$(median ${P99[$1dry]}) pt=$(median ${P99[$1pol]})
	dtmax=$(spread ${P99[$1dry]}) dtmax=${dtmax#*..}
	[ "$dw" -gt 0 ] &&
		{ [ "$pw" -le "$dmax" ] || [ $((pw * 2)) -le $((dw * 3)) ] ||
			! shifted "${W99[$1dry]}" "${W99[$1pol]}"; } &&
		{ [ "$pt" -le "$dtmax" ] || [ "$pt" -le $((dt * 2 + 1)) ]; }
	ok $? "$2 (waker $dw -> $pw us, worst --dry-run $dmax; tool $dt -> $pt us, worst $dtmax)"
}

# ab_rounds FN: calls FN dry I and FN pol I for I in 1..ROUNDS, the pair's
# order alternating.
ab_rounds() {
	local i

	for i in $(seq "$ROUNDS"); do
		if [ $((i % 2)) = 1 ]; then
			"$1" dry "$i"
			"$1" pol "$i"
		else
			"$1" pol "$i"
			"$1" dry "$i"
		fi
	done
}

# measure SECONDS JSON [ARG...]: a CPU-bound target in cgroup $CG and a
# competitor outside it, both on CPU 0, measured for SECONDS under
# no-preempt ARG... --json -c $CG, whose output goes to JSON. Sets
# TGT_NIVCSW (the target's involuntary switches), COMP_PCT (the
# competitor's CPU share), TGT_NVCSW_ALL (the target's voluntary switches
# in its whole life, all of it inside the tool's run), TOOL_RSS_KB (the
# tool's peak RSS), TOOL_CPU_PCT and MEASURE_STATUS (the tool's exit
# status after SIGINT).
measure() {
	local secs=$1 json=$2 comp tool tgt n0 n1 c0 c1 t0 t1 hz

	shift 2
	hz=$(getconf CLK_TCK)
	taskset -c 0 "$HOG" &
	comp=$!
	"$BIN/no-preempt" "$@" --json -c "$CG" >"$json" &
	tool=$!
	wait_attached
	bash -c "echo \$\$ > '$CGROOT/$CG/cgroup.procs'; exec taskset -c 0 '$HOG'" &
	tgt=$!
	sleep 1
	n0=$(nivcsw $tgt) c0=$(cputicks $comp) t0=$(cputicks $tool)
	sleep "$secs"
	n1=$(nivcsw $tgt) c1=$(cputicks $comp) t1=$(cputicks $tool)
	TOOL_RSS_KB=$(awk '/^VmHWM/ { print $2 }' /proc/$tool/status)
	TGT_NVCSW_ALL=$(nvcsw $tgt)
	kill $tgt $comp
	kill -INT $tool
	wait $tool
	MEASURE_STATUS=$?
	wait $tgt $comp 2>/dev/null
	TGT_NIVCSW=$((n1 - n0))
	COMP_PCT=$(((c1 - c0) * 100 / (secs * hz)))
	TOOL_CPU_PCT=$(awk -v t=$((t1 - t0)) -v s="$secs" -v hz="$hz" \
		'BEGIN { printf "%.1f", t * 100 / (s * hz) }')
}

# --- shared by every tool's test ------------------------------------------

# in_cgroup CG CMD [ARG...]: CMD inside $CGROOT/CG from its first
# instruction, pinned to CPU 1 (after the move: joining a cgroup resets
# the affinity to its cpuset). It replaces the calling shell, keeping its
# pid: call it in a subshell, $(in_cgroup ...) or in_cgroup ... &.
in_cgroup() {
	local cg=$CGROOT/$1

	shift
	exec bash -c 'echo $$ >"$0/cgroup.procs" && exec taskset -c 1 "$@"' "$cg" "$@"
}

# start_tool JSON CMD...: the tool CMD in the background, its stdout into
# JSON; returns once its programs are attached. stop_tool: SIGINT, then
# TOOL_STATUS is its exit status.
start_tool() {
	local json=$1

	shift
	"$@" >"$json" &
	TOOL_PID=$!
	wait_attached
	# loaded is not yet attached: give attach_all() a moment
	sleep 0.5
}
stop_tool() {
	kill -INT "$TOOL_PID"
	wait "$TOOL_PID"
	TOOL_STATUS=$?
}

# summary JSON FILTER: jq FILTER on the tool's summary (its last line).
summary() { jq -s -r ".[-1] | $2" "$1"; }

# kv LINE KEY: the value of KEY=value in a workload's report line.
kv() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# bad NAME WANT TEXT CMD...: CMD fails with status WANT and one line on
# stderr, "NAME: ...TEXT...".
bad() {
	local name=$1 want=$2 text=$3

	shift 3
	run "$@"
	one_line_error "$want" "$name" "$text"
	ok $? "$(basename "$1") ${*:2}: exit $want, '$text'"
	[ "$STATUS" -eq "$want" ] || diag "status $STATUS" "$ERR"
}

# common_bad_input NAME CG: the bad input every tool rejects, with -c CG
# where a target is needed.
common_bad_input() {
	local name=$1 cg=$2 tool=$BIN/$1

	bad "$name" 2 "No such file or directory" "$tool" -c schedbpf-no-such-cgroup
	bad "$name" 2 "not on cgroup2" "$tool" -c /tmp
	bad "$name" 2 "not a directory" "$tool" -c "$cg/cgroup.procs"
	bad "$name" 2 "no such process" "$tool" -c "$cg" -p 4194304
	bad "$name" 2 "invalid --pid 'x1'" "$tool" -c "$cg" -p x1
	bad "$name" 2 "invalid --interval '1'" "$tool" -c "$cg" -i 1
	bad "$name" 2 "invalid --duration '-1s'" "$tool" -c "$cg" -d -1s
	run "$tool" -c "$cg" --bogus
	option_error "$name" "unrecognized option '--bogus'"
	ok $? "$name -c CG --bogus: exit 2, 'unrecognized option', Try --help"
	bad "$name" 2 "no command after '--'" "$tool" -c "$cg" --
	bad "$name" 127 "command not found" "$tool" -c "$cg" -- schedbpf-no-such-command
	bad "$name" 2 "no target" "$tool"
	bad "$name" 1 "Operation not permitted" \
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$tool" -c "$cg"
}

# common_lifecycle NAME CG: wraps a command (its status is the tool's),
# SIGINT detaches everything.
common_lifecycle() {
	local name=$1 cg=$2 tool=$BIN/$1

	run "$tool" -c "$cg" -- sh -c 'exit 7'
	ok $((STATUS != 7)) "$name -c CG -- sh -c 'exit 7' exits 7 ($STATUS)"
	run "$tool" -j -c "$cg" -- cat /proc/self/cgroup
	printf '%s\n' "$OUT" | grep -qx "0::/$cg"
	ok $? "$name: the command runs in CG"
	start_tool /dev/null "$tool" -c "$cg"
	stop_tool
	ok $TOOL_STATUS "$name: SIGINT, exit 0"
	no_programs_left
	ok $? "$name: nothing attached after SIGINT"
}
