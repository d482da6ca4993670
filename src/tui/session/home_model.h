/* SPDX-License-Identifier: MIT */
/*
 * home_model.h - the captures and DBs the home screen lists: files in one
 * directory classified by content (trace.dat, kernel text, an ftrace DB, our
 * Chrome JSON), newest first. No curses.
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
};

struct fts_home_entry {
	char name[256];          /* file name inside the directory (untrusted bytes) */
	enum fts_home_kind kind;
	uint64_t size;
	time_t mtime;
	int insight_name;        /* a DB whose name Insight recognises (insight.h: ftrace_data[0-9]*.db) */
};

struct fts_home_list {
	struct fts_home_entry *e;
	int n;
	int skipped;             /* candidates that were none of the kinds (or unreadable) */
};

/**
 * fts_home_scan - list the captures and DBs in @dir
 * @dir: the directory ("." for the current one)
 * @max: at most this many entries (the newest are kept)
 * @l: filled (free with fts_home_list_free); zeroed first
 * @err: filled on error
 *
 * Candidates are regular files (symlinks are not followed) named *.dat,
 * *.txt, *.db or *.json, or starting with "trace"; each is then classified
 * by its content, never by its name. Sorted newest first.
 *
 * Returns 0, or a negative errno when @dir cannot be read.
 */
int fts_home_scan(const char *dir, int max, struct fts_home_list *l, struct fts_err *err);

/**
 * fts_home_list_free - release what fts_home_scan allocated
 * @l: the list; safe twice
 */
void fts_home_list_free(struct fts_home_list *l);

/**
 * fts_home_kind_name - "trace.dat", "text", "db" or "json"
 * @k: the kind
 *
 * Returns a static string.
 */
const char *fts_home_kind_name(enum fts_home_kind k);

#endif
