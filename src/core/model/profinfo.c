// SPDX-License-Identifier: MIT
#include "core/model/profinfo.h"

#ifdef FTS_NO_CJSON
#include "core/util/json_dom.h"   /* the static build's own JSON tree */
#else
#include <cjson/cJSON.h>
#endif
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* time since boot below 2^62 ns (146 years); epoch ns before 2100 */
#define MONO_MAX (INT64_C(1) << 62)
#define EPOCH_NS_MAX INT64_C(4102444800000000000)

int fts__profinfo_name(const char *name)
{
	static const char pre[] = "profiler_info";
	size_t n = strlen(name), p = sizeof(pre) - 1;
	const char *d;

	if (n < p + 5 || strncmp(name, pre, p) || strcmp(name + n - 5, ".json"))
		return 0;
	if (n == p + 5)
		return 1;
	if (name[p] != '_' || n == p + 6)
		return 0;
	for (d = name + p + 1; d < name + n - 5; d++) {
		if (*d < '0' || *d > '9')
			return 0;
	}
	return 1;
}

/*
 * cJSON keeps numbers as doubles: 1.7e18 ns would lose ~256 ns. The digits
 * are read again from the text after `"key":`, and only if they round to the
 * same double (the same token), so the value is exact.
 */
static int64_t exact(const char *text, size_t len, const char *key, double d, int64_t approx)
{
	size_t kl = strlen(key);

	for (size_t i = 0; i + kl + 2 < len; i++) {
		const char *p;
		char *end;
		long long x;

		if (text[i] != '"' || strncmp(text + i + 1, key, kl) || text[i + kl + 1] != '"')
			continue;
		p = text + i + kl + 2;
		while (p < text + len && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ':'))
			p++;
		if (p >= text + len || *p < '0' || *p > '9')
			continue;
		errno = 0;
		x = strtoll(p, &end, 10);
		if (!errno && *end != '.' && *end != 'e' && *end != 'E' && (double)x == d)
			return x;
	}
	return approx;
}

const char *fts__json_pos_int(const char *text, size_t len, const cJSON *obj, const char *key,
			      int64_t max, int64_t *out)
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
		*out = exact(text, len, key, v->valuedouble, (int64_t)v->valuedouble);
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

static void name_type(const cJSON *v, struct fts__profinfo *pi)
{
	if (!cJSON_IsString(v))
		return;
	if (!strcmp(v->valuestring, "text"))
		pi->export_text = pi->export_known = 1;
	else if (!strcmp(v->valuestring, "db"))
		pi->export_db = pi->export_known = 1;
}

static void export_type(const cJSON *root, struct fts__profinfo *pi)
{
	const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(root, "config");
	const cJSON *ex = cJSON_GetObjectItemCaseSensitive(cfg, "experimental_config");
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(ex, "_export_type");
	const cJSON *c;

	if (cJSON_IsArray(t)) {
		cJSON_ArrayForEach(c, t)
			name_type(c, pi);
	} else {
		name_type(t, pi);
	}
}

void fts__profinfo_export(const char *text, size_t len, struct fts__profinfo *pi)
{
	cJSON *root = cJSON_ParseWithLength(text, len);

	memset(pi, 0, sizeof(*pi));
	if (cJSON_IsObject(root))
		export_type(root, pi);
	cJSON_Delete(root);
}

const char *fts__profinfo_parse(const char *text, size_t len, struct fts__profinfo *pi, char *why,
				size_t why_len)
{
	static const struct {
		const char *obj, *key;
		int64_t max;
		size_t at;
	} fields[] = {
		{ "start_info", "start_monotonic", MONO_MAX, offsetof(struct fts__profinfo, start_mono) },
		{ "end_info", "collectionTimeEnd", EPOCH_NS_MAX, offsetof(struct fts__profinfo, end_realtime) },
		{ "end_info", "MonotonicTimeEnd", MONO_MAX, offsetof(struct fts__profinfo, end_mono) },
	};
	cJSON *root = cJSON_ParseWithLength(text, len);
	const char *bad = NULL;

	memset(pi, 0, sizeof(*pi));
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		snprintf(why, why_len, "not a JSON object");
		return why;
	}
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, fields[i].obj);

		if (!cJSON_IsObject(o)) {
			snprintf(why, why_len, "%s is %s", fields[i].obj, o ? "not an object" : "missing");
			cJSON_Delete(root);
			return why;
		}
		bad = fts__json_pos_int(text, len, o, fields[i].key, fields[i].max,
			      (int64_t *)(void *)((char *)pi + fields[i].at));
		if (bad) {
			snprintf(why, why_len, "%s.%s %s", fields[i].obj, fields[i].key, bad);
			cJSON_Delete(root);
			return why;
		}
	}
	export_type(root, pi);
	cJSON_Delete(root);
	return NULL;
}
