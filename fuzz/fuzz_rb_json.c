// SPDX-License-Identifier: MIT
/* fuzz_rb_json.c - libFuzzer target: arbitrary bytes read back as a Chrome-trace JSON. */
#include <stdint.h>

#include "fuzz_rb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return rb_fuzz_one(data, size, fts_json_readback);
}
