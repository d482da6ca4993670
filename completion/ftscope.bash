# SPDX-License-Identifier: MIT
# bash completion for ftscope(1)                                -*- shell-script -*-
#
# The subcommands and each subcommand's flags are read from the program's own
# help (`ftscope --help`, `ftscope CMD --help`), parsed by the rule
# tests/man/check_man.py applies to check the man pages against that help: a
# flag is defined by a help line indented by 1 to 7 spaces that starts with
# `-x, --long ARG` or `--long ARG`, the description after two spaces. A flag
# added to --help therefore completes without touching this file. The value a
# flag takes is known from its placeholder there: `a|b|c` lists the values;
# LIST, FILE, DIR and COLUMN are known below by the flag's name.
#
# Values: --format and 0|1 flags from the help; --backend's names; --cpu from
# /sys/devices/system/cpu/online (each online CPU, the whole list and each NUMA
# node's, continuing a comma list); --events and --list-events from
# `ftscope record --list-events`; --sort from the stats columns; files by kind
# (a capture: *.dat, *.txt, *.db, *.json, and any other regular file whose
# first bytes are a trace.dat's or kernel text's, at most 64 of them read).

# _ftscope_flags BIN CMD: one "flag arg" line per flag of CMD ("-" for no arg).
_ftscope_flags()
{
	local bin=$1 cmd=$2 line field indent rest own=0 usage=0
	local -a t

	while IFS= read -r line; do
		if [[ $line == usage:* ]]; then
			usage=1
			line=" ${line#usage:}"
		elif ((usage)) && [[ -z $line || $line != [[:space:]]* ]]; then
			usage=0
		fi
		if ((usage)); then
			# the synopsis: only the lines of this command, and their continuations
			if [[ $line =~ ^[[:space:]]*ftscope([[:space:]]+([^[:space:]]+))? ]]; then
				own=0
				[[ ${BASH_REMATCH[2]} == "$cmd" ]] && own=1
			fi
			((own)) || continue
			rest=$line
			while [[ $rest =~ (^|[[:space:][])(--?[A-Za-z][A-Za-z0-9_-]*)(\ ([^][[:space:]]+))?(.*)$ ]]; do
				printf '%s %s\n' "${BASH_REMATCH[2]}" "${BASH_REMATCH[4]:--}"
				rest=${BASH_REMATCH[5]}
			done
			continue
		fi
		field=${line#"${line%%[! ]*}"}
		indent=$((${#line} - ${#field}))
		if ((indent < 1 || indent > 7)) || [[ $field != -* ]]; then
			continue
		fi
		field=${field%%  *}
		read -ra t <<<"$field"
		if [[ ${t[0]} == -?, ]]; then
			printf '%s %s\n' "${t[0]%,}" "${t[2]:--}" "${t[1]}" "${t[2]:--}"
		else
			printf '%s %s\n' "${t[0]}" "${t[1]:--}"
		fi
	done < <(LC_ALL=C "$bin" "$cmd" --help 2>/dev/null)
}

# _ftscope_commands BIN: the subcommands `ftscope --help` lists.
_ftscope_commands()
{
	local line list=0

	while IFS= read -r line; do
		if [[ $line == commands:* ]]; then
			list=1
		elif ((list)) && [[ $line =~ ^\ \ ([a-z][a-z0-9_-]*)\  ]]; then
			printf '%s\n' "${BASH_REMATCH[1]}"
		elif ((list)) && [[ -z $line ]]; then
			list=0
		fi
	done < <(LC_ALL=C "$1" --help 2>/dev/null)
}

# _ftscope_cpu_expand LIST: the CPU numbers of "0-3,8", one a line.
_ftscope_cpu_expand()
{
	local part lo hi n IFS=,

	for part in $1; do
		[[ $part =~ ^[0-9]+(-[0-9]+)?$ ]] || continue
		lo=${part%-*} hi=${part#*-}
		for ((n = lo; n <= hi; n++)); do
			echo "$n"
		done
	done
}

# _ftscope_cpus VALUE: CPU lists continuing VALUE ("0-3,8" style).
_ftscope_cpus()
{
	local value=$1 pre='' online='' part f n
	local -a cand=() taken=()

	[[ $value == *,* ]] && pre=${value%,*},
	read -r online </sys/devices/system/cpu/online 2>/dev/null || return 0
	if [[ -z $pre ]]; then
		cand+=("$online")
		# compgen -G: no glob of the user's shell options (failglob, nullglob)
		while IFS= read -r f; do
			read -r part <"$f" 2>/dev/null && [[ -n $part ]] && cand+=("$part")
		done < <(compgen -G '/sys/devices/system/node/node[0-9]*/cpulist')
	fi
	# the CPUs the list already names are not offered again
	for n in $(_ftscope_cpu_expand "${pre%,}"); do
		taken[n]=1
	done
	for n in $(_ftscope_cpu_expand "$online"); do
		[[ -z ${taken[n]-} ]] && cand+=("$pre$n")
	done
	printf '%s\n' "${cand[@]}"
}

# _ftscope_events BIN VALUE: groups and events, with '-' to remove, continuing VALUE.
_ftscope_events()
{
	local bin=$1 value=$2 pre='' last ev minus='' 
	local -a cand=(sched irq futex)

	[[ $value == *,* ]] && pre=${value%,*},
	last=${value##*,}
	[[ $last == -* ]] && minus=-
	while IFS= read -r ev; do
		[[ $ev == */* ]] && cand+=("${ev/\//:}")
	done < <(LC_ALL=C "$bin" record --list-events sched irq futex 2>/dev/null)
	printf '%s\n' "${cand[@]/#/"$pre$minus"}"
}

# _ftscope_is_capture FILE: the first bytes are a trace.dat's or kernel text's.
_ftscope_is_capture()
{
	local head=

	[[ -f $1 && -r $1 ]] || return 1
	LC_ALL=C read -r -n 16 -d '' head <"$1" 2>/dev/null
	[[ $head == $'\x17\x08D'tracing* || $head == '# tracer:'* || $head == cpus=* ]]
}

# _ftscope_files KIND VALUE: directories and files of KIND (capture, trace,
# dat, db, json, xlsx, dir) starting with VALUE.
_ftscope_files()
{
	local kind=$1 value=$2 f sniffed=0
	local -a pats

	compgen -d -- "$value"
	case $kind in
	dir) return ;;
	capture) pats=('*.dat' '*.txt' '*.db' '*.json') ;;
	trace) pats=('*.dat' '*.txt' '*.db' '*.json') ;;
	dat) pats=('*.dat' '*.txt') ;;
	db) pats=('*.db' '*.json') ;;
	json) pats=('*.json') ;;
	xlsx) pats=('*.xlsx') ;;
	esac
	while IFS= read -r f; do
		[[ -d $f ]] && continue
		for p in "${pats[@]}"; do
			# shellcheck disable=SC2053  # a pattern on purpose
			[[ $f == $p ]] && { printf '%s\n' "$f"; continue 2; }
		done
		if [[ $kind == capture || $kind == trace ]] && ((sniffed++ < 64)); then
			_ftscope_is_capture "$f" && printf '%s\n' "$f"
		fi
	done < <(compgen -f -- "$value")
}

# _ftscope_values BIN CMD FLAG ARG VALUE: the candidates for FLAG's value.
_ftscope_values()
{
	local bin=$1 cmd=$2 flag=$3 arg=$4 value=$5

	if [[ $arg =~ ^[a-z0-9-]+(\|[a-z0-9-]+)+$ ]]; then
		local IFS='|'
		# shellcheck disable=SC2086  # split at '|' on purpose
		printf '%s\n' $arg
		return
	fi
	case $cmd:$flag in
	*:--backend) printf '%s\n' auto tracefs debugfs trace-cmd ;;
	*:--cpu | *:-c) _ftscope_cpus "$value" ;;
	*:--events | *:--list-events) _ftscope_events "$bin" "$value" ;;
	stats:--sort | stats:-s)
		printf '%s\n' running_ns runnable_ns sleeping_ns blocked_ns unknown_ns switches \
			involuntary migrations irq_count irq_ns softirq_count softirq_ns top_irq \
			wakeups wakeup_p50_ns wakeup_p99_ns wakeup_max_ns top_preempter \
			top_preempter_ns task pid
		;;
	preview:--print) printf '%s\n' 80x24 120x40 ${COLUMNS:+${COLUMNS}x${LINES-24}} ;;
	*:--pid_mapping | *:--pid-mapping | *:-m) echo @json ;;
	record:--output | record:-o) echo @dat ;;
	convert:--output | convert:-o) echo @db ;;
	pidmap:--output | pidmap:-o) echo @json ;;
	stats:--output | stats:-o) echo @xlsx ;;
	hostbound:--output | hostbound:-o) echo @dir ;;
	*:--input | *:-i) echo @capture ;;
	*)
		case $arg in
		DIR) echo @dir ;;
		FILE) echo @capture ;;
		esac
		;;
	esac
}

_ftscope()
{
	local bin=${COMP_WORDS[0]} cmd='' i word cw=0 real repl strip prev pre='' flag arg=- value
	local -a w=() flags=() out=() cand=()
	local -A argof=() seen=()

	[[ $bin == \~/* ]] && bin=$HOME/${bin#\~/}
	COMPREPLY=()
	# rejoin what COMP_WORDBREAKS split: --flag=value and system:event
	for ((i = 0; i <= COMP_CWORD; i++)); do
		word=${COMP_WORDS[i]}
		if ((i > 1)) && [[ $word == [=:] || ${COMP_WORDS[i - 1]} == [=:] ]]; then
			w[cw]+=$word
		else
			((i > 0)) && cw=$((cw + 1))
			w[cw]=$word
		fi
	done
	real=${w[cw]}
	repl=${COMP_WORDS[COMP_CWORD]}
	[[ $repl == [=:] ]] && repl=
	strip=${real%"$repl"}
	prev=
	((cw >= 3)) && prev=${w[cw - 1]}

	# the subcommand: the first word after the program's name
	((cw >= 2)) && cmd=${w[1]}
	if [[ -z $cmd ]]; then
		if [[ $real == -* ]]; then
			out=(--help --version)
		else
			mapfile -t out < <(_ftscope_commands "$bin")
		fi
	elif [[ $cmd == help || $cmd == --help || $cmd == -h ]]; then
		((cw == 2)) && mapfile -t out < <(_ftscope_commands "$bin" | grep -vx 'help\|version')
	elif [[ $'\n'$(_ftscope_commands "$bin")$'\n' == *$'\n'"$cmd"$'\n'* ]]; then
		# only a command --help lists is asked for its --help (not a hidden helper)
		while read -r flag arg; do
			flags+=("$flag")
			argof[$flag]=$arg
		done < <(_ftscope_flags "$bin" "$cmd")
		flag='' arg=- value=$real
		if [[ $real == --*=* ]]; then
			flag=${real%%=*} value=${real#*=} pre=${real%%=*}=
			arg=${argof[$flag]:--}
		elif [[ -n $prev && ${argof[$prev]:--} != - ]]; then
			flag=$prev arg=${argof[$prev]}
		elif [[ $real == -* ]]; then
			out=("${flags[@]}")
		elif [[ $cmd == record && " ${w[*]:2:cw-2} " == *" --list-events "* ]]; then
			flag=--events arg=LIST
		elif [[ $cmd == preview || $cmd == stats || $cmd == hostbound ]]; then
			flag=FILE arg=FILE
		fi
		if [[ $arg != - ]]; then
			mapfile -t cand < <(_ftscope_values "$bin" "$cmd" "$flag" "$arg" "$value")
			if [[ ${cand[0]-} == @* ]]; then
				compopt -o filenames 2>/dev/null
				mapfile -t cand < <(_ftscope_files "${cand[0]#@}" "$value")
			fi
			for word in "${cand[@]}"; do
				out+=("$pre$word")
			done
		fi
	fi
	for word in "${out[@]}"; do
		[[ $word == "$real"* && -z ${seen[$word]-} ]] || continue
		seen[$word]=1
		# bash replaces only the part after the last word break
		COMPREPLY+=("${word#"$strip"}")
	done
	return 0
}

complete -F _ftscope ftscope
