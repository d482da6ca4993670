#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install what ftscope needs to build, test and record on Debian 12 / Ubuntu.
# The one list of packages: quickstart.sh and .ci/run both call this.
#   scripts/deps.sh          what building, running and testing ftscope needs
#   scripts/deps.sh --all    also what the packaging, man page, many-hosts and
#                            arm64 (cross build + qemu-user) tests need (CI)
set -euo pipefail
all=0
[ "${1:-}" = --all ] && all=1
PKGS=(
	build-essential cmake pkg-config
	libsqlite3-dev libcjson-dev libncurses-dev
	libtracefs-dev libtraceevent-dev libtracecmd-dev libzstd-dev
	libcmocka-dev sqlite3 python3 trace-cmd rt-tests tmux util-linux
	python3-pytest python3-pip python3-setuptools python3-venv
	libxlsxwriter-dev python3-openpyxl
)
EXTRA=(
	# packaging, man pages, completion, many-hosts recipe
	debhelper dh-python pybuild-plugin-pyproject lintian dpkg-dev fakeroot scdoc bash-completion
	python3-all pdsh openssh-server openssh-client
	# arm64 (Kunpeng) cross build, run under qemu-user
	crossbuild-essential-arm64 qemu-user-static
	# the static release binary's RPM (scripts/rpm.sh, tests/static/rpm.sh)
	rpm
)
# the arm64 -dev packages of the libraries above (multiarch). Not
# libtracecmd-dev:arm64: Debian 12's libtracecmd1/-dev are not Multi-Arch: same,
# and installing them removes the host's (the native build then fails);
# scripts/cross-arm64.sh unpacks their arm64 .debs into its build directory.
ARM64=(
	libsqlite3-dev:arm64 libcjson-dev:arm64 libncurses-dev:arm64
	libtracefs-dev:arm64 libtraceevent-dev:arm64
	libzstd-dev:arm64 libcmocka-dev:arm64
)
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
want=("${PKGS[@]}")
if [ $all = 1 ]; then
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		$SUDO dpkg --add-architecture arm64
	fi
	want+=("${EXTRA[@]}" "${ARM64[@]}")
fi
missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all ${#want[@]} packages present"
	exit 0
fi
echo "deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
