// SPDX-License-Identifier: MIT
/*
 * json_esc.c - the one JSON string escaper (see core/internal.h): the sinks'
 * strings (into a buffer) and the CLI's JSON (onto a stream) both go
 * through esc_one(), and differ only by the flags they pass.
 */
#include "core/internal.h"

#include <string.h>

/* the longest escape of one unit: \u00XX */
#define UNIT_MAX 6

static char *put_u00(char *o, uint32_t c)
{
	static const char hex[] = "0123456789abcdef";

	memcpy(o, "\\u00", 4);
	o[4] = hex[c >> 4 & 15];
	o[5] = hex[c & 15];
	return o + 6;
}

/*
 * The unit at @p (one byte, or one valid UTF-8 sequence) escaped into @o
 * (UNIT_MAX bytes of room); *@used is set to the bytes of @p it took.
 * Returns the end of what it wrote.
 */
static char *esc_one(const unsigned char *p, unsigned flags, char *o, size_t *used)
{
	unsigned char c = *p;
	uint32_t cp;
	int l;

	*used = 1;
	if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
		if ((flags & FTS__JSON_BRACES) && (c == '{' || c == '}'))
			return put_u00(o, c);
		*o = (char)c;
		return o + 1;
	}
	if (c == '"' || c == '\\') {
		o[0] = '\\';
		o[1] = (char)c;
		return o + 2;
	}
	if (c >= 0x80 && (l = fts__utf8_decode(p, &cp)) > 1) {
		*used = (size_t)l;
		if ((flags & FTS__JSON_TERM) && cp < 0xa0)
			return put_u00(o, cp); /* a C1 control */
		memcpy(o, p, (size_t)l);
		return o + l;
	}
	if (c == 0x7f && !(flags & FTS__JSON_TERM)) {
		*o = (char)c;
		return o + 1;
	}
	return put_u00(o, c); /* a control byte, or a byte that is not UTF-8, read as Latin-1 */
}

size_t fts__json_escape(char *dst, const char *s, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	char *o = dst;
	size_t used;

	*o++ = '"';
	while (*p) {
		/* the sinks' hot path: most bytes are plain ASCII */
		if (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\' && *p != '{' && *p != '}') {
			*o++ = (char)*p++;
			continue;
		}
		o = esc_one(p, flags, o, &used);
		p += used;
	}
	*o++ = '"';
	*o = '\0';
	return (size_t)(o - dst);
}

/* The length of @s's leading run of plain bytes (as fts__json_word_unplain), at most @n. */
static size_t plain_prefix(const unsigned char *s, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t v;

		memcpy(&v, s + i, 8);
		if (fts__json_word_unplain(v))
			break;
	}
	for (; i < n; i++)
		if (s[i] < 0x20 || s[i] >= 0x7f || s[i] == '"' || s[i] == '\\' || s[i] == '{' ||
		    s[i] == '}')
			break;
	return i;
}

size_t fts__json_escape_n(char *dst, const char *s, size_t n, unsigned flags)
{
	size_t plain;

	if (flags & FTS__JSON_PADDED)
		return fts__json_escape_padded(dst, s, n, flags & ~FTS__JSON_PADDED);
	plain = plain_prefix((const unsigned char *)s, n);

	if (plain == n) {
		/* the usual case: nothing to escape, one copy */
		dst[0] = '"';
		memcpy(dst + 1, s, n);
		dst[n + 1] = '"';
		dst[n + 2] = '\0';
		return n + 2;
	}
	/* the rest through the byte loop first: the prefix's copy then lands on its opening quote */
	n = fts__json_escape(dst + plain, s + plain, flags);
	dst[0] = '"';
	memcpy(dst + 1, s, plain);
	return plain + n;
}

int fts__json_fputs(FILE *f, const char *s, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	char chunk[256], *o = chunk;
	size_t used;

	*o++ = '"';
	while (*p) {
		if (o - chunk > (ptrdiff_t)(sizeof(chunk) - UNIT_MAX - 1)) {
			fwrite(chunk, 1, (size_t)(o - chunk), f);
			o = chunk;
		}
		o = esc_one(p, flags, o, &used);
		p += used;
	}
	*o++ = '"';
	fwrite(chunk, 1, (size_t)(o - chunk), f);
	return ferror(f) ? -1 : 0;
}
