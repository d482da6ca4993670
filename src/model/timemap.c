#include "ftscope/timemap.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file_util.h"

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

static int get_int(const cJSON *obj, const char *key, int64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char *end;
	long long x;

	if (cJSON_IsNumber(v)) {
		*out = (int64_t)v->valuedouble;
		return *out > 0 ? 0 : -1;
	}
	if (!cJSON_IsString(v) || !v->valuestring[0])
		return -1;
	errno = 0;
	x = strtoll(v->valuestring, &end, 10);
	if (errno || *end || x <= 0)
		return -1;
	*out = x;
	return 0;
}

int fts_timemap_parse_info(const char *text, size_t len, int64_t *mono_ns, int64_t *begin_us)
{
	cJSON *root = cJSON_ParseWithLength(text, len);
	int rc = -EINVAL;

	if (!root)
		return -EINVAL;
	if (cJSON_IsObject(root) && get_int(root, "clockMonotonicRaw", mono_ns) == 0 &&
	    (!begin_us || get_int(root, "collectionTimeBegin", begin_us) == 0))
		rc = 0;
	cJSON_Delete(root);
	return rc;
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

static int read_info(const char *dir, const char *name, int64_t *mono, int64_t *begin)
{
	char path[1024];
	char *text;
	size_t len;
	int rc;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	rc = fts_read_small_file(path, INFO_MAX_BYTES, &text, &len, NULL);
	if (rc)
		return rc;
	rc = fts_timemap_parse_info(text, len, mono, begin);
	free(text);
	return rc;
}

static void add_card(struct fts_timemap *tm, const char *dir, const char *suffix)
{
	char end_name[64];
	char start_name[64];
	int64_t smono, begin, emono;
	struct fts_card *c;

	snprintf(start_name, sizeof(start_name), "start_info%s", suffix);
	snprintf(end_name, sizeof(end_name), "end_info%s", suffix);
	if (read_info(dir, start_name, &smono, &begin) ||
	    read_info(dir, end_name, &emono, NULL) || emono < smono ||
	    tm->ncards == FTS_TIMEMAP_MAX_CARDS) {
		tm->skipped_cards++;
		return;
	}
	c = &tm->cards[tm->ncards++];
	snprintf(c->dir, sizeof(c->dir), "%s", dir);
	c->start_mono = smono;
	c->end_mono = emono;
	c->offset = begin * 1000 - smono;
}

/* Depth-first walk; never follows symlinks; visits entries in name order. */
static void walk(struct fts_timemap *tm, const char *dir, int depth)
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
			walk(tm, path, depth + 1);
		else if (S_ISREG(sb.st_mode) && (suffix = info_suffix(name, "start_info")) != NULL)
			add_card(tm, dir, suffix);
next:
		free(names[i]);
	}
	free(names);
}

int fts_timemap_from_profiling(const char *dir, struct fts_timemap *tm, struct fts_err *err)
{
	struct stat sb;
	int64_t lo_off, hi_off;
	int first = 0;

	fts_timemap_raw(tm);
	if (stat(dir, &sb))
		return fts_err_set(err, -errno, "%s: cannot open profiling data: %s", dir, strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		return fts_err_set(err, -ENOTDIR, "%s: --profiling_data must be a directory (a *_ascend_pt directory or its parent)", dir);
	walk(tm, dir, 0);
	if (tm->ncards == 0)
		return fts_err_set(err, -ENOENT,
				   "%s: no start_info/end_info pair found below it; point --profiling_data at the *_ascend_pt directory (or its parent), or leave it out to keep trace-clock times",
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
