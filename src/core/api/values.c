/* SPDX-License-Identifier: MIT */
/* Option values of the binding API's setters: text in, checked numbers out. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/api/api_local.h"
#include "ftscope/api.h"

void fts_api_free(char *s)
{
	free(s);
}

int api_empty(const char *v)
{
	return !v || !*v;
}

int api_parse_bool(const char *v, int *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(v, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(v, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}

int api_parse_u64(const char *v, uint64_t max, uint64_t *out)
{
	char *end;
	uintmax_t x;

	if (*v < '0' || *v > '9')
		return -EINVAL;  /* no sign, no spaces: strtoumax would take "-1" */
	errno = 0;
	x = strtoumax(v, &end, 10);
	if (errno || *end || x > max)
		return -EINVAL;
	*out = x;
	return 0;
}

int api_parse_double(const char *v, double *out)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (errno || end == v || *end || !isfinite(x))
		return -EINVAL;
	*out = x;
	return 0;
}

int api_parse_owner(const char *v, struct fts_owner *o)
{
	uint64_t uid, gid;
	const char *colon = strchr(v, ':');
	char ubuf[24];

	if (!colon || (size_t)(colon - v) >= sizeof(ubuf))
		return -EINVAL;
	memcpy(ubuf, v, colon - v);
	ubuf[colon - v] = 0;
	if (api_parse_u64(ubuf, UINT32_MAX - 1, &uid) || api_parse_u64(colon + 1, UINT32_MAX - 1, &gid))
		return -EINVAL;
	o->set = 1;
	o->uid = (unsigned int)uid;
	o->gid = (unsigned int)gid;
	return 0;
}

int api_set_str(char **slot, const char *v)
{
	char *copy = NULL;

	if (!api_empty(v) && !(copy = strdup(v)))
		return -ENOMEM;
	free(*slot);
	*slot = copy;
	return 0;
}

int api_bad_value(struct fts_err *err, const char *what, const char *key, const char *value, int rc)
{
	if (rc == -ENOMEM)
		return fts_err_set(err, rc, "out of memory setting %s option %s", what, key);
	if (!value)
		return fts_err_set(err, rc, "unknown %s option '%s'", what, key);
	return fts_err_set(err, rc, "%s option %s: bad value '%.64s'", what, key, value);
}

void api_ok(struct fts_err *err)
{
	err->code = 0;
	err->msg[0] = 0;
}

static size_t kind_size(enum api_kind k)
{
	switch (k) {
	case API_STR: return sizeof(char *);
	case API_BOOL: return sizeof(int);
	case API_UINT: return sizeof(unsigned int);
	case API_U64: return sizeof(uint64_t);
	case API_DOUBLE: return sizeof(double);
	case API_OWNER: return sizeof(struct fts_owner);
	}
	return 0;
}

static int parse_into(void *slot, const struct api_key *k, const char *v)
{
	uint64_t u;
	int rc;

	switch (k->kind) {
	case API_STR:
		return api_set_str(slot, v);
	case API_BOOL:
		return api_parse_bool(v, slot);
	case API_UINT:
		rc = api_parse_u64(v, k->max, &u);
		if (!rc)
			*(unsigned int *)slot = (unsigned int)u;
		return rc;
	case API_U64:
		return api_parse_u64(v, k->max ? k->max : UINT64_MAX, slot);
	case API_DOUBLE:
		return api_parse_double(v, slot);
	case API_OWNER:
		return api_parse_owner(v, slot);
	}
	return -EINVAL;
}

int api_set(void *base, const void *defaults, const struct api_key *keys, size_t n,
	    const char *key, const char *v, struct fts_err *err, const char *what)
{
	const struct api_key *k = NULL;
	char *slot;
	int rc;

	for (size_t i = 0; i < n && !k; i++)
		if (!strcmp(keys[i].name, key))
			k = &keys[i];
	if (!k)
		return -ENOENT;
	slot = (char *)base + k->off;
	if (api_empty(v)) {
		if (k->kind == API_STR)
			return api_set_str((char **)slot, NULL);
		memcpy(slot, (const char *)defaults + k->off, kind_size(k->kind));
		return 0;
	}
	rc = parse_into(slot, k, v);
	if (rc)
		return api_bad_value(err, what, key, v, rc);
	return 0;
}

void api_free_strs(void *base, const struct api_key *keys, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (keys[i].kind == API_STR) {
			char **slot = (char **)((char *)base + keys[i].off);

			free(*slot);
			*slot = NULL;
		}
	}
}
