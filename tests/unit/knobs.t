#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The knob helpers of the VM tests on either kernel, against fake debugfs
# and build folders: tune_throughput/tune_restore and knobs on CFS's knobs
# (6.1) and EEVDF's (6.12), and kernel_build_dir's choice of bpftool.
. "$(dirname "$0")/../tools/lib.sh"

# fake_debugfs DIR FILE=VALUE...: a sched debugfs folder with those knobs.
fake_debugfs() {
	local dir=$1 kv

	shift
	mkdir -p "$dir"
	for kv in "$@"; do
		echo "${kv#*=}" >"$dir/${kv%%=*}"
	done
}
val() { cat "$SCHED_DEBUG/$1"; }

SCHED_DEBUG=$TAP_TMP/cfs
fake_debugfs "$SCHED_DEBUG" min_granularity_ns=1500000 \
	wakeup_granularity_ns=2000000 latency_ns=12000000
out=$(knobs)
[ "$out" = "min_granularity 1500 us, wakeup_granularity 2000 us" ]
ok $? "CFS: knobs prints both granularities ($out)"
tune_throughput
tune_throughput
[ "$(val min_granularity_ns)" = 10000000 ] &&
	[ "$(val wakeup_granularity_ns)" = 15000000 ]
ok $? "CFS: throughput sets 10 ms and 15 ms ($(knobs))"
tune_restore
[ "$(val min_granularity_ns)" = 1500000 ] &&
	[ "$(val wakeup_granularity_ns)" = 2000000 ] &&
	[ "$(val latency_ns)" = 12000000 ]
ok $? "CFS: restored after tuning twice ($(knobs))"

SCHED_DEBUG=$TAP_TMP/eevdf
fake_debugfs "$SCHED_DEBUG" base_slice_ns=1400000
out=$(knobs)
[ "$out" = "base_slice 1400 us" ]
ok $? "EEVDF: knobs prints base_slice ($out)"
use_profile throughput
[ "$(val base_slice_ns)" = 10000000 ] && [ "$PROFILE" = throughput ] &&
	[ "$(ls "$SCHED_DEBUG")" = base_slice_ns ]
ok $? "EEVDF: use_profile throughput sets base_slice 10 ms, nothing else ($(knobs))"
use_profile default
[ "$(val base_slice_ns)" = 1400000 ]
ok $? "EEVDF: use_profile default restores it ($(knobs))"

# kernel_build_dir under a fake uname and build folder
mkdir -p "$TAP_TMP/bin" "$TAP_TMP/root/build/kernel" "$TAP_TMP/root/build/kernel-6.12"
build_for() {
	printf '#!/bin/sh\necho %s\n' "$1" >"$TAP_TMP/bin/uname"
	chmod +x "$TAP_TMP/bin/uname"
	PATH=$TAP_TMP/bin:$PATH ROOT=$TAP_TMP/root kernel_build_dir
}
r=$TAP_TMP/root/build
[ "$(build_for 6.1.192)" = "$r/kernel" ]
ok $? "6.1.192: build/kernel"
[ "$(build_for 6.12.118-schedbpf)" = "$r/kernel-6.12" ]
ok $? "6.12.118-schedbpf: build/kernel-6.12"
[ "$(build_for 6.18.44)" = "$r/kernel" ]
ok $? "6.18.44, no build/kernel-6.18: build/kernel"

done_testing
