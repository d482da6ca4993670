// SPDX-License-Identifier: MIT
/*
 * stats_hosts.c - many hosts: one row of totals per input (stats.h,
 * fts_stats_totals) and the host manifest that says which host each
 * ftrace_data<N>.db came from (fts_host_manifest_*).
 *
 * The totals use only the collector's public rows, so they are the numbers
 * `ftscope stats` prints per task, summed. The manifest is a small JSON file
 * (docs/multihost.md): {"hosts": [{"host": ..., "index": N, "db": ...}, ...]};
 * its entries own copies of their strings.
 */
#include "ftscope/stats.h"

#ifdef FTS_NO_CJSON
#include "core/util/json_dom.h"   /* the static build's own JSON tree */
#else
#include <cjson/cJSON.h>
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/file_util.h"
#include "core/util/strtab.h"

#define MANIFEST_MAX_BYTES (4u << 20)   /* thousands of hosts fit in far less */

/* ---- totals ---- */

/* @t beats @best on @v vs @bv: larger, or equal with the smaller tid. */
static int beats(const struct fts_task_stats *t, uint64_t v,
		 const struct fts_task_stats *best, uint64_t bv)
{
	if (!v)
		return 0;
	if (!best || v > bv)
		return 1;
	return v == bv && strcmp(t->tid, best->tid) < 0;
}

static void add_task(struct fts_stats_totals *o, const struct fts_task_stats *t)
{
	o->tasks++;
	o->running_ns += t->running_ns;
	o->runnable_ns += t->runnable_ns;
	o->sleeping_ns += t->sleeping_ns;
	o->blocked_ns += t->blocked_ns;
	o->unknown_ns += t->unknown_ns;
	o->switches += t->switches;
	o->involuntary += t->involuntary;
	o->migrations += t->migrations;
	o->wakeups += t->wakeups;
	if (beats(t, t->runnable_ns, o->most_runnable,
		  o->most_runnable ? o->most_runnable->runnable_ns : 0))
		o->most_runnable = t;
	if (beats(t, t->wake_max_ns, o->worst_wakeup, o->wake_max_ns)) {
		o->worst_wakeup = t;
		o->wake_max_ns = t->wake_max_ns;
	}
	if (beats(t, t->wake_p99_ns, o->worst_p99, o->wake_p99_max_ns)) {
		o->worst_p99 = t;
		o->wake_p99_max_ns = t->wake_p99_ns;
	}
	if (beats(t, t->involuntary, o->most_preempted,
		  o->most_preempted ? o->most_preempted->involuntary : 0))
		o->most_preempted = t;
}

static void add_cpus(const struct fts_stats *st, struct fts_stats_totals *o)
{
	o->lost_exact = 1;
	for (size_t i = 0; i < fts_stats_ncpus(st); i++) {
		const struct fts_cpu_stats *c = fts_stats_cpu(st, i);

		o->ncpus++;
		o->busy_ns += c->busy_ns;
		o->wall_ns += c->wall_ns;
		o->nodata_ns += c->nodata_ns;
		o->lost_events += c->lost_events;
		if (!c->lost_exact)
			o->lost_exact = 0;
	}
	/* as per CPU: what is not known is neither busy nor idle */
	if (o->wall_ns > o->nodata_ns)
		o->util = (double)o->busy_ns / (double)(o->wall_ns - o->nodata_ns);
}

void fts_stats_totals(const struct fts_stats *st, fts_task_filter keep, void *arg,
		      struct fts_stats_totals *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < fts_stats_ntasks(st); i++) {
		const struct fts_task_stats *t = fts_stats_task(st, i);

		if (!keep || keep(t, arg))
			add_task(out, t);
	}
	add_cpus(st, out);
}

/* ---- the host manifest ---- */

/* What must be unique, each a hash of the entries' strings, and who has each. */
enum { K_HOST, K_INDEX, K_DB, K_CAPTURE, NKEYS };

struct fts_host_manifest {
	struct fts_host_entry *v;
	size_t n;
	struct fts_strtab keys[NKEYS];
	uint32_t *owner[NKEYS];     /* string id -> the entry that has it */
};

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* A copy of string member @key of @o, "" when absent; NULL: not a string, or no memory. */
static char *str_member(const cJSON *o, const char *key, int *bad)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!m)
		return strdup("");
	if (!cJSON_IsString(m) || !m->valuestring) {
		*bad = 1;
		return NULL;
	}
	return strdup(m->valuestring);
}

