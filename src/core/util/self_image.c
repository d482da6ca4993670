// SPDX-License-Identifier: MIT
#include "core/util/self_image.h"

struct image_find {
	uintptr_t addr;
	void (*fn)(struct dl_phdr_info *info, void *arg);
	void *arg;
	int found;
};

static int holds_addr(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct image_find *f = arg;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && f->addr >= lo && f->addr < lo + ph->p_memsz) {
			f->fn(info, f->arg);
			f->found = 1;
			return 1;
		}
	}
	return 0;
}

int fts_self_image(uintptr_t addr, void (*fn)(struct dl_phdr_info *info, void *arg), void *arg)
{
	struct image_find f = { .addr = addr, .fn = fn, .arg = arg };

	dl_iterate_phdr(holds_addr, &f);
	return f.found;
}

struct ro_find {
	struct fts_addr_range *out;
	int n;
};

static void ro_segments(struct dl_phdr_info *info, void *arg)
{
	struct ro_find *r = arg;

	for (int i = 0; i < info->dlpi_phnum && r->n < FTS_SELF_RO_MAX; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		/* RELRO data is PF_W in its PT_LOAD: left out, as anything writable */
		if (ph->p_type == PT_LOAD && !(ph->p_flags & PF_W)) {
			r->out[r->n].lo = info->dlpi_addr + ph->p_vaddr;
			r->out[r->n].hi = r->out[r->n].lo + ph->p_memsz;
			r->n++;
		}
	}
}

int fts_self_ro(uintptr_t addr, struct fts_addr_range *out)
{
	struct ro_find r = { .out = out };

	fts_self_image(addr, ro_segments, &r);
	return r.n;
}
