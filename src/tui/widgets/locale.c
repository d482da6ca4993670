// SPDX-License-Identifier: MIT
/* locale.c - UTF-8 and NO_COLOR from the environment (see locale.h). */
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "tui/widgets/locale.h"

#ifdef FTS_STATIC_BUILD
/* The locale the environment names (LC_ALL, then LC_CTYPE, then LANG). */
static const char *env_locale(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return v;
	}
	return "";
}
#endif

int fts_locale_utf8(void)
{
	const char *cs;

	if (!setlocale(LC_ALL, "")) {
#ifdef FTS_STATIC_BUILD
		/*
		 * The static binary loads locales from the host's files, which a
		 * minimal host or a glibc of another version may not give it; a
		 * UTF-8 locale it cannot load still means a UTF-8 terminal, and
		 * glibc's C.UTF-8 is built in.
		 */
		const char *want = env_locale();

		if (strstr(want, "UTF-8") || strstr(want, "utf8") || strstr(want, "UTF8"))
			setlocale(LC_CTYPE, "C.UTF-8");
#endif
	}
	cs = nl_langinfo(CODESET);
	return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

int fts_no_color(void)
{
	const char *e = getenv("NO_COLOR");

	return e && *e;
}
