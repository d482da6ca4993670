#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A thin recipe over pdsh for recording many hosts at once (docs/multihost.md):
#
#   multihost.sh record   -w HOSTS -d DIR [-t SECONDS] [-a DELAY] [-- record flags]
#   multihost.sh convert  -w HOSTS -d DIR -p PROFILING -o OUT [-- convert flags]
#   multihost.sh manifest OUT < lines      (the Slurm and Ansible forms)
#
# record: on every host at once, `ftscope record` into DIR/<host>.dat with
#   DIR/<host>.pid_mapping.json; every host waits for the same wall-clock
#   start (now + DELAY s, default 5) so ssh's connection times do not skew
#   the window; DIR/<host>.clock keeps the host's CLOCK_REALTIME -
#   CLOCK_MONOTONIC_RAW at that start.
# convert: on every host at once, its capture with its own ranks' profiling
#   data (PROFILING: a directory on that host) into DIR/ftrace_data<N>.db,
#   N = the host's position in the host list sorted with `sort -V` (Slurm's
#   SLURM_NODEID order); then each DB is copied into OUT on this machine and
#   OUT/ftscope-hosts.json says which host each N is.
# manifest: OUT/ftscope-hosts.json from `FTSCOPE_HOST ...` lines (what the
#   convert step prints on each host), for launchers other than pdsh.
#
# HOSTS: a pdsh host list (node[01-16], user@host,...). DIR and PROFILING may
# hold %h (the host as named in HOSTS). Hosts are reached with pdsh's exec
# module running $FTS_SSH (default "ssh"; e.g. FTS_SSH="ssh -F my_config"),
# as the user of user@host, else your own; ftscope is $FTSCOPE on the hosts
# (default "ftscope"). The remote login shell must be POSIX (sh, bash).
set -euo pipefail

FTS_SSH=${FTS_SSH:-ssh}
FTSCOPE=${FTSCOPE:-ftscope}
MANIFEST=ftscope-hosts.json

die() { echo "multihost.sh: $*" >&2; exit 1; }
usage() { sed -n '3,7p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
# Names that go into remote shell commands and JSON unquoted: no surprises allowed.
safe() { [[ $2 =~ ^[A-Za-z0-9._/%+,:@-]+$ ]] || die "$1 '$2': only letters, digits and ._/%+,:@- please"; }

# The host list expanded by pdsh itself (node[1-3] too), as pdsh names them, sorted.
hosts_sorted() {
	pdsh -R exec -w "$1" echo %h 2>/dev/null | sed 's/^[^:]*: //' | sort -uV
}

# pdsh -w LIST for the same hosts in sorted order, user@ kept: %n is then the position.
pdsh_list() {
	local h e out=""
	for h in $(hosts_sorted "$1"); do
		e=$(tr ',' '\n' <<<"$1" | grep -m1 -E "(^|@)$h\$" || echo "$h")
		out="$out${out:+,}$e"
	done
	echo "$out"
}

# pdsh over $FTS_SSH on every host at once: on each, CMD with %h, %n, %u
# substituted; fails when a host's command fails (-S).
on_hosts() {
	local list=$1 cmd=$2 n
	n=$(tr ',' '\n' <<<"$list" | wc -l)
	# shellcheck disable=SC2086  # FTS_SSH is a command with its options
	pdsh -S -R exec -f "$n" -w "$list" $FTS_SSH -l %u %h "$cmd"
}

quote_args() {
	local a out=""
	for a in "$@"; do out="$out $(printf '%q' "$a")"; done
	echo "$out"
}

cmd_record() {
	local hosts="" dir="" secs=30 delay=5 extra start
	while getopts "w:d:t:a:" o; do
		case $o in
		w) hosts=$OPTARG ;; d) dir=$OPTARG ;; t) secs=$OPTARG ;; a) delay=$OPTARG ;;
		*) usage ;;
		esac
	done
	shift $((OPTIND - 1))
	[ -n "$hosts" ] && [ -n "$dir" ] || usage
	safe DIR "$dir"
	[[ $secs =~ ^[0-9]+$ && $delay =~ ^[0-9]+$ ]] || die "-t and -a take whole seconds"
	extra=$(quote_args "$@")
	start=$(( $(date +%s%N) + delay * 1000000000 ))
	# Each host sleeps to the common start: the window is then as close as the
	# hosts' clocks are, not as close as ssh happens to connect.
	on_hosts "$(pdsh_list "$hosts")" "set -e; mkdir -p $dir; cd $dir
