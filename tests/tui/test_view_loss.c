// SPDX-License-Identifier: MIT
/*
 * Unit tests of how the lane view shows loss (issue 15): "no data" holes on
 * CPU and task lanes and in the busy strip, the loss model's words in the
 * labels, the status line and the details, and x / X between losses.
 *
 * The capture is our Chrome JSON, written here, with the items the model
 * emits after lost events (a "no data" slice over the hole on the CPU lane
 * and on each task lane it cuts, a "lost events" marker where data resumes),
 * read back by fts_store_open as `ftscope preview` reads it.
 */
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

#include "tui/widgets/keys.h"
#include "tui/widgets/theme.h"
#include "tui/preview/view.h"

#define META(tid, grp) \
	"{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":\"" grp "\",\"tid\":\"" tid "\",\"args\":{\"name\":\"" tid "\"}},\n"
#define X(name, ts, dur, grp, tid, args) \
	"{\"name\":\"" name "\",\"ph\":\"X\",\"ts\":" ts ",\"dur\":" dur ",\"pid\":\"" grp "\",\"tid\":\"" tid "\",\"args\":{" args "}},\n"
#define CPU "CPU Scheduling"
#define TASK "Process Scheduling"

/*
 * 100 ms. CPU 0: alpha runs 0-10 ms, a hole 10-60 ms, 500 events lost (the
 * kernel counted 800 on that CPU), beta runs 60-100 ms. CPU 1: gamma runs all
 * along except a hole 10-40 ms after a drop of unknown size. Task lanes:
 * alpha runs, hole, sleeps; beta sleeps, hole, runs; gamma runs, hole, runs.
 */
static const char capture[] =
"[\n"
"{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":\"" CPU "\",\"args\":{\"name\":\"" CPU "\"}},\n"
"{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":\"" TASK "\",\"args\":{\"name\":\"" TASK "\"}},\n"
META("CPU 000", CPU) META("CPU 001", CPU)
META("alpha:1", TASK) META("beta:2", TASK) META("gamma:3", TASK)
X("alpha:1", "1000000.000", "10000.000", CPU, "CPU 000", "\"host_pid\":\"1\"")
X("no data", "1010000.000", "50000.000", CPU, "CPU 000", "")
X("lost events", "1060000.000", "0.000", CPU, "CPU 000",
  "\"count\":\"500\",\"kernel_lost\":\"800\",\"no_data_us\":\"50000\"")
X("beta:2", "1060000.000", "40000.000", CPU, "CPU 000", "\"host_pid\":\"2\"")
X("gamma:3", "1000000.000", "10000.000", CPU, "CPU 001", "\"host_pid\":\"3\"")
X("no data", "1010000.000", "30000.000", CPU, "CPU 001", "")
X("lost events", "1040000.000", "0.000", CPU, "CPU 001", "\"count\":\"unknown\",\"no_data_us\":\"30000\"")
X("gamma:3", "1040000.000", "60000.000", CPU, "CPU 001", "\"host_pid\":\"3\"")
X("Running", "1000000.000", "10000.000", TASK, "alpha:1", "\"cpu\":\"0\"")
X("no data", "1010000.000", "50000.000", TASK, "alpha:1", "")
X("Sleeping", "1060000.000", "40000.000", TASK, "alpha:1", "\"cpu\":\"0\",\"state\":\"S\"")
X("Sleeping", "1000000.000", "10000.000", TASK, "beta:2", "\"cpu\":\"0\",\"state\":\"S\"")
X("no data", "1010000.000", "50000.000", TASK, "beta:2", "")
X("Running", "1060000.000", "40000.000", TASK, "beta:2", "\"cpu\":\"0\"")
X("Running", "1000000.000", "10000.000", TASK, "gamma:3", "\"cpu\":\"1\"")
X("no data", "1010000.000", "30000.000", TASK, "gamma:3", "")
"{\"name\":\"Running\",\"ph\":\"X\",\"ts\":1040000.000,\"dur\":60000.000,\"pid\":\"" TASK
"\",\"tid\":\"gamma:3\",\"args\":{\"cpu\":\"1\"}}\n"
"]\n";

struct fx {
	char dir[64], path[96];
	struct fts_store *store;
	struct fts_view *view;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct fts_store_open_opts so = { 0 };
	struct fts_err err = { 0 };
	FILE *fp;

