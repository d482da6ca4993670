// SPDX-License-Identifier: MIT
/*
 * flight_segment.c - the segment value of the flight recorder, one parser
 * for the CLI and the TUI (see flight_segment.h).
 */
#include "app/flight_segment.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int fts_flight_parse_segment(const char *v, double *sec, uint64_t *bytes)
{
	static const struct { const char *suffix; double mult; int bytes; } units[] = {
		{ "", 1, 0 }, { "s", 1, 0 }, { "m", 60, 0 }, { "h", 3600, 0 },
		{ "K", 1024, 1 }, { "KB", 1024, 1 }, { "KiB", 1024, 1 }, { "k", 1024, 1 },
		{ "M", 1048576, 1 }, { "MB", 1048576, 1 }, { "MiB", 1048576, 1 },
		{ "G", 1073741824.0, 1 }, { "GB", 1073741824.0, 1 }, { "GiB", 1073741824.0, 1 },
	};
	char *end;
	double x;

	*sec = 0;
	*bytes = 0;
	if (!v || !*v || isspace((unsigned char)*v))
		return -1;
	errno = 0;
	x = strtod(v, &end);
	if (errno || end == v || !(x > 0) || x > 1e7)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		if (units[i].bytes)
			*bytes = (uint64_t)(x * units[i].mult);
		else
			*sec = x * units[i].mult;
		return 0;
	}
	return -1;
}
