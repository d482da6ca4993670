/* SPDX-License-Identifier: MIT */
/*
 * bind.h - what a key handler asks of the loop (one reaction set for every
 * screen, the lane view included) and the per-screen key table that maps
 * keys to a screen's actions and also makes its help overlay and its bottom
 * line (htop's Htop_Reaction and Action_setBindings). A key is written once.
 */
#ifndef FTS_TUI_BIND_H
#define FTS_TUI_BIND_H

#include <stddef.h>

/* Reactions: handlers return an OR of these instead of drawing. */
enum fts_reaction {
	FTS_RX_NONE = 0,
	FTS_RX_REDRAW = 1u << 0,   /* draw again */
	FTS_RX_QUIT = 1u << 1,     /* leave: the session ends (exit 0), or the view closes */
	FTS_RX_CLEAR = 1u << 2,    /* repaint the whole terminal (Ctrl+L, a new screen) */
	FTS_RX_GOTO = 1u << 3,     /* switch to the session's next screen */
	FTS_RX_PREVIEW = 1u << 4,  /* open the session's preview path, then come back */
};

#define FTS_BIND_KEYS 4

/* One action of a screen: its keys, its bottom-line word and its help line. */
struct fts_bind {
	int act;                   /* the screen's own action number (> 0) */
	int keys[FTS_BIND_KEYS];   /* keys.h codes, 0-terminated when fewer */
	const char *bar;           /* word on the bottom line, NULL: help only */
	const char *help;          /* the help overlay's text */
};

/* A screen's table: @n entries, looked up in order (the first match wins). */
struct fts_bindings {
	const struct fts_bind *b;
	size_t n;
};

#define FTS_BINDINGS(tab) { (tab), sizeof(tab) / sizeof((tab)[0]) }

/**
 * fts_bind_action - the action bound to @key
 * @t: the screen's table
 * @key: a keys.h code
 *
 * Returns the action, or 0 when @key is not bound.
 */
int fts_bind_action(const struct fts_bindings *t, int key);

/**
 * fts_bind_keys - the names of entry @i's keys, as "Enter o"
 * @t: the table
 * @i: entry index
 * @buf: output
 * @len: its size
 *
 * Returns @buf.
 */
const char *fts_bind_keys(const struct fts_bindings *t, size_t i, char *buf, size_t len);

/**
 * fts_bind_bar - the bottom line: "KEY word" for each entry with a bar word
 * @t: the table
 * @buf: output ("r record  Enter open  q quit")
 * @len: its size
 *
 * Each entry shows its first key only; entries that do not fit in @len are
 * left out whole. Returns @buf.
 */
const char *fts_bind_bar(const struct fts_bindings *t, char *buf, size_t len);

#endif
