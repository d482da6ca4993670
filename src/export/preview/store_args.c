// SPDX-License-Identifier: MIT
/*
 * store_args.c - item args as interned blobs. Most args repeat exactly (a
 * task's cpu, prio and host pid; a switch's two tasks), so a blob per
 * distinct set is cheap. Two values do not repeat: a Runnable's
 * wakeup_latency_ns, which equals the slice's duration (stored as "\1"), and
 * a run slice's total_runtime, kept in the lane's aux column ("\2" plus the
 * " [ns]" that follows it). On kernels that give it, a run slice's vruntime
 * is unique too: kept in the lane's aux2 column as an offset ("\4").
 *
 * With very many tasks (issue 21 item 14: 1 M tasks) the task's own identity
 * made every blob unique, about 400 B per task: a host_pid equal to the
 * context pid (a task lane's own pid in decimal, the pid of a run slice's
 * "comm:pid" name) is "\5",
 * and a switch's task (prev_ or next_ comm and pid, the one that is not the
 * idle task) is kept in the aux column as the id of its interned "comm:pid"
 * ("\6" for the comm, "\7" for the pid). Everything else is kept as given;
 * a value that itself starts with one of the marker bytes gets "\3" in front.
 */
#include "export/preview/store_local.h"

#include "core/internal.h"
#include "core/util/decimal.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

/* @s is exactly the decimal of @v (no sign, no leading zero): no printf per arg. */
static int is_u64(const char *s, uint64_t v)
{
	uint64_t x = 0;
	const char *p = s;

	if (*p < '0' || *p > '9' || (*p == '0' && p[1]))
		return 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (p - s >= 19)
			return 0;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	return *p == '\0' && x == v;
}

/* "<digits><rest>" with digits < FTS_AUX_NONE: the number, and where rest starts. */
static const char *aux_split(const char *s, uint32_t *v)
{
	uint64_t x = 0;
	const char *p = s;

	if (*p < '0' || *p > '9' || (*p == '0' && p[1] >= '0' && p[1] <= '9'))
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++) {
		x = x * 10 + (uint64_t)(*p - '0');
		if (x >= FTS_AUX_NONE)
			return NULL;
	}
	*v = (uint32_t)x;
	return p;
}

static int put(char **o, char *end, const char *s, size_t n)
{
	if ((size_t)(end - *o) < n + 1)
		return -1;
	memcpy(*o, s, n);
	(*o)[n] = '\0';
	*o += n + 1;
	return 0;
}

/* @s is a plain decimal u64 within [@base, @base + FTS_AUX_NONE): its offset, else -1. */
static int64_t offset_of(const char *s, uint64_t base)
{
	uint64_t x = 0;
	const char *p = s;

	if (*p < '0' || *p > '9' || (*p == '0' && p[1]))
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (p - s >= 19)
			return -1;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	if (*p || x < base || x - base >= FTS_AUX_NONE)
		return -1;
	return (int64_t)(x - base);
}

/* The digits after the last ':' of "comm:pid" @tid (NULL when none). */
const char *fts_args_ctx_pid(const char *tid)
{
	const char *c = strrchr(tid, ':');

	return c && c[1] ? c + 1 : NULL;
}

void fts_args_ctx_lane(struct st_actx *cx, int32_t pid)
{
	cx->pid = NULL;
	if (pid < 0)
		return;
	fts_decimal_u64(cx->pidbuf, (uint64_t)pid); /* no printf per item */
	cx->pid = cx->pidbuf;
}

static int arg_index(const struct fts_arg *args, int nargs, const char *key)
{
	for (int i = 0; i < nargs; i++)
		if (!strcmp(args[i].key, key))
			return i;
	return -1;
}

int fts_args_ref_pick(const struct fts_arg *args, int nargs, int *ci, int *pi)
{
	static const char *const side[2][2] = { { "prev_comm", "prev_pid" }, { "next_comm", "next_pid" } };

	*ci = *pi = -1;
	if (arg_index(args, nargs, "total_runtime") >= 0)
		return -1; /* a run slice: aux holds its runtime */
	for (int k = 0; k < 2; k++) {
		int c = arg_index(args, nargs, side[k][0]), p = arg_index(args, nargs, side[k][1]);

		/* the idle task (pid 0) repeats anyway: take the other side out */
		if (c < 0 || p < 0 || !args[c].val || !args[p].val || !fts__all_digits(args[p].val) ||
		    !strcmp(args[p].val, "0"))
			continue;
		*ci = c;
		*pi = p;
		return 0;
	}
	return -1;
}

