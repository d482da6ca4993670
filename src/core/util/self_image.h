/* SPDX-License-Identifier: MIT */
/*
 * self_image.h - the loaded object (the program, or the library it links)
 * that holds a given address, found through the dynamic loader's list.
 *
 * The preview cache keys its files on this object's build id; the JSON
 * sink trusts a key's address alone when it lies in this object's
 * read-only memory (string literals cannot change, and the object cannot
 * be unloaded while its code runs).
 */
#ifndef FTS_SELF_IMAGE_H
#define FTS_SELF_IMAGE_H

#include <link.h>
#include <stdint.h>

/*
 * fts_self_image - call @fn(@info, @arg) for the loaded object one of whose
 * PT_LOAD segments holds @addr. Returns 1 when one did, 0 when none.
 */
int fts_self_image(uintptr_t addr, void (*fn)(struct dl_phdr_info *info, void *arg), void *arg);

/* An address range [lo, hi). */
struct fts_addr_range {
	uintptr_t lo, hi;
};

#define FTS_SELF_RO_MAX 4

/*
 * fts_self_ro - the read-only (not PF_W) PT_LOAD segments of the object
 * holding @addr, at most FTS_SELF_RO_MAX, into @out. Returns how many.
 */
int fts_self_ro(uintptr_t addr, struct fts_addr_range *out);

#endif
