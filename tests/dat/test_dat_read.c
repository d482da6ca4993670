// SPDX-License-Identifier: MIT
/*
 * test_dat_read.c - fts_read_dat against real trace.dat files recorded on
 * this project's test kernel, checked against trace-cmd report and the
 * kernel's own text output of the same buffer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftscope/reader.h"

#define DAT_DIR FTS_TEST_DATA "/dat/"
#define SMALL_V7 DAT_DIR "small.dat"
#define SMALL_V6 FTS_DAT_WORK "/small-v6.dat"
#define LOST_V7 DAT_DIR "lost.dat"

struct collect {
	struct fts_event *ev;
	size_t n, cap;
	int stop_after; /* 0 = never */
	uint64_t kernel_lost[2];  /* the file's per-CPU totals, sent before the events */
	int kernel_seen, kernel_after_event;
};

static int collect_ev(void *ctx, const struct fts_event *ev)
{
	struct collect *c = ctx;

	if (ev->type == FTS_EV_LOST && ev->u.lost.kernel) {
		if (ev->cpu >= 0 && ev->cpu < 2)
			c->kernel_lost[ev->cpu] = ev->u.lost.count;
		c->kernel_seen++;
		c->kernel_after_event |= c->n > 0;
		return 0;
	}

	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 1024;
		c->ev = realloc(c->ev, c->cap * sizeof(*c->ev));
		assert_non_null(c->ev);
	}
	c->ev[c->n++] = *ev;
	if (c->stop_after && (int)c->n >= c->stop_after)
		return 42;
	return 0;
}

static int read_all(const char *path, struct collect *c, struct fts_read_stats *st)
{
	struct fts_read_opts o = { .emit = collect_ev, .emit_ctx = c };
	struct fts_err err = { 0 };
	int ret;

	memset(c, 0, sizeof(*c));
	ret = fts_read_dat(path, &o, st, &err);
	if (ret)
		print_message("%s: %d %s\n", path, ret, err.msg);
	return ret;
}

/*
 * Splits an ftrace/trace-cmd text event line. Returns 1 and fills @cpu, @ts_us
 * (microseconds), @name and @rest when the line is an event line.
 */
static int split_line(const char *line, int *cpu, unsigned long long *ts_us,
		      char *name, size_t nsz, const char **rest)
{
	const char *p = line, *q;
	unsigned long sec, usec;

	for (;;) {
		p = strchr(p, '[');
		if (!p)
			return 0;
		if (sscanf(p, "[%d]", cpu) == 1 && (q = strchr(p, ']')) != NULL &&
		    q == p + strspn(p + 1, "0123456789") + 1)
			break;
		p++;
	}
	p = q + 1;
	for (;;) {   /* skip to the "sec.usec:" token (the irq-flags column may come first) */
		int n = 0;

		p += strspn(p, " ");
		if (!*p)
			return 0;
		if (sscanf(p, "%lu.%lu:%n", &sec, &usec, &n) == 2 && n > 0) {
			p += n;
			break;
		}
		p += strcspn(p, " ");
	}
	*ts_us = (unsigned long long)sec * 1000000ull + usec;
	p += strspn(p, " ");
	q = strchr(p, ':');
	if (!q || (size_t)(q - p) >= nsz)
		return 0;
	memcpy(name, p, (size_t)(q - p));
	name[q - p] = '\0';
	*rest = q + 1 + strspn(q + 1, " ");
	return 1;
}

typedef void (*line_fn)(void *ctx, int cpu, unsigned long long ts_us, const char *name,
			const char *rest, const char *line);

static void each_line(const char *path, line_fn fn, void *ctx)
{
	FILE *f = fopen(path, "r");
	char line[4096], name[64];

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long ts;
		const char *rest;
		int cpu;

		line[strcspn(line, "\n")] = '\0';
		if (split_line(line, &cpu, &ts, name, sizeof(name), &rest))
			fn(ctx, cpu, ts, name, rest, line);
		else
			fn(ctx, -1, 0, "", line, line);
	}
	fclose(f);
}

