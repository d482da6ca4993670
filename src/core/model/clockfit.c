/* SPDX-License-Identifier: MIT */
/*
 * clockfit.c - CLOCK_MONOTONIC -> CLOCK_MONOTONIC_RAW through the clock
 * samples ftscope record stores at a capture's start and stop.
 *
 * The two clocks tick at rates that differ by NTP's frequency correction
 * (tens of ppm), so their offset drifts: a line through two samples follows
 * it, one sample only pins it at the start.
 */
#include "ftscope/timemap.h"

#include <math.h>
#include <stdlib.h>

/* A fitted slope beyond this is not a clock's drift (a crafted or mixed-up sample). */
#define FIT_MAX_PPM 1000

static int64_t abs64(int64_t v)
{
	return v < 0 ? -v : v;
}

enum fts_clock_fit fts_clock_mono_to_raw(const struct fts_clock_pair *cp, int64_t mono_ns,
					 int64_t *raw_ns, int64_t *error_ns, double *slope_ppm)
{
	int64_t d = mono_ns - cp->mono_ns, err;

	if (slope_ppm)
		*slope_ppm = 0;
	if (!cp->valid || !cp->has_mono)
		return FTS_CLOCK_FIT_NONE;
	if (cp->has_stop) {
		int64_t dm = cp->stop_mono_ns - cp->mono_ns, dr = cp->stop_mono_raw_ns - cp->mono_raw_ns;

		if (dm > 0 && dr > 0 && abs64(dr - dm) <= dr / 1000000 * FIT_MAX_PPM) {
			/*
			 * raw = raw0 + d * dr / dm, split so the big part stays
			 * integer: the correction is ppm-sized, exact to well
			 * under a ns in long double.
			 */
			long double corr = (long double)d * (long double)(dr - dm) / (long double)dm;
			/* beyond the samples, each end's half window over the span tilts the line */
			int64_t beyond = d < 0 ? -d : d > dm ? d - dm : 0;
			int64_t w = cp->window_ns > cp->stop_window_ns ? cp->window_ns : cp->stop_window_ns;

			*raw_ns = cp->mono_raw_ns + d + (int64_t)llroundl(corr);
			err = w / 2 + (int64_t)ceill((long double)beyond *
						     ((long double)cp->window_ns + cp->stop_window_ns) / 2 / dr);
			if (error_ns)
				*error_ns = err + 1; /* + the rounding */
			if (slope_ppm)
				*slope_ppm = (double)(dm - dr) * 1e6 / (double)dr;
			return FTS_CLOCK_FIT_SLOPE;
		}
	}
	*raw_ns = mono_ns - (cp->mono_ns - cp->mono_raw_ns);
	if (error_ns)
		*error_ns = cp->window_ns / 2 + abs64(d) / 1000000 * FTS_CLOCK_DRIFT_PPM;
	return FTS_CLOCK_FIT_OFFSET;
}
