/* SPDX-License-Identifier: MIT */
/*
 * saved.h - the summary right after a recording is saved: how long, how
 * many events, the events lost per CPU (the kernel's counters the file keeps,
 * through the one loss model, so the preview shows the same numbers), the
 * file's size, and what to do next: preview it (Enter), record again with a
 * bigger buffer, or discard it.
 */
#ifndef FTS_TUI_SAVED_H
#define FTS_TUI_SAVED_H

#include <ftscope/record.h>

#include "tui/session/session.h"

/**
 * fts_saved_take - keep what the saved screen shows from a finished recording
 * @s: the session
 * @sum: what fts_record_stop filled (copied; the caller still releases it)
 * @bf_kb: the per-CPU buffer it was recorded with
 */
void fts_saved_take(struct fts_session *s, const struct fts_record_summary *sum, unsigned bf_kb);

/**
 * fts_saved_flight - after fts_saved_take, for a flight recording: the screen
 * names the ring (its segments in @outdir, previewed as one trace) and the
 * snapshots (the snapshot-* directories made in @outdir during the last
 * @duration_s), not the last segment alone
 * @s: the session
 * @outdir: the output's directory
 * @ring_bytes: what the ring holds on disk
 * @duration_s: how long it recorded
 */
void fts_saved_flight(struct fts_session *s, const char *outdir, uint64_t ring_bytes, double duration_s);

#endif
