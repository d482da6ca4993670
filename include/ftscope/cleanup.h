/* SPDX-License-Identifier: MIT */
/*
 * cleanup.h - removing partial outputs when the process is stopped by a
 * signal.
 *
 * Every output is written to a hidden temp file beside its target and
 * renamed into place when complete. The library keeps a small registry of
 * the temp files it is writing (the one piece of global mutable state it
 * has, because a signal handler cannot be handed a context) so that a front
 * end's signal handler can remove them before the process dies. Temp files
 * of writers that died without that chance (SIGKILL, power loss) are removed
 * by the next output written to the same directory.
 */
#ifndef FTS_CLEANUP_H
#define FTS_CLEANUP_H

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * fts_remove_partial_outputs - remove every temp output this process is
 * still writing.
 *
 * Async-signal-safe (only unlink(2) on fixed buffers): call it from a
 * signal handler, then let the signal take its default action. Outputs
 * already renamed into place are not touched.
 *
 * Returns nothing.
 */
FTS_API void fts_remove_partial_outputs(void);

#ifdef __cplusplus
}
#endif

#endif
