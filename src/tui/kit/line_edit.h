/* SPDX-License-Identifier: MIT */
/*
 * line_edit.h - the one-line text field the session's screens edit paths,
 * CPU lists and numbers in (printable ASCII, Backspace, Ctrl+U, Enter, Esc).
 */
#ifndef FTS_TUI_LINE_EDIT_H
#define FTS_TUI_LINE_EDIT_H

#include <stddef.h>

#define FTS_EDIT_MAX 4096

struct fts_line_edit {
	int active;
	int field;                 /* which field the caller is editing */
	size_t len;
	char buf[FTS_EDIT_MAX];
};

enum fts_edit_result {
	FTS_EDIT_GOING,            /* key taken, still editing */
	FTS_EDIT_DONE,             /* Enter: buf holds the value */
	FTS_EDIT_CANCEL,           /* Esc: the old value stays */
};

/**
 * fts_edit_begin - start editing @field from @initial
 * @e: the field
 * @field: the caller's field id
 * @initial: the current value (truncated to FTS_EDIT_MAX - 1 bytes)
 */
void fts_edit_begin(struct fts_line_edit *e, int field, const char *initial);

/**
 * fts_edit_key - one key while editing
 * @e: the field (active)
 * @key: keys.h code
 *
 * Returns what happened; after DONE or CANCEL the field is inactive.
 */
enum fts_edit_result fts_edit_key(struct fts_line_edit *e, int key);

#endif
