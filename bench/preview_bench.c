// SPDX-License-Identifier: MIT
/*
 * preview_bench.c - load a capture into the preview store and print figures:
 * load time and rate, items, memory per item (the store's own count and the
 * process's RSS growth), and the cost of bucket queries at several zooms.
 * Built and run by bench/preview.sh; public API only (<ftscope/preview.h>).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <pthread.h>
#include <sqlite3.h>

#include <ftscope/preview.h>

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double thread_cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* kB of "VmRSS:" or "VmHWM:" from /proc/self/status */
static long status_kb(const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = strtol(line + strlen(key), NULL, 10);
	fclose(f);
	return v;
}

/* The load figures: rate, items, memory per item. */
static void print_load(const char *path, const struct stat *sb, const struct fts_store *s,
		       double t, double c, long rss0)
{
	const struct fts_store_info *in = fts_store_info(s);
	long rss1 = status_kb("VmRSS:"), hwm = status_kb("VmHWM:");

	printf("input         %s (%.1f MB)\n", path, (double)sb->st_size / 1e6);
	printf("items         %llu in %u CPU + %u task lanes (%llu events/rows read)\n",
	       (unsigned long long)in->items, in->ncpu_lanes, in->ntask_lanes,
	       (unsigned long long)in->events);
	printf("load          %.2f s wall: %.2f M items/s, %.1f MB/s\n", t,
	       (double)in->items / t / 1e6, (double)sb->st_size / t / 1e6);
	printf("              %.2f s CPU:  %.2f M items/s, %.1f MB/s (what a quiet machine would give)\n",
	       c, (double)in->items / c / 1e6, (double)sb->st_size / c / 1e6);
	printf("memory        store %.1f B/item (%.1f MB); RSS growth %.1f B/item (%.1f MB); peak RSS %.1f MB\n",
	       (double)fts_store_bytes(s) / (double)in->items, (double)fts_store_bytes(s) / 1e6,
	       (double)(rss1 - rss0) * 1024 / (double)in->items, (double)(rss1 - rss0) / 1024,
	       (double)hwm / 1024);
}

/*
 * The anchor issue 20 measures a DB load against: SQLite alone stepping
 * the columns the read-back takes, each one fetched, in the same run.
 * Returns wall seconds (CPU in *@cpu), or -1 when @path is no DB.
 */
static double sqlite_scan(const char *path, double *cpu, long long *rows)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	double t0 = now(), c0 = cpu_now(), sum = 0;

	*rows = 0;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) ||
	    sqlite3_prepare_v2(db, "SELECT rowid, track_id, timestamp, duration, name, args FROM slice",
			       -1, &st, NULL)) {
		sqlite3_close(db);
		return -1;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		sum += (double)(sqlite3_column_int64(st, 0) + sqlite3_column_int64(st, 1) +
				sqlite3_column_int64(st, 2) + sqlite3_column_int64(st, 3));
		sqlite3_column_text(st, 4);
		sqlite3_column_text(st, 5);
		sum += sqlite3_column_bytes(st, 4) + sqlite3_column_bytes(st, 5);
		++*rows;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	*cpu = cpu_now() - c0;
	return sum >= 0 ? now() - t0 : now() - t0;
}

#ifdef FTS_BENCH_SKETCH
/* Issue 20's first useful frame: when the loading screen's overview first has lanes. */
struct first_frame {
	struct fts_sketch *k;
	volatile int stop;
	double t0, at;
};

static void *watch_sketch(void *arg)
{
	struct first_frame *ff = arg;
	struct fts_sketch_snap *snap = malloc(sizeof(*snap));
	struct timespec d = { 0, 5000000 };

	while (snap && !ff->stop) {
		fts_sketch_read(ff->k, snap);
		if (snap->items && snap->ncpu) {
			ff->at = now() - ff->t0;
			break;
		}
		nanosleep(&d, NULL);
	}
	free(snap);
	return NULL;
}
#endif

/* One frame's CPU seconds: the CPU lanes (always on screen), then a page of task lanes from @first. */
static double frame(const struct fts_store *s, uint64_t start, uint64_t w, uint32_t first,
		    int cols, int rows, int per_cell, struct fts_bucket *row)
{
	const struct fts_store_info *in = fts_store_info(s);
	uint32_t nl = fts_store_nlanes(s);
	double f0 = cpu_now();

	for (uint32_t r = 0; r < (uint32_t)rows && r < nl; r++) {
		uint32_t lane = r < in->ncpu_lanes ? r : first + r;

		if (lane >= nl)
			break;
		if (per_cell) {
			for (int c = 0; c < cols; c++)
				fts_store_bucket(s, lane, start + w * (uint64_t)c / (uint64_t)cols,
						 start + w * (uint64_t)(c + 1) / (uint64_t)cols, &row[c]);
		} else {
			fts_store_buckets(s, lane, start, start + w, (uint32_t)cols, row);
		}
	}
	return cpu_now() - f0;
}

