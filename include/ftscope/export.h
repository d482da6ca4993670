/* SPDX-License-Identifier: MIT */
/*
 * export.h - FTS_API, the mark of an exported function.
 *
 * libftscope.so is built with -fvisibility=hidden: only declarations marked
 * FTS_API are in its dynamic symbol table, so internal names (rec_*, the
 * kit's fts__*) cannot become ABI by accident. The static library and the
 * in-tree programs see every symbol as before.
 */
#ifndef FTS_EXPORT_H
#define FTS_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define FTS_API __attribute__((visibility("default")))
#else
#define FTS_API
#endif

#endif
