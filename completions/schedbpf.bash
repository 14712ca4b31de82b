# SPDX-License-Identifier: GPL-2.0-only
# bash completion for the schedbpf tools: no-preempt, boost-wakeup,
# slice-extend, cgroup-isolate, and sched-ab, which runs them. One file for
# all five; `make install` puts a copy under each tool's name, where
# bash-completion looks.

# cgroup2 directories, relative to the cgroup2 mount as -c takes them
_schedbpf_cgroups()
{
	local mnt
	mnt=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") break;
		if ($(i + 1) == "cgroup2") { print $5; exit } }' /proc/self/mountinfo)
	[ -n "$mnt" ] || return
	# absolute, or ./ ../ relative to here, as -c takes them
	if [[ $1 == /* || $1 == . || $1 == .. || $1 == ./* || $1 == ../* ]]; then
		compgen -d -- "$1"
	else
		(cd "$mnt" 2>/dev/null && compgen -d -- "$1")
	fi
}

# sched-ab [OPTION...] TOOL [TOOL-OPTS] -- WORKLOAD: its own options, then
# from TOOL on, TOOL's completion (whose -- starts the workload)
_schedbpf_ab()
{
	local i
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		-r | --rounds | -m | --metric | -s | --seed) ((i++)) ;;
		-*) ;;
		*)
			_command_offset $i
			return
			;;
		esac
	done
	case $prev in
	-r | --rounds)
		COMPREPLY=($(compgen -W '4 5 8 10 20' -- "$cur"))
		return
		;;
	-m | --metric | -s | --seed)
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '--rounds --metric --seed --json --verbose
			--help --usage --version' -- "$cur"))
	elif [[ $cur == */* ]]; then
		_filedir
	else
		COMPREPLY=($(compgen -W 'no-preempt boost-wakeup slice-extend
			cgroup-isolate' -- "$cur"))
	fi
}

_schedbpf()
{
	local cur prev words cword i opts
	_init_completion -n = || return

	if [[ $1 == sched-ab ]]; then
		_schedbpf_ab
		return
	fi

	# after -- (or the first word that is not an option): CMD and its args
	for ((i = 1; i < cword; i++)); do
		if [[ ${words[i]} == -- ]]; then
			_command_offset $((i + 1))
			return
		fi
	done

	opts='--cgroup --pid --all --interval --duration --kill-after --json
		--output --quiet --dry-run --observe --verbose --help --usage --version'
	case $1 in
	no-preempt) opts+=' --max-run' ;;
	boost-wakeup) opts+=' --max-lead' ;;
	slice-extend) opts+=' --slice' ;;
	cgroup-isolate) opts+=' --preempt-outsiders --min-run' ;;
	esac

	case $prev in
	-c | --cgroup)
		local IFS=$'\n'
		COMPREPLY=($(_schedbpf_cgroups "$cur"))
		compopt -o filenames -o nospace 2>/dev/null
		return
		;;
	-p | --pid)
		_pids
		return
		;;
	--output)
		_filedir
		return
		;;
	--observe)
		COMPREPLY=($(compgen -W 'none counts full' -- "$cur"))
		return
		;;
	-i | --interval | -d | --duration | -k | --kill-after | -m | --max-run | \
		--min-run | -l | --max-lead | -s | --slice)
		COMPREPLY=($(compgen -W '100us 1ms 10ms 20ms 100ms 1s 10s 1m' -- "$cur"))
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts --" -- "$cur"))
		return
	fi
}
complete -F _schedbpf no-preempt boost-wakeup slice-extend cgroup-isolate sched-ab