size_t fts_args_encode(const struct fts_arg *args, int nargs, const struct st_actx *cx,
		       uint32_t *aux, uint32_t *aux2, char *buf, size_t bufsz)
{
	char *o = buf, *end = buf + bufsz, *mark;
	const char *rest;
	int64_t off;
	uint32_t v;

	if (aux)
		*aux = FTS_AUX_NONE;
	if (aux2)
		*aux2 = FTS_AUX_NONE;
	for (int i = 0; i < nargs; i++) {
		const char *val = args[i].val ? args[i].val : "";
		char tmp[256];

		mark = o;
		if (put(&o, end, args[i].key, strlen(args[i].key)))
			break;
		if (i == cx->ref_c || i == cx->ref_p) {
			tmp[0] = i == cx->ref_c ? FTS_ARGS_REFC : FTS_ARGS_REFP;
			tmp[1] = '\0';
			val = tmp;
		} else if (cx->dur && is_u64(val, cx->dur)) {
			tmp[0] = FTS_ARGS_DUR;
			tmp[1] = '\0';
			val = tmp;
		} else if (aux && *aux == FTS_AUX_NONE && !strcmp(args[i].key, "total_runtime") &&
			   (rest = aux_split(val, &v)) && strlen(rest) < sizeof(tmp) - 1) {
			*aux = v;
			tmp[0] = FTS_ARGS_AUX;
			strcpy(tmp + 1, rest);
			val = tmp;
		} else if (aux2 && *aux2 == FTS_AUX_NONE && !strcmp(args[i].key, "vruntime") &&
			   (off = offset_of(val, cx->aux2_base)) >= 0) {
			*aux2 = (uint32_t)off;
			tmp[0] = FTS_ARGS_AUX2;
			tmp[1] = '\0';
			val = tmp;
		} else if (cx->pid && !strcmp(args[i].key, "host_pid") && !strcmp(val, cx->pid)) {
			tmp[0] = FTS_ARGS_PID;
			tmp[1] = '\0';
			val = tmp;
		} else if (val[0] >= FTS_ARGS_DUR && val[0] <= FTS_ARGS_LAST) {
			/* a comm may start with any byte: keep it from reading as a marker */
			tmp[0] = FTS_ARGS_LIT;
			snprintf(tmp + 1, sizeof(tmp) - 1, "%s", val);
			val = tmp;
		}
		if (put(&o, end, val, strlen(val))) {
			o = mark; /* no key without its value */
			break;
		}
	}
	return (size_t)(o - buf);
}

/* @v in decimal into @out (@n): the number of digits, or -1 without room (no printf: every item of fts_store_stats). */
static int put_u64(uint64_t v, char *out, size_t n)
{
	char tmp[FTS_DECIMAL_MAX];
	int k = (int)(fts_decimal_u64(tmp, v) - tmp);

	if ((size_t)k >= n)
		return -1;
	memcpy(out, tmp, (size_t)k + 1);
	return k;
}

/* @str into @out (@n): its length, or -1 without room. */
static int put_str(const char *str, char *out, size_t n)
{
	size_t k = strlen(str);

	if (k >= n)
		return -1;
	memcpy(out, str, k + 1);
	return (int)k;
}

/* Value marker @m rebuilt into @out (@n): the number of bytes written, or -1. */
static int rebuild(char m, const char *after, const struct st_actx *cx, char *out, size_t n)
{
	const char *ref = "", *colon;
	int w;

	switch (m) {
	case FTS_ARGS_DUR:
		return put_u64(cx->dur, out, n);
	case FTS_ARGS_AUX2:
		return put_u64(cx->aux2_base + cx->aux2, out, n);
	case FTS_ARGS_AUX:
	{
		int a = put_u64(cx->aux, out, n), b = a < 0 ? -1 : put_str(after, out + a, n - (size_t)a);

		return b < 0 ? -1 : a + b;
	}
	case FTS_ARGS_PID:
		return put_str(cx->pid ? cx->pid : "", out, n);
	default: /* the "comm:pid" the aux column names: FTS_ARGS_REFC its comm, FTS_ARGS_REFP its pid */
		if (cx->strs && cx->aux < cx->strs->n)
			ref = fts_strtab_get(cx->strs, cx->aux);
		colon = strrchr(ref, ':');
		if (m != FTS_ARGS_REFC)
			return put_str(colon ? colon + 1 : "", out, n);
		w = colon ? (int)(colon - ref) : 0;
		if ((size_t)w >= n)
			return -1;
		memcpy(out, ref, (size_t)w);
		out[w] = '\0';
		return w;
	}
}

int fts_args_decode(const char *blob, size_t len, const struct st_actx *cx, struct fts_arg *args,
		    int max, char *buf, size_t bufsz)
{
	const char *p = blob, *end = blob + len;
	size_t used = 0;
	int n = 0;

	while (p < end && n < max) {
		const char *k = p, *v = k + strlen(k) + 1;

		if (v >= end)
			break;
		p = v + strlen(v) + 1;
		if (v[0] == FTS_ARGS_LIT) {
			v++;
		} else if (v[0] >= FTS_ARGS_DUR && v[0] <= FTS_ARGS_LAST) {
			int w = rebuild(v[0], v + 1, cx, buf + used, bufsz - used);

			if (w < 0)
				return -ENOSPC;
			v = buf + used;
			used += (size_t)w + 1;
		}
		args[n].key = k;
		args[n].val = v;
		n++;
	}
	return n;
}
