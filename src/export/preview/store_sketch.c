// SPDX-License-Identifier: MIT
/*
 * store_sketch.c - the overview of a load in progress (issue 20: a first
 * useful frame within a second, whatever the size). The store's sink feeds
 * every item it appends into a working copy: each CPU lane's run time in
 * FTS_SKETCH_BINS equal time bins over what was seen so far; when an item
 * falls outside, the bins double in width (pairs merge, exact while the
 * range stays aligned), so a load in time order or not costs one add per
 * item and a few dozen rebinnings in all. Every ~50 ms of loading the
 * working copy is published under a lock for the screen to copy out: the
 * screen never waits for the loader for longer than a memcpy, and the
 * loader never reads what the screen holds.
 */
#include "export/preview/store_local.h"
#include "core/internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Items between two looks at the clock (a publish, the test pace). */
#define SK_CHECK_EVERY 4096
#define SK_PUBLISH_S 0.05

struct fts_sketch {
	pthread_mutex_t mu;          /* guards pub */
	struct fts_sketch_snap pub;  /* the last published state */
	struct fts_sketch_snap work; /* the loader's (one thread) */
	int16_t row_of_cpu[FTS_SKETCH_CPU_MAX]; /* CPU number -> row of work + 1 (0: none) */
	uint64_t since_check;
	double last_pub;
	long pace_ms;                /* test hook: sleep this long every SK_CHECK_EVERY items */
};

int fts_sketch_new(struct fts_sketch **out)
{
	struct fts_sketch *k = calloc(1, sizeof(*k));

	*out = NULL;
	if (!k)
		return -ENOMEM;
	if (pthread_mutex_init(&k->mu, NULL)) {
		free(k);
		return -ENOMEM;
	}
	*out = k;
	return 0;
}

void fts_sketch_free(struct fts_sketch *k)
{
	if (!k)
		return;
	pthread_mutex_destroy(&k->mu);
	free(k);
}

/* Only the header and the rows in use: 192 CPUs copy 384 KiB, not the whole table. */
static void snap_copy(struct fts_sketch_snap *dst, const struct fts_sketch_snap *src)
{
	memcpy(dst, src, offsetof(struct fts_sketch_snap, busy));
	memcpy(dst->busy, src->busy, (size_t)src->ncpu * sizeof(src->busy[0]));
}

void fts_sketch_read(struct fts_sketch *k, struct fts_sketch_snap *out)
{
	pthread_mutex_lock(&k->mu);
	snap_copy(out, &k->pub);
	pthread_mutex_unlock(&k->mu);
}

/*
 * Test hook (FTS__TEST_LOAD_PACE_MS, set by the programs from
 * FTSCOPE_TEST_LOAD_PACE_MS as the recorder's hooks): a load slowed to this many ms per SK_CHECK_EVERY items, so a test
 * sees the partial overview without racing a fast machine.
 */
void fts_sketch_begin(struct fts_sketch *k)
{
	k->pace_ms = fts__test_long(FTS__TEST_LOAD_PACE_MS);
	k->last_pub = fts__clock_mono_s();
}

void fts_sketch_publish(struct fts_sketch *k)
{
	pthread_mutex_lock(&k->mu);
	snap_copy(&k->pub, &k->work);
	pthread_mutex_unlock(&k->mu);
	k->last_pub = fts__clock_mono_s();
}

void fts_sketch_lane(struct fts_sketch *k, enum fts_lane_group group, int32_t cpu)
{
	struct fts_sketch_snap *w = &k->work;

	if (group != FTS_GROUP_CPU) {
		w->ntask_lanes++;
		return;
	}
	w->ncpu_lanes++;
	if (cpu < 0 || cpu >= FTS_SKETCH_CPU_MAX || k->row_of_cpu[cpu] || w->ncpu >= FTS_SKETCH_LANES)
		return; /* counted, not drawn */
	w->cpu[w->ncpu] = cpu;
	memset(w->busy[w->ncpu], 0, sizeof(w->busy[0]));
	k->row_of_cpu[cpu] = (int16_t)++w->ncpu;
}

