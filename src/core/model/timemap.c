// SPDX-License-Identifier: MIT
#include "ftscope/timemap.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util/file_util.h"

#define MAX_DEPTH 12
#define INFO_MAX_BYTES (1u << 20)

void fts_timemap_raw(struct fts_timemap *tm)
{
	memset(tm, 0, sizeof(*tm));
	tm->base = FTS_TIME_RAW;
	tm->hi = UINT64_MAX;
}

void fts_timemap_from_clock(struct fts_timemap *tm, const struct fts_clock_pair *cp)
{
	fts_timemap_raw(tm);
	if (!cp->valid)
		return;
	tm->base = FTS_TIME_CLOCK_PAIR;
	tm->offset = cp->realtime_ns - cp->mono_raw_ns;
}

/*
 * Bounds that keep every later sum in int64: clockMonotonicRaw is time since
 * boot (2^62 ns is 146 years), collectionTimeBegin a Unix time in us before
 * 2100, so begin * 1000 - mono cannot overflow.
 */
#define INFO_MONO_MAX (INT64_C(1) << 62)
#define INFO_BEGIN_US_MAX INT64_C(4102444800000000)

/* A positive integer (JSON number or decimal string) up to @max; else a reason. */
static const char *get_int(const cJSON *obj, const char *key, int64_t max, int64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char *end;
	long long x;

	if (!v)
		return "is missing";
	if (cJSON_IsNumber(v)) {
		/* compare as double before converting: a cast out of range is undefined */
		if (!(v->valuedouble > 0))
			return "is not a positive integer";
		if (v->valuedouble > (double)max)
			return "is out of range";
		*out = (int64_t)v->valuedouble;
		return *out > 0 ? NULL : "is not a positive integer";
	}
	if (!cJSON_IsString(v) || !v->valuestring[0])
		return "is not a positive integer";
	errno = 0;
	x = strtoll(v->valuestring, &end, 10);
	if (*end || x <= 0 || v->valuestring[0] == '+' || v->valuestring[0] == ' ')
		return "is not a positive integer";
	if (errno || x > max)
		return "is out of range";
	*out = x;
	return NULL;
}

/* Parses one info file; NULL, or what is wrong with it (for the message). */
static const char *parse_info(const char *text, size_t len, int64_t *mono_ns, int64_t *begin_us,
			      char *why, size_t why_len)
{
	cJSON *root = cJSON_ParseWithLength(text, len);
	const char *bad = NULL, *key = NULL;

	if (!root || !cJSON_IsObject(root)) {
		cJSON_Delete(root);
		snprintf(why, why_len, "not a JSON object");
		return why;
	}
	bad = get_int(root, key = "clockMonotonicRaw", INFO_MONO_MAX, mono_ns);
	if (!bad && begin_us)
		bad = get_int(root, key = "collectionTimeBegin", INFO_BEGIN_US_MAX, begin_us);
	cJSON_Delete(root);
	if (!bad)
		return NULL;
	snprintf(why, why_len, "%s %s", key, bad);
	return why;
}

int fts_timemap_parse_info(const char *text, size_t len, int64_t *mono_ns, int64_t *begin_us)
{
	char why[96];

	return parse_info(text, len, mono_ns, begin_us, why, sizeof(why)) ? -EINVAL : 0;
}

/* "start_info" or "start_info.<digits>": returns the suffix, or NULL. */
static const char *info_suffix(const char *name, const char *base)
{
	size_t n = strlen(base);

	if (strncmp(name, base, n))
		return NULL;
	if (name[n] == '\0')
		return name + n;
	if (name[n] != '.' || !name[n + 1])
		return NULL;
	for (const char *p = name + n + 1; *p; p++) {
		if (*p < '0' || *p > '9')
			return NULL;
	}
	return name + n;
}

/*
 * The first thing found wrong while walking. A start_info whose end_info
 * does not exist yet (profiling still running or killed) is skipped and
 * counted; anything else wrong with a card's files (not a regular file, a
 * symlink, bad JSON, a clock out of range, end before start) is @hard: the
 * whole alignment is refused rather than silently built from fewer cards.
 */
struct walk_ctx {
	struct fts_timemap *tm;
	char why[400];
	int hard;
};

