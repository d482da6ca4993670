// SPDX-License-Identifier: MIT
/* utf8.c - the one UTF-8 decoder (see core/internal.h). */
#include "core/internal.h"

#include <string.h>

int fts__utf8_decode(const unsigned char *s, uint32_t *cp)
{
	uint32_t c;
	int n;

	if (s[0] == 0)
		return 0;
	if (s[0] < 0x80) {
		n = 1;
		c = s[0];
	} else if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
	} else {
		return 0; /* a continuation byte, 0xc0/0xc1 (overlong) or 0xf5.. */
	}
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0; /* overlong, surrogate, beyond Unicode */
	if (cp)
		*cp = c;
	return n;
}

size_t fts__utf8_clean(char *dst, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char *o = dst;
	int l;

	while (*p) {
		if (*p < 0x80) {
			*o++ = (char)*p++;
		} else if ((l = fts__utf8_decode(p, NULL)) > 1) {
			memcpy(o, p, (size_t)l);
			o += l;
			p += l;
		} else {
			/* read as Latin-1, as the JSON escaper's \u00XX says */
			*o++ = (char)(0xc0 | *p >> 6);
			*o++ = (char)(0x80 | (*p & 0x3f));
			p++;
		}
	}
	*o = '\0';
	return (size_t)(o - dst);
}

int fts__utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int l;

	for (; *p; p += l) {
		l = *p < 0x80 ? 1 : fts__utf8_decode(p, NULL);
		if (l == 0)
			return 0;
	}
	return 1;
}
