#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# sched-ab on this host: its bad input (exit 2, one line), and its rounds,
# statistics and verdicts, driving a fake TOOL written here that takes
# the options sched-ab gives a tool (--dry-run, --json, --quiet, --output
# FILE, TOOL-OPTS, -- CMD), runs CMD, and writes a run record and a
# summary as the tools do. That tests sched-ab, not the kernel: the tools'
# own tests are elsewhere, and tests/tools/sched-ab.t runs a real one.
. "$(dirname "$0")/../tap.sh"

AB=$BIN/sched-ab
T=$TAP_TMP
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"

# The fake TOOL. TOOL-OPTS: --fail (exit 1 before CMD, as a tool that
# cannot attach), --never-dry (ignores --dry-run), --pre N (preemptions
# in its summary under B; 10 under A). CMD gets SIDE=A or SIDE=B. Every
# invocation's arguments go to $T/argv, one line each.
cat >"$T/fake-tool" <<'EOF'
#!/bin/bash
echo "$*" >>"$ARGV_LOG"
dry=false out=/dev/stdout pre=1 never=
while [ $# -gt 0 ]; do
	case $1 in
	-n | --dry-run) dry=true ;;
	-j | --json | -q | --quiet) ;;
	--output) out=$2; shift ;;
	--fail) echo "fake-tool: attaching: Operation not permitted" >&2; exit 1 ;;
	--never-dry) never=1 ;;
	--pre) pre=$2; shift ;;
	--) shift; break ;;
	esac
	shift
done
[ -n "$never" ] && dry=false
echo "{\"type\":\"run\",\"tool\":\"fake\",\"dry_run\":$dry}" >"$out"
if $dry; then SIDE=A pre=10; else SIDE=B; fi
export SIDE
start=${EPOCHREALTIME/./}
"$@"
st=$?
us=$((${EPOCHREALTIME/./} - start))
printf -v el '%d.%06d' $((us / 1000000)) $((us % 1000000))
echo "{\"type\":\"summary\",\"tool\":\"fake\",\"time\":\"00:00:00\",\"elapsed_s\":$el,\"dry_run\":$dry,\"preemptions\":$pre,\"latency_us\":{\"count\":3,\"p50\":15,\"p90\":31,\"p99\":63,\"hist\":[0,0,0,3]},\"status\":$st}" >>"$out"
exit $st
EOF
chmod +x "$T/fake-tool"
FAKE=$T/fake-tool
export ARGV_LOG=$T/argv

# The workload: prints value=N, the next of a fixed noisy sequence for its
# side, times $SLOW under B; with FAIL_AT=K the K-th run of a side exits 3.
cat >"$T/work" <<'EOF'
#!/bin/bash
f=$WORK_STATE.$SIDE
n=0
[ -f "$f" ] && read -r n <"$f"
echo $((n + 1)) >"$f"
noise=(100 103 97 101 99 102 98 104 96 100)
v=${noise[$((n % 10))]}
[ "$SIDE" = B ] && v=$((v * ${SLOW:-1}))
echo "starting, value=0 so far"
echo "value=$v ms" >&2
echo "done"
[ "${FAIL_AT:-0}" = $((n + 1)) ] && exit 3
exit 0
EOF
chmod +x "$T/work"
WORK=$T/work

# ab ARGS...: sched-ab with a fresh workload state
ab() {
	export WORK_STATE=$T/state.$RANDOM$RANDOM
	: >"$ARGV_LOG"
	run "$AB" "$@"
}

# usage_error TEXT ARGS...: exit 2, one line, TEXT
usage_error() {
	local text=$1
	shift
	run "$AB" "$@"
	one_line_error 2 sched-ab "$text"
	ok $? "sched-ab $*: exit 2, '$text'"
	[ "$STATUS" -eq 2 ] || diag "status $STATUS" "stderr: $ERR"
}

# --- help ------------------------------------------------------------------
run "$AB" --help
[ $STATUS -eq 0 ] && [ -z "$ERR" ] &&
	printf '%s\n' "$OUT" | grep -q '^Usage: sched-ab \[OPTION...\] TOOL \[TOOL-OPTS\] -- WORKLOAD'
