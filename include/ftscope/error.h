/* SPDX-License-Identifier: MIT */
/*
 * error.h - library error reporting: a negative errno-style code plus a
 * message the caller shows. Nothing in the library prints or exits.
 */
#ifndef FTS_ERROR_H
#define FTS_ERROR_H

#include <stddef.h>
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The message buffer every fallible library call takes. */
struct fts_err {
	int code;        /* negative errno, 0 when no error */
	char msg[512];   /* one line: what, which file, what to do */
};

/**
 * fts_err_set - fill an error with a code and a printf-style message
 * @err: the error to fill; NULL is fine (the message is dropped)
 * @code: a negative errno
 * @fmt: printf format of the one-line message (what, which file, what to do)
 *
 * Returns @code, so callers can write `return fts_err_set(err, -EINVAL, ...)`.
 */
FTS_API int fts_err_set(struct fts_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif

#endif
