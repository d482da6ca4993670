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
#include "core/internal.h"

/* A string with its length (strlen), so the writer never measures it again. */
struct fts_strn {
	const char *s;  /* NUL-terminated at @n */
	size_t n;
};

/* fts_buf_put_str - append @s as a quoted, escaped JSON string. */
void fts_buf_put_str(struct fts_buf *b, const char *s);

/* fts_buf_put_strn - fts_buf_put_str of @n bytes NUL-terminated at @n. */
void fts_buf_put_strn(struct fts_buf *b, const char *s, size_t n);

/* fts_buf_put_u64 - append a decimal integer. */
void fts_buf_put_u64(struct fts_buf *b, uint64_t v);

/*
 * The JSON writer's cursor form: each call writes at @o, in room the caller
 * reserved for the whole event (one check per event, not one per piece),
 * and returns the end of what it wrote. Strings are padded: readable to
 * their length rounded up to 8 bytes, checked and copied a word at a time.
 */

/* The most a number takes: fts_decimal_u64 (FTS_DECIMAL_MAX), fts_jw_us ("<us>.ddd"). */
#define FTS_JW_NUM_MAX 24

/* fts_jw_lit - a string literal's bytes. */
#define FTS_JW_LIT(o, lit) (memcpy((o), (lit), sizeof(lit) - 1), (o) + sizeof(lit) - 1)

/* fts_jw_strn_padded - a padded string quoted and escaped (room: FTS__JSON_ESC_MAX(@n)). */
static inline char *fts_jw_strn_padded(char *o, const char *s, size_t n)
{
	return o + fts__json_escape_padded(o, s, n, FTS__JSON_BRACES);
}

/* fts_jw_us - ns as microseconds with exactly 3 decimals ("12.345"). */
char *fts_jw_us(char *o, uint64_t ns);

/* fts_jw_args_room - the room fts_jw_args_n needs for these pairs. */
size_t fts_jw_args_room(const struct fts_strn *keys, const struct fts_strn *vals, int nargs);

/*
 * fts_jw_args_n - {"k":"v",...} from @nargs keys, each already a quoted,
 * escaped JSON string (copied), and their values (escaped here).
 */
char *fts_jw_args_n(char *o, const struct fts_strn *keys, const struct fts_strn *vals, int nargs);

#endif
