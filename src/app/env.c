// SPDX-License-Identifier: MIT
/* env.c - the programs' environment into the library's options (see env.h). */
#include "app/env.h"
#include "core/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A numeric FTSCOPE_TEST_* variable into its hook (the hook checks the range). */
static void hook_long(const char *var, int op)
{
	const char *v = getenv(var);

	if (v && *v)
		fts__test_control(op, strtol(v, NULL, 10));
}

void fts_front_env_test_hooks(void)
{
	const char *meminfo = getenv("FTSCOPE_TEST_MEMINFO");

	hook_long("FTSCOPE_TEST_READER_DELAY_MS", FTS__TEST_READER_DELAY_MS);
	hook_long("FTSCOPE_TEST_SETUP_DELAY_MS", FTS__TEST_SETUP_DELAY_MS);
	hook_long("FTSCOPE_TEST_LOAD_PACE_MS", FTS__TEST_LOAD_PACE_MS);
	if (meminfo && *meminfo)
		fts__test_control(FTS__TEST_MEMINFO, meminfo);
}

void fts_front_env_record(struct fts_record_opts *o)
{
	const char *readers = getenv("FTSCOPE_READERS");

	/* the library refuses more than 64; the variable always clamped */
	if (readers && atoi(readers) > 0)
		o->readers = atoi(readers) > 64 ? 64 : atoi(readers);
	o->exec_path = getenv("PATH");
}

void fts_front_env_store(struct fts_store_open_opts *so, char *dir, size_t len)
{
	const char *off = getenv("FTSCOPE_NO_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (off && off[0] && strcmp(off, "0"))
		so->cache = 0;
	dir[0] = '\0';
	/* relative values are ignored, as the XDG spec says */
	if (xdg && xdg[0] == '/')
		snprintf(dir, len, "%s", xdg);
	else if (home && home[0] == '/')
		snprintf(dir, len, "%s/.cache", home);
	so->cache_dir = dir[0] ? dir : NULL;
}
