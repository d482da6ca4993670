// SPDX-License-Identifier: MIT
#include "ftscope/pidmap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util/file_util.h"
#include "core/util/inthash.h"

#define PIDMAP_MAX_BYTES (256u << 20)

/* Only the pids that map to another pid are kept; pid 0 (the idle task) never maps. */
struct fts_pidmap {
	struct fts_inthash map;  /* host pid -> container pid */
	uint32_t mapped;         /* entries with a different container pid */
	uint32_t entries;
};

int32_t fts_pidmap_lookup(const struct fts_pidmap *m, int32_t pid)
{
	const uint64_t *v;

	if (!m || pid <= 0)
		return pid;
	v = fts_inthash_get(&m->map, (uint32_t)pid);
	return v ? (int32_t)*v : pid;
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
	fts_inthash_free(&m->map);
	free(m);
}

/* A whole positive decimal pid in [p, p + n), or -1. */
static int32_t parse_pid_n(const char *p, size_t n)
{
	int64_t v = 0;

	if (n == 0 || n > 10)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	return v > 0 && v <= INT32_MAX ? (int32_t)v : -1;
}

/*
 * A small JSON walker over the file's bytes, instead of a cJSON tree: the
 * tree of a mapping near the 256 MB cap took about 9x the file in memory,
 * this takes the file once plus the hash table. Pass 1 checks the whole
 * document is valid JSON (so a cut file is "not valid JSON", whatever else
 * is wrong); pass 2 reads the entries.
 */
struct jp {
	const char *p, *end;
};

#define JP_MAX_DEPTH 64

static void jp_ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

/* A string at j->p: its raw bytes (@s, @n); @esc set when it holds escapes. 0 or -1. */
static int jp_string(struct jp *j, const char **s, size_t *n, int *esc)
{
	const char *p = j->p;

	if (p >= j->end || *p != '"')
		return -1;
	*s = ++p;
	*esc = 0;
	while (p < j->end && *p != '"') {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20)
			return -1;
		if (c == '\\') {
			*esc = 1;
			if (++p >= j->end)
				return -1;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++) {
					if (p + i >= j->end || !strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return -1;
				}
				p += 4;
			} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
				return -1;
			}
		}
		p++;
	}
	if (p >= j->end)
		return -1;
	*n = (size_t)(p - *s);
	j->p = p + 1;
	return 0;
}

/* A JSON number at j->p into *v (as strtod reads it). 0 or -1. */
static int jp_number(struct jp *j, double *v)
{
	const char *p = j->p, *start = p;
	char buf[64];

	if (p < j->end && *p == '-')
		p++;
	if (p >= j->end || *p < '0' || *p > '9')
		return -1;
	if (*p == '0')
		p++;
	else
		while (p < j->end && *p >= '0' && *p <= '9')
			p++;
	if (p < j->end && *p == '.') {
		if (++p >= j->end || *p < '0' || *p > '9')
			return -1;
		while (p < j->end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < j->end && (*p == 'e' || *p == 'E')) {
		if (++p < j->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= j->end || *p < '0' || *p > '9')
			return -1;
		while (p < j->end && *p >= '0' && *p <= '9')
			p++;
	}
	if (v) {
		size_t n = (size_t)(p - start) < sizeof(buf) - 1 ? (size_t)(p - start) : sizeof(buf) - 1;

		memcpy(buf, start, n);
		buf[n] = '\0';
		*v = strtod(buf, NULL);
	}
	j->p = p;
	return 0;
}

static int jp_literal(struct jp *j, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n))
		return -1;
	j->p += n;
	return 0;
}

/* Skips one value of any kind (validating it). 0 or -1. */
static int jp_skip(struct jp *j, int depth)
{
	const char *s;
	size_t n;
	int esc;

	jp_ws(j);
	if (j->p >= j->end || depth > JP_MAX_DEPTH)
		return -1;
	switch (*j->p) {
	case '"':
		return jp_string(j, &s, &n, &esc);
	case 't':
		return jp_literal(j, "true");
	case 'f':
		return jp_literal(j, "false");
	case 'n':
		return jp_literal(j, "null");
	case '{':
	case '[': {
		char close = *j->p == '{' ? '}' : ']';
		int obj = close == '}';

		j->p++;
		jp_ws(j);
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return 0;
		}
		for (;;) {
			if (obj) {
				jp_ws(j);
				if (jp_string(j, &s, &n, &esc))
					return -1;
				jp_ws(j);
				if (j->p >= j->end || *j->p++ != ':')
					return -1;
			}
			if (jp_skip(j, depth + 1))
				return -1;
			jp_ws(j);
			if (j->p >= j->end)
				return -1;
			if (*j->p == close) {
				j->p++;
				return 0;
			}
			if (*j->p++ != ',')
				return -1;
		}
	}
	default:
		return jp_number(j, NULL);
	}
}

