/* SPDX-License-Identifier: MIT */
/*
 * sqlw_btree.h - one SQLite b-tree built bottom-up from rows or keys given
 * in order (fileformat2.html, "B-tree Pages", "Cell Payload Overflow
 * Pages"): leaves are packed and written as they fill, the interior levels
 * at finish, and the top node goes into the tree's root page, which SQLite
 * allocated when it created the (empty) table or index.
 */
#ifndef FTS_SQLW_BTREE_H
#define FTS_SQLW_BTREE_H

#include <stddef.h>
#include <stdint.h>

#include "export/sink/sqlw_file.h"

/* A level's children and the divider after each (table: a rowid varint; index: a cell). */
struct fts_sqlw_seq {
	struct fts_sqlw_ent {
		uint32_t child;
		uint32_t len;
		size_t off;
	} *e;
	size_t n, cap;
	uint8_t *b;
	size_t blen, bcap;
};

/* Cells of one page being packed, written in place from the page's end down. */
struct fts_sqlw_node {
	uint8_t *buf;            /* the page: its cells at off[i] .. the end */
	uint32_t top;            /* the lowest cell's start (page size when empty) */
	uint32_t *off;           /* cell i at buf + off[i] */
	uint32_t last_len;       /* the last cell's length (its room may be more) */
	int n;
	size_t used;             /* page bytes the cells take (each at least 4) */
	int64_t max_rowid;       /* table leaf: its last rowid */
};

struct fts_sqlw_tree {
	struct fts_sqlw_file *f;
	int index;               /* index b-tree (else table) */
	uint32_t root;
	struct fts_sqlw_node cur;
	struct fts_sqlw_node held;   /* table: the first leaf; index: the last full leaf */
	int have_held;
	uint8_t *pending;        /* index: the cell after the held leaf, its divider */
	size_t pending_len;
	int have_pending;
	uint64_t leaves;         /* table: leaves closed so far */
	int64_t last_rowid;
	uint64_t rows;
	struct fts_sqlw_seq seq; /* the leaves written, for the level above */
	uint8_t *page;           /* scratch: one page */
};

/* fts_sqlw_tree_init - an empty tree of @f rooted at page @root; 0 or -ENOMEM. */
int fts_sqlw_tree_init(struct fts_sqlw_tree *t, struct fts_sqlw_file *f, int index, uint32_t root);

/*
 * fts_sqlw_tree_add_row - append a table row: @rowid above every earlier
 * one, @rec an SQLite record of @n bytes (overflow pages written here).
 * Returns 0, -EINVAL for a rowid out of order, or a negative errno.
 */
int fts_sqlw_tree_add_row(struct fts_sqlw_tree *t, int64_t rowid, const uint8_t *rec, size_t n);

/*
 * fts_sqlw_tree_add_key - append an index entry, the record @rec of @n
 * bytes (its columns, then the rowid). Entries must come in SQLite's index
 * order (fts_sqlw_val_cmp column by column), each above the last; the tree
 * does not check. Returns 0 or a negative errno.
 */
int fts_sqlw_tree_add_key(struct fts_sqlw_tree *t, const uint8_t *rec, size_t n);

/*
 * fts_sqlw_tree_finish - write the last leaves and the interior levels, the
 * top node into the root page. Returns 0 or a negative errno.
 */
int fts_sqlw_tree_finish(struct fts_sqlw_tree *t);

/* fts_sqlw_tree_free - release the buffers (after finish or on error). */
void fts_sqlw_tree_free(struct fts_sqlw_tree *t);

#endif
