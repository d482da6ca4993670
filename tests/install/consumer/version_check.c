/* SPDX-License-Identifier: MIT */
/*
 * version_check - a program built against an installed libftscope: the
 * library it runs on must be the one its headers describe.
 */
#include <ftscope/version.h>

#include <stdio.h>
#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)

int main(void)
{
	const char *want = STR(FTS_VERSION_MAJOR) "." STR(FTS_VERSION_MINOR) "." STR(FTS_VERSION_PATCH);

	printf("%s\n", fts_version());
	return strcmp(fts_version(), want) == 0 ? 0 : 1;
}
