#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The bash completion in a non-interactive bash, as bash-completion would call
# it: source completion/ftscope.bash, set COMP_WORDS/COMP_CWORD (split at '='
# and ':' as COMP_WORDBREAKS splits them), call _ftscope, check COMPREPLY.
source "$(dirname "$0")/../contract/lib.sh"
FTSCOPE=$(readlink -f "$FTSCOPE")
PATH="$(dirname "$FTSCOPE"):$PATH"
export PATH
source "$SRC/completion/ftscope.bash"

# complete WORD...: the words of the command line, the last one being completed
complete_words() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_ftscope
	printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort
}

# expect DESC "EXPECTED WORDS" WORD...: COMPREPLY is exactly these (any order)
expect() {
	local desc=$1 want got
	want=$(printf '%s\n' $2 | LC_ALL=C sort)
	shift 2
	got=$(complete_words "$@")
	if [[ $got == "$want" ]]; then
		pass "$desc"
	else
		bad "$desc: '$*' completes to [$(echo $got)], expected [$(echo $want)]"
	fi
}

# has DESC WORD|!WORD... -- LINE...: COMPREPLY holds each WORD and no !WORD
has() {
	local desc=$1 w got ok=1
	local -a want=()
	shift
	while [[ $1 != -- ]]; do want+=("$1"); shift; done
	shift
	got=$(complete_words "$@")
	for w in "${want[@]}"; do
		if [[ $w == !* ]]; then
			grep -qxF -- "${w#!}" <<<"$got" && { ok=0; echo "  offers ${w#!}"; }
		else
			grep -qxF -- "$w" <<<"$got" || { ok=0; echo "  lacks $w"; }
		fi
	done
	if ((ok)); then pass "$desc"; else bad "$desc: '$*' completes to [$(echo $got)]"; fi
}

if complete -p ftscope 2>/dev/null | grep -q -- '-F _ftscope ftscope$'; then
	pass "complete -p: ftscope completes with _ftscope"
else
	bad "complete -p ftscope: $(complete -p ftscope 2>&1)"
fi

