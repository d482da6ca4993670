#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctest's replay of fuzz_cache: seeds made now by this build (make_cache_seeds.sh), then replayed.
# usage: replay_cache.sh FTSCOPE FUZZ_CACHE SRCDIR WORKDIR
# $FTS_EMU: a cross build's emulator command, put before each program (split on spaces)
set -eu
rm -rf "$4"
bash "$3/fuzz/make_cache_seeds.sh" "$1" "$3" "$4/seeds"
n=$(ls "$4/seeds" | wc -l)
[ "$n" -ge 6 ] || { echo "FAIL only $n seeds"; exit 1; }
TMPDIR=$4 ${FTS_EMU:-} "$2" "$4/seeds"/*