struct report_counts {
	uint64_t by_type[FTS_EV__COUNT];
	uint64_t print;
	uint64_t dropped_lines;
	uint64_t dropped;
};

static void count_line(void *ctx, int cpu, unsigned long long ts, const char *name,
		       const char *rest, const char *line)
{
	struct report_counts *rc = ctx;
	const char *d = strstr(line, " EVENTS DROPPED]");
	int t;

	(void)cpu; (void)ts; (void)rest;
	if (d) {
		while (d > line && d[-1] != '[')
			d--;
		rc->dropped_lines++;
		rc->dropped += strtoull(d, NULL, 10);
		return;
	}
	t = fts_ev_type_from_name(name, (int)strlen(name));
	if (t >= 0)
		rc->by_type[t]++;
	else if (strcmp(name, "print") == 0)
		rc->print++;
}

static void check_counts(const char *dat, const char *report)
{
	struct report_counts rc;
	struct fts_read_stats st;
	struct collect c;
	uint64_t sum = 0;

	memset(&rc, 0, sizeof(rc));
	assert_int_equal(read_all(dat, &c, &st), 0);
	each_line(report, count_line, &rc);
	for (int t = 0; t < FTS_EV_LOST; t++) {
		if (rc.by_type[t] != st.by_type[t])
			print_message("%s: %s report %llu reader %llu\n", dat, fts_ev_type_name(t),
				      (unsigned long long)rc.by_type[t],
				      (unsigned long long)st.by_type[t]);
		assert_int_equal(rc.by_type[t], st.by_type[t]);
		sum += st.by_type[t];
	}
	assert_int_equal(st.by_type[FTS_EV_LOST], rc.dropped_lines);
	assert_int_equal(st.lost_events, rc.dropped);
	sum += st.by_type[FTS_EV_LOST];
	assert_int_equal(st.events, sum);
	assert_int_equal(st.events, c.n);
	assert_int_equal(st.cpus, 2);
	assert_int_equal(st.bytes_done, st.bytes_total);
	free(c.ev);
}

static void test_counts_match_report(void **state)
{
	(void)state;
	check_counts(SMALL_V7, DAT_DIR "small.report");
	check_counts(LOST_V7, DAT_DIR "lost.report");
}

static void test_timestamps_ordered(void **state)
{
	const char *files[] = { SMALL_V7, SMALL_V6, LOST_V7 };

	(void)state;
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct fts_read_stats st;
		struct collect c;

		assert_int_equal(read_all(files[f], &c, &st), 0);
		assert_true(c.n > 400);
		for (size_t i = 1; i < c.n; i++)
			assert_true(c.ev[i - 1].ts <= c.ev[i].ts);
		free(c.ev);
	}
}

static void test_v6_equals_v7(void **state)
{
	struct fts_read_stats s6, s7;
	struct collect c6, c7;

	(void)state;
	assert_int_equal(read_all(SMALL_V6, &c6, &s6), 0);
	assert_int_equal(read_all(SMALL_V7, &c7, &s7), 0);
	assert_int_equal(c6.n, c7.n);
	assert_memory_equal(c6.ev, c7.ev, c6.n * sizeof(*c6.ev));
	assert_memory_equal(&s6.by_type, &s7.by_type, sizeof(s6.by_type));
	assert_int_equal(s6.other_events, s7.other_events);
	free(c6.ev);
	free(c7.ev);
}

/* Switch lines of one CPU, in file order, as the text gave them. */
struct sw_line {
	unsigned long long ts_us;
	int pid;
	char rest[512];
};

struct sw_lines {
	struct sw_line *v[2];
	size_t n[2];
};

