/* SPDX-License-Identifier: MIT */
/*
 * record_flight.h - the command line's side of the flight recorder: the
 * lost-events trigger. The pid and request files are front/flight_ctl.h and
 * the --segment value front/flight_segment.h, shared with the TUI.
 */
#ifndef FTS_CLI_RECORD_FLIGHT_H
#define FTS_CLI_RECORD_FLIGHT_H

#include <stdint.h>

#include "front/flight_ctl.h"      /* the pid and request files */
#include "front/flight_segment.h"  /* fts_flight_parse_segment, shared with the TUI */

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
 * fts_flight_trigger_step - feed the lost total at @now_ms; 1 when a
 * snapshot is due now (the events lost since the trigger in *@lost), else 0.
 */
int fts_flight_trigger_step(struct fts_flight_trigger *t, uint64_t now_ms, uint64_t lost_total,
			    uint64_t *lost);

#endif
