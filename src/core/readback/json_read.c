// SPDX-License-Identifier: MIT
/*
 * json_read.c - a Chrome-trace JSON array read back, streaming: the array is
 * scanned byte by byte from the one descriptor opened (a FIFO swapped in at
 * the name is refused, never waited on), each event object is cut out whole
 * (whatever the line layout: ours has one per line, a re-serialised file has
 * all on one) and only its ph/pid/tid/name/ts/dur/args are picked, however
 * many members it has. No tree of the file is ever built. What is not an
 * event array is refused with the byte where it stops making sense.
 * fts_json_events hands each event's text to a callback (the profiler's
 * trace_view.json reader, trace_view.c, uses it); fts_json_readback is its
 * client for our own JSON: lanes are those of the "CPU Scheduling" /
 * "Process Scheduling" pids, and their "s"/"f" flow events the wakeup links
 * (handed over after every row); other events are skipped. ts/dur are microseconds with up to three decimals,
 * turned into exact ns.
 */
#include "core/readback/readback.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/readback/flow_pair.h"
#include "core/util/buf.h"
#include "core/util/file_util.h"
#include "core/util/strtab.h"
#include "core/internal.h"

#define IN_BUF 65536
#define EVENT_MAX (16u << 20)   /* one event's text; ours are a few hundred bytes */
#define REPORT_MS 100
#define FIELDS 9

enum { F_PH, F_PID, F_TID, F_NAME, F_TS, F_DUR, F_ARGS, F_ID, F_CAT };
static const char *const field_keys[FIELDS] = { "ph", "pid", "tid", "name", "ts", "dur", "args",
						"id", "cat" };

struct jr {
	const char *path;
	fts_json_event_fn on_event;  /* each event object's text */
	void *on_ctx;
	int (*progress)(void *ctx, uint64_t done, uint64_t total, uint64_t rows);
	void *progress_ctx;
	/* the read-back's own state (fts_json_readback only) */
	const struct fts_rb_ops *ops;
	struct fts_strtab lanes;   /* "<group char><tid>" -> lane id */
	struct fts_rb_pairs links; /* flow events, paired by cat and id (ops->flow only) */
	struct fts_buf ev;         /* the event being cut out */
	struct fts_buf key;        /* a lane key */
	char *scratch;             /* its unescaped members */
	size_t scratch_sz;
	int fd;
	unsigned char in[IN_BUF];
	size_t in_len, in_pos;
	uint64_t off;              /* bytes consumed */
	uint64_t total, rows, events, next_ms;
	struct fts_err *err;
	int failed;                /* err is set; stop */
};

static int refill(struct jr *j);

/* The next byte, or -1 at the end (or after a read error, which sets failed). */
static int next(struct jr *j)
{
	if (j->in_pos == j->in_len && refill(j) < 0)
		return -1;
	j->off++;
	return j->in[j->in_pos++];
}

static int skip_ws(struct jr *j)
{
	int c;

	do
		c = next(j);
	while (c == ' ' || c == '\t' || c == '\r' || c == '\n');
	return c;
}

static int refuse(struct jr *j, const char *what)
{
	if (j->failed)
		return j->err ? j->err->code : -EIO;
	j->failed = 1;
	return fts_err_set(j->err, -EINVAL, "%s: not an event array: %s at byte %llu; refused",
			   j->path, what, (unsigned long long)(j->off ? j->off - 1 : 0));
}

/* Past year 2096 in us: not a time (also keeps ns far from UINT64_MAX). */
#define US_MAX 4000000000000000ull
/* Significant digits kept: more than any time or duration in ns can use. */
#define SIG_MAX 40

/*
 * The digits of "123.456e-2" without the point (leading zeros dropped, at
 * most SIG_MAX kept), into @sig; returns where the point stands after the
 * exponent (digits before it), or INT32_MIN when @s is not such a number.
 */