static void take_switch(void *ctx, int cpu, unsigned long long ts, const char *name,
			const char *rest, const char *line)
{
	struct sw_lines *s = ctx;
	const char *dash;
	struct sw_line *l;

	if (cpu < 0 || cpu > 1 || strcmp(name, "sched_switch") != 0)
		return;
	s->v[cpu] = realloc(s->v[cpu], (s->n[cpu] + 1) * sizeof(*s->v[cpu]));
	assert_non_null(s->v[cpu]);
	l = &s->v[cpu][s->n[cpu]++];
	l->ts_us = ts;
	snprintf(l->rest, sizeof(l->rest), "%s", rest);
	/* the task column is comm-pid; the pid follows the last '-' before '[' */
	dash = strchr(line, '[');
	while (dash > line && dash[-1] == ' ')
		dash--;
	while (dash > line && dash[-1] != '-')
		dash--;
	l->pid = atoi(dash);
}

static void test_switch_fields_match_report(void **state)
{
	struct sw_lines s;
	struct fts_read_stats st;
	struct collect c;
	size_t at[2] = { 0, 0 };

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(read_all(SMALL_V7, &c, &st), 0);
	each_line(DAT_DIR "small.report", take_switch, &s);
	assert_true(s.n[0] + s.n[1] == st.by_type[FTS_EV_SWITCH]);
	for (size_t i = 0; i < c.n; i++) {
		const struct fts_event *e = &c.ev[i];
		const struct fts_ev_switch *sw = &e->u.sw;
		struct sw_line *l;
		char want[512];

		if (e->type != FTS_EV_SWITCH)
			continue;
		assert_in_range(e->cpu, 0, 1);
		l = &s.v[e->cpu][at[e->cpu]++];
		/* report prints microseconds, rounded */
		assert_int_equal((e->ts + 500) / 1000, l->ts_us);
		assert_int_equal(e->pid, l->pid);
		assert_int_equal(e->pid, sw->prev_pid);
		/* trace-cmd's sched_switch plugin: prev:pid [prio] STATE ==> next:pid [prio] */
		snprintf(want, sizeof(want), "%s:%d [%d] ", sw->prev_comm, sw->prev_pid,
			 sw->prev_prio);
		assert_memory_equal(l->rest, want, strlen(want));
		snprintf(want, sizeof(want), " ==> %s:%d [%d]", sw->next_comm, sw->next_pid,
			 sw->next_prio);
		assert_non_null(strstr(l->rest, want));
	}
	free(s.v[0]);
	free(s.v[1]);
	free(c.ev);
}

static void test_prev_state_matches_kernel_text(void **state)
{
	struct sw_lines s;
	struct fts_read_stats st;
	struct collect c;
	size_t at[2] = { 0, 0 };
	int seen_plus = 0, seen_other = 0;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(read_all(SMALL_V7, &c, &st), 0);
	each_line(DAT_DIR "small.txt", take_switch, &s);
	assert_int_equal(s.n[0] + s.n[1], st.by_type[FTS_EV_SWITCH]);
	for (size_t i = 0; i < c.n; i++) {
		const struct fts_event *e = &c.ev[i];
		const char *p;
		char want[32];

		if (e->type != FTS_EV_SWITCH)
			continue;
		p = strstr(s.v[e->cpu][at[e->cpu]++].rest, " prev_state=");
		assert_non_null(p);
		sscanf(p + strlen(" prev_state="), "%31s", want);
		assert_string_equal(e->u.sw.prev_state, want);
		seen_plus |= strchr(want, '+') != NULL;
		seen_other |= strcmp(want, "S") != 0 && strcmp(want, "R+") != 0;
	}
	assert_true(seen_plus);   /* the fixture exercises more than one letter */
	assert_true(seen_other);
	free(s.v[0]);
	free(s.v[1]);
	free(c.ev);
}

struct marker {
	long long realtime, mono_raw;
};

static void take_marker(void *ctx, int cpu, unsigned long long ts, const char *name,
			const char *rest, const char *line)
{
	struct marker *m = ctx;
	const char *p = strstr(line, "ftscope_clock ");

	(void)cpu; (void)ts; (void)name; (void)rest;
	if (p && !m->realtime)
		sscanf(p, "ftscope_clock realtime_ns=%lld mono_raw_ns=%lld", &m->realtime,
		       &m->mono_raw);
}