ok $? "--help: exit 0, usage on stdout"
for o in rounds metric seed json verbose help usage version; do
	printf '%s\n' "$OUT" | grep -q -- "--$o"
	ok $? "--help documents --$o"
done
printf '%s\n' "$OUT" | tr '\n' ' ' | grep -q 'Hodges-Lehmann.*Mann-Whitney'
ok $? "--help names its statistics"
for k in tool_path tool_opts workload seed runs round side dry_run status \
	round_s summary metrics source regex better median q1 q3 ratio ci \
	confidence verdict; do
	printf '%s\n' "$OUT" | grep -qw -- "$k"
	ok $? "--help lists JSON key $k"
done
run "$AB" -?
[ $STATUS -eq 0 ] && printf '%s\n' "$OUT" | grep -q '^Usage: sched-ab '
ok $? "-?: help"
run "$AB" --usage
[ $STATUS -eq 0 ] && printf '%s\n' "$OUT" | grep -q '^Usage: sched-ab '
ok $? "--usage"
run "$AB" --version
[ $STATUS -eq 0 ] && [ "$OUT" = "sched-ab $(sed -n 's/^#define SCHEDBPF_VERSION "\(.*\)"/\1/p' "$ROOT/tools/lib/tool.h")" ]
ok $? "--version: the tools' version ($OUT)"

# --- bad input ---------------------------------------------------------------
usage_error "no TOOL"
usage_error "no TOOL" -r 3 -j
usage_error "no '--' after TOOL's options" no-preempt
usage_error "no '--' after TOOL's options" no-preempt -c web
usage_error "no WORKLOAD after '--'" no-preempt -c web --
usage_error "unknown TOOL 'bogus' (no-preempt, boost-wakeup, slice-extend, cgroup-isolate, or a path)" bogus -- true
usage_error "TOOL '/nonexistent/tool': No such file or directory" /nonexistent/tool -- true
usage_error "TOOL '$T/work.none': No such file" "$T/work.none" -- true
echo 'echo hi' >"$T/noexec"
usage_error "TOOL '$T/noexec': Permission denied" "$T/noexec" -- true
usage_error "WORKLOAD 'schedbpf-no-such-command': command not found" "$FAKE" -- schedbpf-no-such-command
usage_error "WORKLOAD '$T/noexec': Permission denied" "$FAKE" -- "$T/noexec"
usage_error "TOOL-OPTS has '-n': sched-ab runs A with it and B without" "$FAKE" -n -- true
usage_error "TOOL-OPTS has '--dry-run'" "$FAKE" -c x --dry-run -- true
usage_error "TOOL-OPTS has '--output'" "$FAKE" --output f -- true
usage_error "TOOL-OPTS has '--output=f'" "$FAKE" --output=f -- true
usage_error "invalid --rounds '0': out of range (1 to 100)" -r 0 "$FAKE" -- true
usage_error "invalid --rounds '101': out of range (1 to 100)" --rounds 101 "$FAKE" -- true
usage_error "invalid --rounds 'abc': not a number" -r abc "$FAKE" -- true
usage_error "invalid --rounds '-1': negative" --rounds=-1 "$FAKE" -- true
usage_error "invalid --rounds '5x': trailing junk 'x'" -r 5x "$FAKE" -- true
usage_error "invalid --rounds '': empty" -r '' "$FAKE" -- true
usage_error "invalid --seed 'x1': not a number" --seed x1 "$FAKE" -- true
usage_error "invalid --seed '99999999999999999999': too large" -s 99999999999999999999 "$FAKE" -- true
usage_error "invalid --metric 'val': no '=' (NAME=REGEX)" -m val "$FAKE" -- true
usage_error "invalid --metric '=([0-9]+)': empty NAME" -m '=([0-9]+)' "$FAKE" -- true
usage_error "invalid --metric ':higher=([0-9]+)': empty NAME" -m ':higher=([0-9]+)' "$FAKE" -- true
usage_error "invalid --metric 'a b=([0-9]+)': NAME has only letters, digits and _" -m 'a b=([0-9]+)' "$FAKE" -- true
usage_error "NAME has only letters, digits and _ (at most 32)" -m "$(printf 'x%.0s' $(seq 33))=(1)" "$FAKE" -- true
usage_error "invalid --metric 'v:up=([0-9]+)': unknown direction 'up' (higher or lower)" -m 'v:up=([0-9]+)' "$FAKE" -- true
usage_error "invalid --metric 'v=': empty REGEX" -m 'v=' "$FAKE" -- true
usage_error "invalid --metric 'v=([0-9]+': " -m 'v=([0-9]+' "$FAKE" -- true
usage_error "invalid --metric 'v=[0-9]+': REGEX has no group to capture the number" --metric='v=[0-9]+' "$FAKE" -- true
usage_error "invalid --metric 'wall_s=([0-9]+)': wall_s is already a metric" -m 'wall_s=([0-9]+)' "$FAKE" -- true
usage_error "invalid --metric 'v:higher=(1)': v is already a metric" -m 'v=(1)' -m 'v:higher=(1)' "$FAKE" -- true
many=
for i in $(seq 17); do many="$many -m m$i=(1)"; done
usage_error "too many --metric (at most 16)" $many "$FAKE" -- true
# getopt's own errors: the line, then argp's Try line (as every tool)
for args in "--bogus" "-x" "-r" "--metric" "--json=1"; do
	run "$AB" $args
	option_error sched-ab ""
	ok $? "sched-ab $args: exit 2, getopt's line and Try --help"
