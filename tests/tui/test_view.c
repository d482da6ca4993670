// SPDX-License-Identifier: MIT
/*
 * Unit tests of the lane view on a real store: a small ftrace text capture
 * written here, loaded by fts_store_open exactly as `ftscope preview` does,
 * rendered into an in-memory grid.
 */
#include <errno.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <ftscope/preview.h>
#include <ftscope/stats.h>

#include "tui/widgets/keys.h"
#include "tui/widgets/theme.h"
#include "tui/preview/view.h"
#include "tui/preview/view_impl.h"

/*
 * CPU 0: model runs 0-10 ms (a 10 us irq at 5 ms), is preempted by a 50 us
 * kworker (model Runnable meanwhile), runs to 20 ms. CPU 1: 7 lost events,
 * a task whose name holds an OSC escape (sets a terminal's title) runs then
 * sleeps in D, a task named in CJK runs.
 */
static const char trace[] =
"# tracer: nop\n"
"          <idle>-0       [000] d..2.   100.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=model next_pid=100 next_prio=120\n"
"           model-100     [000] d.h1.   100.005000: irq_handler_entry: irq=5 name=eth0\n"
"           model-100     [000] d.h1.   100.005010: irq_handler_exit: irq=5 ret=handled\n"
"           model-100     [000] d..2.   100.010000: sched_switch: prev_comm=model prev_pid=100 prev_prio=120 prev_state=R ==> next_comm=kworker/0:1 next_pid=200 next_prio=120\n"
"     kworker/0:1-200     [000] d..2.   100.010050: sched_switch: prev_comm=kworker/0:1 prev_pid=200 prev_prio=120 prev_state=S ==> next_comm=model next_pid=100 next_prio=120\n"
"           model-100     [000] d..2.   100.020000: sched_switch: prev_comm=model prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
"CPU:1 [LOST 7 EVENTS]\n"
"          <idle>-0       [001] d..2.   100.001000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=evil\x1b]0;owned\x07 next_pid=300 next_prio=120\n"
"evil\x1b]0;owned\x07-300     [001] d..2.   100.008000: sched_switch: prev_comm=evil\x1b]0;owned\x07 prev_pid=300 prev_prio=120 prev_state=D ==> next_comm=\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e next_pid=400 next_prio=120\n"
"        \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e-400     [001] d..2.   100.015000: sched_switch: prev_comm=\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e prev_pid=400 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
"          <idle>-0       [001] dNh2.   100.016000: sched_wakeup: comm=evil\x1b]0;owned\x07 pid=300 prio=120 target_cpu=001\n";

struct fx {
	char dir[64], path[96];
	struct fts_store *store;
	struct fts_view *view;
};

static struct fts_view *mkview(struct fx *f, int utf8, int colors, int w, int h)
{
	struct fts_view_opts o = { .title = f->path, .utf8 = utf8, .colors = colors };

	fts_view_free(f->view);
	f->view = NULL;
	assert_int_equal(fts_view_create(f->store, &o, w, h, &f->view), 0);
	return f->view;
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct fts_store_open_opts so = { 0 };
	struct fts_err err = { 0 };
	FILE *fp;

