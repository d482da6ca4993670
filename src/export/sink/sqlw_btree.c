// SPDX-License-Identifier: MIT
/*
 * sqlw_btree.c - bottom-up b-tree packing in SQLite's page format.
 *
 * Leaves fill one after the other. A table's interior cells are (left
 * child, its largest rowid); an index's interior cells are real entries:
 * the entry that does not fit a full leaf becomes the divider between it
 * and the next leaf (it is stored nowhere else). Two cases would leave a
 * node SQLite does not write (an interior page with no cell, an empty last
 * leaf), so a full leaf is held back until the next one has an entry, and a
 * level's last node borrows a cell from the node before it when it would
 * have none. The first leaf is held too: when it stays the only one, it is
 * the root.
 *
 * Page layout: header (8 bytes for a leaf, 12 for an interior page), the
 * cell pointer array, free space, then the cells packed from the end of the
 * page; no freeblocks, no fragments. A cell shorter than 4 bytes takes 4,
 * as SQLite counts it.
 */
#include "export/sink/sqlw_btree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/util/buf.h"
#include "export/sink/sqlw_record.h"

enum {
	PAGE_INDEX_INTERIOR = 0x02,
	PAGE_TABLE_INTERIOR = 0x05,
	PAGE_INDEX_LEAF = 0x0a,
	PAGE_TABLE_LEAF = 0x0d,
};

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static size_t cell_room(size_t len)
{
	return len < 4 ? 4 : len;
}

/* Payload bytes kept on the page for a payload of @p bytes (the formulas of fileformat2). */
static size_t local_size(uint32_t u, int index, size_t p)
{
	size_t x = index ? ((size_t)(u - 12) * 64 / 255) - 23 : u - 35;
	size_t m = ((size_t)(u - 12) * 32 / 255) - 23, k;

	if (p <= x)
		return p;
	k = m + (p - m) % (u - 4);
	return k <= x ? k : m;
}

static void node_reset(struct fts_sqlw_node *nd, uint32_t ps)
{
	nd->top = ps;
	nd->last_len = 0;
	nd->n = 0;
}

static int node_init(struct fts_sqlw_node *nd, uint32_t ps)
{
	nd->buf = malloc(ps);
	nd->off = malloc(sizeof(*nd->off) * (ps / 4 + 1));
	node_reset(nd, ps);
	return nd->buf && nd->off ? 0 : -ENOMEM;
}

static void node_free(struct fts_sqlw_node *nd)
{
	free(nd->buf);
	free(nd->off);
}

/* Would a cell of @len bytes still fit on a page with header @hdr? */
static int node_fits(const struct fts_sqlw_node *nd, size_t hdr, size_t len)
{
	return hdr + 2 * ((size_t)nd->n + 1) + cell_room(len) <= nd->top;
}

/*
 * Take room for a cell of @len bytes below the node's lowest cell; returns
 * where to write it. The cells go straight into the page, so writing the
 * page copies nothing (a short cell's padding is zeroed here).
 */
static uint8_t *node_place(struct fts_sqlw_node *nd, size_t len)
{
	size_t room = cell_room(len);

	nd->top -= (uint32_t)room;
	nd->off[nd->n++] = nd->top;
	nd->last_len = (uint32_t)len;
	if (room > len)
		memset(nd->buf + nd->top + len, 0, room - len);
	return nd->buf + nd->top;
}

static void node_add(struct fts_sqlw_node *nd, const uint8_t *prefix, size_t plen,
		     const uint8_t *cell, size_t len)
{
	uint8_t *p = node_place(nd, plen + len);

	if (plen)
		memcpy(p, prefix, plen);
	memcpy(p + plen, cell, len);
}

/*
 * Finish @nd's page as a page of @type (header, cell pointers, the free
 * space zeroed: the cells are already in place) and write it as page @pgno.
 */
