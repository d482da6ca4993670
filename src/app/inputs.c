// SPDX-License-Identifier: MIT
/* inputs.c - the default input and the output format/suffix rules. */
#include "app/inputs.h"
#include "core/internal.h"

#include <stdio.h>

#include <string.h>
#include <sys/stat.h>

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

const char *fts_default_input(enum fts_input_pick *why)
{
	struct stat d, t;
	int has_d = stat("trace.dat", &d) == 0, has_t = stat("trace.txt", &t) == 0;
	enum fts_input_pick pick = FTS_PICK_DAT;

	if (has_d && has_t) {
		int txt_newer = t.st_mtim.tv_sec > d.st_mtim.tv_sec ||
				(t.st_mtim.tv_sec == d.st_mtim.tv_sec &&
				 t.st_mtim.tv_nsec > d.st_mtim.tv_nsec);

		pick = txt_newer ? FTS_PICK_NEWER_TXT : FTS_PICK_NEWER_DAT;
	} else if (!has_d && has_t) {
		pick = FTS_PICK_TXT_ONLY;
	}
	if (why)
		*why = pick;
	return pick == FTS_PICK_TXT_ONLY || pick == FTS_PICK_NEWER_TXT ? "trace.txt" : "trace.dat";
}

const char *fts_format_suffix(enum fts_out_format fmt)
{
	return fmt == FTS_OUT_JSON ? ".json" : ".db";
}

enum fts_output_check fts_output_choose(const char *format, const char *output,
					enum fts_out_format *fmt, const char **path)
{
	if (format && strcmp(format, "db") && strcmp(format, "json"))
		return FTS_OUT_BAD_FORMAT;
	if (!format)
		format = output && ends_with(output, ".json") ? "json" : "db";
	*fmt = !strcmp(format, "json") ? FTS_OUT_JSON : FTS_OUT_DB;
	*path = output ? output : *fmt == FTS_OUT_JSON ? "ftrace_data.json" : "ftrace_data.db";
	return ends_with(*path, fts_format_suffix(*fmt)) ? FTS_OUT_OK : FTS_OUT_SUFFIX_MISMATCH;
}

int fts_input_segments(const char *input, char *buf, size_t len)
{
	struct fts__seg_pick pk;
	char **segs;
	int n, o;

	buf[0] = 0;
	if (!fts__segments_is_dir(input))
		return 0;
	n = fts__segments_pick(input, &segs, &pk, NULL);
	if (n <= 0)
		return 0;
	if (n == 1)
		o = snprintf(buf, len, "%s", strrchr(segs[0], '/') + 1);
	else
		o = snprintf(buf, len, "%s .. %s", strrchr(segs[0], '/') + 1, strrchr(segs[n - 1], '/') + 1);
	/* runs are never joined: the gap between them holds no data (issue 33 item 7) */
	if (pk.runs > 1 && o >= 0 && (size_t)o < len)
		o += snprintf(buf + o, len - (size_t)o, " (the newest of %d recording runs here; %d segment%s of the others left out: read them from a directory of their own)",
			      pk.runs, pk.other, pk.other == 1 ? "" : "s");
	if (pk.dups && o >= 0 && (size_t)o < len)
		snprintf(buf + o, len - (size_t)o, " (%d segment%s found again under another number, read once)", pk.dups,
			 pk.dups == 1 ? "" : "s");
	fts__segments_free(segs, n);
	return n;
}
