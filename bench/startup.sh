#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What a tool costs to start, for two builds of the tools side by side in
# one boot: each tool's exec-to-attached time (the run record's attach_ns)
# and its peak RSS (VmHWM), ROUNDS times each, at --observe=none and full,
# on an empty cgroup. Build A is the baseline (another checkout's
# build/bin, e.g. a worktree of an earlier commit), B this checkout's.
# Numbers, not a test. Under --icount (1 vCPU) the times repeat:
#   kernel/vm-run --icount -- bench/startup.sh /path/to/A/build/bin
. "$(dirname "$0")/../tests/tools/lib.sh"

A=${1:?usage: bench/startup.sh BIN_DIR_A [BIN_DIR_B], B by default this checkout build/bin}
B=${2:-$BIN}
ROUNDS=${ROUNDS:-5}
TOOLS=(no-preempt boost-wakeup slice-extend cgroup-isolate)
[ -x "$A/no-preempt" ] || { echo "startup: no tools in $A" >&2; exit 1; }

CG=schedbpf-startup-$$
mkdir "$CGROOT/$CG" || exit 1
trap 'rmdir "$CGROOT/$CG"' EXIT

# one DIR TOOL LEVEL: "attach_ns rss_kB" of one start, attached then
# stopped (lib.sh's start_tool and stop_tool)
one() {
	local out=$TAP_TMP/run.json rss
	start_tool "$out" "$1/$2" -c "$CG" --observe="$3" -j -q --interval 1h
	[ -s "$out" ] || { echo "startup: $1/$2 did not attach" >&2; exit 1; }
	rss=$(awk '/^VmHWM/ { print $2 }' "/proc/$TOOL_PID/status")
	stop_tool
	echo "$(head -n 1 "$out" | jq .attach_ns) $rss"
}

echo "startup: $(uname -r), $(nproc) CPU(s), $ROUNDS rounds; A=$A B=$B"
printf '%-15s %-6s %11s %11s %6s  %8s %8s  %s\n' tool observe "A ms" "B ms" "B/A" \
	"A kB" "B kB" "B ms: min-max"
for t in "${TOOLS[@]}"; do
	for level in none full; do
		: >"$TAP_TMP/a"
		: >"$TAP_TMP/b"
		# interleaved, so that a drift in the guest affects both alike
		for _ in $(seq "$ROUNDS"); do
			one "$A" "$t" "$level" >>"$TAP_TMP/a"
			one "$B" "$t" "$level" >>"$TAP_TMP/b"
		done
		# lib.sh's median: the lower middle one of an even count
		a_ns=$(median $(cut -d' ' -f1 "$TAP_TMP/a"))
		b_ns=$(median $(cut -d' ' -f1 "$TAP_TMP/b"))
		a_kb=$(median $(cut -d' ' -f2 "$TAP_TMP/a"))
		b_kb=$(median $(cut -d' ' -f2 "$TAP_TMP/b"))
		b_range=$(cut -d' ' -f1 "$TAP_TMP/b" | sort -n |
			awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.1f-%.1f", lo / 1e6, hi / 1e6 }')
		awk -v t="$t" -v l="$level" -v an="$a_ns" -v bn="$b_ns" -v ak="$a_kb" \
			-v bk="$b_kb" -v r="$b_range" 'BEGIN {
			printf "%-15s %-6s %11.1f %11.1f %6.3f  %8d %8d  %s\n",
				t, l, an / 1e6, bn / 1e6, bn / an, ak, bk, r }'
	done
done
