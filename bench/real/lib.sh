# SPDX-License-Identifier: GPL-2.0-only
# bench/real: real server software, from Debian packages, next to a CPU hog.
# The layout every scenario shares, in the VM (2 vCPUs; "nested" adds a
# second hog inside the cgroup, real_start_inner_hog):
#   CPU 0: the server, inside cgroup $REAL_CG (the tools' target), and a
#          CPU-bound hog outside it (build/tests/hog);
#   CPU 1: the server's own load generator, outside the cgroup.
# So the server competes for its CPU with the hog only, and the load
# generator measures what that costs the server's clients.
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/tools/lib.sh"

REAL_CG=${REAL_CG:-schedbpf-real}
REAL_DIR=${REAL_DIR:-/tmp/schedbpf-real}

real_die() { echo "bench/real: $*" >&2; exit 1; }

# need CMD PACKAGE: CMD is installed, or say which package to install.
real_need() {
	command -v "$1" >/dev/null || real_die "$1 not found: apt-get install $2"
}

# real_start_hog: the CPU-bound neighbour on CPU 0, outside the cgroup;
# REAL_HOG is its pid.
real_start_hog() {
	[ -x "$HOG" ] || real_die "$HOG missing: make kernel-tests"
	taskset -c 0 "$HOG" &
	REAL_HOG=$!
}

# real_start_inner_hog: a CPU-bound task inside cgroup $REAL_CG on CPU 0,
# the server's own batch job (the "nested" layout of bench/real/run),
# started before the server (whose start sets REAL_PID again); real_stop
# kills it with the cgroup.
real_start_inner_hog() {
	[ -x "$HOG" ] || real_die "$HOG missing: make kernel-tests"
	real_in_cg "$HOG"
}

# real_in_cg CMD [ARG...]: CMD in cgroup $REAL_CG from its first
# instruction, pinned to CPU 0, in the background; REAL_PID is its pid.
# Its output goes to $REAL_DIR/server.out, not to ours: a caller reading
# our output to its end, $(...), would otherwise wait for the server.
real_in_cg() {
	mkdir -p "$CGROOT/$REAL_CG" "$REAL_DIR"
	bash -c 'echo $$ >"$0/cgroup.procs" && exec taskset -c 0 "$@"' \
		"$CGROOT/$REAL_CG" "$@" >"$REAL_DIR/server.out" 2>&1 </dev/null &
	REAL_PID=$!
}

# real_wait_port PORT: something listens on 127.0.0.1:PORT, within 20 s.
real_wait_port() {
	local _

	for _ in $(seq 200); do
		(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# real_stop: the hog and the server gone, the cgroup removed.
real_stop() {
	local p

	[ -n "${REAL_HOG:-}" ] && kill "$REAL_HOG" 2>/dev/null
	for p in $(cat "$CGROOT/$REAL_CG/cgroup.procs" 2>/dev/null); do
		kill -KILL "$p" 2>/dev/null
	done
	sleep 0.2
	rmdir "$CGROOT/$REAL_CG" 2>/dev/null
	rm -rf "$REAL_DIR"
	return 0
}
