/* SPDX-License-Identifier: MIT */
/*
 * jsonw.h - JSON values into the util buffer, shared by the SQLite sink
 * (args column) and the JSON sink.
 *
 * Strings go through the kit's one escaper (fts__json_escape), stricter
 * than JSON needs: control bytes, '"' and '\\' as usual, '{' and '}' as
 * \u007b / \u007d (FTS__JSON_BRACES: Insight splits files over 50 MiB by
 * counting raw braces), and bytes that are not valid UTF-8 as \u00XX, so the
 * output is always valid UTF-8 whatever a task name holds.
 */
#ifndef FTS_JSONW_H
#define FTS_JSONW_H

#include <stddef.h>
#include <stdint.h>

#include "ftscope/lane.h"
#include "core/util/buf.h"

/* A string with its length (strlen), so the writer never measures it again. */
struct fts_strn {
	const char *s;  /* NUL-terminated at @n */
	size_t n;
};

/* fts_buf_put_str - append @s as a quoted, escaped JSON string. */
void fts_buf_put_str(struct fts_buf *b, const char *s);

/* fts_buf_put_strn - fts_buf_put_str of @n bytes NUL-terminated at @n. */
void fts_buf_put_strn(struct fts_buf *b, const char *s, size_t n);

/* fts_buf_put_us - append ns as microseconds with exactly 3 decimals ("12.345"). */
void fts_buf_put_us(struct fts_buf *b, uint64_t ns);

/* fts_buf_put_u64 - append a decimal integer. */
void fts_buf_put_u64(struct fts_buf *b, uint64_t v);

/* fts_buf_put_args - append {"k":"v",...} for an item's args (all strings). */
void fts_buf_put_args(struct fts_buf *b, const struct fts_item *it);

/*
 * fts_buf_put_strn_padded - fts_buf_put_strn of a string readable to @n
 * rounded up to 8 bytes: checked and copied a word at a time.
 */
void fts_buf_put_strn_padded(struct fts_buf *b, const char *s, size_t n);

/*
 * fts_buf_put_args_n - the same from @nargs key/value pairs (kv[2i] key,
 * kv[2i+1] value), each padded as for fts_buf_put_strn_padded.
 */
void fts_buf_put_args_n(struct fts_buf *b, const struct fts_strn *kv, int nargs);

#endif
