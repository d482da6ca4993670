/* SPDX-License-Identifier: MIT */
/*
 * version.h - libftscope's version: the one place it is written.
 *
 * CMakeLists.txt reads the three numbers below for the project version, the
 * shared library's SONAME (libftscope.so.FTS_VERSION_MAJOR) and ftscope.pc.
 * MAJOR changes when the ABI of the exported functions breaks.
 */
#ifndef FTS_VERSION_H
#define FTS_VERSION_H

#include "export.h"

#define FTS_VERSION_MAJOR 0
#define FTS_VERSION_MINOR 2
#define FTS_VERSION_PATCH 0

#ifdef __cplusplus
extern "C" {
#endif

/**
 * fts_version - the version of the library actually loaded
 *
 * Compare with FTS_VERSION_MAJOR/MINOR/PATCH to tell the headers a program
 * was built with from the library it runs on.
 *
 * Returns "MAJOR.MINOR.PATCH", a static string.
 */
FTS_API const char *fts_version(void);

#ifdef __cplusplus
}
#endif

#endif
