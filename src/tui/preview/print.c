// SPDX-License-Identifier: MIT
/*
 * print.c - `ftscope preview --print WxH [--keys K] [--color] [--timing]`:
 * the same view as the terminal, replayed from keys and written as text.
 * For bug reports, the screens in docs/preview.md, scripts and the golden tests.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/internal.h"
#include "app/fmt.h"
#include "tui/preview/loading.h"
#include "tui/widgets/keys.h"
#include "app/process.h"
#include "app/env.h"
#include "app/term_safe.h"
#include "tui/widgets/locale.h"
#include "tui/tui.h"
#include "tui/preview/view.h"

#define MAX_KEYS 100000

static double clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/*
 * CPU time of the process: a frame's own cost on every thread (its rows are
 * asked on two, view_rows.c), whatever else the machine runs. A store cache
 * still being written after a first open is counted too.
 */
static double cpu_ms(void)
{
	return clock_ms(CLOCK_PROCESS_CPUTIME_ID);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void report_timing(FILE *errf, const char *what, double *ms, int n)
{
	if (n <= 0)
		return;
	qsort(ms, (size_t)n, sizeof(*ms), cmp_double);
	fprintf(errf, "frames %d %s  p50 %.3f ms  p99 %.3f ms  max %.3f ms\n", n, what, ms[n / 2],
		ms[(int)((double)(n - 1) * 0.99)], ms[n - 1]);
}

/* kB of a "Key:" line of /proc/self/status (VmHWM: the peak RSS), or -1. */
static long status_kb(const char *key)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, strlen(key)))
			kb = strtol(line + strlen(key), NULL, 10);
	}
	fclose(f);
	return kb;
}

/*
 * With --timing: what the load was estimated to cost (before it ran) and what
 * it cost: items, the store's bytes per item against its 32-byte budget, peak RSS.
 */
static void report_cost(FILE *errf, const struct fts_load_view *lv, const struct fts_store *store)
{
	const struct fts_store_info *in = fts_store_info(store);
	char est[256], b[FTS_FMT_LEN], r[FTS_FMT_LEN];
	long hwm = status_kb("VmHWM:");

	if (lv->has_estimate)
		fprintf(errf, "estimate %s\n", fts_load_estimate_text(lv, est, sizeof(est)));
	fprintf(errf, "loaded   %" PRIu64 " items in %.2f s, store %s (%.1f B/item, budget 32), peak RSS %s\n",
		in->items, in->load_seconds, fts_fmt_bytes((double)fts_store_bytes(store), b, sizeof(b)),
		in->items ? (double)fts_store_bytes(store) / (double)in->items : 0.0,
		hwm < 0 ? "?" : fts_fmt_bytes((double)hwm * 1024, r, sizeof(r)));
}

static void error_line(FILE *errf, const char *msg)
{
	fputs("ftscope preview: ", errf);
	fts_fputs_safe(errf, msg);
	fputc('\n', errf);
}

/* The --keys string as key codes into *@keys; returns their number, or -2 (exit 2) / -1 (exit 1). */
static int parse_keys(const char *spec, int **keys, FILE *errf)
{
	int n;

	*keys = NULL;
	if (!spec)
		return 0;
	*keys = calloc(MAX_KEYS, sizeof(**keys));
	if (!*keys) {
		error_line(errf, "out of memory");
		return -1;
	}
	n = fts_keys_parse(spec, *keys, MAX_KEYS);
	if (n >= 0)
		return n;
	error_line(errf, n == -E2BIG ? "too many keys (100000 at most)" :
		   "bad key name in the keys (known: <Up> <Down> <Left> <Right> <S-Left> <S-Right> <PgUp> <PgDn> <Home> <End> <Enter> <Tab> <S-Tab> <Esc> <BS> <Space> <C-x>, and \\n \\t \\e \\\\)");
	free(*keys);
	*keys = NULL;
	return -2;
}

/*
 * Replay @keys as a session would (handle a key, then redraw) and time each
 * frame; with @a->timing, report the times on @errf. Returns 0 or -ENOMEM.
 */
