#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 20, "reopening": the preview's store cache (src/export/preview/store_cache.c).
# - a text trace, a trace.dat and a DB: the second open says "from cache" and its
#   screens (the lanes, the summary table, a search, a sort) are byte-identical to
#   a load with --no_cache; with --profiling_data no cache is used (the NPU cards
#   are not cached) and the screens are the same;
# - touching or changing the input is a miss (and the changed input's screen);
# - a damaged cache is rejected with one line and the right screen: bytes flipped
#   in the header and the payload, flipped with both checksums fixed (only the
#   index checks stand between it and the view), cut short, another owner, writable
#   by others, a symlink in place of the cache directory or of the file;
# - --no_cache and FTSCOPE_NO_CACHE=1 write nothing;
# - 200 rounds of random flips (half re-summed) never crash.
# usage: store_cache.sh FTSCOPE SRCDIR WORKDIR
source "$(dirname "$0")/../contract/lib.sh"
FTSCOPE=$(readlink -f "$FTSCOPE")
TAMPER="python3 $SRC/tests/tui/cache_tamper.py"
export XDG_CACHE_HOME=$WORK/xdg
unset FTSCOPE_NO_CACHE
CDIR=$XDG_CACHE_HOME/ftscope
SIZE=120x36

cp "$SRC/assets/sample/sample.txt" "$WORK/t.txt"
cp "$SRC/assets/sample/sample.dat" "$WORK/t.dat"
"$FTSCOPE" convert -q --input "$WORK/t.txt" --output "$WORK/t.db" || { bad "convert the sample"; finish; exit 1; }

# shot NAME INPUT [ARGS...]: the screen to $WORK/NAME.out, stderr to $WORK/NAME.err
shot() {
	local name=$1 in=$2 rc=0
	shift 2
	"$FTSCOPE" preview "$in" --print "$SIZE" "$@" > "$WORK/$name.out" 2> "$WORK/$name.err" || rc=$?
	[ $rc -eq 0 ] || bad "$name: exit $rc: $(head -c 300 "$WORK/$name.err")"
}

# same DESC A B: two screens byte-identical
same() {
	if cmp -s "$WORK/$2.out" "$WORK/$3.out"; then pass "$1"; else
		bad "$1: screens differ"; diff "$WORK/$2.out" "$WORK/$3.out" | head -10
	fi
}

# says DESC NAME PATTERN / silent DESC NAME PATTERN: stderr of a shot has / lacks it
says() { if grep -Eq -- "$3" "$WORK/$2.err"; then pass "$1"; else bad "$1: stderr [$(cat "$WORK/$2.err")] lacks /$3/"; fi; }
silent() { if grep -Eq -- "$3" "$WORK/$2.err"; then bad "$1: stderr says /$3/: $(cat "$WORK/$2.err")"; else pass "$1"; fi; }

nfiles() { find "$CDIR" -name '*.ftc' 2> /dev/null | wc -l; }

# ---- --no_cache and FTSCOPE_NO_CACHE write nothing
shot ref_txt "$WORK/t.txt" --no_cache
FTSCOPE_NO_CACHE=1 shot env_txt "$WORK/t.txt"
[ "$(nfiles)" -eq 0 ] && pass "--no_cache and FTSCOPE_NO_CACHE=1 write no cache" ||
	bad "a cache was written with the cache off: $(ls -la "$CDIR")"