static int put(struct fts_pidmap *m, int32_t pid, int32_t ns)
{
	uint64_t *v = fts_inthash_put(&m->map, (uint32_t)pid, NULL);

	if (!v)
		return -1;
	*v = (uint64_t)ns;
	m->mapped++;
	return 0;
}

/* One entry's object at j->p: its NSpid (the first one), or -1. 0, or an error. */
static int read_entry(struct jp *j, const char *path, int32_t host, int32_t *ns,
		      struct fts_err *err)
{
	const char *s;
	size_t n;
	int esc, seen = 0;

	*ns = -1;
	if (*j->p != '{') {
		return fts_err_set(err, -EINVAL, "%s: entry for pid %d is not an object", path, host);
	}
	j->p++;
	jp_ws(j);
	if (*j->p == '}') {
		j->p++;
		return 0;
	}
	for (;;) {
		jp_ws(j);
		jp_string(j, &s, &n, &esc);
		jp_ws(j);
		j->p++;   /* ':' (pass 1 checked the syntax) */
		jp_ws(j);
		if (!seen && !esc && n == 5 && memcmp(s, "NSpid", 5) == 0) {
			const char *v;
			size_t vn;
			double d;

			seen = 1;
			if (*j->p == '"') {
				jp_string(j, &v, &vn, &esc);
				*ns = esc ? -1 : parse_pid_n(v, vn);
			} else if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9')) {
				jp_number(j, &d);
				*ns = d > 0 && d <= INT32_MAX ? (int32_t)d : -1;
			} else if (*j->p == 'n') {
				jp_literal(j, "null");
			} else {
				return fts_err_set(err, -EINVAL,
						   "%s: NSpid of pid %d is neither a string nor a number",
						   path, host);
			}
		} else {
			jp_skip(j, 1);
		}
		jp_ws(j);
		if (*j->p++ == '}')
			return 0;
	}
}

static int fill(struct fts_pidmap *m, struct jp *j, const char *path, struct fts_err *err)
{
	jp_ws(j);
	j->p++;   /* '{' */
	jp_ws(j);
	if (*j->p == '}')
		return 0;
	for (;;) {
		const char *key;
		size_t n;
		int esc, rc;
		int32_t host, ns;

		jp_ws(j);
		jp_string(j, &key, &n, &esc);
		host = esc ? -1 : parse_pid_n(key, n);
		if (host < 0)
			return fts_err_set(err, -EINVAL,
					   "%s: key '%.*s' is not a pid; expected {\"<host pid>\": {\"NSpid\": ...}}",
					   path, (int)(n < 32 ? n : 32), key);
		jp_ws(j);
		j->p++;   /* ':' */
		jp_ws(j);
		rc = read_entry(j, path, host, &ns, err);
		if (rc)
			return rc;
		m->entries++;
		if (ns > 0 && ns != host && put(m, host, ns))
			return fts_err_set(err, -ENOMEM, "%s: out of memory", path);
		jp_ws(j);
		if (*j->p++ == '}')
			return 0;
	}
}

int fts_pidmap_load(const char *path, struct fts_pidmap **out, struct fts_err *err)
{
	struct fts_pidmap *m;
	struct jp j;
	char *text;
	size_t len;
	int rc;

	*out = NULL;
	rc = fts_read_small_file(path, PIDMAP_MAX_BYTES, &text, &len, err);
	if (rc)
		return rc;
	j.p = text;
	j.end = text + len;
	if (jp_skip(&j, 0) || (jp_ws(&j), j.p != j.end)) {
		free(text);
		return fts_err_set(err, -EINVAL, "%s: not valid JSON (pid mapping written by 'ftscope record --NSpid' or 'ftscope pidmap' expected)", path);
	}
	j.p = text;
	jp_ws(&j);
	if (*j.p != '{') {
		free(text);
		return fts_err_set(err, -EINVAL, "%s: top level must be an object of host pid -> {\"NSpid\": ...}", path);
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		free(text);
		return fts_err_set(err, -ENOMEM, "%s: out of memory", path);
	}
	fts_inthash_init(&m->map);
	rc = fill(m, &j, path, err);
	free(text);
	if (rc) {
		fts_pidmap_free(m);
		return rc;
	}
	*out = m;
	return 0;
}
