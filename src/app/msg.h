/* SPDX-License-Identifier: MIT */
/*
 * msg.h - the one path from the command line to the terminal.
 *
 * Messages carry file names, option values and task names that anyone on
 * the box may have chosen, so every message is formatted first and then
 * written through term_safe's escaper as a whole: a caller cannot forget to
 * escape one argument. Each call writes exactly one line (the newline is
 * added here; a newline inside the text is escaped like any control byte).
 * The trace libraries' own log output is switched off instead (main calls
 * fts_set_loglevel(FTS_LOG_NONE)): their errors reach us through the
 * library's struct fts_err, and their raw text never reaches the terminal.
 */
#ifndef FTS_MSG_H
#define FTS_MSG_H

#include <stdio.h>

/**
 * fts_msg_err - print "ftscope <cmd>: <message>" on stderr, escaped.
 * @cmd: subcommand name, or NULL for plain "ftscope: "
 * @fmt: printf format; the formatted text is escaped as a whole
 *
 * Returns nothing.
 */
void fts_msg_err(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * fts_msg_warn - print "ftscope <cmd>: warning: <message>" on stderr, escaped.
 * @cmd: subcommand name, or NULL
 * @fmt: printf format
 *
 * Returns nothing.
 */
void fts_msg_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * fts_msg_line - print one escaped line (no prefix) on @f.
 * @f: stdout or stderr
 * @fmt: printf format
 *
 * Returns nothing.
 */
void fts_msg_line(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