	snprintf(f->dir, sizeof(f->dir), "/tmp/fts_view_XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/t.txt", f->dir);
	fp = fopen(f->path, "w");
	if (!fp || fwrite(trace, 1, sizeof(trace) - 1, fp) != sizeof(trace) - 1 || fclose(fp))
		return -1;
	so.path = f->path;
	if (fts_store_open(&so, &f->store, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	fts_view_free(f->view);
	fts_store_free(f->store);
	unlink(f->path);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* The grid row whose text starts with @label (after the one-column mark), or -1. */
static int row_of(const struct fts_grid *g, const char *label)
{
	char buf[2048];

	for (int y = 0; y < g->h; y++) {
		fts_grid_row_text(g, y, buf, sizeof(buf));
		if (!strncmp(buf + 1, label, strlen(label)))
			return y;
	}
	return -1;
}

static const char *row_text(const struct fts_grid *g, int y)
{
	static char buf[4096];

	fts_grid_row_text(g, y, buf, sizeof(buf));
	return buf;
}

/* Column @c of the time area on row @y. */
static const struct fts_cell *tcell(const struct fts_view *v, const struct fts_grid *g, int y, int c)
{
	struct fts_view_state st;

	fts_view_state(v, &st);
	return &g->cells[(size_t)y * (size_t)g->w + (size_t)(st.time_x + c)];
}

static int row_has(const struct fts_view *v, const struct fts_grid *g, int y, uint32_t ch)
{
	struct fts_view_state st;

	fts_view_state(v, &st);
	for (int c = 0; c < st.time_w; c++) {
		if (tcell(v, g, y, c)->ch == ch)
			return 1;
	}
	return 0;
}

static void test_dominant_and_marks(void **state)
{
	struct fx *f = *state;
	struct fts_view *v = mkview(f, 1, 256, 100, 24);
	const struct fts_grid *g = fts_view_draw(v);
	int cpu0 = row_of(g, "CPU 000"), cpu1 = row_of(g, "CPU 001"), model = row_of(g, "model:100");
	int kw = row_of(g, "kworker/0:1:200"), underlined = 0;
	struct fts_view_state st;

	assert_true(cpu0 > 0 && cpu1 > 0 && model > 0 && kw > 0);
	fts_view_state(v, &st);
	/* the whole 20 ms capture fits: 80 columns of 250 ns or so */
	assert_true(st.ns_per_col * (uint64_t)st.time_w >= 20000000);
	/* CPU 0: model ran nearly all of every bucket: its letter, its colour */
	assert_int_equal(tcell(v, g, cpu0, 0)->ch, 'm');
	assert_int_equal(tcell(v, g, cpu0, st.time_w / 2 + 5)->ch, 'm');
	/* the 10 us irq inside a model bucket is not hidden: that cell is underlined */
	for (int c = 0; c < st.time_w; c++)
		underlined += (tcell(v, g, cpu0, c)->st.attr & FTS_A_UNDERLINE) != 0;
	assert_int_equal(underlined, 1);
	/* lost events always show, and the lane label counts them */
	assert_true(row_has(v, g, cpu1, '!'));
	assert_non_null(strstr(row_text(g, cpu1), "!7"));
	/* the 50 us Runnable wait of model leaves a mark although Running dominates:
	 * the "running, with a wait" glyph, while its other buckets stay plain running */
	assert_true(row_has(v, g, model, 0x2593));
	assert_true(row_has(v, g, model, 0x2588));
	/* the 50 us kworker run shows on its own lane */
	assert_true(row_has(v, g, kw, 0x2588));
	/* D and Sleeping are told apart by glyph */
	assert_true(row_has(v, g, row_of(g, "evil"), 'D'));
	assert_true(row_has(v, g, kw, 0x00b7));
	/* the status line names the lost events per CPU */
	assert_non_null(strstr(row_text(g, g->h - 1), "lost 7 events (CPU 1: 7)"));
}

static void test_escaped_and_wide_names(void **state)
{
	struct fx *f = *state;
	struct fts_view *v = mkview(f, 1, 256, 100, 24);
	const struct fts_grid *g = fts_view_draw(v);
	struct fts_view_state st;
	int evil = row_of(g, "evil^[]0;o"), cjk = row_of(g, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e:400");

	assert_true(evil > 0);
	assert_true(cjk > 0);
	fts_view_state(v, &st);
	/* no control code anywhere on the screen */
	for (int i = 0; i < g->w * g->h; i++)
		assert_true(g->cells[i].ch >= 0x20 || g->cells[i].ch == 0);
	/* the separator after every label sits in the same column, wide names or not */
	for (int y = st.lanes_y; y < st.lanes_y + st.lanes_h; y++) {
		if (fts_view_lane_at_row(v, y) >= 0)
			assert_int_equal(g->cells[(size_t)y * (size_t)g->w + (size_t)(st.time_x - 1)].ch, 0x2502);
	}
}

static void test_ascii_fallback(void **state)
{
	struct fx *f = *state;
	struct fts_view *v = mkview(f, 0, 0, 100, 24);
	const struct fts_grid *g = fts_view_draw(v);

	for (int i = 0; i < g->w * g->h; i++) {
		assert_true(g->cells[i].ch < 0x80);
		assert_int_equal(g->cells[i].st.fg, -1);
		assert_int_equal(g->cells[i].st.bg, -1);
	}
	assert_true(row_of(g, "\\xe6\\x97\\xa5") > 0);
	assert_true(row_has(v, g, row_of(g, "model:100"), '%'));
	assert_true(row_has(v, g, row_of(g, "model:100"), '#'));
}

static void test_resize(void **state)
{
	struct fx *f = *state;
	struct fts_view *v = mkview(f, 1, 8, 160, 48);
	struct fts_view_state a, b;
	const struct fts_grid *g;

	fts_view_key(v, '+');
	fts_view_key(v, 'l');
	fts_view_state(v, &a);
	assert_int_equal(fts_view_resize(v, 80, 24), 0);
	g = fts_view_draw(v);
	fts_view_state(v, &b);
	assert_int_equal(g->w, 80);
	assert_int_equal(g->h, 24);
	/* the cursor keeps its time and stays on screen */
	assert_int_equal(a.cursor, b.cursor);
	assert_true(b.cursor >= b.t0 && (b.cursor - b.t0) / b.ns_per_col < (uint64_t)b.time_w);
	assert_true(row_of(g, "CPU 000") > 0);
	/* tiny terminals do not crash */
	assert_int_equal(fts_view_resize(v, 20, 6), 0);
	fts_view_draw(v);
	assert_int_equal(fts_view_resize(v, 1, 1), 0);
	fts_view_draw(v);
}

static unsigned keys(struct fts_view *v, const char *s)
{
	int k[64], n = fts_keys_parse(s, k, 64);
	unsigned r = 0;

	assert_true(n >= 0);
	for (int i = 0; i < n; i++) {
		r = fts_view_key(v, k[i]);
		fts_view_draw(v);
	}
	return r;
}

static void test_zoom_and_move(void **state)
{
	struct fx *f = *state;
	struct fts_view *v = mkview(f, 1, 256, 100, 24);
	const struct fts_store_info *info = fts_store_info(f->store);
	struct fts_view_state a, b;

	uint64_t whole;

	fts_view_draw(v);
	fts_view_state(v, &a);
	whole = a.ns_per_col;
	keys(v, "lllll");
	fts_view_state(v, &b);
	assert_int_equal(b.cursor, a.cursor + 5 * a.ns_per_col);
	keys(v, "+");
	fts_view_state(v, &a);
	assert_int_equal(a.ns_per_col, b.ns_per_col / 2);
	assert_int_equal(a.cursor, b.cursor); /* zoom keeps the cursor's time */
	keys(v, "--");
	fts_view_state(v, &b);
	/* zooming out stops at the whole capture, and says so */
	assert_int_equal(b.ns_per_col, whole);
	assert_int_equal(b.t0, info->t_begin);
	assert_non_null(strstr(b.message, "whole capture"));
	keys(v, "0");
	fts_view_state(v, &a);
	assert_int_equal(a.t0, info->t_begin);
	keys(v, "G");
	fts_view_state(v, &a);
	assert_int_equal(a.cursor, info->t_end - 1);
	keys(v, "g");
	fts_view_state(v, &a);
	assert_int_equal(a.cursor, info->t_begin);
	/* zooming in all the way stops at 1 ns a column */
	for (int i = 0; i < 40; i++)
		keys(v, "+");
	fts_view_state(v, &a);
	assert_int_equal(a.ns_per_col, 1);
	keys(v, "LLH");
	keys(v, "w"); /* no profiling window here: a message, nothing moves */
	fts_view_state(v, &b);
	assert_non_null(strstr(b.message, "no profiling window"));
	assert_int_equal(b.ns_per_col, 1);
}

static void test_items_and_runs(void **state)
{
	struct fx *f = *state;
	struct fts_view *v = mkview(f, 1, 256, 100, 24);
	const struct fts_store_info *info = fts_store_info(f->store);
	struct fts_view_state st;

	fts_view_draw(v);
	/* on CPU 000 (selected first): ] visits the irq at 5 ms, then the kworker at 10 ms */
	keys(v, "]");
	fts_view_state(v, &st);
	assert_int_equal(st.cursor, info->t_begin + 5000000);
	keys(v, "]");
	fts_view_state(v, &st);
	assert_int_equal(st.cursor, info->t_begin + 10000000);
	keys(v, "[");
	fts_view_state(v, &st);
	assert_int_equal(st.cursor, info->t_begin + 5000000);
	/* r from the start of model's first run: its next run starts at 10.05 ms */
	keys(v, "g");
	keys(v, "r");
	fts_view_state(v, &st);
	assert_int_equal(st.cursor, info->t_begin + 10050000);
	keys(v, "R");
	fts_view_state(v, &st);
	assert_int_equal(st.cursor, info->t_begin);
	keys(v, "R");
	fts_view_state(v, &st);
	assert_non_null(strstr(st.message, "no earlier run"));
}

static void test_search_filter_pin_sort(void **state)
{
	struct fx *f = *state;
	struct fts_view *v = mkview(f, 1, 256, 100, 24);
	const struct fts_grid *g;
	struct fts_view_state st;

	fts_view_draw(v);
	keys(v, "/KWORK\\n");
	fts_view_state(v, &st);
	assert_int_equal(st.matches, 1);
	assert_false(st.searching);
	assert_string_equal(fts_store_str(f->store, fts_store_lane(f->store, st.lane)->tid),
			    "kworker/0:1:200");
	/* by pid too */
	keys(v, "/300\\n");
	fts_view_state(v, &st);
	assert_int_equal(st.matches, 1);
	assert_int_equal(fts_store_lane(f->store, st.lane)->pid, 300);
	keys(v, "/o\\n"); /* model, kworker, "owned" */
	fts_view_state(v, &st);
	assert_int_equal(st.matches, 3);
	g = fts_view_draw(v);
	assert_true(row_of(g, "\xe6\x97\xa5") > 0);
	keys(v, "f");
	g = fts_view_draw(v);
	assert_int_equal(row_of(g, "\xe6\x97\xa5"), -1); /* filtered out */
	assert_true(row_of(g, "CPU 000") > 0);          /* CPU lanes stay */
	keys(v, "f");
	g = fts_view_draw(v);
	assert_true(row_of(g, "\xe6\x97\xa5") > 0);
	/* Esc leaves the search untouched */
	keys(v, "/zzz\\e");
	fts_view_state(v, &st);
	assert_int_equal(st.matches, 3);
	/* pin the CJK lane: it moves to the top, under a Pinned header */
	keys(v, "/400\\np");
	g = fts_view_draw(v);
	assert_non_null(strstr(row_text(g, 3), "Pinned (1)"));
	assert_non_null(strstr(row_text(g, 4), "\xe6\x97\xa5"));
	keys(v, "p");
	g = fts_view_draw(v);
	assert_null(strstr(row_text(g, 3), "Pinned"));
	/* sort cycles and says so */
	keys(v, "o");
	fts_view_state(v, &st);
	assert_non_null(strstr(st.message, "runnable"));
	g = fts_view_draw(v);
	assert_non_null(strstr(row_text(g, row_of(g, "CPU 001") + 1), "by runnable time"));
	keys(v, "ooo");
	fts_view_state(v, &st);
	assert_non_null(strstr(st.message, "running"));
}

static void test_panes_and_every_key(void **state)
{
	struct fx *f = *state;
	struct fts_view *v = mkview(f, 1, 256, 100, 24);
	const struct fts_grid *g;
	struct fts_view_state st;
	int k[4];

	g = fts_view_draw(v);
	/* details of the run under the cursor: the task, what ran after */
	assert_non_null(strstr(row_text(g, 21), "run model:100"));
	assert_non_null(strstr(row_text(g, 22), "after: kworker/0:1:200"));
	keys(v, "\\n");
	fts_view_state(v, &st);
	assert_true(st.details_big);
	keys(v, "\\t");
	fts_view_state(v, &st);
	assert_true(st.focus_details);
	keys(v, "\\t");
	assert_true(keys(v, "q") == FTS_RX_REDRAW); /* q closes the big details first */
	keys(v, "m");
	keys(v, "llll");
	g = fts_view_draw(v);
	assert_non_null(strstr(row_text(g, g->h - 1), "marker +"));
	keys(v, "?");
	fts_view_state(v, &st);
	assert_true(st.help);
	g = fts_view_draw(v);
	assert_true(row_of(g, "zoom in") < 0); /* help rows start with keys, not labels */
	assert_non_null(strstr(row_text(g, 11), "zoom"));
	keys(v, "q");
	fts_view_state(v, &st);
	assert_false(st.help);
	/* every key of the table, twice, in every mode, never crashes */
	for (int a = 0; a < 2; a++) {
		for (int key = 1; key < 0x80; key++) {
			if (key == 'q' || key == FTS_KEY_ESC)
				continue;
			fts_view_key(v, key);
			fts_view_draw(v);
		}
	}
	for (int key = FTS_KEY_UP; key <= FTS_KEY_BTAB; key++) {
		fts_view_key(v, key);
		fts_view_draw(v);
	}
	while (!(fts_view_key(v, FTS_KEY_ESC) & FTS_RX_QUIT))
		fts_view_draw(v);
	assert_int_equal(fts_keys_parse("q", k, 4), 1);
	assert_true(fts_view_key(v, k[0]) & FTS_RX_QUIT);
}

static void test_mouse(void **state)
{
	struct fx *f = *state;
	struct fts_view *v = mkview(f, 1, 256, 100, 24);
	const struct fts_grid *g = fts_view_draw(v);
	struct fts_view_state a, b;
	int y = row_of(g, "kworker");

	fts_view_state(v, &a);
	fts_view_mouse(v, FTS_MOUSE_CLICK, a.time_x + 10, y);
	fts_view_state(v, &b);
	assert_int_equal(b.lane, (uint32_t)fts_view_lane_at_row(v, y));
	assert_int_equal(b.cursor, a.t0 + 10 * a.ns_per_col);
	fts_view_mouse(v, FTS_MOUSE_RELEASE, a.time_x + 10, y);
	fts_view_mouse(v, FTS_MOUSE_WHEEL_UP, a.time_x + 10, y);
	fts_view_state(v, &a);
	assert_int_equal(a.ns_per_col, b.ns_per_col / 2);
	fts_view_mouse(v, FTS_MOUSE_CLICK, a.time_x + 10, y);
	fts_view_mouse(v, FTS_MOUSE_DRAG, a.time_x + 4, y);
	fts_view_state(v, &b);
	assert_int_equal(b.t0, a.t0 + 6 * a.ns_per_col);
}

static void test_summary(void **state)
{
	struct fx *f = *state;
	struct fts_store_open_opts so = { .path = f->path };
	struct fts_store *store = NULL;
	struct fts_stats *st = NULL;
	struct fts_view_opts o = { .title = f->path, .utf8 = 1 };
	struct fts_view *v = NULL;
	struct fts_view_state vs;
	const struct fts_grid *g;

	/* the summary's numbers come from the stats sink fed while the store loads */
	assert_int_equal(fts_stats_create(NULL, &st, NULL), 0);
	so.extra = fts_stats_sink(st);
	assert_int_equal(fts_store_open(&so, &store, NULL), 0);
	assert_int_equal(fts_view_create(store, &o, 120, 24, &v), 0);
	fts_view_set_stats(v, st);
	keys(v, "s");
	g = fts_view_draw(v);
	assert_non_null(strstr(row_text(g, 0), "per-task summary, 4 tasks, by runnable"));
	/* evil waits 4 ms (woken at 16 ms, never ran again), model 50 us (preempted by the kworker) */
	assert_non_null(strstr(row_text(g, 2), ">evil^[]0;owned^G:300"));
	assert_non_null(strstr(row_text(g, 2), "4.0ms"));
	assert_non_null(strstr(row_text(g, 3), "model:100"));
	assert_non_null(strstr(row_text(g, 3), "50.0\xc2\xb5s"));
	assert_non_null(strstr(row_text(g, 3), "19.9ms")); /* running 19.95 ms */
	/* by task name, A-Z (byte order: the CJK name last), then reversed */
	keys(v, "hh");
	g = fts_view_draw(v);
	assert_non_null(strstr(row_text(g, 0), "by task (A-Z)"));
	assert_non_null(strstr(row_text(g, 2), "evil^["));
	assert_non_null(strstr(row_text(g, 5), "\xe6\x97\xa5"));
	keys(v, "r");
	g = fts_view_draw(v);
	assert_non_null(strstr(row_text(g, 2), "\xe6\x97\xa5"));
	/* Enter goes to the row's lane */
	keys(v, "g\n");
	fts_view_state(v, &vs);
	assert_false(vs.summary);
	assert_string_equal(fts_store_str(store, fts_store_lane(store, vs.lane)->tid),
			    fts_stats_task(st, 0)->tid);
	fts_view_free(v);
	fts_store_free(store);
	fts_stats_free(st);
}

/* Defect 12: n / N cycle through the search's matches as less does, wrapping with a message. */
static void test_search_cycles(void **state)
{
	struct fx *f = *state;
	struct fts_view *v = mkview(f, 1, 256, 100, 24);
	struct fts_view_state st;
	uint32_t first, seen[3];

	fts_view_draw(v);
	keys(v, "n");
	fts_view_state(v, &st);
	assert_non_null(strstr(st.message, "no search yet"));
	keys(v, "/o\\n"); /* model, kworker, "owned": 3 matches, the first selected */
	fts_view_state(v, &st);
	first = st.lane;
	seen[0] = st.lane;
	keys(v, "n");
	fts_view_state(v, &st);
	seen[1] = st.lane;
	assert_non_null(strstr(st.message, "match 2 of 3"));
	keys(v, "n");
	fts_view_state(v, &st);
	seen[2] = st.lane;
	assert_true(seen[0] != seen[1] && seen[1] != seen[2] && seen[0] != seen[2]);
	for (int i = 0; i < 3; i++)
		assert_true(fts_store_lane(f->store, seen[i])->group == FTS_GROUP_TASK);
	/* past the last: back to the first, and it says so */
	keys(v, "n");
	fts_view_state(v, &st);
	assert_int_equal(st.lane, first);
	assert_non_null(strstr(st.message, "search hit BOTTOM, continuing at TOP"));
	/* N from the first wraps to the last */
	keys(v, "N");
	fts_view_state(v, &st);
	assert_int_equal(st.lane, seen[2]);
	assert_non_null(strstr(st.message, "search hit TOP"));
	keys(v, "N");
	fts_view_state(v, &st);
	assert_int_equal(st.lane, seen[1]);
	/* runs moved to r / R: n is not a run key any more */
	assert_int_equal(fts_key_action('n'), FTS_ACT_NEXT_MATCH);
	assert_int_equal(fts_key_action('r'), FTS_ACT_NEXT_RUN);
}

/* The "view A of B" of the status line: A and B, as printed. */
static void view_of(const struct fts_grid *g, char *a, char *b, size_t n)
{
	const char *s = strstr(row_text(g, g->h - 1), "view "), *of, *end;

	if (!s)
		fprintf(stderr, "status: %s\n", row_text(g, g->h - 1));
	assert_non_null(s);
	s += 5;
	of = strstr(s, " of ");
	assert_non_null(of);
	end = strstr(of + 4, " |");
	if (!end)
		for (end = of + 4 + strlen(of + 4); end > of + 4 && end[-1] == ' '; end--)
			;
	snprintf(a, n, "%.*s", (int)(of - s), s);
	snprintf(b, n, "%.*s", (int)(end - of - 4), of + 4);
}

/* Defect 6: a whole view stays whole across resizes; zoom and pan stay inside the capture. */
static void test_view_stays_inside(void **state)
{
	struct fx *f = *state;
	struct fts_view *v = mkview(f, 1, 256, 80, 24);
	const struct fts_store_info *info = fts_store_info(f->store);
	const struct fts_grid *g;
	struct fts_view_state st;
	char a[32], b[32];

	keys(v, "lll"); /* the cursor moves, the view stays whole */
	assert_int_equal(fts_view_resize(v, 200, 50), 0);
	g = fts_view_draw(v);
	fts_view_state(v, &st);
	assert_int_equal(st.t0, info->t_begin);
	assert_true(st.t0 + (uint64_t)st.time_w * st.ns_per_col >= info->t_end);
	/* before the fix: the 80-column scale kept, "view 50.0 ms of 20.0 ms" */
	assert_true((uint64_t)(st.time_w - 1) * st.ns_per_col < info->t_end - info->t_begin);
	view_of(g, a, b, sizeof(a));
	assert_string_equal(a, b);
	assert_int_equal(fts_view_resize(v, 80, 24), 0);
	g = fts_view_draw(v);
	view_of(g, a, b, sizeof(a));
	assert_string_equal(a, b);
	/* zooming out from anywhere stops at the whole capture, never past its start */
	keys(v, "G+++");
	for (int i = 0; i < 20; i++) {
		keys(v, "-");
		fts_view_state(v, &st);
		assert_true(st.t0 >= info->t_begin);
		assert_true(st.t0 + (uint64_t)st.time_w * st.ns_per_col >= st.t0);
	}
	assert_non_null(strstr(st.message, "whole capture"));
	keys(v, "k"); /* a key that says nothing: the status line has room for the view again */
	g = fts_view_draw(v);
	view_of(g, a, b, sizeof(a));
	assert_string_equal(a, b);
	assert_int_equal(st.t0, info->t_begin);
	/* a zoomed view pans to the ends and no further */
	keys(v, "++++g");
	for (int i = 0; i < 50; i++) {
		keys(v, "H");
		fts_view_state(v, &st);
		assert_true(st.t0 >= info->t_begin);
	}
	assert_int_equal(st.t0, info->t_begin);
	assert_non_null(strstr(st.message, "at the start"));
	for (int i = 0; i < 50; i++) {
		keys(v, "L");
		fts_view_state(v, &st);
		assert_true(st.t0 + (uint64_t)st.time_w * st.ns_per_col <= info->t_end);
		assert_true(st.cursor >= st.t0 && st.cursor < info->t_end);
	}
	assert_non_null(strstr(st.message, "at the end"));
	/* a zoomed view keeps its scale across a resize */
	fts_view_state(v, &st);
	assert_int_equal(fts_view_resize(v, 120, 30), 0);
	fts_view_draw(v);
	{
		struct fts_view_state r;

		fts_view_state(v, &r);
		assert_int_equal(r.ns_per_col, st.ns_per_col);
		assert_true(r.t0 + (uint64_t)r.time_w * r.ns_per_col <= info->t_end);
	}
}

/* No cell of @g is the grid's cut mark: nothing was truncated. */
static int uncut(const struct fts_grid *g)
{
	for (int i = 0; i < g->w * g->h; i++) {
		if (g->cells[i].ch == 0x2026 || g->cells[i].ch == '~')
			return 0;
	}
	return 1;
}

/* Defect 11: help wraps at 80 and 200 columns, scrolls over real lines, returns where it came from. */
/*
 * The rows a frame keeps (view_rows.c) are never stale: after every key of
 * a long session over the real sample (zoom, pan, lanes, pins, filter,
 * sort, search, resize), the frame drawn from kept rows is the frame drawn
 * with none kept. The sample shows more lanes than the threshold for a
 * second thread, so both threads' rows are checked.
 */
static void test_kept_rows_match_fresh(void **state)
{
	static const char *const session[] = {
		"+++", "lll", "jjjj", "p", "jj", "p", "<PgDn>", "-", "hhhh", "L", "<PgUp>", "k",
		"/kworker\\n", "f", "+", "H", "f", "s", "s", "]]", "[", "n", "0", "G", "g", "--",
		"++++++", "LLLL", "<End>", "<Home>", "jjjjjjjjjjjj", "P", "-",
	};
	struct fts_store_open_opts so = { .path = FTS_ASSETS "/sample/sample.txt" };
	struct fts_view_opts o = { .title = "sample", .utf8 = 1, .colors = 256 };
	struct fts_err err = { 0 };
	struct fts_store *store;
	struct fts_view *v;
	size_t ncell;
	struct fts_cell *kept;
	int most = 0;

	(void)state;
	assert_int_equal(fts_store_open(&so, &store, &err), 0);
	assert_int_equal(fts_view_create(store, &o, 120, 40, &v), 0);
	fts_view_draw(v);
	for (size_t i = 0; i < sizeof(session) / sizeof(session[0]); i++) {
		int k[64], n = fts_keys_parse(session[i], k, 64);

		assert_true(n > 0);
		if (i == sizeof(session) / 2)
			assert_int_equal(fts_view_resize(v, 100, 30), 0);
		for (int j = 0; j < n; j++) {
			const struct fts_grid *g;

			fts_view_key(v, k[j]);
			g = fts_view_draw(v);
			most = v->nrows > most ? v->nrows : most;
			ncell = (size_t)g->w * (size_t)g->h;
			kept = malloc(ncell * sizeof(*kept));
			assert_non_null(kept);
			memcpy(kept, g->cells, ncell * sizeof(*kept));
			view_rows_free(v);
			g = fts_view_draw(v);
			if (memcmp(kept, g->cells, ncell * sizeof(*kept)))
				fail_msg("key %zu.%d (%s): the kept rows drew another frame", i, j, session[i]);
			free(kept);
		}
	}
	assert_true(most >= 8); /* enough rows for the second thread */
	fts_view_free(v);
	fts_store_free(store);
}

static void test_help_overlay(void **state)
{
	struct fx *f = *state;
	struct fts_store_open_opts so = { .path = f->path };
	struct fts_view_opts o = { .title = f->path, .utf8 = 1, .export_key = 1 };
	struct fts_store *store = NULL;
	struct fts_stats *stats = NULL;
	struct fts_view *v = NULL;
	struct fts_view_state st;
	const struct fts_grid *g;
	int sizes[][2] = { { 80, 24 }, { 200, 50 }, { 100, 30 } };
	char buf[64];

	assert_int_equal(fts_stats_create(NULL, &stats, NULL), 0);
	so.extra = fts_stats_sink(stats);
	assert_int_equal(fts_store_open(&so, &store, NULL), 0);
	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		int found_e = 0, found_last = 0, blank_tail = 0;

		fts_view_free(v);
		assert_int_equal(fts_view_create(store, &o, sizes[z][0], sizes[z][1], &v), 0);
		fts_view_set_stats(v, stats);
		/* the title's key bar names e where the caller binds it */
		g = fts_view_draw(v);
		if (g->w >= 100)
			assert_non_null(strstr(row_text(g, 0), "e:export"));
		keys(v, "?");
		for (int i = 0; i < 200; i++) {
			g = fts_view_draw(v);
			assert_true(uncut(g));
			for (int y = 1; y < g->h; y++) {
				found_e |= strstr(row_text(g, y), " e ") == row_text(g, y);
				found_last |= strstr(row_text(g, y), "window.") != NULL;
			}
			keys(v, "j");
		}
		g = fts_view_draw(v);
		/*
		 * scrolled as far as it goes: the last line is on screen, and rows after
		 * it are blank only when the whole help fits (then it starts at the top)
		 */
		{
			int last = -1;

			for (int y = 1; y < g->h; y++)
				if (strstr(row_text(g, y), "window."))
					last = y;
			assert_true(last > 0);
			for (int y = last + 1; y < g->h; y++)
				blank_tail += strspn(row_text(g, y), " ") == strlen(row_text(g, y));
			assert_int_equal(blank_tail, g->h - 1 - last);
			if (last < g->h - 1)
				assert_non_null(strstr(row_text(g, 1), "q Esc"));
		}
		assert_true(found_e);
		assert_true(found_last);
		/* every key of the table is listed */
		keys(v, "g");
		for (size_t i = 0; i < fts_view_keys.n; i++) {
			int listed = 0;

			fts_bind_keys(&fts_view_keys, i, buf, sizeof(buf));
			for (int top = 0; top < 80 && !listed; top++) {
				g = fts_view_draw(v);
				for (int y = 1; y < g->h && !listed; y++)
					listed = !strncmp(row_text(g, y) + 1, buf, strlen(buf));
				keys(v, "j");
			}
			if (!listed)
				fprintf(stderr, "not listed: '%s' at %dx%d\n", buf, g->w, g->h);
			assert_true(listed);
			keys(v, "<PgUp><PgUp><PgUp><PgUp><PgUp><PgUp><PgUp><PgUp><PgUp>");
		}
		keys(v, "q");
		fts_view_state(v, &st);
		assert_false(st.help);
	}
	/* s, ?, q: back to the summary, not the lanes; q again: the lanes */
	keys(v, "s?");
	fts_view_state(v, &st);
	assert_true(st.help);
	keys(v, "q");
	fts_view_state(v, &st);
	assert_false(st.help);
	assert_true(st.summary);
	g = fts_view_draw(v);
	assert_non_null(strstr(row_text(g, 0), "per-task summary"));
	keys(v, "q");
	fts_view_state(v, &st);
	assert_false(st.summary);
	fts_view_free(v);
	fts_store_free(store);
	fts_stats_free(stats);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dominant_and_marks),
		cmocka_unit_test(test_escaped_and_wide_names),
		cmocka_unit_test(test_ascii_fallback),
		cmocka_unit_test(test_resize),
		cmocka_unit_test(test_zoom_and_move),
		cmocka_unit_test(test_items_and_runs),
		cmocka_unit_test(test_search_filter_pin_sort),
		cmocka_unit_test(test_panes_and_every_key),
		cmocka_unit_test(test_mouse),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_search_cycles),
		cmocka_unit_test(test_view_stays_inside),
		cmocka_unit_test(test_help_overlay),
		cmocka_unit_test(test_kept_rows_match_fresh),
	};

	if (!setlocale(LC_CTYPE, "C.UTF-8")) {
		fprintf(stderr, "no C.UTF-8 locale\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
