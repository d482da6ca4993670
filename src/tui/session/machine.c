// SPDX-License-Identifier: MIT
/*
 * machine.c - the real machine behind the screens: the recorder, /proc and
 * the disk. Tests pass their own struct fts_machine instead.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/statvfs.h>

#include "app/process.h"
#include "tui/session/session.h"

static int disk_free(const char *dir, double *bytes)
{
	struct statvfs vfs;

	if (statvfs(dir, &vfs))
		return -errno;
	*bytes = (double)vfs.f_bavail * (double)vfs.f_frsize;
	return 0;
}

const char *fts_machine_cwd(const struct fts_machine *m, char *buf, size_t len)
{
	if (m->cwd)
		snprintf(buf, len, "%s", m->cwd);
	else if (!getcwd(buf, len))
		snprintf(buf, len, ".");
	return buf;
}

const struct fts_machine fts_machine_real = {
	.probe = fts_record_probe,
	.rec_start = fts_record_start,
	.rec_health = fts_record_health,
	.rec_stop = fts_record_stop_progress,
	.disk_free = disk_free,
	.rec_snapshot = fts_record_snapshot,
	.proc_stat = "/proc/stat",
	.proc_meminfo = "/proc/meminfo",
	.proc_root = "/proc",
	.home_dir = ".",
	.probe_helper = FTS_FRONT_PROBE_HELPER,
};
