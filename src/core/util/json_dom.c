// SPDX-License-Identifier: MIT
/*
 * json_dom.c - the static build's JSON tree (json_dom.h): a recursive
 * descent parser bounded by the input's length and a nesting limit, and the
 * formatted print the pid map is written with.
 */
#include "core/util/json_dom.h"
#include "core/util/buf.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JD_NEST_MAX 1000   /* cJSON's CJSON_NESTING_LIMIT */

struct jd_in {
	const unsigned char *p, *end;
	int depth;
};

static struct fts_jd *jd_new(int type)
{
	struct fts_jd *n = calloc(1, sizeof(*n));

	if (n)
		n->type = type;
	return n;
}

void fts_jd_delete(struct fts_jd *n)
{
	while (n) {
		struct fts_jd *next = n->next;

		fts_jd_delete(n->child);
		free(n->valuestring);
		free(n->string);
		free(n);
		n = next;
	}
}

static void skip_ws(struct jd_in *in)
{
	while (in->p < in->end && *in->p <= 32)
		in->p++;
}

static int lit(struct jd_in *in, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(in->end - in->p) < n || memcmp(in->p, word, n))
		return 0;
	in->p += n;
	return 1;
}

/* Four hex digits at @p; any other character makes it 0, as cJSON's parse_hex4. */
static int hex4(const unsigned char *p, unsigned *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		int c = p[i], v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
				 c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (v < 0) {
			*out = 0;   /* cJSON reads a bad hex digit as the code point 0 */
			return 0;
		}
		*out = *out << 4 | (unsigned)v;
	}
	return 0;
}

