// SPDX-License-Identifier: MIT
/*
 * fuzz_text.c - libFuzzer target: arbitrary bytes through the text reader and
 * the sched model into a sink that checks the items it gets.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftscope/reader.h"
#include "ftscope/sched_model.h"
#include "fuzz_util.h"
#include "core/model/timemap_impl.h"

struct check_sink {
	struct fts_sink base;
	uint32_t nlanes;
};

static int ck_lane(struct fts_sink *s, const struct fts_lane *l, struct fts_err *err)
{
	struct check_sink *c = (struct check_sink *)s;

	(void)err;
	if (l->id != c->nlanes || !l->tid[0])
		abort();
	c->nlanes++;
	return 0;
}

static int ck_item(struct fts_sink *s, const struct fts_item *it, struct fts_err *err)
{
	struct check_sink *c = (struct check_sink *)s;

	(void)err;
	if (it->lane >= c->nlanes || it->ts == 0 || !it->name)
		abort();
	for (int i = 0; i < it->nargs; i++) {
		if (!it->args[i].key || !it->args[i].val)
			abort();
	}
	return 0;
}

static int emit(void *ctx, const struct fts_event *ev)
{
	return fts_model_event(ctx, ev, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct check_sink sink = { .base = { .lane = ck_lane, .item = ck_item } };
	struct fts_timemap tm;
	struct fts_model_opts mo = { .tm = &tm, .cs_rows = 1 };
	struct fts_model *m;
	struct fts_read_stats st;
	struct fts_read_opts ro;
	char path[64];

	if (fts_fuzz_write(data, size, path, sizeof(path)))
		return 0;
	fts_timemap_raw(&tm);
	if (fts_model_create(&mo, &sink.base, &m, NULL) == 0) {
		memset(&st, 0, sizeof(st));
		memset(&ro, 0, sizeof(ro));
		ro.emit = emit;
		ro.emit_ctx = m;
		fts_read_text(path, &ro, &st, NULL);
		fts_model_finish(m, NULL);
		fts_model_free(m);
	}
	unlink(path);
	return 0;
}