# ---- open twice: the second from the cache, the same screens
for in in t.txt t.dat t.db; do
	for keys in "" s "/kworker\\n" oo; do
		tag=${in#t.}_$(printf '%s' "$keys" | tr -c 'a-z' '_')
		args=(); [ -n "$keys" ] && args=(--keys "$keys")
		shot "ref_$tag" "$WORK/$in" --no_cache "${args[@]}"
		shot "one_$tag" "$WORK/$in" "${args[@]}"
		shot "two_$tag" "$WORK/$in" "${args[@]}"
		same "$in [$keys]: the first open's screen is the uncached one" "ref_$tag" "one_$tag"
		same "$in [$keys]: the reopen's screen is the uncached one" "ref_$tag" "two_$tag"
		says "$in [$keys]: the reopen is from the cache" "two_$tag" "from cache"
	done
done
silent "t.db: a first open is not from the cache" one_db_ "from cache"
[ "$(nfiles)" -eq 3 ] && pass "one cache file per input" || bad "cache files: $(nfiles), not 3"
for f in "$CDIR"/*.ftc; do
	m=$(stat -c %a "$f")
	[ "$m" = 600 ] || bad "cache file mode $m, not 600"
	$TAMPER check "$f" > /dev/null || bad "the test's checksum does not match the file's: the re-summed cases test nothing"
done
d=$(stat -c %a "$CDIR")
[ "$d" = 700 ] && pass "the cache directory is 0700" || bad "cache directory mode $d"
# the key holds the build id of the code that made the store: a rebuild of the same version misses
code=$FTSCOPE
lib=$(ldd "$FTSCOPE" 2> /dev/null | sed -n 's/.*libftscope\.so[^ ]* => \([^ ]*\) .*/\1/p')
[ -n "$lib" ] && code=$lib
want=$(readelf -n "$code" 2> /dev/null | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p' | head -1)
if [ -n "$want" ]; then
	got=$(od -An -tx1 -j 48 -N 20 "$(ls "$CDIR"/*.ftc | head -1)" | tr -d ' \n')
	[ "$got" = "${want:0:40}" ] && pass "the cache key carries the build id of $(basename "$code")" ||
		bad "the cache key's build id [$got], the code's [$want]"
else
	echo "note: no build id in $code (readelf missing or --build-id off): not checked"
fi

# ---- profiling data: no cache, same screens
prof=$SRC/assets/sample/profiling
if [ -d "$prof" ]; then
	before=$(nfiles)
	shot prof_ref "$WORK/t.db" --no_cache --profiling_data "$prof"
	shot prof_one "$WORK/t.db" --profiling_data "$prof"
	shot prof_two "$WORK/t.db" --profiling_data "$prof"
	same "a DB with --profiling_data: the same screen twice" prof_ref prof_two
	silent "a DB with --profiling_data is never from the cache" prof_two "from cache"
	[ "$(nfiles)" -eq "$before" ] && pass "--profiling_data writes no cache" || bad "--profiling_data wrote a cache"
fi

# ---- the input changes: a miss
touch "$WORK/t.txt"
shot touched "$WORK/t.txt"
silent "a touched input is not read from the cache" touched "from cache"
same "a touched input: the same screen" ref_txt_ touched
head -n 12000 "$SRC/assets/sample/sample.txt" > "$WORK/t.txt"
shot changed_ref "$WORK/t.txt" --no_cache
shot changed "$WORK/t.txt"
silent "a changed input is not read from the cache" changed "from cache"
same "a changed input: its own screen" changed_ref changed
if cmp -s "$WORK/changed.out" "$WORK/ref_txt_.out"; then bad "the shorter trace draws as the whole one: the check above proves nothing"; fi
shot changed2 "$WORK/t.txt"
says "the changed input is cached anew" changed2 "from cache"
same "the changed input from its new cache" changed_ref changed2

# ---- damaged caches (the DB's): rejected, one line, the right screen
shot db_warm "$WORK/t.db"   # makes sure the DB's file is the newest
f=$(ls -t "$CDIR"/*.ftc | head -1)
cp -p "$f" "$WORK/good.ftc"
size=$(stat -c %s "$f")
restore() { cp -p "$WORK/good.ftc" "$f"; }
# damage DESC PATTERN CMD...: damage the file, reopen, expect the note and the uncached screen
damage() {
	local desc=$1 pat=$2 n
	shift 2
	restore
	"$@"
	n=dmg_$((++ndmg))
	shot "$n" "$WORK/t.db"
	says "$desc: rejected" "$n" "$pat"
	same "$desc: the right screen" ref_db_ "$n"
	[ "$(grep -c . "$WORK/$n.err")" -le 1 ] || bad "$desc: more than one line: $(cat "$WORK/$n.err")"
}
ndmg=0
for off in 0 9 60 120 170 200 4096 $((size / 2)) -1; do
	damage "a byte flipped at $off" "cache rejected" $TAMPER flip "$f" "$off"
done
for off in 180 600 2000 $((size / 3)) $((size - 100)); do
	damage "a byte flipped at $off, checksums fixed" "cache rejected|from cache" $TAMPER resum "$f" "$off"
done
damage "cut to 100 bytes" "cache rejected" $TAMPER truncate "$f" 100
damage "cut short by 8 bytes" "cache rejected" $TAMPER truncate "$f" $((size - 8))
damage "writable by others" "cache rejected: not ours" chmod 666 "$f"
if [ "$(id -u)" -eq 0 ]; then
	damage "another user's" "cache rejected: not ours" chown 65534 "$f"
fi
# a symlink in place of the file: not followed (a miss), its target untouched
restore
echo "precious" > "$WORK/target"
rm -f "$f"; ln -s "$WORK/target" "$f"
shot link_file "$WORK/t.db"
same "a symlink in place of the cache file: the right screen" ref_db_ link_file
[ "$(cat "$WORK/target")" = precious ] && pass "the symlink's target is untouched" || bad "the symlink's target was written"
# a symlink in place of the cache directory: not used, nothing written through it
rm -rf "$CDIR"; mkdir -p "$WORK/elsewhere"; ln -s "$WORK/elsewhere" "$CDIR"
shot link_dir "$WORK/t.db"
says "a symlink in place of the cache directory: not used" link_dir "cache not used"
same "a symlink in place of the cache directory: the right screen" ref_db_ link_dir
[ -z "$(ls -A "$WORK/elsewhere")" ] && pass "nothing written through the symlinked directory" ||
	bad "written through the symlink: $(ls -A "$WORK/elsewhere")"
rm -f "$CDIR"
mkdir -m 777 "$CDIR"
shot open_dir "$WORK/t.db"
says "a cache directory writable by others: not used" open_dir "cache not used"
rm -rf "$CDIR"

# ---- 200 random rounds: never a crash
SIZE=80x24
shot fuzz_ref "$WORK/t.txt" --keys s --no_cache
shot fuzz_seed "$WORK/t.txt"
f=$(ls "$CDIR"/*.ftc | head -1)
if $TAMPER fuzz "$f" "${FTS_CACHE_FUZZ_ROUNDS:-200}" 20 "$WORK/fuzz_ref.out" \
	"$FTSCOPE" preview "$WORK/t.txt" --print 80x24 --keys s > "$WORK/fuzz.log" 2>&1; then
	pass "$(tail -1 "$WORK/fuzz.log")"
else
	bad "fuzz: $(tail -20 "$WORK/fuzz.log")"
fi
finish
