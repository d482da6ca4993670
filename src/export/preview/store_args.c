// SPDX-License-Identifier: MIT
/*
 * store_args.c - item args as interned blobs. Most args repeat exactly (a
 * task's cpu, prio and host pid; a switch's two tasks), so a blob per
 * distinct set is cheap. Two values do not repeat: a Runnable's
 * wakeup_latency_ns, which equals the slice's duration (stored as "\1"), and
 * a run slice's total_runtime, kept in the lane's aux column ("\2" plus the
 * " [ns]" that follows it). On kernels that give it, a run slice's vruntime
 * is unique too: kept in the lane's aux2 column as an offset ("\4"). Everything
 * else is kept as given; a value that itself starts with one of the marker
 * bytes gets "\3" in front.
 */
#include "export/preview/store_local.h"

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

size_t fts_args_encode(const struct fts_arg *args, int nargs, uint64_t dur, uint32_t *aux,
		       char *buf, size_t bufsz)
{
	return fts_args_encode2(args, nargs, dur, aux, NULL, 0, buf, bufsz);
}

size_t fts_args_encode2(const struct fts_arg *args, int nargs, uint64_t dur, uint32_t *aux,
			uint32_t *aux2, uint64_t aux2_base, char *buf, size_t bufsz)
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
		if (dur && is_u64(val, dur)) {
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
			   (off = offset_of(val, aux2_base)) >= 0) {
			*aux2 = (uint32_t)off;
			tmp[0] = FTS_ARGS_AUX2;
			tmp[1] = '\0';
			val = tmp;
		} else if (val[0] >= FTS_ARGS_DUR && val[0] <= FTS_ARGS_AUX2) {
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

int fts_args_decode(const char *blob, size_t len, uint64_t dur, uint32_t aux,
		    struct fts_arg *args, int max, char *buf, size_t bufsz)
{
	return fts_args_decode2(blob, len, dur, aux, FTS_AUX_NONE, 0, args, max, buf, bufsz);
}

int fts_args_decode2(const char *blob, size_t len, uint64_t dur, uint32_t aux, uint32_t aux2,
		     uint64_t aux2_base, struct fts_arg *args, int max, char *buf, size_t bufsz)
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
		} else if (v[0] == FTS_ARGS_DUR || v[0] == FTS_ARGS_AUX || v[0] == FTS_ARGS_AUX2) {
			int w = v[0] == FTS_ARGS_DUR ?
				snprintf(buf + used, bufsz - used, "%llu", (unsigned long long)dur) :
				v[0] == FTS_ARGS_AUX2 ?
				snprintf(buf + used, bufsz - used, "%llu",
					 (unsigned long long)(aux2_base + aux2)) :
				snprintf(buf + used, bufsz - used, "%u%s", aux, v + 1);

			if (w < 0 || (size_t)w >= bufsz - used)
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
