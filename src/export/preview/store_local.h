/* SPDX-License-Identifier: MIT */
/*
 * store_local.h - the preview lane store's insides (src/export only).
 *
 * Per lane, columns sorted by start time: ts (8 B), dur (4 B; UINT32_MAX
 * sends the reader to a small per-lane table of long items), name id (4 B),
 * args id (4 B), kind (1 B) and, on CPU lanes only, aux (4 B: the one number
 * that makes a run slice's args unique, its total_runtime, or a switch's
 * task), all in one block per lane (struct st_lane). Args are
 * interned blobs ("key\0val\0..."): a value equal to the item's duration is
 * stored as "\1", a value "<aux><rest>" as "\2<rest>", so blobs repeat and
 * intern well. The summary is a segment tree over blocks of LEAF items.
 */
#ifndef FTS_STORE_LOCAL_H
#define FTS_STORE_LOCAL_H

#include "ftscope/preview.h"
#include "core/util/strtab.h"

#include <assert.h>

#define FTS_STORE_LEAF 32
#define FTS_STORE_SLAB_CAP 32  /* lanes of up to this many items (no aux column) live in the slab */
#define FTS_DUR_BIG UINT32_MAX
#define FTS_AUX_NONE UINT32_MAX
#define FTS_ARGS_DUR '\1'
#define FTS_ARGS_AUX '\2'
#define FTS_ARGS_LIT '\3'
#define FTS_ARGS_AUX2 '\4'  /* vruntime, kept in the lane's aux2 column */
#define FTS_ARGS_PID '\5'   /* host_pid equal to the context pid (struct st_actx) */
#define FTS_ARGS_REFC '\6'  /* the comm of the "comm:pid" the aux column names */
#define FTS_ARGS_REFP '\7'  /* its pid */
#define FTS_ARGS_LAST FTS_ARGS_REFP

/* One summary node: the items of a range of leaves, whole. 32 bytes. */
struct st_node {
	uint64_t max_end;   /* max over items of max(end, ts + 1): zero-length items count */
	uint64_t busy;      /* run slices (CPU lane) or Running (task lane), ns */
	uint64_t top_ns;    /* ns of @top inside the node (approximate above the leaves) */
	uint32_t top;       /* run name id (CPU lane) or kind (task lane); FTS_STR_NONE */
	uint16_t flags;     /* FTS_BK_* */
	uint16_t kinds;     /* FTS_KIND_BIT of every kind present */
};

static_assert(sizeof(struct st_node) == 32, "a summary node stays 32 bytes");
/* @kinds is a FTS_KIND_BIT mask and @flags the FTS_BK_* bits, both 16 bits wide */
static_assert(FTS_ITEM__COUNT <= 16, "every kind has a bit in st_node.kinds");
static_assert(FTS_BK_BLOCKED <= UINT16_MAX && FTS_BK_MIXED <= UINT16_MAX, "bucket flags fit st_node.flags");
/* a lane's kind column is one byte */
static_assert(FTS_ITEM__COUNT <= UINT8_MAX, "a kind fits st_lane.kind");

/*
 * A long item: its duration, keyed by the item's index once the lane is
 * sorted (by ingest order before), so finding it is one binary search
 * whatever the number of items sharing its start.
 */
struct st_big {
	uint64_t item, dur;
};

/*
 * What few lanes need, kept off the lane itself (issue 21 item 14: with 1 M
 * task lanes of a few items, every pointer in a lane costs 8 MB): the
 * summary of a lane longer than one leaf, its long items, a vruntime column.
 */
struct st_ext {
	struct st_node *tree;  /* 1-based heap of 2 * nleaf_pow nodes; NULL: one leaf, summed on demand */
	uint64_t nleaf_pow;    /* leaves rounded up to a power of two */
	struct st_big *big;    /* long items, by item index */
	size_t nbig, capbig;
	uint64_t *bigi;        /* while sorting only: item -> its entry in big */
	/*
	 * CPU lanes whose run slices carry a vruntime (older kernels): it is
	 * unique per slice and would make every args blob unique (52 B/item
	 * instead of 32 on a 1.3 M-item capture), so it lives in the aux2 column
	 * as an offset from aux2_base; opened at the first vruntime, FTS_AUX_NONE
	 * before.
	 */
	uint64_t aux2_base;
	int has_aux2;
	/*
	 * Ingest, CPU lanes: the last switch's "comm:pid" id. The switch out,
	 * the run slice's name and the switch in name the same task: one hash
	 * lookup for the three, not three (each a cache miss with 1 M tasks).
	 */
	uint32_t last_ref;
};

