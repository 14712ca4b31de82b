#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The kill switch: writing 1 to kernel.sched_bpf_detach_all stops every
# sched program at once, whoever attached it; the links stay, empty, until
# their owners close them, as after BPF_LINK_DETACH (bpftool link detach),
# which a sched link accepts too. Deterministic: whether the programs run
# is read from their run counts (kernel.bpf_stats_enabled), under two hogs
# that keep the tick hook called a thousand times a second.
. "$(dirname "$0")/lib.sh"
require_sched_kernel
log_mark
no_sched_prog || bail "a sched program is attached already"
KNOB=/proc/sys/kernel/sched_bpf_detach_all

[ -w "$KNOB" ] && [ "$(cat "$KNOB")" = 0 ]
ok "kernel.sched_bpf_detach_all exists and reads 0" [ $? -eq 0 ]

spawn a "$T/hog"
spawn b "$T/hog"
stats=$(cat /proc/sys/kernel/bpf_stats_enabled)
echo 1 >/proc/sys/kernel/bpf_stats_enabled

# runs: the sched programs' run counts added up
runs() { "$BPFTOOL" prog show -j | jq '[.[] | select(.type == "sched") | .run_cnt // 0] | add // 0'; }
# attach: no-preempt --dry-run on everything, for 120 s, in the background,
# and its programs running within 20 s (a start-up takes 1-3 s on a loaded
# host)
attach() {
	"$BIN/no-preempt" --dry-run --all --observe=none -q --duration 120s >/dev/null 2>&1 &
	tool=$!
	for _ in $(seq 200); do
		[ "$(runs)" -gt 0 ] && return 0
		sleep 0.1
	done
	return 1
}

attach
ok "a tool's programs attached and running" [ $? -eq 0 ]
echo 1 >"$KNOB"
ok "writing 1 succeeds" [ $? -eq 0 ]
r1=$(runs)
sleep 1
r2=$(runs)
ok "its programs no longer run ($r1 runs, then $r2 a second later)" [ "$r1" = "$r2" ]
ok "... their links are still open" [ "$("$BPFTOOL" link show | grep -c 'tracing')" -ge 3 ]
ok "... and the tool has not noticed (it is still running)" kill -0 "$tool"
dmesg | tail -n 20 | grep -q 'sched_bpf: detached 3 programs'
ok "the kernel log says how many were detached" [ $? -eq 0 ]
kill -INT "$tool"
wait "$tool"
ok "the tool exits 0 when stopped ($?)" [ $? -eq 0 ]
ok "nothing is left loaded" no_sched_prog

attach
ok "a program attached afterwards runs" [ $? -eq 0 ]
progs=$("$BPFTOOL" prog show -j | jq -c '[.[] | select(.type == "sched") | .id]')
for id in $("$BPFTOOL" link show -j | jq -r --argjson p "$progs" \
	'.[] | select(.prog_id as $i | $p | index($i)) | .id'); do
	"$BPFTOOL" link detach id "$id" 2>/dev/null
done
r1=$(runs)
sleep 1
r2=$(runs)
ok "bpftool link detach stops it too ($r1 runs, then $r2)" [ "$r1" = "$r2" ]
kill -INT "$tool"
wait "$tool"
ok "nothing is left loaded" no_sched_prog

echo "$stats" >/proc/sys/kernel/bpf_stats_enabled
ok "the kernel log stays clean" log_clean
done_testing