static int32_t us_digits(const char *s, char *sig, int *nsig)
{
	int32_t point = 0, e = 0;
	int seen = 0, esign = 1, edigits = 0;

	*nsig = 0;
	for (; *s >= '0' && *s <= '9'; s++, seen = 1) {
		if (*nsig == 0 && *s == '0')
			continue;
		if (*nsig < SIG_MAX)
			sig[(*nsig)++] = *s;
		point++;
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, seen = 1) {
			if (*nsig == 0 && *s == '0') {
				point--; /* 0.00x: the point moves left of the first digit */
				continue;
			}
			if (*nsig < SIG_MAX)
				sig[(*nsig)++] = *s;
		}
	}
	if (!seen)
		return INT32_MIN;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			esign = *s++ == '-' ? -1 : 1;
		for (; *s >= '0' && *s <= '9'; s++, edigits++) {
			if (e < 100000)
				e = e * 10 + (*s - '0');
		}
		if (!edigits)
			return INT32_MIN;
	}
	if (*s)
		return INT32_MIN;
	return point + esign * e;
}

/*
 * Decimal and exponent forms alike ("2e3" is 2000 us, "840.07675" is
 * 840076 ns): the digits are placed by the exponent, then cut at the ns.
 */
int fts_json_us_to_ns(const char *s, uint64_t *ns)
{
	char sig[SIG_MAX];
	int nsig;
	int32_t point = us_digits(s, sig, &nsig);
	uint64_t v = 0;

	if (*s < '0' || *s > '9' || point == INT32_MIN)
		return -1;
	if (nsig == 0) {        /* zero, however written */
		*ns = 0;
		return 0;
	}
	point += 3;             /* us -> ns: the digits up to here are whole ns */
	if (point > 19)
		return -1;
	for (int32_t i = 0; i < point; i++)
		v = v * 10 + (uint64_t)(i < nsig ? sig[i] - '0' : 0);
	if (v > US_MAX * 1000 + 999)
		return -1;
	*ns = v;
	return 0;
}

/* The lane of (@group, @tid), declared on first sight; the whole tid is the key. */
static int lane_of(struct jr *j, enum fts_lane_group group, const char *tid, uint32_t *lane)
{
	size_t n = strlen(tid);
	uint32_t before = j->lanes.n, id;

	j->key.len = 0;
	fts_buf_put(&j->key, group == FTS_GROUP_CPU ? "C" : "P", 1);
	fts_buf_put(&j->key, tid, n);
	id = j->key.oom ? UINT32_MAX : fts_strtab_intern(&j->lanes, j->key.p, j->key.len);
	if (id == UINT32_MAX)
		return fts_err_set(j->err, -ENOMEM, "out of memory");
	*lane = id;
	if (id == before) {
		struct fts_lane l = { id, group, group == FTS_GROUP_CPU ? fts_rb_cpu_of(tid) : 0, tid };

		if (l.sort_index == -2)
			return fts_err_set(j->err, -ERANGE,
					   "%s: a CPU lane's number is out of range (CPUs go up to %d); refused",
					   j->path, FTS_RB_CPU_MAX - 1);
		return j->ops->lane(j->ops->ctx, &l, j->err);
	}
	return 0;
}

/* A flow event ("s" the waker, "f" the woken task's run), kept to be paired by (cat, id). */
static int flow_event(struct jr *j, const char *const *f, uint32_t lane)
{
	uint64_t ts;
	int rc;

	if (!f[F_ID] || !f[F_TS] || fts_json_us_to_ns(f[F_TS], &ts) || ts == 0 || ts > INT64_MAX)
		return 0;
	j->key.len = 0;
	fts_buf_put(&j->key, f[F_CAT] ? f[F_CAT] : "", f[F_CAT] ? strlen(f[F_CAT]) : 0);
	fts_buf_put(&j->key, "\x1f", 1);
	fts_buf_put(&j->key, f[F_ID], strlen(f[F_ID]));
	rc = j->key.oom ? -ENOMEM :
	     fts_rb_pairs_add(&j->links, j->key.p, j->key.len, f[F_NAME],
			      f[F_NAME] ? strlen(f[F_NAME]) : 0, f[F_PH][0] == 'f', lane, (int64_t)ts);
	return rc ? fts_err_set(j->err, rc, "out of memory (wakeup links)") : 0;
}

/* A link's end is a lane already declared: its id as it is. */
static int lane_is(const void *ctx, int64_t where, uint32_t *lane)
{
	(void)ctx;
	*lane = (uint32_t)where;
	return 0;
}

