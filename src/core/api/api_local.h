/* SPDX-License-Identifier: MIT */
/*
 * api_local.h - what the binding API's handles share: a small JSON writer
 * over the library's growable buffer, and the parsers of option values.
 */
#ifndef FTS_API_LOCAL_H
#define FTS_API_LOCAL_H

#include <stdint.h>

#include "core/util/buf.h"
#include "ftscope/error.h"
#include "ftscope/output.h"

/*
 * A JSON text built in order: open/close objects and arrays, keys, values;
 * commas are placed by the writer. Memory errors are checked once, at take.
 */
struct api_jw {
	struct fts_buf b;
	int comma;        /* the next value or key needs a ',' first */
	unsigned flags;   /* string escaping: 0, or FTS__JSON_TERM for text a terminal may show */
};

void api_jw_open(struct api_jw *w, char c);                 /* '{' or '[' */
void api_jw_close(struct api_jw *w, char c);                /* '}' or ']' */
void api_jw_key(struct api_jw *w, const char *k);           /* "k": (k is plain ASCII) */
void api_jw_str(struct api_jw *w, const char *s);           /* any bytes; NULL -> "" */
void api_jw_u64(struct api_jw *w, uint64_t v);
void api_jw_i64(struct api_jw *w, int64_t v);
void api_jw_num(struct api_jw *w, double v);                /* NaN/inf -> null */
void api_jw_bool(struct api_jw *w, int v);
/* A key and its value. */
void api_jw_kstr(struct api_jw *w, const char *k, const char *s);
void api_jw_ku64(struct api_jw *w, const char *k, uint64_t v);
void api_jw_ki64(struct api_jw *w, const char *k, int64_t v);
void api_jw_knum(struct api_jw *w, const char *k, double v);
void api_jw_kbool(struct api_jw *w, const char *k, int v);
/* The text, NUL-terminated, owned by the caller; NULL (and freed) when memory ran out. */
char *api_jw_take(struct api_jw *w);

/* The kinds of option a setter table holds. */
enum api_kind {
	API_STR,     /* char * (owned, NULL = default) */
	API_BOOL,    /* int, 0 or 1 */
	API_UINT,    /* unsigned int, up to @max */
	API_U64,     /* uint64_t, up to @max (0: any) */
	API_DOUBLE,  /* double */
	API_OWNER,   /* struct fts_owner, "UID:GID" */
};

/* One key of a setter table: @off is where its value lives in the options struct. */
struct api_key {
	const char *name;
	enum api_kind kind;
	size_t off;
	unsigned int max;
};

/*
 * api_set - set @key of the options at @base from @v by @keys; NULL or ""
 * restores the value at @defaults (a struct of the same type). Returns 0,
 * -ENOENT when @key is not in @keys (nothing set, @err untouched), or
 * -EINVAL/-ENOMEM with @err naming @what, the key and the value.
 */
int api_set(void *base, const void *defaults, const struct api_key *keys, size_t n,
	    const char *key, const char *v, struct fts_err *err, const char *what);
/* Free the API_STR values of @keys in @base. */
void api_free_strs(void *base, const struct api_key *keys, size_t n);

/* Option values (see ftscope/api.h); each returns 0 or -EINVAL. */
int api_parse_bool(const char *v, int *out);
int api_parse_u64(const char *v, uint64_t max, uint64_t *out);
int api_parse_double(const char *v, double *out);
int api_parse_owner(const char *v, struct fts_owner *o);
/* *@slot = a copy of @v, or NULL when @v is NULL or ""; 0 or -ENOMEM. */
int api_set_str(char **slot, const char *v);
/* "" for NULL and "" values: the caller's reset. */
int api_empty(const char *v);
/* An unknown key or bad value, as one message in @err. */
int api_bad_value(struct fts_err *err, const char *what, const char *key, const char *value, int rc);
/* Clear @err after a call that succeeded. */
void api_ok(struct fts_err *err);

#endif
