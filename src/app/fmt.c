// SPDX-License-Identifier: MIT
/* fmt.c - human-readable counts, sizes, rates and durations (see fmt.h). */
#include "app/fmt.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

static int bad(double v)
{
	return !isfinite(v) || v < 0;
}

const char *fts_fmt_count(double v, char *buf, size_t len)
{
	static const char *const unit[] = { "", "k", "M", "G", "T" };
	int i = 0;

	if (bad(v)) {
		snprintf(buf, len, "?");
		return buf;
	}
	/* Round first, so 999950 is "1.0M", not "1000.0k". */
	while (i < 4 && (i ? round(v * 10) / 10 : round(v)) >= 1000) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, i ? "%.1f%s" : "%.0f%s", v, unit[i]);
	return buf;
}

const char *fts_fmt_bytes(double v, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int i = 0;

	if (bad(v)) {
		snprintf(buf, len, "?");
		return buf;
	}
	while (i < 4 && (i ? round(v * 10) / 10 : v) >= 1024) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, i ? "%.1f %s" : "%.0f %s", v, unit[i]);
	return buf;
}

const char *fts_fmt_rate(double per_s, char *buf, size_t len)
{
	char n[FTS_FMT_LEN];

	snprintf(buf, len, "%s/s", fts_fmt_count(per_s, n, sizeof(n)));
	return buf;
}

const char *fts_fmt_duration(double s, char *buf, size_t len)
{
	long long t;

	if (bad(s))
		snprintf(buf, len, "?");
	else if (s < 59.95)
		snprintf(buf, len, "%.1f s", s);
	else if ((t = llround(s)) < 3600)
		snprintf(buf, len, "%lldm%02llds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lldh%02lldm", t / 3600, t % 3600 / 60);
	return buf;
}

const char *fts_fmt_eta(double done, double total, double elapsed_s, char *buf, size_t len)
{
	if (bad(done) || bad(total) || bad(elapsed_s) || total <= 0 || done <= 0 || elapsed_s < 0.5)
		snprintf(buf, len, "?");
	else if (done >= total)
		snprintf(buf, len, "0.0 s");
	else
		fts_fmt_duration(elapsed_s * (total - done) / done, buf, len);
	return buf;
}

const char *fts_fmt_ns(uint64_t ns, enum fts_dur_form form, int utf8, char *buf, size_t len)
{
	const char *us = utf8 ? "\xc2\xb5s" : "us";
	const char *sp = form == FTS_DUR_CELL ? "" : " ";

	if (ns == 0 && form == FTS_DUR_CELL)
		snprintf(buf, len, "0");
	else if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 "%sns", ns, sp);
	else if (form == FTS_DUR_CELL && ns < 1000000)
		snprintf(buf, len, "%.1f%s", (double)ns / 1e3, us);
	else if (form == FTS_DUR_CELL && ns < 1000000000)
		snprintf(buf, len, "%.1fms", (double)ns / 1e6);
	else if (form == FTS_DUR_CELL)
		snprintf(buf, len, "%.3fs", (double)ns / 1e9);
	else if (ns < 1000000)
		snprintf(buf, len, "%.3g %s", (double)ns / 1e3, us);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.4g ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.4g s", (double)ns / 1e9);
	return buf;
}
