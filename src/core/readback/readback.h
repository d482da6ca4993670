/* SPDX-License-Identifier: MIT */
/*
 * readback.h - reading an ftrace DB (ours or the reference converter's) or our
 * Chrome JSON back into lanes and rows, for the pipeline's replay and the
 * preview store. Rows come in file order, not time order.
 */
#ifndef FTS_READBACK_H
#define FTS_READBACK_H

#include <stddef.h>
#include <stdint.h>

#include "ftscope/lane.h"
#include "ftscope/sched_model.h"

/* CPU lanes "CPU 0" .. this - 1 are read; a higher number is refused (it would size per-CPU tables). */
#define FTS_RB_CPU_MAX FTS_MODEL_CPU_MAX

/* One slice as stored; the strings live only during the row() call. */
struct fts_rb_row {
	uint32_t lane;          /* dense lane id, as declared through lane() */
	enum fts_item_kind kind;/* inferred from the group, name and args */
	uint64_t ts, dur;
	const char *name;
	size_t name_len;
	const char *args;       /* JSON object text, or NULL */
	size_t args_len;
	/* @args already split as fts_args_parse would (a DB scan's other thread); NULL: not */
	const struct fts_arg *parsed;
	int nparsed;
};

struct fts_rb_ops {
	/* Each lane once, before its first row (a DB declares all first: CPU lanes by CPU). */
	int (*lane)(void *ctx, const struct fts_lane *lane, struct fts_err *err);
	int (*row)(void *ctx, const struct fts_rb_row *row, struct fts_err *err);
	/* A few times a second; non-zero cancels (the reader returns -ECANCELED). */
	int (*progress)(void *ctx, uint64_t done, uint64_t total, uint64_t rows);
	void *ctx;
	/* Optional (NULL: links are not read): each wakeup link, after every row. */
	int (*flow)(void *ctx, const struct fts_flow *f, struct fts_err *err);
};

/*
 * fts_db_readback - every lane and slice of the ftrace DB at @path, opened
 * read-only (Insight's own tables are ignored), then its wakeup links when
 * @ops->flow is set. @rows gets the slice count.
 * Returns 0, -ECANCELED, or a negative errno with @err filled.
 */
int fts_db_readback(const char *path, const struct fts_rb_ops *ops, uint64_t *rows,
		    struct fts_err *err);

/*
 * fts_db_has_summary - whether the ftrace DB at @path holds the Ftrace Task
 * Summary tables (--with_summary's), so that a conversion of it writes them
 * again. 0 also when it cannot be read: the conversion then says why.
 */
int fts_db_has_summary(const char *path);

/*
 * fts_json_readback - every lane and "X" event of a Chrome-trace JSON whose
 * events carry the string pids "CPU Scheduling" / "Process Scheduling".
 * Same contract as fts_db_readback.
 */
int fts_json_readback(const char *path, const struct fts_rb_ops *ops, uint64_t *rows,
		      struct fts_err *err);

/* One event object's text (@len bytes, not NUL-terminated); non-zero stops the scan. */
typedef int (*fts_json_event_fn)(void *ctx, const char *text, size_t len, struct fts_err *err);

/*
 * fts_json_events - stream the Chrome-trace event array at @path (a regular
 * file, never loaded whole), handing each event object to @cb. @progress (may
 * be NULL; gets @ctx, bytes done, the file size and events so far) is called
 * a few times a second; non-zero cancels. What is not an event array is
 * refused with the byte where it stops making sense. Returns 0, -ECANCELED,
 * @cb's negative return, or a negative errno with @err filled.
 */
int fts_json_events(const char *path, fts_json_event_fn cb, void *ctx,
		    int (*progress)(void *ctx, uint64_t done, uint64_t total, uint64_t events),
		    struct fts_err *err);

/*
 * fts_json_us_to_ns - Chrome-trace microseconds ("123.456", "2e3", "1.5E-2",
 * a string's or a number's text) to exact ns in @ns; what is below a ns is
 * dropped.
 * Returns 0, or -1 for anything else (negative, garbage, past year 2096).
 */
int fts_json_us_to_ns(const char *s, uint64_t *ns);

/*
 * fts_rb_kind - the item kind of a slice named @name (length @n) on a lane of
 * @group; @args (may be NULL) tells uninterruptible sleep from the rest.
 */
enum fts_item_kind fts_rb_kind(enum fts_lane_group group, const char *name, size_t n,
			       uint64_t dur, const char *args, size_t args_len);

/* The room a row's args are unescaped into: whoever splits them, the same truncation. */
#define FTS_RB_ARGS_ROOM 4096

/*
 * fts_args_parse - split a flat JSON object into key/value strings. Values
 * that are numbers keep their text; nested values are kept as raw JSON text.
 * Keys and values are unescaped into @buf (@bufsz). Returns the number of
 * pairs (at most @max), or -EINVAL when @json is not an object.
 */
int fts_args_parse(const char *json, size_t len, struct fts_arg *args, int max, char *buf,
		   size_t bufsz);

/*
 * fts_json_pick - the values of @keys (@n of them) in a JSON object, however
 * many other members it has and in whatever order; a key given twice keeps
 * its last value. Unescaped into @buf (@bufsz, at least @len + 1); @vals[i]
 * is NULL for a key that is absent. Returns 0, or -EINVAL when @json is not
 * an object.
 */
int fts_json_pick(const char *json, size_t len, const char *const *keys, int n,
		  const char **vals, char *buf, size_t bufsz);

/**
 * fts_rb_cpu_of - the CPU of a "CPU 007" lane name: -1 for another name,
 * -2 for a number at or past FTS_RB_CPU_MAX (the DB and JSON read-backs share it)
 */
int32_t fts_rb_cpu_of(const char *tid);

#endif