static int node_write(struct fts_sqlw_tree *t, struct fts_sqlw_node *nd, uint8_t type,
		      uint32_t right, uint32_t pgno)
{
	size_t hdr = type == PAGE_INDEX_INTERIOR || type == PAGE_TABLE_INTERIOR ? 12 : 8;
	size_t ptrs = hdr + 2 * (size_t)nd->n;
	uint8_t *pg = nd->buf;

	pg[0] = type;
	pg[1] = pg[2] = 0;
	put16(pg + 3, (uint32_t)nd->n);
	put16(pg + 5, nd->top == 65536 ? 0 : nd->top);
	pg[7] = 0;
	if (hdr == 12)
		fts_sqlw_put32(pg + 8, right);
	for (int i = 0; i < nd->n; i++)
		put16(pg + hdr + 2 * (size_t)i, nd->off[i]);
	memset(pg + ptrs, 0, nd->top - ptrs);
	return fts_sqlw_file_write(t->f, pgno, pg);
}

static int seq_push(struct fts_sqlw_seq *s, uint32_t child, const uint8_t *div, size_t len)
{
	if (fts_grow((void **)&s->e, &s->cap, s->n + 1, sizeof(*s->e), 64))
		return -ENOMEM;
	if (s->blen + len > s->bcap) {
		size_t cap = s->bcap ? 2 * s->bcap : 4096;
		uint8_t *b;

		while (cap < s->blen + len)
			cap *= 2;
		b = realloc(s->b, cap);
		if (!b)
			return -ENOMEM;
		s->b = b;
		s->bcap = cap;
	}
	s->e[s->n].child = child;
	s->e[s->n].len = (uint32_t)len;
	s->e[s->n].off = s->blen;
	s->n++;
	if (len)
		memcpy(s->b + s->blen, div, len);
	s->blen += len;
	return 0;
}

static void seq_free(struct fts_sqlw_seq *s)
{
	free(s->e);
	free(s->b);
	memset(s, 0, sizeof(*s));
}

/* Write the overflow part @d (@n bytes) as a chain; *@first gets its first page. */
static int write_overflow(struct fts_sqlw_tree *t, const uint8_t *d, size_t n, uint32_t *first)
{
	size_t per = t->f->page_size - 4;
	uint32_t cnt = (uint32_t)((n + per - 1) / per), pg = fts_sqlw_file_alloc(t->f, cnt);

	*first = pg;
	for (uint32_t i = 0; i < cnt; i++, d += per, n -= per) {
		size_t take = n < per ? n : per;
		uint32_t next = i + 1 < cnt ? fts_sqlw_file_next(t->f, pg) : 0;
		int rc;

		memset(t->page, 0, t->f->page_size);
		fts_sqlw_put32(t->page, next);
		memcpy(t->page + 4, d, take);
		if ((rc = fts_sqlw_file_write(t->f, pg, t->page)))
			return rc;
		if (take < per)
			break;
		pg = next;
	}
	return 0;
}

/* A leaf cell's length for a payload of @n bytes (a table's with @rowid); its local part in *@local. */
static size_t cell_len(const struct fts_sqlw_tree *t, int64_t rowid, size_t n, size_t *local)
{
	*local = local_size(t->f->page_size, t->index, n);
	return (size_t)fts_sqlw_varint_len(n) + (t->index ? 0 : (size_t)fts_sqlw_varint_len((uint64_t)rowid)) +
	       *local + (*local < n ? 4 : 0);
}

/* Write the leaf cell for @rec at @p; @first is its overflow chain's first page, if it has one. */
static void cell_put(const struct fts_sqlw_tree *t, uint8_t *p, int64_t rowid, const uint8_t *rec,
		     size_t n, size_t local, uint32_t first)
{
	p += fts_sqlw_varint_put(p, n);
	if (!t->index)
		p += fts_sqlw_varint_put(p, (uint64_t)rowid);
	memcpy(p, rec, local);
	if (local < n)
		fts_sqlw_put32(p + local, first);
}

/* Write @rec's overflow part, if any (before its leaf is allocated, as SQLite numbers pages). */
static int cell_overflow(struct fts_sqlw_tree *t, const uint8_t *rec, size_t n, size_t local,
			 uint32_t *first)
{
	*first = 0;
	return local < n ? write_overflow(t, rec + local, n - local, first) : 0;
}

