/* SPDX-License-Identifier: MIT */
/*
 * outfile.h - outputs written as root: never through a symlink, never
 * half-written. Data goes to a new temp file beside the target (created with
 * O_EXCL | O_NOFOLLOW) and is renamed over the target only when complete.
 */
#ifndef FTS_OUTFILE_H
#define FTS_OUTFILE_H

#include <stdatomic.h>
#include <stdint.h>

#include "ftscope/error.h"
#include "ftscope/output.h"

struct fts_outfile {
	char target[4096];  /* as given (fts_outfile_begin_at: the name shown in messages) */
	char tmp[4096];     /* a path to the temp file (at: /proc/self/fd/<dfd>/<name>) */
	int dfd;            /* AT_FDCWD, or the directory held (fts_outfile_begin_at) */
	char name[256];     /* fts_outfile_begin_at: the target's name in @dfd */
	char tmpname[320];  /* ... and the temp file's */
	int fd;             /* open on tmp (and flock'ed) until commit/abort; -1 after */
	int slot;           /* in the signal-cleanup registry, or -1 */
	struct fts_owner owner;  /* given at begin, applied at commit */
	_Atomic uint64_t wb_from;  /* writeback started below this offset (fts_outfile_wrote) */
	/* optional: asked at commit after the fsync, before the rename; non-zero discards */
	int (*cancelled)(void *ctx);
	void *cancel_ctx;
};

/*
 * fts_outfile_begin - check @target (not a symlink, not a directory, its
 * directory exists), remove temp files of @target left by dead writers, and
 * create (and lock) the temp file, registered for fts_remove_partial_outputs.
 * @owner (NULL: keep the writer's) is who gets the file at commit.
 * Returns 0 or a negative code.
 */
int fts_outfile_begin(struct fts_outfile *o, const char *target, const struct fts_owner *owner,
		      struct fts_err *err);

/*
 * fts_outfile_begin_at - fts_outfile_begin of @name (no '/') in directory
 * descriptor @dfd (borrowed: it stays open until commit or abort): the temp
 * file, the rename and the directory sync all go through @dfd, never through
 * a path, so a directory renamed or swapped for a symlink meanwhile is not
 * written through. @shown names the target in messages.
 */
int fts_outfile_begin_at(struct fts_outfile *o, int dfd, const char *name, const char *shown,
			 const struct fts_owner *owner, struct fts_err *err);

/*
 * fts_outfile_commit - close the temp file (after fsync) and rename it over
 * the target, removing the target's stale @sidecars (e.g. "-wal", "-shm";
 * NULL-terminated, may be NULL), after handing it to the owner given at
 * begin, then fsync the directory so the rename survives a power cut.
 * On failure before the rename the temp file is removed; a failed directory
 * sync is reported, the output stays. A cancel (@o->cancelled) seen before
 * the rename removes the temp file and returns -ECANCELED.
 */
int fts_outfile_commit(struct fts_outfile *o, const char *const *sidecars, struct fts_err *err);

/* fts_outfile_wrote - the temp file holds data up to @end, appended in order: see fts_writeback_start. */
void fts_outfile_wrote(struct fts_outfile *o, uint64_t end);

/* fts_outfile_abort - close and remove the temp file; safe to call twice. */
void fts_outfile_abort(struct fts_outfile *o);

#endif
