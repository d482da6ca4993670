// SPDX-License-Identifier: MIT
#include "export/sink/json_keys.h"
#include "export/sink/jsonw.h"

#include <assert.h>
#include <errno.h>
#include <string.h>

/* A pointer's slot: its address bits spread over the table (Fibonacci hashing). */
static uint16_t slot_of(const char *p)
{
	return (uint16_t)(((uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull) >> 56);
}

static_assert(FTS_JKEY_CACHED == 256, "slot_of spreads over 8 bits");

int fts_jkey_pick(struct fts_jkey_cache *c, const char *key, int arg, const uint16_t *used,
		  uint16_t *slot)
{
	uint16_t h = slot_of(key);
	size_t n;
	int taken = 0;

	/* same place, same text: a literal, or a buffer that still holds it */
	if (c->slot[h].ptr == key && !strcmp(c->slot[h].text, key)) {
		*slot = h;
		return 1;
	}
	for (int i = 0; i < arg; i++)
		taken |= used[i] == h;
	n = strlen(key);
	if (taken || n > FTS_JKEY_MAX) {
		/* defining @h again would change an earlier arg's key in this item */
		*slot = (uint16_t)(FTS_JKEY_CACHED + arg);
		return 0;
	}
	c->slot[h].ptr = key;
	memcpy(c->slot[h].text, key, n + 1);
	*slot = h;
	return 0;
}

int fts_jkey_define(struct fts_jkey_table *t, uint16_t slot, const char *key, size_t n)
{
	struct fts_buf *b = &t->json[slot];

	b->len = 0;
	fts_buf_put_strn(b, key, n);
	return b->oom ? -ENOMEM : 0;
}

void fts_jkey_table_free(struct fts_jkey_table *t)
{
	for (int i = 0; i < FTS_JKEY_SLOTS; i++)
		fts_buf_free(&t->json[i]);
}
