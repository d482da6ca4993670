#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Debian packages on this machine: build them (scripts/package.sh, no
# package tests, lintian errors fail), install them with apt-get, use them as a
# user would (the command, the Python package with the system Python, the C
# examples against libftscope-dev with pkg-config and CMake), purge them and
# check that nothing is left behind. Root only. A failure halfway still purges
# (trap); the test never removes or adds any other package: when installing
# would, it skips and says why.
#   FTS_DEB_DIR=DIR  use the .debs already built there instead of building
source "$(dirname "$0")/../contract/lib.sh"
PKGS=(ftscope libftscope0 libftscope-dev python3-ftscope)
skip() { echo "SKIP: $*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "needs root (installs and purges packages)"
for tool in dpkg-buildpackage apt-get dpkg-query lintian pkg-config cc cmake sqlite3 flock; do
	command -v $tool > /dev/null || skip "no $tool (scripts/deps.sh --all installs the packaging tools)"
done
[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3"
# one run at a time on this machine (another build tree, another engineer)
exec 9> /tmp/fts-package.lock
flock -w 1800 9 || skip "another package test holds /tmp/fts-package.lock"

# installed in any state but "not installed" (config-files left counts)
installed() {
	local s
	s=$(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2> /dev/null) || return 1
	[ "${s:1:1}" != n ]
}
for p in "${PKGS[@]}" ftscope-dbgsym libftscope0-dbgsym; do
	installed "$p" && skip "$p is installed here: this test purges what it installs and will not touch yours"
done

# --- build (or reuse) --------------------------------------------------------
DEBS=${FTS_DEB_DIR:-$WORK/debs}
if [ -z "${FTS_DEB_DIR:-}" ]; then
	missing=$(cd "$SRC" && dpkg-checkbuilddeps -P nocheck 2>&1) ||
		skip "build dependencies missing: ${missing##*: }"
	t0=$(date +%s)
	if DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" timeout 900 \
		"$SRC/scripts/package.sh" --lintian "$DEBS" > "$WORK/package.log" 2>&1; then
		pass "scripts/package.sh built the packages in $(($(date +%s) - t0)) s, lintian without errors"
		grep '^[WE]: ' "$WORK/package.log" | sed 's/^/     lintian /'
	else
		bad "scripts/package.sh"; tail -40 "$WORK/package.log"; finish; exit
	fi
fi
debs=()
for p in "${PKGS[@]}"; do
	f=$(ls "$DEBS/${p}"_*.deb 2> /dev/null | head -1)
	[ -n "$f" ] || { bad "no ${p}_*.deb in $DEBS"; finish; exit; }
	debs+=("$f")
done

# --- install, only if nothing else would change --------------------------------
apt_opts=(-o DPkg::Lock::Timeout=600 -y --no-install-recommends)
# (--no-download only in the simulation: apt 2.6 then refuses local .debs)
apt-get -s --no-download "${apt_opts[@]}" install "${debs[@]}" > "$WORK/sim.log" 2>&1 ||
	skip "apt-get cannot install them here: $(grep -m1 '^E:' "$WORK/sim.log" | tr -cd '[:print:]')"
others=$(awk '$1 == "Remv" || $1 == "Inst" || $1 == "Purg" { print $1, $2 }' "$WORK/sim.log" |
	grep -Ev "^Inst ($(IFS='|'; echo "${PKGS[*]}"))$" | tr -cd '[:print:]\n' | tr '\n' ' ')
[ -z "$others" ] || skip "installing would also change other packages ($others): not on this machine"

before_pkgs=$WORK/pkgs.before
dpkg-query -W -f='${Package}:${Architecture} ${Version} ${db:Status-Abbrev}\n' | sort > "$before_pkgs"
# every path the packages ship that does not exist yet must be gone after the purge
for d in "${debs[@]}"; do dpkg-deb -c "$d"; done | awk '{ print $6 }' | sed 's|^\./|/|; s|/$||' |
	grep -v '^$' | sort -u > "$WORK/shipped"
while read -r f; do [ -e "$f" ] || [ -L "$f" ] || echo "$f"; done < "$WORK/shipped" > "$WORK/new_paths"

purge() {
	local present=()
	for p in "${PKGS[@]}"; do installed "$p" && present+=("$p"); done
	[ ${#present[@]} -eq 0 ] || dpkg --purge "${present[@]}" > "$WORK/purge.log" 2>&1
}
trap purge EXIT
trap 'exit 130' INT TERM HUP

if DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" install "${debs[@]}" > "$WORK/install.log" 2>&1; then
	pass "apt-get install ./*.deb (${PKGS[*]})"
else
	bad "apt-get install"; tail -20 "$WORK/install.log"; finish; exit
fi
for p in "${PKGS[@]}"; do dpkg -L "$p"; done | sort -u > "$WORK/listed"

source "$(dirname "$0")/package_use.sh"
use_command
use_python
use_dev

# --- purge: nothing left --------------------------------------------------------
purge && pass "dpkg --purge ${PKGS[*]}" || { bad "purge"; cat "$WORK/purge.log"; }
trap - EXIT
check_gone
finish
