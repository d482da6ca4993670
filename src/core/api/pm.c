/* SPDX-License-Identifier: MIT */
/* The pid mapper handle (fts_pm): fts_pidmapper_start/stop behind setters. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/api/api_local.h"
#include "ftscope/api.h"
#include "ftscope/record.h"

struct pm_opts {
	char *output;
	double interval_s;
	struct fts_owner owner;
};

struct fts_pm {
	struct pm_opts o, defaults;
	struct fts_pidmapper *m;    /* NULL when not running */
	struct fts_err err;
};

#define OPT(field) offsetof(struct pm_opts, field)
static const struct api_key KEYS[] = {
	{ "output", API_STR, OPT(output), 0 },
	{ "interval", API_DOUBLE, OPT(interval_s), 0 },
	{ "owner", API_OWNER, OPT(owner), 0 },
};
#define NKEYS (sizeof(KEYS) / sizeof(KEYS[0]))

struct fts_pm *fts_pm_new(void)
{
	struct fts_pm *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->o.interval_s = 1.0;
	h->defaults = h->o;
	return h;
}

int fts_pm_set(struct fts_pm *h, const char *key, const char *value)
{
	int rc;

	api_ok(&h->err);
	if (h->m)
		return fts_err_set(&h->err, -EBUSY, "pidmap option %s: the mapper already runs", key);
	rc = api_set(&h->o, &h->defaults, KEYS, NKEYS, key, value, &h->err, "pidmap");
	if (rc == -ENOENT)
		rc = api_bad_value(&h->err, "pidmap", key, NULL, -EINVAL);
	return rc;
}

int fts_pm_start(struct fts_pm *h)
{
	api_ok(&h->err);
	if (h->m)
		return fts_err_set(&h->err, -EBUSY, "the pid mapper already runs; stop it first");
	return fts_pidmapper_start(h->o.output ? h->o.output : "pid_mapping.json", h->o.interval_s,
				   h->o.owner.set ? &h->o.owner : NULL, &h->m, &h->err);
}

int fts_pm_running(const struct fts_pm *h)
{
	return h->m != NULL;
}

int fts_pm_stop(struct fts_pm *h)
{
	struct fts_pidmapper *m = h->m;

	api_ok(&h->err);
	if (!m)
		return fts_err_set(&h->err, -ESRCH, "the pid mapper is not running: nothing to stop");
	h->m = NULL;
	return fts_pidmapper_stop(m, &h->err);
}

const char *fts_pm_error(const struct fts_pm *h)
{
	return h->err.msg;
}

void fts_pm_free(struct fts_pm *h)
{
	if (!h)
		return;
	if (h->m)
		fts_pidmapper_stop(h->m, &h->err);
	api_free_strs(&h->o, KEYS, NKEYS);
	free(h);
}