d=\$(( $start - \$(date +%s%N) ))
if [ \$d -gt 0 ]; then sleep \$((d / 1000000000)).\$(printf %09d \$((d % 1000000000))); else echo \"started \$(( -d / 1000000 )) ms late (raise -a)\" >&2; fi
python3 -c 'import time; r = time.clock_gettime_ns(time.CLOCK_REALTIME); m = time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW); print(f\"realtime_ns={r} mono_raw_ns={m}\")' > %h.clock 2>/dev/null || rm -f %h.clock
exec $FTSCOPE record --record_time $secs --quiet --NSpid --output %h.dat --pid_mapping %h.pid_mapping.json $extra"
}

# The line each host prints after converting (parsed by cmd_manifest):
#   FTSCOPE_HOST host=H index=N ranks=0,1 clock_offset_ns=X profiling_offset_ns=Y
# ranks: the profiler_info_<rank>.json below PROFILING; the offsets are
# CLOCK_REALTIME - CLOCK_MONOTONIC_RAW at record start and at the earliest
# card's profiling start (collectionTimeBegin * 1000 - clockMonotonicRaw).
host_report() {
	local prof=$1
	cat <<EOF
ranks=\$(find $prof -name 'profiler_info_*.json' 2>/dev/null | sed -n 's/.*profiler_info_\([0-9][0-9]*\)\.json\$/\1/p' | sort -n | paste -sd, -)
co=; if [ -f %h.clock ]; then co=\$(sed -n 's/^realtime_ns=\([0-9]*\) mono_raw_ns=\([0-9]*\)\$/\1 \2/p' %h.clock | { read r m && echo \$((r - m)); }); fi
po=\$(find $prof -name start_info 2>/dev/null | while read -r f; do j=\$(tr -d ' \n' < "\$f"); b=\$(echo "\$j" | sed -n 's/.*"collectionTimeBegin":"\([0-9]*\)".*/\1/p'); m=\$(echo "\$j" | sed -n 's/.*"clockMonotonicRaw":"\([0-9]*\)".*/\1/p'); [ -n "\$b" ] && [ -n "\$m" ] && echo "\$b \$((b * 1000 - m))"; done | sort -n | head -n 1 | cut -d' ' -f2)
echo "FTSCOPE_HOST host=%h index=%n ranks=\$ranks clock_offset_ns=\$co profiling_offset_ns=\$po"
EOF
}

cmd_convert() {
	local hosts="" dir="" prof="" out="" extra list lines n
	while getopts "w:d:p:o:" o; do
		case $o in
		w) hosts=$OPTARG ;; d) dir=$OPTARG ;; p) prof=$OPTARG ;; o) out=$OPTARG ;;
		*) usage ;;
		esac
	done
	shift $((OPTIND - 1))
	[ -n "$hosts" ] && [ -n "$dir" ] && [ -n "$prof" ] && [ -n "$out" ] || usage
	safe DIR "$dir"
	safe PROFILING "$prof"
	mkdir -p "$out"
	extra=$(quote_args "$@")
	list=$(pdsh_list "$hosts")
	lines=$(on_hosts "$list" "set -e; cd $dir
pm=; [ -f %h.pid_mapping.json ] && pm='--pid_mapping %h.pid_mapping.json'
$FTSCOPE convert --quiet --input %h.dat --profiling_data $prof \$pm --output ftrace_data%n.db $extra
$(host_report "$prof")") || { printf '%s\n' "$lines" >&2; die "convert failed on a host (above)"; }
	n=$(gather "$list" "$dir" "$out")
	grep 'FTSCOPE_HOST ' <<<"$lines" | sed 's/^[^:]*: //' | cmd_manifest "$out"
	echo "multihost.sh: $n hosts -> $out/ftrace_data0..$((n - 1)).db, $out/$MANIFEST"
	echo "  ftscope stats --manifest $out/$MANIFEST"
}

