// SPDX-License-Identifier: MIT
/*
 * snapcap.c - the disk cap of the flight recorder's trigger snapshots: at
 * most @keep of them and @bytes in all; before a new one is kept the oldest
 * are dropped until it fits. Only the snapshots this run's triggers took are
 * counted or dropped: a manual one (SIGUSR1, `ftscope snapshot`) was asked
 * for by a person and is theirs to delete.
 *
 * A snapshot's bytes are its files' sizes: its segments are hard links into
 * the ring while the ring keeps them, and its own once the ring has pruned
 * them, which is what it costs for as long as it stays.
 *
 * Removing goes through descriptors, as the recorder makes them (flight.c):
 * the directory is opened with O_NOFOLLOW, checked to be the one made (its
 * device and inode), emptied relative to that descriptor, then removed by
 * name only while the name still leads to it. A name swapped for a symlink
 * meanwhile removes nothing elsewhere.
 */
#include "core/record/record_local.h"
#include "core/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void rec_snapcap_init(struct rec_snapcap *c, int keep, uint64_t bytes)
{
	memset(c, 0, sizeof(*c));
	c->keep = keep > 0 ? keep : REC_SNAPCAP_KEEP;
	c->bytes = bytes ? bytes : REC_SNAPCAP_BYTES;
}

/* Empty and remove snapshot @e in @dfd; 0, or -errno when something was left. */
static int remove_snapshot(int dfd, const struct rec_snapcap_ent *e)
{
	struct stat st;
	struct dirent *d;
	DIR *dir;
	int sfd = openat(dfd, e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), rc = 0;

	if (sfd < 0)
		return errno == ENOENT ? 0 : -errno;   /* gone already: the user removed it */
	if (fstat(sfd, &st) < 0 || st.st_dev != e->dev || st.st_ino != e->ino) {
		close(sfd);
		return -ESTALE;   /* another directory under that name now: not ours */
	}
	dir = fdopendir(sfd);
	if (!dir) {
		close(sfd);
		return -errno;
	}
	while ((d = readdir(dir))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (unlinkat(dirfd(dir), d->d_name, 0) < 0 && !rc)
			rc = -errno;   /* a directory someone put there: left, and so is the snapshot */
	}
	if (!rc && fstatat(dfd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_dev == e->dev &&
	    st.st_ino == e->ino && unlinkat(dfd, e->name, AT_REMOVEDIR) < 0)
		rc = -errno;
	closedir(dir);
	return rc;
}

static uint64_t total(const struct rec_snapcap *c)
{
	uint64_t b = 0;

	for (int i = 0; i < c->n; i++)
		b += c->v[i].bytes;
	return b;
}

int rec_snapcap_drop_oldest(struct rec_snapcap *c, int dfd, struct rec_snapcap_ent *gone)
{
	int rc;

	if (!c->n)
		return -ENOENT;
	rc = remove_snapshot(dfd, &c->v[0]);
	if (gone)
		*gone = c->v[0];
	/* one that could not be removed is no longer ours to count either */
	memmove(c->v, c->v + 1, (size_t)(c->n - 1) * sizeof(*c->v));
	c->n--;
	c->dropped++;
	return rc;
}

void rec_snapcap_make_room(struct rec_snapcap *c, int dfd, uint64_t bytes, FILE *json)
{
	int k = 0;

	while (c->n && (c->n + 1 > c->keep || total(c) + bytes > c->bytes)) {
		struct rec_snapcap_ent e;
		int rc = rec_snapcap_drop_oldest(c, dfd, &e);

		if (json) {
			fputs(k++ ? ", " : "", json);
			fputs("{\"dir\": ", json);
			fts__json_fputs(json, e.name, 0);
			fprintf(json, ", \"bytes\": %llu, \"removed\": %s}", (unsigned long long)e.bytes,
				rc ? "false" : "true");
		}
	}
}

int rec_snapcap_add(struct rec_snapcap *c, int sfd, const char *name, uint64_t bytes)
{
	struct rec_snapcap_ent *nv;
	struct stat st;

	if (fstat(sfd, &st) < 0)
		return -errno;
	nv = realloc(c->v, (size_t)(c->n + 1) * sizeof(*c->v));
	if (!nv)
		return -ENOMEM;
	c->v = nv;
	snprintf(nv[c->n].name, sizeof(nv[c->n].name), "%s", name);
	nv[c->n].dev = st.st_dev;
	nv[c->n].ino = st.st_ino;
	nv[c->n].bytes = bytes;
	c->n++;
	return 0;
}

void rec_snapcap_free(struct rec_snapcap *c)
{
	free(c->v);
	c->v = NULL;
	c->n = 0;
}
