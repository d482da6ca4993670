// SPDX-License-Identifier: MIT
/*
 * Unit tests of the loading screen and the cost estimate (issue 15, defects
 * 7 and 19): the cost is told before loading, the screen moves from the
 * first second although no report has come, and an ETA is a time.
 */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <unistd.h>

#include <ftscope/preview.h>

#include "tui/widgets/grid.h"
#include "tui/widgets/theme.h"
#include "tui/preview/loading.h"

#ifndef FTS_SRCDIR
#error "FTS_SRCDIR is the source tree (for assets/sample)"
#endif

static const char *row_text(const struct fts_grid *g, int y)
{
	static char buf[4096];

	fts_grid_row_text(g, y, buf, sizeof(buf));
	return buf;
}

static int screen_has(const struct fts_grid *g, const char *s)
{
	for (int y = 0; y < g->h; y++) {
		if (strstr(row_text(g, y), s))
			return 1;
	}
	return 0;
}

/* Cells of the bar drawn full (UTF-8 full block). */
static int filled(const struct fts_grid *g)
{
	int n = 0;

	for (int i = 0; i < g->w * g->h; i++)
		n += g->cells[i].ch == 0x2588;
	return n;
}

/* The estimate is told from the file alone, and lands near what loading it gives. */
static void test_estimate(void **state)
{
	const char *inputs[] = { FTS_SRCDIR "/assets/sample/sample.dat", FTS_SRCDIR "/assets/sample/sample.txt" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct fts_store_open_opts so = { .path = inputs[i] };
		struct fts_store_estimate e;
		struct fts_store *s = NULL;
		double items;

		assert_int_equal(fts_store_estimate(inputs[i], &e, NULL), 0);
		assert_int_equal(e.source, i == 0 ? FTS_SRC_TRACE_DAT : FTS_SRC_TRACE_TEXT);
		assert_int_equal(e.compressed, i == 0); /* the sample's trace.dat is zstd */
		assert_true(e.input_bytes > 1000000);
		assert_true(e.bytes > e.items * 32); /* never below the store's own budget */
		assert_true(e.seconds > 0);
		assert_int_equal(fts_store_open(&so, &s, NULL), 0);
		items = (double)fts_store_info(s)->items;
		/* a size-based guess: within a factor of 3 of the truth on the sample */
		assert_true((double)e.items > items / 3 && (double)e.items < items * 3);
		fts_store_free(s);
	}
	assert_true(fts_store_estimate("/nonexistent/x.dat", &(struct fts_store_estimate){ 0 }, NULL) < 0);
}

/*
 * Before any report (the trace.dat reader's first comes after a million
 * events), one second in: the elapsed time shows, the bar has moved (as an
 * estimate, said so), and nothing reads "0 events".
 */
static void test_moves_before_reports(void **state)
{
	struct fts_load_view lv;
	struct fts_progress p;
	struct fts_theme th;
	struct fts_grid g = { 0 };

	(void)state;
	fts_theme_init(&th, 1, 256, 0);
	assert_int_equal(fts_grid_resize(&g, 100, 24, 1), 0);
	fts_load_view_init(&lv, FTS_SRCDIR "/assets/sample/sample.dat", 100.0);
	assert_true(lv.has_estimate);
	lv.est.seconds = 4.0; /* a capture that takes 4 s */
	memset(&p, 0, sizeof(p));
	p.stage = FTS_STAGE_READ;
	p.unit = "bytes";
	fts_progress_draw(&g, &th, &lv, &p, 100.0);
	assert_int_equal(filled(&g), 0);
	fts_progress_draw(&g, &th, &lv, &p, 101.0);
	assert_true(filled(&g) > 0);
	assert_true(screen_has(&g, "elapsed 1.0 s"));
	assert_true(screen_has(&g, "estimated"));
	assert_true(screen_has(&g, "ETA about 3.0 s"));
	assert_false(screen_has(&g, "0 events"));
	/* the cost, told before loading */
	assert_true(screen_has(&g, "trace.dat (compressed), 1.3 MiB: about"));
	assert_true(screen_has(&g, "of memory"));
	/* later than estimated: the bar stops short of full and says so */
	fts_progress_draw(&g, &th, &lv, &p, 110.0);
	assert_true(filled(&g) < 96);
	assert_true(screen_has(&g, "longer than estimated"));
	/* a report with a total: measured, and the ETA is a time, not a size */
	p.done = 25 << 20;
	p.total = 100 << 20;
	p.events = 1000000;
	p.elapsed_s = 2.0;
	fts_progress_draw(&g, &th, &lv, &p, 102.0);
	assert_true(screen_has(&g, " 25%"));
	assert_true(screen_has(&g, "1.0M events"));
	{
		const char *eta = NULL;

		for (int y = 0; y < g.h && !eta; y++)
			eta = strstr(row_text(&g, y), "ETA ");
		assert_non_null(eta);
		assert_non_null(strstr(eta, "6.0 s"));
		assert_null(strstr(eta, "iB"));
	}
	fts_grid_free(&g);
}

/*
 * Issue 20: the overview a load fills meanwhile. Loaded whole, its bins hold
 * every CPU's run time exactly (rebinning moves time, never loses it), and
 * the loading screen draws a row per CPU under the progress.
 */
