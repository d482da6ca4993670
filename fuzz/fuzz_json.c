// SPDX-License-Identifier: MIT
/* fuzz_json.c - libFuzzer target: the JSON loaders (pid mapping, start_info/end_info). */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "ftscope/pidmap.h"
#include "ftscope/timemap.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fts_pidmap *pm = NULL;
	int64_t mono, begin;
	char path[64];

	fts_timemap_parse_info((const char *)data, size, &mono, &begin);
	if (fts_fuzz_write(data, size, path, sizeof(path)))
		return 0;
	if (fts_pidmap_load(path, &pm, NULL) == 0) {
		for (int32_t pid = 0; pid < 64; pid++)
			(void)fts_pidmap_lookup(pm, pid);
		fts_pidmap_free(pm);
	}
	unlink(path);
	return 0;
}