# the subcommands, from 'ftscope --help'
cmds=$("$FTSCOPE" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p' | tr '\n' ' ')
expect "subcommands" "$cmds" ftscope ""
expect "subcommand prefix" "record" ftscope re
expect "help takes a subcommand" "record" ftscope help rec
expect "global flags" "--help --version" ftscope --
has "record's flags" --cpu --output -o --record_time -t --bf_size --backend --sched --irq \
	--futex --events --NSpid --pid_mapping --quiet --live_top --list-events --help \
	'!--input' '!--format' -- ftscope record -
expect "record's long flags with a prefix" "--record_time --reader_nice" ftscope record --re

# values
expect "convert --format" "db json" ftscope convert --format ""
expect "convert --format=j (split at '=')" "json" ftscope convert --format = j
expect "convert -f" "db json" ftscope convert -f ""
expect "stats --format" "table csv json xlsx" ftscope stats trace.dat --format ""
expect "record --sched" "0 1" ftscope record --sched ""
expect "record --backend" "auto tracefs debugfs trace-cmd" ftscope record --backend ""
has "stats --sort" runnable_ns running_ns -- ftscope stats x.dat --sort run
has "record --events: groups and events" sched irq futex sched:sched_switch -- ftscope record --events ""
expect "record --events after a comma, a removal" "sched,-sched:sched_stat_runtime sched,-sched:sched_switch" \
	ftscope record --events "sched,-sched:sched_s"
# as bash hands it over with ':' in COMP_WORDBREAKS: only the part after ':' is replaced
expect "record --events split at ':'" "sched_stat_runtime sched_switch" \
	ftscope record --events "sched,-sched" : sched_s
has "record --list-events LIST" sched irq futex -- ftscope record --list-events ""

# CPU lists from this machine's online CPUs
read -r online < /sys/devices/system/cpu/online
cpus=()
IFS=, read -ra parts <<<"$online"
for p in "${parts[@]}"; do
	for ((n = ${p%-*}; n <= ${p#*-}; n++)); do cpus+=("$n"); done
done
has "record --cpu: the online list and each online CPU" "$online" "${cpus[@]}" -- ftscope record --cpu ""
has "stats -c: the same" "$online" "${cpus[0]}" -- ftscope stats x.dat -c ""
if ((${#cpus[@]} > 1)); then
	has "--cpu after a comma: the rest, not the one listed" "${cpus[0]},${cpus[1]}" "!${cpus[0]},${cpus[0]}" \
		-- ftscope record --cpu "${cpus[0]},"
fi
has "--cpu= (split at '=')" "$online" -- ftscope record --cpu = ""
# the user's shell options do not change it
if (shopt -s failglob nullglob; set -u; complete_words ftscope record --cpu "") > "$WORK/glob.out" 2>&1 &&
	grep -qxF -- "$online" "$WORK/glob.out"; then
	pass "--cpu under failglob, nullglob and set -u"
else
	bad "--cpu under failglob, nullglob and set -u: $(head -3 "$WORK/glob.out")"
fi

# files by kind, in a directory with one of each
mkdir -p "$WORK/dir/sub"
cd "$WORK/dir" || exit 1
touch trace.dat b.png report.xlsx c.txt ftrace_data.db ftrace_data2.db x.json notes.md "with space.dat"
printf '\027\010Dtracing6\0\0' > renamed
printf '# tracer: nop\n' > kernel_text
printf 'not a trace\n' > README
mkfifo fifo
has "convert -i: captures and directories, not a .png" trace.dat c.txt ftrace_data.db x.json sub \
	"with space.dat" renamed kernel_text '!b.png' '!notes.md' '!README' '!fifo' -- ftscope convert -i ""
has "convert --input=: the same after '='" trace.dat sub '!b.png' -- ftscope convert --input = ""
has "convert -i with a prefix" ftrace_data.db ftrace_data2.db '!trace.dat' -- ftscope convert -i ftr
has "preview FILE" trace.dat ftrace_data.db '!b.png' -- ftscope preview ""
has "stats FILE" trace.dat ftrace_data.db '!b.png' -- ftscope stats ""
has "record -o: .dat and .txt" trace.dat c.txt sub '!ftrace_data.db' '!x.json' -- ftscope record -o ""
has "convert -o: .db and .json" ftrace_data.db x.json sub '!trace.dat' -- ftscope convert -o ""
has "stats -o: .xlsx" report.xlsx sub '!trace.dat' '!ftrace_data.db' -- ftscope stats x.dat --format xlsx -o ""
has "--pid_mapping: .json" x.json sub '!trace.dat' -- ftscope convert --pid_mapping ""
has "--profiling_data: directories" sub '!trace.dat' '!x.json' -- ftscope convert -p ""
touch sub/inner.dat sub/inner.png
has "inside a directory" sub/inner.dat '!sub/inner.png' -- ftscope convert -i sub/
expect "pidmap has no operand" "" ftscope pidmap ""

# the program as typed: a path, not ftscope on PATH
has "by path" --cpu -- "$FTSCOPE" record --cp

# what the completion runs: only '--help' of the program and of the commands it
# lists, and 'record --list-events'; never the program alone (that opens the
# session on a terminal) nor a hidden helper
mkdir -p "$WORK/fake"
printf '#!/bin/sh\necho "$*" >> "%s/fake.log"\nexec "%s" "$@"\n' "$WORK" "$FTSCOPE" > "$WORK/fake/ftscope"
chmod +x "$WORK/fake/ftscope"
: > "$WORK/fake.log"
for line in "" "re" "record -" "record --events s" "__probe-dat -" "__probe-dat x" "bogus -" "help " \
	"convert -i " "stats x.dat -s "; do
	read -ra words <<<"$line"
	[[ $line == *" " || -z $line ]] && words+=("")
	complete_words "$WORK/fake/ftscope" "${words[@]}" > /dev/null
done
if grep -qvxE -- '--help|[a-z]+ --help|record --list-events sched irq futex' "$WORK/fake.log"; then
	bad "the completion ran: $(grep -vxE -- '--help|[a-z]+ --help|record --list-events sched irq futex' "$WORK/fake.log" | head -3 | tr '\n' ';')"
else
	pass "the completion runs only --help and --list-events ($(wc -l < "$WORK/fake.log") runs)"
fi

finish
