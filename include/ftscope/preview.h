/* SPDX-License-Identifier: MIT */
/*
 * preview.h - the lane store behind the terminal previewer.
 *
 * Every lane's items in compact columns sorted by start time (start deltas,
 * durations, kind, interned names, args interned or fetched on demand), plus a
 * multi-resolution summary built once at load, so that any time bucket of any
 * lane is answered without walking its items (KernelShark's bins, Perfetto's
 * per-zoom summaries). The store is filled from a trace through the pipeline
 * and the sched model (exactly what `convert` would write), or read back from
 * an ftrace DB (ours or the reference converter's, whose slices overlap) or
 * our Chrome JSON. It needs no terminal: the view and the tests use it alike.
 *
 * Times are output nanoseconds, as in the DB. Budget: <= 32 bytes per item,
 * summary included.
 */
#ifndef FTS_PREVIEW_H
#define FTS_PREVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "lane.h"
#include "loss.h"
#include "pipeline.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fts_store;

/* Interned string id meaning "none" (an idle bucket, a missing name). */
#define FTS_STR_NONE UINT32_MAX

enum fts_store_source {
	FTS_SRC_TRACE_DAT,
	FTS_SRC_TRACE_TEXT,
	FTS_SRC_DB,        /* an ftrace DB: ours or the reference converter's */
	FTS_SRC_JSON,      /* our Chrome-trace JSON */
};

struct fts_store_open_opts {
	const char *path;            /* trace.dat, text, ftrace_data*.db or .json (by content) */
	/*
	 * Traces only; NULL: none. Aligns the clocks; when it holds the
	 * profiler's ASCEND_PROFILER_OUTPUT/trace_view.json (one per card), the
	 * store also gets each card's NPU lanes (FTS_GROUP_NPU: a lane per
	 * device stream, and the profiler's "Free" lane) and its Host Bound
	 * analysis (fts_store_card), and knows the dispatch threads.
	 */
	const char *profiling_data;
	const char *pid_mapping;     /* traces only; NULL: host pids */
	/*
	 * Optional: one more sink fed every lane and item while loading (e.g. the
	 * statistics sink), borrowed; the store runs its finish(), not destroy().
	 * Its finish(ok=1) runs when reading ends, before the store is indexed: a
	 * cancel during indexing does not undo it.
	 */
	struct fts_sink *extra;
	fts_stage_fn progress;       /* may be NULL; non-zero return cancels */
	void *progress_ctx;
	/* The trace.dat probe's helper (see fts_read_dat_probe); NULL: none. */
	const char *probe_helper;
	/* Optional: filled while loading, for a screen to draw (fts_sketch_read); borrowed. */
	struct fts_sketch *sketch;
	/*
	 * Non-zero: reopen from the store cache when it holds this input
	 * unchanged, and write it after a full load (docs/robustness.md: where,
	 * the key, the trust rules). Off without @cache_dir, for a load with
	 * profiling data, and with @extra (that sink sees the input's events: a
	 * load, never the cache).
	 */
	int cache;
	/*
	 * The directory the cache's own "ftscope" directory goes in (the
	 * programs pass $XDG_CACHE_HOME, else $HOME/.cache: the library reads
	 * no environment); an absolute path, else no cache.
	 */
	const char *cache_dir;
};

/*
 * The overview of a load in progress: each CPU lane's run time in equal time
 * bins over what was read so far, published every ~50 ms while loading, so
 * a screen can draw something useful long before a big capture is loaded.
 */
#define FTS_SKETCH_BINS 256
#define FTS_SKETCH_LANES 256     /* CPU lanes drawn; more are counted only */
#define FTS_SKETCH_CPU_MAX 4096  /* CPU numbers past this are counted only */

struct fts_sketch;

struct fts_sketch_snap {
	uint64_t items;              /* items stored so far (0: nothing yet) */
	uint64_t t_begin, t_end;     /* first start and last end seen so far */
	uint64_t bin_begin, bin_ns;  /* bin k covers [bin_begin + k * bin_ns, + bin_ns) */
	uint32_t ncpu_lanes, ntask_lanes; /* lanes declared so far */
	uint32_t ncpu;               /* rows of @busy in use, in the order CPUs came */
	int32_t cpu[FTS_SKETCH_LANES];
	uint64_t busy[FTS_SKETCH_LANES][FTS_SKETCH_BINS]; /* run time per bin, ns */
};

