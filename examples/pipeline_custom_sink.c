// SPDX-License-Identifier: MIT
/*
 * pipeline_custom_sink.c - run the conversion pipeline into a sink of your own.
 *
 * Reads a trace (trace.dat or text; or an ftrace DB / JSON, read back) and
 * prints the five tasks that waited longest while Runnable: the first question
 * of a Host Bound triage. Shows the three things a custom sink does: keep what
 * it needs from lane() and item() (their strings die with the call), publish
 * in finish(ok=1) and drop everything in finish(ok=0). The run's result
 * gives the counters and the items' span for free.
 *
 *   cc pipeline_custom_sink.c $(pkg-config --cflags --libs ftscope)
 *   ./a.out trace.dat
 */
#include <ftscope/pipeline.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct waiter {
	char tid[80];        /* "comm:pid", copied: lane strings live only during lane() */
	unsigned long long runnable_ns;
};

struct wait_sink {
	struct fts_sink sink; /* first, so the callbacks can cast back */
	struct waiter *lanes;  /* indexed by lane id (dense from 0) */
	unsigned int nlanes;
};

static int ws_lane(struct fts_sink *s, const struct fts_lane *lane, struct fts_err *err)
{
	struct wait_sink *w = (struct wait_sink *)s;
	struct waiter *grown;

	if (lane->id >= w->nlanes) {
		grown = realloc(w->lanes, (lane->id + 1) * sizeof(*grown));
		if (!grown)
			return fts_err_set(err, -ENOMEM, "out of memory");
		memset(grown + w->nlanes, 0, (lane->id + 1 - w->nlanes) * sizeof(*grown));
		w->lanes = grown;
		w->nlanes = lane->id + 1;
	}
	if (lane->group == FTS_GROUP_TASK)
		snprintf(w->lanes[lane->id].tid, sizeof(w->lanes[lane->id].tid), "%s", lane->tid);
	return 0;
}

static int ws_item(struct fts_sink *s, const struct fts_item *it, struct fts_err *err)
{
	struct wait_sink *w = (struct wait_sink *)s;

	(void)err;
	if (it->kind == FTS_ITEM_RUNNABLE && it->lane < w->nlanes)
		w->lanes[it->lane].runnable_ns += it->dur;
	return 0;
}

static int by_wait(const void *a, const void *b)
{
	const struct waiter *x = a, *y = b;

	return x->runnable_ns < y->runnable_ns ? 1 : x->runnable_ns > y->runnable_ns ? -1 : 0;
}

/* Task names are chosen by whoever runs a process: never print them raw. */
static void print_name(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(isprint((unsigned char)*s) ? *s : '?', f);
}

static int ws_finish(struct fts_sink *s, int ok, struct fts_err *err)
{
	struct wait_sink *w = (struct wait_sink *)s;

	(void)err;
	if (!ok)
		return 0; /* cancelled or failed: nothing to publish */
	qsort(w->lanes, w->nlanes, sizeof(*w->lanes), by_wait);
	for (unsigned int i = 0; i < w->nlanes && i < 5 && w->lanes[i].runnable_ns; i++) {
		printf("%12.3f ms runnable  ", w->lanes[i].runnable_ns / 1e6);
		print_name(stdout, w->lanes[i].tid);
		putchar('\n');
	}
	return 0;
}

static void ws_destroy(struct fts_sink *s)
{
	free(((struct wait_sink *)s)->lanes);
}

int main(int argc, char **argv)
{
	struct wait_sink w = {
		.sink = { .lane = ws_lane, .item = ws_item, .finish = ws_finish, .destroy = ws_destroy },
	};
	struct fts_sink *sinks[] = { &w.sink };
	struct fts_pipeline_opts opts = { 0 };
	struct fts_pipeline_result *res;
	struct fts_err err = { 0 };
	uint64_t lo, hi, items;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: %s TRACE\n", argv[0]);
		return 2;
	}
	opts.input = argv[1];
	res = fts_pipeline_result_new();   /* opaque: read through its accessors */
	if (!res) {
		fprintf(stderr, "error: out of memory\n");
		return 1;
	}
	rc = fts_pipeline_run(&opts, sinks, 1, res, &err);
	w.sink.destroy(&w.sink);
	items = fts_pipeline_result_items(res, &lo, &hi);
	fts_pipeline_result_free(res);
	if (rc) {
		fprintf(stderr, "error: ");
		print_name(stderr, err.msg);
		fputc('\n', stderr);
		return 1;
	}
	printf("%llu items over %.3f s\n", (unsigned long long)items, (double)(hi - lo) / 1e9);
	return 0;
}