/*
 * An integer member: a JSON number up to 2^53 (cJSON keeps numbers as
 * doubles), or a string of decimal digits for the clocks' nanoseconds since
 * 1970, which need 61 bits. 0: absent, 1: set, -1: not one.
 */
static int int_member(const cJSON *o, const char *key, int64_t *v)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, key);
	char *end;
	double d;

	if (!m)
		return 0;
	if (cJSON_IsString(m) && m->valuestring) {
		const char *s = m->valuestring;

		if (!(s[0] >= '0' && s[0] <= '9') && !(s[0] == '-' && s[1] >= '0' && s[1] <= '9'))
			return -1;
		errno = 0;
		*v = strtoll(s, &end, 10);
		return errno || *end ? -1 : 1;
	}
	if (!cJSON_IsNumber(m))
		return -1;
	d = m->valuedouble;
	/* beyond 2^53 a JSON number is not exact in cJSON: refuse rather than round */
	if (d != (double)(int64_t)d || d > 9007199254740992.0 || d < -9007199254740992.0)
		return -1;
	*v = (int64_t)d;
	return 1;
}

static void entry_free(struct fts_host_entry *e)
{
	free((char *)e->host);
	free((char *)e->db);
	free((char *)e->capture);
	free((char *)e->ranks);
}

/* Entry @i of the manifest from JSON object @o. Returns 0 or fills @err. */
static int entry_parse(const cJSON *o, size_t i, struct fts_host_entry *e, const char *path,
		       struct fts_err *err)
{
	int bad = 0, rc;

	e->index = -1;
	if (!cJSON_IsObject(o))
		return fts_err_set(err, -EINVAL, "%s: hosts[%zu] is not an object", path, i);
	e->host = str_member(o, "host", &bad);
	e->db = str_member(o, "db", &bad);
	e->capture = str_member(o, "capture", &bad);
	e->ranks = str_member(o, "ranks", &bad);
	if (bad)
		return fts_err_set(err, -EINVAL, "%s: hosts[%zu]: host, db, capture and ranks must be strings",
				   path, i);
	if (!e->host || !e->db || !e->capture || !e->ranks)
		return fts_err_set(err, -ENOMEM, "%s: out of memory", path);
	if (!e->host[0])
		return fts_err_set(err, -EINVAL, "%s: hosts[%zu] has no \"host\"", path, i);
	if (strchr(e->db, '/') || strchr(e->capture, '/'))
		return fts_err_set(err, -EINVAL, "%s: hosts[%zu]: db and capture are file names beside the manifest, without '/'",
				   path, i);
	rc = int_member(o, "index", &e->index);
	if (rc < 0 || (rc && e->index < 0))
		return fts_err_set(err, -EINVAL, "%s: hosts[%zu]: index must be an integer >= 0", path, i);
	rc = int_member(o, "clock_offset_ns", &e->clock_offset_ns);
	if (rc < 0)
		return fts_err_set(err, -EINVAL, "%s: hosts[%zu]: clock_offset_ns must be an integer", path, i);
	e->has_clock = rc;
	return 0;
}

/*
 * Key @k of entry @i is @s (@n bytes; none when @n is 0): 0 when no entry
 * had it, 1 with *@prev the one that did, -ENOMEM. A hash, so that a
 * manifest of 100k hosts loads in a blink (comparing pairs took a minute).
 */
static int claim(struct fts_host_manifest *m, int k, const char *s, size_t n, uint32_t i,
		 uint32_t *prev)
{
	uint32_t before = m->keys[k].n, id;

	if (!n)
		return 0;
	id = fts_strtab_intern(&m->keys[k], s, n);
	if (id == UINT32_MAX)
		return -ENOMEM;
	if (id < before) {
		*prev = m->owner[k][id];
		return 1;
	}
	m->owner[k][id] = i;
	return 0;
}

