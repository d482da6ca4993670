// SPDX-License-Identifier: MIT
/*
 * fuzz_cache.c - libFuzzer target: the preview's store cache file
 * (src/export/preview/store_cache.c) as someone who can write it would make
 * it: the input is a whole cache file, which this target re-signs (its key
 * made this run's, both checksums made right) so that only the index checks
 * stand between it and the store. What loads is then used as the preview
 * uses it: every lane, item and args, a few buckets, and the summary's
 * statistics (fts_store_stats), whose string lookups once trusted an id.
 * Seeds: real cache files (fuzz/make_cache_seeds.sh).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/preview/store_cache_local.h"
#include "ftscope/stats.h"
#include "fuzz_util.h"

static char g_dir[256], g_in[300];

/* A private cache directory and an input for the key, once. */
static int setup(void)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	int fd;

	if (g_in[0])
		return 0;
	snprintf(g_dir, sizeof(g_dir), "%s/fts-fuzz-cache-XXXXXX", tmp);
	if (!mkdtemp(g_dir))
		return -1;
	setenv("XDG_CACHE_HOME", g_dir, 1);
	unsetenv("FTSCOPE_NO_CACHE");
	snprintf(g_in, sizeof(g_in), "%s/input", g_dir);
	fd = open(g_in, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* @data as @c's file: its key and both checksums made to pass. */
static int write_signed(const struct st_cache *c, const uint8_t *data, size_t size)
{
	size_t n = size > sizeof(struct hdr) ? size : sizeof(struct hdr);
	unsigned char *b = calloc(1, n);
	struct hdr h;
	int fd, rc = -1;

	if (!b)
		return -1;
	memcpy(b, data, size);
	memcpy(&h, b, sizeof(h));
	memcpy(&h, &c->key, offsetof(struct hdr, payload_bytes));
	h.payload_bytes = n - sizeof(h);
	h.sum = fts_cache_sum_all(b + sizeof(h), n - sizeof(h));
	h.hdr_sum = fts_cache_sum_all(&h, offsetof(struct hdr, hdr_sum));
	memcpy(b, &h, sizeof(h));
	fd = openat(c->dfd, c->name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0) {
		rc = write(fd, b, n) == (ssize_t)n ? 0 : -1;
		close(fd);
	}
	free(b);
	return rc;
}

/* The store used as the preview uses it; anything out of bounds is a crash. */
static void use(const struct fts_store *s)
{
	struct fts_stats *st = NULL;
	struct fts_err err = { 0 };
	const struct fts_store_info *info = fts_store_info(s);
	char buf[256];

	for (uint32_t i = 0; i < fts_store_nlanes(s); i++) {
		const struct fts_store_lane *l = fts_store_lane(s, i);
		struct fts_bucket b[8];

		(void)fts_store_str(s, l->tid);
		for (uint64_t j = 0; j < l->nitems && j < 4096; j++) {
			struct fts_store_item it;
			struct fts_arg args[FTS_ITEM_MAX_ARGS];

			if (fts_store_item(s, i, j, &it))
				abort();
			(void)fts_store_str(s, it.name);
			(void)fts_store_args(s, i, j, args, FTS_ITEM_MAX_ARGS, buf, sizeof(buf));
		}
		if (info->t_end > info->t_begin + 8)
			(void)fts_store_buckets(s, i, info->t_begin, info->t_end, 8, b);
		(void)fts_store_find(s, i, info->t_begin / 2 + info->t_end / 2, 0);
	}
	if (!fts_store_stats(s, NULL, NULL, &st, &err))
		fts_stats_free(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fts_store_open_opts o = { .cache = 1 };
	struct fts_store *s = NULL;
	struct st_cache *c;

	if (setup())
		return 0;
	o.path = g_in;
	c = fts_store_cache_new(&o);
	if (!c || c->dfd < 0 || write_signed(c, data, size)) {
		fts_store_cache_free(c);
		return 0;
	}
	if (fts_store_cache_load(c, &s)) {
		fts_store_cache_free(c);
		return 0;
	}
	use(s);
	fts_store_free(s); /* and c with it */
	return 0;
}
