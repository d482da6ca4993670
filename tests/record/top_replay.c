// SPDX-License-Identifier: MIT
/*
 * top_replay - replay an uncompressed (v6) trace.dat's ring-buffer pages
 * through the live top's engine (top_engine.c: the same decoder, model and
 * windowed stats the recorder's top runs), as the recorder's streams would
 * hand them over, and print its figures with the window they cover, in the
 * terms of `ftscope stats --window` (ns from the start of the data), so a
 * test can compare the two.
 *
 *   top_replay FILE WINDOW_S [TICK_MS]
 *
 * TICK_MS 0 (the default) hands over every page, then ends; otherwise every
 * TICK_MS of trace time each CPU hands over the pages that were full by
 * then, as the kernel does, and the engine merges what is safe.
 *
 * Output lines (ns):
 *   window REL_BEGIN REL_END      the figures' span, from the first item
 *   runnable PID RUNNABLE_NS COMM  the top's Runnable ranking
 *   cpu PID CPU_NS COMM           its CPU ranking
 *   worst PID NS                  the worst wakeup latency
 *   records N late N corrupt N
 *
 * With FTS_REPLAY_EVERY=1 (and TICK_MS) every tick's figures come first, one
 * line each ("tick ..."), to compare engines tick by tick.
 *
 * With FTS_REPLAY_KEEP_PCT=P (and TICK_MS) each tick hands over only the
 * newest P% of each CPU's new pages and marks the rest a gap, as the live
 * top's CPU budget samples them (top.c): to see what sampling does to the
 * figures.
 *
 * With FTS_REPLAY_CPU=1 it also prints, on stderr, the CPU time spent inside
 * the engine alone (pages in, merges, figures: not the file reading nor the
 * model run that finds the data's start), per million records: the live
 * top's cost, repeatable and apart from tracefs (bench/top_engine.sh).
 */
#include "core/record/record_local.h"
#include "core/model/timemap_impl.h"
#include "core/trace/dat_layout.h"
#include "ftscope/reader.h"
#include "ftscope/sched_model.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/kbuffer.h>

/* The start of the data as `ftscope stats` sees it: the first item of the model. */
struct span {
	struct fts_sink base;
	int any;
	uint64_t lo;
	struct fts_model *m;
};

static int span_lane(struct fts_sink *s, const struct fts_lane *l, struct fts_err *err)
{
	(void)s, (void)l, (void)err;
	return 0;
}

static int span_item(struct fts_sink *s, const struct fts_item *it, struct fts_err *err)
{
	struct span *sp = (struct span *)s;

	(void)err;
	if (!sp->any || it->ts < sp->lo)
		sp->lo = it->ts;
	sp->any = 1;
	return 0;
}

static int span_finish(struct fts_sink *s, int ok, struct fts_err *err)
{
	(void)s, (void)ok, (void)err;
	return 0;
}

static void span_destroy(struct fts_sink *s)
{
	(void)s;
}

static int span_event(void *ctx, const struct fts_event *ev)
{
	struct span *sp = ctx;
	struct fts_err err = { 0 };

	return fts_model_event(sp->m, ev, &err);
}

static uint64_t data_start(const char *path)
{
	struct span sp = { .base = { span_lane, span_item, span_finish, span_destroy, NULL } };
	struct fts_read_opts ro = { .emit = span_event, .emit_ctx = &sp };
	struct fts_model_opts mo = { 0 };
	struct fts_read_stats st;
	struct fts_timemap tm;
	struct fts_err err = { 0 };

	fts_timemap_raw(&tm);
	mo.tm = &tm;
	if (fts_model_create(&mo, &sp.base, &sp.m, &err) || fts_read_dat(path, &ro, &st, &err) ||
	    fts_model_finish(sp.m, &err) || !sp.any) {
		fprintf(stderr, "top_replay: %s: %s\n", path, err.msg[0] ? err.msg : "no items");
		exit(1);
	}
	fts_model_free(sp.m);
	return sp.lo;
}

/* CPU time of this thread, in ns: the engine's cost is summed around its calls. */
static uint64_t cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int eng_page(struct rec_top_engine *e, int i, const void *page, uint64_t *ns)
{
	uint64_t t0 = cpu_ns();
	int rc = rec_top_engine_page(e, i, page);

	*ns += cpu_ns() - t0;
	return rc;
}

