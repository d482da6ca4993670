// SPDX-License-Identifier: MIT
/*
 * log.c - fts_set_loglevel: the program's choice of the trace libraries'
 * process-wide log levels (see log.h). Nothing in the library calls it.
 */
#include "ftscope/log.h"

#include <tracefs.h>
#ifndef FTS_NO_TRACECMD
#include <trace-cmd/trace-cmd.h>
#endif
#include <traceevent/event-parse.h>

/* The two enums share their order; the checks keep it so. */
_Static_assert((int)FTS_LOG_NONE == (int)TEP_LOG_NONE, "fts_loglevel follows tep_loglevel");
_Static_assert((int)FTS_LOG_WARNING == (int)TEP_LOG_WARNING, "fts_loglevel follows tep_loglevel");
_Static_assert((int)FTS_LOG_ALL == (int)TEP_LOG_ALL, "fts_loglevel follows tep_loglevel");

void fts_set_loglevel(enum fts_loglevel level)
{
	enum tep_loglevel l = (enum tep_loglevel)level;

	tep_set_loglevel(l);
	tracefs_set_loglevel(l);
#ifndef FTS_NO_TRACECMD
	tracecmd_set_loglevel(l);
#endif
}
