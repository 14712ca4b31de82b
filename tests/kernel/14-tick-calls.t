#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Where the tick hook is asked: at the tick and where the fair class ends a
# slice, not at every wakeup. A pair of tasks that keep waking each other
# on one CPU (pingpong) makes the kernel update the running task's runtime
# at each enqueue and dequeue, several times per wakeup. On CFS (6.1) the
# hook runs only from the tick; on EEVDF (6.12) it sits in update_curr(),
# which asks it only when called from the tick or when EEVDF is about to
# reschedule. Asked at every update, it would run about twice per wakeup,
# which is what the series did before, and cost a program run each time.
. "$(dirname "$0")/lib.sh"
require_sched_kernel
plan 2

out=$(mktemp)
loc() { awk -v c="CPU$CPU" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) col = i + 1 }
	$1 == "LOC:" { print $col }' /proc/interrupts; }

attach "$out" --tick 0 --wakeup 0 || bail "schedtest did not attach"
l0=$(loc)
timeout -k 5 30 taskset -c "$CPU" "$T/pingpong" --seconds 3 >"$TAP_TMP/pp" 2>&1
l1=$(loc)
detach
ticks=$((l1 - l0))
calls_tick=$(val "$out" calls_tick) calls_wakeup=$(val "$out" calls_wakeup)
diag "3 s of pingpong: $(cat "$TAP_TMP/pp"); wakeup hook $calls_wakeup calls," \
	"tick hook $calls_tick calls; local timer interrupts on CPU $CPU: $ticks"
ok "the pair woke each other often enough to tell (>3000 wakeup hook calls)" \
	[ "${calls_wakeup:-0}" -gt 3000 ]
ok "the tick hook ran less than once per two wakeups" \
	[ $((2 * ${calls_tick:-1000000})) -lt "${calls_wakeup:-0}" ]
rm -f "$out"
tap_status
