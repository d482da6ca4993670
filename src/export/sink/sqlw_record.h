/* SPDX-License-Identifier: MIT */
/*
 * sqlw_record.h - SQLite's record format (fileformat2.html, "Record Format"):
 * varints, serial types and the records the page writer stores, with
 * SQLite's own comparison of two values, so index keys sort as SQLite's
 * BINARY collation would sort them. Only the types ftscope writes: NULL,
 * INTEGER and TEXT (UTF-8).
 */
#ifndef FTS_SQLW_RECORD_H
#define FTS_SQLW_RECORD_H

#include <stddef.h>
#include <stdint.h>

/* SQLite's longest varint. */
#define FTS_SQLW_VARINT_MAX 9

enum fts_sqlw_type { FTS_SQLW_NULL, FTS_SQLW_INT, FTS_SQLW_TEXT };

/* One column value; @s/@n are used for TEXT only (not NUL-terminated). */
struct fts_sqlw_val {
	enum fts_sqlw_type type;
	int64_t i;
	const char *s;
	size_t n;
};

/* fts_sqlw_varint_len - the bytes SQLite's varint for @v takes (1..9). */
int fts_sqlw_varint_len(uint64_t v);

/* fts_sqlw_varint_put - write @v as SQLite's varint at @p; returns its length. */
int fts_sqlw_varint_put(uint8_t *p, uint64_t v);

/* fts_sqlw_varint_get - read a varint at @p (9 bytes readable) into *@v; returns its length. */
int fts_sqlw_varint_get(const uint8_t *p, uint64_t *v);

/* The most columns a record may have here (Insight's widest table has 11). */
#define FTS_SQLW_MAX_COLS 16

/*
 * fts_sqlw_record_encode - the @n (<= FTS_SQLW_MAX_COLS) values @v as
 * SQLite's record, with the smallest serial types (8 and 9 for 0 and 1, as
 * SQLite writes them in schema format 4), at @out when it fits in @cap
 * bytes. Returns the record's size; nothing is written when it exceeds @cap.
 */
size_t fts_sqlw_record_encode(uint8_t *out, size_t cap, const struct fts_sqlw_val *v, int n);

/*
 * fts_sqlw_val_cmp - <0, 0 or >0 as @a sorts before, with or after @b in an
 * index: NULL < INTEGER < TEXT; integers signed; TEXT by memcmp, then the
 * shorter first (BINARY collation).
 */
int fts_sqlw_val_cmp(const struct fts_sqlw_val *a, const struct fts_sqlw_val *b);

/* fts_sqlw_put32 - @v big-endian at @p, as every 4-byte field of the file format. */
static inline void fts_sqlw_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

#endif
