#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Free when idle: with no sched program attached, every call of a hook in
# fair.c sits behind a jump of bpf_sched_enabled_key that the running kernel
# has patched out to a NOP, so an idle scheduler pays one NOP per site.
# Attaching a program turns every site into a jump to its hook call, and
# detaching the last one turns them back into NOPs.
#
# jump-sites reads the running series' vmlinux ($kbuild/vmlinux: the key's
# __jump_table entries, and every e8 call of a hook in .text) and the
# running kernel's bytes at each site from /proc/kcore, after checking
# with /proc/kallsyms that the two are the same build.
. "$(dirname "$0")/lib.sh"
require_sched_kernel
plan 13

KEY=bpf_sched_enabled_key
HOOKS=(bpf_sched_cfs_check_preempt_tick bpf_sched_cfs_check_preempt_wakeup
	bpf_sched_cfs_wakeup_preempt_entity)
VMLINUX=$kbuild/vmlinux
out=$TAP_TMP/schedtest
command -v python3 >/dev/null || bail "python3 missing"
[ -r "$VMLINUX" ] || bail "$VMLINUX missing: run 'make kernel'"
no_sched_prog || bail "a sched program is attached already"

# sites FILE: jump-sites' report into FILE.
sites() { "$(dirname "$0")/jump-sites" "$VMLINUX" "$KEY" "${HOOKS[@]}" >"$1"; }
# states FILE: the distinct states of the key's sites, e.g. "nop".
states() { awk '$1 == "entry" { print $5 }' "$1" | sort -u | xargs; }
# wait_states WANT FILE: the sites reach state WANT within 10 s (a link's
# release, which turns the key off, may come a moment after its fd is gone).
wait_states() {
	for _ in $(seq 50); do
		sites "$2" || return 1
		[ "$(states "$2")" = "$1" ] && return 0
		sleep 0.2
	done
	return 1
}

ok "jump-sites reads vmlinux and the running kernel" sites "$TAP_TMP/idle"
diag "$(sed 's/^/  /' "$TAP_TMP/idle")"
n_entries=$(grep -c '^entry' "$TAP_TMP/idle")
n_calls=$(grep -c '^call' "$TAP_TMP/idle")
ok "$KEY has jump entries ($n_entries)" [ "$n_entries" -gt 0 ]
for h in "${HOOKS[@]}"; do
	ok "$h is called from .text" grep -q "^call [0-9a-f]* $h " "$TAP_TMP/idle"
done
ok "every hook call is behind a jump entry of $KEY" \
	bash -c "! grep -q '^call .* -\$' '$TAP_TMP/idle'"
# one_each: every entry of the key guards exactly one hook call: no other
# user of the key, and no call counted under two entries
one_each() {
	local f=$TAP_TMP/idle

	[ -z "$(awk '$1 == "call" { print $5 }' "$f" | sort | uniq -d)" ] &&
		[ "$(awk '$1 == "call" { print $5 }' "$f" | sort -u | wc -l)" = "$n_entries" ]
}
ok "every jump entry of $KEY guards exactly one hook call ($n_calls calls)" one_each
# in_checks: each hook is called from the function of fair.c that asks it,
# or from a caller it is inlined into. CFS (6.1): check_preempt_tick into
# entity_tick into task_tick_fair; wakeup_preempt_entity into
# pick_next_entity. EEVDF (6.12): the tick hook in __update_curr() (out of
# line in the series' kernel; another compiler may inline it into
# update_curr() and entity_tick()), the wakeup hook in check_preempt_wakeup_fair(), the entity hook in
# pick_eevdf() (kernel/README.md, "Hook mapping on EEVDF").
in_checks() {
	awk '$1 == "call" { f = $4; sub(/\+.*/, "", f); print $3, f }' "$TAP_TMP/idle" |
		while read -r hook func; do
			case $hook:$func in
			*_check_preempt_tick:check_preempt_tick) ;;
			*_check_preempt_tick:entity_tick) ;;
			*_check_preempt_tick:task_tick_fair) ;;
			*_check_preempt_wakeup:check_preempt_wakeup) ;;
			*_wakeup_preempt_entity:wakeup_preempt_entity) ;;
			*_wakeup_preempt_entity:pick_next_entity) ;;
			*_wakeup_preempt_entity:check_preempt_wakeup) ;;
			*_check_preempt_tick:update_curr) ;;
			*_check_preempt_tick:__update_curr) ;;
			*_check_preempt_wakeup:check_preempt_wakeup_fair) ;;
			*_wakeup_preempt_entity:pick_eevdf) ;;
			*) diag "$hook called from $func"; return 1 ;;
			esac
		done
}
ok "each hook is called from its preemption check in fair.c" in_checks
ok "nothing attached: every site is a NOP" [ "$(states "$TAP_TMP/idle")" = nop ]

log_mark
attach "$out" --no-stats --tick 0 || bail "schedtest did not attach"
wait_states jmp "$TAP_TMP/one"
ok "one program attached (the tick hook): every site is a jump to its call" \
	[ "$(states "$TAP_TMP/one")" = jmp ]
# a second program: the key counts up, and the first detach keeps it on
"$LOAD/schedtest" --no-stats --wakeup 0 --entity 0 >"$TAP_TMP/second" 2>&1 &
second=$!
for _ in $(seq 300); do
	grep -q '^attached' "$TAP_TMP/second" && break
	sleep 0.1
done
detach
sleep 1
wait_states jmp "$TAP_TMP/still"
ok "one of two loaders detached: still jumps" [ "$(states "$TAP_TMP/still")" = jmp ]
kill -TERM "$second"
wait "$second"
wait_states nop "$TAP_TMP/after"
ok "all detached: every site is a NOP again" [ "$(states "$TAP_TMP/after")" = nop ]
ok "no kernel splat" log_clean
tap_status
