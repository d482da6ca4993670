/* SPDX-License-Identifier: MIT */
/*
 * strtab.h - interned byte strings: each distinct string stored once in an
 * arena, known by a dense uint32 id. The lane store keeps names and args
 * blobs here; the JSON readback its lane names.
 */
#ifndef FTS_STRTAB_H
#define FTS_STRTAB_H

#include <stddef.h>
#include <stdint.h>

/* off[] packs an arena offset (the low bits) and a length (the 24 bits above) */
#define FTS_STRTAB_OFF_BITS 40

struct fts_strtab {
	char *arena;          /* every string, NUL-terminated, back to back */
	size_t len, cap;
	uint64_t *off;        /* id -> offset in arena (low 40 bits) | length << 40 */
	uint32_t n, ncap;
	uint32_t *slots;      /* open addressing: id + 1, 0 = empty */
	uint32_t nslots;      /* power of two */
};

/* fts_strtab_init - an empty table. */
void fts_strtab_init(struct fts_strtab *t);

/* fts_strtab_free - release everything (the table may be re-initialised). */
void fts_strtab_free(struct fts_strtab *t);

/*
 * fts_strtab_intern - the id of the @n bytes at @s, added when new.
 * Returns the id, or UINT32_MAX when out of memory.
 */
uint32_t fts_strtab_intern(struct fts_strtab *t, const char *s, size_t n);

/*
 * fts_strtab_find - the id of the @n bytes at @s, or UINT32_MAX when the
 * table does not hold them (or was loaded without its hash slots).
 */
uint32_t fts_strtab_find(const struct fts_strtab *t, const char *s, size_t n);

/* fts_strtab_get - string @id (NUL-terminated; it may hold NULs inside, see len). */
static inline const char *fts_strtab_get(const struct fts_strtab *t, uint32_t id)
{
	return t->arena + (t->off[id] & ((1ull << FTS_STRTAB_OFF_BITS) - 1));
}

/* fts_strtab_len - the length of string @id. */
static inline size_t fts_strtab_len(const struct fts_strtab *t, uint32_t id)
{
	return (size_t)(t->off[id] >> FTS_STRTAB_OFF_BITS);
}

/* fts_strtab_bytes - heap held, for the memory figure. */
size_t fts_strtab_bytes(const struct fts_strtab *t);

/* fts_strtab_shrink - give back the growth slack once loading is over. */
void fts_strtab_shrink(struct fts_strtab *t);

#endif