static int one_event(void *ctx, const char *text, size_t len, struct fts_err *err)
{
	struct jr *j = ctx;
	const char *f[FIELDS];
	enum fts_lane_group group;
	struct fts_rb_row row;
	int rc;

	(void)err;
	row.parsed = NULL; /* the row's args are split by whoever takes it */
	row.nparsed = 0;
	if (j->scratch_sz < len + 64) {
		char *b = realloc(j->scratch, len + 64);

		if (!b)
			return fts_err_set(j->err, -ENOMEM, "out of memory");
		j->scratch = b;
		j->scratch_sz = len + 64;
	}
	if (fts_json_pick(text, len, field_keys, FIELDS, f, j->scratch, j->scratch_sz))
		return refuse(j, "an event that is not a valid JSON object, ending");
	if (!f[F_PH] || !f[F_PID] || !f[F_TID])
		return 0;
	if (!strcmp(f[F_PID], FTS_GROUP_CPU_NAME))
		group = FTS_GROUP_CPU;
	else if (!strcmp(f[F_PID], FTS_GROUP_TASK_NAME))
		group = FTS_GROUP_TASK;
	else
		return 0;
	rc = lane_of(j, group, f[F_TID], &row.lane);
	if (!rc && j->ops->flow && (!strcmp(f[F_PH], "s") || !strcmp(f[F_PH], "f")))
		return flow_event(j, f, row.lane);
	if (rc || strcmp(f[F_PH], "X"))
		return rc;
	if (!f[F_NAME] || !f[F_TS] || fts_json_us_to_ns(f[F_TS], &row.ts) || row.ts == 0)
		return 0;
	if (!f[F_DUR] || fts_json_us_to_ns(f[F_DUR], &row.dur))
		row.dur = 0;
	row.name = f[F_NAME];
	row.name_len = strlen(row.name);
	row.args = f[F_ARGS];
	row.args_len = row.args ? strlen(row.args) : 0;
	row.kind = fts_rb_kind(group, row.name, row.name_len, row.dur, row.args, row.args_len);
	j->rows++;
	return j->ops->row(j->ops->ctx, &row, j->err);
}

static int ev_put(struct jr *j, int c)
{
	if (j->ev.len == j->ev.cap && fts_buf_reserve(&j->ev, 1))
		return fts_err_set(j->err, -ENOMEM, "out of memory");
	j->ev.p[j->ev.len++] = (char)c;
	return 0;
}

/* Refill the input buffer: its byte count, or -1 at the end or on a read error (failed set). */
static int refill(struct jr *j)
{
	ssize_t n;

	do
		n = read(j->fd, j->in, sizeof(j->in));
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		if (n < 0 && !j->failed) {
			fts_err_set(j->err, -errno, "%s: read failed: %s", j->path, strerror(errno));
			j->failed = 1;
		}
		return -1;
	}
	j->in_len = (size_t)n;
	j->in_pos = 0;
	return (int)n;
}

/*
 * The object whose '{' was just read, into j->ev (strings and nesting
 * followed). The input buffer is scanned in place and each stretch copied
 * at once: this loop sees every byte of a file of hundreds of MB.
 */
static int cut_event(struct jr *j)
{
	int depth = 1, in_str = 0, esc = 0;

	j->ev.len = 0;
	if (ev_put(j, '{'))
		return -ENOMEM;
	for (;;) {
		size_t i, n;

		if (j->in_pos == j->in_len && refill(j) < 0)
			return refuse(j, "the file ends inside an event");
		for (i = j->in_pos; i < j->in_len && depth; i++) {
			unsigned char c = j->in[i];

			if (esc)
				esc = 0;
			else if (in_str && c == '\\')
				esc = 1;
			else if (in_str)
				in_str = c != '"';
			else if (c == '"')
				in_str = 1;
			else if (c == '{' || c == '[')
				depth++;
			else if (c == '}' || c == ']')
				depth--;
		}
		n = i - j->in_pos;
		if (j->ev.len + n > EVENT_MAX) {
			j->off += n;
			return refuse(j, "an event over 16 MB (none of ours is), still open");
		}
		if (fts_buf_reserve(&j->ev, n))
			return fts_err_set(j->err, -ENOMEM, "out of memory");
		memcpy(j->ev.p + j->ev.len, j->in + j->in_pos, n);
		j->ev.len += n;
		j->in_pos = i;
		j->off += n;
		if (!depth)
			return 0;
	}
}