static int replay(const struct fts_preview_args *a, struct fts_view *view, const int *keys, int nkeys, FILE *errf)
{
	double *ms = calloc((size_t)nkeys + 1, sizeof(*ms)), *cpu = calloc((size_t)nkeys + 1, sizeof(*cpu)), t, c;
	int frames = 0;

	if (!ms || !cpu) {
		free(ms);
		free(cpu);
		return -ENOMEM;
	}
	t = fts__clock_mono_s() * 1e3;
	fts_view_draw(view);
	ms[0] = fts__clock_mono_s() * 1e3 - t;
	if (a->timing)
		fprintf(errf, "first frame %.3f ms\n", ms[0]);
	for (int i = 0; i < nkeys; i++) {
		/* a real session handles the key then redraws: time both, as the user waits for both */
		t = fts__clock_mono_s() * 1e3;
		c = cpu_ms();
		if (fts_view_key(view, keys[i]) & FTS_RX_QUIT)
			break;
		fts_view_draw(view);
		ms[i + 1] = fts__clock_mono_s() * 1e3 - t;
		cpu[i + 1] = cpu_ms() - c;
		frames++;
		if (a->timing > 1) {
			char kn[16];

			fprintf(errf, "key %d %s %.3f ms (cpu %.3f ms)\n", i,
				fts_key_name(keys[i], kn, sizeof(kn)), ms[i + 1], cpu[i + 1]);
		}
	}
	if (a->timing) {
		report_timing(errf, "wall", ms + 1, frames);
		report_timing(errf, "cpu", cpu + 1, frames);
	}
	free(ms);
	free(cpu);
	return 0;
}

int fts_tui_print(const struct fts_preview_args *a, FILE *out, FILE *errf)
{
	struct fts_store_open_opts so = { .path = a->path, .profiling_data = a->profiling_data,
					  .pid_mapping = a->pid_mapping, .probe_helper = fts_front_probe_helper(),
					  .cache = !a->no_cache };
	struct fts_view_opts vo = { .title = a->path };
	char cache_dir[4096];
	struct fts_store *store = NULL;
	struct fts_view *view = NULL;
	struct fts_err err = { 0 };
	struct fts_load_view lv;
	int *keys, nkeys = parse_keys(a->keys, &keys, errf), rc = 1;

	if (nkeys < 0)
		return -nkeys;
	fts_front_env_store(&so, cache_dir, sizeof(cache_dir));
	vo.utf8 = fts_locale_utf8();
	vo.colors = a->color ? 256 : 0;
	vo.no_color = fts_no_color();
	/* the cost is told before the load (with --timing): a huge capture can be stopped */
	fts_load_view_init(&lv, a->path, fts__clock_mono_s());
	if (a->timing && lv.has_estimate) {
		char est[256];

		fprintf(errf, "loading  %s\n", fts_load_estimate_text(&lv, est, sizeof(est)));
		fflush(errf);
	}
	if (fts_store_open(&so, &store, &err)) {
		error_line(errf, err.msg[0] ? err.msg : "cannot load the input");
		goto out;
	}
	/* "from cache", or why not: one line, so a reopen is known for what it is */
	if (fts_store_cache_note(store))
		error_line(errf, fts_store_cache_note(store));
	if (a->timing)
		report_cost(errf, &lv, store);
	if (fts_view_create(store, &vo, a->print_w, a->print_h, &view)) {
		error_line(errf, "out of memory");
		goto out;
	}
	if (replay(a, view, keys, nkeys, errf)) {
		error_line(errf, "out of memory");
		goto out;
	}
	rc = fts_grid_write(fts_view_draw(view), out, a->color && !vo.no_color) ? 1 : 0;
	if (fflush(out) || rc) {
		error_line(errf, "cannot write the screen to the output");
		rc = 1;
	}
out:
	free(keys);
	fts_view_free(view);
	fts_store_free(store);
	return rc;
}
