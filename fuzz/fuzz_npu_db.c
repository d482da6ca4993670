// SPDX-License-Identifier: MIT
/*
 * fuzz_npu_db.c - libFuzzer target: arbitrary bytes read as the torch_npu
 * profiler's ascend_pytorch_profiler_<rank>.db (npu_db.c): a failure says
 * why and leaves nothing; a success keeps npu.h's order and ranges.
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "ftscope/npu.h"
#include "core/readback/npu_read.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct fts_npu_trace *t)
{
	if (!t->nbusy || !t->nstreams || t->nstreams > t->nbusy || t->nfree)
		abort();
	for (size_t i = 0; i < t->nbusy; i++) {
		if ((i && t->busy[i].ts < t->busy[i - 1].ts) || t->busy[i].ts > FTS_NPU_NS_MAX)
			abort();
		(void)fts_npu_name(t, t->busy[i].name);
	}
	for (size_t i = 1; i < t->nflows; i++)
		if (t->flows[i].dev_ts < t->flows[i - 1].dev_ts || t->flows[i].host_tid < 0)
			abort();
	for (size_t i = 1; i < t->nsteps; i++)
		if (t->steps[i].ts < t->steps[i - 1].ts)
			abort();
	for (size_t i = 0; i < t->nthreads; i++)
		if (t->threads[i].tid < 0 || t->threads[i].pid != t->python_pid)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fts_npu_trace *t = NULL;
	struct fts_err err = { 0 };
	char path[64];

	if (fts_fuzz_write(data, size, path, sizeof(path)))
		return 0;
	if (fts_npu_db_read(path, &t, &err)) {
		if (!err.msg[0] || t)
			abort(); /* every failure says why, and leaves nothing */
	} else {
		check(t);
		fts_npu_trace_free(t);
	}
	unlink(path);
	return 0;
}
