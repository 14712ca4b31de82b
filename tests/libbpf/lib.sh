# SPDX-License-Identifier: GPL-2.0-only
# Shared by tests/libbpf/*.t (bash). Sourced, not run: prove only picks
# up *.t files.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=$top/build/tests/libbpf/sched_skel

tap_n=0
tap_failed=0

ok() { # ok COND-STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

todo() { # todo COND-STATUS DESCRIPTION REASON: counted, never fails the run
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2 # TODO $3"
	else
		echo "not ok $tap_n - $2 # TODO $3"
	fi
}

diag() {
	sed 's/^/# /' <<<"$*" >&2
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
	exit
}

# skip_all REASON: skip the whole file, or bail out where the caller
# demands the hooks (SCHEDBPF_REQUIRE_HOOKS=1, e.g. in the schedbpf VM)
skip_all() {
	if [ "${SCHEDBPF_REQUIRE_HOOKS:-}" = 1 ]; then
		echo "Bail out! $1"
		exit 1
	fi
	echo "1..0 # SKIP $1"
	exit 0
}

kernel_has_hooks() {
	[ -r /sys/kernel/btf/vmlinux ] &&
		grep -qa bpf_sched_cfs_check_preempt_tick /sys/kernel/btf/vmlinux
}

# Build the test program if it is missing (on the host; the VM runs what
# the host built).
need_bin() {
	if [ ! -x "$bin" ]; then
		make -s -C "$top/tests/libbpf" >&2 || {
			echo "Bail out! cannot build $bin (make -C tests/libbpf)"
			exit 1
		}
	fi
}
