// SPDX-License-Identifier: MIT
/*
 * preview.c - the lane viewer as a screen of the session: `ftscope preview
 * FILE` starts here, the other screens open a file here (RX_PREVIEW).
 *
 * The file loads in a worker thread (started with every signal blocked)
 * while the loop draws the loading screen from the progress it copies out
 * under a lock; q or Esc cancels through the progress callback's return,
 * and so does a terminating signal (leave). Once loaded, keys and mouse go
 * to the view (view.c), which draws the whole screen itself.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ftscope/preview.h>

#include "core/internal.h"
#include "app/env.h"
#include "tui/widgets/keys.h"
#include "tui/preview/loading.h"
#include "tui/preview/view.h"
#include "tui/session/session.h"

struct fts_preview_state {
	char path[4096], pidmap[4096], profiling[4096];
	int no_cache;                /* the store cache is off (preview --no-cache, FTSCOPE_NO_CACHE) */
	char cache_dir[4096];        /* where it goes (fts_front_env_store); "" none */
	const char *probe_helper;    /* the machine's (a static string) */
	/* the load */
	pthread_t th;
	int started;
	atomic_int cancel, finished;
	pthread_mutex_t mu;          /* guards prog */
	struct fts_progress prog;
	struct fts_load_view lv;     /* the loading screen's file, estimate and start */
	int rc;
	struct fts_err err;
	struct fts_store *store;
	struct fts_sketch *sketch;   /* the overview the loader fills (NULL: none, out of memory) */
	struct fts_sketch_snap *snap; /* its copy the loading screen draws */
	/* loaded */
	struct fts_view *view;
};

static int on_progress(void *ctx, const struct fts_progress *p)
{
	struct fts_preview_state *pv = ctx;

	pthread_mutex_lock(&pv->mu);
	pv->prog = *p;
	pthread_mutex_unlock(&pv->mu);
	return atomic_load(&pv->cancel);
}

/* The worker: the store (the summary table makes its statistics from it when opened). */
static void *load_main(void *arg)
{
	struct fts_preview_state *pv = arg;
	struct fts_store_open_opts so = { .path = pv->path, .progress = on_progress, .progress_ctx = pv,
					  .probe_helper = pv->probe_helper, .sketch = pv->sketch };

	so.profiling_data = pv->profiling[0] ? pv->profiling : NULL;
	so.cache = !pv->no_cache; /* a second look at the same capture or DB reopens from the cache */
	so.cache_dir = pv->cache_dir[0] ? pv->cache_dir : NULL;
	so.pid_mapping = pv->pidmap[0] ? pv->pidmap : NULL;
	pv->rc = fts_store_open(&so, &pv->store, &pv->err);
	atomic_store(&pv->finished, 1);
	return NULL;
}

static void unload(struct fts_preview_state *pv)
{
	if (pv->started) {
		atomic_store(&pv->cancel, 1);
		pthread_join(pv->th, NULL);
		pv->started = 0;
	}
	fts_view_free(pv->view);
	fts_store_free(pv->store);
	fts_sketch_free(pv->sketch);
	free(pv->snap);
	pv->view = NULL;
	pv->store = NULL;
	pv->sketch = NULL;
	pv->snap = NULL;
	pv->lv.snap = NULL;
}

static int leave(struct fts_session *s, int sig)
{
	(void)sig;
	if (!s->pv)
		return 0;
	unload(s->pv);
	pthread_mutex_destroy(&s->pv->mu);
	free(s->pv);
	s->pv = NULL;
	return 0;
}

static void enter(struct fts_session *s)
{
	struct fts_preview_state *pv;
	int rc;

	leave(s, 0);
	pv = s->pv = calloc(1, sizeof(*pv));
	if (!pv) {
		fts_session_say(s, 1, "out of memory");
		return;
	}
	pthread_mutex_init(&pv->mu, NULL);
	snprintf(pv->path, sizeof(pv->path), "%s", s->preview_path);
	snprintf(pv->pidmap, sizeof(pv->pidmap), "%s", s->preview_pidmap);
	snprintf(pv->profiling, sizeof(pv->profiling), "%s", s->preview_profiling);
	pv->probe_helper = s->mach->probe_helper;
	{
		/* the environment is read here, on the loop's thread, not by the loader */
		struct fts_store_open_opts env = { .cache = !s->no_cache };

		fts_front_env_store(&env, pv->cache_dir, sizeof(pv->cache_dir));
		pv->no_cache = !env.cache;
	}
	fts_load_view_init(&pv->lv, pv->path, fts__clock_mono_s());
	/* the overview while loading: without memory for it the plain loading screen */
	pv->snap = malloc(sizeof(*pv->snap));
	if (!pv->snap || fts_sketch_new(&pv->sketch)) {
		free(pv->snap);
		pv->snap = NULL;
	}
	s->preview_pidmap[0] = s->preview_profiling[0] = 0; /* for this preview only */
	rc = fts__thread_start(&pv->th, NULL, load_main, pv);
	if (rc) {
		pv->rc = rc;
		snprintf(pv->err.msg, sizeof(pv->err.msg), "cannot start a thread");
		atomic_store(&pv->finished, 1);
		return;
	}
	pv->started = 1;
}

