// SPDX-License-Identifier: MIT
/*
 * sqlw_record.c - SQLite's varints and records, written as SQLite writes
 * them (sqlite3PutVarint, sqlite3VdbeSerialType), so a file built by the
 * page writer is the one SQLite itself would have built byte for byte at
 * the record level.
 */
#include "export/sink/sqlw_record.h"

#include <endian.h>
#include <string.h>

int fts_sqlw_varint_len(uint64_t v)
{
	int n = 1;

	if (v >> 56)
		return 9;
	while (v >>= 7)
		n++;
	return n;
}

int fts_sqlw_varint_put(uint8_t *p, uint64_t v)
{
	uint8_t tmp[10];
	int n = 0;

	/* the short forms inline: nearly every varint of a record is one or two bytes */
	if (v < 0x80) {
		p[0] = (uint8_t)v;
		return 1;
	}
	if (v < 0x4000) {
		p[0] = (uint8_t)(v >> 7 | 0x80);
		p[1] = (uint8_t)(v & 0x7f);
		return 2;
	}
	/* nine bytes: the last carries eight bits, the first eight seven each */
	if (v >> 56) {
		p[8] = (uint8_t)v;
		v >>= 8;
		for (int i = 7; i >= 0; i--) {
			p[i] = (uint8_t)((v & 0x7f) | 0x80);
			v >>= 7;
		}
		return 9;
	}
	do {
		tmp[n++] = (uint8_t)((v & 0x7f) | 0x80);
		v >>= 7;
	} while (v);
	tmp[0] &= 0x7f;
	for (int i = 0; i < n; i++)
		p[i] = tmp[n - 1 - i];
	return n;
}

int fts_sqlw_varint_get(const uint8_t *p, uint64_t *v)
{
	uint64_t x = 0;

	for (int i = 0; i < 8; i++) {
		x = (x << 7) | (p[i] & 0x7f);
		if (!(p[i] & 0x80)) {
			*v = x;
			return i + 1;
		}
	}
	*v = (x << 8) | p[8];
	return 9;
}

/* The serial type of @v and, in *@len, the bytes of its body. */
static uint64_t serial_type(const struct fts_sqlw_val *v, size_t *len)
{
	static const uint8_t int_len[] = { 0, 1, 2, 3, 4, 6, 8 };
	uint64_t u;
	int t;

	if (v->type == FTS_SQLW_NULL) {
		*len = 0;
		return 0;
	}
	if (v->type == FTS_SQLW_TEXT) {
		*len = v->n;
		return 13 + 2 * (uint64_t)v->n;
	}
	if (v->i == 0 || v->i == 1) {
		*len = 0;
		return 8 + (uint64_t)v->i;
	}
	u = v->i < 0 ? ~(uint64_t)v->i : (uint64_t)v->i;
	t = u <= 127 ? 1 : u <= 32767 ? 2 : u <= 8388607 ? 3 : u <= 2147483647 ? 4 :
	    u <= 0x7fffffffffffULL ? 5 : 6;
	*len = int_len[t];
	return (uint64_t)t;
}

/* The header's size including its own varint (which counts itself). */
static size_t header_size(size_t types)
{
	size_t h = types + 1;

	while ((size_t)fts_sqlw_varint_len(h) + types != h)
		h = types + (size_t)fts_sqlw_varint_len(h);
	return h;
}

size_t fts_sqlw_record_encode(uint8_t *out, size_t cap, const struct fts_sqlw_val *v, int n)
{
	uint64_t type[FTS_SQLW_MAX_COLS];
	size_t len[FTS_SQLW_MAX_COLS], types = 0, body = 0, hs;
	uint8_t *h, *b;

	for (int i = 0; i < n; i++) {
		type[i] = serial_type(&v[i], &len[i]);
		types += type[i] < 0x80 ? 1 : (size_t)fts_sqlw_varint_len(type[i]);
		body += len[i];
	}
	hs = types < 0x7f ? types + 1 : header_size(types);
	if (hs + body > cap)
		return hs + body;
	h = out;
	b = out + hs;
	h += hs < 0x80 ? (*h = (uint8_t)hs, 1) : fts_sqlw_varint_put(h, hs);
	for (int i = 0; i < n; i++) {
		/* nearly every serial type is under 0x80: one byte, no varint call */
		if (type[i] < 0x80)
			*h++ = (uint8_t)type[i];
		else
			h += fts_sqlw_varint_put(h, type[i]);
		if (v[i].type == FTS_SQLW_TEXT) {
			if (len[i])
				memcpy(b, v[i].s, len[i]);
		} else if (len[i]) {
			/* big-endian two's complement: the low len bytes of the 8-byte form */
			uint64_t be = htobe64((uint64_t)v[i].i);

			memcpy(b, (const uint8_t *)&be + 8 - len[i], len[i]);
		}
		b += len[i];
	}
	return hs + body;
}

int fts_sqlw_val_cmp(const struct fts_sqlw_val *a, const struct fts_sqlw_val *b)
{
	size_t n;
	int c;

	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	if (a->type == FTS_SQLW_INT)
		return (a->i > b->i) - (a->i < b->i);
	if (a->type == FTS_SQLW_NULL)
		return 0;
	n = a->n < b->n ? a->n : b->n;
	c = n ? memcmp(a->s, b->s, n) : 0;
	if (c)
		return c < 0 ? -1 : 1;
	return (a->n > b->n) - (a->n < b->n);
}
