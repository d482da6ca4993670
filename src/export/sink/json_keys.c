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

void fts_jkey_cache_init(struct fts_jkey_cache *c)
{
	memset(c, 0, sizeof(*c));
	c->nro = fts_self_ro((uintptr_t)&fts_jkey_cache_init, c->ro);
}

static int read_only(const struct fts_jkey_cache *c, const char *p)
{
	for (int i = 0; i < c->nro; i++)
		if ((uintptr_t)p >= c->ro[i].lo && (uintptr_t)p < c->ro[i].hi)
			return 1;
	return 0;
}

/* Slot @s is one an earlier arg of this item (@used[0..@arg-1]) names. */
static int taken(uint16_t s, int arg, const uint16_t *used)
{
	for (int i = 0; i < arg; i++)
		if (used[i] == s)
			return 1;
	return 0;
}

int fts_jkey_pick(struct fts_jkey_cache *c, const char *key, int arg, const uint16_t *used,
		  uint16_t *slot)
{
	uint16_t h = slot_of(key), victim = UINT16_MAX;
	size_t n;

	/*
	 * A key may sit in any of FTS_JKEY_PROBES slots from its own: two hot
	 * keys whose addresses meet on a slot (likely among a few dozen keys in
	 * 256) then both stay, instead of evicting each other on every item.
	 */
	for (int k = 0; k < FTS_JKEY_PROBES; k++) {
		uint16_t s = (uint16_t)((h + k) % FTS_JKEY_CACHED);

		/* same place, same text: a literal, or a buffer that still holds it */
		if (c->slot[s].ptr == key && (c->slot[s].fixed || !strcmp(c->slot[s].text, key))) {
			*slot = s;
			return 1;
		}
	}
	/* a free slot first, else the next in turn that this item does not name */
	for (int k = 0; k < FTS_JKEY_PROBES && victim == UINT16_MAX; k++) {
		uint16_t s = (uint16_t)((h + k) % FTS_JKEY_CACHED);

		if (!c->slot[s].ptr)
			victim = s;
	}
	for (int k = 0; k < FTS_JKEY_PROBES && victim == UINT16_MAX; k++) {
		uint16_t s = (uint16_t)((h + (c->turn + k) % FTS_JKEY_PROBES) % FTS_JKEY_CACHED);

		if (!taken(s, arg, used))
			victim = s;
	}
	c->turn++;
	n = strlen(key);
	if (victim == UINT16_MAX || n > FTS_JKEY_MAX) {
		/* defining a slot this item names would change an earlier arg's key */
		*slot = (uint16_t)(FTS_JKEY_CACHED + arg);
		return 0;
	}
	c->slot[victim].ptr = key;
	c->slot[victim].fixed = read_only(c, key);
	memcpy(c->slot[victim].text, key, n + 1);
	*slot = victim;
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