int fts_sqlw_tree_init(struct fts_sqlw_tree *t, struct fts_sqlw_file *f, int index, uint32_t root)
{
	uint32_t ps = f->page_size;

	memset(t, 0, sizeof(*t));
	t->f = f;
	t->index = index;
	t->root = root;
	t->pending = malloc(ps + 32);
	t->page = malloc(ps);
	if (node_init(&t->cur, ps) || node_init(&t->held, ps) || !t->pending ||
	    !t->page) {
		fts_sqlw_tree_free(t);
		return -ENOMEM;
	}
	return 0;
}

void fts_sqlw_tree_free(struct fts_sqlw_tree *t)
{
	node_free(&t->cur);
	node_free(&t->held);
	free(t->pending);
	free(t->page);
	seq_free(&t->seq);
	t->pending = t->page = NULL;
	t->cur.buf = t->held.buf = NULL;
	t->cur.off = t->held.off = NULL;
}

static void node_swap(struct fts_sqlw_node *a, struct fts_sqlw_node *b)
{
	struct fts_sqlw_node x = *a;

	*a = *b;
	*b = x;
}

/* Write a table leaf and note it (with its largest rowid) for the level above. */
static int table_leaf_out(struct fts_sqlw_tree *t, struct fts_sqlw_node *nd)
{
	uint8_t key[FTS_SQLW_VARINT_MAX];
	uint32_t pg = fts_sqlw_file_alloc(t->f, 1);
	int rc = node_write(t, nd, PAGE_TABLE_LEAF, 0, pg);

	return rc ? rc : seq_push(&t->seq, pg, key, (size_t)fts_sqlw_varint_put(key, (uint64_t)nd->max_rowid));
}

/* The current table leaf is full: hold it if it is the first, else write it. */
static int table_leaf_done(struct fts_sqlw_tree *t)
{
	int rc = 0;

	if (t->leaves++ == 0) {
		node_swap(&t->cur, &t->held);
		t->have_held = 1;
	} else {
		if (t->have_held && (rc = table_leaf_out(t, &t->held)))
			return rc;
		t->have_held = 0;
		rc = table_leaf_out(t, &t->cur);
	}
	node_reset(&t->cur, t->f->page_size);
	return rc;
}

int fts_sqlw_tree_add_row(struct fts_sqlw_tree *t, int64_t rowid, const uint8_t *rec, size_t n)
{
	size_t local, len;
	uint32_t first;
	int rc;

	if (t->rows && rowid <= t->last_rowid)
		return -EINVAL;
	len = cell_len(t, rowid, n, &local);
	if ((rc = cell_overflow(t, rec, n, local, &first)))
		return rc;
	if (!node_fits(&t->cur, 8, len) && (rc = table_leaf_done(t)))
		return rc;
	cell_put(t, node_place(&t->cur, len), rowid, rec, n, local, first);
	t->cur.max_rowid = t->last_rowid = rowid;
	t->rows++;
	return 0;
}

int fts_sqlw_tree_add_key(struct fts_sqlw_tree *t, const uint8_t *rec, size_t n)
{
	size_t local, len = cell_len(t, 0, n, &local);
	uint32_t first, pg;
	int rc;

	if ((rc = cell_overflow(t, rec, n, local, &first)))
		return rc;
	t->rows++;
	if (t->have_pending) {
		/* the held leaf has its divider and a leaf after it: it can go */
		cell_put(t, node_place(&t->cur, len), 0, rec, n, local, first);
		pg = fts_sqlw_file_alloc(t->f, 1);
		if ((rc = node_write(t, &t->held, PAGE_INDEX_LEAF, 0, pg)) ||
		    (rc = seq_push(&t->seq, pg, t->pending, t->pending_len)))
			return rc;
		t->have_pending = t->have_held = 0;
		return 0;
	}
	if (node_fits(&t->cur, 8, len)) {
		cell_put(t, node_place(&t->cur, len), 0, rec, n, local, first);
		return 0;
	}
	node_swap(&t->cur, &t->held);
	node_reset(&t->cur, t->f->page_size);
	t->have_held = 1;
	cell_put(t, t->pending, 0, rec, n, local, first);
	t->pending_len = len;
	t->have_pending = 1;
	return 0;
}