/*
 * A lane: 72 bytes, in one flat array. Its columns share one block of @cap
 * items, each column @cap long: ts (8 B), dur (4 B; FTS_DUR_BIG sends the
 * reader to the long-item table), name id, args id, on CPU lanes aux (4 B:
 * total_runtime, or a switch's task), aux2 when opened, kind (1 B). Small
 * blocks come from the store's slab (store_slab.c), not one malloc each.
 */
struct st_lane {
	struct fts_store_lane pub;  /* pub.nitems: the items so far */
	uint32_t src;               /* the producer's lane id */
	uint32_t cap;               /* items the block holds */
	void *col;                  /* the column block, NULL while empty */
	struct st_ext *x;           /* NULL: none of what st_ext holds */
};

static_assert(sizeof(struct st_lane) <= 72, "a lane stays small: 1 M of them fit in 72 MB");

/* Blocks of a size class: freed blocks wait on a list for the next lane to grow into it. */
#define ST_NCLASS 10
struct st_slab {
	char **chunk;               /* big mallocs the blocks are cut from */
	uint32_t nchunk, capchunk;
	char *cur;                  /* the rest of the last chunk */
	size_t left;
	void *freel[ST_NCLASS];     /* per class: a freed block, holding the next's address */
	size_t bytes;               /* chunks held */
	size_t free_bytes;          /* on the free lists, and chunk tails left behind */
};

static inline int st_has_aux(const struct st_lane *l)
{
	return l->pub.group == FTS_GROUP_CPU;
}

static inline int st_has_aux2(const struct st_lane *l)
{
	return l->x && l->x->has_aux2;
}

/* Bytes one item takes in a block with these columns. */
static inline size_t st_item_bytes(int aux, int aux2)
{
	return 8 + 4 + 4 + 4 + (aux ? 4 : 0) + (aux2 ? 4 : 0) + 1;
}

static inline uint64_t *st_ts(const struct st_lane *l)
{
	return (uint64_t *)l->col;
}

static inline uint32_t *st_dur(const struct st_lane *l)
{
	return (uint32_t *)(st_ts(l) + l->cap);
}

static inline uint32_t *st_name(const struct st_lane *l)
{
	return st_dur(l) + l->cap;
}

static inline uint32_t *st_args(const struct st_lane *l)
{
	return st_name(l) + l->cap;
}

/* NULL on task lanes */
static inline uint32_t *st_aux(const struct st_lane *l)
{
	return st_has_aux(l) ? st_args(l) + l->cap : NULL;
}

/* NULL until the lane's first vruntime */
static inline uint32_t *st_aux2(const struct st_lane *l)
{
	return st_has_aux2(l) ? st_args(l) + (size_t)l->cap * (1 + st_has_aux(l)) : NULL;
}

static inline uint8_t *st_kind(const struct st_lane *l)
{
	return (uint8_t *)(st_args(l) + (size_t)l->cap * (1 + st_has_aux(l) + st_has_aux2(l)));
}

struct fts_store {
	struct fts_store_info info;
	struct fts_strtab strs;     /* names, tids, comms, args blobs */
	uint32_t *by_src;           /* ingest: producer lane id -> lane index + 1 (0: none) */
	uint32_t nsrc, capsrc;
	struct st_lane *lane;       /* public order once indexed: CPU lanes by CPU, then task lanes */
	uint32_t nlanes, caplanes;
	struct st_slab slab;        /* small lanes' column blocks */
	uint32_t last_tid;          /* ingest: the last lane declared's name (a new task's switch names it next) */
	char scratch[4096];         /* the args blob being built */
	struct fts_loss loss;       /* from the CPU lanes' markers and holes (loss.h) */
	struct fts_sketch *sketch;  /* ingest: the overview a screen draws meanwhile; NULL: none */
	int indexed;
	struct st_npu *npu;         /* the profiling's cards (store_npu.c); NULL: none */
	struct st_cache *cache;     /* the store cache's entry (store_cache.c); NULL: off */
};

/* fts_sketch_begin - a load starts filling @k: reads the test pace hook (store_sketch.c). */
void fts_sketch_begin(struct fts_sketch *k);

/* fts_sketch_publish - make the working overview what fts_sketch_read copies. */
void fts_sketch_publish(struct fts_sketch *k);

/* fts_sketch_lane - a lane was declared (CPU lanes get a row while there is room). */
void fts_sketch_lane(struct fts_sketch *k, enum fts_lane_group group, int32_t cpu);

/* fts_sketch_item - an item was stored on a lane of CPU @cpu (-1: a task lane); publishes now and then. */
void fts_sketch_item(struct fts_sketch *k, int32_t cpu, enum fts_item_kind kind, uint64_t ts,
		     uint64_t dur);

