/* SPDX-License-Identifier: MIT */
/*
 * timemap_impl.h - the time map's layout, private to the library (and the
 * tests of its internals). Callers of the public API hold a struct
 * fts_timemap by pointer only and read it through timemap.h's accessors, so
 * this layout may change in any release.
 */
#ifndef FTS_TIMEMAP_IMPL_H
#define FTS_TIMEMAP_IMPL_H

#include "ftscope/timemap.h"

struct fts_timemap {
	enum fts_time_base base;
	int64_t offset;          /* out = ts + offset */
	int has_window;
	uint64_t lo, hi;         /* window in trace-clock ns, inclusive */
	int ncards;              /* cards listed in @cards: the first FTS_TIMEMAP_MAX_CARDS */
	struct fts_card cards[FTS_TIMEMAP_MAX_CARDS];
	int64_t offset_spread;   /* max - min card offset, ns */
	int skipped_cards;       /* start_info without an end_info beside it (not written yet) */
	int cards_total;         /* every card found: all set the window, the anchor and the spread */
	int64_t offset_min;      /* the smallest card offset (the largest: + offset_spread) */
	int profiler_info_cards; /* cards (of cards_total) taken from profiler_info_<rank>.json */
	int64_t start_spread;    /* latest - earliest card start, ns (cards should agree) */
	int64_t end_spread;      /* latest - earliest card end, ns */
};

#endif
