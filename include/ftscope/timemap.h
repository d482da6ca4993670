/* SPDX-License-Identifier: MIT */
/*
 * timemap.h - trace clock (CLOCK_MONOTONIC_RAW ns) -> output time, and the
 * profiling window.
 *
 * With Ascend profiling data, every card's start_info/end_info below the
 * given directory is read: out = ts - clockMonotonicRaw + collectionTimeBegin
 * * 1000 (Unix-epoch ns, the time base Insight aligns on), and the window is
 * the union of the cards' [start, end]; the earliest card anchors the time
 * base. A key given twice with different values in a card's file refuses
 * the alignment (JSON readers disagree on which one counts). A *_ascend_pt
 * directory with no usable pair below it falls back to its
 * profiler_info_<rank>.json (fts_timemap_from_profiling_cp). Without it, a clock pair stored by
 * the recorder places the trace on the epoch; otherwise times stay raw.
 */
#ifndef FTS_TIMEMAP_H
#define FTS_TIMEMAP_H

#include <stdint.h>

#include "error.h"
#include "event.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FTS_TIMEMAP_MAX_CARDS 64

enum fts_time_base {
	FTS_TIME_RAW,        /* mono_raw ns as recorded */
	FTS_TIME_PROFILING,  /* aligned with start_info/end_info */
	FTS_TIME_CLOCK_PAIR, /* epoch from the recorder's (realtime, mono_raw) pair */
};

enum fts_card_source {
	FTS_CARD_START_INFO,    /* PROF_<n>/.../start_info + end_info (CLOCK_MONOTONIC_RAW) */
	FTS_CARD_PROFILER_INFO, /* profiler_info_<rank>.json: no usable PROF_* pair below its directory */
};

struct fts_card {
	char dir[512];         /* the directory holding start_info/end_info (or profiler_info_<rank>.json) */
	int64_t start_mono;    /* ns */
	int64_t end_mono;      /* ns */
	int64_t offset;        /* collectionTimeBegin*1000 - clockMonotonicRaw */
	enum fts_card_source source;
	char file[64];         /* profiler_info: the file's name; "" for start_info */
	/*
	 * profiler_info only: its end (MonotonicTimeEnd) and epoch offset are on
	 * CLOCK_MONOTONIC, the trace on CLOCK_MONOTONIC_RAW. @exact: converted
	 * through the capture's (realtime, mono_raw) pair, @mono_minus_raw then
	 * measured at the profiler's end; else @error_ns bounds how far off the
	 * end and the offset may be (50 ppm of the uptime, a common drift).
	 */
	int exact;
	int64_t mono_minus_raw;
	int64_t error_ns;
	/*
	 * exact only: how (enum fts_clock_fit); FTS_CLOCK_FIT_NONE is an older
	 * capture's (realtime, mono_raw) pair, which assumes REALTIME and RAW do
	 * not drift apart (error_ns 0). @slope_ppm: the fitted drift.
	 */
	int fit;
	double slope_ppm;
};

/*
 * The time map: opaque, made by fts_timemap_new and filled by one of the
 * fts_timemap_raw / _from_profiling / _from_clock calls below (a pipeline
 * result holds one too: fts_pipeline_result_time). It was a caller-allocated
 * struct of 41 KB that grew with every release; behind accessors it can grow
 * without breaking programs built against an older library.
 */
struct fts_timemap;

/* The counts and spreads of fts_timemap_stat, by name (more may follow). */
enum fts_timemap_stat {
	FTS_TM_CARDS_TOTAL,         /* every card found: all set the window, the anchor and the spread */
	FTS_TM_CARDS_LISTED,        /* cards fts_timemap_card returns: the first FTS_TIMEMAP_MAX_CARDS */
	FTS_TM_CARDS_SKIPPED,       /* start_info without an end_info beside it (not written yet) */
	FTS_TM_CARDS_PROFILER_INFO, /* cards (of the total) taken from profiler_info_<rank>.json */
	FTS_TM_OFFSET_MIN,          /* the smallest card offset, ns */
	FTS_TM_OFFSET_SPREAD,       /* max - min card offset, ns */
	FTS_TM_START_SPREAD,        /* latest - earliest card start, ns (cards should agree) */
	FTS_TM_END_SPREAD,          /* latest - earliest card end, ns */
};

/**
 * fts_timemap_new - an empty time map (the identity mapping, no window)
 *
 * Returns the map, freed with fts_timemap_free, or NULL (out of memory).
 */
FTS_API struct fts_timemap *fts_timemap_new(void);

/**
 * fts_timemap_free - free a time map from fts_timemap_new
 * @tm: the map; NULL does nothing
 */
FTS_API void fts_timemap_free(struct fts_timemap *tm);

/**
 * fts_timemap_base - what the map places times on
 * @tm: the map
 *
 * Returns FTS_TIME_RAW, FTS_TIME_PROFILING or FTS_TIME_CLOCK_PAIR.
 */
FTS_API enum fts_time_base fts_timemap_base(const struct fts_timemap *tm);

/**
 * fts_timemap_offset - the shift from trace-clock ns to output ns
 * @tm: the map
 *
 * Returns the offset: output time = trace time + offset.
 */
FTS_API int64_t fts_timemap_offset(const struct fts_timemap *tm);

/**
 * fts_timemap_window - the profiling window, in trace-clock ns
 * @tm: the map
 * @lo: set to its first ns (inclusive) when there is one; may be NULL
 * @hi: set to its last ns (inclusive) when there is one; may be NULL
 *
 * Returns 1 when the map has a window (profiling data), else 0.
 */
FTS_API int fts_timemap_window(const struct fts_timemap *tm, uint64_t *lo, uint64_t *hi);

