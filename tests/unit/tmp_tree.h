/* SPDX-License-Identifier: MIT */
/* tmp_tree.h — a scratch directory tree for unit tests that read files from disk
 * (profiling directories, start_info files): make it, put files at relative paths
 * (parents made on the way), name paths in it, remove it. Header-only: each test is
 * its own executable. */
#ifndef FTS_TEST_TMP_TREE_H
#define FTS_TEST_TMP_TREE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Make a fresh directory /tmp/fts_unit_TAG_XXXXXX into root (64 bytes). */
static inline void tt_make(char root[64], const char *tag)
{
	snprintf(root, 64, "/tmp/fts_unit_%s_XXXXXX", tag);
	assert_non_null(mkdtemp(root));
}

/* Remove the tree under root. */
static inline void tt_remove(const char *root)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* Write text to root/rel, making rel's parent directories. */
static inline void tt_put(const char *root, const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* root/rel (root itself for ""), in a buffer reused by the next call. */
static inline const char *tt_at(const char *root, const char *rel)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s%s%s", root, rel[0] ? "/" : "", rel);
	return path;
}

#endif
