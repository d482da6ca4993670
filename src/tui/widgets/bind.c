// SPDX-License-Identifier: MIT
/*
 * bind.c - a screen's key table: lookup, and the help and bottom-line texts
 * made from it, so the three can never disagree.
 */
#include <stdio.h>

#include "tui/widgets/bind.h"
#include "tui/widgets/keys.h"

int fts_bind_action(const struct fts_bindings *t, int key)
{
	for (size_t i = 0; i < t->n; i++) {
		for (int k = 0; k < FTS_BIND_KEYS && t->b[i].keys[k]; k++) {
			if (t->b[i].keys[k] == key)
				return t->b[i].act;
		}
	}
	return 0;
}

const char *fts_bind_keys(const struct fts_bindings *t, size_t i, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int k = 0; k < FTS_BIND_KEYS && t->b[i].keys[k] && n < len; k++) {
		char nm[16];
		int w = snprintf(buf + n, len - n, "%s%s", k ? " " : "",
				 fts_key_name(t->b[i].keys[k], nm, sizeof(nm)));

		if (w < 0 || (size_t)w >= len - n) {
			buf[n] = 0; /* whole names only */
			break;
		}
		n += (size_t)w;
	}
	return buf;
}

const char *fts_bind_bar(const struct fts_bindings *t, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < t->n && n < len; i++) {
		char nm[16];
		int w;

		if (!t->b[i].bar)
			continue;
		w = snprintf(buf + n, len - n, "%s%s %s", n ? "  " : "",
			     fts_key_name(t->b[i].keys[0], nm, sizeof(nm)), t->b[i].bar);
		if (w < 0 || (size_t)w >= len - n) {
			buf[n] = 0; /* whole entries only */
			break;
		}
		n += (size_t)w;
	}
	return buf;
}
