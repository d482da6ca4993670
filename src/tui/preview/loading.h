/* SPDX-License-Identifier: MIT */
/* loading.h - the previewer's loading screen, drawn into a grid. */
#ifndef FTS_TUI_LOADING_H
#define FTS_TUI_LOADING_H

#include <ftscope/pipeline.h>

#include "tui/kit/grid.h"
#include "tui/kit/theme.h"

/**
 * fts_progress_draw - the loading screen into @g
 * @g: the grid (any size)
 * @t: the theme
 * @path: the file being loaded (untrusted)
 * @p: the latest progress report
 */
void fts_progress_draw(struct fts_grid *g, const struct fts_theme *t, const char *path,
		       const struct fts_progress *p);

#endif
