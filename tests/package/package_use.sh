# SPDX-License-Identifier: MIT
# package_install.sh's checks of the installed packages, as a user meets them;
# sourced, not run. Uses $SRC, $WORK, $FTSCOPE (the build tree's binary) and
# the pass/bad helpers of tests/contract/lib.sh.
S=$SRC/assets/sample
VERSION=$(dpkg-parsechangelog -l "$SRC/debian/changelog" -S Version)
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
# what a user's login shell would have: no PYTHONPATH, no pyenv, no PKG_CONFIG_PATH
CLEAN=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$WORK/home" LANG=C.UTF-8)
mkdir -p "$WORK/home" "$WORK/elsewhere"

# all rows of a DB's slices, for comparing two conversions
rows() {
	sqlite3 -separator '|' "$1" "SELECT t.tid, s.name, s.timestamp, s.duration, s.args FROM slice s JOIN thread t ON t.track_id = s.track_id ${WHERE:+WHERE $WHERE} ORDER BY 1, 3, 2, 4, 5"
}

same_rows() {
	local desc=$1 a=$2 b=$3
	rows "$a" > "$a.rows"
	rows "$b" > "$b.rows"
	if [ -s "$a.rows" ] && cmp -s "$a.rows" "$b.rows"; then
		pass "$desc ($(wc -l < "$a.rows") rows)"
	else
		bad "$desc"; diff "$a.rows" "$b.rows" | head -10
	fi
}

use_command() {
	local out
	out=$("${CLEAN[@]}" /usr/bin/ftscope --version 2>&1)
	[[ "$out" == *"$VERSION"* ]] && pass "ftscope --version: $out" || bad "ftscope --version: $out"
	[ "$(dpkg -S /usr/bin/ftscope 2> /dev/null | cut -d: -f1)" = ftscope ] &&
		pass "/usr/bin/ftscope is the ftscope package's" || bad "/usr/bin/ftscope is not from the package"
	mkdir -p "$WORK/cli" "$WORK/tree"
	local args=(--input "$S/sample.dat" --profiling_data "$S/profiling" --pid_mapping "$S/pid_mapping.json")
	(cd "$WORK/elsewhere" && "${CLEAN[@]}" /usr/bin/ftscope convert -q "${args[@]}" \
		--output "$WORK/cli/ftrace_data.db") > "$WORK/cli.log" 2>&1 &&
		pass "packaged ftscope converts the bundled sample" || { bad "packaged convert"; cat "$WORK/cli.log"; }
	"$FTSCOPE" convert -q "${args[@]}" --output "$WORK/tree/ftrace_data.db" > /dev/null 2>&1
	same_rows "the packaged binary's DB = the build tree's" "$WORK/cli/ftrace_data.db" "$WORK/tree/ftrace_data.db"
	# and the golden rows of tests/contract/golden_convert.sh
	"${CLEAN[@]}" /usr/bin/ftscope convert -q --input "$S/sample.txt" --profiling_data "$S/profiling_2cards" \
		--pid_mapping "$S/pid_mapping.json" --output "$WORK/cli/aligned.db" > /dev/null 2>&1
	WHERE="t.pid = 'Process Scheduling' AND t.tid GLOB '*:[1-6]'" rows "$WORK/cli/aligned.db" > "$WORK/aligned.slices"
	cmp -s "$WORK/aligned.slices" "$SRC/tests/golden/sample_aligned.slices" &&
		pass "packaged binary: tests/golden/sample_aligned.slices byte for byte" ||
		bad "packaged binary's aligned sample differs from tests/golden/sample_aligned.slices"
	use_docs
}

