/* SPDX-License-Identifier: MIT */
/*
 * convert_progress - convert a trace to an Insight ftrace DB with a staged
 * progress line, and cancel cleanly on Ctrl+C through the progress callback:
 * fts_convert then returns -ECANCELED and leaves no file behind (an older
 * DB at the output stays as it was).
 *
 *   convert_progress TRACE OUTPUT.db
 *
 * The same callback type (fts_stage_fn) and result (struct fts_pipeline_result)
 * serve fts_pipeline_run and fts_store_open.
 */
#define _POSIX_C_SOURCE 200809L /* sigaction */

#include <ftscope/ftscope.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* A signal handler can only talk through a static flag. */
static volatile sig_atomic_t stop;

static void on_sigint(int sig)
{
	(void)sig;
	stop = 1;
}

static int on_progress(void *ctx, const struct fts_progress *p)
{
	(void)ctx;
	fprintf(stderr, "\r%-6s %llu/%llu %s, %llu items   ", fts_stage_name(p->stage),
		(unsigned long long)p->done, (unsigned long long)p->total, p->unit,
		(unsigned long long)p->items);
	return stop; /* non-zero: cancel */
}

int main(int argc, char **argv)
{
	struct fts_convert_opts o = { .format = FTS_OUT_DB, .cs_rows = 1 };
	struct fts_pipeline_result *res;
	struct fts_err err = { 0 };
	struct sigaction sa;
	uint64_t lo, hi, items;
	double seconds;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: %s TRACE OUTPUT.db\n", argv[0]);
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigaction(SIGINT, &sa, NULL);
	o.input = argv[1];
	o.output = argv[2];
	o.progress = on_progress;
	res = fts_pipeline_result_new();   /* opaque: read through its accessors */
	if (!res) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	rc = fts_convert(&o, res, &err);
	items = fts_pipeline_result_items(res, &lo, &hi);
	seconds = fts_pipeline_result_seconds(res);
	fts_pipeline_result_free(res);
	fputc('\n', stderr);
	if (rc == -ECANCELED) {
		fprintf(stderr, "cancelled: nothing written\n");
		return 130;
	}
	if (rc) {
		/* the message may quote the input's bytes: print it as text only */
		for (const char *c = err.msg; *c; c++)
			fputc(*c >= 0x20 && *c < 0x7f ? *c : '?', stderr);
		fputc('\n', stderr);
		return 1;
	}
	printf("%s: %llu items, %.3f s of trace, in %.2f s\n", o.output,
	       (unsigned long long)items, (double)(hi - lo) / 1e9, seconds);
	return 0;
}
