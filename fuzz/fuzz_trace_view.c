// SPDX-License-Identifier: MIT
/*
 * fuzz_trace_view.c - libFuzzer target: arbitrary bytes read as the Ascend
 * profiler's trace_view.json (npu.h), and what it keeps turned into gaps and
 * verdicts (hostbound.h, with no items: every gap unknown).
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "ftscope/hostbound.h"
#include "ftscope/npu.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fts_npu_trace *t = NULL;
	struct fts_hostbound *hb = NULL;
	struct fts_hb_opts o = { .threshold_ns = 1 + size % 3000 };
	struct fts_err err = { 0 };
	double tot[FTS_HB__COUNT];
	char path[64];
	size_t n;

	if (fts_fuzz_write(data, size, path, sizeof(path)))
		return 0;
	if (fts_npu_trace_read(path, &t, &err)) {
		if (!err.msg[0] || t)
			abort(); /* every failure says why, and leaves nothing */
	} else {
		for (size_t i = 1; i < t->nbusy; i++)
			if (t->busy[i].ts < t->busy[i - 1].ts)
				abort();
		for (size_t i = 1; i < t->nflows; i++)
			if (t->flows[i].dev_ts < t->flows[i - 1].dev_ts)
				abort();
		if (!fts_hostbound_create(t, &o, &hb, &err) && !fts_hostbound_finish(hb, &err)) {
			uint64_t idle = fts_hostbound_totals(hb, tot);
			const struct fts_hb_gap *g = fts_hostbound_gaps(hb, &n);

			if (n && tot[FTS_HB_UNKNOWN] + 0.5 * (double)n < (double)idle)
				abort(); /* no items: all of it unknown */
			for (size_t i = 0; i < n; i++)
				if (g[i].dur < o.threshold_ns)
					abort();
		}
		fts_hostbound_free(hb);
		fts_npu_trace_free(t);
	}
	unlink(path);
	return 0;
}