/**
 * fts_sketch_new - an empty overview to pass as fts_store_open_opts.sketch
 * @out: the sketch, owned by the caller (fts_sketch_free); NULL on error
 *
 * Returns 0 or -ENOMEM.
 */
FTS_API int fts_sketch_new(struct fts_sketch **out);

/**
 * fts_sketch_free - release a sketch (after the load that fills it has returned)
 * @k: the sketch (NULL is fine)
 */
FTS_API void fts_sketch_free(struct fts_sketch *k);

/**
 * fts_sketch_read - copy the last published overview, from any thread
 * @k: the sketch, while or after a load fills it
 * @out: filled (rows past @out->ncpu are left as they were)
 *
 * Holds the sketch's lock for one copy: the loader never waits longer.
 */
FTS_API void fts_sketch_read(struct fts_sketch *k, struct fts_sketch_snap *out);

/**
 * fts_store_open - load @o->path into a new store
 * @o: what to load
 * @out: the store, owned by the caller (fts_store_free); NULL on error
 * @err: filled on error
 *
 * Returns 0, -ECANCELED when progress asked to stop, or a negative errno.
 */
FTS_API int fts_store_open(const struct fts_store_open_opts *o, struct fts_store **out,
		   struct fts_err *err);

/**
 * fts_store_free - release a store
 * @s: the store (NULL is fine)
 */
FTS_API void fts_store_free(struct fts_store *s);

/**
 * fts_store_bytes - heap memory the store holds (columns, summaries, strings)
 * @s: the store
 *
 * For the memory budget (<= 32 bytes per item): bench/preview.sh prints it.
 *
 * Returns the number of bytes.
 */
FTS_API size_t fts_store_bytes(const struct fts_store *s);

/**
 * fts_store_cache_note - what the store cache did for this open, in one line
 * @s: the store
 *
 * "from cache", or why the cache was not used or not written ("cache
 * rejected: ..., loaded from the input"); NULL when there is nothing to
 * say (cache off, or a miss written without trouble). The cache is written
 * by a second thread: a failure to write it is known once fts_store_free
 * has run, never here.
 *
 * Returns the note, valid as long as @s.
 */
FTS_API const char *fts_store_cache_note(const struct fts_store *s);

/* What loading a capture into the store will cost, told before loading it. */
struct fts_store_estimate {
	enum fts_store_source source;
	int compressed;              /* a compressed trace.dat: items are a rough guess */
	uint64_t input_bytes;        /* the file's size */
	uint64_t items;              /* lane items expected */
	uint64_t bytes;              /* peak memory (RSS) expected, the file's mapping included */
	double seconds;              /* load time on an idle core, roughly */
};

/**
 * fts_store_estimate - what fts_store_open of @path will cost, from its size and kind
 * @path: the input (classified by content, as fts_store_open does)
 * @e: filled
 * @err: filled on error (missing, unreadable, not a capture)
 *
 * Reads only the file's head: cheap enough to run before every load. The
 * figures come from measured captures (bytes per item for each kind, the
 * store's <= 32 bytes per item plus the statistics and the reader's buffers).
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_store_estimate(const char *path, struct fts_store_estimate *e, struct fts_err *err);

/* What the status line shows. */
struct fts_store_info {
	enum fts_store_source source;
	uint64_t t_begin, t_end;     /* first start and last end over all lanes */
	int has_window;              /* a profiling window is known */
	uint64_t win_begin, win_end;
	uint64_t items;              /* items stored */
	uint64_t events;             /* events read (traces), rows read (DB/JSON) */
	uint64_t lost_events;        /* fts_loss_total(fts_store_loss()): may be a lower bound */
	uint32_t ncpu_lanes, ntask_lanes;
	double load_seconds;
};

/**
 * fts_store_info - the store's totals
 * @s: the store
 *
 * Returns the totals, valid as long as @s.
 */
FTS_API const struct fts_store_info *fts_store_info(const struct fts_store *s);

/**
 * fts_store_loss - the capture's loss, per CPU (the one model, loss.h)
 * @s: the store
 *
 * Returns the model, valid as long as @s.
 */
FTS_API const struct fts_loss *fts_store_loss(const struct fts_store *s);