/* A \u escape at @p (after the backslash and 'u'), surrogate pairs joined, as UTF-8 into @o. */
static int utf16(struct jd_in *in, struct fts_buf *o)
{
	unsigned cp, lo;
	unsigned char u[4];
	int n;

	if (in->end - in->p < 4 || hex4(in->p, &cp))
		return -1;
	in->p += 4;
	if (cp >= 0xDC00 && cp <= 0xDFFF)
		return -1;
	if (cp >= 0xD800 && cp <= 0xDBFF) {
		if (in->end - in->p < 6 || in->p[0] != '\\' || in->p[1] != 'u' || hex4(in->p + 2, &lo) ||
		    lo < 0xDC00 || lo > 0xDFFF)
			return -1;
		in->p += 6;
		cp = 0x10000 + ((cp & 0x3FF) << 10 | (lo & 0x3FF));
	}
	if (cp < 0x80) {
		u[0] = (unsigned char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (unsigned char)(0xC0 | cp >> 6);
		u[1] = (unsigned char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (unsigned char)(0xE0 | cp >> 12);
		u[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
		u[2] = (unsigned char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		u[0] = (unsigned char)(0xF0 | cp >> 18);
		u[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
		u[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
		u[3] = (unsigned char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	fts_buf_put(o, u, (size_t)n);
	return 0;
}

/* A string at in->p (its opening quote) into a new NUL-terminated buffer, or NULL. */
static char *parse_str(struct jd_in *in)
{
	struct fts_buf o = { 0 };

	if (in->p >= in->end || *in->p != '"')
		return NULL;
	in->p++;
	while (in->p < in->end && *in->p != '"') {
		unsigned char c = *in->p++;
		static const char from[] = "bfnrt\"\\/", to[] = "\b\f\n\r\t\"\\/";
		const char *k;

		if (c != '\\') {
			fts_buf_put(&o, &c, 1);
			continue;
		}
		if (in->p >= in->end)
			break;
		c = *in->p++;
		if (c == 'u') {
			if (utf16(in, &o))
				goto bad;
		} else if (c && (k = strchr(from, c))) {
			fts_buf_put(&o, &to[k - from], 1);
		} else {
			goto bad;
		}
	}
	if (in->p >= in->end)
		goto bad;
	in->p++;
	fts_buf_put(&o, "", 1);
	if (o.oom)
		goto bad;
	return (char *)o.p;
bad:
	fts_buf_free(&o);
	return NULL;
}

/* A number as cJSON reads one: the run of number characters, through strtod. */
static int parse_num(struct jd_in *in, struct fts_jd *n)
{
	char tmp[64], *end;
	size_t k = 0;

	while (in->p + k < in->end && k < sizeof(tmp) - 1 && strchr("0123456789+-eE.", in->p[k]) && in->p[k])
		k++;
	memcpy(tmp, in->p, k);
	tmp[k] = '\0';
	n->valuedouble = strtod(tmp, &end);
	if (end == tmp)
		return -1;
	in->p += end - tmp;
	n->valueint = n->valuedouble >= INT_MAX ? INT_MAX : n->valuedouble <= (double)INT_MIN ? INT_MIN :
		      (int)n->valuedouble;
	n->type = FTS_JD_NUMBER;
	return 0;
}

static struct fts_jd *parse_value(struct jd_in *in);

/* The members (@obj) or elements of a container at in->p (its opening bracket). */
static int parse_list(struct jd_in *in, struct fts_jd *c, int obj)
{
	struct fts_jd *last = NULL;
	char close = obj ? '}' : ']';

	if (++in->depth > JD_NEST_MAX)
		return -1;
	in->p++;
	skip_ws(in);
	if (in->p < in->end && *in->p == close) {
		in->p++;
		in->depth--;
		return 0;
	}
	for (;;) {
		struct fts_jd *item;
		char *key = NULL;

		skip_ws(in);
		if (obj) {
			key = parse_str(in);
			skip_ws(in);
			if (!key || in->p >= in->end || *in->p != ':') {
				free(key);
				return -1;
			}
			in->p++;
		}
		item = parse_value(in);
		if (!item) {
			free(key);
			return -1;
		}
		item->string = key;
		if (last) {
			last->next = item;
			item->prev = last;
		} else {
			c->child = item;
		}
		last = item;
		skip_ws(in);
		if (in->p < in->end && *in->p == ',') {
			in->p++;
			continue;
		}
		if (in->p < in->end && *in->p == close) {
			in->p++;
			in->depth--;
			return 0;
		}
		return -1;
	}
}

static struct fts_jd *parse_value(struct jd_in *in)
{
	struct fts_jd *n = jd_new(0);
	int bad = 0;

	if (!n)
		return NULL;
	skip_ws(in);
	if (in->p >= in->end)
		bad = 1;
	else if (lit(in, "null"))
		n->type = FTS_JD_NULL;
	else if (lit(in, "false"))
		n->type = FTS_JD_FALSE;
	else if (lit(in, "true"))
		n->type = FTS_JD_TRUE;
	else if (*in->p == '"')
		bad = !(n->valuestring = parse_str(in)) || !(n->type = FTS_JD_STRING);
	else if (*in->p == '-' || (*in->p >= '0' && *in->p <= '9'))
		bad = parse_num(in, n) != 0;
	else if (*in->p == '[' || *in->p == '{')
		bad = (n->type = *in->p == '{' ? FTS_JD_OBJECT : FTS_JD_ARRAY,
		       parse_list(in, n, n->type == FTS_JD_OBJECT) != 0);
	else
		bad = 1;
	if (bad) {
		fts_jd_delete(n);
		return NULL;
	}
	return n;
}

struct fts_jd *fts_jd_parse(const char *text, size_t len)
{
	struct jd_in in = { (const unsigned char *)text, (const unsigned char *)text + len, 0 };

	if (!text || !len)
		return NULL;
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		in.p += 3;
	/* what follows the value is not looked at, as cJSON_ParseWithLength does */
	return parse_value(&in);
}

struct fts_jd *fts_jd_get(const struct fts_jd *o, const char *key)
{
	if (!o || !key)
		return NULL;
	for (struct fts_jd *c = o->child; c; c = c->next)
		if (c->string && !strcmp(c->string, key))
			return c;
	return NULL;
}

int fts_jd_size(const struct fts_jd *n)
{
	int k = 0;

	for (const struct fts_jd *c = n ? n->child : NULL; c; c = c->next)
		k++;
	return k;
}

int fts_jd_is(const struct fts_jd *n, int type)
{
	return n && (n->type & 0xFF) == type;
}

static struct fts_jd *get_case(const struct fts_jd *o, const char *key, int case_sensitive)
{
	for (struct fts_jd *c = o->child; c; c = c->next)
		if (c->string && (case_sensitive ? !strcmp(c->string, key) : !strcasecmp(c->string, key)))
			return c;
	return NULL;
}

/* cJSON's compare_double: equal within the larger magnitude's epsilon. */
static int close_double(double a, double b)
{
	double m = fabs(a), n = fabs(b);

	return fabs(a - b) <= (m > n ? m : n) * DBL_EPSILON;
}

/* Every member of @a is in @b with an equal value. */
static int members_in(const struct fts_jd *a, const struct fts_jd *b, int cs)
{
	for (const struct fts_jd *c = a->child; c; c = c->next) {
		const struct fts_jd *d = c->string ? get_case(b, c->string, cs) : NULL;

		if (!d || !fts_jd_equal(c, d, cs))
			return 0;
	}
	return 1;
}

int fts_jd_equal(const struct fts_jd *a, const struct fts_jd *b, int case_sensitive)
{
	const struct fts_jd *x, *y;

	if (!a || !b || (a->type & 0xFF) != (b->type & 0xFF))
		return 0;
	if (a == b)
		return 1;
	switch (a->type & 0xFF) {
	case FTS_JD_FALSE:
	case FTS_JD_TRUE:
	case FTS_JD_NULL:
		return 1;
	case FTS_JD_NUMBER:
		return close_double(a->valuedouble, b->valuedouble);
	case FTS_JD_STRING:
		return a->valuestring && b->valuestring && !strcmp(a->valuestring, b->valuestring);
	case FTS_JD_ARRAY:
		for (x = a->child, y = b->child; x && y; x = x->next, y = y->next)
			if (!fts_jd_equal(x, y, case_sensitive))
				return 0;
		return !x && !y;
	case FTS_JD_OBJECT:
		return members_in(a, b, case_sensitive) && members_in(b, a, case_sensitive);
	default:
		return 0;
	}
}

struct fts_jd *fts_jd_object(void)
{
	return jd_new(FTS_JD_OBJECT);
}

int fts_jd_add(struct fts_jd *o, const char *key, struct fts_jd *item)
{
	struct fts_jd *c;
	char *k;

	if (!o || !key || !item || item == o || !(k = strdup(key)))
		return 0;
	free(item->string);
	item->string = k;
	item->next = item->prev = NULL;
	if (!o->child) {
		o->child = item;
		return 1;
	}
	for (c = o->child; c->next; c = c->next)
		;
	c->next = item;
	item->prev = c;
	return 1;
}

struct fts_jd *fts_jd_add_string(struct fts_jd *o, const char *key, const char *s)
{
	struct fts_jd *n = jd_new(FTS_JD_STRING);

	if (!n || !s || !(n->valuestring = strdup(s)) || !fts_jd_add(o, key, n)) {
		fts_jd_delete(n);
		return NULL;
	}
	return n;
}

/* A string quoted and escaped as cJSON prints one (UTF-8 passed through). */
static void print_str(struct fts_buf *o, const char *s)
{
	fts_buf_put(o, "\"", 1);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		static const char from[] = "\"\\\b\f\n\r\t", to[] = "\"\\bfnrt";
		const char *k = strchr(from, *p);
		char esc[8];

		if (k) {
			esc[0] = '\\';
			esc[1] = to[k - from];
			fts_buf_put(o, esc, 2);
		} else if (*p < 32) {
			snprintf(esc, sizeof(esc), "\\u%04x", *p);
			fts_buf_put(o, esc, 6);
		} else {
			fts_buf_put(o, p, 1);
		}
	}
	fts_buf_put(o, "\"", 1);
}

/* As cJSON 1.7.15 prints a number: 15 digits, or 17 when 15 do not read back. */
static void print_num(struct fts_buf *o, const struct fts_jd *n)
{
	char tmp[32];
	double d = n->valuedouble;

	if (isnan(d) || isinf(d))
		snprintf(tmp, sizeof(tmp), "null");
	else {
		snprintf(tmp, sizeof(tmp), "%1.15g", d);
		if (!close_double(strtod(tmp, NULL), d))
			snprintf(tmp, sizeof(tmp), "%1.17g", d);
	}
	fts_buf_put(o, tmp, strlen(tmp));
}

static void tabs(struct fts_buf *o, int n)
{
	for (int i = 0; i < n; i++)
		fts_buf_put(o, "\t", 1);
}

static void print_value(struct fts_buf *o, const struct fts_jd *n, int depth)
{
	switch (n->type & 0xFF) {
	case FTS_JD_NULL:
		fts_buf_put(o, "null", 4);
		break;
	case FTS_JD_FALSE:
		fts_buf_put(o, "false", 5);
		break;
	case FTS_JD_TRUE:
		fts_buf_put(o, "true", 4);
		break;
	case FTS_JD_NUMBER:
		print_num(o, n);
		break;
	case FTS_JD_STRING:
		print_str(o, n->valuestring);
		break;
	case FTS_JD_ARRAY:
		fts_buf_put(o, "[", 1);
		/* an array is a level of depth too, as cJSON counts them */
		for (const struct fts_jd *c = n->child; c; c = c->next) {
			print_value(o, c, depth + 1);
			if (c->next)
				fts_buf_put(o, ", ", 2);
		}
		fts_buf_put(o, "]", 1);
		break;
	case FTS_JD_OBJECT:
		fts_buf_put(o, "{\n", 2);
		for (const struct fts_jd *c = n->child; c; c = c->next) {
			tabs(o, depth + 1);
			print_str(o, c->string);
			fts_buf_put(o, ":\t", 2);
			print_value(o, c, depth + 1);
			if (c->next)
				fts_buf_put(o, ",", 1);
			fts_buf_put(o, "\n", 1);
		}
		tabs(o, depth);
		fts_buf_put(o, "}", 1);
		break;
	default:
		break;
	}
}

char *fts_jd_print(const struct fts_jd *n)
{
	struct fts_buf o = { 0 };

	if (!n)
		return NULL;
	print_value(&o, n, 0);
	fts_buf_put(&o, "", 1);
	if (o.oom) {
		fts_buf_free(&o);
		return NULL;
	}
	return (char *)o.p;
}
