/* SPDX-License-Identifier: MIT */
/*
 * json_dom.h - a small JSON tree for the static build (FTS_NO_CJSON): the
 * few cJSON calls the library makes (parse a profiler info file, a host
 * manifest; print a pid map), answered by our own code (private to the
 * library; docs/static.md).
 *
 * Debian ships no libcjson.a, so a fully static ftscope cannot link cJSON.
 * The node keeps cJSON's field names and the calls behave as cJSON 1.7's
 * do where the callers can tell (first of duplicate keys, trailing text
 * ignored, a UTF-8 BOM skipped, nesting limited to 1000, the formatted print
 * with tabs), so each call site reads the same in both builds: with
 * FTS_NO_CJSON the cJSON names below map onto these; otherwise the
 * callers include <cjson/cJSON.h> as before. tests/unit/test_json_dom.c
 * holds the two to the same answers.
 */
#ifndef FTS_JSON_DOM_H
#define FTS_JSON_DOM_H

#include <stddef.h>

/* The node kinds, with cJSON's values. */
#define FTS_JD_FALSE 1
#define FTS_JD_TRUE 2
#define FTS_JD_NULL 4
#define FTS_JD_NUMBER 8
#define FTS_JD_STRING 16
#define FTS_JD_ARRAY 32
#define FTS_JD_OBJECT 64

struct fts_jd {
	struct fts_jd *next, *prev;   /* siblings */
	struct fts_jd *child;         /* first member or element */
	int type;
	char *valuestring;            /* STRING */
	int valueint;                 /* NUMBER, saturated */
	double valuedouble;           /* NUMBER */
	char *string;                 /* the key, for an object's member */
};

/* fts_jd_parse - the JSON value at the start of @len bytes of @text, or NULL. */
struct fts_jd *fts_jd_parse(const char *text, size_t len);

/* fts_jd_delete - free @n and everything below it; NULL is fine. */
void fts_jd_delete(struct fts_jd *n);

/* fts_jd_get - the first member of object @o named exactly @key, or NULL. */
struct fts_jd *fts_jd_get(const struct fts_jd *o, const char *key);

/* fts_jd_size - the number of elements (or members) of @n. */
int fts_jd_size(const struct fts_jd *n);

/* fts_jd_is - 1 when @n is not NULL and of @type. */
int fts_jd_is(const struct fts_jd *n, int type);

/* fts_jd_equal - 1 when @a and @b hold the same value (object members by name). */
int fts_jd_equal(const struct fts_jd *a, const struct fts_jd *b, int case_sensitive);

/* fts_jd_object - a new empty object, or NULL. */
struct fts_jd *fts_jd_object(void);

/* fts_jd_add - append @item to @o under @key (copied). 1, or 0 when out of memory. */
int fts_jd_add(struct fts_jd *o, const char *key, struct fts_jd *item);

/* fts_jd_add_string - append the string @s to @o under @key; the new node, or NULL. */
struct fts_jd *fts_jd_add_string(struct fts_jd *o, const char *key, const char *s);

/* fts_jd_print - @n as cJSON_Print formats it, in a malloc'ed string, or NULL. */
char *fts_jd_print(const struct fts_jd *n);

#ifdef FTS_NO_CJSON
/* both spellings: "cJSON *" and "struct cJSON" (a forward declaration) */
typedef struct fts_jd fts_jd;
#define cJSON fts_jd
#define cJSON_ParseWithLength fts_jd_parse
#define cJSON_Delete fts_jd_delete
#define cJSON_GetObjectItemCaseSensitive fts_jd_get
#define cJSON_GetArraySize fts_jd_size
#define cJSON_IsArray(n) fts_jd_is((n), FTS_JD_ARRAY)
#define cJSON_IsNumber(n) fts_jd_is((n), FTS_JD_NUMBER)
#define cJSON_IsObject(n) fts_jd_is((n), FTS_JD_OBJECT)
#define cJSON_IsString(n) fts_jd_is((n), FTS_JD_STRING)
#define cJSON_Compare fts_jd_equal
#define cJSON_CreateObject fts_jd_object
#define cJSON_AddItemToObject fts_jd_add
#define cJSON_AddStringToObject fts_jd_add_string
#define cJSON_Print fts_jd_print
#define cJSON_ArrayForEach(e, a) for ((e) = (a) ? (a)->child : NULL; (e); (e) = (e)->next)
#endif

#endif