/*
 * The view renders its frame right after each change (key, mouse, size), so
 * the screen's draw only copies it and stays a function of the state.
 */
static unsigned render(struct fts_preview_state *pv, unsigned r)
{
	if (r & FTS_RX_REDRAW)
		fts_view_draw(pv->view);
	return r;
}

static void layout(struct fts_session *s)
{
	if (s->pv && s->pv->view && fts_view_resize(s->pv->view, s->w, s->h) == 0)
		render(s->pv, FTS_RX_REDRAW);
}

/* Leave the preview: the session ends when it was all there was, else back (the store is freed). */
static unsigned close_preview(struct fts_session *s)
{
	if (s->preview_only)
		return FTS_RX_QUIT;
	leave(s, 0);
	s->next = s->back;
	return FTS_RX_GOTO;
}

/* The load failed: say why where the user goes next. */
static unsigned load_failed(struct fts_session *s, const char *why)
{
	if (s->preview_only) {
		s->exit_code = 1;
		snprintf(s->exit_msg, sizeof(s->exit_msg), "%s", why);
		return FTS_RX_QUIT;
	}
	fts_session_say(s, 1, "cannot open it: %s", why);
	s->msg_carry = 1; /* the screen gone back to shows it, rather than clearing it */
	return close_preview(s);
}

static unsigned tick(struct fts_session *s)
{
	struct fts_preview_state *pv = s->pv;
	struct fts_view_opts vo = { .title = pv ? pv->path : "" };

	if (!pv)
		return close_preview(s);
	if (pv->view)
		return 0;
	if (!atomic_load(&pv->finished)) {
		if (pv->sketch) {
			fts_sketch_read(pv->sketch, pv->snap);
			pv->lv.snap = pv->snap;
		}
		return FTS_RX_REDRAW; /* the progress moved */
	}
	if (pv->started)
		pthread_join(pv->th, NULL);
	pv->started = 0;
	if (pv->rc == -ECANCELED || atomic_load(&pv->cancel))
		return close_preview(s);
	if (pv->rc)
		return load_failed(s, pv->err.msg[0] ? pv->err.msg : "cannot load the input");
	vo.utf8 = s->theme.utf8;
	vo.colors = s->theme.colors; /* 0 under NO_COLOR */
	vo.export_key = !s->preview_only; /* key() binds e to export here */
	vo.poll = s->poll;
	vo.poll_ctx = s->poll_ctx;
	vo.test_busy_ms = s->test_busy_ms;
	if (fts_view_create(pv->store, &vo, s->w > 0 ? s->w : 80, s->h > 0 ? s->h : 24, &pv->view))
		return load_failed(s, "out of memory");
	fts_view_draw(pv->view);
	return FTS_RX_REDRAW | FTS_RX_CLEAR;
}

static void draw(const struct fts_session *s, struct fts_grid *g)
{
	const struct fts_preview_state *pv = s->pv;
	struct fts_progress p;

	if (pv && pv->view) {
		fts_grid_copy(g, fts_view_grid(pv->view));
		return;
	}
	memset(&p, 0, sizeof(p));
	if (pv) {
		pthread_mutex_lock((pthread_mutex_t *)&pv->mu);
		p = pv->prog;
		pthread_mutex_unlock((pthread_mutex_t *)&pv->mu);
	}
	if (pv) {
		fts_progress_draw(g, &s->theme, &pv->lv, &p, fts__clock_mono_s());
	} else {
		struct fts_load_view none = { .path = "" };

		fts_progress_draw(g, &s->theme, &none, &p, 0);
	}
}

static unsigned key(struct fts_session *s, int k)
{
	struct fts_preview_state *pv = s->pv;
	struct fts_view_state vs;
	unsigned r;

	if (!pv)
		return close_preview(s);
	if (!pv->view) {
		if (k == 'q' || k == FTS_KEY_ESC)
			atomic_store(&pv->cancel, 1);
		return 0;
	}
	fts_view_state(pv->view, &vs);
	/* e: the session's export of this file (not while typing a search) */
	if (k == 'e' && !s->preview_only && !vs.searching && !vs.help && !vs.summary && !vs.gaps) {
		snprintf(s->export_input, sizeof(s->export_input), "%s", pv->path);
		leave(s, 0);
		s->next = FTS_SCR_EXPORT;
		return FTS_RX_GOTO;
	}
	r = fts_view_key(pv->view, k);
	if (r & FTS_RX_QUIT)
		return close_preview(s);
	return render(pv, r);
}

static unsigned mouse(struct fts_session *s, enum fts_mouse ev, int x, int y)
{
	if (!s->pv || !s->pv->view)
		return 0;
	return render(s->pv, fts_view_mouse(s->pv->view, ev, x, y));
}

const struct fts_screen_ops fts_screen_preview = {
	.title = "preview",
	.enter = enter,
	.layout = layout,
	.draw = draw,
	.key = key,
	.mouse = mouse,
	.tick = tick,
	.tick_ms = 100,
	.full = 1,
	.leave = leave,
};
