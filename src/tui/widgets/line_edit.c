// SPDX-License-Identifier: MIT
/* line_edit.c - a one-line text field; see line_edit.h. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tui/widgets/keys.h"
#include "tui/widgets/line_edit.h"

void fts_edit_begin(struct fts_line_edit *e, int field, const char *initial)
{
	e->active = 1;
	e->field = field;
	snprintf(e->buf, sizeof(e->buf), "%s", initial ? initial : "");
	e->len = strlen(e->buf);
	e->complete = NULL;
	e->hint[0] = 0;
}

void fts_edit_complete_with(struct fts_line_edit *e, fts_edit_complete_fn fn)
{
	e->complete = fn;
}

/* A name a line field can hold and show as typed. */
static int typable(const char *name)
{
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		if (*c < 0x20 || *c >= 0x7f)
			return 0;
	return 1;
}

static int complete(char *buf, size_t size, char *hint, size_t hintlen, int dirs_only)
{
	char dir[FTS_EDIT_MAX], common[256] = "", list[200] = "";
	const char *slash = strrchr(buf, '/'), *pre = slash ? slash + 1 : buf;
	size_t plen = strlen(pre), clen = 0, used = strlen(buf), ll = 0;
	struct dirent *de;
	int n = 0, isdir = 0;
	DIR *d;

	hint[0] = 0;
	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", slash == buf ? 1 : (int)(slash - buf), buf);
	else
		snprintf(dir, sizeof(dir), ".");
	d = opendir(dir);
	if (!d) {
		snprintf(hint, hintlen, "no match: cannot list %.200s", dir);
		return 0;
	}
	while ((de = readdir(d))) {
		const char *nm = de->d_name;
		struct stat st;
		size_t k;

		if (!strcmp(nm, ".") || !strcmp(nm, "..") || strncmp(nm, pre, plen) || !typable(nm) ||
		    strlen(nm) >= sizeof(common) || (nm[0] == '.' && pre[0] != '.'))
			continue;
		if (dirs_only && (fstatat(dirfd(d), nm, &st, 0) || !S_ISDIR(st.st_mode)))
			continue;
		if (!n++) {
			snprintf(common, sizeof(common), "%s", nm);
			clen = strlen(common);
			isdir = fstatat(dirfd(d), nm, &st, 0) == 0 && S_ISDIR(st.st_mode);
		} else {
			for (k = 0; k < clen && common[k] == nm[k]; k++)
				;
			clen = k;
			common[clen] = 0;
		}
		if (ll < sizeof(list) - 1)
			ll += (size_t)snprintf(list + ll, sizeof(list) - ll, " %s", nm);
	}
	closedir(d);
	if (!n) {
		snprintf(hint, hintlen, "no match");
		return 0;
	}
	if (n > 1)
		snprintf(hint, hintlen, "%d matches:%s%s", n, list, ll >= sizeof(list) - 1 ? " ..." : "");
	if (used + (clen - plen) + (n == 1 && isdir) >= size)
		return 0;
	memcpy(buf + used, common + plen, clen - plen);
	used += clen - plen;
	if (n == 1 && isdir)
		buf[used++] = '/';
	buf[used] = 0;
	return clen > plen || (n == 1 && isdir);
}

int fts_edit_complete_path(char *buf, size_t size, char *hint, size_t hintlen)
{
	return complete(buf, size, hint, hintlen, 0);
}

int fts_edit_complete_dir(char *buf, size_t size, char *hint, size_t hintlen)
{
	return complete(buf, size, hint, hintlen, 1);
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
	if (key == FTS_KEY_TAB) {
		if (e->complete && e->complete(e->buf, sizeof(e->buf), e->hint, sizeof(e->hint)))
			e->len = strlen(e->buf);
		return FTS_EDIT_GOING;
	}
	e->hint[0] = 0;
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
