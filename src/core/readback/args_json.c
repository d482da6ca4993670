// SPDX-License-Identifier: MIT
/*
 * args_json.c - the flat JSON objects found in slice args ({"cpu":"3",...})
 * split into key/value strings, without building a tree: the DB readback
 * runs it per row, millions of times. Values that are not strings keep their
 * JSON text (numbers as written; nested values raw), as Insight's own
 * re-serialisation would show them.
 */
#include "core/readback/readback.h"
#include "ftscope/loss.h"

#include <errno.h>
#include <string.h>

struct cur {
	const char *p, *end;
	char *out, *oend;
};

static int is_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

static void ws(struct cur *c)
{
	while (c->p < c->end && is_ws(*c->p))
		c->p++;
}

static int put(struct cur *c, char ch)
{
	if (c->out >= c->oend)
		return -1;
	*c->out++ = ch;
	return 0;
}

/* UTF-8 for a \uXXXX escape (surrogate pairs are kept as two replacement-free halves). */
static int put_cp(struct cur *c, unsigned cp)
{
	if (cp < 0x80)
		return put(c, (char)cp);
	if (cp < 0x800)
		return put(c, (char)(0xc0 | cp >> 6)) || put(c, (char)(0x80 | (cp & 0x3f)));
	return put(c, (char)(0xe0 | cp >> 12)) || put(c, (char)(0x80 | ((cp >> 6) & 0x3f))) ||
	       put(c, (char)(0x80 | (cp & 0x3f)));
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static int escape(struct cur *c)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k;
	unsigned cp = 0;

	if (c->p >= c->end)
		return -1;
	k = strchr(from, *c->p);
	if (k && *c->p) {
		c->p++;
		return put(c, to[k - from]);
	}
	if (*c->p != 'u' || c->end - c->p < 5)
		return -1;
	for (int i = 1; i <= 4; i++) {
		int h = hexval(c->p[i]);

		if (h < 0)
			return -1;
		cp = cp << 4 | (unsigned)h;
	}
	c->p += 5;
	return put_cp(c, cp);
}

/* A string at c->p (past its opening quote), unescaped into c->out, NUL-terminated. */
static const char *string(struct cur *c)
{
	const char *start = c->out;

	while (c->p < c->end && *c->p != '"') {
		const char *q = c->p;
		size_t n;

		if (*q == '\\') {
			c->p++;
			if (escape(c))
				return NULL;
			continue;
		}
		/* a run of plain bytes at once: most values hold no escape */
		while (q < c->end && *q != '"' && *q != '\\')
			q++;
		n = (size_t)(q - c->p);
		if ((size_t)(c->oend - c->out) < n)
			return NULL;
		memcpy(c->out, c->p, n);
		c->out += n;
		c->p = q;
	}
	if (c->p >= c->end || put(c, '\0'))
		return NULL;
	c->p++;
	return start;
}

/* Any other value: its raw text up to the next top-level ',' or '}'. */
static const char *raw(struct cur *c)
{
	const char *start = c->out;
	int depth = 0, in_str = 0;

	for (; c->p < c->end; c->p++) {
		char ch = *c->p;

		if (in_str) {
			if (ch == '\\' && c->p + 1 < c->end) {
				if (put(c, ch))
					return NULL;
				ch = *++c->p;
			} else if (ch == '"') {
				in_str = 0;
			}
		} else if (ch == '"') {
			in_str = 1;
		} else if (ch == '{' || ch == '[') {
			depth++;
		} else if (ch == '}' || ch == ']') {
			if (depth == 0)
				break;
			depth--;
		} else if (ch == ',' && depth == 0) {
			break;
		}
		if (put(c, ch))
			return NULL;
	}
	while (c->out > start && is_ws(c->out[-1]))
		c->out--;
	return put(c, '\0') ? NULL : start;
}