/*
 * The NPU section (store_npu.c). fts_store_npu_open reads every card under
 * @dir (*@out NULL when it holds no trace_view.json: alignment only);
 * fts_store_npu_sinks gives their Host Bound sinks for the pipeline run;
 * fts_store_npu_ingest adds their lanes through the store's sink @ss after
 * the run and notes the dispatch threads; fts_store_npu_indexed moves that
 * note to the indexed lane order. Each returns 0 or a negative errno.
 */
struct st_npu;
int fts_store_npu_open(const char *dir, struct st_npu **out, struct fts_err *err);
size_t fts_store_npu_sinks(const struct st_npu *n, struct fts_sink ***sinks);
int fts_store_npu_ingest(struct fts_store *s, struct fts_sink *ss, struct st_npu *n, struct fts_err *err);
int fts_store_npu_indexed(struct fts_store *s, struct st_npu *n);
void fts_store_npu_free(struct st_npu *n);

/* A lane whose run slices are named (CPU: tasks; NPU: kernels), not a task's states. */
static inline int st_named(const struct st_lane *l)
{
	return l->pub.group != FTS_GROUP_TASK;
}

/*
 * fts_store_relayout - move @l's items into a block of @cap items with an
 * aux2 column when @aux2 (filled with FTS_AUX_NONE when new), freeing the old
 * one (store_slab.c). Returns 0 or -1 (out of memory; @l unchanged).
 */
int fts_store_relayout(struct fts_store *s, struct st_lane *l, uint64_t cap, int aux2);

/* fts_store_grow_cap - the capacity @l grows to when full (a slab class while small). */
uint64_t fts_store_grow_cap(const struct st_lane *l);

/* fts_store_block_bytes - heap @l's column block takes. */
size_t fts_store_block_bytes(const struct st_lane *l);

/* fts_store_ext - @l's st_ext, allocated zeroed when missing; NULL when out of memory. */
struct st_ext *fts_store_ext(struct st_lane *l);

/* fts_store_slab_tidy - squeeze the slab's free blocks out once loading is over (store_slab.c). */
void fts_store_slab_tidy(struct fts_store *s);

/* fts_slab_free_all - release every chunk of @sl (store_slab.c). */
void fts_slab_free_all(struct st_slab *sl);

/* fts_store_in_slab - @l's block was cut from the slab (freed with it, not alone). */
int fts_store_in_slab(const struct st_lane *l);

/*
 * fts_store_node - summary node @x of @l: from its tree, or for a lane of
 * one leaf (no tree) the root summed into @tmp (lane_index.c).
 */
const struct st_node *fts_store_node(const struct st_lane *l, uint64_t x, struct st_node *tmp);

/* fts_store_nleaf_pow - @l's leaves rounded up to a power of two (1 without a tree). */
static inline uint64_t fts_store_nleaf_pow(const struct st_lane *l)
{
	return l->x && l->x->tree ? l->x->nleaf_pow : 1;
}

/* fts_store_sink_new - a sink that fills @s (store_sink.c). */
int fts_store_sink_new(struct fts_store *s, struct fts_sink **out, struct fts_err *err);

/*
 * fts_store_index - sort every lane, build the summaries, order the lanes,
 * fill the info (lane_index.c). @progress may be NULL; non-zero cancels.
 */
int fts_store_index(struct fts_store *s, int (*progress)(void *ctx, uint64_t done, uint64_t total),
		    void *ctx, struct fts_err *err);

/* fts_store_dur - item @i's duration (the long-item table when it does not fit 32 bits). */
uint64_t fts_store_dur(const struct st_lane *l, uint64_t i);

/*
 * What an item's args are encoded against and decoded with: values equal to
 * these are kept as one-byte markers, so the blob repeats across items.
 */
struct st_actx {
	uint64_t dur;                 /* the item's duration */
	const char *pid;              /* its context pid: a task lane's own, a run slice's name's; NULL */
	int ref_c, ref_p;             /* encode: the args taken out as the aux's comm and pid; -1 */
	uint64_t aux2_base;           /* the lane's vruntime base */
	uint32_t aux, aux2;           /* decode: the item's aux columns (FTS_AUX_NONE: none) */
	const struct fts_strtab *strs; /* decode: where aux names a "comm:pid" (ref markers) */
	char pidbuf[12];              /* a task lane's pid in decimal (fts_args_ctx_lane) */
};

/* fts_args_ctx_pid - the digits after the last ':' of "comm:pid" @tid, or NULL. */
const char *fts_args_ctx_pid(const char *tid);

/*
 * fts_args_ctx_lane - set @cx's context pid to task lane pid @pid in decimal
 * (none when negative): from the lane itself, not its name's bytes, which
 * with 1 M lanes cost two cache misses an item.
 */
void fts_args_ctx_lane(struct st_actx *cx, int32_t pid);

