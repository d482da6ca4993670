// SPDX-License-Identifier: MIT
/*
 * memory.c - the recorder's memory rule, one place for the CLI, the TUI and
 * the library: a capture takes its ring buffers (per-CPU size x CPUs) plus
 * what its readers buffer, and may take at most 7/8 of MemAvailable, so the
 * workload it watches keeps room. A 4 GB per-CPU buffer on a machine without
 * the memory made 8.5 GB vanish and a 2 s capture take 22 s; refused before
 * anything is allocated, with the largest size that fits.
 */
#include "ftscope/record.h"
#include "core/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READER_BYTES (1u << 20)   /* a reader's pages, its splice pipe and its stack in use */
#define TOP_BYTES (8u << 20)      /* the live top keeps up to 8 MiB of pages per CPU (top.c) */

int fts_record_mem_available(const char *meminfo, uint64_t *bytes)
{
	/* Test hook (docs/record.md): another machine's meminfo in place of this one's. */
	char hook_buf[4096];
	const char *hook = fts__test_path(FTS__TEST_MEMINFO, hook_buf, sizeof(hook_buf));
	char line[256];
	FILE *f;
	int rc = -ENOENT;

	if (!meminfo || !strcmp(meminfo, "/proc/meminfo"))
		meminfo = hook && *hook ? hook : "/proc/meminfo";
	f = fopen(meminfo, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long kb;

		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
			*bytes = kb > UINT64_MAX / 1024 ? UINT64_MAX : (uint64_t)kb * 1024u;
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}

static uint64_t per_cpu_extra(int live_top)
{
	return READER_BYTES + (live_top ? TOP_BYTES : 0);
}

uint64_t fts_record_mem_need(unsigned bf_kb, int ncpus, int live_top)
{
	uint64_t kb = bf_kb ? bf_kb : 40960;

	if (ncpus <= 0)
		return 0;
	return (uint64_t)ncpus * (kb * 1024u + per_cpu_extra(live_top));
}

unsigned fts_record_mem_max_kb(uint64_t avail, int ncpus, int live_top)
{
	uint64_t per, kb;

	if (ncpus <= 0)
		return 1u << 22;
	per = (avail - avail / 8) / (uint64_t)ncpus;
	if (per <= per_cpu_extra(live_top))
		return 0;
	kb = (per - per_cpu_extra(live_top)) / 1024;
	if (kb >= 1024)
		kb = kb / 1024 * 1024;  /* whole MiB: a number to type */
	return kb > (1u << 22) ? 1u << 22 : (unsigned)kb;
}

/* @b in the largest unit that keeps it >= 1, one decimal. */
static const char *human(uint64_t b, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%.1f %s", v, unit[u]);
	return buf;
}

int fts_record_mem_check(unsigned bf_kb, int ncpus, int live_top, const char *meminfo,
			 unsigned *max_kb, struct fts_err *err)
{
	uint64_t avail, need = fts_record_mem_need(bf_kb, ncpus, live_top);
	char a[32], b[32];
	unsigned fit;

	bf_kb = bf_kb ? bf_kb : 40960;
	if (max_kb)
		*max_kb = 0;
	if (fts_record_mem_available(meminfo, &avail))
		return 0;   /* not known (no MemAvailable before Linux 3.14): the kernel decides */
	fit = fts_record_mem_max_kb(avail, ncpus, live_top);
	if (max_kb)
		*max_kb = fit;
	if (bf_kb <= fit)   /* the same test a UI makes with fts_record_mem_max_kb */
		return 0;
	if (!fit)
		return fts_err_set(err, -ENOMEM,
				   "not enough memory to record %d CPUs: %s available (MemAvailable), "
				   "and even the smallest buffer does not fit in 7/8 of it; record fewer CPUs",
				   ncpus, human(avail, a, sizeof(a)));
	return fts_err_set(err, -ENOMEM,
			   "a per-CPU buffer of %u KB on %d CPUs needs %s with the readers' buffers, more than "
			   "7/8 of the %s available (MemAvailable); at most %u KB per CPU fits",
			   bf_kb, ncpus, human(need, a, sizeof(a)), human(avail, b, sizeof(b)),
			   fit);
}
