// SPDX-License-Identifier: MIT
/*
 * top.c - the optional "live top": a low-priority thread that decodes the
 * pages the readers have already streamed to disk (page cache, read with
 * pread; libtraceevent's kbuffer walks them) and keeps, over the last few
 * seconds, each task's Runnable (waiting) time, its CPU time and the worst
 * wakeup-to-run latency. It only reads what the capture has written, so it
 * can neither slow nor lose the capture; when it falls behind it skips pages
 * (counted) instead of catching up.
 *
 * Per tick it gathers the new events of every CPU, sorts them by time and
 * replays sched_switch / sched_wakeup(_new) / sched_waking into the task
 * table. Times go into one-second buckets; the window is TOP_WINDOW buckets.
 */
#include "core/record/record_local.h"
#include "kit/kit.h"
#include "kit/kit.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>
#include <unistd.h>

#define TOP_WINDOW 5                  /* seconds (one-second buckets) */
#define TOP_TICK_NS 500000000L
#define TOP_MAX_BEHIND (8u << 20)     /* bytes per CPU decoded at most per tick */

enum { EV_SWITCH = 1, EV_WAKEUP };

struct top_ev {
	uint64_t ts;
	int type, cpu;
	int pid, next_pid;            /* wakeup: pid; switch: prev and next */
	int prev_runnable;
	char comm[16], next_comm[16];
};

struct top_task {
	int pid;                      /* 0: free slot */
	char comm[16];
	uint64_t runnable_since;      /* 0 when not waiting for a CPU */
	int woken;                    /* the wait began with a wakeup (its latency counts) */
	uint64_t last_in;             /* when it last got a CPU */
	uint64_t epoch[TOP_WINDOW];   /* the second each bucket holds */
	uint64_t cpu_ns[TOP_WINDOW], run_ns[TOP_WINDOW];
};

struct top_worst {
	uint64_t epoch, ns;
	int pid;
	char comm[16];
};

struct top_cpu {
	uint64_t off;                 /* bytes of the stream decoded */
	int pid;                      /* running, as far as decoded */
	uint64_t since;
};

struct rec_top {
	struct rec_stream *st;
	int page_size, n;
	struct top_cpu *cpu;
	struct tep_handle *tep;
	struct kbuffer *kbuf;
	int id_switch, id_wakeup, id_wakeup_new, id_waking;
	struct tep_format_field *f_prev_pid, *f_prev_state, *f_next_pid, *f_prev_comm, *f_next_comm;
	struct tep_format_field *f_pid[3], *f_comm[3];   /* wakeup, wakeup_new, waking */
	struct top_task *tasks;
	size_t cap, used;
	struct top_worst worst[TOP_WINDOW];
	uint64_t now_sec;             /* the latest second decoded */
	struct top_ev *evs;
	size_t nev, evcap;
	char *page;

	pthread_t thread;
	int started, quit;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct fts_record_top pub;    /* the latest published figures (under @lock) */
	double cost_s;                /* the thread's CPU time at its last tick */
};

/* ---- the task table ------------------------------------------------------ */

static struct top_task *slot(struct top_task *tab, size_t cap, int pid)
{
	size_t i = ((size_t)pid * 2654435761u) & (cap - 1);