/* Frames of COLS buckets on ROWS lanes, at zooms from the whole capture down. */
static void print_frames(const struct fts_store *s, int cols, int rows, int per_cell,
			 struct fts_bucket *row, unsigned *seed)
{
	const struct fts_store_info *in = fts_store_info(s);

	printf("frames of %dx%d, %s (CPU time)\n", cols, rows,
	       per_cell ? "fts_store_bucket per cell" : "fts_store_buckets per row");
	printf("%-12s %12s %14s %14s %14s\n", "viewport", "bucket", "us/bucket", "ms/frame",
	       "max ms/frame");
	for (double zoom = 1; zoom <= 1e6; zoom *= 10) {
		uint64_t span = in->t_end - in->t_begin, w = (uint64_t)((double)span / zoom);
		uint32_t nl = fts_store_nlanes(s);
		double tot = 0, worst = 0;
		int frames = 20;

		if (w < (uint64_t)cols)
			break;
		for (int f = 0; f < frames; f++) {
			uint64_t start = in->t_begin + (span > w ? (uint64_t)rand_r(seed) % (span - w) : 0);
			uint32_t first = nl > (uint32_t)rows ? (uint32_t)rand_r(seed) % (nl - (uint32_t)rows) : 0;
			double ft = frame(s, start, w, first, cols, rows, per_cell, row);

			tot += ft;
			if (ft > worst)
				worst = ft;
		}
		printf("1/%-10.0f %9.3f ms %14.3f %14.3f %14.3f\n", zoom, (double)w / cols / 1e6,
		       tot / frames / ((double)cols * rows) * 1e6, tot / frames * 1e3, worst * 1e3);
	}
}

int main(int argc, char **argv)
{
	struct fts_store_open_opts o = { 0 };
	struct fts_err err = { 0 };
	struct fts_store *s = NULL;
	int cols = 240, rows = 70;
	struct fts_bucket *row;
	struct stat sb;
	double t0, t, c0, c, tc0, tc, scan, scan_cpu = 0;
	long long scan_rows;
	unsigned seed = 1;
	long rss0;

	if (argc < 2) {
		fprintf(stderr, "usage: preview_bench FILE [COLS ROWS]\n");
		return 2;
	}
	if (argc >= 4) {
		cols = atoi(argv[2]);
		rows = atoi(argv[3]);
	}
	o.path = argv[1];
	stat(argv[1], &sb);
	/* the anchor first, so the file is as warm in the page cache for the load */
	scan = sqlite_scan(argv[1], &scan_cpu, &scan_rows);
	rss0 = status_kb("VmRSS:");
#ifdef FTS_BENCH_SKETCH
	struct first_frame ff = { 0 };
	pthread_t th;
	int watching = fts_sketch_new(&ff.k) == 0;

	o.sketch = ff.k;
	ff.t0 = now();
	watching = watching && pthread_create(&th, NULL, watch_sketch, &ff) == 0;
#endif
	t0 = now();
	c0 = cpu_now();
	tc0 = thread_cpu_now();
	if (fts_store_open(&o, &s, &err)) {
		fprintf(stderr, "preview_bench: %s\n", err.msg);
		return 1;
	}
	t = now() - t0;
	c = cpu_now() - c0;
	tc = thread_cpu_now() - tc0;
#ifdef FTS_BENCH_SKETCH
	if (watching) {
		ff.stop = 1;
		pthread_join(th, NULL);
	}
	fts_sketch_free(ff.k);
#endif
	print_load(argv[1], &sb, s, t, c, rss0);
#ifdef FTS_BENCH_SKETCH
	if (ff.at > 0)
		printf("first frame   overview with lanes %.3f s after the load began (polled every 5 ms)\n", ff.at);
#endif
	/*
	 * On a shared machine wall time is mostly other people's load; the CPU
	 * of the longest thread is what an idle machine with a core per thread
	 * would take (the loading thread, or the others summed as one).
	 */
	printf("threads       loading thread %.2f s CPU, the others %.2f s CPU\n", tc, c - tc);
	if (scan > 0)
		printf("sqlite scan   critical path / scan CPU = %.2fx (max of the two above over the scan's CPU)\n",
		       (tc > c - tc ? tc : c - tc) / scan_cpu);
	if (scan > 0)
		printf("sqlite scan   %.2f s wall, %.2f s CPU (%lld rows); load / scan = %.2fx wall, %.2fx CPU\n",
		       scan, scan_cpu, scan_rows, t / scan, c / scan_cpu);
	row = calloc((size_t)cols, sizeof(*row));
	for (int per_cell = 1; per_cell >= 0; per_cell--)
		print_frames(s, cols, rows, per_cell, row, &seed);
	free(row);
	fts_store_free(s);
	return 0;
}
