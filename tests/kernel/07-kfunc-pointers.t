#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Negative tests: the sched-entity kfuncs handed an entity that is not the
# hook's own, one per pointer class (safety.bpf.c). The verifier accepts
# them all; the kfuncs must answer "not a task" ((u64)-1, (u64)-1, 0) for
# every NULL-derived one, and the kernel must not oops or complain. Before
# the kfuncs read through fault-safe accessors, the first wakeup under
# kf_pi_top panicked the kernel (NULL pointer dereference at 0x100-ish,
# the offset of se in task_struct).
. "$(dirname "$0")/lib.sh"
require_sched_kernel
plan 15

out=$(mktemp)
# A CPU-bound task and one waking every millisecond on the same CPU: ticks
# with competition, and wakeups that CFS weighs against the running task.
spawn hog "$T/hog"
spawn waker "$T/waker" --seconds 600
sleep 0.5
log_mark

# run PROG: attach PROG for 2 s; its counters in $out.
run() {
	"$LOAD/safety" run 2 "$1" >"$out" 2>&1
	grep -q '^attached' "$out" || sed 's/^/# /' "$out" >&2
}

for prog in kf_pi_top kf_parent kf_my_q_curr; do
	run "$prog"
	diag "$prog: $(tr '\n' ' ' <"$out")"
	ok "$prog: loads, attaches and runs" [ "$(val "$out" kf_calls)" -gt 0 ]
	ok "$prog: the kfuncs saw the NULL-derived entity" \
		[ "$(val "$out" kf_null_calls)" -gt 0 ]
	ok "$prog: and answered 'not a task' every time" \
		[ "$(val "$out" kf_null_wrong)" -eq 0 ]
done

# p->last_wakee may be NULL, a live task or one freed since: any answer
# will do, as long as the kernel survives it.
run kf_last_wakee
diag "kf_last_wakee: $(tr '\n' ' ' <"$out")"
ok "kf_last_wakee: loads, attaches and runs" [ "$(val "$out" kf_calls)" -gt 0 ]

# The control: the hook's own entities are tasks the kfuncs recognise.
run kf_own
diag "kf_own: $(tr '\n' ' ' <"$out")"
ok "kf_own: the hook's own entities are found to be tasks" \
	[ "$(val "$out" kf_tasks_found)" -gt 0 ]
ok "kf_own: no NULL entity among them" [ "$(val "$out" kf_null_calls)" -eq 0 ]

ok "the kernel log stays clean (no oops, BUG, WARNING)" log_clean
ok "nothing is left attached" no_sched_prog
ok "the hog and the waker still run" kill -0 "$hog" "$waker"
rm -f "$out"
tap_status
