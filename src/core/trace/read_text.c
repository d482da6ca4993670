// SPDX-License-Identifier: MIT
/*
 * read_text.c - single-pass parser for ftrace text.
 *
 * Accepts what the kernel prints in tracefs `trace` / `trace_pipe` (with or
 * without the irq-flags column, with or without the tgid column, seconds
 * padded or not) and what `trace-cmd report` prints (with or without buffer
 * name prefixes, plugin-formatted sched_switch/sched_wakeup or raw fields).
 *
 * A line is anchored on its "[CPU]" column: everything before it is the task
 * (`comm-pid`, split at the last '-', since comms may hold '-', ':' and
 * spaces), then an optional flags token, the timestamp `sec.frac:`, the event
 * name and its fields. Field values that are comms may contain spaces and the
 * text of other keys, so the key that ends a comm is searched for within the
 * kernel's comm length first (see find_key()).
 *
 * Input is read in large blocks; lines are parsed in place, never copied.
 */
#include "ftscope/reader.h"
#include "core/internal.h"
#include "core/trace/timecheck.h"
#include "core/util/file_util.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLOCK_SIZE (1u << 20)
#define LINE_MAX_LEN (64u * 1024)
#define KERNEL_COMM_LEN 15   /* TASK_COMM_LEN - 1: longest comm the kernel prints */
#define PROGRESS_EVERY (1u << 18)

/* exec's comm is cut to the kernel's length; it must fit the event's */
static_assert(KERNEL_COMM_LEN < FTS_COMM_MAX, "a kernel comm fits FTS_COMM_MAX");
/* an over-long line is reported by its first 80 bytes, which the buffer holds */
static_assert(BLOCK_SIZE + LINE_MAX_LEN > 80, "the read buffer holds a line's head");

/* A view into the current line. */
struct span {
	const char *p;
	const char *end;
};

struct text_ctx {
	const struct fts_read_opts *opts;
	struct fts_read_stats *st;
	int report_mode;       /* the file began with trace-cmd report's "cpus=" */
	int pending_lost_cpu;  /* a LOST line without a CPU waits for the next event */
	uint64_t pending_lost;
	int has_pending_lost;
	uint64_t last_ts;
	struct fts_timecheck tc;   /* time per CPU: forward only, in range */
	const char *path;
	struct fts_err *err;
};

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Parse an unsigned decimal at *p (advancing it); -1 if there is none. */
static int parse_u64(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;

	if (p >= end || !is_digit(*p))
		return -1;
	while (p < end && is_digit(*p)) {
		/* a number that does not fit is not silently wrapped */
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
		p++;
	}
	*pp = p;
	*out = v;
	return 0;
}

