#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What one call of the costliest sched program the verifier accepts takes:
# safety.bpf.c's worst_read (7200 faulting 1 KiB bpf_probe_read_kernel()s,
# within the 65536 instructions a sched program may have processed) on the
# tick hook of a CPU with two hogs, beside a no-op tick program as the
# baseline, both timed by kernel.bpf_stats_enabled (run_time_ns / run_cnt,
# guest nanoseconds). Numbers, not a test. In the VM, with 2 vCPUs (the
# hogs' CPU and one for the loader), so under plain TCG, not --icount:
#   kernel/vm-run -- bench/worst-call.sh
. "$(dirname "$0")/../tests/kernel/lib.sh"
require_sched_kernel 2>/dev/null || { echo "worst-call: needs the sched kernel, 2 CPUs: kernel/vm-run -- $0" >&2; exit 1; }
SECS=${SECS:-3}

spawn a "$T/hog"
spawn b "$T/hog"
stats=$(cat /proc/sys/kernel/bpf_stats_enabled)
echo 1 >/proc/sys/kernel/bpf_stats_enabled
# time PROG: the program attached for SECS, then its calls and mean ns per call
time_prog() {
	"$LOAD/safety" run $((SECS + 30)) "$1" >"$TAP_TMP/loader" &
	local loader=$! line=
	for _ in $(seq 300); do
		grep -q '^attached' "$TAP_TMP/loader" && break
		sleep 0.1
	done
	sleep "$SECS"
	line=$("$BPFTOOL" prog show -j | jq -r --arg n "$1" \
		'.[] | select(.name == $n) | "\(.run_cnt) \(.run_time_ns)"')
	kill "$loader"
	wait "$loader"
	local calls=${line% *} ns=${line#* }
	calls=${calls:-0} ns=${ns:-0}
	printf '%-12s calls %8s  mean %10s ns  (%s ns in all)\n' "$1" "$calls" \
		"$((calls > 0 ? ns / calls : 0))" "$ns"
}
echo "worst-call: $(uname -r), $(nproc) CPUs, $SECS s each, the tick hook of CPU $CPU"
time_prog static_func
time_prog worst_read
echo "$stats" >/proc/sys/kernel/bpf_stats_enabled
