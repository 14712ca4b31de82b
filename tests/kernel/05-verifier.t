#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The verifier refuses a sched program that is not GPL compatible and one
# whose attach target is not in the hook set, with the series' messages.
. "$(dirname "$0")/lib.sh"
require_sched_kernel
plan 6

out=$(mktemp)
"$LOAD/schedtest" --reject-nongpl >"$out" 2>&1
ok "a non-GPL program is refused" [ $? -eq 0 ]
ok "... with the GPL message" grep -q "sched programs must have a GPL compatible license" "$out"

"$LOAD/schedtest" --reject-target bpf_sched_entity_to_tgidpid >"$out" 2>&1
ok "a bpf_sched_ function outside the hook set is refused" [ $? -eq 0 ]
ok "... with the hook-set message" \
	grep -q "points to wrong type name bpf_sched_entity_to_tgidpid" "$out"

"$LOAD/schedtest" --reject-target schedule >"$out" 2>&1
ok "schedule() is refused as a target" [ $? -eq 0 ]
ok "... with the hook-set message" grep -q "points to wrong type name schedule" "$out"
rm -f "$out"
tap_status
