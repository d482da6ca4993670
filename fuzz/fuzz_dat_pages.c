// SPDX-License-Identifier: MIT
/*
 * fuzz_dat_pages.c - libFuzzer target: fuzzed ring-buffer pages inside a
 * valid trace.dat.
 *
 * fuzz_dat feeds whole files, so most inputs die in the header parser (and
 * every one pays for the exec'd probe). Here the headers are a fixed
 * template cut from a real capture (fuzz/make_dat_pages.py) and the input
 * is only the data: byte 0 = how many pages go to CPU 0, the rest = pages
 * (CPU 0's, then CPU 1's). Every page goes through dat_pages.c's check, then
 * libtracecmd/kbuffer and the decoders, with the probe skipped (the
 * template is known to open).
 * The template path: $FTS_FUZZ_DAT_TEMPLATE, else the build tree's.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftscope/reader.h"
#include "fuzz_util.h"

#define PAGE 4096
#define CPUS 2

static unsigned char *g_tmpl;   /* fuzzer-lifetime cache of the template */
static size_t g_tmpl_len;

static int emit(void *ctx, const struct fts_event *ev)
{
	(void)ctx;
	(void)ev;
	return 0;
}

static int load_template(void)
{
	const char *path = getenv("FTS_FUZZ_DAT_TEMPLATE");
	FILE *f;
	long n;

	if (g_tmpl)
		return 0;
	f = fopen(path ? path : FTS_FUZZ_DAT_TEMPLATE_DEFAULT, "rb");
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	g_tmpl = malloc(n > 0 ? (size_t)n : 1);
	if (!g_tmpl || fread(g_tmpl, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		abort();
	}
	fclose(f);
	g_tmpl_len = (size_t)n;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fts_read_opts ro = { .emit = emit, .probed = 1 };
	struct fts_read_stats st;
	size_t table, start, cpu0, total, len;
	unsigned char *file;
	char path[64];
	uint64_t ext[CPUS * 2];

	if (load_template())
		abort();   /* a missing template is a setup error, not an input to skip */
	if (size < 1)
		return 0;
	total = size - 1;
	cpu0 = (size_t)data[0] * PAGE;
	if (cpu0 > total)
		cpu0 = total;
	table = g_tmpl_len;
	start = (table + sizeof(ext) + PAGE - 1) / PAGE * PAGE;
	len = start + total;
	file = calloc(1, len ? len : 1);
	if (!file)
		return 0;
	memcpy(file, g_tmpl, g_tmpl_len);
	ext[0] = start;
	ext[1] = cpu0;
	ext[2] = start + cpu0;
	ext[3] = total - cpu0;
	memcpy(file + table, ext, sizeof(ext));   /* little endian, like the template */
	memcpy(file + start, data + 1, total);
	if (fts_fuzz_write(file, len, path, sizeof(path)) == 0) {
		memset(&st, 0, sizeof(st));
		fts_read_any(path, &ro, &st, NULL);
		unlink(path);
	}
	free(file);
	return 0;
}