static int eng_tick(struct rec_top_engine *e, int final, uint64_t *ns)
{
	uint64_t t0 = cpu_ns();
	int rc = rec_top_engine_tick(e, final);

	*ns += cpu_ns() - t0;
	return rc;
}

/* One CPU's pages in the file, and the time its next page is full by. */
struct src {
	int cpu;
	uint64_t off, end;
	uint64_t full_at;    /* its last record's time */
};

static uint64_t page_end_ts(struct kbuffer *kb, unsigned char *page)
{
	unsigned long long ts = 0, last = 0;

	if (kbuffer_load_subbuffer(kb, page) < 0)
		return 0;
	while (kbuffer_read_event(kb, &ts)) {
		last = ts;
		kbuffer_next_event(kb, NULL);
	}
	return last;
}

static int next_page(int fd, struct src *s, unsigned char *page, int psz, struct kbuffer *kb)
{
	if (s->off + (uint64_t)psz > s->end || pread(fd, page, (size_t)psz, (off_t)s->off) != psz)
		return 0;
	s->full_at = page_end_ts(kb, page);
	return 1;
}

/* The page size from the file header: magic, version text, endian, long size, u32. */
static int file_page_size(int fd)
{
	unsigned char h[32];
	const unsigned char *nul;

	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return 0;
	nul = memchr(h + FTS_DAT_MAGIC_LEN, 0, sizeof(h) - FTS_DAT_MAGIC_LEN - 7);
	return nul ? (int)fts_le32(nul + 3) : 0;
}

/* Every page, CPU after CPU. */
static void feed_all(struct rec_top_engine *e, int fd, struct src *srcs, int n,
		     unsigned char *page, int psz, struct kbuffer *kb, uint64_t *ns)
{
	for (int i = 0; i < n; i++) {
		for (; next_page(fd, &srcs[i], page, psz, kb); srcs[i].off += (uint64_t)psz)
			eng_page(e, i, page, ns);
	}
}

/* Every tick's figures on one line (FTS_REPLAY_EVERY=1): old and new engines compared tick by tick. */
static void print_tick(const struct fts_record_top *t)
{
	printf("tick %.9f %s %.6f worst %d %.6f %s", t->window_s, t->dominant, t->dominant_share,
	       t->worst_pid, t->worst_wakeup_ms, t->worst_comm);
	for (int i = 0; i < t->nrunnable; i++)
		printf(" r%d:%s:%.9f", t->runnable[i].pid, t->runnable[i].comm, t->runnable[i].runnable_s);
	for (int i = 0; i < t->ncpu; i++)
		printf(" c%d:%s:%.9f", t->cpu[i].pid, t->cpu[i].comm, t->cpu[i].cpu_s);
	printf("\n");
}

/* From the first full page on, one tick every @step ns of trace time: the pages full by then. */
static void feed_paced(struct rec_top_engine *e, int fd, struct src *srcs, int n,
		       unsigned char *page, int psz, struct kbuffer *kb, uint64_t step, uint64_t *ns)
{
	uint64_t now = UINT64_MAX;
	int left = 1;
	const char *kp = getenv("FTS_REPLAY_KEEP_PCT");
	int keep_pct = kp ? atoi(kp) : 0;

	for (int i = 0; i < n; i++) {
		if (next_page(fd, &srcs[i], page, psz, kb) && srcs[i].full_at < now)
			now = srcs[i].full_at;
	}
	while (left) {
		left = 0;
		for (int i = 0; i < n; i++) {
			uint64_t from = srcs[i].off, k = 0, keep;

			while (next_page(fd, &srcs[i], page, psz, kb) && srcs[i].full_at <= now) {
				srcs[i].off += (uint64_t)psz;
				k++;
			}
			/* FTS_REPLAY_KEEP_PCT: the newest PCT% of each tick's pages, as the top's budget does */
			keep = keep_pct > 0 && keep_pct < 100 ? (k * (uint64_t)keep_pct + 99) / 100 : k;
			if (keep < k)
				rec_top_engine_gap(e, i);
			for (uint64_t o = from + (k - keep) * (uint64_t)psz; o < srcs[i].off; o += (uint64_t)psz)
				if (pread(fd, page, (size_t)psz, (off_t)o) == psz)
					eng_page(e, i, page, ns);
			left |= srcs[i].off + (uint64_t)psz <= srcs[i].end;
		}
		if (eng_tick(e, 0, ns))
			return;
		if (ns) {   /* the recorder publishes the figures at every tick: that costs too */
			struct fts_record_top top = { 0 };
			uint64_t t0 = cpu_ns();

			(void)rec_top_engine_figures(e, &top);
			*ns += cpu_ns() - t0;
			if (getenv("FTS_REPLAY_EVERY"))
				print_tick(&top);
		}
		now += step;
	}
}

