// SPDX-License-Identifier: MIT
/*
 * segstats.c - what a flight segment says about itself, in its CPUSTAT
 * options (the per-CPU stats text trace.dat keeps; `trace-cmd report
 * --stat` shows it): the kernel's loss counters as this segment's own
 * share (since the previous segment of the run), the run's totals on
 * "run ..." lines, and in the first recorded CPU's text the run id, the
 * segment number and the clock pair at the segment's start and end. A
 * reader finds all of it in the header, whatever the event rate, and a
 * segment read alone reports only the loss it holds.
 */
#include "core/record/record_local.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t own(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : now;
}

/* @line (@n bytes, no newline) with its number replaced by @v when it is one of the loss counters. */
static void put_line(FILE *fp, const char *line, size_t n, const struct rec_cpu_stats *d)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "overrun:", offsetof(struct rec_cpu_stats, overrun) },
		{ "commit overrun:", offsetof(struct rec_cpu_stats, commit_overrun) },
		{ "dropped events:", offsetof(struct rec_cpu_stats, dropped) },
	};

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		size_t kl = strlen(keys[k].key);

		if (n >= kl && !memcmp(line, keys[k].key, kl)) {
			uint64_t v;

			memcpy(&v, (const char *)d + keys[k].off, sizeof(v));
			fprintf(fp, "%s %llu\n", keys[k].key, (unsigned long long)v);
			return;
		}
	}
	fprintf(fp, "%.*s\n", (int)n, line);
}

char *rec_segstats_text(const char *kernel, const struct rec_cpu_stats *now, const struct rec_cpu_stats *before,
			const char *meta, uint64_t *lost)
{
	struct rec_cpu_stats d = *now;
	char *buf = NULL;
	size_t sz = 0;
	FILE *fp = open_memstream(&buf, &sz);

	if (!fp)
		return NULL;
	d.overrun = own(now->overrun, before->overrun);
	d.commit_overrun = own(now->commit_overrun, before->commit_overrun);
	d.dropped = own(now->dropped, before->dropped);
	*lost = d.overrun + d.commit_overrun + d.dropped;
	for (const char *p = kernel ? kernel : ""; *p;) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		put_line(fp, p, n, &d);
		p += n + (e ? 1 : 0);
	}
	fprintf(fp, "run overrun: %llu\nrun commit overrun: %llu\nrun dropped events: %llu\n",
		(unsigned long long)now->overrun, (unsigned long long)now->commit_overrun,
		(unsigned long long)now->dropped);
	if (meta)
		fputs(meta, fp);
	if (fclose(fp)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int rec_segstats_meta(char *buf, size_t len, uint64_t run, unsigned seq, const struct rec_clock *from,
		      const struct rec_clock *to)
{
	char a[200], b[200];

	rec_clock_format(a, sizeof(a), "ftscope_clock", from);
	rec_clock_format(b, sizeof(b), "ftscope_clock_stop", to);
	return snprintf(buf, len, "ftscope run: %016llx\nftscope segment: %u\n%s\n%s\n", (unsigned long long)run,
			seq, a, b);
}