/*
 * fts_args_ref_pick - the switch side (prev_/next_ comm and pid) to keep in
 * the aux column: its arg indexes in *@ci and *@pi. Returns 0, or -1 when
 * none (no such pair, only the idle task, or a run slice whose aux is taken).
 */
int fts_args_ref_pick(const struct fts_arg *args, int nargs, int *ci, int *pi);

/*
 * fts_args_encode - @args as a blob for interning into @buf (@bufsz) against
 * @cx; @aux / @aux2 receive the numbers taken out (FTS_AUX_NONE when none;
 * NULL when the lane has no such column). Returns the blob's length.
 */
size_t fts_args_encode(const struct fts_arg *args, int nargs, const struct st_actx *cx,
		       uint32_t *aux, uint32_t *aux2, char *buf, size_t bufsz);

/*
 * fts_args_decode - the blob @blob (@len) back into pairs with @cx; values
 * that were taken out are rebuilt into @buf. Returns the number of pairs or -ENOSPC.
 */
int fts_args_decode(const char *blob, size_t len, const struct st_actx *cx, struct fts_arg *args,
		    int max, char *buf, size_t bufsz);

/* fts_store_actx - the context item @i of @l was encoded against, for decoding (preview_store.c). */
void fts_store_actx(const struct fts_store *s, const struct st_lane *l, uint64_t i,
		    struct st_actx *cx);

/*
 * ---- what a node (lane_index.c) and a bucket (store_query.c) sum, one
 * definition for both: preview.h promises fts_store_buckets gives the same
 * answers as fts_store_bucket, and both read the nodes the index built.
 */

/* The FTS_BK_* flag an item of @kind raises (0: none of its own). */
static inline uint16_t st_kind_flag(unsigned kind)
{
	static const uint16_t flag[FTS_ITEM__COUNT] = {
		[FTS_ITEM_SWITCH] = FTS_BK_SWITCH,     [FTS_ITEM_IRQ] = FTS_BK_IRQ,
		[FTS_ITEM_SOFTIRQ] = FTS_BK_SOFTIRQ,   [FTS_ITEM_LOST] = FTS_BK_LOST,
		[FTS_ITEM_RUNNING] = FTS_BK_RUNNING,   [FTS_ITEM_RUNNABLE] = FTS_BK_RUNNABLE,
		[FTS_ITEM_SLEEPING] = FTS_BK_SLEEPING, [FTS_ITEM_BLOCKED] = FTS_BK_BLOCKED,
		[FTS_ITEM_NODATA] = FTS_BK_NODATA,
	};

	return kind < FTS_ITEM__COUNT ? flag[kind] : 0;
}

/* Item @i counts as busy time: a run slice (CPU lane) or Running (task lane). */
static inline int st_is_busy(const struct st_lane *l, uint64_t i)
{
	return st_kind(l)[i] == (st_named(l) ? FTS_ITEM_RUN : FTS_ITEM_RUNNING);
}

/* The key item @i competes under for dominant: its run name (CPU lane) or its state (task lane). */
static inline uint32_t st_top_key(const struct st_lane *l, uint64_t i)
{
	unsigned k = st_kind(l)[i];

	if (st_named(l))
		return k == FTS_ITEM_RUN ? st_name(l)[i] : FTS_STR_NONE;
	return k >= FTS_ITEM_RUNNING && k <= FTS_ITEM_BLOCKED ? k : FTS_STR_NONE;
}

#define ST_NCAND 16
static_assert(ST_NCAND >= 2, "a bucket tells one task from another");

/* Candidates for the dominant task or state, time summed by key. */
struct st_cands {
	uint32_t key[ST_NCAND];
	uint64_t ns[ST_NCAND];
	int n;
};

static inline void st_cand_add(struct st_cands *c, uint32_t key, uint64_t ns)
{
	int lo = 0;

	if (key == FTS_STR_NONE)
		return;
	for (int i = 0; i < c->n; i++) {
		if (c->key[i] == key) {
			c->ns[i] += ns;
			return;
		}
		if (c->ns[i] < c->ns[lo])
			lo = i;
	}
	if (c->n < ST_NCAND) {
		c->key[c->n] = key;
		c->ns[c->n++] = ns;
	} else if (ns > c->ns[lo]) {
		/* past ST_NCAND distinct keys the smallest is forgotten: an estimate */
		c->key[lo] = key;
		c->ns[lo] = ns;
	}
}

/* The index of the candidate with the most time (the first on ties), or -1 when none. */
static inline int st_cand_top(const struct st_cands *c)
{
	int best = -1;

	for (int i = 0; i < c->n; i++)
		if (best < 0 || c->ns[i] > c->ns[best])
			best = i;
	return best;
}

#endif
