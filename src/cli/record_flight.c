// SPDX-License-Identifier: MIT
/*
 * record_flight.c - the command line's lost-events trigger (see
 * record_flight.h); the pid and request files are front/flight_ctl.c.
 */
#include "cli/record_flight.h"

int fts_flight_trigger_step(struct fts_flight_trigger *t, uint64_t now_ms, uint64_t lost_total,
			    uint64_t *lost)
{
	int grew = lost_total > t->lost_seen;

	*lost = 0;
	if (!t->armed)
		return 0;
	if (grew && !t->due_ms && now_ms >= t->quiet_until_ms) {
		t->due_ms = now_ms + t->post_ms;
		t->lost_at_trigger = t->lost_seen;
	}
	if (lost_total > t->lost_seen)
		t->lost_seen = lost_total;
	if (!t->due_ms || now_ms < t->due_ms)
		return 0;
	*lost = t->lost_seen - t->lost_at_trigger;
	t->due_ms = 0;
	t->quiet_until_ms = now_ms + t->gap_ms;
	t->fired++;
	return 1;
}
