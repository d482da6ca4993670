// SPDX-License-Identifier: MIT
#include "export/sink/jsonw.h"
#include "kit/kit.h"

#include <stdlib.h>
#include <string.h>

void fts_buf_put_strn(struct fts_buf *b, const char *s, size_t n)
{
	if (fts_buf_reserve(b, FTS__JSON_ESC_MAX(n)))
		return;
	b->len += fts__json_escape_n(b->p + b->len, s, n, FTS__JSON_BRACES);
}

void fts_buf_put_strn_padded(struct fts_buf *b, const char *s, size_t n)
{
	if (fts_buf_reserve(b, FTS__JSON_ESC_MAX(n)))
		return;
	b->len += fts__json_escape_n(b->p + b->len, s, n, FTS__JSON_BRACES | FTS__JSON_PADDED);
}

void fts_buf_put_str(struct fts_buf *b, const char *s)
{
	fts_buf_put_strn(b, s, strlen(s));
}

/* "00".."99": two digits per step instead of a division per digit. */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* @v's decimal digits ending at @end; returns where they start. */
static char *digits_before(char *end, uint64_t v)
{
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		end -= 2;
		memcpy(end, digit_pairs + 2 * r, 2);
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * v, 2);
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

void fts_buf_put_u64(struct fts_buf *b, uint64_t v)
{
	char tmp[24];
	char *p = digits_before(tmp + sizeof(tmp), v);

	fts_buf_put(b, p, (size_t)(tmp + sizeof(tmp) - p));
}

void fts_buf_put_us(struct fts_buf *b, uint64_t ns)
{
	char tmp[32];
	unsigned r = (unsigned)(ns % 1000);
	char *end = tmp + sizeof(tmp), *p;

	/* ".ddd": the last digit, then a pair */
	end[-1] = (char)('0' + r % 10);
	memcpy(end - 3, digit_pairs + 2 * (r / 10), 2);
	end[-4] = '.';
	p = digits_before(end - 4, ns / 1000);
	fts_buf_put(b, p, (size_t)(end - p));
}

void fts_buf_put_args(struct fts_buf *b, const struct fts_item *it)
{
	fts_buf_put(b, "{", 1);
	for (int i = 0; i < it->nargs; i++) {
		if (i)
			fts_buf_put(b, ",", 1);
		fts_buf_put_str(b, it->args[i].key);
		fts_buf_put(b, ":", 1);
		fts_buf_put_str(b, it->args[i].val);
	}
	fts_buf_put(b, "}", 1);
}


void fts_buf_put_args_n(struct fts_buf *b, const struct fts_strn *kv, int nargs)
{
	fts_buf_put(b, "{", 1);
	for (int i = 0; i < nargs; i++) {
		if (i)
			fts_buf_put(b, ",", 1);
		fts_buf_put_strn_padded(b, kv[2 * i].s, kv[2 * i].n);
		fts_buf_put(b, ":", 1);
		fts_buf_put_strn_padded(b, kv[2 * i + 1].s, kv[2 * i + 1].n);
	}
	fts_buf_put(b, "}", 1);
}