/* The bins' span, saturating: a hostile time axis near 2^64 must not wrap. */
static uint64_t span_end(const struct fts_sketch_snap *w)
{
	uint64_t span = w->bin_ns * FTS_SKETCH_BINS;

	return w->bin_begin > UINT64_MAX - span ? UINT64_MAX : w->bin_begin + span;
}

/* Bins twice as wide starting at @begin (<= the old start): each old bin goes where it starts. */
static void rebin(struct fts_sketch_snap *w, uint64_t begin)
{
	uint64_t ns = w->bin_ns * 2, tmp[FTS_SKETCH_BINS];

	for (uint32_t r = 0; r < w->ncpu; r++) {
		memset(tmp, 0, sizeof(tmp));
		for (uint64_t b = 0; b < FTS_SKETCH_BINS; b++) {
			/* < 2 old spans: no overflow, as cover() caps the width */
			uint64_t nb = (w->bin_begin - begin + b * w->bin_ns) / ns;

			tmp[nb < FTS_SKETCH_BINS ? nb : FTS_SKETCH_BINS - 1] += w->busy[r][b];
		}
		memcpy(w->busy[r], tmp, sizeof(tmp));
	}
	w->bin_begin = begin;
	w->bin_ns = ns;
}

/* Widen the bins until [@t0, @t1] fits, or as far as 64 bits go. */
static void cover(struct fts_sketch_snap *w, uint64_t t0, uint64_t t1)
{
	if (!w->bin_ns) {
		w->bin_begin = t0;
		w->bin_ns = 1;
	}
	while ((t0 < w->bin_begin || t1 > span_end(w)) && w->bin_ns <= UINT64_MAX / FTS_SKETCH_BINS / 4) {
		uint64_t span = w->bin_ns * FTS_SKETCH_BINS, begin = w->bin_begin;

		if (t0 < begin)
			begin = begin >= span ? begin - span : 0;
		rebin(w, begin);
	}
}

/* Run time [@t0, @t1) onto row @r, split over the bins it crosses (clamped into the range). */
static void add_busy(struct fts_sketch_snap *w, uint32_t r, uint64_t t0, uint64_t t1)
{
	uint64_t end = span_end(w), b0, b1;

	if (t0 < w->bin_begin)
		t0 = w->bin_begin;
	if (t1 > end)
		t1 = end;
	if (t1 <= t0)
		return;
	b0 = (t0 - w->bin_begin) / w->bin_ns;
	b1 = (t1 - 1 - w->bin_begin) / w->bin_ns;
	if (b1 >= FTS_SKETCH_BINS)
		b1 = FTS_SKETCH_BINS - 1;
	for (uint64_t b = b0; b <= b1; b++) {
		uint64_t bs = w->bin_begin + b * w->bin_ns; /* <= t1 - 1: no wrap */
		uint64_t be = bs > UINT64_MAX - w->bin_ns ? UINT64_MAX : bs + w->bin_ns;

		w->busy[r][b] += (t1 < be ? t1 : be) - (t0 > bs ? t0 : bs);
	}
}

void fts_sketch_item(struct fts_sketch *k, int32_t cpu, enum fts_item_kind kind, uint64_t ts,
		     uint64_t dur)
{
	struct fts_sketch_snap *w = &k->work;
	uint64_t end = ts + dur; /* the sink keeps ts + dur within 64 bits */

	if (!w->items || ts < w->t_begin)
		w->t_begin = ts;
	if (!w->items || end > w->t_end)
		w->t_end = end;
	w->items++;
	if (ts < w->bin_begin || end > span_end(w) || !w->bin_ns)
		cover(w, ts, end);
	if (kind == FTS_ITEM_RUN && cpu >= 0 && cpu < FTS_SKETCH_CPU_MAX && k->row_of_cpu[cpu])
		add_busy(w, (uint32_t)k->row_of_cpu[cpu] - 1, ts, end);
	if (++k->since_check < SK_CHECK_EVERY)
		return;
	k->since_check = 0;
	if (k->pace_ms) {
		struct timespec d = { k->pace_ms / 1000, (k->pace_ms % 1000) * 1000000L };

		fts_sketch_publish(k);
		nanosleep(&d, NULL);
	} else if (fts__clock_mono_s() - k->last_pub >= SK_PUBLISH_S) {
		fts_sketch_publish(k);
	}
}