done
# nothing was run by any of them
[ ! -s "$ARGV_LOG" ] && [ -z "$(ls "$TMPDIR")" ]
ok $? "bad usage runs nothing and leaves nothing in TMPDIR"

# --- rounds ------------------------------------------------------------------
ab -r 6 -s 7 -j "$FAKE" -c web --pre 1 -- "$WORK" --opt arg
ok $STATUS "6 rounds: exit 0"
J=$OUT
printf '%s\n' "$J" >"$T/six.json"
jq -e . >/dev/null <<<"$J"
ok $? "--json: one object that parses"
jq -e '[.runs[] | .side] | length == 12' <<<"$J" >/dev/null
ok $? "12 runs, 6 of each"
jq -e '[.runs | group_by(.round)[] | map(.side) | sort == ["A","B"]] | all and length == 6' <<<"$J" >/dev/null
ok $? "every round has one A and one B"
jq -e '[.runs[] | select(.side == "A") | .dry_run] | all' <<<"$J" >/dev/null &&
	jq -e '[.runs[] | select(.side == "B") | .dry_run] | any | not' <<<"$J" >/dev/null
ok $? "A runs are dry runs, B runs are not"
jq -e '[.runs[] | .round] == [1,1,2,2,3,3,4,4,5,5,6,6]' <<<"$J" >/dev/null
ok $? "runs are in round order, the sides of a round back to back"
firsts=$(jq -r '[.runs | group_by(.round)[] | .[0].side] | join("")' <<<"$J")
case $firsts in *A*B* | *B*A*) true ;; *) false ;; esac
ok $? "the side that goes first varies between rounds ($firsts)"
# the tool's arguments: --dry-run for A only, TOOL-OPTS and CMD verbatim
grep -c -- '^--dry-run --json --quiet --output [^ ]*/tool.json --observe=full -c web --pre 1 -- .*/work --opt arg$' "$ARGV_LOG" | grep -qx 6 &&
	grep -c -- '^--json --quiet --output [^ ]*/tool.json --observe=full -c web --pre 1 -- .*/work --opt arg$' "$ARGV_LOG" | grep -qx 6
