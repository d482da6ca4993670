// SPDX-License-Identifier: MIT
/* msg.c - every CLI message is formatted, then escaped as a whole (see msg.h). */
#include "app/msg.h"
#include "app/term_safe.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Writes @prefix (trusted text), then the formatted message escaped, then '\n'. */
static void emit(FILE *f, const char *prefix, const char *cmd, const char *kind,
		 const char *fmt, va_list ap)
{
	char *s = NULL;
	size_t n;

	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	flockfile(f);
	if (prefix) {
		fputs(prefix, f);
		if (cmd) {
			fputc(' ', f);
			fts_fputs_safe(f, cmd);
		}
		fputs(": ", f);
	}
	if (kind)
		fputs(kind, f);
	if (s) {
		/* one trailing newline is the caller's line end, not data */
		n = strlen(s);
		if (n && s[n - 1] == '\n')
			s[n - 1] = '\0';
		fts_fputs_safe(f, s);
	}
	fputc('\n', f);
	funlockfile(f);
	free(s);
}

void fts_msg_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(stderr, "ftscope", cmd, NULL, fmt, ap);
	va_end(ap);
}

void fts_msg_warn(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(stderr, "ftscope", cmd, "warning: ", fmt, ap);
	va_end(ap);
}

void fts_msg_line(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(f, NULL, NULL, NULL, fmt, ap);
	va_end(ap);
}
