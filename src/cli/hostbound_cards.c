// SPDX-License-Identifier: MIT
/*
 * hostbound_cards.c - a profiling directory's cards and their Host Bound
 * analyses (hostbound_cards.h).
 */
#include "cli/hostbound_cards.h"

#include "app/msg.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* X/<rank>/ASCEND_PROFILER_OUTPUT/trace_view.json (or its .db) -> <rank> */
static void card_name(const char *path, char *name, size_t len)
{
	char *copy = strdup(path), *d;

	if (!copy) {
		snprintf(name, len, "?");
		return;
	}
	d = dirname(dirname(copy));
	snprintf(name, len, "%s", basename(d));
	free(copy);
}

int fts_hb_cards_load(struct fts_hb_cards *cs, const char *profiling, uint64_t threshold_ns,
		      int pidmap, const char *cmd)
{
	struct fts_hb_opts ho = { .threshold_ns = threshold_ns, .pid_mapping = pidmap };
	struct fts_err err = { 0 };

	memset(cs, 0, sizeof(*cs));
	if (fts_npu_trace_list(profiling, &cs->paths, &cs->n, &err)) {
		fts_msg_err(cmd, "%s", err.msg);
		return 1;
	}
	cs->c = calloc(cs->n, sizeof(*cs->c));
	cs->sinks = calloc(cs->n, sizeof(*cs->sinks));
	if (!cs->c || !cs->sinks) {
		fts_msg_err(cmd, "out of memory");
		return 1;
	}
	for (size_t i = 0; i < cs->n; i++) {
		struct fts_hb_card *c = &cs->c[i];

		c->path = cs->paths[i];
		card_name(c->path, c->name, sizeof(c->name));
		if (fts_npu_trace_read(c->path, &c->npu, &err) ||
		    fts_hostbound_create(c->npu, &ho, &c->hb, &err)) {
			fts_msg_err(cmd, "%s", err.msg);
			return 1;
		}
		cs->sinks[i] = fts_hostbound_sink(c->hb);
	}
	return 0;
}

void fts_hb_cards_free(struct fts_hb_cards *cs)
{
	for (size_t i = 0; cs->c && i < cs->n; i++) {
		fts_hostbound_free(cs->c[i].hb);
		fts_npu_trace_free(cs->c[i].npu);
	}
	free(cs->c);
	free(cs->sinks);
	if (cs->paths)
		fts_npu_list_free(cs->paths, cs->n);
	memset(cs, 0, sizeof(*cs));
}
