#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The wrapper on this host: build/unit/wrap-test runs the common options,
# the run stage and the report stage of every tool (tools/lib) against fake
# counters, so what a user of `TOOL -- CMD` feels is tested without the
# hooks. Each block is one of issue 14's failures; a terminal's signals
# come through script(1)'s pty.
. "$(dirname "$0")/../tap.sh"

# WRAP_TEST: another build of the same, e.g. of an older tools/lib
W=${WRAP_TEST:-$ROOT/build/unit/wrap}
# CMDs that report what happened to them
cat >"$TAP_TMP/count.pl" <<'PERL'
# count SIG [own] OUT: counts SIG for 1.5 s (in a process group of its own
# with "own"), writes the count to OUT
my ($sig, $own, $out) = @ARGV;
setpgrp(0, 0) if $own eq "own";
my $n = 0;
$SIG{$sig} = sub { $n++ };
open(my $f, ">", "$out.ready"); print $f "1\n"; close($f);
select(undef, undef, undef, 0.05) for 1 .. 30;
open($f, ">", $out); print $f "$n\n"; close($f);
PERL
# gone PIDFILE: the process whose pid is in PIDFILE has exited, within 2 s.
# A zombie has exited: a CMD orphaned by the tool's death waits for PID 1
# to reap it, and a sandbox's PID 1 may take seconds.
gone() {
	local pid stat
	pid=$(cat "$1" 2>/dev/null) || return 1
	for _ in $(seq 20); do
		stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 0
		stat=${stat##*) }
		[ "${stat%% *}" = Z ] && return 0
		sleep 0.1
	done
	return 1
}
# wait_file FILE: FILE has something in it, within 5 s. Not only exists:
# `echo $$ >FILE` creates FILE before it writes, and a CMD killed in
# between (the tests below kill it through the tool) leaves it empty, for
# gone() to read as no pid (wrap.t failed so under a loaded host).
wait_file() {
	for _ in $(seq 50); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
# ms_since START: milliseconds since START (date +%s%N)
ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }

# 1. an inherited SIGCHLD=SIG_IGN: CMD is still waited for, its status kept
timeout -k 2 10 perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV' \
	"$W" -a -- sh -c 'exit 4' >/dev/null
ok $(($? != 4)) "1. SIGCHLD ignored by our parent: CMD's status 4, no hang"

# 2. a terminal's Ctrl-C reaches CMD exactly once, whatever its group
for grp in same own; do
	rm -f "$TAP_TMP/n" "$TAP_TMP/n.ready"
	(wait_file "$TAP_TMP/n.ready"; printf '\003'; sleep 3) |
		timeout -k 2 20 script -qec \
			"'$W' -a -- perl '$TAP_TMP/count.pl' INT $grp '$TAP_TMP/n'" \
			/dev/null >/dev/null
	[ "$(cat "$TAP_TMP/n" 2>/dev/null)" = 1 ]
	ok $? "2. Ctrl-C on a pty, CMD in the $grp process group: CMD gets SIGINT once ($(cat "$TAP_TMP/n" 2>/dev/null))"
done
# kill(0) from inside CMD reached it already; a kill of the tool did not
rm -f "$TAP_TMP/n"
setsid -w "$W" -a -- perl -e '
	my $n = 0; $SIG{TERM} = sub { $n++ }; kill("TERM", 0);
	select(undef, undef, undef, 0.05) for 1 .. 20;
	open(my $f, ">", $ARGV[0]); print $f "$n\n"; close($f);' "$TAP_TMP/n" \
	>/dev/null
[ "$(cat "$TAP_TMP/n" 2>/dev/null)" = 1 ]
ok $? "2. kill -TERM 0 from inside CMD: CMD gets it once ($(cat "$TAP_TMP/n" 2>/dev/null))"
rm -f "$TAP_TMP/n" "$TAP_TMP/n.ready"
"$W" -a -- perl "$TAP_TMP/count.pl" TERM same "$TAP_TMP/n" >/dev/null &
tool=$!
wait_file "$TAP_TMP/n.ready"
kill -TERM $tool
wait $tool 2>/dev/null
[ "$(cat "$TAP_TMP/n" 2>/dev/null)" = 1 ]
ok $? "2. kill -TERM of the tool: passed on to CMD once ($(cat "$TAP_TMP/n" 2>/dev/null))"

# 3. CMD never outlives the tool
start=$(date +%s%N)
"$W" -a -i 100ms -- sh -c "echo \$\$ >'$TAP_TMP/pid'; exec sleep 5" | head -n 1 >/dev/null
status=${PIPESTATUS[0]}
[ "$(ms_since $start)" -lt 3000 ] && [ "$status" = 141 ] && gone "$TAP_TMP/pid"
ok $? "3. output piped to head -1: CMD stopped, the tool dies of SIGPIPE ($status)"
rm -f "$TAP_TMP/pid"
# SIGHUP with its default disposition, whatever this suite inherited: a
# tool started under nohup(1) ignores hangups, as nohup asks (below).
# (A command, not a function: a function run in the background is a
# subshell, and $! would name it instead of the tool.)
hup_dfl=(perl -e '$SIG{HUP} = "DEFAULT"; exec @ARGV or die "$ARGV[0]: $!"')
"${hup_dfl[@]}" "$W" -a -- sh -c "echo \$\$ >'$TAP_TMP/pid'; exec sleep 5" >"$TAP_TMP/out" &
tool=$!
wait_file "$TAP_TMP/pid"
kill -HUP $tool
wait $tool 2>/dev/null
status=$?
gone "$TAP_TMP/pid" && [ $status = 129 ] && grep -q "^wrap-test: " "$TAP_TMP/out"
ok $? "3. SIGHUP: CMD hung up, summary printed, the tool dies of it ($status)"
rm -f "$TAP_TMP/pid"
"${hup_dfl[@]}" "$W" -k 300ms -a -- perl -e '$SIG{HUP} = "IGNORE"; open(my $f, ">", $ARGV[0]);
	print $f "$$\n"; close($f); sleep 10' "$TAP_TMP/pid" >/dev/null &
tool=$!
wait_file "$TAP_TMP/pid"
kill -HUP $tool
wait $tool 2>/dev/null
status=$?
gone "$TAP_TMP/pid" && [ $status = 137 ]
ok $? "3. SIGHUP to a CMD that ignores it: SIGKILL after --kill-after ($status)"
rm -f "$TAP_TMP/pid"
perl -e '$SIG{HUP} = "IGNORE"; exec @ARGV or die' "$W" -a -- \
	sh -c "echo \$\$ >'$TAP_TMP/pid'; exec sleep 5" >/dev/null &
tool=$!
wait_file "$TAP_TMP/pid"
kill -HUP $tool
sleep 0.3
kill -0 "$(cat "$TAP_TMP/pid")" 2>/dev/null && kill -0 $tool 2>/dev/null
ok $? "3. under nohup (SIGHUP ignored): a SIGHUP stops neither the tool nor CMD"
kill -TERM $tool
wait $tool 2>/dev/null
gone "$TAP_TMP/pid"
ok $? "3. ... and SIGTERM still stops both"
rm -f "$TAP_TMP/pid"
"$W" -a -- sh -c "echo \$\$ >'$TAP_TMP/pid'; exec sleep 10" >/dev/null &
tool=$!
wait_file "$TAP_TMP/pid"
kill -KILL $tool
wait $tool 2>/dev/null
gone "$TAP_TMP/pid"
ok $? "3. SIGKILL of the tool: CMD dies with it"

# 4. a write error stops the run even with SIGPIPE ignored
start=$(date +%s%N)
(
	trap '' PIPE
	timeout -k 2 10 "$W" -a -i 10ms 2>"$TAP_TMP/err" | head -n 1 >/dev/null
	exit "${PIPESTATUS[0]}"
)
status=$?
[ $status = 1 ] && grep -qx "wrap-test: writing output: Broken pipe" "$TAP_TMP/err"
ok $? "4. SIGPIPE ignored, output gone: exit 1, 'writing output: Broken pipe' ($status, $(ms_since $start) ms)"

# 5. CMD killed by a signal: the tool dies of it too (a shell loop stops).
# SIGINT back to its default first: a non-interactive shell starts its
# background jobs with it ignored, and the tool and CMD inherit that.
perl -e '$SIG{INT} = "DEFAULT"; system(@ARGV); exit(($? & 127) == 2 ? 0 : 1)' \
	"$W" -a -- sh -c 'kill -INT $$' >/dev/null
ok $? "5. CMD dies of SIGINT: the tool dies of SIGINT, not exit 130"
"$W" -a -- sh -c 'exit 130' >/dev/null
ok $(($? != 130)) "5. CMD exits 130: the tool exits 130"

# 6. --duration: SIGTERM, then SIGKILL after --kill-after
start=$(date +%s%N)
("$W" -d 200ms -k 300ms -- perl -e '$SIG{TERM} = "IGNORE"; sleep 10' >/dev/null; exit $?) 2>/dev/null
status=$?
t=$(ms_since $start)
[ $status = 137 ] && [ "$t" -lt 2000 ]
ok $? "6. -d 200ms -k 300ms on a CMD ignoring SIGTERM: killed ($status after $t ms)"
("$W" -d 200ms -- sleep 10 >/dev/null; exit $?) 2>/dev/null
ok $(($? != 143)) "6. --duration: SIGTERM first (143)"
run "$W" -a -k 0s
one_line_error 2 wrap-test "invalid --kill-after '0s': out of range (1ms to 1h)"
ok $? "6. --kill-after 0s: out of range"

# 7. -p: the tool notices the process's exit
sleep 0.3 &
start=$(date +%s%N)
"$W" -p $! >/dev/null 2>&1
status=$?
t=$(ms_since $start)
[ $status = 0 ] && [ "$t" -lt 2000 ]
ok $? "7. -p on a process that exits at 0.3 s: the tool stops ($t ms)"
sleep 0.3 &
run "$W" -p $! -p $$ -d 1s
[ "$(printf '%s\n' "$ERR" | grep -c dropped)" = 1 ]
ok $? "7. of two -p, the one that exits is dropped from the targets"

# 9. output over an interactive CMD: --quiet, sub-second TIME
run "$W" -a -q -i 10ms -d 200ms
! printf '%s\n' "$OUT" | grep -q "^TIME" &&
	printf '%s\n' "$OUT" | grep -q "^wrap-test: "
ok $? "9. --quiet: no header or rows, the summary"
run "$W" -a -j -q -i 10ms -d 200ms
[ "$(printf '%s\n' "$OUT" | jq -s 'map(.type)' -c)" = '["run","summary"]' ]
ok $? "9. --quiet --json: the run record and the summary"
run "$W" -a -i 100ms -d 250ms
printf '%s\n' "$OUT" | sed -n 2p | grep -Eq '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} '
ok $? "9. TIME in milliseconds at --interval 100ms"
run "$W" -a -i 1s -d 1100ms
printf '%s\n' "$OUT" | sed -n 2p | grep -Eq '^[0-9]{2}:[0-9]{2}:[0-9]{2} '
ok $? "9. TIME in seconds at --interval 1s"

run "$W" -a -i 50ms --output "$TAP_TMP/rows" -- sh -c 'sleep 0.2; echo cmd'
[ $STATUS = 0 ] && [ "$OUT" = cmd ] && head -n 1 "$TAP_TMP/rows" | grep -q "^TIME" &&
	grep -q "^wrap-test: " "$TAP_TMP/rows"
ok $? "9. --output FILE: rows and summary there, stdout left to CMD"
run "$W" -a -d 10ms --output /nonexistent/rows
one_line_error 1 wrap-test "opening /nonexistent/rows: No such file or directory"
ok $? "9. --output into a missing directory: exit 1, one line"

# 11. options
run "$W" -h
[ $STATUS = 0 ] && printf '%s\n' "$OUT" | grep -q "^Usage: wrap-test "
ok $? "11. -h is help"
run "$W" --version
[ $STATUS = 0 ] && printf '%s\n' "$OUT" | grep -Eq "^wrap-test [0-9.]+ \(libbpf v[0-9]"
ok $? "11. --version names libbpf's version ($OUT)"
# usage_error TEXT ARGS: exit 2, TEXT, then a Try line
usage_error() {
	local text=$1
	shift
	run "$W" "$@"
	option_error wrap-test "$text"
	ok $? "11. $*: '$text', Try --help"
}
usage_error "unrecognized option '--bogus'" -a --bogus
usage_error "option requires an argument -- 'c'" -c
usage_error "option '--pid' requires an argument" --pid
usage_error "option '--json' doesn't allow an argument" -a --json=1
usage_error "invalid option -- 'x'" -a -x

# 13. the first JSON line describes the run
run "$W" -j -n -i 50ms -d 300ms -p $$ -- sh -c 'sleep 0.2' '"quoted"'
printf '%s\n' "$OUT" | head -n 1 | jq -e --arg k "$(uname -r)" --argjson p $$ '
	.type == "run" and .tool == "wrap-test" and .dry_run == true and
	(.version | test("^[0-9]")) and (.libbpf | test("^v[0-9]")) and
	.kernel == $k and .targets.all == false and .targets.cgroups == [] and
	.targets.pids == [$p] and
	.targets.cmd == ["sh", "-c", "sleep 0.2", "\"quoted\""] and
	.settings == {"interval_ns": 50000000, "duration_ns": 300000000,
		"kill_after_ns": 5000000000, "quiet": false, "output": null,
		"observe": "counts", "answer_ns": 42} and
	(.attach_ns | type == "number" and . >= 0 and . < 60000000000)' \
	>/dev/null
ok $? "13. run record: tool, version, libbpf, kernel, targets, settings, dry_run, attach_ns"
printf '%s\n' "$OUT" | jq -s -e '.[0].type == "run" and .[-1].type == "summary" and
	(.[1:-1] | all(.type == "interval"))' >/dev/null
ok $? "13. then intervals, then the summary"

done_testing