/* Each member of the object at c->p, unescaped, handed to @on (non-zero stops with -EINVAL). */
static int members(struct cur *c, int (*on)(void *ctx, const char *k, const char *v), void *ctx)
{
	ws(c);
	if (c->p >= c->end || *c->p != '{')
		return -EINVAL;
	c->p++;
	ws(c);
	if (c->p < c->end && *c->p == '}')
		return 0;
	while (c->p < c->end) {
		const char *k, *v;

		ws(c);
		if (c->p >= c->end || *c->p != '"')
			return -EINVAL;
		c->p++;
		k = string(c);
		ws(c);
		if (!k || c->p >= c->end || *c->p != ':')
			return -EINVAL;
		c->p++;
		ws(c);
		if (c->p < c->end && *c->p == '"') {
			c->p++;
			v = string(c);
		} else {
			v = raw(c);
		}
		if (!v || on(ctx, k, v))
			return -EINVAL;
		ws(c);
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == '}')
			return 0;
		return -EINVAL;
	}
	return -EINVAL;
}

struct collect {
	struct fts_arg *args;
	int n, max;
};

static int collect_one(void *ctx, const char *k, const char *v)
{
	struct collect *a = ctx;

	if (a->n < a->max) {
		a->args[a->n].key = k;
		a->args[a->n].val = v;
		a->n++;
	}
	return 0;
}

int fts_args_parse(const char *json, size_t len, struct fts_arg *args, int max, char *buf,
		   size_t bufsz)
{
	struct cur c = { json, json + len, buf, buf + bufsz };
	struct collect a = { args, 0, max };
	int rc = members(&c, collect_one, &a);

	return rc ? rc : a.n;
}

struct pick {
	const char *const *keys;
	const char **vals;
	int n;
};

static int pick_one(void *ctx, const char *k, const char *v)
{
	struct pick *p = ctx;

	/* the first byte first: this runs for every member of every event of a big file */
	for (int i = 0; i < p->n; i++)
		if (k[0] == p->keys[i][0] && !strcmp(k, p->keys[i]))
			p->vals[i] = v; /* a repeated key: the last one, as JSON.parse keeps */
	return 0;
}

int fts_json_pick(const char *json, size_t len, const char *const *keys, int n,
		  const char **vals, char *buf, size_t bufsz)
{
	struct cur c = { json, json + len, buf, buf + bufsz };
	struct pick p = { keys, vals, n };
	for (int i = 0; i < n; i++)
		vals[i] = NULL;
	return members(&c, pick_one, &p);
}

enum fts_item_kind fts_rb_kind(enum fts_lane_group group, const char *name, size_t n,
			       uint64_t dur, const char *args, size_t args_len)
{
#define IS(lit) (n == sizeof(lit) - 1 && !memcmp(name, lit, n))
	if (IS(FTS_LOSS_NODATA_NAME))
		return FTS_ITEM_NODATA;
	if (group == FTS_GROUP_CPU) {
		if (IS("sched_switch"))
			return FTS_ITEM_SWITCH;
		if (IS("irq"))
			return FTS_ITEM_IRQ;
		if (IS("softirq"))
			return FTS_ITEM_SOFTIRQ;
		if (IS("lost events"))
			return FTS_ITEM_LOST;
		return FTS_ITEM_RUN;
	}
	if (IS("Running"))
		return FTS_ITEM_RUNNING;
	if (IS("Runnable"))
		return FTS_ITEM_RUNNABLE;
	if (IS("Sleeping")) {
		/* ours: a zero-length marker; state "D..." is uninterruptible */
		if (dur == 0 && args && memmem(args, args_len, "\"note\"", 6))
			return FTS_ITEM_MARKER;
		if (args && memmem(args, args_len, "\"state\":\"D", 10))
			return FTS_ITEM_BLOCKED;
		return FTS_ITEM_SLEEPING;
	}
	/* the reference's "Unknown" and anything else: a sleep of unknown kind */
	return FTS_ITEM_SLEEPING;
#undef IS
}