struct fts_store_lane {
	enum fts_lane_group group;
	int32_t cpu;       /* CPU lanes: the CPU number; task lanes: -1 */
	int32_t pid;       /* task lanes: the pid Insight shows (container pid when mapped) */
	int32_t host_pid;  /* task lanes: the host pid when known, else -1 */
	uint32_t comm;     /* task lanes: interned comm; CPU lanes: FTS_STR_NONE */
	uint32_t tid;      /* interned lane name: "CPU 003" or "comm:pid" */
	uint64_t nitems;
	uint64_t lost;     /* CPU lanes: fts_loss_cpu_events of this CPU (loss.h) */
	uint64_t lost_marks; /* CPU lanes: drop points (some carry no count) */
};

/**
 * fts_store_nlanes - how many lanes: CPU lanes first (by CPU), then task lanes
 * @s: the store
 *
 * Returns the number of lanes.
 */
FTS_API uint32_t fts_store_nlanes(const struct fts_store *s);

/**
 * fts_store_lane - one lane's description
 * @s: the store
 * @lane: the lane, < fts_store_nlanes
 *
 * Returns the lane, valid as long as @s, or NULL when @lane is out of range.
 */
FTS_API const struct fts_store_lane *fts_store_lane(const struct fts_store *s, uint32_t lane);

/**
 * fts_store_str - an interned string
 * @s: the store
 * @id: its id
 *
 * Returns the string ("" for FTS_STR_NONE): raw bytes, escape before display.
 */
FTS_API const char *fts_store_str(const struct fts_store *s, uint32_t id);

/**
 * fts_store_ncards - how many cards of NPU data the store holds
 * @s: the store
 *
 * Returns 0 without profiling data (or without trace_view.json in it).
 */
FTS_API size_t fts_store_ncards(const struct fts_store *s);

struct fts_hostbound;

/**
 * fts_store_card - one card's Host Bound analysis (hostbound.h), finished
 * @s: the store
 * @card: < fts_store_ncards
 * @name: set to the card's name (its rank directory), may be NULL
 *
 * Returns the analysis (default threshold), valid as long as @s, or NULL
 * when @card is out of range.
 */
FTS_API const struct fts_hostbound *fts_store_card(const struct fts_store *s, size_t card,
						   const char **name);

/**
 * fts_store_dispatch_tid - whether a task lane is one of the profiler's host threads
 * @s: the store
 * @lane: the lane
 *
 * The threads of the profiler's "Python" process and of its launch flows,
 * matched to the capture's tasks as fts_hostbound_lane_tid does (through the
 * pid mapping when the store was opened with one).
 *
 * Returns the profiler's (container) tid, or -1 when @lane is not one.
 */
FTS_API int32_t fts_store_dispatch_tid(const struct fts_store *s, uint32_t lane);

/* Bucket flags: what happened inside [t0, t1), however short. */
#define FTS_BK_ANY      0x0001u  /* at least one item intersects the bucket */
#define FTS_BK_IRQ      0x0002u  /* an irq slice */
#define FTS_BK_SOFTIRQ  0x0004u  /* a softirq slice */
#define FTS_BK_LOST     0x0008u  /* a lost-events marker */
#define FTS_BK_SWITCH   0x0010u  /* a context switch */
#define FTS_BK_MIXED    0x0020u  /* CPU lane: more than one task ran in it */
#define FTS_BK_RUNNING  0x0040u  /* task lane: some Running */
#define FTS_BK_RUNNABLE 0x0080u  /* task lane: some Runnable wait */
#define FTS_BK_SLEEPING 0x0100u  /* task lane: some Sleeping (S) */
#define FTS_BK_BLOCKED  0x0200u  /* task lane: some uninterruptible sleep (D) */
#define FTS_BK_NODATA   0x0400u  /* no data: a hole after lost events (loss.h) */

/* The summary of one lane over one time bucket. */
struct fts_bucket {
	uint32_t flags;
	/*
	 * CPU lanes: the interned "comm:pid" of the task that ran most of the
	 * bucket (FTS_STR_NONE when idle covered most of it). Task lanes: the
	 * enum fts_item_kind that covered most of it (FTS_STR_NONE: nothing).
	 */
	uint32_t top;
	uint64_t top_ns;   /* time @top covered */
	uint64_t busy_ns;  /* CPU lanes: time covered by run slices; task lanes: Running time */
	uint64_t items;    /* items intersecting the bucket (may be an estimate when huge) */
};

/**
 * fts_store_bucket - summarise @lane over [@t0, @t1) without walking its items
 * @s: the store
 * @lane: the lane
 * @t0: bucket start (output ns)
 * @t1: bucket end, > @t0
 * @b: filled
 *
 * Cost O(log n) whatever the bucket's width.
 */
