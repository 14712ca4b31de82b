#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# BPF_PROG_TEST_RUN on sched programs: each hook's program run once on
# tasks named by pid returns what its arguments call for, so the kernel
# passed the right ones (testrun.bpf.c says what each program returns);
# and the kernel refuses what a sched test run cannot mean. Deterministic:
# return values, no scheduling.
. "$(dirname "$0")/lib.sh"
require_sched_kernel

spawn other sleep 600
self=$$
# trun WANT HOOK CURR PID DELTA [FIELD]: what testrun printed
trun() { "$LOAD/testrun" "$@" 2>&1; }
# is EXPECTED DESCRIPTION WANT HOOK CURR PID DELTA [FIELD]
is() {
	local want=$1 desc=$2 got
	shift 2
	got=$(trun "$@")
	[ "$got" = "$want" ]
	tap_point $? "$desc: $got"
	[ "$got" = "$want" ] || diag "testrun $*"
}

# the tick hook: (curr's entity, delta_exec)
is retval=-1 "tick, delta_exec 5000: -1" 0 tick 0 0 5000
is retval=1 "tick, curr 0 is the caller, want's: 1" self tick 0 0 10
is retval=1 "tick, curr named by pid is want's: 1" "$other" tick "$other" 0 10
is retval=0 "tick, curr is not want's: 0" "$other" tick "$self" 0 10
# the wakeup hook: (curr, p)
is retval=1 "wakeup, p is want's: 1" "$other" wakeup "$self" "$other" 0
is retval=-1 "wakeup, curr is want's: -1" "$self" wakeup "$self" "$other" 0
is retval=0 "wakeup, neither: 0" 1 wakeup "$self" "$other" 0
is retval=-1 "wakeup, curr 0 is the caller, want's: -1" self wakeup 0 "$other" 0
# the entity hook: (curr's entity, p's entity)
is retval=1 "entity, se is want's: 1" "$other" entity "$self" "$other" 0
is retval=-1 "entity, curr is want's: -1" "$self" entity "$self" "$other" 0
is retval=0 "entity, neither: 0" 1 entity "$self" "$other" 0

# what the kernel refuses: EINVAL 22, ESRCH 3
is "error errno=22" "tick with a second task: EINVAL" 0 tick 0 "$other" 10
is "error errno=22" "wakeup without one: EINVAL" 0 wakeup 0 0 0
is "error errno=22" "wakeup with a delta_exec: EINVAL" 0 wakeup 0 "$other" 10
is "error errno=3" "a pid that names no task: ESRCH" 0 wakeup 0 4194304 0
is "error errno=3" "... as the running task too: ESRCH" 0 tick 4194304 0 10
for f in size repeat data ctx-out flags cpu; do
	is "error errno=22" "with $f: EINVAL" 0 tick 0 0 10 "$f"
done
ok "nothing is left loaded" no_sched_prog
done_testing
