// SPDX-License-Identifier: MIT
/* timemap_get.c - the time map's lifetime and accessors (timemap.h); its filling is timemap.c. */
#include <stdlib.h>

#include "core/model/timemap_impl.h"

struct fts_timemap *fts_timemap_new(void)
{
	struct fts_timemap *tm = malloc(sizeof(*tm));

	if (tm)
		fts_timemap_raw(tm);
	return tm;
}

void fts_timemap_free(struct fts_timemap *tm)
{
	free(tm);
}

enum fts_time_base fts_timemap_base(const struct fts_timemap *tm)
{
	return tm->base;
}

int64_t fts_timemap_offset(const struct fts_timemap *tm)
{
	return tm->offset;
}

int fts_timemap_window(const struct fts_timemap *tm, uint64_t *lo, uint64_t *hi)
{
	if (!tm->has_window)
		return 0;
	if (lo)
		*lo = tm->lo;
	if (hi)
		*hi = tm->hi;
	return 1;
}

int64_t fts_timemap_stat(const struct fts_timemap *tm, enum fts_timemap_stat what)
{
	switch (what) {
	case FTS_TM_CARDS_TOTAL:
		return tm->cards_total;
	case FTS_TM_CARDS_LISTED:
		return tm->ncards;
	case FTS_TM_CARDS_SKIPPED:
		return tm->skipped_cards;
	case FTS_TM_CARDS_PROFILER_INFO:
		return tm->profiler_info_cards;
	case FTS_TM_OFFSET_MIN:
		return tm->offset_min;
	case FTS_TM_OFFSET_SPREAD:
		return tm->offset_spread;
	case FTS_TM_START_SPREAD:
		return tm->start_spread;
	case FTS_TM_END_SPREAD:
		return tm->end_spread;
	}
	return 0;
}

const struct fts_card *fts_timemap_card(const struct fts_timemap *tm, int i)
{
	return i >= 0 && i < tm->ncards ? &tm->cards[i] : NULL;
}
