#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A schedbpf tool works with either libbpf: built by the top-level
# Makefile against Debian's shared libbpf (build/bin/no-preempt, whose
# loader gen-loader recorded with only its own registration knowing
# sched/), and built by tests/libbpf/Makefile against the patched static
# libbpf (build/tests/libbpf/tools/bin/no-preempt, where libbpf knows
# sched/ too and gen-loader's handler takes precedence). Each wraps the
# same workload, two spinners sharing a CPU, and must attach, see its
# targets at the tick, and exit with the workload's status.
. "$(dirname "$0")/lib.sh"

kernel_has_sched_bpf ||
	skip_all "kernel has no scheduler BPF hooks (run: kernel/vm-run -- prove tests/libbpf)"

debian=$top/build/bin/no-preempt
patched=$top/build/tests/libbpf/tools/bin/no-preempt
if [ ! -x "$debian" ]; then
	make -s -C "$top" all >&2 ||
		{ echo "Bail out! cannot build $debian (make all)"; exit 1; }
fi
if [ ! -x "$patched" ]; then
	make -s -C "$top/tests/libbpf" tools >&2 ||
		{ echo "Bail out! cannot build $patched (make -C tests/libbpf tools)"; exit 1; }
fi

ldd "$debian" | grep -q 'libbpf\.so\.1 => /'
ok $? "build/bin/no-preempt uses Debian's shared libbpf"
! ldd "$patched" | grep -q libbpf
ok $? "build/tests/libbpf/tools/bin/no-preempt has the patched libbpf built in"

cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[,-].*//')
# two spinners on one CPU for 2 s; exits 0
workload="timeout 2 taskset -c $cpu sh -c '(while :; do :; done) & while :; do :; done'; exit 0"

for tool in "$debian" "$patched"; do
	name=${tool#"$top"/}
	out=$("$tool" --json --interval 10s -- sh -c "$workload" 2>&1)
	rc=$?
	ok $rc "$name wraps the workload and exits 0"
	[ $rc -eq 0 ] || diag "$out"

	summary=$(grep '"type":"summary"' <<<"$out")
	calls=$(sed -n 's/.*"tick_calls":\([0-9]*\).*/\1/p' <<<"$summary")
	targets=$(sed -n 's/.*"tick_targets":\([0-9]*\).*/\1/p' <<<"$summary")
	[ "${calls:-0}" -gt 0 ] && [ "${targets:-0}" -gt 0 ]
	r=$?
	ok $r "$name: its tick hook ran on its targets (tick_calls ${calls:-none}, tick_targets ${targets:-none})"
	[ $r -eq 0 ] || diag "$out"
done

done_testing
