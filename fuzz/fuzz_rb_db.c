// SPDX-License-Identifier: MIT
/* fuzz_rb_db.c - libFuzzer target: arbitrary bytes read back as an ftrace DB. */
#include <stdint.h>
#include <unistd.h>

#include "fuzz_rb.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rb_check c = { .cancel_at = size % 5 };
	struct fts_rb_ops ops = { rb_lane, rb_row, rb_progress, &c };
	struct fts_err err = { 0 };
	uint64_t rows;
	char path[64];

	if (fts_fuzz_write(data, size, path, sizeof(path)))
		return 0;
	if (fts_db_readback(path, &ops, &rows, &err) && !err.msg[0])
		abort(); /* every failure says why */
	unlink(path);
	return 0;
}
