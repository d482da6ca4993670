// SPDX-License-Identifier: MIT
/* tty.c - the one "is this an interactive terminal" check (see tty.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/tty.h"

int fts_tty_interactive(void)
{
	const char *term = getenv("TERM");

	return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && term && *term &&
	       strcmp(term, "dumb") != 0;
}
