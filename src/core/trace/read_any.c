// SPDX-License-Identifier: MIT
/*
 * read_any.c - input format detection by content and reader dispatch.
 *
 * Only the first block of the file is looked at: a trace.dat is known by its
 * magic, text by its first meaningful line (a tracefs header, a trace-cmd
 * report header, or an event line of the `comm-pid [cpu] ts: event:` shape).
 */
#include "ftscope/reader.h"

#include "core/trace/dat_layout.h"
#include "core/util/file_util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define DETECT_HEAD 4096


static const char *skip_digits(const char *p, const char *end)
{
	while (p < end && isdigit((unsigned char)*p))
		p++;
	return p;
}

/* "<digits>.<digits>:" somewhere in [p, end). */
static int has_timestamp(const char *p, const char *end)
{
	for (; p < end; p++) {
		const char *q;

		if (!isdigit((unsigned char)*p))
			continue;
		q = skip_digits(p, end);
		if (q < end && *q == '.') {
			const char *r = skip_digits(q + 1, end);

			if (r > q + 1 && r < end && *r == ':')
				return 1;
		}
		p = q;
	}
	return 0;
}

/* An event line: "-<pid>" then "[<cpu>]" then a timestamp, in that order. */
static int is_event_line(const char *p, const char *end)
{
	const char *br;

	for (br = p; br < end; br++) {
		const char *d, *q;

		if (*br != '[')
			continue;
		d = skip_digits(br + 1, end);
		if (d == br + 1 || d >= end || *d != ']')
			continue;
		/* walk back over spaces and an optional "(tgid)" to "-<pid>" */
		q = br;
		while (q > p && q[-1] == ' ')
			q--;
		if (q > p && q[-1] == ')') {
			while (q > p && q[-1] != '(')
				q--;
			if (q > p)
				q--;
			while (q > p && q[-1] == ' ')
				q--;
		}
		while (q > p && isdigit((unsigned char)q[-1]))
			q--;
		if (q > p && q[-1] == '-' && has_timestamp(d + 1, end))
			return 1;
	}
	return 0;
}

static int starts_with(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(end - p) >= n && memcmp(p, s, n) == 0;
}

/* Classifies the first non-empty, non-comment line of a text head. */
static int looks_like_text(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	if (memchr(buf, '\0', len))
		return 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		while (p < le && isspace((unsigned char)*p))
			p++;
		if (p < le) {
			if (starts_with(p, le, "# tracer:") || starts_with(p, le, "cpus=") ||
			    starts_with(p, le, "version =") || is_event_line(p, le))
				return 1;
			/* loss notices and per-CPU banners may precede the first event */
			if (*p != '#' && !memmem(p, (size_t)(le - p), "[LOST ", 6) &&
			    !memmem(p, (size_t)(le - p), "EVENTS DROPPED]", 15) &&
			    !starts_with(p, le, "##### CPU") && !starts_with(p, le, "CPU "))
				return 0;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

int fts_input_detect(const char *path, enum fts_input_format *fmt, struct fts_err *err)
{
	char buf[DETECT_HEAD];
	size_t n;
	int rc;

	*fmt = FTS_FMT_UNKNOWN;
	rc = fts_read_head(path, buf, sizeof(buf), &n, NULL, err);
	if (rc)
		return rc;
	if (n == 0)
		return fts_err_set(err, -ENODATA, "%s: file is empty; nothing was captured", path);
	if (n >= FTS_DAT_MAGIC_LEN && memcmp(buf, FTS_DAT_MAGIC, FTS_DAT_MAGIC_LEN) == 0) {
		*fmt = FTS_FMT_DAT;
		return 0;
	}
	if (looks_like_text(buf, n)) {
		*fmt = FTS_FMT_TEXT;
		return 0;
	}
	return fts_err_set(err, -EINVAL,
			   "%s: not a trace (neither trace.dat nor ftrace text); give a trace.dat or a tracefs/trace-cmd report text file",
			   path);
}

const char *fts_input_format_name(enum fts_input_format fmt)
{
	switch (fmt) {
	case FTS_FMT_DAT:
		return "trace.dat";
	case FTS_FMT_TEXT:
		return "text";
	default:
		return "unknown";
	}
}

int fts_read_any(const char *path, const struct fts_read_opts *opts,
		 struct fts_read_stats *st, struct fts_err *err)
{
	enum fts_input_format fmt;
	int ret = fts_input_detect(path, &fmt, err);

	if (ret)
		return ret;
	if (fmt == FTS_FMT_DAT)
		return fts_read_dat(path, opts, st, err);
	return fts_read_text(path, opts, st, err);
}