	while (tab[i].pid && tab[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

static int idle_task(const struct top_task *t, uint64_t now_sec)
{
	if (t->runnable_since)
		return 0;
	for (int b = 0; b < TOP_WINDOW; b++)
		if (t->epoch[b] + TOP_WINDOW > now_sec && (t->cpu_ns[b] || t->run_ns[b]))
			return 0;
	return 1;
}

/* Grow (dropping tasks with nothing in the window) when 70% full. */
static int grow(struct rec_top *t)
{
	size_t cap = t->cap ? t->cap : 1024, used = 0;
	struct top_task *tab;

	if (t->used * 10 < t->cap * 7 && t->cap)
		return 0;
	if (t->used * 10 >= cap * 5)
		cap *= 2;
	tab = calloc(cap, sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->tasks[i].pid || idle_task(&t->tasks[i], t->now_sec))
			continue;
		*slot(tab, cap, t->tasks[i].pid) = t->tasks[i];
		used++;
	}
	free(t->tasks);
	t->tasks = tab;
	t->cap = cap;
	t->used = used;
	return 0;
}

static struct top_task *task(struct rec_top *t, int pid, const char *comm)
{
	struct top_task *k;

	if (grow(t))
		return NULL;
	k = slot(t->tasks, t->cap, pid);
	if (!k->pid) {
		k->pid = pid;
		t->used++;
	}
	if (comm && comm[0])
		memcpy(k->comm, comm, sizeof(k->comm));
	return k;
}

/* ---- replaying events ------------------------------------------------------ */

static void on_switch(struct rec_top *t, const struct top_ev *e)
{
	struct top_cpu *c = &t->cpu[e->cpu];
	uint64_t sec = e->ts / 1000000000u;
	struct top_task *k;

	if (c->pid && c->pid == e->pid && c->since && e->ts > c->since &&
	    (k = task(t, e->pid, e->comm))) {
		int b = (int)(sec % TOP_WINDOW);

		if (k->epoch[b] != sec) {
			k->epoch[b] = sec;
			k->cpu_ns[b] = k->run_ns[b] = 0;
		}
		k->cpu_ns[b] += e->ts - c->since;
	}
	if (e->pid && e->prev_runnable && (k = task(t, e->pid, e->comm))) {
		k->runnable_since = e->ts;
		k->woken = 0;
	}
	c->pid = e->next_pid;
	c->since = e->ts;
	if (!e->next_pid || !(k = task(t, e->next_pid, e->next_comm)))
		return;
	if (k->runnable_since && e->ts >= k->runnable_since) {
		uint64_t wait = e->ts - k->runnable_since;
		int b = (int)(sec % TOP_WINDOW);

		if (k->epoch[b] != sec) {
			k->epoch[b] = sec;
			k->cpu_ns[b] = k->run_ns[b] = 0;
		}
		k->run_ns[b] += wait;
		if (k->woken) {
			struct top_worst *w = &t->worst[b];

			if (w->epoch != sec)
				memset(w, 0, sizeof(*w));
			w->epoch = sec;
			if (wait > w->ns) {
				w->ns = wait;
				w->pid = k->pid;
				memcpy(w->comm, k->comm, sizeof(w->comm));
			}
		}
	}
	k->runnable_since = 0;
	k->last_in = e->ts;
}

static void on_wakeup(struct rec_top *t, const struct top_ev *e)
{
	struct top_task *k = e->pid ? task(t, e->pid, e->comm) : NULL;

	/* Pages of different CPUs arrive at different times: ignore a late wakeup. */
	if (!k || k->runnable_since || e->ts < k->last_in)
		return;
	k->runnable_since = e->ts;
	k->woken = 1;
}

static int by_ts(const void *a, const void *b)
{
	const struct top_ev *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* ---- decoding pages ---------------------------------------------------------- */

/* A numeric field, only when it lies inside the record. */
static int num(struct tep_format_field *f, const void *data, int size, unsigned long long *v)
{
	if (!f || f->offset < 0 || f->size < 0 || (long)f->offset + f->size > size)
		return -1;
	return tep_read_number_field(f, data, v);
}

static void str16(struct tep_format_field *f, const char *data, int size, char *out)
{
	out[0] = '\0';
	if (f && f->offset >= 0 && f->size > 0 && (long)f->offset + f->size <= size) {
		size_t n = f->size < 16 ? (size_t)f->size : 15;
		memcpy(out, data + f->offset, n);
		out[n] = '\0';
	}
}

static int push(struct rec_top *t, const struct top_ev *e)
{
	if (t->nev == t->evcap) {
		size_t cap = t->evcap ? t->evcap * 2 : 4096;
		struct top_ev *p = realloc(t->evs, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		t->evs = p;
		t->evcap = cap;
	}
	t->evs[t->nev++] = *e;
	return 0;
}

static void decode_record(struct rec_top *t, int cpu, const char *data, int size, uint64_t ts)
{
	unsigned long long id, v;
	struct top_ev e = { .ts = ts, .cpu = cpu };

	if (size < 2)
		return;
	id = *(const unsigned short *)data;
	if ((int)id == t->id_switch) {
		e.type = EV_SWITCH;
		if (num(t->f_prev_pid, data, size, &v))
			return;
		e.pid = (int)v;
		if (num(t->f_next_pid, data, size, &v))
			return;
		e.next_pid = (int)v;
		/* TASK_RUNNING (0) or preempted (TASK_REPORT_MAX): still Runnable. */
		e.prev_runnable = num(t->f_prev_state, data, size, &v) == 0 && (v & 0xff) == 0;
		str16(t->f_prev_comm, data, size, e.comm);
		str16(t->f_next_comm, data, size, e.next_comm);
	} else {
		int w = (int)id == t->id_wakeup ? 0 : (int)id == t->id_wakeup_new ? 1 :
			(int)id == t->id_waking ? 2 : -1;

		if (w < 0 || num(t->f_pid[w], data, size, &v))
			return;
		e.type = EV_WAKEUP;
		e.pid = (int)v;
		str16(t->f_comm[w], data, size, e.comm);
	}
	(void)push(t, &e);
}

static uint64_t decode_cpu(struct rec_top *t, int i, uint64_t *skipped)
{
	struct top_cpu *c = &t->cpu[i];
	uint64_t avail = rec_stream_bytes(t->st, i) / (uint64_t)t->page_size * (uint64_t)t->page_size;
	uint64_t events = 0;
	int fd = rec_stream_fd(t->st, i), cpu = rec_stream_cpu(t->st, i);

	if (avail > c->off + TOP_MAX_BEHIND) {
		uint64_t to = (avail - TOP_MAX_BEHIND) / (uint64_t)t->page_size * (uint64_t)t->page_size;
		*skipped += to - c->off;
		c->off = to;
		c->pid = 0;           /* who runs is unknown after a gap */
	}
	for (; c->off + (uint64_t)t->page_size <= avail; c->off += (uint64_t)t->page_size) {
		unsigned long long ts;
		void *rec;

		if (pread(fd, t->page, (size_t)t->page_size, (off_t)c->off) != t->page_size)
			break;
		if (kbuffer_load_subbuffer(t->kbuf, t->page) < 0)
			continue;
		/* kbuffer trusts the page's commit size: keep it within the page. */
		if (kbuffer_subbuffer_size(t->kbuf) > t->page_size)
			continue;
		for (rec = kbuffer_read_event(t->kbuf, &ts); rec; rec = kbuffer_next_event(t->kbuf, &ts)) {
			int size = kbuffer_event_size(t->kbuf);

			if ((const char *)rec + size > t->page + t->page_size)
				break;
			decode_record(t, cpu, rec, size, ts);
			events++;
		}
	}
	return events;
}

/* ---- publishing ------------------------------------------------------------------- */

static void rank(struct fts_record_top_task *list, int *n, const struct fts_record_top_task *x, int by_cpu)
{
	int k = *n < FTS_RECORD_TOP_N ? *n : FTS_RECORD_TOP_N;
	double v = by_cpu ? x->cpu_s : x->runnable_s;

	if (v <= 0)
		return;
	while (k > 0 && v > (by_cpu ? list[k - 1].cpu_s : list[k - 1].runnable_s)) {
		if (k < FTS_RECORD_TOP_N)
			list[k] = list[k - 1];
		k--;
	}
	if (k < FTS_RECORD_TOP_N) {
		list[k] = *x;
		if (*n < FTS_RECORD_TOP_N)
			(*n)++;
	}
}

static void publish(struct rec_top *t, uint64_t events, uint64_t skipped, double cost)
{
	struct fts_record_top p = { 0 };
	uint64_t from = t->now_sec >= TOP_WINDOW - 1 ? t->now_sec - (TOP_WINDOW - 1) : 0;

	p.enabled = 1;
	p.window_s = TOP_WINDOW;
	for (size_t i = 0; i < t->cap; i++) {
		const struct top_task *k = &t->tasks[i];
		struct fts_record_top_task x = { 0 };

		if (!k->pid)
			continue;
		for (int b = 0; b < TOP_WINDOW; b++) {
			if (k->epoch[b] < from || k->epoch[b] > t->now_sec)
				continue;
			x.cpu_s += (double)k->cpu_ns[b] / 1e9;
			x.runnable_s += (double)k->run_ns[b] / 1e9;
		}
		x.pid = k->pid;
		memcpy(x.comm, k->comm, sizeof(x.comm));
		rank(p.runnable, &p.nrunnable, &x, 0);
		rank(p.cpu, &p.ncpu, &x, 1);
	}
	for (int b = 0; b < TOP_WINDOW; b++) {
		const struct top_worst *w = &t->worst[b];

		if (w->epoch >= from && w->epoch <= t->now_sec && (double)w->ns / 1e6 > p.worst_wakeup_ms) {
			p.worst_wakeup_ms = (double)w->ns / 1e6;
			p.worst_pid = w->pid;
			memcpy(p.worst_comm, w->comm, sizeof(p.worst_comm));
		}
	}
	pthread_mutex_lock(&t->lock);
	p.events = t->pub.events + events;
	p.skipped_bytes = t->pub.skipped_bytes + skipped;
	p.cpu_cost_s = cost;
	t->cost_s = cost;
	t->pub = p;
	pthread_mutex_unlock(&t->lock);
}

static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void publish_tick(struct rec_top *t, uint64_t events, uint64_t skipped);

static void tick(struct rec_top *t)
{
	uint64_t events = 0, skipped = 0;

	t->nev = 0;
	for (int i = 0; i < t->n; i++)
		events += decode_cpu(t, i, &skipped);
	qsort(t->evs, t->nev, sizeof(*t->evs), by_ts);
	for (size_t i = 0; i < t->nev; i++) {
		if (t->evs[i].ts / 1000000000u > t->now_sec)
			t->now_sec = t->evs[i].ts / 1000000000u;
		if (t->evs[i].type == EV_SWITCH)
			on_switch(t, &t->evs[i]);
		else
			on_wakeup(t, &t->evs[i]);
	}
	publish_tick(t, events, skipped);
}

/* In the top thread the cost is its CPU time; in the caller's (finish) the last one stays. */
static void publish_tick(struct rec_top *t, uint64_t events, uint64_t skipped)
{
	publish(t, events, skipped, t->started ? thread_cpu_s() : t->cost_s);
}

static void *top_main(void *arg)
{
	struct rec_top *t = arg;

	/* The capture comes first: this thread only gets what is left over. */
	(void)setpriority(PRIO_PROCESS, (id_t)gettid(), 19);
	pthread_setname_np(pthread_self(), "fts-top");
	pthread_mutex_lock(&t->lock);
	while (!t->quit) {
		struct timespec until;
		uint64_t next = fts__clock_mono_ns() + TOP_TICK_NS;

		until.tv_sec = (time_t)(next / 1000000000u);
		until.tv_nsec = (long)(next % 1000000000u);
		if (pthread_cond_timedwait(&t->wake, &t->lock, &until) != ETIMEDOUT || t->quit)
			continue;
		pthread_mutex_unlock(&t->lock);
		tick(t);
		pthread_mutex_lock(&t->lock);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

/* ---- setup ----------------------------------------------------------------------------- */

static int find_events(struct rec_top *t)
{
	static const char *const wake[3] = { "sched_wakeup", "sched_wakeup_new", "sched_waking" };
	struct tep_event *sw = tep_find_event_by_name(t->tep, "sched", "sched_switch");
	int *ids[3] = { &t->id_wakeup, &t->id_wakeup_new, &t->id_waking };

	if (!sw)
		return -ENOENT;
	t->id_switch = sw->id;
	t->f_prev_pid = tep_find_field(sw, "prev_pid");
	t->f_prev_state = tep_find_field(sw, "prev_state");
	t->f_next_pid = tep_find_field(sw, "next_pid");
	t->f_prev_comm = tep_find_field(sw, "prev_comm");
	t->f_next_comm = tep_find_field(sw, "next_comm");
	for (int i = 0; i < 3; i++) {
		struct tep_event *e = tep_find_event_by_name(t->tep, "sched", wake[i]);

		*ids[i] = e ? e->id : -1;
		t->f_pid[i] = e ? tep_find_field(e, "pid") : NULL;
		t->f_comm[i] = e ? tep_find_field(e, "comm") : NULL;
	}
	return t->f_prev_pid && t->f_next_pid ? 0 : -ENOENT;
}

/*
 * Only the four formats the top reads: tracefs_local_events_system() would
 * also load kallsyms and printk formats, a fixed cost far above the decoding.
 */
static struct tep_handle *load_formats(const char *tracing_dir)
{
	static const char *const names[] = { "sched_switch", "sched_wakeup", "sched_wakeup_new", "sched_waking" };
	struct tep_handle *tep = tep_alloc();
	int ok = 0;

	for (size_t i = 0; tep && i < REC_ARRAY_SIZE(names); i++) {
		char path[4096 + 64], *buf;
		FILE *f;
		size_t n;

		snprintf(path, sizeof(path), "%s/events/sched/%s/format", tracing_dir, names[i]);
		f = fopen(path, "re");
		buf = f ? malloc(65536) : NULL;
		n = buf ? fread(buf, 1, 65535, f) : 0;
		if (f)
			fclose(f);
		if (n && tep_parse_event(tep, buf, n, "sched") == 0 && i == 0)
			ok = 1;
		free(buf);
	}
	if (tep && !ok) {
		tep_free(tep);
		tep = NULL;
	}
	return tep;
}

int rec_top_start(const char *tracing_dir, struct rec_stream *st, int page_size, struct rec_top **out,
		  struct fts_err *err)
{
	struct rec_top *t = calloc(1, sizeof(*t));
	pthread_condattr_t ca;
	int rc;

	*out = NULL;
	if (!t)
		return fts_err_set(err, -ENOMEM, "out of memory");
	t->st = st;
	t->n = rec_stream_count(st);
	t->page_size = page_size;
	pthread_mutex_init(&t->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&t->wake, &ca);
	pthread_condattr_destroy(&ca);
	t->cpu = calloc((size_t)t->n, sizeof(*t->cpu));
	t->page = malloc((size_t)page_size);
	t->kbuf = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	t->tep = load_formats(tracing_dir);
	if (!t->cpu || !t->page || !t->kbuf || !t->tep) {
		rec_top_free(t);
		return fts_err_set(err, -ENOMEM, "cannot set up the live top (event formats of %s)", tracing_dir);
	}
	if (find_events(t)) {
		rec_top_free(t);
		return fts_err_set(err, -ENOENT, "the live top needs the sched events (sched_switch)");
	}
	rc = fts__thread_start(&t->thread, NULL, top_main, t);
	if (rc) {
		rec_top_free(t);
		return fts_err_set(err, rc, "cannot start the live top thread: %s", strerror(-rc));
	}
	t->started = 1;
	*out = t;
	return 0;
}

void rec_top_snapshot(struct rec_top *t, struct fts_record_top *out)
{
	pthread_mutex_lock(&t->lock);
	*out = t->pub;
	pthread_mutex_unlock(&t->lock);
	out->enabled = 1;
	out->window_s = TOP_WINDOW;
}

static void stop_thread(struct rec_top *t)
{
	if (!t->started)
		return;
	pthread_mutex_lock(&t->lock);
	t->quit = 1;
	pthread_cond_signal(&t->wake);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->thread, NULL);
	t->started = 0;
}

void rec_top_finish(struct rec_top *t, struct fts_record_top *out)
{
	double before;

	stop_thread(t);
	/* The last pages, in the caller's thread (bounded per CPU); its cost counts too. */
	before = thread_cpu_s();
	tick(t);
	pthread_mutex_lock(&t->lock);
	t->pub.cpu_cost_s = t->cost_s + thread_cpu_s() - before;
	pthread_mutex_unlock(&t->lock);
	rec_top_snapshot(t, out);
}

void rec_top_free(struct rec_top *t)
{
	if (!t)
		return;
	stop_thread(t);
	if (t->kbuf)
		kbuffer_free(t->kbuf);
	if (t->tep)
		tep_free(t->tep);
	free(t->cpu);
	free(t->page);
	free(t->tasks);
	free(t->evs);
	pthread_cond_destroy(&t->wake);
	pthread_mutex_destroy(&t->lock);
	free(t);
}
