/* SPDX-License-Identifier: MIT */
/*
 * home_model.h - the captures and DBs the home screen lists: files in one
 * directory classified by content (trace.dat, kernel text and trace-cmd
 * report output, an ftrace DB, our Chrome JSON), newest first, after the
 * directories to go to. No curses.
 */
#ifndef FTS_TUI_HOME_LIST_H
#define FTS_TUI_HOME_LIST_H

#include <stdint.h>
#include <time.h>

#include <ftscope/error.h>

enum fts_home_kind {
	FTS_HOME_DAT,
	FTS_HOME_TEXT,
	FTS_HOME_DB,
	FTS_HOME_JSON,
	FTS_HOME_DIR,            /* a directory to go to ("..": the parent) */
};

struct fts_home_entry {
	char name[256];          /* file name inside the directory (untrusted bytes) */
	enum fts_home_kind kind;
	int snapshot;            /* a directory: a flight snapshot (manifest.json beside its
				    segments), opened and exported as one capture */
	uint64_t size;
	time_t mtime;
	int insight_name;        /* a DB whose name Insight recognises (insight.h: ftrace_data[0-9]*.db) */
};

struct fts_home_list {
	struct fts_home_entry *e;
	int n;
	int skipped;             /* files that were none of the kinds (or unreadable) */
	int unexamined;          /* files left unread past the examination limit */
	int ndirs;               /* of @n, the directories (first) */
};

/* At most this many files are opened to classify, per scan. */
#define FTS_HOME_EXAMINE_MAX 4000

/**
 * fts_home_scan - list the captures and DBs in @dir
 * @dir: the directory ("." for the current one)
 * @max: at most this many entries (the newest are kept)
 * @l: filled (free with fts_home_list_free); zeroed first
 * @err: filled on error
 *
 * Every regular file (symlinks are not followed) is classified by its
 * content (the head only), never by its name, up to FTS_HOME_EXAMINE_MAX
 * files. Sorted newest first.
 *
 * Returns 0, or a negative errno when @dir cannot be read.
 */
int fts_home_scan(const char *dir, int max, struct fts_home_list *l, struct fts_err *err);

/**
 * fts_home_scan_all - fts_home_scan, after the directories to go to
 * @dir: the directory
 * @max: at most this many files
 * @l: filled: "..", then the subdirectories by name (hidden ones and
 *     symlinks left out), then the files as fts_home_scan lists them
 * @err: filled on error
 *
 * Returns 0 or a negative errno.
 */
int fts_home_scan_all(const char *dir, int max, struct fts_home_list *l, struct fts_err *err);

/**
 * fts_home_find - the entry named @name
 * @l: the list
 * @name: a file name
 *
 * Returns its index, or -1.
 */
int fts_home_find(const struct fts_home_list *l, const char *name);

/**
 * fts_home_join - the path of @name inside @dir, lexically tidied
 * @dir: a directory as the screen holds it ("." the start, relative or absolute)
 * @name: an entry name, ".." included
 * @out: filled: "x" for (".", "x"), "." for ("x", ".."), "../.." for ("..", ".."),
 *       "/" for ("/a", "..")
 * @len: its size
 *
 * Lexical: "x/.." is taken as "." (the list shows no symlinked directory).
 *
 * Returns @out.
 */
const char *fts_home_join(const char *dir, const char *name, char *out, size_t len);

/**
 * fts_home_list_free - release what fts_home_scan allocated
 * @l: the list; safe twice
 */
void fts_home_list_free(struct fts_home_list *l);

/**
 * fts_home_kind_name - "trace.dat", "text", "db", "json" or "dir"
 * @k: the kind
 *
 * Returns a static string.
 */
const char *fts_home_kind_name(enum fts_home_kind k);

#endif
