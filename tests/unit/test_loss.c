// SPDX-License-Identifier: MIT
/* test_loss.c - the one loss model: counts, bounds, order and the words. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <ftscope/loss.h>

static struct fts_item marker(const char *count, const char *kernel)
{
	struct fts_item it = { .kind = FTS_ITEM_LOST, .ts = 10, .name = "lost events" };

	it.args[it.nargs++] = (struct fts_arg){ FTS_LOSS_ARG_COUNT, count };
	if (kernel)
		it.args[it.nargs++] = (struct fts_arg){ FTS_LOSS_ARG_KERNEL, kernel };
	return it;
}

/* Sized drops only: exact, their sum. */
static void test_sized(void **state)
{
	struct fts_loss l;
	char b[128];

	(void)state;
	fts_loss_init(&l);
	assert_false(fts_loss_any(&l));
	assert_string_equal(fts_loss_text(&l, 4, b, sizeof(b)), "none");
	assert_int_equal(fts_loss_add_drop(&l, 1, 10), 0);
	assert_int_equal(fts_loss_add_drop(&l, 1, 5), 0);
	assert_int_equal(fts_loss_total(&l, NULL), 15);
	assert_true(fts_loss_cpu_exact(&l.cpu[1]));
	assert_string_equal(fts_loss_cpu_text(&l.cpu[1], b, sizeof(b)), "15");
	assert_string_equal(fts_loss_text(&l, 4, b, sizeof(b)), "15 events (CPU 1: 15)");
	fts_loss_free(&l);
}

/* A drop without a size: a lower bound, never "0". */
static void test_unsized(void **state)
{
	struct fts_loss l;
	char b[128];
	int exact;

	(void)state;
	fts_loss_init(&l);
	fts_loss_add_drop(&l, 0, 0);
	assert_true(fts_loss_any(&l));
	assert_string_equal(fts_loss_cpu_text(&l.cpu[0], b, sizeof(b)), "1 drop of unknown size");
	fts_loss_add_drop(&l, 0, 7);
	fts_loss_add_drop(&l, 0, 0);
	assert_int_equal(fts_loss_total(&l, &exact), 7);
	assert_false(exact);
	assert_int_equal(fts_loss_unsized(&l), 2);
	assert_string_equal(fts_loss_cpu_text(&l.cpu[0], b, sizeof(b)),
			    "at least 7, plus 2 drops of unknown size");
	assert_string_equal(fts_loss_text(&l, 4, b, sizeof(b)),
			    "at least 7 events, plus 2 drops of unknown size (CPU 0: 7+)");
	/* the kernel's count settles it */
	fts_loss_set_kernel(&l, 0, 30, 1, 2);
	assert_int_equal(fts_loss_total(&l, &exact), 33);
	assert_true(exact);
	assert_string_equal(fts_loss_cpu_text(&l.cpu[0], b, sizeof(b)), "33");
	fts_loss_free(&l);
}

/* Markers as items: counts, the kernel total they carry, holes; worst first. */
static void test_items_and_order(void **state)
{
	struct fts_item a = marker("100", "500"), u = marker("unknown", "500"), c = marker("9", NULL);
	struct fts_item hole = { .kind = FTS_ITEM_NODATA, .ts = 5, .dur = 1000, .name = "no data" };
	struct fts_loss_summary s;
	struct fts_loss l;
	int idx[4];

	(void)state;
	fts_loss_init(&l);
	assert_int_equal(fts_loss_add_item(&l, 2, &a), 0);
	assert_int_equal(fts_loss_add_item(&l, 2, &u), 0);
	assert_int_equal(fts_loss_add_item(&l, 2, &hole), 0);
	assert_int_equal(fts_loss_add_item(&l, 0, &c), 0);
	assert_int_equal(fts_loss_cpu_events(&l.cpu[2]), 500);
	assert_int_equal(l.cpu[2].drops, 2);
	assert_int_equal(l.cpu[2].unsized, 1);
	assert_int_equal(l.cpu[2].nodata_ns, 1000);
	assert_int_equal(fts_loss_worst(&l, idx, 4), 2);
	assert_int_equal(idx[0], 2);
	assert_int_equal(idx[1], 0);
	fts_loss_summarize(&l, &s);
	assert_true(s.any && s.exact);
	assert_int_equal(s.total, 509);
	assert_int_equal(s.worst_cpu, 2);
	assert_string_equal(s.text, "509 events (CPU 2: 500, CPU 0: 9)");
	/* the table names at most max_cpus, then says there are more */
	char b[128];
	assert_string_equal(fts_loss_text(&l, 1, b, sizeof(b)), "509 events (CPU 2: 500, ...)");
	fts_loss_free(&l);
}

/* Garbage counts are no counts: a drop of unknown size, not a number. */
static void test_garbage(void **state)
{
	struct fts_item g = marker("12abc", "x"), neg = marker("-5", NULL);
	struct fts_loss l;

	(void)state;
	fts_loss_init(&l);
	fts_loss_add_item(&l, 0, &g);
	fts_loss_add_item(&l, 0, &neg);
	assert_int_equal(l.cpu[0].marked, 0);
	assert_int_equal(l.cpu[0].unsized, 2);
	assert_false(l.cpu[0].has_kernel);
	assert_null(fts_loss_at(&l, -1));
	fts_loss_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sized),
		cmocka_unit_test(test_unsized),
		cmocka_unit_test(test_items_and_order),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
