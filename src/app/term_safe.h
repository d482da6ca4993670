/* SPDX-License-Identifier: MIT */
/*
 * term_safe.h - text from the kernel, from other users' file names and from
 * task names is attacker-controlled: it reaches the terminal only through
 * these functions, which escape control characters (C0, DEL, C1) and bytes
 * that are not valid UTF-8 as \xNN.
 */
#ifndef FTS_TERM_SAFE_H
#define FTS_TERM_SAFE_H

#include <stdarg.h>
#include <stdio.h>

/* fts_fputs_safe - write @s to @f with every control or invalid byte escaped. */
void fts_fputs_safe(FILE *f, const char *s);

/* fts_vfprintf_safe - vprintf, then write the result through fts_fputs_safe. */
void fts_vfprintf_safe(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

#endif
