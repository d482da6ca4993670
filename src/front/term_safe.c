#include "term_safe.h"

#include <stdarg.h>
#include <stdlib.h>

/* Length of a valid UTF-8 sequence at @s that is not a C1 control, else 0. */
static int printable_utf8(const unsigned char *s)
{
	int n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	}
	if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return 0; /* U+0080..U+009F: C1 controls (e.g. CSI) */
	if ((n == 3 && s[0] == 0xe0 && s[1] < 0xa0) || (n == 3 && s[0] == 0xed && s[1] >= 0xa0) ||
	    (n == 4 && s[0] == 0xf0 && s[1] < 0x90) || (n == 4 && s[0] == 0xf4 && s[1] >= 0x90))
		return 0; /* overlong, surrogate, beyond U+10FFFF */
	return n;
}

void fts_fputs_safe(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n;

		if (*p >= 0x20 && *p < 0x7f) {
			fputc(*p++, f);
		} else if (*p >= 0x80 && (n = printable_utf8(p)) > 0) {
			fwrite(p, 1, (size_t)n, f);
			p += n;
		} else {
			fprintf(f, "\\x%02x", *p++);
		}
	}
}

void fts_vfprintf_safe(FILE *f, const char *fmt, va_list ap)
{
	char *s = NULL;

	if (vasprintf(&s, fmt, ap) < 0)
		return;
	fts_fputs_safe(f, s);
	free(s);
}