	snprintf(f->dir, sizeof(f->dir), "/tmp/fts_vloss_XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/lossy.json", f->dir);
	fp = fopen(f->path, "w");
	if (!fp || fwrite(capture, 1, sizeof(capture) - 1, fp) != sizeof(capture) - 1 || fclose(fp))
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

static struct fts_view *mkview(struct fx *f, int utf8, int w, int h)
{
	struct fts_view_opts o = { .title = f->path, .utf8 = utf8, .colors = 256 };

	fts_view_free(f->view);
	f->view = NULL;
	assert_int_equal(fts_view_create(f->store, &o, w, h, &f->view), 0);
	return f->view;
}

static const char *row_text(const struct fts_grid *g, int y)
{
	static char buf[4096];

	fts_grid_row_text(g, y, buf, sizeof(buf));
	return buf;
}

static int row_of(const struct fts_grid *g, const char *label)
{
	for (int y = 0; y < g->h; y++) {
		if (!strncmp(row_text(g, y) + 1, label, strlen(label)))
			return y;
	}
	return -1;
}

/* The time-area cell of row @y over time @ms (ms from the capture's start). */
static const struct fts_cell *cell_at(const struct fts_view *v, const struct fts_grid *g, int y,
				      double ms)
{
	struct fts_view_state st;
	uint64_t t = (uint64_t)(ms * 1e6); /* the whole view: column 0 is the capture's start */

	fts_view_state(v, &st);
	return &g->cells[(size_t)y * (size_t)g->w + (size_t)st.time_x + (size_t)(t / st.ns_per_col)];
}

static void keys(struct fts_view *v, const char *s)
{
	int k[64], n = fts_keys_parse(s, k, 64);

	assert_true(n >= 0);
	for (int i = 0; i < n; i++) {
		fts_view_key(v, k[i]);
		fts_view_draw(v);
	}
}

/* Holes are '?' in their own colour on CPU and task lanes, in UTF-8 and ASCII, and in the legend. */
static void test_holes_drawn(void **state)
{
	struct fx *f = *state;

	for (int utf8 = 1; utf8 >= 0; utf8--) {
		struct fts_view *v = mkview(f, utf8, 120, 30);
		const struct fts_grid *g = fts_view_draw(v);
		struct fts_theme th;
		int cpu0 = row_of(g, "CPU 000"), alpha = row_of(g, "alpha:1"), gamma = row_of(g, "gamma:3");
		int beta = row_of(g, "beta:2");

		fts_theme_init(&th, utf8, 256, 0);
		assert_true(cpu0 > 0 && alpha > 0 && gamma > 0 && beta > 0);
		/* inside the holes */
		assert_int_equal(cell_at(v, g, cpu0, 30)->ch, '?');
		assert_int_equal(cell_at(v, g, cpu0, 30)->st.bg, fts_theme_style(&th, FTS_R_NODATA).bg);
		assert_int_equal(cell_at(v, g, alpha, 30)->ch, '?');
		assert_int_equal(cell_at(v, g, beta, 50)->ch, '?');
		assert_int_equal(cell_at(v, g, gamma, 20)->ch, '?');
		/* outside them: the tasks and states as before */
		assert_int_equal(cell_at(v, g, cpu0, 5)->ch, 'a');
		assert_int_equal(cell_at(v, g, cpu0, 80)->ch, 'b');
		assert_int_equal(cell_at(v, g, gamma, 50)->ch, utf8 ? 0x2588 : '#');
		assert_int_equal(cell_at(v, g, alpha, 80)->ch, utf8 ? 0x00b7 : '.');
		/* the legends name it */
		assert_non_null(strstr(row_text(g, cpu0 - 1), "? no data"));
		assert_non_null(strstr(row_text(g, alpha < gamma ? alpha - 1 : gamma - 1), "? no data"));
		for (int y = 0; y < g->h; y++) {
			if (!strncmp(row_text(g, y), "Process Scheduling", 18))
				assert_non_null(strstr(row_text(g, y), "? no data"));
		}
	}
}

/*
 * The busy strip leaves holes out of busy and idle alike: where CPU 0 has no
 * data and CPU 1 runs (40-60 ms), the strip is full, not half; where both
 * have none (10-40 ms) it says '?'.
 */
static void test_busy_strip(void **state)
{
	struct fx *f = *state;
	struct fts_view *v = mkview(f, 1, 120, 30);
	const struct fts_grid *g = fts_view_draw(v);

	assert_int_equal(cell_at(v, g, 1, 25)->ch, '?');
	assert_int_equal(cell_at(v, g, 1, 50)->ch, 0x2588);
	assert_int_equal(cell_at(v, g, 1, 80)->ch, 0x2588);
}

/* Labels, status line and details speak the loss model's words, never "lost 0". */
static void test_loss_words(void **state)
{
	struct fx *f = *state;
	struct fts_view *v = mkview(f, 1, 160, 30);
	const struct fts_grid *g = fts_view_draw(v);
	const char *status;

	/* the kernel's 800 on CPU 0, an unknown-size drop on CPU 1 */
	assert_non_null(strstr(row_text(g, row_of(g, "CPU 000")), "!800"));
	/* a label has no room for "1 drop of unknown size": the short form, never "!0" */
	assert_non_null(strstr(row_text(g, row_of(g, "CPU 001")), "!?"));
	status = row_text(g, g->h - 1);
	assert_non_null(strstr(status, "lost at least 800 events, plus 1 drop of unknown size"));
	assert_null(strstr(status, "lost 0"));
	/* the details of CPU 1 use the model's words in full */
	keys(v, "j");
	g = fts_view_draw(v);
	{
		int found = 0;

		for (int y = 0; y < g->h; y++)
			found |= strstr(row_text(g, y), "CPU 001  4 items  lost 1 drop of unknown size") != NULL;
		assert_true(found);
	}
	/* the cursor in CPU 0's hole: how long, how much, the CPU's total */
	v = mkview(f, 1, 160, 30);
	keys(v, "x");
	g = fts_view_draw(v);
	{
		char all[4096] = "";

		for (int y = 0; y < g->h; y++)
			strcat(all, row_text(g, y)), strcat(all, "\n");
		assert_non_null(strstr(all, "no data: hole of 50 ms on CPU 0, 500 events lost here; CPU 0 in all: 800"));
	}
}

/* x / X go from loss to loss over every CPU; the '!' under the cursor is in the details. */
static void test_loss_navigation(void **state)
{
	struct fx *f = *state;
	struct fts_view *v = mkview(f, 1, 160, 30);
	const struct fts_store_info *info = fts_store_info(f->store);
	const struct fts_grid *g;
	struct fts_view_state st;
	uint64_t ms = 1000000;
	const uint64_t want[] = { 10, 40, 60 };
	const int cpu[] = { 0, 1, 0 };

	fts_view_draw(v);
	keys(v, "j"); /* any lane: x picks the CPU lane itself */
	for (int i = 0; i < 3; i++) {
		keys(v, "x");
		fts_view_state(v, &st);
		assert_int_equal(st.cursor - info->t_begin, want[i] * ms);
		assert_int_equal(fts_store_lane(f->store, st.lane)->cpu, cpu[i]);
	}
	/* on the '!' at 60 ms: the marker, not beta's run, is in the details */
	g = fts_view_draw(v);
	{
		int found = 0;

		for (int y = 0; y < g->h; y++)
			found |= strstr(row_text(g, y), "lost events: 500 dropped here on CPU 0; CPU 0 in all: 800") != NULL;
		assert_true(found);
	}
	keys(v, "x");
	fts_view_state(v, &st);
	assert_non_null(strstr(st.message, "no later loss"));
	keys(v, "X");
	fts_view_state(v, &st);
	assert_int_equal(st.cursor - info->t_begin, 40 * ms);
	keys(v, "XX");
	fts_view_state(v, &st);
	assert_int_equal(st.cursor - info->t_begin, 10 * ms);
	assert_non_null(strstr(st.message, "no earlier loss"));
	/* the key bar offers x on a lossy capture */
	g = fts_view_draw(v);
	assert_non_null(strstr(row_text(g, 0), "x:next loss"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_holes_drawn),
		cmocka_unit_test(test_busy_strip),
		cmocka_unit_test(test_loss_words),
		cmocka_unit_test(test_loss_navigation),
	};

	if (!setlocale(LC_CTYPE, "C.UTF-8")) {
		fprintf(stderr, "no C.UTF-8 locale\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
