/* SPDX-License-Identifier: MIT */
/*
 * stats_json.c - the one JSON of the statistics: `ftscope stats -f json`,
 * the binding API's fts_st_run and Python print this text, so a member
 * means the same wherever it is read. Strings are escaped for a terminal
 * too (FTS__JSON_TERM): the command line prints the text as it is.
 */
#include <stddef.h>
#include <stdlib.h>

#include "core/api/api_local.h"
#include "core/internal.h"
#include "ftscope/loss.h"
#include "ftscope/stats.h"

static void task_object(struct api_jw *w, const struct fts_task_stats *t)
{
	api_jw_open(w, '{');
	api_jw_kstr(w, fts_task_col_name(FTS_TCOL_TASK), t->tid);
	api_jw_kstr(w, "comm", t->comm);
	api_jw_ki64(w, fts_task_col_name(FTS_TCOL_PID), t->pid);
	for (int c = 0; c < FTS_TCOL__COUNT; c++) {
		enum fts_task_col col = (enum fts_task_col)c;

		if (col == FTS_TCOL_TASK || col == FTS_TCOL_PID)
			continue;
		if (col == FTS_TCOL_TOP_IRQ)
			api_jw_kstr(w, fts_task_col_name(col), t->top_irq);
		else if (col == FTS_TCOL_PREEMPTER)
			api_jw_kstr(w, fts_task_col_name(col), t->top_preempter);
		else
			api_jw_ku64(w, fts_task_col_name(col), fts_task_col_value(t, col));
	}
	api_jw_ku64(w, "top_irq_ns", t->top_irq_ns);
	api_jw_ku64(w, "top_preempter_count", t->top_preempter_count);
	api_jw_ku64(w, "first_ns", t->first_ns);
	api_jw_ku64(w, "last_ns", t->last_ns);
	api_jw_close(w, '}');
}

static void cpu_object(struct api_jw *w, const struct fts_cpu_stats *c, const struct fts_loss *loss)
{
	char text[160];

	api_jw_open(w, '{');
	api_jw_ki64(w, "cpu", c->cpu);
	api_jw_knum(w, "util", c->util);
	api_jw_ku64(w, "busy_ns", c->busy_ns);
	api_jw_ku64(w, "wall_ns", c->wall_ns);
	api_jw_ku64(w, "irq_count", c->irq_count);
	api_jw_ku64(w, "irq_ns", c->irq_ns);
	api_jw_ku64(w, "softirq_count", c->softirq_count);
	api_jw_ku64(w, "softirq_ns", c->softirq_ns);
	api_jw_ku64(w, "switches", c->switches);
	api_jw_ku64(w, "lost_events", c->lost_events);
	api_jw_kbool(w, "lost_exact", c->lost_exact);
	api_jw_ku64(w, "lost_unsized", c->lost_unsized);
	api_jw_kstr(w, "lost_text", loss && c->cpu >= 0 && c->cpu < loss->ncpu ?
		    fts_loss_cpu_text(&loss->cpu[c->cpu], text, sizeof(text)) : "0");
	api_jw_ku64(w, "lost_markers", c->lost_markers);
	api_jw_ku64(w, "nodata_ns", c->nodata_ns);
	api_jw_close(w, '}');
}

static void head_objects(struct api_jw *w, const struct fts_stats *st)
{
	const struct fts_stats_info *in = fts_stats_info(st);
	char text[512];

	api_jw_key(w, "window");
	api_jw_open(w, '{');
	api_jw_ku64(w, "begin_ns", in->t_begin);
	api_jw_ku64(w, "end_ns", in->t_end);
	api_jw_close(w, '}');
	api_jw_key(w, "info");
	api_jw_open(w, '{');
	api_jw_ku64(w, "t_begin", in->t_begin);
	api_jw_ku64(w, "t_end", in->t_end);
	api_jw_ku64(w, "items", in->items);
	api_jw_ku64(w, "items_counted", in->items_counted);
	api_jw_kstr(w, "lost_text", fts_loss_text(fts_stats_loss(st), 8, text, sizeof(text)));
	api_jw_close(w, '}');
}

char *fts_stats_task_json(const struct fts_task_stats *t)
{
	struct api_jw w = { .flags = FTS__JSON_TERM };

	task_object(&w, t);
	return api_jw_take(&w);
}

char *fts_stats_json(const struct fts_stats *st, const struct fts_task_stats *const *tasks,
		     size_t ntasks)
{
	struct api_jw w = { .flags = FTS__JSON_TERM };
	size_t n = tasks ? ntasks : fts_stats_ntasks(st);

	api_jw_open(&w, '{');
	head_objects(&w, st);
	api_jw_key(&w, "tasks");
	api_jw_open(&w, '[');
	for (size_t i = 0; i < n; i++)
		task_object(&w, tasks ? tasks[i] : fts_stats_task(st, i));
	api_jw_close(&w, ']');
	api_jw_key(&w, "cpus");
	api_jw_open(&w, '[');
	for (size_t i = 0; i < fts_stats_ncpus(st); i++)
		cpu_object(&w, fts_stats_cpu(st, i), fts_stats_loss(st));
	api_jw_close(&w, ']');
	api_jw_key(&w, "holes");
	api_jw_open(&w, '[');
	for (size_t i = 0; i < fts_stats_nholes(st); i++) {
		const struct fts_stats_hole *h = fts_stats_hole(st, i);

		api_jw_open(&w, '{');
		api_jw_ki64(&w, "cpu", h->cpu);
		api_jw_ku64(&w, "begin_ns", h->begin);
		api_jw_ku64(&w, "end_ns", h->end);
		api_jw_close(&w, '}');
	}
	api_jw_close(&w, ']');
	api_jw_close(&w, '}');
	return api_jw_take(&w);
}