static void test_sketch(void **state)
{
	struct fts_store_open_opts so = { .path = FTS_SRCDIR "/assets/sample/sample.txt" };
	struct fts_sketch_snap *k = malloc(sizeof(*k));
	const struct fts_store_info *in;
	struct fts_store *s = NULL;
	struct fts_load_view lv;
	struct fts_progress p;
	struct fts_theme th;
	struct fts_grid g = { 0 };
	char want[16];

	(void)state;
	assert_non_null(k);
	assert_int_equal(fts_sketch_new(&so.sketch), 0);
	assert_int_equal(fts_store_open(&so, &s, NULL), 0);
	in = fts_store_info(s);
	fts_sketch_read(so.sketch, k);
	assert_int_equal(k->items, in->items);
	assert_int_equal(k->ncpu, in->ncpu_lanes);
	assert_int_equal(k->ncpu_lanes, in->ncpu_lanes);
	assert_int_equal(k->ntask_lanes, in->ntask_lanes);
	assert_true(k->t_begin <= in->t_begin && k->t_end >= in->t_end);
	for (uint32_t r = 0; r < k->ncpu; r++) {
		uint64_t sum = 0;
		struct fts_bucket b;
		uint32_t lane = UINT32_MAX;

		for (uint64_t i = 0; i < FTS_SKETCH_BINS; i++)
			sum += k->busy[r][i];
		for (uint32_t l = 0; l < fts_store_nlanes(s); l++)
			if (fts_store_lane(s, l)->group == FTS_GROUP_CPU && fts_store_lane(s, l)->cpu == k->cpu[r])
				lane = l;
		assert_int_not_equal(lane, UINT32_MAX);
		fts_store_bucket(s, lane, in->t_begin, in->t_end + 1, &b);
		assert_true(sum > 0);
		assert_int_equal(sum, b.busy_ns);
	}
	/* the screen: progress on top, a row per CPU below */
	fts_theme_init(&th, 1, 256, 0);
	assert_int_equal(fts_grid_resize(&g, 100, 30, 1), 0);
	fts_load_view_init(&lv, so.path, 100.0);
	memset(&p, 0, sizeof(p));
	fts_progress_draw(&g, &th, &lv, &p, 101.0);
	assert_false(screen_has(&g, "Overview so far"));
	lv.snap = k;
	fts_progress_draw(&g, &th, &lv, &p, 101.0);
	assert_true(screen_has(&g, "Overview so far"));
	assert_true(screen_has(&g, "q or Ctrl+C"));
	for (uint32_t r = 0; r < k->ncpu; r++) {
		snprintf(want, sizeof(want), "CPU %-4d", k->cpu[r]);
		assert_true(screen_has(&g, want));
	}
	fts_grid_free(&g);
	fts_store_free(s);
	fts_sketch_free(so.sketch);
	free(k);
}

/*
 * A hostile time axis (issue 21 item 1's crafted DBs): run slices starting
 * at 2^63 - 1 and ending near 2^64 first, then one at 1000 ns. The bins
 * widen as far as 64 bits go and clamp the rest: no bin holds more time
 * than it spans (a wrapped bin end once added ~2^64 ns), and the screen
 * draws at every width without an out-of-range cast (UBSan builds).
 */
static void test_sketch_hostile(void **state)
{
	struct fts_store_open_opts so = { 0 };
	struct fts_sketch_snap *k = malloc(sizeof(*k));
	struct fts_store *s = NULL;
	struct fts_load_view lv;
	struct fts_progress p;
	struct fts_theme th;
	struct fts_grid g = { 0 };
	char path[256];
	sqlite3 *db;

	(void)state;
	assert_non_null(k);
	snprintf(path, sizeof(path), "%s/fts-sketch-%d.db", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (int)getpid());
	unlink(path);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
		"CREATE TABLE thread (track_id INTEGER PRIMARY KEY, tid TEXT, pid TEXT);"
		"CREATE TABLE slice (id INTEGER PRIMARY KEY, timestamp INTEGER, duration INTEGER,"
		" name TEXT, track_id INTEGER, args TEXT);"
		"INSERT INTO thread VALUES (1, 'CPU 000', 'CPU Scheduling');"
		"INSERT INTO slice VALUES (1, 9223372036854775807, 9223372036854775807, 'a:1', 1, '{}');"
		"INSERT INTO slice VALUES (2, 9223372036854774807, 1000, 'b:2', 1, '{}');"
		"INSERT INTO slice VALUES (3, 1000, 500, 'a:1', 1, '{}');", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	so.path = path;
	assert_int_equal(fts_sketch_new(&so.sketch), 0);
	assert_int_equal(fts_store_open(&so, &s, NULL), 0);
	fts_sketch_read(so.sketch, k);
	assert_int_equal(k->items, 3);
	assert_int_equal(k->ncpu, 1);
	assert_true(k->bin_ns > 0);
	for (uint64_t b = 0; b < FTS_SKETCH_BINS; b++)
		assert_true(k->busy[0][b] <= k->bin_ns);
	fts_theme_init(&th, 1, 256, 0);
	fts_load_view_init(&lv, path, 100.0);
	lv.snap = k;
	memset(&p, 0, sizeof(p));
	for (int w = 20; w <= 300; w += 7) {
		assert_int_equal(fts_grid_resize(&g, w, 20, 1), 0);
		fts_progress_draw(&g, &th, &lv, &p, 101.0);
	}
	assert_true(screen_has(&g, "CPU 0"));
	fts_grid_free(&g);
	fts_store_free(s);
	fts_sketch_free(so.sketch);
	free(k);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_estimate),
		cmocka_unit_test(test_moves_before_reports),
		cmocka_unit_test(test_sketch),
		cmocka_unit_test(test_sketch_hostile),
	};

	if (!setlocale(LC_CTYPE, "C.UTF-8")) {
		fprintf(stderr, "no C.UTF-8 locale\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
