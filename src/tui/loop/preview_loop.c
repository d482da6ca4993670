// SPDX-License-Identifier: MIT
/*
 * preview_loop.c - the interactive previewer: open the terminal, load the store
 * with a progress screen (q or Ctrl+C stops), then the view's loop: draw when
 * something changed, read a key or mouse event, hand it to the view.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tui/kit/keys.h"
#include "tui/term/term.h"
#include "front/process.h"
#include "front/term_safe.h"
#include "tui/tui.h"
#include <ftscope/stats.h>
#include "tui/preview/view.h"

struct load_ctx {
	const char *path;
	struct fts_theme theme;
	struct fts_grid grid;
	int stop_sig;      /* a terminating signal stopped the load */
	int quit;          /* q stopped the load */
};

/* Called by the loader a few times a second: draw, and look for q. */
static int on_progress(void *ctx, const struct fts_progress *p)
{
	struct load_ctx *lc = ctx;
	struct fts_term_mouse m;
	int w, h, k;

	fts_term_size(&w, &h);
	if ((lc->grid.w != w || lc->grid.h != h) && fts_grid_resize(&lc->grid, w, h, lc->theme.utf8))
		return 0;
	fts_progress_draw(&lc->grid, &lc->theme, lc->path, p);
	fts_term_blit(&lc->grid, 0);
	while ((k = fts_term_read(0, &m)) != FTS_TERM_NONE) {
		if (k == FTS_TERM_SIGNAL) {
			lc->stop_sig = fts_term_pending_signal();
			return 1;
		}
		if (k == 'q' || k == FTS_KEY_CTRL('c')) {
			lc->quit = 1;
			return 1;
		}
	}
	return 0;
}

static void fail(const char *msg)
{
	fts_term_close();
	fputs("ftscope preview: ", stderr);
	fts_fputs_safe(stderr, msg);
	fputc('\n', stderr);
}

/* Whether the view is taking typed text (a search query): keys are text then. */
static int searching(const struct fts_view *view)
{
	struct fts_view_state st;

	fts_view_state(view, &st);
	return st.searching;
}

/*
 * The view's loop; returns the exit status, 2 when @exit_key (0: none) was
 * pressed, or -signal.
 */
static int run_view(struct fts_view *view, int exit_key)
{
	unsigned r = FTS_VR_REDRAW;

	for (;;) {
		struct fts_term_mouse m;
		int k, w, h;

		if (r & FTS_VR_QUIT)
			return 0;
		if (r & FTS_VR_REDRAW)
			fts_term_blit(fts_view_draw(view), (r & FTS_VR_CLEAR) != 0);
		r = 0;
		k = fts_term_read(250, &m);
		if (k == FTS_TERM_SIGNAL)
			return -fts_term_pending_signal();
		if (k == FTS_TERM_NONE)
			continue;
		if (k == FTS_TERM_RESIZE) {
			fts_term_size(&w, &h);
			if (fts_view_resize(view, w, h) == 0)
				r = FTS_VR_REDRAW | FTS_VR_CLEAR;
		} else if (k == FTS_TERM_MOUSE) {
			r = fts_view_mouse(view, m.ev, m.x, m.y);
		} else if (exit_key && k == exit_key && !searching(view)) {
			return 2;
		} else {
			r = fts_view_key(view, k);
		}
	}
}

/*
 * Load @a into a store, with the statistics sink that feeds the summary
 * table, and run the lanes on the already open terminal. Returns 0 (quit,
 * or a load cancelled by the user), 1 with @msg filled when the input cannot
 * be loaded, or minus the number of a terminating signal that arrived.
 */
static int load_and_run(const struct fts_preview_args *a, int colors, int exit_key, char *msg,
			size_t msglen)
{
	struct load_ctx lc = { .path = a->path };
	struct fts_store_open_opts so = { .path = a->path, .profiling_data = a->profiling_data,
					  .pid_mapping = a->pid_mapping, .progress = on_progress,
					  .progress_ctx = &lc, .probe_helper = fts_front_probe_helper() };
	struct fts_view_opts vo = { .title = a->path };
	struct fts_store *store = NULL;
	struct fts_stats *stats = NULL;
	struct fts_view *view = NULL;
	struct fts_err err = { 0 };
	int w, h, rc;

	msg[0] = 0;
	vo.utf8 = fts_locale_utf8();
	vo.no_color = fts_no_color();
	vo.colors = colors;
	fts_theme_init(&lc.theme, vo.utf8, colors, vo.no_color);
	if (fts_stats_create(NULL, &stats, NULL) == 0)
		so.extra = fts_stats_sink(stats);
	rc = fts_store_open(&so, &store, &err);
	fts_grid_free(&lc.grid);
	if (lc.stop_sig || lc.quit || rc == -ECANCELED) {
		rc = lc.stop_sig ? -lc.stop_sig : 0;
		goto out;
	}
	if (rc) {
		snprintf(msg, msglen, "%s", err.msg[0] ? err.msg : "cannot load the input");
		rc = 1;
		goto out;
	}
	fts_term_size(&w, &h);
	if (fts_view_create(store, &vo, w, h, &view)) {
		snprintf(msg, msglen, "out of memory");
		rc = 1;
		goto out;
	}
	fts_view_set_stats(view, stats);
	rc = run_view(view, exit_key);
out:
	fts_view_free(view);
	fts_store_free(store);
	fts_stats_free(stats);
	return rc;
}

int fts_tui_preview(const struct fts_preview_args *a)
{
	char msg[512]; /* one message line */
	int colors = 0, rc;

	if (!fts_term_usable()) {
		fprintf(stderr, "ftscope preview: not an interactive terminal (or TERM=dumb); use --print WxH to render a screen as text\n");
		return 2;
	}
	if (fts_term_open(&colors)) {
		fprintf(stderr, "ftscope preview: cannot open the terminal; use --print WxH to render a screen as text\n");
		return 2;
	}
	rc = load_and_run(a, colors, 0, msg, sizeof(msg));
	if (rc < 0)
		fts_term_reraise(-rc);
	if (rc == 1) {
		fail(msg);
		return 1;
	}
	fts_term_close();
	return rc;
}

int fts_tui_preview_here(const struct fts_preview_args *a, int colors, int exit_key, char *msg,
			 size_t msglen)
{
	return load_and_run(a, colors, exit_key, msg, msglen);
}
