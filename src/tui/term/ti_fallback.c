// SPDX-License-Identifier: MIT
/*
 * ti_fallback.c - the static build's way to a screen where the host has no
 * terminfo entry for $TERM (ti_fallback.h). ncurses reads an entry only from
 * a file, so the built-in one is written to a fresh private directory
 * (mkdtemp, 0700) that TERMINFO names while newterm() reads it; nothing is
 * left behind.
 */
#ifdef FTS_BUILTIN_TERMINFO
#include "tui/term/ti_fallback.h"

#include <curses.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct fts_builtin_ti *pick(const char *term)
{
	const char *want = "xterm-256color";

	if (term && !strncmp(term, "linux", 5))
		want = "linux";
	else if (term && (!strncmp(term, "vt1", 3) || !strncmp(term, "vt2", 3) || !strcmp(term, "ansi")))
		want = "vt100";
	for (const struct fts_builtin_ti *t = fts_builtin_terminfo; t->name; t++)
		if (!strcmp(t->name, want))
			return t;
	return NULL;
}

static int write_entry(const char *path, const struct fts_builtin_ti *t)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, t->data, t->len) == (ssize_t)t->len;
	return close(fd) == 0 && ok ? 0 : -1;
}

void *fts_ti_fallback_newterm(const char *term, const char *tmpdir, FILE *out, FILE *in,
			      const char **used)
{
	const struct fts_builtin_ti *t = pick(term);
	char dir[512], sub[600], file[700];
	const char *old = getenv("TERMINFO");
	char *saved = old ? strdup(old) : NULL;
	SCREEN *s = NULL;

	if (!t || (old && !saved) ||
	    snprintf(dir, sizeof(dir), "%s/ftscope-terminfo.XXXXXX", tmpdir) >= (int)sizeof(dir) ||
	    !mkdtemp(dir)) {
		free(saved);
		return NULL;
	}
	snprintf(sub, sizeof(sub), "%s/%c", dir, t->name[0]);
	snprintf(file, sizeof(file), "%s/%s", sub, t->name);
	if (mkdir(sub, 0700) == 0 && write_entry(file, t) == 0 && setenv("TERMINFO", dir, 1) == 0) {
		s = newterm(t->name, out, in);
		if (saved)
			setenv("TERMINFO", saved, 1);
		else
			unsetenv("TERMINFO");
	}
	unlink(file);
	rmdir(sub);
	rmdir(dir);
	free(saved);
	if (s && used)
		*used = t->name;
	return s;
}
#endif