FTS_API void fts_store_bucket(const struct fts_store *s, uint32_t lane, uint64_t t0, uint64_t t1,
		      struct fts_bucket *b);

/**
 * fts_store_buckets - summarise @lane over @n equal buckets of [@t0, @t1) at once
 * @s: the store
 * @lane: the lane
 * @t0: start of the first bucket (output ns)
 * @t1: end of the last, with @t1 - @t0 >= @n
 * @n: how many buckets (a row of the screen)
 * @out: @n summaries; bucket k is [t0 + (t1-t0)*k/n, t0 + (t1-t0)*(k+1)/n)
 *
 * The same answers as @n calls of fts_store_bucket (the dominant task
 * may differ where fts_store_bucket itself estimates), in one walk of the
 * summary, so a frame costs about one query per row, not one per cell.
 *
 * Returns 0, -EINVAL on bad arguments, or -ENOMEM.
 */
FTS_API int fts_store_buckets(const struct fts_store *s, uint32_t lane, uint64_t t0, uint64_t t1,
		      uint32_t n, struct fts_bucket *out);

/* One stored item, decoded. */
struct fts_store_item {
	uint64_t ts, dur;
	enum fts_item_kind kind;
	uint32_t name;     /* interned item name ("comm:pid" for run slices) */
	int32_t cpu;       /* task-lane items: the CPU; CPU-lane items: the lane's CPU; -1 unknown */
};

/* Kind masks for the searches below: 1u << FTS_ITEM_xxx; 0 means every kind. */
#define FTS_KIND_BIT(k) (1u << (k))

/**
 * fts_store_item - one item, decoded
 * @s: the store
 * @lane: the lane
 * @idx: the item, 0 .. nitems-1, ordered by start time (longer first on ties)
 * @it: filled
 *
 * Returns 0 or -ERANGE.
 */
FTS_API int fts_store_item(const struct fts_store *s, uint32_t lane, uint64_t idx,
		   struct fts_store_item *it);

/**
 * fts_store_find - the item under a cursor
 * @s: the store
 * @lane: the lane
 * @t: the time (output ns)
 * @kinds: FTS_KIND_BIT mask; 0 means every kind
 *
 * The item of @lane whose kind is in @kinds that covers @t (the shortest
 * such, so an irq wins over the run slice it interrupts), else the nearest
 * one by time.
 *
 * Returns its index, or -1 when the lane has none.
 */
FTS_API int64_t fts_store_find(const struct fts_store *s, uint32_t lane, uint64_t t, uint32_t kinds);

/**
 * fts_store_step - the next or previous item of some kinds
 * @s: the store
 * @lane: the lane
 * @idx: the item to start from
 * @dir: > 0 next, < 0 previous
 * @kinds: FTS_KIND_BIT mask; 0 means every kind
 *
 * Cost O(log n), however far the next one is.
 *
 * Returns its index, or -1 when there is none.
 */
FTS_API int64_t fts_store_step(const struct fts_store *s, uint32_t lane, uint64_t idx, int dir,
		       uint32_t kinds);

/**
 * fts_store_args - the args of item @idx of @lane, as Insight would show them
 * @s: the store
 * @lane: the lane
 * @idx: the item
 * @args: filled with up to @max key/value pairs pointing into @buf or the store
 * @max: room in @args
 * @buf: scratch for values rebuilt on demand
 * @bufsz: its size (256 is plenty)
 *
 * Values are raw bytes (task names): escape before display.
 *
 * Returns the number of pairs, or a negative errno (-ERANGE, -ENOSPC).
 */
FTS_API int fts_store_args(const struct fts_store *s, uint32_t lane, uint64_t idx,
		   struct fts_arg *args, int max, char *buf, size_t bufsz);

struct fts_stats;

/**
 * fts_store_stats - the statistics of `ftscope stats` over @s's CPU and task
 * lanes, made now from the items the store holds (none kept while loading)
 * @s: the store
 * @stop: asked at the first item and every 64k after; non-zero cancels
 *        (-ECANCELED); NULL: never
 * @ctx: for @stop
 * @out: finished statistics, the caller's to fts_stats_free; NULL on error
 * @err: filled on error
 *
 * The same numbers as a collector fed while the store loaded; NPU lanes are
 * not counted. Costs one pass over the items and the collector's memory.
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_store_stats(const struct fts_store *s, int (*stop)(void *ctx), void *ctx,
			    struct fts_stats **out, struct fts_err *err);

#ifdef __cplusplus
}
#endif

#endif
