/* SPDX-License-Identifier: MIT */
/*
 * keys.h - key codes independent of curses, and the lane view's key ->
 * action table (the session screens each keep theirs as a tui/widgets/bind.h
 * table; both answer with the same FTS_RX_* reactions).
 *
 * The terminal layer turns curses keys into these codes; `--print --keys`
 * parses the same codes from a string; the view's help screen prints its table.
 */
#ifndef FTS_TUI_KEYS_H
#define FTS_TUI_KEYS_H

#include <stddef.h>

/* Printable keys are their ASCII code; these follow Unicode's range. */
enum {
	FTS_KEY_TAB = 9,
	FTS_KEY_ENTER = 10,
	FTS_KEY_ESC = 27,
	FTS_KEY_BACKSPACE = 127,
	FTS_KEY_UP = 0x110000,
	FTS_KEY_DOWN,
	FTS_KEY_LEFT,
	FTS_KEY_RIGHT,
	FTS_KEY_SLEFT,    /* shift+left: pan */
	FTS_KEY_SRIGHT,
	FTS_KEY_PGUP,
	FTS_KEY_PGDN,
	FTS_KEY_HOME,
	FTS_KEY_END,
	FTS_KEY_BTAB,     /* shift+tab */
};

#define FTS_KEY_CTRL(c) ((c) & 0x1f)

enum fts_action {
	FTS_ACT_NONE,
	FTS_ACT_QUIT,       /* back, or quit from the lanes */
	FTS_ACT_HELP,
	FTS_ACT_LEFT,
	FTS_ACT_RIGHT,
	FTS_ACT_UP,
	FTS_ACT_DOWN,
	FTS_ACT_PAN_LEFT,
	FTS_ACT_PAN_RIGHT,
	FTS_ACT_PGUP,
	FTS_ACT_PGDN,
	FTS_ACT_ZOOM_IN,
	FTS_ACT_ZOOM_OUT,
	FTS_ACT_ZOOM_FIT,
	FTS_ACT_START,
	FTS_ACT_END,
	FTS_ACT_WINDOW,
	FTS_ACT_PREV_ITEM,
	FTS_ACT_NEXT_ITEM,
	FTS_ACT_NEXT_RUN,
	FTS_ACT_PREV_RUN,
	FTS_ACT_NEXT_LOSS,  /* the next lost-events marker or no-data hole, any CPU */
	FTS_ACT_PREV_LOSS,
	FTS_ACT_PANE,       /* Tab: lanes <-> details */
	FTS_ACT_DETAILS,    /* Enter */
	FTS_ACT_SEARCH,
	FTS_ACT_NEXT_MATCH, /* n: the next task lane matching the search, as in less */
	FTS_ACT_PREV_MATCH,
	FTS_ACT_FILTER,
	FTS_ACT_PIN,
	FTS_ACT_SORT,
	FTS_ACT_MARK,
	FTS_ACT_SUMMARY,
	FTS_ACT_GAPS,       /* b: the Host Bound gaps panel (NPU idle, worst first) */
	FTS_ACT_FOLD,       /* z: fold / unfold the NPU group's HCCL and quiet stream lanes */
	FTS_ACT_REDRAW,
	FTS_ACT__COUNT
};

struct fts_bindings;

/* The lane view's key table (tui/widgets/bind.h), one entry per action in enum order. */
extern const struct fts_bindings fts_view_keys;

/**
 * fts_key_action - the action bound to @key in the lane view
 * @key: a key code
 *
 * Returns the action, FTS_ACT_NONE when unbound.
 */
enum fts_action fts_key_action(int key);

/**
 * fts_key_help - the help line of action @act
 * @act: an action
 *
 * Returns a static string ("" for FTS_ACT_NONE).
 */
const char *fts_key_help(enum fts_action act);

/**
 * fts_key_name - a printable name of @key ("q", "Up", "PgDn", "Ctrl+L")
 * @key: a key code
 * @buf: output
 * @bufsz: its size (16 is enough)
 *
 * Returns @buf.
 */
const char *fts_key_name(int key, char *buf, size_t bufsz);

/**
 * fts_keys_of - the keys bound to @act, as "h Left" (for help and hints)
 * @act: an action
 * @buf: output
 * @bufsz: its size
 *
 * Returns @buf.
 */
const char *fts_keys_of(enum fts_action act, char *buf, size_t bufsz);

/**
 * fts_keys_parse - turn a --keys string into key codes
 * @s: keys as typed; \n Enter, \t Tab, \e Esc, \\ backslash, and <Up>
 *     <Down> <Left> <Right> <S-Left> <S-Right> <PgUp> <PgDn> <Home> <End>
 *     <Enter> <Tab> <Esc> <BS> <Space> <C-x> by name
 * @out: filled with up to @max codes
 * @max: capacity
 *
 * Returns the number of keys, or -EINVAL for an unknown <name>, -E2BIG when
 * more than @max.
 */
int fts_keys_parse(const char *s, int *out, int max);

/* mouse events, as the terminal layer reports them */
enum fts_mouse {
	FTS_MOUSE_CLICK,       /* button 1 pressed at (x, y) */
	FTS_MOUSE_DRAG,        /* button 1 held, moved to (x, y) */
	FTS_MOUSE_RELEASE,
	FTS_MOUSE_WHEEL_UP,    /* zoom in at x */
	FTS_MOUSE_WHEEL_DOWN,  /* zoom out at x */
};

#endif
