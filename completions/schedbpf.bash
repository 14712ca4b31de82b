# SPDX-License-Identifier: GPL-2.0-only
# bash completion for the schedbpf tools: no-preempt, boost-wakeup,
# slice-extend, cgroup-isolate. One file for all four; `make install`
# puts a copy under each tool's name, where bash-completion looks.

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

_schedbpf()
{
	local cur prev words cword i opts
	_init_completion -n = || return

	# after -- (or the first word that is not an option): CMD and its args
	for ((i = 1; i < cword; i++)); do
		if [[ ${words[i]} == -- ]]; then
			_command_offset $((i + 1))
			return
		fi
	done

	opts='--cgroup --pid --all --interval --duration --kill-after --json
		--output --quiet --dry-run --verbose --help --usage --version'
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
complete -F _schedbpf no-preempt boost-wakeup slice-extend cgroup-isolate
