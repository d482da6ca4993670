#include "ftscope/pidmap.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/file_util.h"

#define PIDMAP_MAX_BYTES (256u << 20)

/* Open addressing, linear probing; key 0 never maps (the idle task). */
struct fts_pidmap {
	uint32_t cap;      /* power of two */
	uint32_t mapped;   /* entries with a different container pid */
	uint32_t entries;
	int32_t *keys;
	int32_t *vals;
};

static uint32_t slot_of(const struct fts_pidmap *m, int32_t pid)
{
	uint32_t h = (uint32_t)pid * 2654435761u;

	return h & (m->cap - 1);
}

static void put(struct fts_pidmap *m, int32_t pid, int32_t ns)
{
	uint32_t i = slot_of(m, pid);

	while (m->keys[i] && m->keys[i] != pid)
		i = (i + 1) & (m->cap - 1);
	m->keys[i] = pid;
	m->vals[i] = ns;
}

int32_t fts_pidmap_lookup(const struct fts_pidmap *m, int32_t pid)
{
	uint32_t i;

	if (!m || pid <= 0)
		return pid;
	for (i = slot_of(m, pid); m->keys[i]; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == pid)
			return m->vals[i];
	}
	return pid;
}

uint32_t fts_pidmap_size(const struct fts_pidmap *m)
{
	return m ? m->mapped : 0;
}

uint32_t fts_pidmap_entries(const struct fts_pidmap *m)
{
	return m ? m->entries : 0;
}

void fts_pidmap_free(struct fts_pidmap *m)
{
	if (!m)
		return;
	free(m->keys);
	free(m->vals);
	free(m);
}

/* A whole positive decimal pid, or -1. */
static int32_t parse_pid(const char *s)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v <= 0 || v > INT32_MAX)
		return -1;
	return (int32_t)v;
}

static int fill(struct fts_pidmap *m, const cJSON *root, const char *path, struct fts_err *err)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, root) {
		int32_t host = parse_pid(e->string), ns = -1;
		const cJSON *v;

		if (host < 0)
			return fts_err_set(err, -EINVAL,
					   "%s: key '%.32s' is not a pid; expected {\"<host pid>\": {\"NSpid\": ...}}",
					   path, e->string ? e->string : "");
		if (!cJSON_IsObject(e))
			return fts_err_set(err, -EINVAL, "%s: entry for pid %d is not an object",
					   path, host);
		m->entries++;
		v = cJSON_GetObjectItemCaseSensitive(e, "NSpid");
		if (cJSON_IsString(v))
			ns = parse_pid(v->valuestring);
		else if (cJSON_IsNumber(v) && v->valuedouble > 0 && v->valuedouble <= INT32_MAX)
			ns = (int32_t)v->valuedouble;
		else if (v && !cJSON_IsNull(v))
			return fts_err_set(err, -EINVAL, "%s: NSpid of pid %d is neither a string nor a number",
					   path, host);
		if (ns > 0 && ns != host) {
			put(m, host, ns);
			m->mapped++;
		}
	}
	return 0;
}

int fts_pidmap_load(const char *path, struct fts_pidmap **out, struct fts_err *err)
{
	struct fts_pidmap *m;
	cJSON *root;
	char *text;
	size_t len;
	int rc;

	*out = NULL;
	rc = fts_read_small_file(path, PIDMAP_MAX_BYTES, &text, &len, err);
	if (rc)
		return rc;
	root = cJSON_ParseWithLength(text, len);
	free(text);
	if (!root)
		return fts_err_set(err, -EINVAL, "%s: not valid JSON (pid mapping written by 'ftscope record --NSpid' or 'ftscope pidmap' expected)", path);
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return fts_err_set(err, -EINVAL, "%s: top level must be an object of host pid -> {\"NSpid\": ...}", path);
	}
	m = calloc(1, sizeof(*m));
	if (m) {
		uint32_t n = (uint32_t)cJSON_GetArraySize(root);

		m->cap = 64;
		while (m->cap < n * 2 + 2)
			m->cap <<= 1;
		m->keys = calloc(m->cap, sizeof(*m->keys));
		m->vals = calloc(m->cap, sizeof(*m->vals));
	}
	if (!m || !m->keys || !m->vals) {
		cJSON_Delete(root);
		fts_pidmap_free(m);
		return fts_err_set(err, -ENOMEM, "%s: out of memory", path);
	}
	rc = fill(m, root, path, err);
	cJSON_Delete(root);
	if (rc) {
		fts_pidmap_free(m);
		return rc;
	}
	*out = m;
	return 0;
}
