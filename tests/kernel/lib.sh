# SPDX-License-Identifier: GPL-2.0-only
# tests/kernel/lib.sh - workload plumbing for the tests that
# run inside the VM (kernel/vm-run) on the Scheduler BPF kernel.

. "$(dirname "${BASH_SOURCE[0]}")/../tap.sh"

top=$ROOT
T=$top/build/tests
# the running kernel's build (build/kernel, build/kernel-6.12): its
# bpftool, vmlinux
kbuild=$(kernel_build_dir)
BPFTOOL=$kbuild/bpftool
# the loaders schedtest and safety, built against that series' libbpf
# (tests/kernel/build.mk): build/tests/ for 6.1, build/tests/kernel-6.12/
LOAD=$(kernel_tests_dir)
CPU=1		# the workloads' CPU; the test scripts run on the other
pids=()

# ok DESCRIPTION COMMAND...: here a test point runs its command, one
# command: in `ok D [ a ] && [ b ]` the point is [ a ] alone. For two
# conditions: `[ a ] && [ b ]; tap_point $? D`.
ok() {
	local desc=$1

	shift
	"$@"
	tap_point $? "$desc"
}

bail() { echo "Bail out! $*"; exit 1; }

cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	wait 2>/dev/null
	pids=()
	rm -rf "$TAP_TMP"
}
trap cleanup EXIT

require_sched_kernel() {
	[ "$(id -u)" -eq 0 ] || bail "must run as root (under kernel/vm-run)"
	[ -x "$LOAD/schedtest" ] ||
		bail "$LOAD/schedtest missing: run 'make kernel-tests KERNEL=$(uname -r | cut -d. -f1,2)'"
	grep -q bpf_sched_cfs_check_preempt_tick /proc/kallsyms ||
		bail "not the Scheduler BPF kernel: run under kernel/vm-run"
	[ "$(nproc)" -ge 2 ] || bail "needs 2 CPUs"
}

# spawn VAR CMD...: start CMD pinned to $CPU in the background, its pid in VAR.
spawn() {
	local var=$1
	shift
	taskset -c "$CPU" "$@" >/dev/null 2>&1 &
	pids+=($!)
	printf -v "$var" %s $!
}

# spawn_in CGROUP VAR CMD...: likewise, inside CGROUP from its first
# instruction.
spawn_in() {
	local cg=$1 var=$2
	shift 2
	sh -c 'cpu=$1; shift; echo $$ >"$0/cgroup.procs" && exec taskset -c "$cpu" "$@"' \
		"$cg" "$CPU" "$@" >/dev/null 2>&1 &
	pids+=($!)
	printf -v "$var" %s $!
}

nvcsw() { awk '/^nonvoluntary_ctxt_switches/ { print $2 }' "/proc/$1/status"; }

# attach OUT ARGS...: run schedtest ARGS in the background, output in OUT,
# and wait until its programs are attached.
attach() {
	local out=$1 i
	shift
	"$LOAD/schedtest" "$@" >"$out" 2>&1 &
	st_pid=$!
	for i in $(seq 300); do
		grep -q '^attached' "$out" && return 0
		kill -0 "$st_pid" 2>/dev/null || break
		sleep 0.1
	done
	diag "schedtest $* did not attach:"
	sed 's/^/# /' "$out"
	return 1
}

# detach: stop the schedtest started by attach and wait for its report.
detach() {
	kill -TERM "$st_pid" 2>/dev/null
	wait "$st_pid"
}

# log_mark, then log_clean: the kernel log has no splat since the mark
# (kernel/log-problems: what kernel/vm-run checks the whole log for).
log_mark() { log_since=$(dmesg | wc -l); }
log_clean() {
	local new
	new=$(dmesg | tail -n +"$((${log_since:-0} + 1))" |
		grep -E -f "$top/kernel/log-problems")
	[ -z "$new" ] && return 0
	diag "kernel log:" "$new"
	return 1
}

# no_sched_prog: no sched program is loaded, within 10 s (the last
# reference to one may go a moment after its loader exits).
no_sched_prog() {
	for _ in $(seq 100); do
		"$BPFTOOL" prog show | grep -qE '^[0-9]+: sched ' || return 0
		sleep 0.1
	done
	return 1
}

# bounded HOOK: the kernel's overrides of HOOK's programs so far (10-bound.t)
bounded() { awk -v h="$1" '$1 == h { print $2 }' /sys/kernel/debug/sched/bpf_bounded; }

# val OUT KEY: a key=value from schedtest's report.
val() { sed -n "s/^$2=//p" "$1" | head -n 1; }
