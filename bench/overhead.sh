#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench runs this in the VM (kernel/vm-run --icount): what the hooks and
# the tools cost the scheduler's hot paths, as ratios to the same benchmark
# with nothing attached, measured in the same boot.
#
# Under --icount the guest's clock counts instructions, so a benchmark's time
# is the work the guest did, whatever else the host runs: rounds agree to
# about 0.5%, boots to about 1% (README.md has the numbers).
#
# Configurations (BENCH_CONFIGS, space-separated, overrides the list):
#   none          nothing attached: the static key keeps the hooks patched out
#   none/target   nothing attached, the benchmark in the target cgroup: the
#                 baseline of the TOOL/target rows, which then show what the
#                 tool costs, not what a cgroup with the cpu controller costs
#                 CFS (a task group's runqueue per level, enqueue and
#                 dequeue at each)
#   no-op         schedtest's programs on all three hooks, returning 0, with
#                 kernel.bpf_stats_enabled left off (--no-stats)
#   TOOL          the tool on an empty cgroup at its default observation level
#                 (counts)
#   TOOL/target   the tool under --dry-run with the benchmark in its cgroup
#   TOOL/LEVEL    the tool on the empty cgroup with --observe=LEVEL
#   TOOL/target-LEVEL  the benchmark as target, with --observe=LEVEL
# Workloads (BENCH_WORKLOADS, default both): pipe, perf bench sched pipe
# -l PIPE_LOOPS (two tasks waking each other: the wakeup path, where the
# hooks' share is largest); messaging, perf bench sched messaging -t -g
# MSG_GROUPS -l MSG_LOOPS (40 threads per group, sending to each other:
# wakeups, ticks, picks, and the work between them; threads, as a
# process's fork faults its pages in from the 9p root, which takes the
# host's time). messaging needs its 500 loops (0.75 s): at 50 (0.08 s)
# its rounds varied by 4 to 11% and its boots by up to 2.9%, against
# 0.4 to 1.7% and 0.3% at 500 (3 boots per kernel).
#
# Per configuration: attach, WARMUP runs of each workload (messaging's
# first runs after boot are slower), ROUNDS measured runs; then, unless
# BENCH_STATS=0, one pipe run with kernel.bpf_stats_enabled on for each
# program's run_time_ns / run_cnt, and BENCH_TICK_SECS of two CPU hogs for
# the tick hook's (stats, below); detach.
#
# Results: "workload config round seconds", "prog config target name
# run_cnt ns_per_call", "attach config ns" (the tool's exec to attached)
# and "rss config kB" (its peak RSS) lines in BENCH_OUT
# (build/bench/results.tsv), and
# bench/report's table of them on stdout. Numbers, not a test: nothing fails
# on a ratio.
. "$(dirname "$0")/../tests/tools/lib.sh"

ROUNDS=${ROUNDS:-5}
WARMUP=${WARMUP:-2}
PIPE_LOOPS=${PIPE_LOOPS:-20000}
MSG_GROUPS=${MSG_GROUPS:-1}
MSG_LOOPS=${MSG_LOOPS:-500}
BENCH_OUT=${BENCH_OUT:-$ROOT/build/bench/results.tsv}
TOOLS=(no-preempt boost-wakeup slice-extend cgroup-isolate)
default_configs() {
	local t

	echo none none/target no-op
	for t in "${TOOLS[@]}"; do
		echo "$t" "$t/target"
		"$BIN/$t" --help | grep -q -- --observe &&
			echo "$t/none" "$t/full" "$t/target-full"
	done
}
read -r -a CONFIGS <<<"${BENCH_CONFIGS:-$(default_configs | xargs)}"
read -r -a WORKLOADS <<<"${BENCH_WORKLOADS:-pipe messaging}"
SCHEDTEST=$(kernel_tests_dir)/schedtest

die() { echo "bench: $*" >&2; exit 1; }
# nothing but none: the bench of a kernel without the series, to compare
if [ "${CONFIGS[*]}" != none ]; then
	kernel_has_sched_bpf || die "this kernel has no scheduler BPF; run: make bench"
fi
for b in perf jq "$SCHEDTEST"; do
	command -v "$b" >/dev/null || die "$b missing; run: make deps kernel-tests"