static int parse_i64(const char **pp, const char *end, int64_t *out)
{
	const char *p = *pp;
	uint64_t v;
	int neg = 0;

	if (p < end && *p == '-') {
		neg = 1;
		p++;
	}
	if (parse_u64(&p, end, &v) || v > (uint64_t)INT64_MAX)
		return -1;
	*pp = p;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

static int parse_i32_at(const char *p, const char *end, int32_t *out)
{
	int64_t v;

	/* pids, cpus and prios are int32 in the kernel: a wider value is not one */
	if (parse_i64(&p, end, &v) || v < INT32_MIN || v > INT32_MAX)
		return -1;
	*out = (int32_t)v;
	return 0;
}

static inline uint64_t word8(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t word4(const char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * @a and @b agree on their first @n bytes. The keys are 4 to 16 bytes: two
 * overlapping word compares instead of a memcmp call, several per line.
 */
static inline int same_bytes(const char *a, const char *b, size_t n)
{
	if (n >= 8 && n <= 16)
		return word8(a) == word8(b) && word8(a + n - 8) == word8(b + n - 8);
	if (n >= 4 && n < 8)
		return word4(a) == word4(b) && word4(a + n - 4) == word4(b + n - 4);
	return !memcmp(a, b, n);
}

/* A field's key with its length, known at compile time (KEY("pid=")): no strlen per line. */
struct key {
	const char *s;
	size_t n;
};

#define KEY(lit) ((struct key){ (lit), sizeof(lit) - 1 })

/*
 * memmem() pays a setup cost per call that dominates on ~100-byte lines;
 * a first-byte scan is several times faster here.
 */
static const char *find_str(const char *p, const char *end, const char *needle, size_t n)
{
	const char *last = end - n;

	if (n == 0 || p > last)
		return NULL;
	while (p <= last) {
		p = memchr(p, needle[0], (size_t)(last - p) + 1);
		if (!p)
			return NULL;
		if (same_bytes(p, needle, n))
			return p;
		p++;
	}
	return NULL;
}

/*
 * Find key @k (e.g. " pid=") that ends a value starting at @from. The kernel
 * never prints a comm longer than 15 bytes, so a key starting within that
 * reach is the real one and the last such match wins (a crafted comm can only
 * hold fake keys before it). Otherwise fall back to the first match.
 */
static const char *find_key(const char *from, const char *end, struct key key)
{
	const char *k = key.s, *reach = from + KERNEL_COMM_LEN + 1, *best = NULL;
	size_t n = key.n;

	if (reach + n > end)
		reach = end - n + 1;
	for (const char *q = from; q < reach; q++) {
		if (*q == *k && same_bytes(q, k, n))
			best = q;
	}
	if (best)
		return best;
	return find_str(from, end, k, n);
}

/*
 * The value of "key=" as an int. Fields come in a fixed order, so the key is
 * first looked for right at @*pp (the fast path); otherwise anywhere after it.
 * On success *pp moves past the number.
 */
static int take_i64(const char **pp, const char *end, struct key key, int64_t *out)
{
	size_t n = key.n;
	const char *q = *pp;

	if ((size_t)(end - q) < n || !same_bytes(q, key.s, n)) {
		q = find_str(q, end, key.s, n);
		if (!q)
			return -1;
	}
	q += n;
	if (parse_i64(&q, end, out))
		return -1;
	*pp = q;
	return 0;
}

static int take_i32(const char **pp, const char *end, struct key key, int32_t *out)
{
	int64_t v;

	if (take_i64(pp, end, key, &v))
		return -1;
	*out = (int32_t)v;
	return 0;
}

/* Like take_i32, but @*pp does not move: for keys that may be absent. */
static int field_i32(const char *from, const char *end, struct key key, int32_t *out)
{
	return take_i32(&from, end, key, out);
}

static int field_u64(const char *from, const char *end, struct key key, uint64_t *out)
{
	int64_t v;

	if (take_i64(&from, end, key, &v) || v < 0)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

/* "comm=<comm> pid=<pid>" at the start of fields, as most sched events print. */
static int comm_pid(const char *p, const char *end, char *comm, int32_t *pid,
		    const char **after)
{
	const char *c, *k;

	if ((size_t)(end - p) >= 5 && !memcmp(p, "comm=", 5))
		c = p;
	else if ((c = find_str(p, end, "comm=", 5)) == NULL)
		return -1;
	c += 5;
	k = find_key(c, end, KEY(" pid="));
	if (!k)
		return -1;
	fts_copy_str(comm, FTS_COMM_MAX, c, (int)(k - c));
	if (take_i32(&k, end, KEY(" pid="), pid))
		return -1;
	*after = k;
	return 0;
}

/*
 * trace-cmd's plugin form "comm:pid [prio]": the token ends at a " [digits]"
 * within the comm's reach; split comm and pid at the last ':'.
 */
static int plugin_task(const char *p, const char *end, char *comm, int32_t *pid,
		       int32_t *prio, const char **after)
{
	const char *reach = p + KERNEL_COMM_LEN + 12, *best = NULL, *q = p, *colon;
	int32_t pr;

	if (reach > end)
		reach = end;
	while ((q = find_str(q, end, " [", 2)) != NULL && q < reach) {
		if (q + 2 < end && is_digit(q[2]))
			best = q;
		q++;
	}
	if (!best) {
		q = p;
		while ((q = find_str(q, end, " [", 2)) != NULL) {
			if (q + 2 < end && is_digit(q[2])) {
				best = q;
				break;
			}
			q++;
		}
	}
	if (!best)
		return -1;
	for (colon = best - 1; colon > p && *colon != ':'; colon--)
		;
	if (colon <= p || *colon != ':')
		return -1;
	fts_copy_str(comm, FTS_COMM_MAX, p, (int)(colon - p));
	if (parse_i32_at(colon + 1, best, pid))
		return -1;
	if (parse_i32_at(best + 2, end, &pr))
		return -1;
	if (prio)
		*prio = pr;
	q = memchr(best, ']', (size_t)(end - best));
	*after = q ? q + 1 : end;
	return 0;
}

static int parse_switch_kernel(const char *p, const char *end, struct fts_ev_switch *sw)
{
	const char *c, *k, *s, *n;

	if ((size_t)(end - p) < 10 || memcmp(p, "prev_comm=", 10) != 0)
		return -1;
	c = p + 10;
	k = find_key(c, end, KEY(" prev_pid="));
	if (!k)
		return -1;
	fts_copy_str(sw->prev_comm, FTS_COMM_MAX, c, (int)(k - c));
	if (take_i32(&k, end, KEY(" prev_pid="), &sw->prev_pid) ||
	    take_i32(&k, end, KEY(" prev_prio="), &sw->prev_prio))
		return -1;
	if ((size_t)(end - k) > 12 && !memcmp(k, " prev_state=", 12))
		s = k + 12;
	else if ((s = find_str(k, end, " prev_state=", 12)) != NULL)
		s += 12;
	else
		return -1;
	n = find_str(s, end, " ==> next_comm=", 15);
	if (!n)
		return -1;
	fts_copy_str(sw->prev_state, FTS_STATE_MAX, s, (int)(n - s));
	c = n + 15;
	k = find_key(c, end, KEY(" next_pid="));
	if (!k)
		return -1;
	fts_copy_str(sw->next_comm, FTS_COMM_MAX, c, (int)(k - c));
	if (take_i32(&k, end, KEY(" next_pid="), &sw->next_pid))
		return -1;
	return take_i32(&k, end, KEY(" next_prio="), &sw->next_prio);
}

/* trace-cmd plugin: "prev:pid [prio] S ==> next:pid [prio]" */
static int parse_switch_plugin(const char *p, const char *end, struct fts_ev_switch *sw)
{
	const char *after, *s, *arrow;

	if (plugin_task(p, end, sw->prev_comm, &sw->prev_pid, &sw->prev_prio, &after))
		return -1;
	s = after;
	while (s < end && *s == ' ')
		s++;
	arrow = find_str(s, end, " ==> ", 5);
	if (!arrow)
		return -1;
	fts_copy_str(sw->prev_state, FTS_STATE_MAX, s, (int)(arrow - s));
	return plugin_task(arrow + 5, end, sw->next_comm, &sw->next_pid, &sw->next_prio, &after);
}

static int parse_task_event(const char *p, const char *end, struct fts_ev_task *t, int report)
{
	const char *after;
	int32_t v;

	t->target_cpu = -1;
	t->prio = 0;
	if (comm_pid(p, end, t->comm, &t->pid, &after) == 0) {
		if (take_i32(&after, end, KEY(" prio="), &v) == 0)
			t->prio = v;
		if (take_i32(&after, end, KEY(" target_cpu="), &v) == 0)
			t->target_cpu = v;
		return 0;
	}
	if (!report)
		return -1;
	/* plugin: "comm:pid [prio] CPU:000" or "... success=1 CPU:000" */
	if (plugin_task(p, end, t->comm, &t->pid, &t->prio, &after))
		return -1;
	if (field_i32(after, end, KEY("CPU:"), &v) == 0)
		t->target_cpu = v;
	return 0;
}

/* Hex number ("0x" optional) at @p, bounded by @end (the line is not NUL-terminated). */
static uint64_t parse_hex(const char *p, const char *end)
{
	uint64_t v = 0;

	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; p < end; p++) {
		int d;

		if (is_digit(*p))
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		v = v << 4 | (uint64_t)d;
	}
	return v;
}

/* sched_migrate_task: "comm=... pid=... [prio=...] orig_cpu=... dest_cpu=..." */
static int parse_migrate(const char *p, const char *end, struct fts_ev_migrate *mg)
{
	const char *after;

	if (comm_pid(p, end, mg->comm, &mg->pid, &after))
		return -1;
	if (field_i32(after, end, KEY(" prio="), &mg->prio))
		mg->prio = 0;
	if (take_i32(&after, end, KEY(" orig_cpu="), &mg->orig_cpu))
		return -1;
	return take_i32(&after, end, KEY(" dest_cpu="), &mg->dest_cpu);
}

/* sched_stat_runtime: "comm=... pid=... runtime=... [ns] [vruntime=...]" */
static int parse_runtime(const char *p, const char *end, struct fts_ev_runtime *r)
{
	const char *after;
	int64_t rt;

	if (comm_pid(p, end, r->comm, &r->pid, &after))
		return -1;
	if (take_i64(&after, end, KEY(" runtime="), &rt) || rt < 0)
		return -1;
	r->runtime = (uint64_t)rt;
	r->has_vruntime = field_u64(after, end, KEY(" vruntime="), &r->vruntime) == 0;
	return 0;
}

/* sched_process_fork: "comm=... pid=... child_comm=... child_pid=..." */
static int parse_fork(const char *p, const char *end, struct fts_ev_fork *f)
{
	const char *after, *c, *k;

	if (comm_pid(p, end, f->parent_comm, &f->parent_pid, &after))
		return -1;
	c = find_str(after, end, " child_comm=", 12);
	if (!c)
		return -1;
	c += 12;
	k = find_key(c, end, KEY(" child_pid="));
	if (!k)
		return -1;
	fts_copy_str(f->child_comm, FTS_COMM_MAX, c, (int)(k - c));
	return parse_i32_at(k + 11, end, &f->child_pid);
}

/* sched_process_exec: "filename=... pid=... [old_pid=...]"; the comm is the file's base name. */
static int parse_exec(const char *p, const char *end, struct fts_ev_exec *x)
{
	const char *f = find_str(p, end, "filename=", 9), *base, *k;
	int len;

	if (!f)
		return -1;
	f += 9;
	k = find_str(f, end, " pid=", 5);
	if (!k)
		return -1;
	for (base = k; base > f && base[-1] != '/'; base--)
		;
	len = (int)(k - base);
	if (len > KERNEL_COMM_LEN)
		len = KERNEL_COMM_LEN;
	fts_copy_str(x->comm, FTS_COMM_MAX, base, len);
	if (parse_i32_at(k + 5, end, &x->pid))
		return -1;
	if (field_i32(k, end, KEY(" old_pid="), &x->old_pid))
		x->old_pid = x->pid;
	return 0;
}

/* irq_handler_entry "irq=N name=..." and irq_handler_exit "irq=N ret=handled|unhandled" */
static int parse_irq(enum fts_ev_type type, const char *p, const char *end, struct fts_ev_irq *q)
{
	const char *c;

	if (field_i32(p, end, KEY("irq="), &q->irq))
		return -1;
	if (type == FTS_EV_IRQ_ENTRY) {
		c = find_str(p, end, " name=", 6);
		if (c)
			fts_copy_str(q->name, FTS_NAME_MAX, c + 6, (int)(end - c - 6));
		else
			q->name[0] = '\0';
		return 0;
	}
	c = find_str(p, end, "ret=", 4);
	q->ret = 1;
	if (c && (size_t)(end - c) >= 13 && !strncmp(c + 4, "unhandled", 9))
		q->ret = 0;
	return 0;
}

/* sys_enter_futex "uaddr: 0x... op: 0x..." and sys_exit_futex "-> 0x..." */
static int parse_futex(enum fts_ev_type type, const char *p, const char *end,
		       struct fts_ev_futex *fx)
{
	const char *c;

	if (type == FTS_EV_FUTEX_EXIT) {
		/* the kernel prints the return as 0x%lx: negative values wrap */
		c = find_str(p, end, "-> ", 3);
		fx->ret = c ? (int64_t)parse_hex(c + 3, end) : 0;
		return 0;
	}
	fx->uaddr = 0;
	fx->op = 0;
	c = find_str(p, end, "uaddr: ", 7);
	if (c)
		fx->uaddr = parse_hex(c + 7, end);
	c = find_str(p, end, "op: ", 4);
	if (c)
		fx->op = (int32_t)parse_hex(c + 4, end);
	return 0;
}

static int parse_fields(struct text_ctx *x, struct fts_event *ev, const char *p, const char *end)
{
	switch (ev->type) {
	case FTS_EV_SWITCH:
		if (parse_switch_kernel(p, end, &ev->u.sw) == 0)
			return 0;
		return parse_switch_plugin(p, end, &ev->u.sw);
	case FTS_EV_WAKING:
	case FTS_EV_WAKEUP:
	case FTS_EV_WAKEUP_NEW:
	case FTS_EV_EXIT:
		return parse_task_event(p, end, &ev->u.task, x->report_mode);
	case FTS_EV_MIGRATE:
		return parse_migrate(p, end, &ev->u.migrate);
	case FTS_EV_STAT_RUNTIME:
		return parse_runtime(p, end, &ev->u.runtime);
	case FTS_EV_FORK:
		return parse_fork(p, end, &ev->u.fork);
	case FTS_EV_EXEC:
		return parse_exec(p, end, &ev->u.exec);
	case FTS_EV_IRQ_ENTRY:
	case FTS_EV_IRQ_EXIT:
		return parse_irq(ev->type, p, end, &ev->u.irq);
	case FTS_EV_SOFTIRQ_RAISE:
	case FTS_EV_SOFTIRQ_ENTRY:
	case FTS_EV_SOFTIRQ_EXIT:
		return field_i32(p, end, KEY("vec="), &ev->u.softirq.vec);
	case FTS_EV_FUTEX_ENTER:
	case FTS_EV_FUTEX_EXIT:
		return parse_futex(ev->type, p, end, &ev->u.futex);
	default:
		return -1;
	}
}

/* Timestamp "sec.frac" (any number of fraction digits) to ns. */
static int parse_ts(const char **pp, const char *end, uint64_t *ns)
{
	const char *p = *pp;
	uint64_t sec, frac = 0;
	int digits = 0;

	if (parse_u64(&p, end, &sec) || p >= end || *p != '.')
		return -1;
	p++;
	while (p < end && is_digit(*p)) {
		if (digits < 9) {
			frac = frac * 10 + (uint64_t)(*p - '0');
			digits++;
		}
		p++;
	}
	if (digits == 0 || p >= end || *p != ':')
		return -1;
	while (digits < 9) {
		frac *= 10;
		digits++;
	}
	if (sec > FTS_TS_MAX / 1000000000u)
		return -1;   /* see timecheck.h */
	*pp = p + 1;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

/* Record a line we could not parse. */
static void skip_line(struct text_ctx *x, const char *line, const char *end)
{
	struct fts_read_stats *st = x->st;
	size_t i, o = 0, n = (size_t)(end - line);

	st->skipped++;
	if (st->first_bad[0])
		return;
	st->first_bad_line = st->lines;
	/* keep printable ASCII only: this text may reach a terminal */
	for (i = 0; i < n && o + 5 < sizeof(st->first_bad); i++) {
		unsigned char c = (unsigned char)line[i];
		if (c >= 0x20 && c < 0x7f)
			st->first_bad[o++] = (char)c;
		else
			o += (size_t)snprintf(st->first_bad + o, sizeof(st->first_bad) - o, "\\x%02x", c);
	}
	st->first_bad[o] = '\0';
}

static int emit(struct text_ctx *x, const struct fts_event *ev)
{
	int rc = fts_timecheck_event(&x->tc, x->path, ev->cpu, ev->ts, x->err);

	if (rc)
		return rc;
	x->st->events++;
	x->st->by_type[ev->type]++;
	if (ev->cpu + 1 > x->st->cpus)
		x->st->cpus = ev->cpu + 1;
	return x->opts->emit(x->opts->emit_ctx, ev);
}

static int emit_lost(struct text_ctx *x, int cpu, uint64_t count, uint64_t ts)
{
	struct fts_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = FTS_EV_LOST;
	ev.cpu = cpu;
	ev.ts = ts;
	ev.u.lost.count = count;
	x->st->lost_events = fts__sat_add(x->st->lost_events, count);
	return emit(x, &ev);
}

/*
 * "ftscope_clock realtime_ns=R mono_raw_ns=M [mono_ns=N window_ns=W]" or
 * "ftscope_clock_stop ..." anywhere in [p, end): the start and stop samples.
 */
static int parse_clock(const char *p, const char *end, struct fts_clock_pair *cp)
{
	uint64_t r, m, mono = 0, win = 0;
	const char *c = find_str(p, end, "ftscope_clock", 13);
	int stop, has_mono;

	if (!c)
		return 0;
	c += 13;
	stop = (size_t)(end - c) >= 5 && !memcmp(c, "_stop", 5);
	c += stop ? 5 : 0;
	if ((size_t)(end - c) < 13 || memcmp(c, " realtime_ns=", 13))
		return 0;
	c += 13;
	if (parse_u64(&c, end, &r))
		return 0;
	if (field_u64(c, end, KEY(" mono_raw_ns="), &m))
		return 0;
	has_mono = !field_u64(c, end, KEY(" mono_ns="), &mono) && !field_u64(c, end, KEY(" window_ns="), &win);
	return fts_clock_take(cp, stop, r, m, has_mono, mono, win);
}

static int kernel_lost_line(const char *p, const char *end)
{
	size_t n = sizeof(FTS_TEXT_KERNEL_LOST) - 1;

	return (size_t)(end - p) > n && !memcmp(p, FTS_TEXT_KERNEL_LOST, n);
}

/*
 * "# ftscope kernel_lost cpu=0 events=1719": the kernel's total for a CPU,
 * handed on before the events as the trace.dat reader does (loss.h).
 */
static int emit_kernel_lost(struct text_ctx *x, const char *p, const char *end)
{
	struct fts_event ev;
	uint64_t cpu, n;

	if (field_u64(p, end, KEY(" cpu="), &cpu) || field_u64(p, end, KEY(" events="), &n) ||
	    cpu >= 65536)
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.type = FTS_EV_LOST;
	ev.cpu = (int32_t)cpu;
	ev.pid = -1;
	ev.u.lost.count = n;
	ev.u.lost.kernel = 1;
	return x->opts->emit ? x->opts->emit(x->opts->emit_ctx, &ev) : 0;
}

/*
 * Comment lines: ftscope's kernel loss counts, the recorder's clock pair, and tracefs' header
 * "# entries-in-buffer/entries-written: 423/1355   #P:2", whose difference is
 * what the ring buffer overwrote before `trace` was copied.
 */
static int parse_header(struct text_ctx *x, const char *p, const char *end)
{
	const char *c = find_str(p, end, "entries-in-buffer/entries-written: ", 35);
	uint64_t in, written;

	if (kernel_lost_line(p, end))
		return emit_kernel_lost(x, p, end);
	if (parse_clock(p, end, &x->st->clock) || !c)
		return 0;
	c += 35;
	if (parse_u64(&c, end, &in) || c >= end || *c != '/')
		return 0;
	c++;
	if (parse_u64(&c, end, &written) == 0 && written > in)
		x->st->overwritten += written - in;
	return 0;
}

/*
 * "CPU:3 [LOST 120 EVENTS]", "[LOST 5 EVENTS]", trace-cmd's
 * "CPU:3 [120 EVENTS DROPPED]" / "[EVENTS DROPPED]". 1 if it was one.
 */
static int parse_lost(struct text_ctx *x, const char *p, const char *end)
{
	const char *b = find_str(p, end, "[LOST ", 6), *c;
	uint64_t count = 0;
	int64_t cpu = -1;

	if (b) {
		c = b + 6;
		/* "[LOST EVENTS]": a drop whose size the kernel did not give */
		if (end - c >= 7 && !memcmp(c, "EVENTS]", 7))
			count = 0;
		else if (parse_u64(&c, end, &count) || !find_str(c, end, " EVENTS]", 8))
			return 0;
	} else {
		b = find_str(p, end, "EVENTS DROPPED]", 15);
		if (!b)
			return 0;
		c = memchr(p, '[', (size_t)(b - p));
		if (!c)
			return 0;
		c++;
		if (c < b && parse_u64(&c, b, &count))
			count = 0;
	}
	c = find_str(p, b, "CPU", 3);
	if (c) {
		c += 3;
		if (c < b && (*c == ':' || *c == ' '))
			c++;
		if (parse_i64(&c, b, &cpu))
			cpu = -1;
	}
	/*
	 * The loss happened before the next event we see: give the marker that
	 * event's time (and its CPU when the line names none).
	 */
	if (x->has_pending_lost && x->pending_lost_cpu != (int)cpu) {
		/* a second CPU's loss before any event: settle the first one now */
		emit_lost(x, x->pending_lost_cpu >= 0 ? x->pending_lost_cpu : 0, x->pending_lost,
			  x->last_ts);
		x->pending_lost = 0;
	}
	x->has_pending_lost = 1;
	x->pending_lost = fts__sat_add(x->pending_lost, count);
	x->pending_lost_cpu = (int)cpu;
	return 1;
}

/*
 * After "]": optional flags token(s), then "sec.frac:". Returns the position
 * after the timestamp's ':', or NULL.
 */
static const char *after_cpu_col(const char *q, const char *end, uint64_t *ts)
{
	for (int tok = 0; tok < 3; tok++) {
		while (q < end && *q == ' ')
			q++;
		if (parse_ts(&q, end, ts) == 0)
			return q;
		while (q < end && *q != ' ')
			q++;
		if (q >= end)
			return NULL;
	}
	return NULL;
}

/*
 * Locate the "[NNN]" CPU column and the timestamp after it. A comm may hold
 * "[7] " itself, so each "[digits] " candidate is tried until the rest of the
 * line has the shape of an event. Returns the '[' (and @rest, @ts), or NULL.
 */
static const char *find_cpu_col(const char *p, const char *end, int32_t *cpu,
				const char **rest, uint64_t *ts)
{
	const char *q = p;

	while ((q = memchr(q, '[', (size_t)(end - q))) != NULL) {
		const char *d = q + 1;
		uint64_t v;

		if (q > p && parse_u64(&d, end, &v) == 0 && d + 1 < end && *d == ']' &&
		    d[1] == ' ' && v < (1u << 20) && (*rest = after_cpu_col(d + 1, end, ts))) {
			*cpu = (int32_t)v;
			return q;
		}
		q++;
	}
	return NULL;
}

/* Split "comm-pid" (maybe "comm-pid (tgid)") in [p, e) into the event. */
static int parse_task_col(struct text_ctx *x, struct fts_event *ev, const char *p, const char *e)
{
	const char *dash;

	while (p < e && *p == ' ')
		p++;
	while (e > p && e[-1] == ' ')
		e--;
	if (e > p && e[-1] == ')') {
		const char *open = e - 1;

		while (open > p && *open != '(')
			open--;
		if (*open == '(') {
			e = open;
			while (e > p && e[-1] == ' ')
				e--;
		}
	}
	if (x->report_mode) {
		/* trace-cmd report prefixes events of named buffers with "name:" */
		const char *c = memchr(p, ':', (size_t)(e - p));

		if (c && c + 1 < e && c[1] == ' ') {
			const char *q = c + 1;

			while (q < e && *q == ' ')
				q++;
			if (memchr(q, '-', (size_t)(e - q)))
				p = q;
		}
	}
	for (dash = e - 1; dash > p && *dash != '-'; dash--)
		;
	if (dash <= p || *dash != '-')
		return -1;
	if (parse_i32_at(dash + 1, e, &ev->pid))
		return -1;
	fts_copy_str(ev->comm, FTS_COMM_MAX, p, (int)(dash - p));
	return 0;
}

static int parse_line(struct text_ctx *x, const char *line, const char *end)
{
	struct fts_event ev;
	const char *p = line, *col, *name, *q;
	int rc, type;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end)
		return 0;
	if (*p == '#')
		return parse_header(x, p, end);
	if (x->st->lines == 1 && !strncmp(p, "cpus=", 5)) {
		x->report_mode = 1;
		return 0;
	}
	/* report's banner lines; an event line rarely starts with 'v' or 'C' (4 strncmp a line were 2% of a parse) */
	if (*p == 'v' && !strncmp(p, "version = ", 10))
		return 0;
	if (*p == 'C' && !strncmp(p, "CPU ", 4) &&
	    (!strncmp(p, "CPU 0 is empty", 14) || find_str(p, end, " is empty", 9)))
		return 0;

	col = find_cpu_col(p, end, &ev.cpu, &q, &ev.ts);
	if (!col) {
		if (parse_lost(x, p, end))
			return 0;
		skip_line(x, line, end);
		return 0;
	}
	if (parse_task_col(x, &ev, p, col)) {
		skip_line(x, line, end);
		return 0;
	}
	while (q < end && *q == ' ')
		q++;
	name = q;
	while (q < end && *q != ':' && *q != ' ' && *q != '(')
		q++;
	type = fts_ev_type_from_name(name, (int)(q - name));
	if (type < 0) {
		/* syscall events print as "sys_futex(...)" and "sys_futex -> 0x0" */
		if (q - name == 9 && !memcmp(name, "sys_futex", 9))
			type = (q < end && *q == '(') ? FTS_EV_FUTEX_ENTER : FTS_EV_FUTEX_EXIT;
	}
	if (q >= end || (*q != ':' && type < 0)) {
		skip_line(x, line, end);
		return 0;
	}
	if (x->has_pending_lost) {
		x->has_pending_lost = 0;
		rc = emit_lost(x, x->pending_lost_cpu >= 0 ? x->pending_lost_cpu : ev.cpu,
			       x->pending_lost, ev.ts);
		x->pending_lost = 0;
		if (rc)
			return rc;
	}
	x->last_ts = ev.ts;
	if (type < 0) {
		if (!parse_clock(q, end, &x->st->clock))
			x->st->other_events++;
		return 0;
	}
	ev.type = (enum fts_ev_type)type;
	if (*q == ':')
		q++;
	while (q < end && *q == ' ')
		q++;
	memset(&ev.u, 0, sizeof(ev.u));
	if (x->opts->headers_only)
		return emit(x, &ev);
	if (parse_fields(x, &ev, q, end)) {
		skip_line(x, line, end);
		return 0;
	}
	return emit(x, &ev);
}

static int read_fd(struct text_ctx *x, int fd, const char *path, struct fts_err *err)
{
	size_t cap = BLOCK_SIZE + LINE_MAX_LEN, have = 0;
	char *buf = malloc(cap);
	uint64_t next_progress = PROGRESS_EVERY;
	int rc = 0;

	if (!buf)
		return fts_err_set(err, -ENOMEM, "%s: out of memory", path);
	for (;;) {
		ssize_t n = read(fd, buf + have, cap - have);
		char *p, *nl, *end;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = fts_err_set(err, -errno, "%s: read failed: %s", path, strerror(errno));
			break;
		}
		x->st->bytes_done += (uint64_t)n;
		have += (size_t)n;
		end = buf + have;
		p = buf;
		while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
			const char *le = nl;

			if (le > p && le[-1] == '\r')
				le--;
			x->st->lines++;
			rc = parse_line(x, p, le);
			if (rc)
				goto out;
			p = nl + 1;
		}
		if (n == 0) {
			if (p < end) {  /* last line without a newline */
				x->st->lines++;
				rc = parse_line(x, p, end);
			}
			break;
		}
		have = (size_t)(end - p);
		if (have >= cap - 1) {
			/* a line longer than the buffer: drop it whole */
			x->st->lines++;
			skip_line(x, p, p + 80);
			have = 0;
			p = end;
			/* skip to the next newline */
			for (;;) {
				n = read(fd, buf, cap);
				if (n <= 0)
					goto out;
				x->st->bytes_done += (uint64_t)n;
				nl = memchr(buf, '\n', (size_t)n);
				if (nl) {
					have = (size_t)(buf + n - (nl + 1));
					memmove(buf, nl + 1, have);
					break;
				}
			}
			continue;
		}
		memmove(buf, p, have);
		if (x->opts->progress && x->st->lines >= next_progress) {
			x->opts->progress(x->opts->progress_ctx, x->st);
			next_progress = x->st->lines + PROGRESS_EVERY;
		}
	}
out:
	free(buf);
	return rc;
}

int fts_read_text(const char *path, const struct fts_read_opts *opts,
		  struct fts_read_stats *st, struct fts_err *err)
{
	struct text_ctx x;
	struct stat sb;
	int fd, rc;

	memset(&x, 0, sizeof(x));
	x.opts = opts;
	x.st = st;
	x.path = path;
	x.err = err;
	fd = fts_open_regular(path, 0, &sb, err);   /* a FIFO would hang a plain open */
	if (fd < 0)
		return fd;
	st->bytes_total = (uint64_t)sb.st_size;
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	rc = read_fd(&x, fd, path, err);
	close(fd);
	if (rc == 0 && x.has_pending_lost)
		rc = emit_lost(&x, x.pending_lost_cpu >= 0 ? x.pending_lost_cpu : 0,
			       x.pending_lost, x.last_ts);
	fts_timecheck_free(&x.tc);
	return rc;
}
