// SPDX-License-Identifier: MIT
/*
 * keys.c - the lane view's key table (what `?` prints) and key names.
 *
 * One table, a tui/widgets/bind.h table as every session screen's: key handlers
 * look actions up here, the help screen lists it, and `--keys` names are
 * parsed against the same names.
 */
#include "tui/widgets/bind.h"
#include "tui/widgets/keys.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* In action order: the view's help lists them so. */
static const struct fts_bind table[] = {
	{ FTS_ACT_QUIT, { 'q', FTS_KEY_ESC }, NULL, "back; quit from the lanes" },
	{ FTS_ACT_HELP, { '?' }, NULL, "this help" },
	{ FTS_ACT_LEFT, { 'h', FTS_KEY_LEFT }, NULL, "cursor one column earlier" },
	{ FTS_ACT_RIGHT, { 'l', FTS_KEY_RIGHT }, NULL, "cursor one column later" },
	{ FTS_ACT_UP, { 'k', FTS_KEY_UP }, NULL, "previous lane" },
	{ FTS_ACT_DOWN, { 'j', FTS_KEY_DOWN }, NULL, "next lane" },
	{ FTS_ACT_PAN_LEFT, { 'H', FTS_KEY_SLEFT }, NULL, "pan half a screen earlier" },
	{ FTS_ACT_PAN_RIGHT, { 'L', FTS_KEY_SRIGHT }, NULL, "pan half a screen later" },
	{ FTS_ACT_PGUP, { FTS_KEY_PGUP }, NULL, "page up the lanes" },
	{ FTS_ACT_PGDN, { FTS_KEY_PGDN }, NULL, "page down the lanes" },
	{ FTS_ACT_ZOOM_IN, { '+', '=' }, NULL, "zoom in around the cursor" },
	{ FTS_ACT_ZOOM_OUT, { '-' }, NULL, "zoom out around the cursor" },
	{ FTS_ACT_ZOOM_FIT, { '0' }, NULL, "whole capture" },
	{ FTS_ACT_START, { 'g', FTS_KEY_HOME }, NULL, "start of the capture" },
	{ FTS_ACT_END, { 'G', FTS_KEY_END }, NULL, "end of the capture" },
	{ FTS_ACT_WINDOW, { 'w' }, NULL, "zoom to the profiling window" },
	{ FTS_ACT_PREV_ITEM, { '[' }, NULL, "previous item on the lane" },
	{ FTS_ACT_NEXT_ITEM, { ']' }, NULL, "next item on the lane" },
	{ FTS_ACT_NEXT_RUN, { 'r' }, NULL, "next run of the selected task" },
	{ FTS_ACT_PREV_RUN, { 'R' }, NULL, "previous run of the selected task" },
	{ FTS_ACT_NEXT_LOSS, { 'x' }, NULL, "next loss: lost events (!) or no data (?), any CPU" },
	{ FTS_ACT_PREV_LOSS, { 'X' }, NULL, "previous loss" },
	{ FTS_ACT_PANE, { FTS_KEY_TAB, FTS_KEY_BTAB }, NULL, "switch pane (lanes / details)" },
	{ FTS_ACT_DETAILS, { FTS_KEY_ENTER }, NULL, "details of the item under the cursor" },
	{ FTS_ACT_SEARCH, { '/' }, NULL, "search tasks by name or pid" },
	{ FTS_ACT_NEXT_MATCH, { 'n' }, NULL, "next task matching the search (wraps)" },
	{ FTS_ACT_PREV_MATCH, { 'N' }, NULL, "previous task matching the search (wraps)" },
	{ FTS_ACT_FILTER, { 'f' }, NULL, "show only lanes matching the search" },
	{ FTS_ACT_PIN, { 'p' }, NULL, "pin / unpin the lane to the top" },
	{ FTS_ACT_SORT, { 'o' }, NULL, "sort task lanes: running, runnable time, name, pid" },
	{ FTS_ACT_MARK, { 'm' }, NULL, "set the marker at the cursor" },
	{ FTS_ACT_SUMMARY, { 's' }, NULL, "per-task summary table" },
	{ FTS_ACT_GAPS, { 'b' }, NULL, "NPU idle gaps, worst first (Host Bound; --profiling_data)" },
	{ FTS_ACT_FOLD, { 'z' }, NULL, "fold / unfold the NPU group's HCCL and quietest stream lanes" },
	{ FTS_ACT_REDRAW, { FTS_KEY_CTRL('l') }, NULL, "redraw the screen" },
};

