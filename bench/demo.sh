#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make demo runs this in the VM: a CPU-bound target in a cgroup and a
# competitor outside it share CPU 0, first under no-preempt --dry-run, then
# under no-preempt, in the same boot. Prints both runs side by side.
. "$(dirname "$0")/../tests/tools/lib.sh"

SECS=${SECS:-6}
if ! kernel_has_sched_bpf; then
	echo "demo: this kernel has no scheduler BPF; run: make demo" >&2
	exit 1
fi
[ -x "$HOG" ] || { echo "demo: $HOG missing; run: make kernel-tests" >&2; exit 1; }
CG=schedbpf-demo
new_cgroup "$CG"

echo "no-preempt demo: target (cgroup $CG) vs competitor, both CPU-bound on CPU 0,"
echo "${SECS} s each run; kernel $(uname -r)"
measure "$SECS" "$TAP_TMP/a.json" --dry-run --observe=full
a_n=$TGT_NIVCSW a_c=$COMP_PCT a_s=$MEASURE_STATUS
measure "$SECS" "$TAP_TMP/b.json" --observe=full
b_n=$TGT_NIVCSW b_c=$COMP_PCT b_s=$MEASURE_STATUS
[ "$a_s" = 0 ] && [ "$b_s" = 0 ] || { echo "demo: no-preempt failed" >&2; exit 1; }

row() { printf '%-38s %12s %12s\n' "$@"; }
sum() { jq -s -r ".[-1] | $2" "$TAP_TMP/$1.json"; }
echo
row "" "--dry-run" "no-preempt"
row "target: involuntary switches (/proc)" "$a_n" "$b_n"
row "target: preemptions (tool's count)" "$(sum a .preemptions)" "$(sum b .preemptions)"
row "competitor: CPU share" "$a_c%" "$b_c%"
for hook in tick wakeup entity; do
	row "$hook: target calls / suppressed" \
		"$(sum a ".${hook}_targets")/$(sum a ".${hook}_suppressed")" \
		"$(sum b ".${hook}_targets")/$(sum b ".${hook}_suppressed")"
done
row "bounded by --max-run" "$(sum a .bounded)" "$(sum b .bounded)"
row "target wakeup latency p99 (us)" "$(sum a .latency_us.p99)" "$(sum b .latency_us.p99)"
echo
if [ "$a_n" -gt 0 ]; then
	echo "involuntary switches cut by $(((a_n - b_n) * 100 / a_n))%;" \
		"no-preempt itself: peak RSS $TOOL_RSS_KB kB, CPU $TOOL_CPU_PCT% at --interval 1s"
fi
