/* SPDX-License-Identifier: MIT */
/*
 * stats_xlsx.h - `ftscope stats --format xlsx -o FILE`: the numbers of
 * `stats` as an Excel workbook (libxlsxwriter): the reference
 * trace_analyze.py's four sheets and three charts, with its column names
 * and units, then ftscope's own sheets (docs/man/ftscope-stats.1.scd).
 * Only the program links libxlsxwriter; without it (FTS_HAVE_XLSX unset)
 * the format is refused.
 */
#ifndef FTS_CLI_STATS_XLSX_H
#define FTS_CLI_STATS_XLSX_H

#include <ftscope/stats.h>

#include "cli/hostbound_cards.h"
#include "cli/stats_detail.h"

struct fts_xlsx_report {
	const char *input;              /* named on the info sheet */
	const char *output;             /* the .xlsx, written atomically */
	const struct fts_stats *st;     /* finished, tasks in the order to list them */
	fts_task_filter keep;           /* --task; NULL: every task */
	void *keep_arg;
	long long top;                  /* at most this many tasks; 0: all */
	const struct fts_detail *detail; /* per CPU and per irq name, fed beside @st */
	int cpu_filtered;               /* --cpu: only @st's CPU rows count (@detail has them all) */
	const struct fts_hb_cards *hb;  /* -p: the cards' Host Bound analyses, finished; NULL: none */
};

/* 1 when this ftscope was built with libxlsxwriter. */
int fts_xlsx_available(void);

/* Write the workbook. Returns 0, or 1 after one line on stderr (no file left behind). */
int fts_xlsx_write(const struct fts_xlsx_report *r);

#endif
