#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install what ftscope needs to build, test and record on Debian 12 / Ubuntu.
# The one list of packages: quickstart.sh and .ci/run both call this.
set -euo pipefail
PKGS=(
	build-essential cmake pkg-config
	libsqlite3-dev libcjson-dev libncurses-dev
	libtracefs-dev libtraceevent-dev libtracecmd-dev libzstd-dev
	libcmocka-dev sqlite3 python3 trace-cmd rt-tests tmux util-linux
	python3-pytest python3-pip python3-setuptools python3-venv
)
missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all ${#PKGS[@]} packages present"
	exit 0
fi
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
echo "deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
