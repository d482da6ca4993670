#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The preview with the Ascend profiler's output (issue 18): the NPU group above
# the CPU lanes, kernel names when zoomed in, the gaps panel (b) and its jump,
# the profiler's host threads on top of Process Scheduling marked D, as golden
# --print screens at 80x24 and 200x60 on the bundled sample with a card
# generated at test time (npu_prof.py); two cards of 16 streams and 9 HCCL
# lanes each folded to the group's share of the rows (z unfolds, a search
# finds a folded lane), the dispatch threads still on the first 80x24
# screen; the per-step table (Tab in the gaps panel; the slowest step marked,
# Enter goes to it) on a card with eight training steps; and hostile or missing profiling
# directories refused with one line, exit 1, no screen.
# usage: npu_preview.sh FTSCOPE SRCDIR WORKDIR   (FTS_UPDATE_GOLDEN=1 rewrites the screens)
set -uo pipefail
bin=$(readlink -f "$1") src=$(readlink -f "$2") work=$3
gold=$src/tests/tui/golden
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
cd "$src" || fail "no $src"
S=assets/sample
prof=$work/prof
python3 "$src/tests/tui/npu_prof.py" "$S/profiling" "$prof" || fail "npu_prof.py"
bad=0

# name WxH [preview args...]: the title shows the capture's path, relative to $src
check() {
	local name=$1 size=$2; shift 2
	local out=$work/$name.screen
	if ! env -u NO_COLOR LANG=C.UTF-8 LC_ALL=C.UTF-8 "$bin" preview $S/sample.dat -p "${P:-$prof}" \
		-m $S/pid_mapping.json --print "$size" "$@" > "$out" 2> "$work/$name.err"; then
		echo "FAIL $name: exit status"; cat "$work/$name.err"; bad=1; return
	fi
	if [ "${FTS_UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$out" "$gold/$name.screen"; echo "updated $name"; return
	fi
	if ! diff -u "$gold/$name.screen" "$out"; then
		echo "FAIL $name: screen differs from $gold/$name.screen"; bad=1
	else
		echo "ok $name"
	fi
}

check npu_80x24 80x24
check npu_200x60 200x60
# zoomed in past the worst gap's end: the kernel's name on the stream lane
check npu_zoom_200x60 200x60 --keys 'b\n+++'
check npu_gaps_80x24 80x24 --keys 'b'
check npu_gaps_200x60 200x60 --keys 'bjj'
# Enter on the third worst gap: the lanes zoomed to it, its dispatch thread selected
check npu_gap_jump_200x60 200x60 --keys 'bjj\n'
# a real card's many streams and HCCL planes, two ranks: the NPU group folded to its share
many=$work/many
python3 "$src/tests/tui/npu_prof.py" "$S/profiling" "$many" --streams 16 --hccl-planes 8 || fail "npu_prof.py --streams"
mrank=$(ls -d "$many"/*_ascend_pt)
cp -r "$mrank" "${mrank%_ascend_pt}9_ascend_pt" || fail "second rank"
P=$many check npu_fold_80x24 80x24
P=$many check npu_fold_200x60 200x60
# eight training steps, the third the slowest: Tab in the gaps panel shows the
# per-step table; Enter on a step zooms the lanes to it
steps=$work/steps
python3 "$src/tests/tui/npu_prof.py" "$S/profiling" "$steps" --steps 8 || fail "npu_prof.py --steps"
P=$steps check npu_steps_80x24 80x24 --keys 'b\t'
P=$steps check npu_steps_160x48 160x48 --keys 'b\tjj'
P=$steps check npu_step_jump_160x48 160x48 --keys 'b\tjj\n'
[ $bad = 0 ] || exit 1

# what the goldens must keep saying, so a regenerated golden cannot drop it unseen
grep -q '^ NPU idle per training step (Host Bound)' "$work/npu_steps_80x24.screen" || fail "steps table title"
grep -q '^  step  *card  *time  *NPU idle  *idle%  *gaps  *cause  *top culprit' "$work/npu_steps_160x48.screen" ||
	fail "steps table columns"
[ "$(grep -c '^[ >] [0-9] *NPU0 *200 ms ' "$work/npu_steps_160x48.screen")" = 7 ] || fail "the seven 200 ms steps"
grep -q '^>\*3  *NPU0  *400 ms .* sleeping ' "$work/npu_steps_160x48.screen" || fail "the slowest step is not marked"
grep -q '^  (outside) NPU0  ' "$work/npu_steps_160x48.screen" || fail "the idle time outside every step"
grep -q '^step 3 on NPU0: [0-9.]* ms of NPU idle, mostly ' "$work/npu_step_jump_160x48.screen" ||
	fail "Enter on a step does not go to it"
s=$work/npu_200x60.screen
grep -q '^NPU (1 card, 4 lanes)' "$s" || fail "no NPU group header"
[ "$(grep -n '^NPU (' "$s" | cut -d: -f1)" -lt "$(grep -n '^CPU Scheduling' "$s" | cut -d: -f1)" ] ||
	fail "the NPU group is not above the CPU lanes"
grep -q '^ NPU0 stream 5 ' "$s" && grep -q '^ NPU0 stream 7 ' "$s" && grep -q '^ NPU0 Free ' "$s" &&
	grep -q '^ NPU0 HCCL 0 ' "$s" || fail "a stream, the Free lane or the HCCL lane is missing"
grep -q 'MatMulV2_K' "$work/npu_zoom_200x60.screen" || fail "no kernel name when zoomed in"
# the profiler's threads (container tids 1 and 3) first under Process Scheduling, marked D,
# whatever the sort (o cycles running, runnable, name, pid)
for keys in '' 'o' 'oo' 'ooo'; do
	"$bin" preview $S/sample.dat -p "$prof" -m $S/pid_mapping.json --print 200x60 \
		${keys:+--keys "$keys"} > "$work/sort.screen" 2>/dev/null || fail "sort '$keys'"
	first=$(grep -A2 '^Process Scheduling' "$work/sort.screen" | tail -2 | cut -c1-16 | sort | tr -d ' ' | tr '\n' ' ')
	[ "$first" = "Dmodel_main:1 Dnpu_dispatch:3 " ] || { cat "$work/sort.screen"; fail "sort '$keys': dispatch threads not pinned: '$first'"; }
done
[ "$(grep -c '^D' "$s")" = 2 ] || fail "not exactly two lanes marked D"
grep -q 'dispatch (profiler tid 3)' "$work/npu_gap_jump_200x60.screen" || fail "the jump did not select the dispatch thread"
grep -q '^ NPU idle gaps (Host Bound), 191, worst first' "$work/npu_gaps_80x24.screen" || fail "gaps panel title"
# the panel lists the 18 ms gaps (a period without a kernel) first
[ "$(grep -c '^[ >]   [1-7] NPU0 .* 18 ms ' "$work/npu_gaps_200x60.screen")" = 5 ] || fail "the worst gaps are not first"
# search reaches the NPU lanes by name, as it does task lanes
"$bin" preview $S/sample.dat -p "$prof" -m $S/pid_mapping.json --print 200x60 --keys '/stream 7\n' \
	> "$work/search.screen" 2>/dev/null || fail "search"
grep -q '^>NPU0 stream 7 ' "$work/search.screen" && grep -q '^ NPU0 stream 7  [0-9]* device tasks' "$work/search.screen" ||
	fail "/stream 7 did not select the stream's lane"
# the op the dispatch thread was in, from the profiler's cpu_ops, when it covers the cause's time
grep -q '^[ >]   1 NPU0 .* 18 ms .* npu_dispatch:3 sleeping 10.1 ms in DataLoader.__next__' "$work/npu_gaps_200x60.screen" ||
	fail "the worst gap does not name the op (DataLoader.__next__)"
# culprits by occupancy: who held the CPU the dispatch thread waited for, with its time
grep -q '^    4 NPU0 .* preempted 7.1 ms behind dl_worker:2 on CPU 1 (6.0 ms)' "$work/npu_gaps_200x60.screen" ||
	fail "a preempted gap does not name the task that held the CPU"
echo "ok: NPU group, names, dispatch threads pinned, gaps panel"

# folded: the header says what and the key; the dispatch threads on the first 80x24 screen
f=$work/npu_fold_80x24.screen
grep -q '^NPU (2 cards, 5 of 52 lanes; folded 29 streams, 18 HCCL; z unfolds)' "$f" || fail "fold: header"
[ "$(grep -c '^D' "$f")" = 2 ] || fail "fold: the dispatch threads are not on the first 80x24 screen"
grep -q '^ NPU0 stream 5 ' "$f" && grep -q '^ NPU1 stream 5 ' "$f" && grep -q '^ NPU0 Free ' "$f" &&
	grep -q '^ NPU1 Free ' "$f" || fail "fold: a card's busiest stream or Free lane is folded"
if grep -q 'HCCL [0-9]' "$f"; then fail "fold: an HCCL lane is shown before the streams"; fi
# at 200x60 the third of the rows: every card's Free lane, its HCCL lanes as one row, its busiest streams
f=$work/npu_fold_200x60.screen
[ "$(grep -c '^ NPU[01] ' "$f")" = 17 ] && [ "$(grep -c '^D' "$f")" = 2 ] || fail "fold 200x60: not 17 NPU rows and the dispatch threads"
grep -q '^ NPU0 HCCL, 9 folded ' "$f" && grep -q '^ NPU1 HCCL, 9 folded ' "$f" || fail "fold 200x60: no HCCL row a card"
# the row is the planes' union: here they all carry the same ops, so it is HCCL 0 unfolded, named when zoomed in
for keys in 0 'bjj\n'; do
	"$bin" preview $S/sample.dat -p "$many" -m $S/pid_mapping.json --print 200x60 --keys "$keys" 2>/dev/null |
		grep '^ NPU0 HCCL, 9 folded ' | cut -c30- > "$work/union.row"
	"$bin" preview $S/sample.dat -p "$many" -m $S/pid_mapping.json --print 200x60 --keys "${keys}z" 2>/dev/null |
		grep '^ NPU0 HCCL 0 ' | cut -c30- > "$work/plane.row"
	[ -s "$work/union.row" ] && cmp -s "$work/union.row" "$work/plane.row" || fail "fold: the HCCL row is not the planes' union ($keys)"
done
grep -q 'hco' "$work/union.row" || fail "fold: the HCCL row names no op when zoomed in"
# z unfolds every lane (on a screen tall enough for them all), z again folds them
"$bin" preview $S/sample.dat -p "$many" -m $S/pid_mapping.json --print 120x80 > "$work/tall.screen" 2>/dev/null &&
	"$bin" preview $S/sample.dat -p "$many" -m $S/pid_mapping.json --print 120x80 --keys z > "$work/unfold.screen" 2>/dev/null &&
	"$bin" preview $S/sample.dat -p "$many" -m $S/pid_mapping.json --print 80x24 --keys zz > "$work/refold.screen" 2>/dev/null ||
	fail "z"
[ "$(grep -c '^[ >]NPU[01] ' "$work/tall.screen")" = 24 ] || fail "120x80: not a third of the rows of NPU lanes"
[ "$(grep -c '^[ >]NPU[01] .*│' "$work/unfold.screen")" = 52 ] && grep -q '^NPU (2 cards, 52 lanes; z folds)' "$work/unfold.screen" ||
	fail "z: not every NPU lane shown"
grep -q '^NPU (2 cards, 5 of 52 lanes; folded 29 streams, 18 HCCL; z unfolds)' "$work/refold.screen" || fail "zz: not folded again"
# two Level2 ranks as tests/profiling/gen.py writes them (5 lanes a card): the same at 80x24
lv2=$work/lv2
T0=$(python3 -c "import json,glob;print(int(json.load(open(glob.glob('$S/profiling/*/PROF_*/host/start_info')[0]))['collectionTimeBegin'])*1000+50000000)")
cp -r "$S/profiling_2cards" "$lv2" || fail "copy profiling_2cards"
r=0
for d in "$lv2"/*_ascend_pt; do
	python3 "$src/tests/profiling/gen.py" "$d" --t0-ns "$T0" --level 2 --rank $r || fail "gen.py rank $r"
	r=$((r + 1))
done
"$bin" preview $S/sample.dat -p "$lv2" -m $S/pid_mapping.json --print 80x24 > "$work/lv2.screen" 2>/dev/null || fail "Level2 ranks"
grep -q '^NPU (2 cards, [0-9]* of [0-9]* lanes; folded ' "$work/lv2.screen" && [ "$(grep -c '^D' "$work/lv2.screen")" = 2 ] ||
	{ cat "$work/lv2.screen"; fail "Level2 ranks: the dispatch threads are not on the first 80x24 screen"; }
# a group that fits has nothing to fold: z says so and changes nothing
"$bin" preview $S/sample.dat -p "$prof" -m $S/pid_mapping.json --print 80x24 --keys z > "$work/fit.screen" 2>/dev/null || fail "z on a small group"
grep -q 'the NPU lanes fit: nothing to fold' "$work/fit.screen" &&
	cmp -s <(sed '$d' "$work/fit.screen") <(sed '$d' "$gold/npu_80x24.screen") || fail "z changed a group that fits"
# a search finds a folded lane: the group unfolds and the lane is selected, in view
for q in 'HCCL' 'stream 23'; do
	"$bin" preview $S/sample.dat -p "$many" -m $S/pid_mapping.json --print 80x24 --keys "/$q\n" > "$work/fsearch.screen" 2>/dev/null ||
		fail "fold: search $q"
	grep -q "^>NPU0 $q" "$work/fsearch.screen" && grep -q 'NPU lanes unfolded' "$work/fsearch.screen" ||
		{ cat "$work/fsearch.screen"; fail "fold: /$q did not reach a folded lane"; }
done
echo "ok: the NPU group folds (z), the dispatch threads on the first screen, search unfolds"

# the same numbers as ftscope hostbound: its worst gap's verdict
"$bin" hostbound $S/sample.dat -p "$prof" -m $S/pid_mapping.json -f csv -n 1 > "$work/hb.csv" || fail "hostbound"
verdict=$(python3 -c 'import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); print(r[0]["cause"])' "$work/hb.csv")
grep -q "^>   1 NPU0 .* 18 ms  $verdict " "$work/npu_gaps_80x24.screen" || fail "panel's worst gap is not hostbound's ($verdict)"
echo "ok: same verdict as hostbound ($verdict)"

# a DB converted with the profiling (what the export screen's o opens): the same lanes and panel
"$bin" convert -q -i $S/sample.dat -o "$work/ftrace_data.db" -p "$prof" -m $S/pid_mapping.json || fail "convert"
"$bin" preview "$work/ftrace_data.db" -p "$prof" --print 200x60 --keys 'bjj\n' > "$work/db.screen" || fail "DB preview"
grep -q '^NPU (1 card, 4 lanes)' "$work/db.screen" || fail "DB: no NPU group"
grep -q 'dispatch (profiler tid 3)' "$work/db.screen" || fail "DB: the jump did not select the dispatch thread"
[ "$(grep '^ NPU0 stream 5' "$work/db.screen" | cut -c29-)" = "$(grep '^ NPU0 stream 5' "$work/npu_gap_jump_200x60.screen" | cut -c29-)" ] ||
	fail "DB: the stream lane differs from the trace's at the same gap"
echo "ok: a DB with the profiling"

# two cards (rank directories side by side): a lane group each, one gaps list over both
rank=$(ls -d "$prof"/*_ascend_pt)
cp -r "$rank" "${rank%_ascend_pt}9_ascend_pt"
"$bin" preview $S/sample.dat -p "$prof" -m $S/pid_mapping.json --print 200x60 > "$work/two.screen" 2>/dev/null ||
	fail "two cards"
grep -q '^NPU (2 cards, 8 lanes)' "$work/two.screen" && grep -q '^ NPU1 stream 5 ' "$work/two.screen" ||
	fail "two cards: no second card's lanes"
"$bin" preview $S/sample.dat -p "$prof" -m $S/pid_mapping.json --print 200x60 --keys b > "$work/two_gaps.screen" 2>/dev/null ||
	fail "two cards: gaps"
grep -q '^ NPU idle gaps (Host Bound), 382, worst first' "$work/two_gaps.screen" &&
	grep -q '^    2 NPU1 ' "$work/two_gaps.screen" || fail "two cards: the panel does not list both cards' gaps"
rm -rf "${rank%_ascend_pt}9_ascend_pt"
echo "ok: two cards"

# hostile and missing profiling: one line on stderr, exit 1, nothing on stdout
refuse() { # refuse WORDS DIR
	local words=$1 dir=$2 rc
	"$bin" preview $S/sample.dat -p "$dir" -m $S/pid_mapping.json --print 80x24 > "$work/out" 2> "$work/err"
	rc=$?
	[ $rc = 1 ] || { cat "$work/err"; fail "exit $rc, not 1, for $words"; }
	[ ! -s "$work/out" ] || fail "a screen was printed for $words"
	[ "$(wc -l < "$work/err")" = 1 ] || { cat "$work/err"; fail "not one line for $words"; }
	grep -q -- "$words" "$work/err" || { cat "$work/err"; fail "no '$words' in: $(cat "$work/err")"; }
	echo "ok refused: $(cat "$work/err")"
}
refuse "nonexistent" "$work/nonexistent"
tv=$(ls "$prof"/*_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json)
cp "$tv" "$work/good.json"
printf 'not json at all' > "$tv"
refuse "no '\['" "$prof"
head -c 5000 "$work/good.json" > "$tv"
refuse "ends inside an event" "$prof"
python3 -c 'import json; print(json.dumps([{"ph":"X","name":"k","pid":77,"tid":5,"ts":"1.000","dur":1}]))' > "$tv"
refuse 'no "Ascend Hardware"' "$prof"
# a terminal escape in a kernel name reaches the screen escaped
python3 - "$work/good.json" "$tv" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))
for e in ev:
    if e.get("name", "").startswith("MatMulV2_K"):
        e["name"] = "\x1b]0;pwned\x07" + e["name"]
json.dump(ev, open(sys.argv[2], "w"))
PY
"$bin" preview $S/sample.dat -p "$prof" -m $S/pid_mapping.json --print 200x60 --keys 'b\n+++' > "$work/esc.screen" ||
	fail "escaped names"
if grep -q $'\033' "$work/esc.screen"; then fail "a raw escape reached the screen"; fi
grep -q 'MatMulV2_K\|pwned' "$work/esc.screen" || fail "the hostile kernel's lane shows nothing"
echo "ok: hostile names escaped"
