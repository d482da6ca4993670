/* SPDX-License-Identifier: MIT */
/*
 * profinfo.h - reading torch_npu's profiler_info_<rank>.json (library-internal):
 * its clocks (start_info/end_info) and its export type.
 */
#ifndef FTS_CORE_PROFINFO_H
#define FTS_CORE_PROFINFO_H

#include <stddef.h>
#include <stdint.h>

/* the largest file read: real ones are a few KB */
#define FTS__PROFINFO_MAX_BYTES (1u << 20)

struct fts__profinfo {
	int64_t start_mono;    /* start_info.start_monotonic: CLOCK_MONOTONIC_RAW ns */
	int64_t end_realtime;  /* end_info.collectionTimeEnd: CLOCK_REALTIME ns */
	int64_t end_mono;      /* end_info.MonotonicTimeEnd: CLOCK_MONOTONIC ns, taken with it */
	int export_known;      /* config.experimental_config._export_type was readable */
	int export_text;       /* it names "text" */
	int export_db;         /* it names "db" */
};

#ifdef FTS_NO_CJSON
#include "core/util/json_dom.h"   /* struct cJSON is ours there */
#else
struct cJSON;
#endif

/*
 * fts__json_pos_int - @obj's @key as a positive integer (a JSON number or a
 * decimal string) up to @max: NULL with @out set, or what is wrong ("is
 * missing", "is out of range", ...). With the object's source @text, numbers
 * past 2^53 are read exactly from their digits; @text may be NULL.
 */
const char *fts__json_pos_int(const char *text, size_t len, const struct cJSON *obj, const char *key,
			      int64_t max, int64_t *out);

/* 1 when @name is "profiler_info_<digits>.json" (also "profiler_info.json", single-card runs). */
int fts__profinfo_name(const char *name);

/* The export type only (never fails: unknown leaves export_known 0). */
void fts__profinfo_export(const char *text, size_t len, struct fts__profinfo *pi);

/*
 * The clocks and the export type of @text; NULL, or what is wrong, naming
 * the field ("end_info.MonotonicTimeEnd is missing"), written to @why.
 */
const char *fts__profinfo_parse(const char *text, size_t len, struct fts__profinfo *pi, char *why,
				size_t why_len);

#endif
