/* SPDX-License-Identifier: MIT */
/*
 * sigcleanup.h - a front end stopped by a signal leaves no partial output.
 */
#ifndef FTS_SIGCLEANUP_H
#define FTS_SIGCLEANUP_H

#include <stddef.h>

/**
 * fts_front_cleanup_on_signals - on every catchable signal whose default
 * action ends the process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
 * SIGALRM, SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, and the crash
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

/*
 * fts_front_catch - install @fn for each of the @n signals @sigs with
 * @flags, every signal blocked while it runs; a signal ignored by whoever
 * started us (nohup) stays ignored. Returns nothing.
 */
void fts_front_catch(const int *sigs, size_t n, void (*fn)(int), int flags);

/*
 * fts_front_harmless_usr1 - SIGUSR1 does nothing unless a command asks for
 * it (the flight recorder's snapshot): its default would end the process,
 * and `ftscope snapshot` aimed at the wrong process (a forged pid file) must
 * not kill a recording or leave a preview's terminal raw. A handler, not
 * SIG_IGN, so programs ftscope runs get the default back at exec.
 */
void fts_front_harmless_usr1(void);

#endif
