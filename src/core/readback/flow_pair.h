/* SPDX-License-Identifier: MIT */
/*
 * flow_pair.h - wakeup links read back: each link's start and end, met in
 * any order, paired by their id, then handed over renumbered (the DB's flow
 * rows, db_flows.c; the JSON's "s"/"f" events, json_read.c).
 */
#ifndef FTS_RB_FLOW_PAIR_H
#define FTS_RB_FLOW_PAIR_H

#include <stddef.h>
#include <stdint.h>

#include "core/readback/readback.h"
#include "core/util/strtab.h"

struct fts_rb_pend;

struct fts_rb_pairs {
	struct fts_strtab ids, names;
	struct fts_rb_pend *p;     /* by id in @ids */
	uint32_t cap;
};

/* fts_rb_pairs_init - none yet. */
void fts_rb_pairs_init(struct fts_rb_pairs *pr);

/* fts_rb_pairs_free - release everything. */
void fts_rb_pairs_free(struct fts_rb_pairs *pr);

/*
 * fts_rb_pairs_add - one end of link @id (@id_len bytes): its start (@end 0,
 * which gives the link its @name) or its end, on @where (a track or a lane,
 * as the reader knows it) at @ts. A second start or end replaces the first.
 * Returns 0 or -ENOMEM.
 */
int fts_rb_pairs_add(struct fts_rb_pairs *pr, const char *id, size_t id_len, const char *name,
		     size_t name_len, int end, int64_t where, int64_t ts);

/*
 * fts_rb_pairs_hand - every link with both ends to @ops->flow, numbered from
 * 1 in the order each was first met; @lane_of maps a @where to its lane (0)
 * or says it is no scheduling lane (-1): a link with such an end, one end
 * only, or a time Insight would wrap is left out, as such a slice is.
 * Returns 0 or ops->flow's non-zero return.
 */
int fts_rb_pairs_hand(const struct fts_rb_pairs *pr, const struct fts_rb_ops *ops,
		      int (*lane_of)(const void *ctx, int64_t where, uint32_t *lane),
		      const void *lane_ctx, struct fts_err *err);

#endif
