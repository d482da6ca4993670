// SPDX-License-Identifier: MIT
/*
 * json_read.c - our Chrome-trace JSON read back. The JSON sink writes one
 * event per line, so this reads line by line and never holds a tree: each
 * line is split as a flat object (args kept as raw text). Lanes are those of
 * the "CPU Scheduling" / "Process Scheduling" pids; other events are skipped.
 * ts/dur are microseconds with up to three decimals, turned into exact ns.
 */
#include "core/readback/readback.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util/strtab.h"

#define PROGRESS_LINES 65536
#define LINE_FIELDS 16

struct jr {
	const char *path;
	const struct fts_rb_ops *ops;
	struct fts_strtab lanes;   /* "<group char><tid>" -> lane id */
	char *buf;
	size_t bufsz;
};

/* "123.456" µs -> ns exactly; 0 and -1 on anything else (negative, garbage). */
static int us_to_ns(const char *s, uint64_t *ns)
{
	uint64_t whole = 0, frac = 0;
	int digits = 0;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		whole = whole * 10 + (uint64_t)(*s - '0');
		if (whole > 4000000000000000ull) /* past year 2096 in us: not a time */
			return -1;
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++) {
			if (digits < 3) {
				frac = frac * 10 + (uint64_t)(*s - '0');
				digits++;
			}
		}
	}
	if (*s && *s != 'e' && *s != 'E')
		return -1;
	while (digits++ < 3)
		frac *= 10;
	*ns = whole * 1000 + frac;
	return 0;
}

static const char *field(const struct fts_arg *a, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(a[i].key, key))
			return a[i].val;
	return NULL;
}

static int32_t cpu_of(const char *tid)
{
	return strncmp(tid, "CPU ", 4) ? -1 : (int32_t)strtol(tid + 4, NULL, 10);
}

/* The lane of (@group, @tid), declared on first sight. */
static int lane_of(struct jr *j, enum fts_lane_group group, const char *tid, uint32_t *lane,
		   struct fts_err *err)
{
	size_t n = strlen(tid);
	char key[1024];
	uint32_t before = j->lanes.n, id;

	if (n > sizeof(key) - 2)
		n = sizeof(key) - 2;
	key[0] = group == FTS_GROUP_CPU ? 'C' : 'P';
	memcpy(key + 1, tid, n);
	id = fts_strtab_intern(&j->lanes, key, n + 1);
	if (id == UINT32_MAX)
		return fts_err_set(err, -ENOMEM, "out of memory");
	*lane = id;
	if (id == before) {
		struct fts_lane l = { id, group, group == FTS_GROUP_CPU ? cpu_of(tid) : 0, tid };

		return j->ops->lane(j->ops->ctx, &l, err);
	}
	return 0;
}

static int one_line(struct jr *j, const char *line, size_t len, uint64_t *rows,
		    struct fts_err *err)
{
	struct fts_arg f[LINE_FIELDS];
	const char *ph, *pid, *tid, *name, *args;
	enum fts_lane_group group;
	struct fts_rb_row row;
	int n, rc;

	/* "[{...}," on the first line, "{...}]" on the last: the array's brackets */
	while (len && (line[0] == '[' || line[0] == ' ' || line[0] == '\t')) {
		line++;
		len--;
	}
	while (len && strchr("\n\r,] \t", line[len - 1]))
		len--;
	n = fts_args_parse(line, len, f, LINE_FIELDS, j->buf, j->bufsz);
	if (n <= 0)
		return 0; /* "[", "]", or not an event */
	ph = field(f, n, "ph");
	pid = field(f, n, "pid");
	tid = field(f, n, "tid");
	if (!ph || !pid || !tid)
		return 0;
	if (!strcmp(pid, FTS_GROUP_CPU_NAME))
		group = FTS_GROUP_CPU;
	else if (!strcmp(pid, FTS_GROUP_TASK_NAME))
		group = FTS_GROUP_TASK;
	else
		return 0;
	rc = lane_of(j, group, tid, &row.lane, err);
	if (rc || strcmp(ph, "X"))
		return rc;
	name = field(f, n, "name");
	if (!name || !field(f, n, "ts") || us_to_ns(field(f, n, "ts"), &row.ts) || row.ts == 0)
		return 0;
	if (!field(f, n, "dur") || us_to_ns(field(f, n, "dur"), &row.dur))
		row.dur = 0;
	args = field(f, n, "args");
	row.name = name;
	row.name_len = strlen(name);
	row.args = args;
	row.args_len = args ? strlen(args) : 0;
	row.kind = fts_rb_kind(group, row.name, row.name_len, row.dur, args, row.args_len);
	(*rows)++;
	return j->ops->row(j->ops->ctx, &row, err);
}

int fts_json_readback(const char *path, const struct fts_rb_ops *ops, uint64_t *rows,
		      struct fts_err *err)
{
	struct jr j = { .path = path, .ops = ops };
	uint64_t local = 0, lines = 0, done = 0, total;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	struct stat sb;
	FILE *f;
	int rc = 0;

	if (!rows)
		rows = &local;
	*rows = 0;
	f = fopen(path, "re");
	if (!f)
		return fts_err_set(err, -errno, "%s: cannot open: %s", path, strerror(errno));
	total = fstat(fileno(f), &sb) == 0 ? (uint64_t)sb.st_size : 0;
	fts_strtab_init(&j.lanes);
	while ((len = getline(&line, &cap, f)) > 0) {
		if (j.bufsz < (size_t)len + 64) {
			char *b = realloc(j.buf, (size_t)len + 64);

			if (!b) {
				rc = fts_err_set(err, -ENOMEM, "out of memory");
				break;
			}
			j.buf = b;
			j.bufsz = (size_t)len + 64;
		}
		done += (uint64_t)len;
		rc = one_line(&j, line, (size_t)len, rows, err);
		if (rc)
			break;
		if (++lines % PROGRESS_LINES == 0 && ops->progress &&
		    ops->progress(ops->ctx, done, total, *rows)) {
			rc = fts_err_set(err, -ECANCELED, "cancelled");
			break;
		}
	}
	if (!rc && ferror(f))
		rc = fts_err_set(err, -EIO, "%s: read failed", path);
	if (!rc && j.lanes.n == 0)
		rc = fts_err_set(err, -ENODATA,
				 "%s: not an ftrace JSON (no \"CPU Scheduling\" or \"Process Scheduling\" events, one per line)",
				 path);
	free(line);
	free(j.buf);
	fts_strtab_free(&j.lanes);
	fclose(f);
	return rc;
}
