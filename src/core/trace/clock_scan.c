// SPDX-License-Identifier: MIT
#include "core/trace/clock_scan.h"

#include <string.h>

struct scan_ctx {
	uint64_t n;
	uint64_t limit;                   /* events to read, 0: all */
	const struct fts_read_stats *st;  /* the read's, as it goes */
	int need_stop;
};

static int scan_emit(void *ctx, const struct fts_event *ev)
{
	struct scan_ctx *s = ctx;
	const struct fts_clock_pair *cp = &s->st->clock;

	(void)ev;
	/*
	 * The start sample is the first: once found, read on only for a stop
	 * sample (the latest among the events read wins), which needs MONOTONIC.
	 * A flight segment holds both in its header (record/segstats.c), taken
	 * before its first event: no event is read then, whatever the rate.
	 */
	if (cp->valid && (!s->need_stop || !cp->has_mono || cp->has_stop))
		return 1;
	return s->limit && ++s->n >= s->limit ? 1 : 0;
}

/* @path's clock samples from at most @limit events (0: all) into @out; the reader's code. */
static int scan(fts_clock_read_fn read, const char *path, int need_stop, uint64_t limit,
		struct fts_clock_scan *out)
{
	struct fts_read_stats st;
	struct scan_ctx s = { .limit = limit, .st = &st, .need_stop = need_stop };
	struct fts_read_opts ro = { .emit = scan_emit, .emit_ctx = &s, .probed = 1, .headers_only = 1 };
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&st, 0, sizeof(st));
	rc = read(path, &ro, &st, NULL);
	if (rc < 0)
		return rc;
	out->clock = st.clock;
	out->partial = need_stop && st.clock.valid && st.clock.has_mono && !st.clock.has_stop &&
		       limit && s.n >= limit;
	return 0;
}

int fts_clock_scan(fts_clock_read_fn read, const char *path, int need_stop, struct fts_clock_scan *out)
{
	return scan(read, path, need_stop, FTS_CLOCK_SCAN_EVENTS, out);
}

int fts_clock_read_all(fts_clock_read_fn read, const char *path, struct fts_clock_pair *cp)
{
	struct fts_clock_scan all;

	if (scan(read, path, 1, 0, &all) || !all.clock.valid)
		return -1;
	*cp = all.clock;
	return 0;
}