/* A few times a second, whatever the layout: cancelling works on a one-line file too. */
static int report(struct jr *j)
{
	uint64_t now;

	if (!j->progress)
		return 0;
	now = fts__clock_mono_ms();
	if (now < j->next_ms)
		return 0;
	j->next_ms = now + REPORT_MS;
	if (j->progress(j->progress_ctx, j->off, j->total, j->ops ? j->rows : j->events))
		return fts_err_set(j->err, -ECANCELED, "cancelled");
	return 0;
}

/* '[' then events separated by ',' up to ']' (a missing ']' is allowed, as in Chrome's format). */
static int walk(struct jr *j)
{
	int c = skip_ws(j), rc;

	if (c == '{')
		return refuse(j, "a JSON object, not the array ftscope convert writes ([{...},...]),");
	if (c != '[')
		return refuse(j, "no '[' that opens the array");
	for (;;) {
		c = skip_ws(j);
		if (c == ']' || c < 0)
			break;
		if (c != '{')
			return refuse(j, "an array element that is not an event object");
		rc = cut_event(j);
		if (!rc) {
			j->events++;
			rc = j->on_event(j->on_ctx, j->ev.p, j->ev.len, j->err);
			/* the callback's own refusal names no byte: say where it was */
			if (rc && !j->failed)
				j->failed = 1;
		}
		if (!rc && (j->events & 1023) == 0)
			rc = report(j);
		if (rc)
			return rc;
		c = skip_ws(j);
		if (c == ']' || c < 0)
			break;
		if (c != ',')
			return refuse(j, "no ',' or ']' after an event");
	}
	if (c == ']' && skip_ws(j) >= 0)
		return refuse(j, "text after the array's closing ']'");
	return j->failed ? j->err->code : 0;
}

/* Open @path and walk it, each event to @j->on_event; @j is set up but for fd/total. */
static int scan(struct jr *j, const char *path, struct fts_err *err)
{
	struct stat sb;
	int fd, rc;

	fd = fts_open_regular(path, 0, &sb, err);
	if (fd < 0)
		return fd;
	j->path = path;
	j->fd = fd;
	j->err = err;
	j->total = (uint64_t)sb.st_size;
	rc = walk(j);
	fts_buf_free(&j->ev);
	close(fd);
	return rc;
}

/* A scanner, zeroed; NULL with @err set when out of memory. */
static struct jr *jr_new(struct fts_err *err)
{
	struct jr *j = calloc(1, sizeof(*j));

	if (!j)
		fts_err_set(err, -ENOMEM, "out of memory");
	return j;
}

int fts_json_events(const char *path, fts_json_event_fn cb, void *ctx,
		    int (*progress)(void *ctx, uint64_t done, uint64_t total, uint64_t events),
		    struct fts_err *err)
{
	struct fts_err local_err;
	struct jr *j;
	int rc;

	if (!err)
		err = &local_err;
	if (!(j = jr_new(err)))
		return err->code;
	j->on_event = cb;
	j->on_ctx = ctx;
	j->progress = progress;
	j->progress_ctx = ctx;
	rc = scan(j, path, err);
	free(j);
	return rc;
}

int fts_json_readback(const char *path, const struct fts_rb_ops *ops, uint64_t *rows,
		      struct fts_err *err)
{
	struct fts_err local_err;
	struct jr *j;
	int rc;

	if (!err)
		err = &local_err;
	if (rows)
		*rows = 0;
	if (!(j = jr_new(err)))
		return err->code;
	j->ops = ops;
	j->on_event = one_event;
	j->on_ctx = j;
	j->progress = ops->progress;
	j->progress_ctx = ops->ctx;
	fts_strtab_init(&j->lanes);
	fts_rb_pairs_init(&j->links);
	rc = scan(j, path, err);
	if (!rc && j->lanes.n == 0)
		rc = fts_err_set(err, -ENODATA,
				 "%s: not an ftrace JSON (no \"CPU Scheduling\" or \"Process Scheduling\" events)",
				 path);
	if (!rc && ops->flow)
		rc = fts_rb_pairs_hand(&j->links, ops, lane_is, NULL, err);
	fts_rb_pairs_free(&j->links);
	if (rows)
		*rows = j->rows;
	fts_buf_free(&j->key);
	free(j->scratch);
	fts_strtab_free(&j->lanes);
	free(j);
	return rc;
}
