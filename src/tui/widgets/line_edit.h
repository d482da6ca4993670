/* SPDX-License-Identifier: MIT */
/*
 * line_edit.h - the one-line text field the session's screens edit paths,
 * CPU lists and numbers in (printable ASCII, Backspace, Ctrl+U, Enter, Esc),
 * and Tab through a completion hook the caller may set (paths: the file
 * system's names, fts_edit_complete_path).
 */
#ifndef FTS_TUI_LINE_EDIT_H
#define FTS_TUI_LINE_EDIT_H

#include <stddef.h>

#define FTS_EDIT_MAX 4096

/*
 * A completion hook: extend @buf (NUL-terminated, @size bytes of room) in
 * place, and leave a one-line note in @hint (the candidates, "no match";
 * "" none). Returns 1 when @buf changed, else 0.
 */
typedef int (*fts_edit_complete_fn)(char *buf, size_t size, char *hint, size_t hintlen);

struct fts_line_edit {
	int active;
	int field;                 /* which field the caller is editing */
	size_t len;
	char buf[FTS_EDIT_MAX];
	fts_edit_complete_fn complete; /* Tab; NULL: Tab is ignored (fts_edit_begin clears it) */
	char hint[256];            /* what the last Tab found (untrusted bytes escaped by the grid) */
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
 * fts_edit_complete_with - let Tab complete the field being edited
 * @e: the field, after fts_edit_begin
 * @fn: the hook (NULL: none)
 */
void fts_edit_complete_with(struct fts_line_edit *e, fts_edit_complete_fn fn);

/**
 * fts_edit_complete_path - complete a path from the file system's names
 * @buf: the path typed so far (relative or absolute); extended in place
 * @size: its room
 * @hint: filled with "3 matches: a b c", "no match" or ""
 * @hintlen: its size
 *
 * The longest prefix all matching names share; a single directory gets a
 * '/'. Hidden names only when the typed part starts with '.'; names a
 * field cannot hold (bytes outside printable ASCII) are left out.
 *
 * Returns 1 when @buf changed, else 0.
 */
int fts_edit_complete_path(char *buf, size_t size, char *hint, size_t hintlen);

/**
 * fts_edit_complete_dir - fts_edit_complete_path for a directory: only
 * directories are candidates
 * @buf: as fts_edit_complete_path
 * @size: its room
 * @hint: as fts_edit_complete_path
 * @hintlen: its size
 *
 * Returns 1 when @buf changed, else 0.
 */
int fts_edit_complete_dir(char *buf, size_t size, char *hint, size_t hintlen);

/**
 * fts_edit_key - one key while editing
 * @e: the field (active)
 * @key: keys.h code
 *
 * Returns what happened; after DONE or CANCEL the field is inactive.
 */
enum fts_edit_result fts_edit_key(struct fts_line_edit *e, int key);

#endif