# The man pages and the completion (cmake/man.cmake installs them).
use_docs() {
	local page comp=/usr/share/bash-completion/completions/ftscope spec
	for page in "$SRC"/docs/man/*.1.scd; do
		page=/usr/share/man/man1/$(basename "$page" .scd).gz
		grep -qx "$page" "$WORK/listed" || bad "ftscope lacks $page"
	done
	grep -qx /usr/share/man/man1/ftscope.1.gz "$WORK/listed" &&
		pass "ftscope ships its $(grep -c '^/usr/share/man/man1/.*\.1\.gz$' "$WORK/listed") man pages" ||
		bad "no /usr/share/man/man1/ftscope.1.gz"
	if command -v man > /dev/null; then
		[ "$("${CLEAN[@]}" man -w ftscope-record 2> /dev/null)" = /usr/share/man/man1/ftscope-record.1.gz ] &&
			pass "man -w ftscope-record finds it" || bad "man -w ftscope-record: $(man -w ftscope-record 2>&1)"
	fi
	grep -qx "$comp" "$WORK/listed" && pass "ftscope ships $comp" || bad "no $comp in the package"
	if [ -f /usr/share/bash-completion/bash_completion ]; then
		spec=$("${CLEAN[@]}" bash --norc --noprofile -c '. /usr/share/bash-completion/bash_completion
			__load_completion ftscope; complete -p ftscope' 2>&1)
		[[ "$spec" == complete*ftscope ]] && pass "bash-completion loads it: $spec" ||
			bad "bash-completion does not load the ftscope completion: $spec"
	fi
}

use_python() {
	local py=("${CLEAN[@]}" /usr/bin/python3) out
	out=$(cd "$WORK/elsewhere" && "${py[@]}" -c 'import ftscope, trace_record, trace_convert
import importlib.metadata as m
print(ftscope.__file__, trace_convert.__file__, ftscope.library_version(), m.version("ftscope"))' 2>&1)
	read -r pkg drop lib meta <<< "$out"
	if [[ "$pkg" == /usr/lib/python3/dist-packages/ftscope/* && "$drop" == /usr/lib/python3/dist-packages/* &&
		"$lib" == "$VERSION" && "$meta" == "$VERSION" ]]; then
		pass "system python3 imports ftscope, trace_record, trace_convert from dist-packages (library $lib)"
	else
		bad "system python3 import: $out"
	fi
	mkdir -p "$WORK/py"
	(cd "$WORK/elsewhere" && "${py[@]}" -m trace_convert --input "$S/sample.dat" --profiling_data "$S/profiling" \
		--pid_mapping "$S/pid_mapping.json" --output "$WORK/py/ftrace_data.db") > "$WORK/py.log" 2>&1 &&
		pass "python3 -m trace_convert on the sample" || { bad "python3 -m trace_convert"; cat "$WORK/py.log"; }
	same_rows "trace_convert's DB = the packaged binary's" "$WORK/py/ftrace_data.db" "$WORK/cli/ftrace_data.db"
	(cd "$WORK/elsewhere" && "${CLEAN[@]}" /usr/bin/ftscope-trace-convert -i "$S/sample.dat" -f json \
		-o "$WORK/py/trace.json") > "$WORK/py.log" 2>&1 &&
		"${py[@]}" -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert d if isinstance(d, list) else d["traceEvents"]' "$WORK/py/trace.json" &&
		pass "ftscope-trace-convert writes Chrome-trace JSON" || { bad "ftscope-trace-convert"; cat "$WORK/py.log"; }
	"${CLEAN[@]}" /usr/bin/ftscope-trace-record --help > /dev/null 2>&1 &&
		pass "ftscope-trace-record --help" || bad "ftscope-trace-record --help"
}

# libftscope-dev: the examples with pkg-config (shared and static) and CMake
use_dev() {
	local pc=("${CLEAN[@]}" pkg-config) srcs=("$SRC/tests/install/consumer/version_check.c" "$SRC"/examples/*.c) c n
	[ "$("${pc[@]}" --modversion ftscope)" = "$VERSION" ] &&
		[ "$("${pc[@]}" --variable=libdir ftscope)" -ef "/usr/lib/$MA" ] &&
		pass "pkg-config ftscope: $VERSION in /usr/lib/$MA" || bad "pkg-config ftscope: $("${pc[@]}" --libs ftscope 2>&1)"
	mkdir -p "$WORK/pc"
	for c in "${srcs[@]}"; do
		n=$(basename "$c" .c)
		# shellcheck disable=SC2046
		"${CLEAN[@]}" cc -std=c11 -Wall -Wextra -Werror -o "$WORK/pc/$n" "$c" $("${pc[@]}" --cflags --libs ftscope) \
			2> "$WORK/cc.err" && pass "pkg-config build of $n" || { bad "pkg-config build of $n"; cat "$WORK/cc.err"; }
	done
	local so
	so=$(ldd "$WORK/pc/version_check" | awk '$1 == "libftscope.so.0" { print $3 }')
	[ -n "$so" ] && [ "$(dpkg -S "$(readlink -f "$so")" 2> /dev/null | cut -d: -f1)" = libftscope0 ] &&
		"$WORK/pc/version_check" > /dev/null && pass "it runs on libftscope0's libftscope.so.0" ||
		bad "version_check: $so, $("$WORK/pc/version_check" 2>&1)"
	# the static archive with the private dependencies ftscope.pc names
	local libs=() t
	for t in $("${pc[@]}" --static --libs ftscope); do [ "$t" = -lftscope ] || libs+=("$t"); done
	# shellcheck disable=SC2046
	"${CLEAN[@]}" cc -std=c11 -o "$WORK/pc/static_check" "${srcs[0]}" $("${pc[@]}" --cflags ftscope) \
		-l:libftscope.a "${libs[@]}" 2> "$WORK/cc.err" && "$WORK/pc/static_check" > /dev/null &&
		! ldd "$WORK/pc/static_check" | grep -q libftscope &&
		pass "static link against libftscope.a with pkg-config --static" || { bad "static link"; cat "$WORK/cc.err"; }
	local extra
	extra=$(IFS=';'; echo "${srcs[*]:1}")
	if "${CLEAN[@]}" cmake -S "$SRC/tests/install/consumer" -B "$WORK/cm" "-DFTS_EXTRA_SOURCES=$extra" \
		> "$WORK/cm.log" 2>&1 && "${CLEAN[@]}" cmake --build "$WORK/cm" >> "$WORK/cm.log" 2>&1 &&
		grep -qx "ftscope_DIR:PATH=/usr/lib/$MA/cmake/ftscope" "$WORK/cm/CMakeCache.txt" &&
		"$WORK/cm/version_check" > /dev/null; then
		pass "find_package(ftscope) from /usr/lib/$MA/cmake/ftscope builds and runs the examples"
	else
		bad "find_package(ftscope)"; tail -20 "$WORK/cm.log"
	fi
}

# After the purge: no path the packages brought, no bytecode, no package state.
check_gone() {
	local left p
	left=$(while read -r p; do [ -e "$p" ] || [ -L "$p" ] && echo "$p"; done < "$WORK/new_paths")
	[ -z "$left" ] && pass "all $(wc -l < "$WORK/new_paths") paths the packages brought are gone" ||
		bad "left behind: $(echo "$left" | head -10 | tr '\n' ' ')"
	left=$(find /usr/lib/python3/dist-packages \( -name 'ftscope*' -o -name 'trace_record*' \
		-o -name 'trace_convert*' \) 2> /dev/null)
	[ -z "$left" ] && pass "nothing named ftscope/trace_* left in dist-packages (bytecode included)" ||
		bad "left in dist-packages: $left"
	ldconfig -p | grep -q libftscope && bad "libftscope still in the ld.so cache" ||
		pass "libftscope gone from the ld.so cache"
	dpkg-query -W -f='${Package}:${Architecture} ${Version} ${db:Status-Abbrev}\n' | sort > "$WORK/pkgs.after"
	diff "$WORK/pkgs.before" "$WORK/pkgs.after" > "$WORK/pkgs.diff" &&
		pass "the machine's package set is as before" || { bad "package set changed"; head "$WORK/pkgs.diff"; }
	(cd "$WORK/elsewhere" && "${CLEAN[@]}" /usr/bin/python3 -c 'import ftscope' 2> /dev/null) &&
		bad "python3 still imports ftscope" || pass "python3 no longer imports ftscope"
}
