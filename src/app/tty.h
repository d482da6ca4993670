/* SPDX-License-Identifier: MIT */
/*
 * tty.h - whether a full-screen interface can run here: one check for both
 * front ends (the CLI picks the session with it, the TUI refuses without it).
 */
#ifndef FTS_FRONT_TTY_H
#define FTS_FRONT_TTY_H

/**
 * fts_tty_interactive - whether stdin and stdout are a terminal and TERM is set and not "dumb"
 *
 * Whether TERM names a terminal terminfo knows is the TUI's question
 * (newterm); this is only the cheap test before it.
 *
 * Returns 1 or 0.
 */
int fts_tty_interactive(void);

#endif
