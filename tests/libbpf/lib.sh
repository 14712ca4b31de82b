# SPDX-License-Identifier: GPL-2.0-only
# Shared by tests/libbpf/*.t (bash). Sourced, not run: prove only picks
# up *.t files.

. "$(dirname "${BASH_SOURCE[0]}")/../tap.sh"

top=$ROOT
bin=$top/build/tests/libbpf/sched_skel

# skip_all REASON: skip the whole file, or bail out where the caller
# demands the hooks (SCHEDBPF_REQUIRE_HOOKS=1, e.g. in the schedbpf VM)
skip_all() {
	if [ "${SCHEDBPF_REQUIRE_HOOKS:-}" = 1 ]; then
		echo "Bail out! $1"
		exit 1
	fi
	echo "1..0 # SKIP $1"
	exit 0
}

# Build the test program if it is missing (on the host; the VM runs what
# the host built).
need_bin() {
	if [ ! -x "$bin" ]; then
		make -s -C "$top/tests/libbpf" >&2 || {
			echo "Bail out! cannot build $bin (make -C tests/libbpf)"
			exit 1
		}
	fi
}
