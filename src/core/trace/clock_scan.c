// SPDX-License-Identifier: MIT
#include "core/trace/clock_scan.h"

#include <string.h>

struct scan_ctx {
	uint64_t n;
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
	 */
	if (cp->valid && (!s->need_stop || !cp->has_mono))
		return 1;
	return ++s->n >= FTS_CLOCK_SCAN_EVENTS ? 1 : 0;
}

static int read_all(void *ctx, const struct fts_event *ev)
{
	(void)ctx;
	(void)ev;
	return 0;
}

int fts_clock_read_all(fts_clock_read_fn read, const char *path, struct fts_clock_pair *cp)
{
	struct fts_read_stats st;
	struct fts_read_opts ro = { .emit = read_all, .probed = 1, .headers_only = 1 };

	memset(&st, 0, sizeof(st));
	if (read(path, &ro, &st, NULL) < 0 || !st.clock.valid)
		return -1;
	*cp = st.clock;
	return 0;
}

int fts_clock_scan(fts_clock_read_fn read, const char *path, int need_stop, struct fts_clock_scan *out)
{
	struct fts_read_stats st;
	struct scan_ctx s = { .st = &st, .need_stop = need_stop };
	struct fts_read_opts ro = { .emit = scan_emit, .emit_ctx = &s, .probed = 1, .headers_only = 1 };
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&st, 0, sizeof(st));
	rc = read(path, &ro, &st, NULL);
	if (rc < 0)
		return rc;
	out->clock = st.clock;
	out->partial = need_stop && st.clock.valid && st.clock.has_mono && !st.clock.has_stop &&
		       s.n >= FTS_CLOCK_SCAN_EVENTS;
	return 0;
}