ok $? "TOOL gets --dry-run (A) or not (B), --json --quiet --output FILE --observe=full, TOOL-OPTS and -- WORKLOAD verbatim"
[ "$(sed -n 's/^--dry-run.*/A/p; s/^--json.*/B/p' "$ARGV_LOG" | tr -d '\n')" = "$(jq -r '[.runs[].side] | join("")' <<<"$J")" ]
ok $? "the runs' sides in --json are the order TOOL ran in"
jq -e '[.runs[] | .summary.type == "summary" and .summary.tool == "fake" and (.summary.latency_us.hist | length) == 4] | all' <<<"$J" >/dev/null
ok $? "each run carries its tool summary, verbatim"
jq -e '[.runs[] | .status == 0 and .round_s > 0 and (.metrics | keys | sort) == ["latency_p50_us","latency_p99_us","preemptions","wall_s"]] | all' <<<"$J" >/dev/null
ok $? "each run: status, round_s, the built-in metrics"
jq -e '.tool == "'"$FAKE"'" and .tool_path == "'"$FAKE"'" and .tool_opts == ["-c","web","--pre","1"] and .workload == ["'"$WORK"'","--opt","arg"] and .rounds == 6 and .seed == 7 and (.version | type) == "string"' <<<"$J" >/dev/null
ok $? "the head: tool, tool_path, tool_opts, workload, rounds, seed, version"
jq -e 'keys_unsorted == ["tool","tool_path","tool_opts","workload","rounds","seed","version","runs","metrics"]' <<<"$J" >/dev/null
ok $? "the object has the documented keys, in order"
jq -e '[.runs[] | keys_unsorted] | all(. == ["round","side","dry_run","status","round_s","metrics","summary"])' <<<"$J" >/dev/null
ok $? "each run has the documented keys, in order"
jq -e '[.metrics[] | keys_unsorted] | all(. == ["name","source","regex","better","a","b","ratio","ci","confidence","verdict"])' <<<"$J" >/dev/null &&
	jq -e '[.metrics[] | .a, .b | keys_unsorted] | all(. == ["n","median","min","q1","q3","max"])' <<<"$J" >/dev/null
ok $? "each metric has the documented keys, in order, and so have a and b"
jq -e '.metrics[] | select(.name == "preemptions") | .a.median == 10 and .b.median == 1 and .ratio == 0.1 and .verdict == "better" and .source == "tool" and .better == "lower"' <<<"$J" >/dev/null
ok $? "preemptions from the summary: 10 -> 1, ratio 0.1, better"
[ -z "$(ls "$TMPDIR")" ]
ok $? "its files in TMPDIR are removed"

# the same seed, the same order; other seeds, other orders
order() { jq -r '[.runs[].side] | join("")' <<<"$OUT"; }
ab -r 6 -s 7 -j "$FAKE" -- "$WORK"
[ "$(order)" = "$(jq -r '[.runs[].side] | join("")' <<<"$J")" ]
ok $? "--seed 7 again: the same order"
orders=
for s in 1 2 3 4 5; do
	ab -r 4 -s $s -j "$FAKE" -- "$WORK"
	orders="$orders $(order)"
done
[ "$(printf '%s\n' $orders | sort -u | wc -l)" -ge 3 ]
ok $? "seeds 1 to 5 give different orders ($orders)"
ab -r 2 -j "$FAKE" -- "$WORK"
ab_seed=$(jq -r .seed <<<"$OUT")
[ -n "$ab_seed" ] && [ "$ab_seed" != 7 ]
ok $? "without --seed, a seed is drawn and reported ($ab_seed)"
ab -r 2 "$FAKE" -- "$WORK"
printf '%s\n' "$OUT" | head -n 1 | grep -q "seed [0-9]"
ok $? "the table names its seed"

# --- statistics ----------------------------------------------------------------
# B twice as slow
SLOW=2 ab -r 6 -j -m 'val=value=([0-9]+) ms' "$FAKE" -- "$WORK"
ok $STATUS "SLOW=2: exit 0"
val() { jq -r ".metrics[] | select(.name == \"val\") | $1" <<<"$OUT"; }
[ "$(val .verdict)" = worse ] &&
	awk -v r="$(val .ratio)" 'BEGIN { exit !(r > 1.9 && r < 2.1) }' &&
	awk -v lo="$(val '.ci[0]')" 'BEGIN { exit !(lo > 1) }'
ok $? "B twice as slow: ratio $(val .ratio) ~ 2, CI $(val '.ci | join("..")') above 1, worse"
jq -e '.runs[] | select(.side == "B") | .metrics.val >= 192' <<<"$OUT" >/dev/null &&
	jq -e '[.runs[] | select(.side == "A") | .metrics.val] | sort == [97,99,100,101,102,103]' <<<"$OUT" >/dev/null
