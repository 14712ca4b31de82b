# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the tools' tests in the VM (kernel/vm-run), on top of the
# host tests' TAP helpers.
. "$(dirname "$0")/../unit/tap.sh"

BPFTOOL=${BPFTOOL:-$ROOT/build/kernel/bpftool}
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

# new_cgroup NAME: creates $CGROOT/NAME, removed at exit.
new_cgroup() {
	mkdir -p "$CGROOT/$1"
	TEST_CGS="$TEST_CGS $CGROOT/$1"
}

cleanup_tools() {
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

# Number of loaded sched programs, and of our tp_btf observers.
sched_progs() {
	"$BPFTOOL" -j prog show | jq '[.[] | select(.type == "sched")] | length'
}
observer_progs() {
	"$BPFTOOL" -j prog show |
		jq '[.[] | select(.name == "observe_switch" or .name == "track_fork")] | length'
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

# A task's nonvoluntary_ctxt_switches, and CPU time in clock ticks.
nivcsw() { awk '/^nonvoluntary_ctxt_switches/ { print $2 }' "/proc/$1/status"; }
cputicks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