/* Entry @i's host, index and file names must be new; else which entry had one, in *@prev. */
static int claim_all(struct fts_host_manifest *m, uint32_t i, uint32_t *prev)
{
	const struct fts_host_entry *e = &m->v[i];
	char idx[24];
	int n = e->index >= 0 ? snprintf(idx, sizeof(idx), "%lld", (long long)e->index) : 0;
	int rc;

	if ((rc = claim(m, K_HOST, e->host, strlen(e->host), i, prev)) ||
	    (rc = claim(m, K_INDEX, idx, (size_t)n, i, prev)) ||
	    (rc = claim(m, K_DB, e->db, strlen(e->db), i, prev)))
		return rc;
	return claim(m, K_CAPTURE, e->capture, strlen(e->capture), i, prev);
}

static int entries_parse(struct fts_host_manifest *m, const cJSON *hosts, const char *path,
			 struct fts_err *err)
{
	size_t n = (size_t)cJSON_GetArraySize(hosts), i = 0;
	const cJSON *o;

	m->v = calloc(n ? n : 1, sizeof(*m->v));
	for (int k = 0; k < NKEYS; k++)
		if (m->v && !(m->owner[k] = malloc((n ? n : 1) * sizeof(uint32_t))))
			break;
	if (!m->v || !m->owner[NKEYS - 1] || n >= UINT32_MAX)
		return fts_err_set(err, -ENOMEM, "%s: out of memory", path);
	cJSON_ArrayForEach(o, hosts) {
		int rc = entry_parse(o, i, &m->v[i], path, err);
		uint32_t prev = 0;

		m->n = ++i;
		if (!rc)
			rc = claim_all(m, (uint32_t)(i - 1), &prev);
		if (rc < 0)
			return rc == -ENOMEM ? fts_err_set(err, rc, "%s: out of memory", path) : rc;
		if (rc)
			return fts_err_set(err, -EINVAL, "%s: hosts[%u] and hosts[%zu] name the same host, index or file",
					   path, prev, i - 1);
	}
	return 0;
}

int fts_host_manifest_load(const char *path, struct fts_host_manifest **out, struct fts_err *err)
{
	struct fts_host_manifest *m;
	const cJSON *hosts;
	cJSON *root;
	char *text;
	size_t len;
	int rc;

	*out = NULL;
	rc = fts_read_small_file(path, MANIFEST_MAX_BYTES, &text, &len, err);
	if (rc)
		return rc;
	root = cJSON_ParseWithLength(text, len);
	free(text);
	hosts = cJSON_GetObjectItemCaseSensitive(root, "hosts");
	if (!cJSON_IsObject(root) || !cJSON_IsArray(hosts)) {
		cJSON_Delete(root);
		return fts_err_set(err, -EINVAL, "%s: not a host manifest (a JSON object with a \"hosts\" array, as scripts/multihost.sh writes)",
				   path);
	}
	m = calloc(1, sizeof(*m));
	for (int k = 0; m && k < NKEYS; k++)
		fts_strtab_init(&m->keys[k]);
	rc = m ? entries_parse(m, hosts, path, err) : fts_err_set(err, -ENOMEM, "%s: out of memory", path);
	cJSON_Delete(root);
	if (rc) {
		fts_host_manifest_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

size_t fts_host_manifest_count(const struct fts_host_manifest *m)
{
	return m ? m->n : 0;
}

const struct fts_host_entry *fts_host_manifest_entry(const struct fts_host_manifest *m, size_t i)
{
	return m && i < m->n ? &m->v[i] : NULL;
}

const struct fts_host_entry *fts_host_manifest_find(const struct fts_host_manifest *m,
						    const char *file)
{
	const char *b = base_name(file);
	uint32_t i = UINT32_MAX;

	if (!m || !b[0])
		return NULL;
	/* the first entry whose db or capture it is (the keys hold every entry's) */
	for (int k = K_DB; k <= K_CAPTURE; k++) {
		uint32_t id = fts_strtab_find(&m->keys[k], b, strlen(b));

		if (id != UINT32_MAX && m->owner[k][id] < i)
			i = m->owner[k][id];
	}
	return i < m->n ? &m->v[i] : NULL;
}

void fts_host_manifest_free(struct fts_host_manifest *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		entry_free(&m->v[i]);
	for (int k = 0; k < NKEYS; k++) {
		fts_strtab_free(&m->keys[k]);
		free(m->owner[k]);
	}
	free(m->v);
	free(m);
}