ok $? "the value is the last matching line's (value=0 on an earlier line ignored)"
[ "$(val .source)" = workload ] && [ "$(val .regex)" = 'value=([0-9]+) ms' ] &&
	[ "$(val .better)" = lower ]
ok $? "a workload metric: source, regex, lower is better by default"
SLOW=2 ab -r 6 -m 'val:higher=value=([0-9]+) ms' "$FAKE" -- "$WORK"
printf '%s\n' "$OUT" | grep -qE '^val +.* better$'
ok $? ":higher, B twice as high: better (table)"
SLOW=2 ab -r 6 -m 'val:lower=value=([0-9]+) ms' "$FAKE" -- "$WORK"
printf '%s\n' "$OUT" | grep -qE '^val +100.5 \(97..103\) +201 \(194..206\) +2 +1.9[0-9]*..2.0[0-9]* +worse$'
ok $? "the table: medians, ranges, ratio, CI, worse"
[ $? -eq 0 ] || diag "$OUT"
# the same distribution on both sides
SLOW=1 ab -r 6 -j -m 'val=value=([0-9]+)' "$FAKE" -- "$WORK"
[ "$(val .verdict)" = "no difference" ] && [ "$(val .ratio)" = 1 ] &&
	awk -v lo="$(val '.ci[0]')" -v hi="$(val '.ci[1]')" 'BEGIN { exit !(lo < 1 && hi > 1) }'
ok $? "identical distributions: ratio 1, CI $(val '.ci | join("..")') around 1, no difference"
SLOW=1 ab -r 6 -m 'val=value=([0-9]+)' "$FAKE" -- "$WORK"
printf '%s\n' "$OUT" | grep -qE '^val +.* no difference at this noise$'
ok $? "the table says: no difference at this noise"

