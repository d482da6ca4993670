/* SPDX-License-Identifier: MIT */
/*
 * flight_trigger.h - the flight recorder's lost-events trigger, the same for
 * both fronts (record --trigger lost, the TUI's Trigger row "lost"). It is
 * stepped by the front's health loop, which already has the lost totals; the
 * scheduling triggers live in the library (they need its decoder). The pid
 * and request files are app/flight_ctl.h, --segment app/flight_segment.h.
 */
#ifndef FTS_FRONT_FLIGHT_TRIGGER_H
#define FTS_FRONT_FLIGHT_TRIGGER_H

#include <stdint.h>

#include "app/flight_ctl.h"      /* the pid and request files */
#include "app/flight_segment.h"  /* fts_flight_parse_segment, shared with the TUI */

/*
 * The automatic trigger on lost events: armed, it fires @post_ms after the
 * first sample that shows new loss (so the snapshot holds the seconds after
 * it too), then stays quiet for @gap_ms. Plain data; the caller's clock.
 */
struct fts_flight_trigger {
	int armed;
	uint64_t post_ms, gap_ms;
	uint64_t lost_seen;        /* the lost total at the last step */
	uint64_t due_ms;           /* a snapshot is due at this time; 0: none pending */
	uint64_t quiet_until_ms;   /* no new trigger before this */
	uint64_t lost_at_trigger;  /* the lost total when it triggered */
	int fired;                 /* snapshots triggered so far */
};

/*
 * fts_flight_trigger_arm - arm @t: a snapshot @post_s after new loss, then
 * quiet for a ring (@segment_s x @keep, 10 s at least; 60 s for segments by
 * size), so two automatic snapshots never hold the same segments.
 */
void fts_flight_trigger_arm(struct fts_flight_trigger *t, double post_s, double segment_s, int keep);

/*
 * fts_flight_trigger_step - feed the lost total at @now_ms; 1 when a
 * snapshot is due now (the events lost since the trigger in *@lost), else 0.
 */
int fts_flight_trigger_step(struct fts_flight_trigger *t, uint64_t now_ms, uint64_t lost_total,
			    uint64_t *lost);

#endif
