// SPDX-License-Identifier: MIT
/*
 * flight_trigger.c - the lost-events trigger both fronts step (see
 * flight_trigger.h).
 */
#include "app/flight_trigger.h"

#include <string.h>

void fts_flight_trigger_arm(struct fts_flight_trigger *t, double post_s, double segment_s, int keep)
{
	double ring_s = segment_s * (keep ? keep : 4);

	memset(t, 0, sizeof(*t));
	t->armed = 1;
	t->post_ms = (uint64_t)(post_s * 1000);
	t->gap_ms = (uint64_t)((ring_s > 10 ? ring_s : segment_s > 0 ? 10 : 60) * 1000);
}

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
