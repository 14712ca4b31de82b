#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The JSON lines' keys are a contract (tools/lib/report.h): exactly these,
# with these types. The lines come from the library's own printers.
. "$(dirname "$0")/../tap.sh"

# the counters' keys, in enum order, from their one list (SCHEDBPF_STATS)
STATS=$(sed -n 's/^\tX([A-Z_]*, \([a-z_]*\), .*/"\1"/p' "$ROOT/include/schedbpf.h" | paste -sd, -)
[ "$(printf '%s\n' "$STATS" | awk -F, '{ print NF }')" -ge 17 ] && printf '%s' "$STATS" | grep -q '^"tick_calls",'
ok $? "the counters' keys from include/schedbpf.h: $STATS"
HEAD='"type","tool","time","elapsed_s","dry_run"'

"$ROOT/build/unit/lib" --json-sample >"$TAP_TMP/sample"
ok $? "sample lines printed"
[ "$(wc -l <"$TAP_TMP/sample")" -eq 3 ]
ok $? "one object per line"

line() { sed -n "${1}p" "$TAP_TMP/sample"; }

line 1 | jq -e "keys_unsorted == [$HEAD,$STATS]" >/dev/null
ok $? "interval: exactly the documented keys, in order"
line 1 | jq -e '.type == "interval" and .tool == "no-preempt" and
	(.time | test("^[0-9]{2}:[0-9]{2}:[0-9]{2}$")) and
	(.elapsed_s | type == "number") and .dry_run == true' >/dev/null
ok $? "interval: head values and types"
line 1 | jq -e "[.[$STATS]] | all(type == \"number\")" >/dev/null
ok $? "interval: every counter is a number"
line 1 | jq -e '.tick_calls == 100 and .wakeups == 116' >/dev/null
ok $? "interval: counters in enum order"

line 2 | jq -e "keys_unsorted == [$HEAD,$STATS,\"latency_us\",\"status\"]" \
	>/dev/null
ok $? "summary: the documented keys, in order"
line 2 | jq -e '.latency_us | keys_unsorted == ["count","p50","p90","p99","hist"]' \
	>/dev/null
ok $? "summary: latency_us keys"
line 2 | jq -e '.latency_us.hist | length == 27 and all(type == "number")' \
	>/dev/null
ok $? "summary: hist has 27 log2 slots"
line 2 | jq -e '.latency_us.count == 5 and .latency_us.p50 == 7 and
	.latency_us.p99 == 7 and .status == 7 and .dry_run == false' >/dev/null
ok $? "summary: count from hist, percentiles as bucket bounds, status"
line 3 | jq -e '.latency_us.p50 == null and .latency_us.count == 0 and
	.status == null' >/dev/null
ok $? "summary without samples or command: nulls"

# every key is documented where users look for it
for key in $(echo "$HEAD,$STATS,\"latency_us\",\"status\"" | tr -d '"\n' | tr , ' '); do
	grep -q "\"$key\"" "$ROOT/tools/lib/report.h"
	ok $? "report.h documents \"$key\""
done

done_testing
