/* SPDX-License-Identifier: MIT */
/*
 * hostbound_cards.h - the cards of a profiling directory, each read
 * (npu.h) and given its Host Bound analysis (hostbound.h), ready for their
 * sinks to be fed in a pipeline run: shared by `ftscope hostbound` and the
 * hostbound sheets of `ftscope stats --format xlsx -p DIR`, so that both
 * report the same numbers for the same input.
 */
#ifndef FTS_CLI_HOSTBOUND_CARDS_H
#define FTS_CLI_HOSTBOUND_CARDS_H

#include <ftscope/hostbound.h>
#include <ftscope/npu.h>

#include <stddef.h>
#include <stdint.h>

struct fts_hb_card {
	const char *path;             /* its trace_view.json or profiler DB */
	char name[256];               /* its rank directory's name */
	struct fts_npu_trace *npu;
	struct fts_hostbound *hb;
};

struct fts_hb_cards {
	char **paths;                 /* fts_npu_trace_list's */
	size_t n;
	struct fts_hb_card *c;        /* n of them */
	struct fts_sink **sinks;      /* c[i].hb's sink, for fts_pipeline_run */
};

/*
 * Every card under @profiling read and its analysis made (gaps of at least
 * @threshold_ns; @pidmap: the run has a pid mapping). Returns 0, or 1 after
 * one line "ftscope <cmd>: ..." on stderr; @cs is freed with
 * fts_hb_cards_free either way.
 */
int fts_hb_cards_load(struct fts_hb_cards *cs, const char *profiling, uint64_t threshold_ns,
		      int pidmap, const char *cmd);

void fts_hb_cards_free(struct fts_hb_cards *cs);

#endif
