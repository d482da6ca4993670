// SPDX-License-Identifier: MIT
/*
 * flow_pair.c - wakeup links read back, paired by id (flow_pair.h). The
 * writers put a link's two ends next to each other, but a file another tool
 * rewrote may keep the ends and not their order: any order is taken.
 */
#include "core/readback/flow_pair.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct fts_rb_pend {
	uint32_t name;           /* in names */
	uint8_t have;            /* 1: its start met, 2: its end */
	int64_t s_where, s_ts, f_where, f_ts;
};

void fts_rb_pairs_init(struct fts_rb_pairs *pr)
{
	memset(pr, 0, sizeof(*pr));
	fts_strtab_init(&pr->ids);
	fts_strtab_init(&pr->names);
}

void fts_rb_pairs_free(struct fts_rb_pairs *pr)
{
	free(pr->p);
	fts_strtab_free(&pr->ids);
	fts_strtab_free(&pr->names);
}

int fts_rb_pairs_add(struct fts_rb_pairs *pr, const char *id, size_t id_len, const char *name,
		     size_t name_len, int end, int64_t where, int64_t ts)
{
	uint32_t k = fts_strtab_intern(&pr->ids, id, id_len);
	struct fts_rb_pend *e;

	if (k == UINT32_MAX)
		return -ENOMEM;
	if (k >= pr->cap) {
		uint32_t cap = pr->cap ? pr->cap * 2 : 4096;
		struct fts_rb_pend *p = realloc(pr->p, (size_t)cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		memset(p + pr->cap, 0, (size_t)(cap - pr->cap) * sizeof(*p));
		pr->p = p;
		pr->cap = cap;
	}
	e = &pr->p[k];
	if (end) {
		e->f_where = where;
		e->f_ts = ts;
		e->have |= 2;
		return 0;
	}
	e->name = fts_strtab_intern(&pr->names, name ? name : "", name ? name_len : 0);
	if (e->name == UINT32_MAX)
		return -ENOMEM;
	e->s_where = where;
	e->s_ts = ts;
	e->have |= 1;
	return 0;
}

int fts_rb_pairs_hand(const struct fts_rb_pairs *pr, const struct fts_rb_ops *ops,
		      int (*lane_of)(const void *ctx, int64_t where, uint32_t *lane),
		      const void *lane_ctx, struct fts_err *err)
{
	uint64_t n = 0;

	for (uint32_t k = 0; k < pr->ids.n; k++) {
		const struct fts_rb_pend *e = &pr->p[k];
		struct fts_flow f = { 0 };
		int rc;

		if (e->have != 3 || e->s_ts <= 0 || e->f_ts <= 0 ||
		    lane_of(lane_ctx, e->s_where, &f.from_lane) ||
		    lane_of(lane_ctx, e->f_where, &f.to_lane))
			continue;
		f.id = ++n;
		f.name = fts_strtab_get(&pr->names, e->name);
		f.from_ts = (uint64_t)e->s_ts;
		f.to_ts = (uint64_t)e->f_ts;
		rc = ops->flow(ops->ctx, &f, err);
		if (rc)
			return rc;
	}
	return 0;
}
