/* SPDX-License-Identifier: MIT */
/*
 * output.h - who owns the files libftscope writes.
 *
 * Outputs are created by the running process (often root). Handing them to
 * someone else is the program's policy, not the library's: ftscope's front
 * ends give them to the user who ran sudo, because MindStudio Insight
 * refuses files owned by another user. The library only applies what it is
 * given, on the open file before it is renamed into place.
 */
#ifndef FTS_OUTPUT_H
#define FTS_OUTPUT_H

#ifdef __cplusplus
extern "C" {
#endif

/* An output's owner; all zero (the default) keeps the writer's. */
struct fts_owner {
	int set;            /* 1: give the file to @uid:@gid; 0: keep it */
	unsigned int uid;
	unsigned int gid;
};

#ifdef __cplusplus
}
#endif

#endif