# Each host's ftrace_data<N>.db into OUT, all at once, each through a temp
# name renamed into place: a shared DIR (OUT is the same file) is never
# truncated, and a symlink at the name is replaced, not followed. Under sudo
# the copies go to the invoking user, as ftscope's own outputs do (Insight
# refuses files owned by someone else). Prints the number of hosts.
gather() {
	local list=$1 dir=$2 out=$3 pat='%h' n=0 e h tmp pids=() failed=0
	for e in ${list//,/ }; do
		h=${e##*@}
		tmp=$(mktemp "$out/.ftrace_data$n.db.XXXXXX")
		# shellcheck disable=SC2086
		( $FTS_SSH -l "$(user_of "$e")" "$h" "cat ${dir//"$pat"/$h}/ftrace_data$n.db" > "$tmp" &&
			mv -f "$tmp" "$out/ftrace_data$n.db" || { rm -f "$tmp"; echo "multihost.sh: could not copy ftrace_data$n.db from $h" >&2; exit 1; } ) &
		pids+=($!)
		n=$((n + 1))
	done
	for e in "${pids[@]}"; do wait "$e" || failed=1; done
	[ $failed = 0 ] || exit 1
	[ -z "${SUDO_USER:-}" ] || chown "$SUDO_USER:" "$out"/ftrace_data*.db
	echo $n
}

user_of() { case $1 in *@*) echo "${1%%@*}" ;; *) id -un ;; esac; }

# One manifest entry per FTSCOPE_HOST line, in index order (other lines are ignored).
# The offsets need 61 bits: they are JSON strings, which every reader keeps exact.
manifest_entry() {
	local host='' index='' ranks='' co='' po='' kv
	for kv in ${1#FTSCOPE_HOST }; do
		case $kv in
		host=*) host=${kv#host=} ;; index=*) index=${kv#index=} ;;
		ranks=*) ranks=${kv#ranks=} ;; clock_offset_ns=*) co=${kv#clock_offset_ns=} ;;
		profiling_offset_ns=*) po=${kv#profiling_offset_ns=} ;;
		esac
	done
	safe host "$host"
	[[ $index =~ ^[0-9]+$ ]] || die "host $host: index '$index' is not a number"
	[[ -z $ranks || $ranks =~ ^[0-9,]+$ ]] || die "host $host: ranks '$ranks'"
	[[ -z $co || $co =~ ^-?[0-9]+$ ]] || die "host $host: clock_offset_ns '$co'"
	[[ -z $po || $po =~ ^-?[0-9]+$ ]] || die "host $host: profiling_offset_ns '$po'"
	printf '%s\t  {"host": "%s", "index": %s, "db": "ftrace_data%s.db", "capture": "%s.dat", "ranks": "%s"%s%s}\n' \
		"$index" "$host" "$index" "$index" "$host" "$ranks" \
		"${co:+, \"clock_offset_ns\": \"$co\"}" "${po:+, \"profiling_offset_ns\": \"$po\"}"
}

cmd_manifest() {
	local out=${1:-} line entries
	[ -n "$out" ] || usage
	entries=$(while read -r line; do
		[[ $line == FTSCOPE_HOST\ * ]] && manifest_entry "$line"
	done | sort -n -k1,1) || exit 1
	[ -n "$entries" ] || die "no FTSCOPE_HOST lines on stdin"
	[ -z "$(cut -f1 <<<"$entries" | uniq -d)" ] || die "two hosts with one index: $(cut -f1 <<<"$entries" | uniq -d | head -1)"
	mkdir -p "$out"
	tmp=$(mktemp "$out/.$MANIFEST.XXXXXX")
	trap 'rm -f "$tmp"' EXIT
	{
		echo '{"format": "ftscope-hosts/1", "hosts": ['
		cut -f2- <<<"$entries" | sed '$!s/$/,/'
		echo ']}'
	} > "$tmp"
	[ -z "${SUDO_USER:-}" ] || chown "$SUDO_USER:" "$tmp"
	mv -f "$tmp" "$out/$MANIFEST"
}

[ $# -ge 1 ] || usage
sub=$1
shift
case $sub in
record) cmd_record "$@" ;;
convert) cmd_convert "$@" ;;
manifest) cmd_manifest "$@" ;;
*) usage ;;
esac
