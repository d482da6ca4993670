// SPDX-License-Identifier: MIT
#include "app/term_safe.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/internal.h"

/* Length of a valid UTF-8 sequence at @s that is not a C1 control, else 0. */
static int printable_utf8(const unsigned char *s)
{
	uint32_t cp;
	int n = fts__utf8_decode(s, &cp);

	return n > 1 && cp >= 0xa0 ? n : 0; /* U+0080..U+009F: C1 controls (e.g. CSI) */
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