static void note(struct walk_ctx *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct walk_ctx *w, const char *fmt, ...)
{
	va_list ap;

	if (w->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(w->why, sizeof(w->why), fmt, ap);
	va_end(ap);
}

/* Reads dir/name (a regular file, never through a symlink); 0 or -1 after note(). */
static int read_info(struct walk_ctx *w, const char *dir, const char *name, int64_t *mono,
		     int64_t *begin)
{
	struct fts_err e = { 0 };
	char path[1024], why[96];
	char *text;
	size_t len;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path)) {
		note(w, "%s/%s: path too long", dir, name);
		return -1;
	}
	if (fts_read_small_file_flags(path, INFO_MAX_BYTES, FTS_OPEN_NOFOLLOW, &text, &len, &e)) {
		if (e.code != -ENOENT)
			w->hard = 1;
		note(w, "%s", e.msg);
		return -1;
	}
	if (parse_info(text, len, mono, begin, why, sizeof(why))) {
		w->hard = 1;
		note(w, "%s: %s", path, why);
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

static void add_card(struct walk_ctx *w, const char *dir, const char *suffix)
{
	struct fts_timemap *tm = w->tm;
	char end_name[64];
	char start_name[64];
	int64_t smono, begin, emono;
	struct fts_card *c;

	snprintf(start_name, sizeof(start_name), "start_info%s", suffix);
	snprintf(end_name, sizeof(end_name), "end_info%s", suffix);
	if (read_info(w, dir, start_name, &smono, &begin) || read_info(w, dir, end_name, &emono, NULL)) {
		tm->skipped_cards++;
		return;
	}
	if (emono < smono) {
		w->hard = 1;
		note(w, "%s/%s: clockMonotonicRaw %lld is before %s's %lld", dir, end_name,
		     (long long)emono, start_name, (long long)smono);
		tm->skipped_cards++;
		return;
	}
	if (tm->ncards == FTS_TIMEMAP_MAX_CARDS) {
		tm->skipped_cards++;
		return;
	}
	c = &tm->cards[tm->ncards++];
	snprintf(c->dir, sizeof(c->dir), "%s", dir);
	c->start_mono = smono;
	c->end_mono = emono;
	c->offset = begin * 1000 - smono;   /* in range by the bounds above */
}

/* Depth-first walk; never follows symlinks; visits entries in name order. */
static void walk(struct walk_ctx *w, const char *dir, int depth)
{
	struct dirent **names;
	int n;

	if (depth > MAX_DEPTH)
		return;
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return;
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char path[1024];
		struct stat sb;
		const char *suffix;

		if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
			goto next;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
			goto next;
		if (lstat(path, &sb))
			goto next;
		if (S_ISDIR(sb.st_mode))
			walk(w, path, depth + 1);
		else if ((suffix = info_suffix(name, "start_info")) != NULL && S_ISREG(sb.st_mode))
			add_card(w, dir, suffix);
		else if (suffix) {
			w->hard = 1;
			note(w, "%s: is not a regular file (symbolic links are not followed)", path);
		}
next:
		free(names[i]);
	}
	free(names);
}

int fts_timemap_from_profiling(const char *dir, struct fts_timemap *tm, struct fts_err *err)
{
	struct walk_ctx w = { .tm = tm };
	struct stat sb;
	int64_t lo_off, hi_off;
	int first = 0;

	fts_timemap_raw(tm);
	if (stat(dir, &sb))
		return fts_err_set(err, -errno, "%s: cannot open profiling data: %s", dir, strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		return fts_err_set(err, -ENOTDIR, "%s: the profiling data must be a directory (a *_ascend_pt directory or its parent)", dir);
	walk(&w, dir, 0);
	if ((tm->ncards == 0 || w.hard) && w.why[0]) {
		fts_timemap_raw(tm);
		return fts_err_set(err, w.hard ? -EINVAL : -ENOENT, "profiling data unusable: %s",
				   w.why);
	}
	if (tm->ncards == 0)
		return fts_err_set(err, -ENOENT,
				   "%s: no start_info/end_info pair found below it; give the *_ascend_pt directory (or its parent) as the profiling data, or leave it out to keep trace-clock times",
				   dir);
	tm->base = FTS_TIME_PROFILING;
	tm->has_window = 1;
	tm->lo = (uint64_t)tm->cards[0].start_mono;
	tm->hi = (uint64_t)tm->cards[0].end_mono;
	lo_off = hi_off = tm->cards[0].offset;
	for (int i = 1; i < tm->ncards; i++) {
		const struct fts_card *c = &tm->cards[i];

		if ((uint64_t)c->start_mono < tm->lo) {
			tm->lo = (uint64_t)c->start_mono;
			first = i;
		}
		if ((uint64_t)c->end_mono > tm->hi)
			tm->hi = (uint64_t)c->end_mono;
		if (c->offset < lo_off)
			lo_off = c->offset;
		if (c->offset > hi_off)
			hi_off = c->offset;
	}
	/* the earliest card anchors the time base; the others are checked against it */
	tm->offset = tm->cards[first].offset;
	tm->offset_spread = hi_off - lo_off;
	return 0;
}
