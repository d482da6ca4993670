// SPDX-License-Identifier: MIT
/*
 * cmd_tui.c - `ftscope tui` (and `ftscope` alone on a terminal): the
 * interactive session; `ftscope record --tui` enters it at the setup screen
 * with the record flags already parsed.
 */
#ifdef FTS_HAVE_TUI
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "tui/tui.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: ftscope tui\n"
"       ftscope            (no arguments, on a terminal)\n"
"       ftscope record --tui [record options]\n"
"\n"
"The interactive session: the captures and DBs in this directory, setting up\n"
"and running a recording with live per-CPU health, the preview, and a guided\n"
"export for MindStudio Insight. Every screen shows the equivalent command\n"
"line. Press ? inside for the keys.\n"
"\n"
"  -h, --help    this text ('man ftscope-tui' for more)\n"
"\n"
"Exit status: 0 quit, 1 failed, 2 not a terminal or bad arguments.\n");
}

int fts_cmd_tui(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc > 1) {
		fputs("ftscope tui: takes no arguments (ftscope record --tui pre-fills the setup)\n", stderr);
		return 2;
	}
	return fts_tui_session();
}
#endif