done
EMPTY=schedbpf-bench-empty TARGET=schedbpf-bench-target
new_cgroup "$EMPTY"
new_cgroup "$TARGET"
mkdir -p "$(dirname "$BENCH_OUT")"
: >"$BENCH_OUT"

# attach CONFIG: leaves its programs attached (ATT_PID) until detach; sets
# IN_CG to the cgroup the benchmark runs in (empty: where we are).
attach() {
	local tool=${1%%/*} variant= args=()

	ATT_PID= IN_CG=
	[[ $1 == */* ]] && variant=${1#*/}
	case $tool in
	none)
		[ "$variant" = target ] && IN_CG=$TARGET
		return 0
		;;
	no-op)
		"$SCHEDTEST" --no-stats --tick 0 --wakeup 0 --entity 0 \
			>"$TAP_TMP/noop" &
		ATT_PID=$!
		for _ in $(seq 300); do
			grep -q attached "$TAP_TMP/noop" && return 0
			sleep 0.1
		done
		die "schedtest did not attach"
		;;
	esac
	case $variant in
	'') args=(-c "$EMPTY") ;;
	target) args=(-n -c "$TARGET") IN_CG=$TARGET ;;
	target-*) args=(-n -c "$TARGET" "--observe=${variant#target-}") IN_CG=$TARGET ;;
	*) args=(-c "$EMPTY" "--observe=$variant") ;;
	esac
	"$BIN/$tool" "${args[@]}" -j -q --interval 1h >"$TAP_TMP/run.json" &
	ATT_PID=$!
	for _ in $(seq 600); do
		[ -s "$TAP_TMP/run.json" ] && break
		kill -0 "$ATT_PID" 2>/dev/null || die "$1 did not attach"
		sleep 0.1
	done
	# the run record comes once everything is attached
	echo "attach $1 $(head -n 1 "$TAP_TMP/run.json" | jq .attach_ns)" \
		>>"$BENCH_OUT"
}
detach() {
	[ -z "$ATT_PID" ] && return
	[ -n "$1" ] && echo "rss $1 $(awk '/^VmHWM/ { print $2 }' \
		"/proc/$ATT_PID/status")" >>"$BENCH_OUT"
	kill -INT "$ATT_PID"
	wait "$ATT_PID"
	no_programs_left || die "programs left attached"
}

# in_bench_cgroup CMD...: CMD in the benchmark's cgroup (IN_CG) if it has
# one. It replaces the shell it runs in (as lib.sh's in_cgroup does): call
# it in a pipeline or in the background, where $! is then CMD's pid.
in_bench_cgroup() {
	[ -n "$IN_CG" ] &&
		exec bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' \
			"$CGROOT/$IN_CG" "$@"
	exec "$@"
}

# run_workload W: W's own time in seconds, in $IN_CG if set. pipe's from
# its usecs/op, which perf prints to the microsecond of the whole run
# (its Total time only to the millisecond, 0.5% of a 0.2 s run).
run_workload() {
	local cmd

	case $1 in
	pipe) cmd=(perf bench sched pipe -l "$PIPE_LOOPS") ;;
	messaging) cmd=(perf bench sched messaging -t -g "$MSG_GROUPS" -l "$MSG_LOOPS") ;;
	*) die "unknown workload '$1'" ;;
	esac
	in_bench_cgroup "${cmd[@]}" | awk -v loops="$PIPE_LOOPS" -v w="$1" '
		/usecs\/op/ { us = $1 }
		/Total time:/ { t = $3 }
		END {
			if (w == "pipe" && us != "")
				printf "%.6f\n", us * loops / 1000000
			else
				print t
		}'
}

# prog_ids: the ids of the loaded BPF programs, one a line.
prog_ids() { "$BPFTOOL" -j prog show | jq '.[].id'; }

echo "# kernel $(uname -r), $(nproc) CPU(s)" >&2
# Under --icount the guest's clock runs ahead while it waits for the 9p root:
# each tool and its libraries are read once here, not in its attach time.
for t in "${TOOLS[@]}"; do
	"$BIN/$t" --version >/dev/null
done

# prog_counts: "id name run_cnt run_time_ns" of each loaded program that ran.
prog_counts() {
	"$BPFTOOL" -j prog show | jq -r '.[] | select((.run_cnt // 0) > 0) |
		"\(.id) \(.name) \(.run_cnt) \(.run_time_ns)"'
}

