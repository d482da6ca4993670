/* SPDX-License-Identifier: MIT */
/* The binding API's JSON writer: strings go through the kit's one escaper. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/api/api_local.h"
#include "core/internal.h"

static void sep(struct api_jw *w)
{
	if (w->comma)
		fts_buf_put(&w->b, ",", 1);
	w->comma = 1;
}

void api_jw_open(struct api_jw *w, char c)
{
	sep(w);
	fts_buf_put(&w->b, &c, 1);
	w->comma = 0;
}

void api_jw_close(struct api_jw *w, char c)
{
	fts_buf_put(&w->b, &c, 1);
	w->comma = 1;
}

void api_jw_key(struct api_jw *w, const char *k)
{
	sep(w);
	fts_buf_puts(&w->b, "\"");
	fts_buf_puts(&w->b, k);
	fts_buf_puts(&w->b, "\":");
	w->comma = 0;
}

void api_jw_str(struct api_jw *w, const char *s)
{
	size_t n;

	if (!s)
		s = "";
	sep(w);
	n = FTS__JSON_ESC_MAX(strlen(s));
	if (fts_buf_reserve(&w->b, n))
		return;
	w->b.len += fts__json_escape(w->b.p + w->b.len, s, w->flags);
}

static void raw(struct api_jw *w, const char *text)
{
	sep(w);
	fts_buf_puts(&w->b, text);
}

void api_jw_u64(struct api_jw *w, uint64_t v)
{
	char t[32];

	snprintf(t, sizeof(t), "%" PRIu64, v);
	raw(w, t);
}

void api_jw_i64(struct api_jw *w, int64_t v)
{
	char t[32];

	snprintf(t, sizeof(t), "%" PRId64, v);
	raw(w, t);
}

void api_jw_num(struct api_jw *w, double v)
{
	char t[40];

	if (!isfinite(v)) {
		raw(w, "null");
		return;
	}
	snprintf(t, sizeof(t), "%.9g", v);
	raw(w, t);
}

void api_jw_bool(struct api_jw *w, int v)
{
	raw(w, v ? "true" : "false");
}

char *api_jw_take(struct api_jw *w)
{
	char *p;

	fts_buf_put(&w->b, "", 1);
	if (w->b.oom) {
		fts_buf_free(&w->b);
		return NULL;
	}
	p = w->b.p;
	memset(&w->b, 0, sizeof(w->b));
	return p;
}

void api_jw_kstr(struct api_jw *w, const char *k, const char *s)
{
	api_jw_key(w, k);
	api_jw_str(w, s);
}

void api_jw_ku64(struct api_jw *w, const char *k, uint64_t v)
{
	api_jw_key(w, k);
	api_jw_u64(w, v);
}

void api_jw_ki64(struct api_jw *w, const char *k, int64_t v)
{
	api_jw_key(w, k);
	api_jw_i64(w, v);
}

void api_jw_knum(struct api_jw *w, const char *k, double v)
{
	api_jw_key(w, k);
	api_jw_num(w, v);
}

void api_jw_kbool(struct api_jw *w, const char *k, int v)
{
	api_jw_key(w, k);
	api_jw_bool(w, v);
}
