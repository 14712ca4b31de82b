#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The options every tool shares, good and bad, on this host. Good options
# must get past parsing and stop at the kernel check (the host has no
# scheduler BPF): exit 1 with the one-line "no hooks" error. Bad ones exit
# 2 (127/126 for a command) with one line naming what was wrong.
. "$(dirname "$0")/../tap.sh"

CG=$(cgroup2_mount)
SELF=$$
# -c . is the current directory (as bpftool takes paths): run from inside
# a child cgroup, so that it names one every tool accepts.
CHILD=
if [ -n "$CG" ] && mkdir "$CG/schedbpf-cli-$$" 2>/dev/null; then
	CHILD=$CG/schedbpf-cli-$$
	trap 'cd /; rmdir "$CHILD"; rm -rf "$TAP_TMP"' EXIT
	cd "$CHILD" || exit 1
fi
# a pid that does not exist
NOPID=4194304
while [ -e /proc/$NOPID ]; do NOPID=$((NOPID - 1)); done

for tool in "$BIN"/*; do
	name=$(basename "$tool")
	# sched-ab runs the tools and has options of its own: sched-ab.t
	[ "$name" = sched-ab ] && continue

	# option_refused TEXT ARGS...: exit 2, getopt's TEXT and a Try line
	option_refused() {
		text=$1
		shift
		run "$tool" "$@"
		option_error "$name" "$text"
		ok $? "$name $*: exit 2, '$text', Try --help"
		[ $STATUS -eq 2 ] || diag "status $STATUS" "stderr: $ERR"
	}

	# usage_error TEXT ARGS...: exit 2, one line containing TEXT
	usage_error() {
		text=$1
		shift
		run "$tool" "$@"
		one_line_error 2 "$name" "$text"
		ok $? "$name $*: exit 2, '$text'"
		[ $STATUS -eq 2 ] || diag "status $STATUS" "stderr: $ERR"
	}

	# good ARGS...: parsing accepts them; the kernel check stops the tool.
	# cgroup-isolate's insiders are cgroups: without -c it refuses them
	# (its own rule, tests/unit/cgroup-isolate.t), so here it gets -c too.
	good() {
		if [ "$name" = cgroup-isolate ]; then
			has_cg= has_all=
			for a in "$@"; do
				case $a in
				--) break ;;
				-c | --cgroup*) has_cg=1 ;;
				-a | --all | -anj*) has_all=1 ;;
				-*) ;;
				*) break ;;
				esac
			done
			if [ -n "$has_all" ] && [ -z "$has_cg" ]; then
				usage_error "--all leaves no outsiders" "$@"
				return
			fi
			# the root cgroup is every task, as --all is
			for a in "$@"; do
				if [ "$a" = "$CG" ]; then
					usage_error "is the root cgroup, which leaves no outsiders" "$@"
					return
				fi
			done
			[ -n "$has_cg" ] || set -- -c . "$@"
		fi
		if kernel_has_sched_bpf; then
			skip "$name $*: this kernel has the hooks"
			return
		fi
		run "$tool" "$@"
		one_line_error 1 "$name" "has no scheduler BPF" &&
			case "$ERR" in
			*"install linux-image-*-schedbpf (make kernel-deb) and boot it") true ;;
			*) false ;;
			esac
		ok $? "$name $*: accepted, then the clear no-hooks error (exit 1)"
		[ $STATUS -eq 1 ] || diag "status $STATUS" "stderr: $ERR"
	}

	run "$tool" --help
	[ $STATUS -eq 0 ] && [ -z "$ERR" ] &&
		printf '%s\n' "$OUT" | grep -q "^Usage: $name "
	ok $? "$name --help: exit 0, usage on stdout"
	for opt in cgroup pid all interval duration json dry-run observe \
		verbose help usage version; do
		printf '%s\n' "$OUT" | grep -q -- "--$opt"
		ok $? "$name --help documents --$opt"
	done
	for key in tick wakeup entity X_calls X_targets X_suppressed \
		X_forced bounded preemptions wakeups latency_us p50 p90 p99 \
		hist status elapsed_s dry_run; do
		printf '%s\n' "$OUT" | grep -q -- "$key"
		ok $? "$name --help lists JSON key $key"
	done
	run "$tool" -?
	[ $STATUS -eq 0 ] && printf '%s\n' "$OUT" | grep -q "^Usage: $name "
	ok $? "$name -?: help"
	run "$tool" --usage
	[ $STATUS -eq 0 ] && printf '%s\n' "$OUT" | grep -q "^Usage: $name "
	ok $? "$name --usage"
	run "$tool" --version
	[ $STATUS -eq 0 ] && printf '%s\n' "$OUT" | grep -q "^$name [0-9]"
	ok $? "$name --version"
	printf '%s\n' "$OUT" | grep -q "(libbpf v[0-9]"
	ok $? "$name --version names libbpf's version"

	# targets
	usage_error "no target" 
	usage_error "no target" -j -n
	option_refused "unrecognized option '--bogus'" --bogus -a
	option_refused "invalid option -- 'x'" -x
	option_refused "option requires an argument -- 'c'" -c
	option_refused "option '--pid' requires an argument" --pid
	option_refused "option '--json' doesn't allow an argument" -a --json=1
	run "$tool" -h
	[ $STATUS -eq 0 ] && printf '%s\n' "$OUT" | grep -q "^Usage: $name "
	ok $? "$name -h: help"
	usage_error "--all conflicts" -a -p $SELF
	usage_error "no command after '--'" -a --
	usage_error "no command after '--'" --
	usage_error "invalid --pid '0': out of range (1 to 4194304)" -p 0
	usage_error "invalid --pid '-1': negative" -p -1
	usage_error "invalid --pid 'abc': not a number" -p abc
	usage_error "invalid --pid '12abc': trailing junk 'abc'" -p 12abc
	usage_error "invalid --pid ' 1': not a number" -p " 1"
	usage_error "invalid --pid '4194305': out of range" -p 4194305
	usage_error "invalid --pid '99999999999999999999': too large" \
		-p 99999999999999999999
	usage_error "invalid --pid '$NOPID': no such process" -p $NOPID
	usage_error "invalid --cgroup '/nonexistent/cg': No such file or directory" \
		-c /nonexistent/cg
	usage_error "invalid --cgroup '/tmp': not on cgroup2" -c /tmp
	usage_error "invalid --cgroup '': empty path" -c ""
	if [ -n "$CHILD" ]; then
		usage_error "invalid --cgroup 'schedbpf-no-such-cg': No such file" \
			-c schedbpf-no-such-cg
		usage_error "invalid --cgroup '$CG/cgroup.procs': not a directory" \
			-c "$CG/cgroup.procs"
		usage_error "invalid --cgroup 'cgroup.procs': not a directory" \
			-c cgroup.procs
		usage_error "too many --cgroup (at most 8)" \
			-c . -c . -c . -c . -c . -c . -c . -c . -c .
		usage_error "--all conflicts" --all -c .
		good -c .
		good --cgroup=.
		good -c "$CG"
		good -c . -c "$CG" -c .
	else
		skip "no cgroup2 mounted: relative -c tests"
	fi
	# the interval and duration ranges
	usage_error "invalid --interval '5ms': out of range (10ms to 1h)" -a -i 5ms
	usage_error "invalid --interval '2h': out of range (10ms to 1h)" \
		-a --interval 2h
	usage_error "invalid --interval '1': missing unit" -a -i 1
	usage_error "invalid --observe 'some': not none, counts or full" \
		-a --observe some
	usage_error "invalid --observe '': not none, counts or full" \
		-a --observe=
	usage_error "invalid --interval 'abc': not a number" -a -i abc
	usage_error "invalid --interval '-1s': negative" -a -i -1s
	usage_error "invalid --duration '0s': out of range" -a -d 0s
	usage_error "invalid --duration '1.5': missing unit" -a -d 1.5
	usage_error "invalid --duration '1x': unknown unit 'x'" -a --duration 1x
	usage_error "invalid --duration '400d': unknown unit 'd'" -a -d 400d
	usage_error "invalid --duration '9000h': out of range" -a -d 9000h

	# a command that cannot run: the shell's statuses
	run "$tool" -- schedbpf-no-such-command
	one_line_error 127 "$name" "schedbpf-no-such-command: command not found"
	ok $? "$name -- missing command: exit 127, one line"
	run "$tool" -a -- /nonexistent/cmd arg
	one_line_error 127 "$name" "/nonexistent/cmd: command not found"
	ok $? "$name -a -- /nonexistent/cmd: exit 127"
	echo 'echo hi' >"$TAP_TMP/noexec"
	run "$tool" -- "$TAP_TMP/noexec"
	one_line_error 126 "$name" "Permission denied"
	ok $? "$name -- a file without x: exit 126"

	good -a
	good --all
	good -p $SELF
	good --pid=$SELF -p 1
	good -p $SELF -p $SELF
	good -- true
	good true
	good -a -- sh -c 'exit 3'
	# CMD's options are CMD's
	good -a sh --bogus -x
	good -a -- sh -c : --pid 0
	good -a -i 10ms
	good -a --interval=1h
	good -a -i 1.5s
	good -a -d 1ms
	good -a --duration 2m
	good -a -j
	good -a --json
	good -a -n
	good -a --dry-run
	good -a --observe none
	good -a --observe=counts
	good -a --observe full
	good -anj
	good -anji 250ms -d 3s
	# -v adds nothing before the error: the tool reads no BTF, it looks
	# for the series' sysctl
	for v in -v --verbose; do
		if kernel_has_sched_bpf; then
			skip "$name -a $v: this kernel has the hooks"
			continue
		fi
		if [ "$name" = cgroup-isolate ]; then
			run "$tool" -c . $v
		else
			run "$tool" -a $v
		fi
		one_line_error 1 "$name" "has no scheduler BPF (no /proc/sys/kernel/sched_bpf_detach_all)"
		ok $? "$name -a $v: the same one-line no-hooks error"
	done
done

done_testing
