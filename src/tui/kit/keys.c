// SPDX-License-Identifier: MIT
/*
 * keys.c - the lane view's key table (what `?` prints) and key names.
 *
 * One table: key handlers look actions up here, the help screen lists it,
 * and `--keys` names are parsed against the same names.
 */
#include "tui/kit/keys.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct fts_keydef table[] = {
	{ 'q', FTS_ACT_QUIT },         { FTS_KEY_ESC, FTS_ACT_QUIT },
	{ '?', FTS_ACT_HELP },         { 'h', FTS_ACT_LEFT },
	{ FTS_KEY_LEFT, FTS_ACT_LEFT },   { 'l', FTS_ACT_RIGHT },
	{ FTS_KEY_RIGHT, FTS_ACT_RIGHT }, { 'k', FTS_ACT_UP },
	{ FTS_KEY_UP, FTS_ACT_UP },       { 'j', FTS_ACT_DOWN },
	{ FTS_KEY_DOWN, FTS_ACT_DOWN },   { 'H', FTS_ACT_PAN_LEFT },
	{ FTS_KEY_SLEFT, FTS_ACT_PAN_LEFT }, { 'L', FTS_ACT_PAN_RIGHT },
	{ FTS_KEY_SRIGHT, FTS_ACT_PAN_RIGHT }, { FTS_KEY_PGUP, FTS_ACT_PGUP },
	{ FTS_KEY_PGDN, FTS_ACT_PGDN },   { '+', FTS_ACT_ZOOM_IN },
	{ '=', FTS_ACT_ZOOM_IN },         { '-', FTS_ACT_ZOOM_OUT },
	{ '0', FTS_ACT_ZOOM_FIT },        { 'g', FTS_ACT_START },
	{ FTS_KEY_HOME, FTS_ACT_START },  { 'G', FTS_ACT_END },
	{ FTS_KEY_END, FTS_ACT_END },     { 'w', FTS_ACT_WINDOW },
	{ '[', FTS_ACT_PREV_ITEM },       { ']', FTS_ACT_NEXT_ITEM },
	{ 'n', FTS_ACT_NEXT_RUN },        { 'N', FTS_ACT_PREV_RUN },
	{ FTS_KEY_TAB, FTS_ACT_PANE },    { FTS_KEY_BTAB, FTS_ACT_PANE },
	{ FTS_KEY_ENTER, FTS_ACT_DETAILS }, { '/', FTS_ACT_SEARCH },
	{ 'f', FTS_ACT_FILTER },          { 'p', FTS_ACT_PIN },
	{ 'o', FTS_ACT_SORT },            { 'm', FTS_ACT_MARK },
	{ 's', FTS_ACT_SUMMARY },         { FTS_KEY_CTRL('l'), FTS_ACT_REDRAW },
};

#define NKEYS (sizeof(table) / sizeof(table[0]))

static const char *const help[FTS_ACT__COUNT] = {
	[FTS_ACT_QUIT] = "back; quit from the lanes",
	[FTS_ACT_HELP] = "this help",
	[FTS_ACT_LEFT] = "cursor one column earlier",
	[FTS_ACT_RIGHT] = "cursor one column later",
	[FTS_ACT_UP] = "previous lane",
	[FTS_ACT_DOWN] = "next lane",
	[FTS_ACT_PAN_LEFT] = "pan half a screen earlier",
	[FTS_ACT_PAN_RIGHT] = "pan half a screen later",
	[FTS_ACT_PGUP] = "page up the lanes",
	[FTS_ACT_PGDN] = "page down the lanes",
	[FTS_ACT_ZOOM_IN] = "zoom in around the cursor",
	[FTS_ACT_ZOOM_OUT] = "zoom out around the cursor",
	[FTS_ACT_ZOOM_FIT] = "whole capture",
	[FTS_ACT_START] = "start of the capture",
	[FTS_ACT_END] = "end of the capture",
	[FTS_ACT_WINDOW] = "zoom to the profiling window",
	[FTS_ACT_PREV_ITEM] = "previous item on the lane",
	[FTS_ACT_NEXT_ITEM] = "next item on the lane",
	[FTS_ACT_NEXT_RUN] = "next run of the selected task",
	[FTS_ACT_PREV_RUN] = "previous run of the selected task",
	[FTS_ACT_PANE] = "switch pane (lanes / details)",
	[FTS_ACT_DETAILS] = "details of the item under the cursor",
	[FTS_ACT_SEARCH] = "search tasks by name or pid",
	[FTS_ACT_FILTER] = "show only lanes matching the search",
	[FTS_ACT_PIN] = "pin / unpin the lane to the top",
	[FTS_ACT_SORT] = "sort task lanes: running, runnable time, name, pid",
	[FTS_ACT_MARK] = "set the marker at the cursor",
	[FTS_ACT_SUMMARY] = "per-task summary table",
	[FTS_ACT_REDRAW] = "redraw the screen",
};

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
	for (size_t i = 0; i < NKEYS; i++) {
		if (table[i].key == key)
			return table[i].act;
	}
	return FTS_ACT_NONE;
}

const char *fts_key_help(enum fts_action act)
{
	if ((int)act < 0 || act >= FTS_ACT__COUNT || !help[act])
		return "";
	return help[act];
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
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < NKEYS && n + 1 < bufsz; i++) {
		char nm[16];
		int w;

		if (table[i].act != act)
			continue;
		w = snprintf(buf + n, bufsz - n, "%s%s", n ? " " : "",
			     fts_key_name(table[i].key, nm, sizeof(nm)));
		if (w < 0 || (size_t)w >= bufsz - n)
			break;
		n += (size_t)w;
	}
	return buf;
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
