/* SPDX-License-Identifier: MIT */
/*
 * npu_read.h - what the two readers of one card (trace_view.c for the text
 * export type, npu_db.c for the DB type) share inside readback.
 */
#ifndef FTS_NPU_READ_H
#define FTS_NPU_READ_H

#include "ftscope/npu.h"

/* Past year 2096 in ns: not an epoch time (the text reader's limit too). */
#define FTS_NPU_NS_MAX 4000000000000000999ull

/*
 * fts_npu_db_read - one card from the torch_npu profiler's
 * ascend_pytorch_profiler_<rank>.db, opened read-only as a hostile file.
 * Same contract as fts_npu_trace_read.
 */
int fts_npu_db_read(const char *path, struct fts_npu_trace **out, struct fts_err *err);

/* fts_npu_sort - every array of @t in the order npu.h promises. */
void fts_npu_sort(struct fts_npu_trace *t);

#endif
