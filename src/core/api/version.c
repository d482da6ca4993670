/* SPDX-License-Identifier: MIT */
/* fts_version: the numbers of the headers this library was built with. */
#include "ftscope/version.h"

#define FTS_STR_(x) #x
#define FTS_STR(x) FTS_STR_(x)

const char *fts_version(void)
{
	return FTS_STR(FTS_VERSION_MAJOR) "." FTS_STR(FTS_VERSION_MINOR) "." FTS_STR(FTS_VERSION_PATCH);
}
