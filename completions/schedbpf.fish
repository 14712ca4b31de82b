# SPDX-License-Identifier: GPL-2.0-only
# fish completion for the schedbpf tools: no-preempt, boost-wakeup,
# slice-extend, cgroup-isolate, and sched-ab, which runs them. One file for
# all five; `make install` puts a copy under each tool's name, where fish
# looks.

function __schedbpf_cgroups
    set -l mnt (awk '{ for (i = 1; i <= NF; i++) if ($i == "-") break;
        if ($(i + 1) == "cgroup2") { print $5; exit } }' /proc/self/mountinfo)
    test -n "$mnt"; or return
    set -l cur (commandline -ct)
    # absolute, or ./ ../ relative to here, as -c takes them
    if string match -q -r -- '^(/|\.\.?(/|$))' $cur
        __fish_complete_directories $cur
    else
        for d in $mnt/$cur*/
            string replace -- "$mnt/" '' $d
        end
    end
end

set -l __schedbpf_durations 100us 1ms 10ms 20ms 100ms 1s 10s 1m
for cmd in no-preempt boost-wakeup slice-extend cgroup-isolate
    complete -c $cmd -f
    complete -c $cmd -s c -l cgroup -x -a '(__schedbpf_cgroups)' -d 'Tasks in this cgroup2 directory or below'
    complete -c $cmd -s p -l pid -x -a '(__fish_complete_pids)' -d 'Every thread of process PID'
    complete -c $cmd -s a -l all -d 'Every task'
    complete -c $cmd -s i -l interval -x -a "$__schedbpf_durations" -d 'Print counters every DURATION'
    complete -c $cmd -s d -l duration -x -a "$__schedbpf_durations" -d 'Stop after DURATION'
    complete -c $cmd -s k -l kill-after -x -a "$__schedbpf_durations" -d 'SIGKILL a CMD the tool stopped, DURATION later'
    complete -c $cmd -s j -l json -d 'One JSON object per line'
    complete -c $cmd -s q -l quiet -d 'Print only the summary'
    complete -c $cmd -l output -r -F -d 'Write rows and summary to FILE'
    complete -c $cmd -s n -l dry-run -d 'Count what the policy would do; CFS decides'
    complete -c $cmd -l observe -x -a 'none counts full' -d 'What to watch besides the policy'
    complete -c $cmd -s v -l verbose -d 'Say what the tool found and did, and why a load failed'
    complete -c $cmd -s '?' -l help -d 'Give the help list'
    complete -c $cmd -s h -d 'Give the help list'
    complete -c $cmd -l usage -d 'Give a short usage message'
    complete -c $cmd -s V -l version -d "Print the program version and that of its skeleton's libbpf"
end
complete -c no-preempt -s m -l max-run -x -a "$__schedbpf_durations" -d 'Longest continuous run with preemption suppressed'
complete -c boost-wakeup -s l -l max-lead -x -a "$__schedbpf_durations" -d 'Boost only while less than DURATION ahead in vruntime'
complete -c slice-extend -s s -l slice -x -a "$__schedbpf_durations" -d 'Least a target runs before the tick may preempt it'
complete -c cgroup-isolate -s o -l preempt-outsiders -d "Insiders' wakeups preempt outsiders"
complete -c cgroup-isolate -s m -l min-run -x -a "$__schedbpf_durations" -d 'Least an insider runs before an outsider may preempt it'
# after --: the wrapped command and its arguments
for cmd in no-preempt boost-wakeup slice-extend cgroup-isolate
    complete -c $cmd -n 'contains -- -- (commandline -opc)' -x -a '(__fish_complete_subcommand)'
end

# sched-ab [OPTION...] TOOL [TOOL-OPTS] -- WORKLOAD: its own options until
# TOOL, then TOOL's completion
function __schedbpf_ab_tool_at
    set -l words (commandline -opc)
    set -l skip 0
    for i in (seq 2 (count $words))
        if test $skip = 1
            set skip 0
            continue
        end
        switch $words[$i]
            case -r --rounds -m --metric -s --seed
                set skip 1
            case '-*'
            case '*'
                echo $i
                return 0
        end
    end
    return 1
end
function __schedbpf_ab_before_tool
    not __schedbpf_ab_tool_at >/dev/null
end
function __schedbpf_ab_tool_args
    set -l at (__schedbpf_ab_tool_at)
    set -l words (commandline -opc)
    # a nested complete -C sees this command line, not its own: after
    # TOOL's --, complete the workload's line by itself
    set -l dashes (contains -i -- -- $words[$at..-1])
    and set at (math $at + $dashes)
    complete -C (string join ' ' -- (string escape -- $words[$at..-1]) (commandline -ct))
end
complete -c sched-ab -f
complete -c sched-ab -n __schedbpf_ab_before_tool -s r -l rounds -x -a '4 5 8 10 20' -d 'Rounds, each one run of A and one of B'
complete -c sched-ab -n __schedbpf_ab_before_tool -s m -l metric -x -d "Also compare a number from the workload's output"
complete -c sched-ab -n __schedbpf_ab_before_tool -s s -l seed -x -d 'Draw the order within rounds from seed N'
complete -c sched-ab -n __schedbpf_ab_before_tool -s j -l json -d 'One JSON object instead of a table'
complete -c sched-ab -n __schedbpf_ab_before_tool -s v -l verbose -d "A line per run on stderr, a failed run's output"
complete -c sched-ab -n __schedbpf_ab_before_tool -s '?' -l help -d 'Give the help list'
complete -c sched-ab -n __schedbpf_ab_before_tool -s h -d 'Give the help list'
complete -c sched-ab -n __schedbpf_ab_before_tool -l usage -d 'Give a short usage message'
complete -c sched-ab -n __schedbpf_ab_before_tool -s V -l version -d 'Print the program version'
complete -c sched-ab -n __schedbpf_ab_before_tool -x -a 'no-preempt boost-wakeup slice-extend cgroup-isolate' -d TOOL
complete -c sched-ab -n 'not __schedbpf_ab_before_tool' -x -a '(__schedbpf_ab_tool_args)'
