// SPDX-License-Identifier: MIT
/*
 * version.c - `ftscope --version`: the version, then how this binary was
 * built (linking, C library, commit), and for the static build what it
 * leaves out (docs/static.md), so a report from a user's host says which
 * binary ran.
 */
#include "cli/commands.h"

#include <stdio.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#ifndef FTS_COMMIT
#define FTS_COMMIT "unknown"
#endif

int fts_cmd_version(void)
{
	printf("ftscope " FTS_VERSION "\n");
#ifdef FTS_STATIC_BUILD
	printf("build: static, glibc %d.%d linked in, commit " FTS_COMMIT ", %s\n", __GLIBC__,
	       __GLIBC_MINOR__, sizeof(void *) == 8 ? "64-bit" : "32-bit");
	printf("left out: libtracecmd (trace.dat v6/v7 read by ftscope's own reader; latency traces, "
	       "big-endian v7, codecs other than zstd and time-offset options are refused), "
	       "cJSON (ftscope's own JSON tree), libftscope.so\n");
#elif defined(__GLIBC__)
	printf("build: dynamic, glibc %s (built against %d.%d), commit " FTS_COMMIT "\n",
	       gnu_get_libc_version(), __GLIBC__, __GLIBC_MINOR__);
#else
	printf("build: dynamic, commit " FTS_COMMIT "\n");
#endif
	return 0;
}
