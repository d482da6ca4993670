// SPDX-License-Identifier: MIT
#include "core/model/timemap_impl.h"

#ifdef FTS_NO_CJSON
#include "core/util/json_dom.h"   /* the static build's own JSON tree */
#else
#include <cjson/cJSON.h>
#endif
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
#include "core/model/profinfo.h"

/* a card sits 3 levels below the parent of the *_ascend_pt directories */
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

/*
 * A key given twice with different values: cJSON takes the first, Python's
 * json (the reference converter) the last, so the card's clock would depend
 * on the reader. Refused; the same value twice is harmless.
 */
static int ambiguous(const cJSON *obj, const char *key)
{
	const cJSON *first = NULL;

	for (const cJSON *c = obj->child; c; c = c->next) {
		if (!c->string || strcmp(c->string, key))
			continue;
		if (!first)
			first = c;
		else if (!cJSON_Compare(first, c, 1))
			return 1;
	}
	return 0;
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
	bad = ambiguous(root, key = "clockMonotonicRaw") ? "is given twice with different values" :
	      fts__json_pos_int(NULL, 0, root, key, INFO_MONO_MAX, mono_ns);
	if (!bad && begin_us)
		bad = ambiguous(root, key = "collectionTimeBegin") ?
		      "is given twice with different values" :
		      fts__json_pos_int(NULL, 0, root, key, INFO_BEGIN_US_MAX, begin_us);
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
 * counted; anything else wrong (a card's file not a regular file, a symlink,
 * bad JSON, a clock out of range, end before start; a directory that cannot
 * be read, a symlinked directory, a tree deeper than MAX_DEPTH) is @hard:
 * the whole alignment is refused rather than silently built from fewer
 * cards. The walk goes by directory descriptors, so no path length limits
 * it; paths are built only to name things.
 */
struct walk_ctx {
	struct fts_timemap *tm;
	const char *top;
	char why[400];
	int hard;
	int64_t first_mono;    /* the earliest card's start: it anchors the time base */
	int64_t hi_off;
	int64_t max_start, min_end;   /* with tm->lo/hi: how far the cards' windows disagree */
	const struct fts_clock_pair *cp;   /* the capture's, or NULL */
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

/* "@dir/@name", malloc'd (NULL: out of memory, noted). */
static char *join(struct walk_ctx *w, const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = malloc(a + b + 2);

	if (!p) {
		w->hard = 1;
		note(w, "out of memory");
		return NULL;
	}
	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}

/* Reads @name in @dfd (a regular file, never through a symlink); 0 or -1 after note(). */
static int read_info(struct walk_ctx *w, int dfd, const char *dir, const char *name, int64_t *mono,
		     int64_t *begin)
{
	struct fts_err e = { 0 };
	char *path = join(w, dir, name), why[96];
	char *text;
	size_t len;
	int rc = -1;

	if (!path)
		return -1;
	if (fts_read_small_file_at(dfd, name, path, INFO_MAX_BYTES, FTS_OPEN_NOFOLLOW, &text, &len, &e)) {
		if (e.code != -ENOENT)
			w->hard = 1;
		note(w, "%s", e.msg);
	} else if (parse_info(text, len, mono, begin, why, sizeof(why))) {
		w->hard = 1;
		note(w, "%s: %s", path, why);
		free(text);
	} else {
		free(text);
		rc = 0;
	}
	free(path);
	return rc;
}

/* A card counts into the window and anchor; the first FTS_TIMEMAP_MAX_CARDS are also listed. */
static struct fts_card *use_card(struct walk_ctx *w, const char *dir, int64_t smono, int64_t emono,
				 int64_t off)
{
	struct fts_timemap *tm = w->tm;
	struct fts_card *c = NULL;

	if (!tm->cards_total || smono < w->first_mono) {
		w->first_mono = smono;
		tm->offset = off;
	}
	if (!tm->cards_total || (uint64_t)smono < tm->lo)
		tm->lo = (uint64_t)smono;
	if (!tm->cards_total || (uint64_t)emono > tm->hi)
		tm->hi = (uint64_t)emono;
	if (!tm->cards_total || off < tm->offset_min)
		tm->offset_min = off;
	if (!tm->cards_total || off > w->hi_off)
		w->hi_off = off;
	if (!tm->cards_total || smono > w->max_start)
		w->max_start = smono;
	if (!tm->cards_total || emono < w->min_end)
		w->min_end = emono;
	tm->cards_total++;
	if (tm->ncards < FTS_TIMEMAP_MAX_CARDS) {
		size_t n = strlen(dir);

		c = &tm->cards[tm->ncards++];
		memset(c, 0, sizeof(*c));

		/* a path too long to list keeps its end, the part that tells cards apart */
		snprintf(c->dir, sizeof(c->dir), "%s%s", n >= sizeof(c->dir) ? "..." : "",
			 n >= sizeof(c->dir) ? dir + n - (sizeof(c->dir) - 4) : dir);
		c->start_mono = smono;
		c->end_mono = emono;
		c->offset = off;
	}
	return c;
}


/*
 * A card from profiler_info_<rank>.json (@name in @dfd): its start is
 * MONOTONIC_RAW, its end and epoch offset MONOTONIC. The capture's clock pair
 * gives the trace clock's epoch offset directly, so the end becomes
 * collectionTimeEnd - that offset; a pair that puts the end before the start
 * or MONOTONIC more than 1000 ppm of the uptime (+1 s) from RAW is from
 * another boot or host and is not used.
 */
static void add_profinfo(struct walk_ctx *w, int dfd, const char *dir, const char *name)
{
	struct fts_err e = { 0 };
	struct fts__profinfo pi;
	struct fts_card *c;
	char *path = join(w, dir, name), why[96];
	char *text;
	size_t len;
	int64_t lo, hi, off, m_r = 0, fit_err = 0;
	int exact = 0;
	enum fts_clock_fit fit = FTS_CLOCK_FIT_NONE;
	double ppm = 0;

	if (!path)
		return;
	if (fts_read_small_file_at(dfd, name, path, FTS__PROFINFO_MAX_BYTES, FTS_OPEN_NOFOLLOW, &text,
				   &len, &e)) {
		w->hard = 1;
		note(w, "%s", e.msg);
		free(path);
		return;
	}
	if (fts__profinfo_parse(text, len, &pi, why, sizeof(why))) {
		w->hard = 1;
		note(w, "%s: %s", path, why);
		goto out;
	}
	lo = pi.start_mono;
	if (w->cp && w->cp->valid) {
		fit = fts_clock_mono_to_raw(w->cp, pi.end_mono, &hi, &fit_err, &ppm);
		if (fit != FTS_CLOCK_FIT_NONE) {
			/* the profiler's own (realtime, MONOTONIC) end pair, its end now on RAW */
			off = pi.end_realtime - hi;
		} else {
			/* an older capture's pair: REALTIME taken not to drift from RAW */
			off = w->cp->realtime_ns - w->cp->mono_raw_ns;
			hi = pi.end_realtime - off;
		}
		m_r = pi.end_mono - hi;
		exact = hi >= lo && llabs(m_r) <= pi.end_mono / 1000 + INT64_C(1000000000);
	}
	if (!exact) {
		hi = pi.end_mono;
		off = pi.end_realtime - pi.end_mono;
	}
	if (hi < lo) {
		w->hard = 1;
		note(w, "%s: end_info.MonotonicTimeEnd %lld is before start_info.start_monotonic %lld",
		     path, (long long)pi.end_mono, (long long)pi.start_mono);
		goto out;
	}
	c = use_card(w, dir, lo, hi, off);
	w->tm->profiler_info_cards++;
	if (c) {
		c->source = FTS_CARD_PROFILER_INFO;
		fts_copy_str(c->file, (int)sizeof(c->file), name, -1);
		c->exact = exact;
		c->mono_minus_raw = exact ? m_r : 0;
		c->error_ns = exact ? fit_err : pi.end_mono / 1000000 * FTS_CLOCK_DRIFT_PPM;
		c->fit = exact ? (int)fit : FTS_CLOCK_FIT_NONE;
		c->slope_ppm = exact ? ppm : 0;
	}
out:
	free(text);
	free(path);
}

static void add_card(struct walk_ctx *w, int dfd, const char *dir, const char *suffix)
{
	char end_name[64];
	char start_name[64];
	int64_t smono, begin, emono;

	snprintf(start_name, sizeof(start_name), "start_info%s", suffix);
	snprintf(end_name, sizeof(end_name), "end_info%s", suffix);
	if (read_info(w, dfd, dir, start_name, &smono, &begin) ||
	    read_info(w, dfd, dir, end_name, &emono, NULL)) {
		w->tm->skipped_cards++;
		return;
	}
	if (emono < smono) {
		w->hard = 1;
		note(w, "%s/%s: clockMonotonicRaw %lld is before %s's %lld", dir, end_name,
		     (long long)emono, start_name, (long long)smono);
		w->tm->skipped_cards++;
		return;
	}
	use_card(w, dir, smono, emono, begin * 1000 - smono);   /* in range by the bounds above */
}

static void walk(struct walk_ctx *w, int dfd, const char *dir, int depth);

/* One directory entry of @dfd (@dir names it). */
static void visit(struct walk_ctx *w, int dfd, const char *dir, const char *name, int depth)
{
	const char *suffix = info_suffix(name, "start_info");
	struct stat sb, tb;
	char *path;
	int sub;

	if (fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW))
		return;   /* gone meanwhile */
	if (suffix && S_ISREG(sb.st_mode)) {
		add_card(w, dfd, dir, suffix);
		return;
	}
	/* what is neither a directory, a card's file nor a link to a directory is no concern */
	if (!suffix && !S_ISDIR(sb.st_mode) &&
	    !(S_ISLNK(sb.st_mode) && fstatat(dfd, name, &tb, 0) == 0 && S_ISDIR(tb.st_mode)))
		return;
	path = join(w, dir, name);
	if (!path)
		return;
	if (suffix && !S_ISDIR(sb.st_mode)) {
		w->hard = 1;
		note(w, "%s: is not a regular file (symbolic links are not followed)", path);
	} else if (S_ISLNK(sb.st_mode)) {
		w->hard = 1;
		note(w, "%s: is a symbolic link to a directory, not followed; give its target as the profiling data",
		     path);
	} else if (depth >= MAX_DEPTH) {
		w->hard = 1;
		note(w, "%s: more than %d directory levels below %s, not searched; give the *_ascend_pt directory or its parent",
		     path, MAX_DEPTH, w->top);
	} else if ((sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		w->hard = 1;
		note(w, "%s: cannot open the directory: %s", path, strerror(errno));
	} else {
		walk(w, sub, path, depth + 1);
		close(sub);
	}
	free(path);
}

/* Depth-first; never follows symlinks; visits entries in name order; stops at the first hard error. */
static void walk(struct walk_ctx *w, int dfd, const char *dir, int depth)
{
	struct dirent **names;
	int before = w->tm->cards_total;
	int n;

	n = scandirat(dfd, ".", &names, NULL, alphasort);
	if (n < 0) {
		w->hard = 1;
		note(w, "%s: cannot list the directory: %s", dir, strerror(errno));
		return;
	}
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;

		if (!w->hard && strcmp(name, ".") && strcmp(name, ".."))
			visit(w, dfd, dir, name, depth);
	}
	/* profiler_info_<rank>.json counts only where no start_info/end_info pair below was used */
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		struct stat sb;

		if (!w->hard && w->tm->cards_total == before && fts__profinfo_name(name) &&
		    !fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW))
			add_profinfo(w, dfd, dir, name);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int fts_timemap_from_profiling(const char *dir, struct fts_timemap *tm, struct fts_err *err)
{
	return fts_timemap_from_profiling_cp(dir, NULL, tm, err);
}

int fts_timemap_from_profiling_cp(const char *dir, const struct fts_clock_pair *cp,
				  struct fts_timemap *tm, struct fts_err *err)
{
	struct walk_ctx w = { .tm = tm, .top = dir, .cp = cp };
	struct stat sb;
	int dfd;

	fts_timemap_raw(tm);
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fstat(dfd, &sb)) {
		int e = errno;

		if (dfd >= 0)
			close(dfd);
		if (e == ENOTDIR)
			return fts_err_set(err, -ENOTDIR, "%s: the profiling data must be a directory (a *_ascend_pt directory or its parent)", dir);
		return fts_err_set(err, -e, "%s: cannot open profiling data: %s", dir, strerror(e));
	}
	walk(&w, dfd, dir, 0);
	close(dfd);
	if ((tm->cards_total == 0 || w.hard) && w.why[0]) {
		fts_timemap_raw(tm);
		return fts_err_set(err, w.hard ? -EINVAL : -ENOENT, "profiling data unusable: %s",
				   w.why);
	}
	if (tm->cards_total == 0)
		return fts_err_set(err, -ENOENT,
				   "%s: no start_info/end_info pair or profiler_info_<rank>.json found below it; give the *_ascend_pt directory (or its parent) as the profiling data, or leave it out to keep trace-clock times",
				   dir);
	/* the earliest card anchors the time base (use_card); the others are checked against it */
	tm->base = FTS_TIME_PROFILING;
	tm->has_window = 1;
	tm->offset_spread = w.hi_off - tm->offset_min;
	tm->start_spread = w.max_start - (int64_t)tm->lo;
	tm->end_spread = (int64_t)tm->hi - w.min_end;
	return 0;
}