const struct fts_bindings fts_view_keys = FTS_BINDINGS(table);

static const struct {
	const char *name;
	int key;
} names[] = {
	{ "Up", FTS_KEY_UP },       { "Down", FTS_KEY_DOWN },     { "Left", FTS_KEY_LEFT },
	{ "Right", FTS_KEY_RIGHT }, { "S-Left", FTS_KEY_SLEFT },  { "S-Right", FTS_KEY_SRIGHT },
	{ "PgUp", FTS_KEY_PGUP },   { "PgDn", FTS_KEY_PGDN },     { "Home", FTS_KEY_HOME },
	{ "End", FTS_KEY_END },     { "Enter", FTS_KEY_ENTER },   { "Tab", FTS_KEY_TAB },
	{ "S-Tab", FTS_KEY_BTAB },  { "Esc", FTS_KEY_ESC },       { "BS", FTS_KEY_BACKSPACE },
	{ "Space", ' ' },
};

#define NNAMES (sizeof(names) / sizeof(names[0]))

enum fts_action fts_key_action(int key)
{
	return (enum fts_action)fts_bind_action(&fts_view_keys, key);
}

/* The table's entry of @act, or -1. */
static int entry_of(enum fts_action act)
{
	for (size_t i = 0; i < fts_view_keys.n; i++) {
		if (table[i].act == (int)act)
			return (int)i;
	}
	return -1;
}

const char *fts_key_help(enum fts_action act)
{
	int i = entry_of(act);

	return i < 0 ? "" : table[i].help;
}

const char *fts_key_name(int key, char *buf, size_t bufsz)
{
	for (size_t i = 0; i < NNAMES; i++) {
		if (names[i].key == key && key != ' ') {
			snprintf(buf, bufsz, "%s", names[i].name);
			return buf;
		}
	}
	if (key > 0 && key < 0x20)
		snprintf(buf, bufsz, "Ctrl+%c", key + 0x60);
	else if (key > 0x20 && key < 0x7f)
		snprintf(buf, bufsz, "%c", key);
	else if (key == ' ')
		snprintf(buf, bufsz, "Space");
	else
		snprintf(buf, bufsz, "#%x", (unsigned)key);
	return buf;
}

const char *fts_keys_of(enum fts_action act, char *buf, size_t bufsz)
{
	int i = entry_of(act);

	if (i < 0) {
		buf[0] = 0;
		return buf;
	}
	return fts_bind_keys(&fts_view_keys, (size_t)i, buf, bufsz);
}

/* A <Name> at @s (after '<'); returns the key and sets *len, or -1. */
static int named_key(const char *s, size_t *len)
{
	const char *end = strchr(s, '>');
	size_t n;

	if (!end)
		return -1;
	n = (size_t)(end - s);
	*len = n + 1;
	if (n == 3 && s[0] == 'C' && s[1] == '-' && s[2] >= 'a' && s[2] <= 'z')
		return FTS_KEY_CTRL(s[2]);
	for (size_t i = 0; i < NNAMES; i++) {
		if (strlen(names[i].name) == n && !strncmp(names[i].name, s, n))
			return names[i].key;
	}
	return -1;
}

int fts_keys_parse(const char *s, int *out, int max)
{
	int n = 0;

	while (*s) {
		int key;

		if (*s == '\\' && s[1]) {
			switch (s[1]) {
			case 'n': key = FTS_KEY_ENTER; break;
			case 't': key = FTS_KEY_TAB; break;
			case 'e': key = FTS_KEY_ESC; break;
			case '\\': key = '\\'; break;
			case '<': key = '<'; break;
			default: return -EINVAL;
			}
			s += 2;
		} else if (*s == '<' && s[1] && s[1] != '>') {
			size_t len;

			key = named_key(s + 1, &len);
			if (key < 0)
				return -EINVAL;
			s += 1 + len;
		} else {
			key = (unsigned char)*s++;
		}
		if (n >= max)
			return -E2BIG;
		out[n++] = key;
	}
	return n;
}
