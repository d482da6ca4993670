// SPDX-License-Identifier: MIT
#include "export/sink/jsonw.h"
#include "core/internal.h"
#include "core/util/decimal.h"

#include <stdlib.h>
#include <string.h>

void fts_buf_put_strn(struct fts_buf *b, const char *s, size_t n)
{
	if (fts_buf_reserve(b, FTS__JSON_ESC_MAX(n)))
		return;
	b->len += fts__json_escape_n(b->p + b->len, s, n, FTS__JSON_BRACES);
}

void fts_buf_put_str(struct fts_buf *b, const char *s)
{
	fts_buf_put_strn(b, s, strlen(s));
}

void fts_buf_put_u64(struct fts_buf *b, uint64_t v)
{
	if (fts_buf_reserve(b, FTS_DECIMAL_MAX))
		return;
	b->len = (size_t)(fts_decimal_u64(b->p + b->len, v) - b->p);
}

char *fts_jw_us(char *o, uint64_t ns)
{
	unsigned r = (unsigned)(ns % 1000);
	int n = fts_decimal_len(ns / 1000);
	char *end = o + n + 4;

	/* "<us>.ddd": the last digit, then a pair, then the whole microseconds */
	end[-1] = (char)('0' + r % 10);
	memcpy(end - 3, fts__digit_pairs + 2 * (r / 10), 2);
	end[-4] = '.';
	fts_decimal_before(end - 4, ns / 1000);
	return end;
}

size_t fts_jw_args_room(const struct fts_strn *keys, const struct fts_strn *vals, int nargs)
{
	size_t room = 2;

	for (int i = 0; i < nargs; i++)
		room += keys[i].n + FTS__JSON_ESC_MAX(vals[i].n) + 2;
	return room;
}

char *fts_jw_args_n(char *o, const struct fts_strn *keys, const struct fts_strn *vals, int nargs)
{
	*o++ = '{';
	for (int i = 0; i < nargs; i++) {
		if (i)
			*o++ = ',';
		memcpy(o, keys[i].s, keys[i].n);
		o += keys[i].n;
		*o++ = ':';
		o = fts_jw_strn_padded(o, vals[i].s, vals[i].n);
	}
	*o++ = '}';
	return o;
}
