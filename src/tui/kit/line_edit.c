// SPDX-License-Identifier: MIT
/* line_edit.c - a one-line text field; see line_edit.h. */
#include <stdio.h>
#include <string.h>

#include "tui/kit/keys.h"
#include "tui/kit/line_edit.h"

void fts_edit_begin(struct fts_line_edit *e, int field, const char *initial)
{
	e->active = 1;
	e->field = field;
	snprintf(e->buf, sizeof(e->buf), "%s", initial ? initial : "");
	e->len = strlen(e->buf);
}

enum fts_edit_result fts_edit_key(struct fts_line_edit *e, int key)
{
	if (key == FTS_KEY_ENTER) {
		e->active = 0;
		return FTS_EDIT_DONE;
	}
	if (key == FTS_KEY_ESC || key == FTS_KEY_CTRL('g')) {
		e->active = 0;
		return FTS_EDIT_CANCEL;
	}
	if (key == FTS_KEY_BACKSPACE || key == 8) {
		if (e->len)
			e->buf[--e->len] = 0;
	} else if (key == FTS_KEY_CTRL('u')) {
		e->len = 0;
		e->buf[0] = 0;
	} else if (key >= 0x20 && key < 0x7f && e->len + 1 < sizeof(e->buf)) {
		e->buf[e->len++] = (char)key;
		e->buf[e->len] = 0;
	}
	return FTS_EDIT_GOING;
}
