/* SPDX-License-Identifier: MIT */
/*
 * log.h - what the trace libraries under libftscope may print.
 *
 * libftscope itself never prints: errors come back in struct fts_err. The
 * libraries it reads and records with (libtraceevent, libtracefs,
 * libtracecmd) print warnings on stderr, and their text can quote file
 * contents (event formats, buffer names). Their log levels are global to
 * the process, so libftscope leaves them alone; the program chooses, once,
 * as with libtracefs's own tracefs_set_loglevel().
 */
#ifndef FTS_LOG_H
#define FTS_LOG_H

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The levels, in libtraceevent's order (enum tep_loglevel). */
enum fts_loglevel {
	FTS_LOG_NONE = 0,   /* nothing: errors reach the caller through struct fts_err */
	FTS_LOG_CRITICAL,
	FTS_LOG_ERROR,
	FTS_LOG_WARNING,
	FTS_LOG_INFO,
	FTS_LOG_DEBUG,
	FTS_LOG_ALL,
};

/**
 * fts_set_loglevel - how much the trace libraries under libftscope print
 * @level: the most verbose level they may print
 *
 * Sets libtraceevent's, libtracefs's and libtracecmd's log levels
 * (tep_set_loglevel, tracefs_set_loglevel, tracecmd_set_loglevel) to
 * @level. Those levels are process-wide and are never restored: call it once
 * from the program's main, before other threads start. Without a call, those
 * libraries keep their own defaults and print through libtraceevent's
 * tep_vprint (raw, on stderr). ftscope's command line sets FTS_LOG_NONE.
 *
 * Returns nothing.
 */
FTS_API void fts_set_loglevel(enum fts_loglevel level);

#ifdef __cplusplus
}
#endif

#endif
