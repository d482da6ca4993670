/* SPDX-License-Identifier: MIT */
/*
 * tempfile.h - scratch files for the recorder's per-CPU streams and reserve.
 * (Final outputs go through util/outfile.h: temp + rename, no symlinks.)
 */
#ifndef FTS_TEMPFILE_H
#define FTS_TEMPFILE_H

/*
 * fts_rec_tempfile - an already-unlinked read/write file in the directory of
 * @near (so it uses that disk and vanishes with the process, even on
 * SIGKILL). Returns the fd or a negative errno.
 */
int fts_rec_tempfile(const char *near);

/*
 * fts_rec_tempfile_at - fts_rec_tempfile in the directory open as @dfd
 * (never through a path the directory's owner could swap).
 */
int fts_rec_tempfile_at(int dfd);

#endif
