// SPDX-License-Identifier: MIT
/* locale.c - UTF-8 and NO_COLOR from the environment (see locale.h). */
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "tui/kit/locale.h"

int fts_locale_utf8(void)
{
	const char *cs;

	setlocale(LC_ALL, "");
	cs = nl_langinfo(CODESET);
	return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

int fts_no_color(void)
{
	const char *e = getenv("NO_COLOR");

	return e && *e;
}
