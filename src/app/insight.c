// SPDX-License-Identifier: MIT
/* insight.c - Insight's name and path rules (contract sections 1.1 and 1.5). */
#include "app/insight.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *fts_base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int fts_insight_db_name_ok(const char *path)
{
	const char *b = fts_base_name(path), *p;

	if (strncmp(b, "ftrace_data", 11))
		return 0;
	for (p = b + 11; *p >= '0' && *p <= '9'; p++)
		;
	return !strcmp(p, ".db");
}

int fts_insight_path_ok(const char *path, char *abs, size_t abssz)
{
	char buf[4096];
	const char *p = path;

	if (path[0] != '/' && getcwd(buf, sizeof(buf) - 1)) {
		size_t n = strlen(buf);

		snprintf(buf + n, sizeof(buf) - n, "/%s", path);
		p = buf;
	}
	if (abs && abssz)
		snprintf(abs, abssz, "%s", p);
	for (const char *c = p; *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c == 0x7f || strchr("\"'%<>|&$;`\\", *c))
			return 0;
	return 1;
}
