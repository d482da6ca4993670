// SPDX-License-Identifier: MIT
/* utf8.c - the one UTF-8 decoder (see kit/kit.h). */
#include "kit/kit.h"

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
