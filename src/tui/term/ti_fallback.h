/* SPDX-License-Identifier: MIT */
/*
 * ti_fallback.h - built-in terminfo entries for the static build (private
 * to tui/term; cmake/terminfo.cmake generates the table, docs/static.md).
 */
#ifndef FTS_TI_FALLBACK_H
#define FTS_TI_FALLBACK_H

#include <stddef.h>
#include <stdio.h>

struct fts_builtin_ti {
	const char *name;              /* terminfo name, e.g. "xterm-256color" */
	const unsigned char *data;     /* the compiled entry */
	size_t len;
};

/* The entries, ended by one with a NULL name. */
extern const struct fts_builtin_ti fts_builtin_terminfo[];

/*
 * fts_ti_fallback_newterm - newterm() on the built-in entry closest to @term
 * (linux, vt100, else xterm-256color), for a host with no terminfo entry for
 * it: the entry is written to a private directory under @tmpdir, named in
 * TERMINFO for the call only, and removed again. The screen, or NULL.
 */
void *fts_ti_fallback_newterm(const char *term, const char *tmpdir, FILE *out, FILE *in,
			      const char **used);

#endif
