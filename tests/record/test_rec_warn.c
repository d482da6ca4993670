// SPDX-License-Identifier: MIT
/*
 * `ftscope record`'s loss lines (cli/record_loss.c) on made-up snapshots:
 * at most one line every 5 s summarising the loss since the last one
 * (defect 16 of issue 15: more than 20 LOST lines in 6 s), a stop said at
 * once, and advice with numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cli/record_loss.h"

/* Two CPUs; CPU 1 loses @per_tick more every 0.5 s sample. */
static void tick(struct fts_record_health *h, struct fts_record_cpu_health *c, uint64_t per_tick)
{
	c[1].overrun += per_tick;
	c[1].lost = c[1].overrun;
	c[0].overrun += per_tick / 10;
	c[0].lost = c[0].overrun;
	h->lost = c[0].lost + c[1].lost;
	h->sample++;
}

static void test_one_line_per_5s(void **state)
{
	struct fts_record_cpu_health c[2] = { { .cpu = 0 }, { .cpu = 1, .peak_bytes_per_s = 3e6 } };
	struct fts_record_health h = { .ncpus = 2, .cpu = c, .counters = 1, .reader_nice = -10 };
	struct fts_rec_warn w = { .bf_kb = 256 };
	char line[1024];
	int lines = 0;

	(void)state;
	/* 6 s of loss at every sample: the first at once, then one 5 s later */
	for (int t = 0; t <= 12; t++) {
		tick(&h, c, 1000);
		if (fts_rec_warn_line(&w, &h, 1000 + (uint64_t)t * 500, line, sizeof(line)) == 1) {
			lines++;
			if (lines == 1) {
				assert_string_equal(line, "lost 1100 events (CPU 1: 1000, CPU 0: 100); buffer too "
					"small: try --bf_size 8192 (KB per CPU, now 256) or fewer CPUs/events");
			} else {
				/* what was lost since the first line, not the totals */
				assert_non_null(strstr(line, "lost 11000 events (CPU 1: 10000, CPU 0: 1000) "
							     "in the last 5.0 s"));
			}
		}
	}
	assert_int_equal(lines, 2);
	/* the two samples after the second line come in the next one, when due */
	h.sample++;
	assert_int_equal(fts_rec_warn_line(&w, &h, 60000, line, sizeof(line)), 1);
	assert_non_null(strstr(line, "lost 2200 events (CPU 1: 2000, CPU 0: 200) in the last 54.0 s"));
	/* nothing lost since: no line, however long */
	h.sample++;
	assert_int_equal(fts_rec_warn_line(&w, &h, 120000, line, sizeof(line)), 0);
	fts_rec_warn_free(&w);
}

static void test_stop_said_at_once(void **state)
{
	struct fts_record_cpu_health c[2] = { { .cpu = 0 }, { .cpu = 1 } };
	struct fts_record_health h = { .ncpus = 2, .cpu = c, .counters = 1, .reader_nice = -10 };
	struct fts_rec_warn w = { .bf_kb = 256 };
	char line[1024];

	(void)state;
	tick(&h, c, 100);
	assert_int_equal(fts_rec_warn_line(&w, &h, 1000, line, sizeof(line)), 1);
	/* 1 s later, a 5 s stop that lost 50000: said now, not in 4 s */
	c[1].overrun += 50000;
	c[1].lost = c[1].overrun;
	c[1].lost_stopped = 50000;
	h.lost += 50000;
	h.lost_stopped = 50000;
	h.stopped_s = 5.04;
	assert_int_equal(fts_rec_warn_line(&w, &h, 2000, line, sizeof(line)), 1);
	assert_non_null(strstr(line, "lost 50000 events (CPU 1: 50000)"));
	assert_non_null(strstr(line, "50000 of them while ftscope was stopped for 5.0 s"));
	/* all of it the stop's: no buffer advice */
	assert_null(strstr(line, "--bf_size"));
	fts_rec_warn_free(&w);
}

static void test_reader_wait_advice(void **state)
{
	struct fts_record_cpu_health c[1] = { { .cpu = 0, .overrun = 10, .lost = 10 } };
	struct fts_record_health h = { .ncpus = 1, .cpu = c, .counters = 1, .lost = 10, .reader_nice = -10 };
	char buf[512];

	(void)state;
	fts_rec_advice(&h, 64, 2100, buf, sizeof(buf));
	assert_non_null(strstr(buf, "the readers waited up to 2.1 s for a CPU (overloaded: try "
				    "--reader_nice -15 or fewer CPUs)"));
	assert_non_null(strstr(buf, "--bf_size 128 (KB per CPU, now 64)"));
	h.reader_nice = -20;
	fts_rec_advice(&h, 64, 2100, buf, sizeof(buf));
	assert_non_null(strstr(buf, "even at nice -20"));
	fts_rec_advice(&h, 64, 50, buf, sizeof(buf));
	assert_null(strstr(buf, "waited"));
	h.lost = 0;
	assert_string_equal(fts_rec_advice(&h, 64, 2100, buf, sizeof(buf)), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_line_per_5s),
		cmocka_unit_test(test_stop_said_at_once),
		cmocka_unit_test(test_reader_wait_advice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
