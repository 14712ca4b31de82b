#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# no-preempt's own option, --max-run, on this host.
. "$(dirname "$0")/../tap.sh"

tool=$BIN/no-preempt

run "$tool" --help
printf '%s\n' "$OUT" | grep -q -- "-m, --max-run=DURATION"
ok $? "--help documents -m, --max-run=DURATION"
printf '%s\n' "$OUT" | tr '\n' ' ' | grep -q "default 100ms).*SCHED_RR.s default time *slice"
ok $? "--help gives the default and why"
printf '%s\n' "$OUT" | grep -q "^EXAMPLES:"
ok $? "--help has EXAMPLES"

for arg in 1ms 10s 100ms 2.5ms 0.5s 1000us 10000000000ns; do
	if kernel_has_sched_bpf; then
		skip "--max-run $arg: this kernel has the hooks"
		continue
	fi
	run "$tool" -a --max-run "$arg"
	one_line_error 1 no-preempt "has no scheduler BPF"
	ok $? "--max-run $arg accepted"
done
run "$tool" -a --max-run=20ms -n
[ $STATUS -ne 2 ]
ok $? "--max-run=20ms accepted"
run "$tool" -a -m 20ms
[ $STATUS -ne 2 ]
ok $? "-m 20ms accepted"

while read -r arg why; do
	run "$tool" -a --max-run "$arg"
	one_line_error 2 no-preempt "invalid --max-run '$arg': $why"
	ok $? "--max-run '$arg': $why"
done <<'LIST'
0ms out of range (1ms to 10s)
999us out of range (1ms to 10s)
999999ns out of range (1ms to 10s)
10.001s out of range (1ms to 10s)
11s out of range (1ms to 10s)
1h out of range (1ms to 10s)
18446744073709551616ns out of range (1ms to 10s)
100 missing unit
abc not a number
-5ms negative
1e3ms unknown unit 'e3ms'
5msec unknown unit 'msec'
0.0000000001s more than 9 decimal places
LIST
run "$tool" -a --max-run
option_error no-preempt "option '--max-run' requires an argument"
ok $? "--max-run without a value"

done_testing
