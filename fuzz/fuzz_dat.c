// SPDX-License-Identifier: MIT
/* fuzz_dat.c - libFuzzer target: bytes through format detection and the trace.dat reader. */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "ftscope/reader.h"
#include "fuzz_util.h"

static int emit(void *ctx, const struct fts_event *ev)
{
	(void)ctx;
	(void)ev;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* headers that crash libtracecmd must take the helper down, not the target */
	struct fts_read_opts ro = { .emit = emit, .probe_helper = FTS_FUZZ_PROBE_HELPER };
	struct fts_read_stats st;
	char path[64];

	if (fts_fuzz_write(data, size, path, sizeof(path)))
		return 0;
	memset(&st, 0, sizeof(st));
	fts_read_any(path, &ro, &st, NULL);
	unlink(path);
	return 0;
}
