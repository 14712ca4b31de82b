#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Negative tests: what the kernel refuses at load, link or map update time,
# one small program per hole (safety.bpf.c, and raw programs of two to
# four instructions built by safety.c), with the errno and, where the
# verifier speaks, its message; each beside an accepted control.
. "$(dirname "$0")/lib.sh"
require_sched_kernel

out=$(mktemp)
S=$LOAD/safety
log_mark

# refused DESC ERRNO [LOG-TEXT] -- SAFETY-ARGS...
refused() {
	local desc=$1 errno=$2 text=
	shift 2
	[ "$1" != -- ] && { text=$1; shift; }
	shift
	"$S" "$@" >"$out" 2>&1
	if ! grep -q "^refused errno=$errno " "$out"; then
		sed 's/^/# /' "$out" | tail -n 5 >&2
		tap_point 1 "$desc"
		return
	fi
	[ -z "$text" ] || grep -q "^log: .*$text" "$out" ||
		{ diag "no '$text' in the log"; tail -n 5 "$out" | sed 's/^/# /' >&2; tap_point 1 "$desc"; return; }
	tap_point 0 "$desc"
}

accepted() {
	local desc=$1
	shift
	"$S" "$@" >"$out" 2>&1
	grep -q '^loaded' "$out" || sed 's/^/# /' "$out" | tail -n 8 >&2
	grep -q '^loaded' "$out"
	tap_point $? "$desc"
}

# Return values: the hooks take -1, 0 and 1, as an int (low 32 bits) that
# reads the same as a u64.
msg='sched programs must return -1, 0 or 1'
for v in 0 1 -1 w32:-1 'random&1' '(random&1)-1'; do
	accepted "return $v: loaded" ret "$v"
done
for v in 2 -2 '1<<32' random; do
	refused "return $v: refused with EINVAL" 22 "$msg" -- ret "$v"
done

# The context is the hook's arguments, and nothing after them: the hook
# runs its programs itself (patch 7), with no trampoline to keep a slot for
# the result of the programs run before, as an fmod_ret program has.
accepted "reading the tick's delta_exec (ctx[1]): loaded" ctx 1
refused "reading past the hook's arguments (ctx[2]): refused with EACCES" 13 \
	"invalid bpf_context access" -- ctx 2
# ... and read only: a program that overwrote an argument would read it
# back, or the program run after it would, as a trusted pointer to
# whatever it wrote. (The hooks' argument array has no stack protector.)
for n in 0 1; do
	refused "writing the context (ctx[$n] = 0): refused with EACCES" 13 \
		"invalid bpf_context access" -- ctx-write "$n"
done

# The attach type is BPF_SCHED and the target a hook, or the load fails:
# other attach types take the verifier down paths that skip the GPL and
# hook-set checks. UAPI values: 0 cgroup ingress, 23 raw tp, 24 fentry,
# 26 fmod_ret, 27 lsm, 28 iter.
for at in 0 23 24 26 27 28; do
	refused "expected_attach_type $at: refused with EINVAL" 22 -- attach-type "$at"
done
refused "no attach_btf_id: refused with EINVAL" 22 -- attach-type none
refused "a non-GPL program as a raw tracepoint: refused" 22 -- attach-type nongpl-rawtp
refused "BPF_F_SLEEPABLE: refused (hooks run under the runqueue lock)" 22 \
	"can be sleepable" -- attach-type sleepable

# BPF_LINK_CREATE: the hook was chosen at load; nothing else to give.
accepted "link_create with no target: linked" link none
for f in target_fd target_btf_id cookie flags; do
	refused "link_create with $f: refused with EINVAL" 22 -- link "$f"
done

# What one call may cost is bounded when it loads: no tail calls (a chain
# of programs would cost more than the verifier counted for one), no
# global functions (verified once for any number of calls), no callbacks,
# and at most 65536 instructions processed.
nohelper='\(unknown func\|program of this type cannot use helper\)'
refused "a tail call: refused (its prog array first)" 22 \
	"sched programs cannot use map jmp: type 3 not allowed" -- load tc_tick
refused "a global function: refused" 22 "sched programs cannot have global functions" -- \
	load global_func
accepted "... the same function static: loaded" load static_func
refused "a loop of 20000 steps: refused with E2BIG" 7 \
	"sched programs may process at most 65536 instructions" -- load bad_long_loop
accepted "... of 1000 steps: loaded" load ok_short_loop
refused "bpf_loop: refused" 22 "$nohelper bpf_loop" -- load uses_loop
refused "bpf_for_each_map_elem: refused" 22 "$nohelper bpf_for_each_map_elem" -- \
	load uses_for_each

# The programs that harmed the kernel while sched programs had the base
# helpers: a NULL task walked to and handed to a helper (an oops under the
# runqueue lock), an update that allocates (the allocator may wake kswapd,
# a wakeup on the lock the hook holds), faulting reads that each clear
# what they were asked to read (a 30 s stall in a loop). The helper and the
# map are off the allowlist, and the verifier names them; a read is
# bounded.
refused "bpf_task_pt_regs(p->pi_top_task): refused" 22 "$nohelper bpf_task_pt_regs" -- \
	load bad_task_helper
refused "an LPM trie (its update allocates): refused" 22 \
	"sched programs cannot use map trie: type 11 not allowed" -- load bad_alloc
refused "bpf_probe_read_kernel of 4096 bytes: refused" 22 \
	"sched programs may read at most 1024 bytes at a time, not 4096" -- load bad_long_read
accepted "... of 256 bytes, a faulting read among them: loaded" load ok_read
refused "bpf_trace_printk (the console's unlock wakes waiters): refused" 22 \
	"$nohelper bpf_trace_printk" -- load bad_printk
refused "a hash map with BPF_F_NO_PREALLOC: refused" 22 \
	"sched programs cannot use map dyn_hash: not preallocated" -- load bad_noprealloc
refused "an update of a 2048-byte value: refused" 22 \
	"sched programs cannot update map bigs: value over 1024 bytes" -- load bad_big_update
accepted "... of a 1024-byte value: loaded" load ok_update
refused "a map holding a bpf_timer: refused" 22 \
	"sched programs cannot use map timers: \(bpf_timer\|timer, wq\) or kptr in value" -- \
	load uses_timer_map
accepted "bpf_spin_lock: allowed (a short section that calls nothing)" load uses_spin_lock

# What 6.12 added that loops or waits: may_goto (an unknown opcode on
# 6.1), a bpf_wq in a map value, open-coded iterators (the programs exist
# in the 6.12 series' build of safety only).
refused "may_goto: refused" 22 \
	'\(unknown opcode e5\|sched programs cannot use may_goto\)' -- may-goto
if grep -qw bpf_iter_num_new /proc/kallsyms; then
	refused "a map holding a bpf_wq: refused" 22 \
		"sched programs cannot use map wqs: timer, wq or kptr in value" -- load uses_wq_map
	refused "an open-coded iterator (bpf_iter_num_new, a kfunc for every type): refused" 13 \
		"calling kernel function bpf_iter_num_new is not allowed" -- load uses_iter
else
	skip "bpf_wq: this kernel has none"
	skip "open-coded iterators: this kernel has none"
fi

# The earlier checks still hold.
"$LOAD/schedtest" --reject-nongpl >"$out" 2>&1
ok "a non-GPL sched program is refused" [ $? -eq 0 ]
"$LOAD/schedtest" --reject-target schedule >"$out" 2>&1
ok "schedule() is refused as a target" [ $? -eq 0 ]
ok "the kernel log stays clean" log_clean
ok "nothing is left loaded" no_sched_prog
rm -f "$out"
done_testing