static void test_clock_anchor_and_other(void **state)
{
	struct marker m = { 0, 0 };
	struct fts_read_stats st;
	struct collect c;

	(void)state;
	each_line(DAT_DIR "small.txt", take_marker, &m);
	assert_true(m.realtime > 0);
	assert_int_equal(read_all(SMALL_V7, &c, &st), 0);
	assert_true(st.clock.valid);
	assert_int_equal(st.clock.realtime_ns, m.realtime);
	assert_int_equal(st.clock.mono_raw_ns, m.mono_raw);
	assert_int_equal(st.other_events, 1);  /* the second, non-clock marker */
	free(c.ev);
}

static void test_exec_and_fields(void **state)
{
	struct fts_read_stats st;
	struct collect c;
	int execs = 0, runtimes = 0, futex = 0;

	(void)state;
	assert_int_equal(read_all(SMALL_V7, &c, &st), 0);
	for (size_t i = 0; i < c.n; i++) {
		const struct fts_event *e = &c.ev[i];

		assert_true(e->comm[0] != '\0');
		if (e->type == FTS_EV_EXEC) {
			/* basename of the filename, 15 bytes at most */
			assert_null(strchr(e->u.exec.comm, '/'));
			assert_true(strlen(e->u.exec.comm) > 0 && strlen(e->u.exec.comm) <= 15);
			assert_int_equal(e->u.exec.pid, e->pid);
			execs++;
		} else if (e->type == FTS_EV_STAT_RUNTIME) {
			assert_false(e->u.runtime.has_vruntime);  /* 6.x kernel */
			assert_true(e->u.runtime.runtime > 0);
			runtimes++;
		} else if (e->type == FTS_EV_FUTEX_ENTER) {
			assert_true(e->u.futex.uaddr != 0);
			futex++;
		}
	}
	assert_true(execs > 0 && runtimes > 0 && futex > 0);
	free(c.ev);
}

static void test_emitter_stop(void **state)
{
	struct fts_read_opts o = { .emit = collect_ev };
	struct fts_read_stats st;
	struct fts_err err = { 0 };
	struct collect c;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.stop_after = 10;
	o.emit_ctx = &c;
	assert_int_equal(fts_read_dat(SMALL_V7, &o, &st, &err), 42);
	assert_int_equal(c.n, 10);
	assert_int_equal(st.events, 10);
	free(c.ev);
}

static void test_lost_before_record(void **state)
{
	struct fts_read_stats st;
	struct collect c;
	int seen[2] = { 0, 0 };

	(void)state;
	assert_int_equal(read_all(LOST_V7, &c, &st), 0);
	for (size_t i = 0; i < c.n; i++) {
		const struct fts_event *e = &c.ev[i];

		if (e->type == FTS_EV_LOST) {
			assert_in_range(e->cpu, 0, 1);
			assert_true(e->u.lost.count > 0);
			/* the next event on that CPU carries the same timestamp */
			for (size_t j = i + 1; j < c.n; j++) {
				if (c.ev[j].cpu == e->cpu) {
					assert_int_equal(c.ev[j].ts, e->ts);
					assert_int_not_equal(c.ev[j].type, FTS_EV_LOST);
					break;
				}
			}
			seen[e->cpu]++;
		}
	}
	assert_true(seen[0] >= 1 && seen[1] >= 1);
	/* the file's CPUSTAT totals come first, one per CPU, and cover the drops */
	assert_int_equal(c.kernel_seen, 2);
	assert_false(c.kernel_after_event);
	for (int cpu = 0; cpu < 2; cpu++) {
		uint64_t marked = 0;

		for (size_t i = 0; i < c.n; i++)
			if (c.ev[i].type == FTS_EV_LOST && c.ev[i].cpu == cpu)
				marked += c.ev[i].u.lost.count;
		assert_true(c.kernel_lost[cpu] >= marked && c.kernel_lost[cpu] > 0);
	}
	free(c.ev);
}