# the numbers against a brute-force computation from the runs: every
# ordering of the two samples enumerated for Mann-Whitney's k, every
# pairwise ratio, quantiles by linear interpolation
cat >"$T/check.pl" <<'EOF'
use strict; use warnings;
my ($xa, $xb) = map { [split /,/] } @ARGV[0, 1];
my ($n, $m) = (scalar @$xa, scalar @$xb);
sub qt { my ($v, $p) = @_; my @s = sort { $a <=> $b } @$v; my $h = $p * $#s;
	my $i = int $h; return $i >= $#s ? $s[-1] : $s[$i] + ($h - $i) * ($s[$i + 1] - $s[$i]); }
my @r = sort { $a <=> $b } map { my $x = $_; map { $_ / $x } @$xb } @$xa;
my $nr = @r; my $h = int($nr / 2);
my $ratio = $nr % 2 ? $r[$h] : sqrt($r[$h - 1] * $r[$h]);
# U over all C(n+m, n) placements of the A sample among n+m ranks
my %count; my $total = 0;
sub place { my ($left, $pos, $u, $as) = @_;
	if ($pos == $n + $m) { if ($left == 0) { $count{$u}++; $total++ } return }
	place($left - 1, $pos + 1, $u, $as + 1) if $left;   # an A here
	place($left, $pos + 1, $u + $as, $as) if $pos - $as < $m;  # a B above $as As
}
place($n, 0, 0, 0);
my ($k, $below) = (0, 0);
while ($below + ($count{$k} // 0) <= 0.025 * $total) { $below += $count{$k} // 0; $k++ }
my ($lo, $hi, $conf) = $k ? ($r[$k - 1], $r[$nr - $k], 1 - 2 * $below / $total) : ("null", "null", "null");
printf "%.6g %.6g %.6g %.6g %.6g %.6g %.6g %.6g %s %s %s\n", qt($xa, .5), qt($xa, .25), qt($xa, .75),
	qt($xb, .5), qt($xb, .25), qt($xb, .75), $ratio, $k, map { /null/ ? $_ : sprintf "%.6g", $_ } $lo, $hi, $conf;
EOF
for rounds in 4 5 6; do
	SLOW=1 ab -r $rounds -s 3 -j -m 'val=value=([0-9]+)' "$FAKE" -- "$WORK"
	for metric in val wall_s; do
		A=$(jq -r "[.runs[] | select(.side == \"A\") | .metrics.$metric] | join(\",\")" <<<"$OUT")
		B=$(jq -r "[.runs[] | select(.side == \"B\") | .metrics.$metric] | join(\",\")" <<<"$OUT")
		want=$(perl "$T/check.pl" "$A" "$B" | cut -d' ' -f1-7,9-)
		got=$(jq -r ".metrics[] | select(.name == \"$metric\") |
			[.a.median, .a.q1, .a.q3, .b.median, .b.q1, .b.q3, .ratio] as \$v |
			(\$v | map(tostring) | join(\" \")) + \" \" + ((.ci // [\"null\",\"null\"]) + [.confidence // \"null\"] | map(tostring) | join(\" \"))" <<<"$OUT")
		# the same numbers, to 5 significant digits
		same=$(perl -e 'my @w = split " ", $ARGV[0]; my @g = split " ", $ARGV[1];
			exit 1 unless @w == @g;
			for my $i (0..$#w) { next if $w[$i] eq $g[$i];
				exit 1 if $w[$i] eq "null" or $g[$i] eq "null";
				exit 1 if abs($w[$i] - $g[$i]) > 1e-4 * (abs($w[$i]) + 1e-9) }' "$want" "$got" && echo yes)
		[ "$same" = yes ]
		ok $? "$rounds rounds, $metric: quartiles, ratio, CI and confidence as brute force gives them ($got)"
		[ "$same" = yes ] || diag "want $want" "got  $got"
	done
done
# too few rounds for any 95% interval
ab -r 3 -j "$FAKE" --pre 1 -- "$WORK"
jq -e '[.metrics[] | .ci == null and .confidence == null and .verdict == "no difference"] | all' <<<"$OUT" >/dev/null
ok $? "3 rounds: no CI reaches 95%, so no verdict but no difference, even at 10 -> 1"
ab -r 3 "$FAKE" -- "$WORK"
printf '%s\n' "$OUT" | grep -q '^preemptions .* none .*no difference at this noise (4 rounds or more for a 95% CI)$'
ok $? "the table says why"
ab -r 1 -j "$FAKE" -- "$WORK"
jq -e '.runs | length == 2' <<<"$OUT" >/dev/null
ok $? "1 round: one A, one B"
# zeros: a ratio over 0 is unbounded, 0/0 is no change
cat >"$T/zero" <<'EOF'
#!/bin/sh
[ "$SIDE" = A ] && echo "n=0" || echo "n=${ZERO_B:-0}"
EOF
chmod +x "$T/zero"
ZERO_B=0 ab -r 5 -j -m 'n=n=([0-9]+)' "$FAKE" -- "$T/zero"
[ "$(jq -r '.metrics[] | select(.name == "n") | [.ratio, .verdict] | join(" ")' <<<"$OUT")" = "1 no difference" ]
ok $? "0 under both: ratio 1, no difference"
ZERO_B=5 ab -r 5 -j -m 'n=n=([0-9]+)' "$FAKE" -- "$T/zero"
jq -e '.metrics[] | select(.name == "n") | .ratio == null and .ci == [null, null] and .verdict == "worse"' <<<"$OUT" >/dev/null
ok $? "0 under A, 5 under B: ratio and CI unbounded (null), worse"

# --- failed rounds -----------------------------------------------------------
# failed ARGS...: exit 1, one line TEXT, nothing on stdout, TMPDIR clean
failed() {
	local text=$1
	shift
	ab "$@"
	one_line_error 1 sched-ab "$text" && [ -z "$(ls "$TMPDIR")" ]
	ok $? "$text: exit 1, one line"
	[ "$STATUS" -eq 1 ] || diag "status $STATUS" "stderr: $ERR"
}
FAIL_AT=2 failed "round 2 (" -r 4 -s 1 "$FAKE" -- "$WORK"
printf '%s\n' "$ERR" | grep -qE '^sched-ab: round 2 \([AB]\): the workload exited with status 3$'
ok $? "the workload's status and the round in the line ($ERR)"
[ "$(wc -l <"$ARGV_LOG")" -le 4 ]
ok $? "no round runs after the failed one ($(wc -l <"$ARGV_LOG") runs)"
failed "round 1 (" "$FAKE" --fail -- "$WORK"
case $ERR in *": $FAKE failed (exit 1): fake-tool: attaching: Operation not permitted") true ;; *) false ;; esac
ok $? "a tool that fails: its exit and its last line ($ERR)"
failed "metric nope: no line of the output matches 'absent: ([0-9]+)'" -m 'nope=absent: ([0-9]+)' "$FAKE" -- "$WORK"
failed "metric v: 'ms' is not a non-negative number" -m 'v=value=[0-9]+ ([a-z]+)' "$FAKE" -- "$WORK"
failed "metric v: '1.2.3' is not a non-negative number" -m 'v=(1\.2\.3)' "$FAKE" -- sh -c 'echo 1.2.3'
failed "ran without --dry-run: its options decide the side" "$FAKE" --never-dry -- "$WORK"
printf '#!/bin/sh\necho broken >&2\nexit 0\n' >"$T/silent-tool"
chmod +x "$T/silent-tool"
failed "silent-tool wrote no run record (exit 0): broken" "$T/silent-tool" -- true
run env -u ARGV_LOG "$AB" -v -r 1 -m 'nope=(x)' "$FAKE" -- "$WORK"
[ "$STATUS" -eq 1 ] && printf '%s\n' "$ERR" | grep -qx 'value=100 ms' &&
	printf '%s\n' "$ERR" | tail -n 1 | grep -q "^sched-ab: round 1 (.): metric nope"
ok $? "--verbose: a failed run's output, then the line"

ab -v -r 2 -s 1 "$FAKE" -- "$WORK"
[ "$STATUS" -eq 0 ] && [ "$(printf '%s\n' "$ERR" | grep -cE '^sched-ab: round [12]/2 \([AB]\): [0-9.]+ s$')" -eq 4 ] &&
	[ "$(printf '%s\n' "$ERR" | wc -l)" -eq 4 ]
ok $? "--verbose: a line per run on stderr"

# --- TOOL lookup -------------------------------------------------------------
mkdir -p "$T/beside" "$T/path" "$T/alone"
cp "$AB" "$T/beside/sched-ab"
cp "$AB" "$T/alone/sched-ab"
ln -s "$FAKE" "$T/beside/no-preempt"
ln -s "$FAKE" "$T/path/boost-wakeup"
export WORK_STATE=$T/state.lookup
run "$T/beside/sched-ab" -r 1 -j no-preempt -- "$WORK"
[ "$STATUS" -eq 0 ] && [ "$(jq -r .tool_path <<<"$OUT")" = "$T/beside/no-preempt" ]
ok $? "a TOOL name is found beside sched-ab first"
PATH=$T/path:$PATH run "$T/alone/sched-ab" -r 1 -j boost-wakeup -- "$WORK"
[ "$STATUS" -eq 0 ] && [ "$(jq -r .tool_path <<<"$OUT")" = "$T/path/boost-wakeup" ]
ok $? "then in PATH"
PATH=/usr/bin:/bin run "$T/alone/sched-ab" -r 1 slice-extend -- "$WORK"
one_line_error 2 sched-ab "TOOL 'slice-extend': not found beside sched-ab or in PATH"
ok $? "a TOOL found nowhere: exit 2, one line"

# --- signals -----------------------------------------------------------------
"$AB" -r 3 "$FAKE" -- sleep 5 >/dev/null 2>"$T/sig.err" &
pid=$!
sleep 0.5
kill -TERM $pid
start=$(date +%s)
wait $pid
st=$?
[ "$st" -eq 143 ] && [ $(($(date +%s) - start)) -le 6 ] && [ -z "$(ls "$TMPDIR")" ]
ok $? "SIGTERM: passed to the tool, sched-ab dies of it (status $st), TMPDIR clean"

done_testing