# stats CONFIG: each program's run_time_ns / run_cnt with
# kernel.bpf_stats_enabled on (the clock read around every program, so after
# the timings), named by what its link attaches to (vmlinux BTF ids): the
# kernel cuts program names to 15 characters. Over one pipe run, for every
# program CONFIG attached; then over BENCH_TICK_SECS (default 5; 0: no such
# pass) of two CPU hogs on CPU 0, in CONFIG's cgroup, for the tick hook's
# programs, named hogs:cfs_check_preempt_tick. pipe calls the tick hook only
# 80 to 480 times on 6.1, and its ns per call moved by 12 ns from boot to
# boot; the hogs call it about 1,000 times a second.
stats() {
	local h1 h2

	sysctl -q kernel.bpf_stats_enabled=1
	run_workload pipe >/dev/null
	prog_counts >"$TAP_TMP/pipe"
	if [ "${BENCH_TICK_SECS:-5}" != 0 ]; then
		in_bench_cgroup taskset -c 0 "$HOG" >/dev/null &
		h1=$!
		in_bench_cgroup taskset -c 0 "$HOG" >/dev/null &
		h2=$!
		sleep "${BENCH_TICK_SECS:-5}"
		kill "$h1" "$h2"
		wait "$h1" "$h2" 2>/dev/null
	fi
	prog_counts >"$TAP_TMP/hogs"
	sysctl -q kernel.bpf_stats_enabled=0
	"$BPFTOOL" -j link show | jq -r '.[] | "\(.prog_id) \(.target_btf_id // 0)"' \
		>"$TAP_TMP/links"
	awk -v c="$1" -v links="$TAP_TMP/links" -v names="$TAP_TMP/btf_names" \
		-v before="$TAP_TMP/before" -v pipe="$TAP_TMP/pipe" \
		-v tick="${BENCH_TICK_SECS:-5}" '
		BEGIN {
			while ((getline l < names) > 0) { split(l, f, " "); n[f[1]] = f[2] }
			while ((getline l < links) > 0) { split(l, f, " "); t[f[1]] = f[2] }
			while ((getline l < before) > 0) old[l] = 1
			while ((getline l < pipe) > 0) {
				split(l, f, " ")
				if (f[1] in old)
					continue
				# tp_btf links may not say (0): a tracepoint
				tgt[f[1]] = (f[1] in t && t[f[1]] in n) ? n[t[f[1]]] : "tracepoint"
				cnt[f[1]] = f[3]; ns[f[1]] = f[4]
				print "prog", c, tgt[f[1]], f[2], f[3], int(f[4] / f[3])
			}
		}
		# the hogs pass: the tick hook programs, less their pipe run
		tick != 0 && ($1 in tgt) && tgt[$1] == "bpf_sched_cfs_check_preempt_tick" &&
		$3 > cnt[$1] {
			print "prog", c, "hogs:cfs_check_preempt_tick", $2, $3 - cnt[$1],
				int(($4 - ns[$1]) / ($3 - cnt[$1]))
		}' "$TAP_TMP/hogs" >>"$BENCH_OUT"
}

[ "${BENCH_STATS:-1}" = 1 ] && "$BPFTOOL" btf dump file /sys/kernel/btf/vmlinux |
	sed -n "s/^\[\([0-9]*\)\] \(FUNC\|TYPEDEF\) '\([a-z_]*\)'.*/\1 \3/p" \
	>"$TAP_TMP/btf_names"
for c in "${CONFIGS[@]}"; do
	prog_ids >"$TAP_TMP/before"
	attach "$c"
	for w in "${WORKLOADS[@]}"; do
		for _ in $(seq "$WARMUP"); do
			run_workload "$w" >/dev/null
		done
		for r in $(seq "$ROUNDS"); do
			echo "$w $c $r $(run_workload "$w")" >>"$BENCH_OUT"
		done
	done
	[ "${BENCH_STATS:-1}" = 1 ] && [ "${c%/*}" != none ] && stats "$c"
	detach "$c"
	echo "bench: $c done" >&2
done


"$(dirname "$0")/report" "$BENCH_OUT"
