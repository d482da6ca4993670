// SPDX-License-Identifier: MIT
#include "ftscope/profkind.h"
#include "ftscope/event.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util/file_util.h"
#include "core/model/profinfo.h"

/* a card is the directory itself, or 1-2 levels below what users pass; 4 leaves room */
#define KIND_MAX_DEPTH 4

static int is_db(const char *name)
{
	size_t n = strlen(name);

	if (!strcmp(name, "analysis.db"))
		return 1;
	return !strncmp(name, "ascend_pytorch_profiler", 23) && n > 26 && !strcmp(name + n - 3, ".db");
}

/* What ASCEND_PROFILER_OUTPUT in @dfd holds: FTS_PROF_* bits. */
static unsigned by_files(int dfd)
{
	int od = openat(dfd, "ASCEND_PROFILER_OUTPUT", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	unsigned bits = 0;
	struct dirent *de;
	DIR *d;

	if (od < 0)
		return 0;
	d = fdopendir(od);
	if (!d) {
		close(od);
		return 0;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, "trace_view.json"))
			bits |= FTS_PROF_TEXT;
		else if (is_db(de->d_name))
			bits |= FTS_PROF_DB;
	}
	closedir(d);
	return bits;
}

/* The type from profiler_info's _export_type: FTS_PROF_* bits, 0 when it does not say. */
static unsigned by_info(int dfd, const char *name)
{
	struct fts__profinfo pi;
	char *text;
	size_t len;

	if (fts_read_small_file_at(dfd, name, name, FTS__PROFINFO_MAX_BYTES, FTS_OPEN_NOFOLLOW, &text,
				   &len, NULL))
		return 0;
	fts__profinfo_export(text, len, &pi);
	free(text);
	return (pi.export_text ? FTS_PROF_TEXT : 0) | (pi.export_db ? FTS_PROF_DB : 0);
}

static void card(struct fts_profiling_kind *k, unsigned bits, const char *how)
{
	k->cards++;
	k->kind |= bits;
	if (!bits)
		k->unknown++;
	else if (bits & FTS_PROF_DB)
		k->db++;
	else
		k->text_only++;
	if (bits && !k->how[0])
		fts_copy_str(k->how, (int)sizeof(k->how), how, -1);
}

static void scan(struct fts_profiling_kind *k, int dfd, int depth)
{
	char info[256] = "";
	struct dirent *de;
	struct stat sb;
	int has_out = 0, sub, fd2 = dup(dfd);   /* closedir closes it; @dfd stays the caller's */
	DIR *d;

	if (fd2 < 0)
		return;
	d = fdopendir(fd2);
	if (!d) {
		close(fd2);
		return;
	}
	while ((de = readdir(d))) {
		if (fts__profinfo_name(de->d_name) && !info[0] && strlen(de->d_name) < sizeof(info))
			snprintf(info, sizeof(info), "%s", de->d_name);
		else if (!strcmp(de->d_name, "ASCEND_PROFILER_OUTPUT"))
			has_out = 1;
	}
	if (info[0] || has_out) {
		unsigned bits = info[0] ? by_info(dfd, info) : 0;
		char how[sizeof(info) + 16];   /* room for the name: -Wformat-truncation at -O0 */

		if (bits) {
			snprintf(how, sizeof(how), "%s _export_type", info);
		} else {
			bits = by_files(dfd);
			snprintf(how, sizeof(how), "the files in ASCEND_PROFILER_OUTPUT");
		}
		card(k, bits, how);
	} else if (depth < KIND_MAX_DEPTH) {
		rewinddir(d);
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.' || fstatat(dfd, de->d_name, &sb, AT_SYMLINK_NOFOLLOW) ||
			    !S_ISDIR(sb.st_mode))
				continue;
			sub = openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0) {
				scan(k, sub, depth + 1);
				close(sub);
			}
		}
	}
	closedir(d);
}

int fts_profiling_kind(const char *dir, struct fts_profiling_kind *k, struct fts_err *err)
{
	int dfd;

	memset(k, 0, sizeof(*k));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		int e = errno;

		return fts_err_set(err, -e, "%s: cannot open profiling data: %s", dir, strerror(e));
	}
	scan(k, dfd, 0);
	close(dfd);
	return 0;
}

int fts_profiling_format(const struct fts_profiling_kind *k, const char **why)
{
	if (k->text_only && !k->db) {
		*why = "the profiling is text-only (trace_view.json): older MindStudio Insight refuses an ftrace DB next to it (\"File Conflict\"); JSON joins every version";
		return 1;
	}
	if (k->db && k->text_only) {
		*why = "some cards are text-only, some have DB output: older MindStudio Insight refuses an ftrace DB next to text-only cards (\"File Conflict\"); JSON joins every version";
		return 1;
	}
	if (k->db) {
		*why = "the profiling has DB output (ascend_pytorch_profiler_*.db): an ftrace DB joins it";
		return 0;
	}
	*why = "the profiling's export type is not known (no _export_type, trace_view.json or DB found): DB, the default";
	return 0;
}