static void print_task(const char *what, const struct fts_record_top_task *t, double s)
{
	printf("%s %d %lld %s\n", what, t->pid, (long long)llround(s * 1e9), t->comm);
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	struct tep_handle *tep;
	struct dat_extents x;
	struct rec_top_engine *e;
	struct fts_err err = { 0 };
	struct fts_record_top top = { 0 };
	struct src srcs[256];
	int cpus[256], n = 0, fd, psz, window, tick_ms;
	unsigned char *page;
	struct kbuffer *kb;
	struct stat sb;
	uint64_t lo, b, en, records, late, corrupt, engine_ns = 0;

	if (argc < 3)
		return fprintf(stderr, "usage: top_replay FILE WINDOW_S [TICK_MS]\n"), 2;
	window = atoi(argv[2]);
	tick_ms = argc > 3 ? atoi(argv[3]) : 0;
	lo = data_start(argv[1]);
	h = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	fd = open(argv[1], O_RDONLY);
	if (!h || fd < 0 || fstat(fd, &sb) || fts_dat_v6_extents(fd, (uint64_t)sb.st_size, &x))
		return fprintf(stderr, "top_replay: %s: not a readable v6 trace.dat\n", argv[1]), 1;
	tep = tracecmd_get_tep(h);
	psz = file_page_size(fd);
	/* one buffer, as the recorder streams it: the first with data (extract -B names it) */
	for (int i = 0; i < x.n && n < 256; i++) {
		if (strcmp(x.ext[i].buffer, x.ext[0].buffer))
			continue;
		srcs[n] = (struct src){ x.ext[i].cpu, x.ext[i].off, x.ext[i].off + x.ext[i].size, 0 };
		cpus[n++] = x.ext[i].cpu;
	}
	page = malloc((size_t)psz);
	kb = kbuffer_alloc(tep_get_header_page_size(tep) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			   KBUFFER_ENDIAN_LITTLE);
	if (!page || !kb || rec_top_engine_new(tep, n, cpus, psz, window, &e, &err))
		return fprintf(stderr, "top_replay: %s\n", err.msg), 1;
	if (tick_ms)
		feed_paced(e, fd, srcs, n, page, psz, kb, (uint64_t)tick_ms * 1000000u, &engine_ns);
	else
		feed_all(e, fd, srcs, n, page, psz, kb, &engine_ns);
	if (eng_tick(e, 1, &engine_ns) || rec_top_engine_figures(e, &top))
		return fprintf(stderr, "top_replay: %s\n", rec_top_engine_error(e)), 1;
	rec_top_engine_window(e, &b, &en);
	printf("window %llu %llu\n", (unsigned long long)(b - lo), (unsigned long long)(en - lo));
	for (int i = 0; i < top.nrunnable; i++)
		print_task("runnable", &top.runnable[i], top.runnable[i].runnable_s);
	for (int i = 0; i < top.ncpu; i++)
		print_task("cpu", &top.cpu[i], top.cpu[i].cpu_s);
	printf("worst %d %lld\n", top.worst_pid, (long long)llround(top.worst_wakeup_ms * 1e6));
	rec_top_engine_counts(e, &records, &late, &corrupt);
	printf("records %llu late %llu corrupt %llu\n", (unsigned long long)records,
	       (unsigned long long)late, (unsigned long long)corrupt);
	if (getenv("FTS_REPLAY_CPU") && records)
		fprintf(stderr, "engine_cpu_s %.3f records %llu s_per_Mev %.3f\n", (double)engine_ns / 1e9,
			(unsigned long long)records, (double)engine_ns / 1e9 / ((double)records / 1e6));
	rec_top_engine_free(e);
	kbuffer_free(kb);
	free(page);
	fts_dat_extents_free(&x);
	close(fd);
	tracecmd_close(h);
	return 0;
}