/**
 * fts_timemap_stat - one of the map's card counts or spreads
 * @tm: the map
 * @what: which (enum fts_timemap_stat)
 *
 * As sqlite3_db_status does, one call for every figure, so a new one is a
 * new enum value rather than a new field in a struct the caller allocates.
 *
 * Returns the figure; 0 for a map without cards or an unknown @what.
 */
FTS_API int64_t fts_timemap_stat(const struct fts_timemap *tm, enum fts_timemap_stat what);

/**
 * fts_timemap_card - one card of the profiling data
 * @tm: the map
 * @i: 0 to fts_timemap_stat(@tm, FTS_TM_CARDS_LISTED) - 1
 *
 * The card is the map's: valid until the map is freed or filled again. Read
 * it through the pointer and never copy the struct by value: it may grow at
 * its end in a later release.
 *
 * Returns the card, or NULL when @i is out of range.
 */
FTS_API const struct fts_card *fts_timemap_card(const struct fts_timemap *tm, int i);

/* Cards of one run disagree when their offsets or windows differ by more than these. */
#define FTS_TIMEMAP_OFFSET_TOLERANCE_NS INT64_C(1000000)
#define FTS_TIMEMAP_WINDOW_TOLERANCE_NS INT64_C(1000000000)

/* MONOTONIC - MONOTONIC_RAW drift assumed without a fit: a common NTP correction (the kernel allows 500). */
#define FTS_CLOCK_DRIFT_PPM 50

enum fts_clock_fit {
	FTS_CLOCK_FIT_NONE,   /* no CLOCK_MONOTONIC sample in the capture (trace-cmd, older ftscope) */
	FTS_CLOCK_FIT_OFFSET, /* the start sample's MONOTONIC - RAW offset only */
	FTS_CLOCK_FIT_SLOPE,  /* start and stop samples: the offset's drift fitted over RAW time */
};

/**
 * fts_clock_mono_to_raw - a CLOCK_MONOTONIC time on CLOCK_MONOTONIC_RAW, through a capture's clock samples
 * @cp: the capture's samples (fts_read_stats.clock)
 * @mono_ns: the time on CLOCK_MONOTONIC
 * @raw_ns: set to it on CLOCK_MONOTONIC_RAW (not for FTS_CLOCK_FIT_NONE)
 * @error_ns: set to how far off *@raw_ns may be: half the reads' window, plus
 *            beyond the samples the fitted slope's uncertainty (SLOPE) or
 *            FTS_CLOCK_DRIFT_PPM of the distance from the start (OFFSET); may be NULL
 * @slope_ppm: set to the fitted drift (SLOPE), else 0; may be NULL
 *
 * A stop sample whose slope exceeds 1000 ppm is not used (OFFSET then).
 * Returns the method used.
 */
FTS_API enum fts_clock_fit fts_clock_mono_to_raw(const struct fts_clock_pair *cp, int64_t mono_ns,
						 int64_t *raw_ns, int64_t *error_ns, double *slope_ppm);

/**
 * fts_timemap_raw - the identity mapping, with no window
 * @tm: filled
 */
FTS_API void fts_timemap_raw(struct fts_timemap *tm);

/**
 * fts_timemap_from_profiling - align with Ascend profiling data
 * @dir: the profiling directory; every start_info/end_info pair below it
 *       is read, without following symlinks, and every pair is used
 * @tm: filled with the mapping and the union window of the cards
 * @err: filled when @dir is missing, holds no pair, or a card's files are
 *       wrong; also when a directory below it cannot be read, is a symlink,
 *       or lies more than 12 levels down (a card there could not be used)
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_timemap_from_profiling(const char *dir, struct fts_timemap *tm, struct fts_err *err);

/**
 * fts_timemap_from_profiling_cp - fts_timemap_from_profiling, with the
 * fallback to profiler_info_<rank>.json converted through a clock pair
 * @dir: the profiling directory
 * @cp: the capture's (realtime, mono_raw) pair, or NULL / invalid: none
 * @tm: filled
 * @err: as fts_timemap_from_profiling; a malformed profiler_info (no
 *       start_info.start_monotonic, end_info.collectionTimeEnd or
 *       end_info.MonotonicTimeEnd, end before start) names the file and field
 *
 * A directory holding profiler_info_<rank>.json with no usable start_info/
 * end_info pair below it is a card from that file: window [start_monotonic,
 * MonotonicTimeEnd], offset collectionTimeEnd - MonotonicTimeEnd; with a
 * valid @cp the end and offset are taken to CLOCK_MONOTONIC_RAW, through
 * fts_clock_mono_to_raw when @cp has MONOTONIC samples (the card's fit and
 * error_ns say how well).
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_timemap_from_profiling_cp(const char *dir, const struct fts_clock_pair *cp,
					  struct fts_timemap *tm, struct fts_err *err);

/**
 * fts_timemap_from_clock - the epoch mapping from a recorder clock pair, no window
 * @tm: filled
 * @cp: the pair; an invalid one gives the identity mapping
 */
FTS_API void fts_timemap_from_clock(struct fts_timemap *tm, const struct fts_clock_pair *cp);

/**
 * fts_timemap_parse_info - parse one start_info or end_info text
 * @text: the file's content (JSON; values may be strings or numbers)
 * @len: its length
 * @mono_ns: set to clockMonotonicRaw (ns)
 * @begin_us: set to collectionTimeBegin (us) for start_info; NULL for end_info
 *
 * Returns 0 or a negative errno (missing key, out-of-range value).
 */
FTS_API int fts_timemap_parse_info(const char *text, size_t len, int64_t *mono_ns, int64_t *begin_us);

#ifdef __cplusplus
}
#endif

#endif
