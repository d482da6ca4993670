/* SPDX-License-Identifier: MIT */
/*
 * sigcleanup.h - a front end stopped by a signal leaves no partial output.
 */
#ifndef FTS_SIGCLEANUP_H
#define FTS_SIGCLEANUP_H

/**
 * fts_front_cleanup_on_signals - on every catchable signal whose default
 * action ends the process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
 * SIGALRM, SIGUSR1/2, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, and the crash
 * signals unless a sanitizer owns them), remove the library's partial
 * outputs and then die by that signal as before (same exit status, same
 * core dump).
 *
 * For commands that stop at once on a signal (convert). The recorder
 * handles SIGINT itself (it saves what it has) and must not use this.
 *
 * Returns nothing.
 */
void fts_front_cleanup_on_signals(void);

#endif