/* One node of a level: children [s, e], cells (child i, divider i) for i < e, e the right-most. */
struct span {
	size_t s, e;
};

/*
 * Build the interior level over @in into @out (the nodes' pages and the
 * dividers they promote), or, when one node holds it all, write that node
 * into the root page and leave @out empty.
 */
static int build_level(struct fts_sqlw_tree *t, const struct fts_sqlw_seq *in, struct fts_sqlw_seq *out)
{
	uint8_t type = t->index ? PAGE_INDEX_INTERIOR : PAGE_TABLE_INTERIOR;
	struct span *sp = malloc(sizeof(*sp) * in->n);
	size_t ns = 0, i = 0;
	int rc = 0;

	if (!sp)
		return -ENOMEM;
	/* greedy: cells while they fit; the child whose divider does not fit ends the node */
	while (i < in->n) {
		size_t used = 0, cnt = 0;

		sp[ns].s = i;
		for (;; i++) {
			size_t room = cell_room(4 + in->e[i].len);

			if (i + 1 == in->n || 12 + 2 * (cnt + 1) + used + room > t->f->page_size)
				break;
			used += room;
			cnt++;
		}
		sp[ns++].e = i++;
	}
	/* a last node of one child borrows the previous node's last cell */
	if (ns > 1 && sp[ns - 1].s == sp[ns - 1].e) {
		if (sp[ns - 2].e - sp[ns - 2].s < 2) {
			free(sp);
			return -EINVAL;   /* cannot happen: a page holds at least three cells */
		}
		sp[ns - 2].e--;
		sp[ns - 1].s = sp[ns - 2].e + 1;
	}
	for (size_t k = 0; !rc && k < ns; k++) {
		struct fts_sqlw_node *nd = &t->cur;
		uint8_t child[4];
		uint32_t pg;

		node_reset(nd, t->f->page_size);
		for (size_t c = sp[k].s; c < sp[k].e; c++) {
			fts_sqlw_put32(child, in->e[c].child);
			node_add(nd, child, 4, in->b + in->e[c].off, in->e[c].len);
		}
		pg = ns == 1 ? t->root : fts_sqlw_file_alloc(t->f, 1);
		rc = node_write(t, nd, type, in->e[sp[k].e].child, pg);
		if (!rc && ns > 1)
			rc = seq_push(out, pg, in->b + in->e[sp[k].e].off, in->e[sp[k].e].len);
	}
	free(sp);
	return rc;
}

int fts_sqlw_tree_finish(struct fts_sqlw_tree *t)
{
	uint8_t leaf = t->index ? PAGE_INDEX_LEAF : PAGE_TABLE_LEAF;
	struct fts_sqlw_seq next = { 0 };
	uint32_t pg;
	int rc = 0;

	if (t->index && t->have_pending) {
		/* nothing after the divider: the held leaf's last entry divides instead */
		struct fts_sqlw_node *h = &t->held;
		size_t len = h->last_len;
		uint32_t off = h->off[h->n - 1];

		h->n--;
		h->top += (uint32_t)cell_room(len);
		node_add(&t->cur, NULL, 0, t->pending, t->pending_len);
		pg = fts_sqlw_file_alloc(t->f, 1);
		/* the divider is copied out first: writing the page zeroes its old place */
		if ((rc = seq_push(&t->seq, pg, h->buf + off, len)) ||
		    (rc = node_write(t, h, PAGE_INDEX_LEAF, 0, pg)))
			return rc;
		t->have_pending = t->have_held = 0;
	}
	if (!t->index && t->leaves)
		rc = table_leaf_done(t);
	else if (t->seq.n == 0)
		return node_write(t, &t->cur, leaf, 0, t->root);
	else if (!(rc = node_write(t, &t->cur, leaf, 0, pg = fts_sqlw_file_alloc(t->f, 1))))
		rc = seq_push(&t->seq, pg, NULL, 0);
	while (!rc && t->seq.n) {
		rc = build_level(t, &t->seq, &next);
		seq_free(&t->seq);
		t->seq = next;
		memset(&next, 0, sizeof(next));
	}
	seq_free(&next);
	return rc;
}
