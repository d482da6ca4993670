// SPDX-License-Identifier: MIT
#include "export/sink/jsonw.h"
#include "kit/kit.h"

#include <stdlib.h>
#include <string.h>

void fts_buf_put_str(struct fts_buf *b, const char *s)
{
	size_t n = strlen(s);

	if (fts_buf_reserve(b, FTS__JSON_ESC_MAX(n)))
		return;
	b->len += fts__json_escape(b->p + b->len, s, FTS__JSON_BRACES);
}

void fts_buf_put_u64(struct fts_buf *b, uint64_t v)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[sizeof(tmp) - 1 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	fts_buf_put(b, tmp + sizeof(tmp) - n, (size_t)n);
}

void fts_buf_put_us(struct fts_buf *b, uint64_t ns)
{
	char frac[4];
	uint64_t r = ns % 1000;

	fts_buf_put_u64(b, ns / 1000);
	frac[0] = '.';
	frac[1] = (char)('0' + r / 100);
	frac[2] = (char)('0' + r / 10 % 10);
	frac[3] = (char)('0' + r % 10);
	fts_buf_put(b, frac, 4);
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