/* Writes the first @len bytes of @src (or @len random bytes when @src is NULL). */
static void write_head(const char *src, const char *dst, long len, int keep_magic)
{
	FILE *in = src ? fopen(src, "rb") : NULL, *out = fopen(dst, "wb");

	assert_non_null(out);
	for (long i = 0; i < len; i++) {
		int ch = in ? fgetc(in) : rand() & 0xff;

		if (ch == EOF)
			break;
		fputc(ch, out);
	}
	if (keep_magic) {   /* the magic, then garbage: gets past the first check */
		rewind(out);
		fwrite("\x17\x08\x44tracing6\0", 1, 12, out);
	}
	if (in)
		fclose(in);
	fclose(out);
}

static long file_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fclose(f);
	return n;
}

static void expect_error(const char *path, int want_code)
{
	struct fts_read_opts o = { .emit = collect_ev };
	struct fts_read_stats st;
	struct fts_err err = { 0 };
	struct collect c;
	int ret;

	memset(&c, 0, sizeof(c));
	o.emit_ctx = &c;
	ret = fts_read_dat(path, &o, &st, &err);
	if (ret >= 0)
		print_message("%s: expected an error, got %d with %zu events\n", path, ret, c.n);
	assert_true(ret < 0);
	if (want_code)
		assert_int_equal(ret, want_code);
	assert_int_equal(err.code, ret);
	assert_non_null(strstr(err.msg, path));
	assert_null(strchr(err.msg, '\n'));
	free(c.ev);
}

static void test_bad_files(void **state)
{
	char dir[] = "/tmp/fts-dat-XXXXXX", p[256];
	const char *srcs[] = { SMALL_V7, SMALL_V6, LOST_V7 };
	const int cuts[] = { 1, 10, 50, 90, 99 };

	(void)state;
	assert_non_null(mkdtemp(dir));
	expect_error(FTS_TEST_DATA "/dat/no-such-file.dat", -ENOENT);
	snprintf(p, sizeof(p), "%s/empty.dat", dir);
	write_head(NULL, p, 0, 0);
	expect_error(p, -EINVAL);
	snprintf(p, sizeof(p), "%s/garbage.dat", dir);
	write_head(NULL, p, 100000, 0);
	expect_error(p, -EINVAL);
	snprintf(p, sizeof(p), "%s/magic-garbage.dat", dir);
	write_head(NULL, p, 100000, 1);
	expect_error(p, 0);
	unlink(p);
	for (size_t s = 0; s < sizeof(srcs) / sizeof(srcs[0]); s++) {
		long size = file_size(srcs[s]);

		for (size_t k = 0; k < sizeof(cuts) / sizeof(cuts[0]); k++) {
			snprintf(p, sizeof(p), "%s/cut-%zu-%d.dat", dir, s, cuts[k]);
			write_head(srcs[s], p, size * cuts[k] / 100, 0);
			expect_error(p, 0);
			unlink(p);
		}
	}
	snprintf(p, sizeof(p), "%s/empty.dat", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/garbage.dat", dir);
	unlink(p);
	rmdir(dir);
}

static void test_read_any_dispatches(void **state)
{
	struct fts_read_opts o = { .emit = collect_ev };
	struct fts_read_stats st, st2;
	struct fts_err err = { 0 };
	struct collect c, c2;

	(void)state;
	memset(&c, 0, sizeof(c));
	o.emit_ctx = &c;
	assert_int_equal(fts_read_any(SMALL_V7, &o, &st, &err), 0);
	assert_int_equal(read_all(SMALL_V7, &c2, &st2), 0);
	assert_int_equal(c.n, c2.n);
	assert_memory_equal(st.by_type, st2.by_type, sizeof(st.by_type));
	free(c.ev);
	free(c2.ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_match_report),
		cmocka_unit_test(test_timestamps_ordered),
		cmocka_unit_test(test_v6_equals_v7),
		cmocka_unit_test(test_switch_fields_match_report),
		cmocka_unit_test(test_prev_state_matches_kernel_text),
		cmocka_unit_test(test_clock_anchor_and_other),
		cmocka_unit_test(test_exec_and_fields),
		cmocka_unit_test(test_emitter_stop),
		cmocka_unit_test(test_lost_before_record),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_read_any_dispatches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
