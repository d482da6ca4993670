// SPDX-License-Identifier: MIT
/*
 * trace_view.c - the Ascend profiler's trace_view.json, streamed through
 * fts_json_events (json_read.c) and cut down to what npu.h keeps.
 *
 * Metadata ("M": process_name, thread_name) may come anywhere in the file,
 * so a complete slice whose process is not named yet is kept aside (pend)
 * and sorted out at the end; one of a process known to be none of the
 * device, the overlap analysis, HCCL or "Python" is dropped on sight. The
 * "Python" cpu_ops (the bulk of a big file) are kept in 24 bytes each. Flows are paired by (cat, id) through a
 * string table, whatever the order of their two ends.
 *
 * What real files do (ascend-profiling.md, "Variations measured on real
 * files"): device processes have synthetic pids above 2^31, so every pid and
 * tid is read as a 64-bit integer and the tables are keyed by it; members
 * come in any order (an event's kind is decided from the whole object,
 * which fts_json_pick gives); ts and dur are strings or numbers, with or
 * without decimals or an exponent; a flow id is 263 or "263" (the same key:
 * pick gives a number's text); HostToDevice starts on a pid never named
 * (Level0) or on "CANN" (Level1/2) and is taken wherever it starts. Host
 * pids and tids are OS ids (pid_max <= 2^22) and are kept in 32 bits in
 * npu.h: one past 2^31 - 1 where an OS id belongs is refused by name.
 */
#include "ftscope/npu.h"
#include "ftscope/event.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util/buf.h"
#include "core/util/file_util.h"
#include "core/readback/npu_read.h"
#include "core/readback/readback.h"
#include "core/util/inthash.h"
#include "core/util/strtab.h"

enum { F_PH, F_PID, F_TID, F_NAME, F_TS, F_DUR, F_CAT, F_ID, F_ARGS, FIELDS };
static const char *const field_keys[FIELDS] = { "ph", "pid", "tid", "name", "ts",
						"dur", "cat", "id", "args" };

enum proc_kind { P_OTHER = 1, P_PYTHON, P_DEVICE, P_OVERLAP, P_HCCL };

struct pend {           /* a slice whose process may not be named yet */
	uint64_t ts, dur;
	int64_t pid, tid;
	uint32_t name;
};

struct tname {          /* a thread_name seen */
	int64_t pid, tid;
	char name[64];
};

struct fend {           /* one "f" of a flow: where it ended */
	uint64_t ts;
	int64_t pid;        /* -1: not a number */
};

struct fpair {          /* one flow, by (cat, id) */
	uint64_t host_ts;
	struct fend end[2]; /* the first two ends by ts (real files end some ids twice) */
	int32_t host_tid;
	uint8_t kind, have_s, nf;
};

#define PNAMES 6        /* process names kept to say what a refused file holds */

struct tv {
	const char *path;
	struct fts_npu_trace *t;
	struct fts_strtab names;     /* kernel names */
	struct fts_strtab flow_keys; /* "cat\x1fid" -> index in fl */
	struct fts_inthash procs;    /* pid -> enum proc_kind */
	struct pend *pend;
	size_t npend, cpend;
	size_t cops;                 /* room in t->ops */
	struct tname *tn;
	size_t ntn, ctn;
	struct fpair *fl;
	size_t nfl, cfl;
	struct fts_npu_step *steps;
	size_t csteps;
	char *scratch, *scratch2;
	size_t scratch_sz;
	int64_t python_pid;          /* -1: none */
	int devices;                 /* distinct "Ascend Hardware" pids */
	int64_t devpids[2];
	char pnames[PNAMES][24];     /* the first process names seen, made printable */
	int npnames, procs_named;
};

static int nomem(struct fts_err *err)
{
	return fts_err_set(err, -ENOMEM, "out of memory");
}

/* Arrays start at 256 elements. */
static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	return fts_grow(p, cap, need, size, 256);
}

/* A pid or tid: a decimal integer 0 .. INT64_MAX (a number's or a string's text). */
static int parse_id(const char *s, int64_t *v)
{
	uint64_t x = 0;

	if (!s || *s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > ((uint64_t)INT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	if (*s)
		return -1;
	*v = (int64_t)x;
	return 0;
}

static int bad(struct tv *v, struct fts_err *err, const char *what)
{
	return fts_err_set(err, -EINVAL, "%s: event %llu: %s; refused", v->path,
			   (unsigned long long)v->t->events, what);
}

/* An OS id where npu.h keeps 32 bits; refused by name when it is not one. */
static int os_id(struct tv *v, int64_t id, const char *what, int32_t *out, struct fts_err *err)
{
	char msg[160];

	if (id <= INT32_MAX) {
		*out = (int32_t)id;
		return 0;
	}
	snprintf(msg, sizeof(msg), "%s %lld is past 2^31 - 1, so not an OS id as the profiler writes it",
		 what, (long long)id);
	return bad(v, err, msg);
}

/* @name kept printable (it goes into an error message on a terminal). */
static void keep_pname(struct tv *v, const char *name)
{
	char clean[24];
	size_t i;

	v->procs_named++;
	for (i = 0; name[i] && i < sizeof(clean) - 1; i++)
		clean[i] = name[i] >= 0x20 && name[i] < 0x7f && name[i] != '"' ? name[i] : '?';
	clean[i] = 0;
	for (int k = 0; k < v->npnames; k++) {
		if (!strcmp(v->pnames[k], clean))
			return;
	}
	if (v->npnames < PNAMES)
		memcpy(v->pnames[v->npnames++], clean, sizeof(clean));
}

/* args.name of a metadata event, into @buf. */
static const char *meta_name(struct tv *v, const char *args)
{
	static const char *const key[1] = { "name" };
	const char *val = NULL;

	if (!args || fts_json_pick(args, strlen(args), key, 1, &val, v->scratch2, v->scratch_sz))
		return NULL;
	return val;
}

static int on_meta(struct tv *v, const char *name, int64_t pid, const char *tid_s,
		   const char *args, struct fts_err *err)
{
	const char *val = meta_name(v, args);
	int64_t tid;

	if (!name || !val)
		return 0;
	if (!strcmp(name, "process_name")) {
		enum proc_kind k = P_OTHER;
		uint64_t *slot;

		if (!strcmp(val, "Python"))
			k = P_PYTHON;
		else if (!strcmp(val, "Ascend Hardware"))
			k = P_DEVICE;
		else if (!strcmp(val, "Overlap Analysis"))
			k = P_OVERLAP;
		else if (!strcmp(val, "HCCL"))
			k = P_HCCL;
		keep_pname(v, val);
		slot = fts_inthash_put(&v->procs, (uint64_t)pid, NULL);
		if (!slot)
			return nomem(err);
		*slot = k;
		if (k == P_DEVICE && v->devices < 2 &&
		    (v->devices == 0 || v->devpids[0] != pid))
			v->devpids[v->devices++] = pid;
		if (k == P_PYTHON)
			v->python_pid = pid;
	} else if (!strcmp(name, "thread_name") && !parse_id(tid_s, &tid)) {
		struct tname *n;

		if (grow((void **)&v->tn, &v->ctn, v->ntn + 1, sizeof(*v->tn)))
			return nomem(err);
		n = &v->tn[v->ntn++];
		memset(n, 0, sizeof(*n));   /* its name's tail is copied out whole */
		n->pid = pid;
		n->tid = tid;
		fts_copy_str(n->name, (int)sizeof(n->name), val, -1);
	}
	return 0;
}

/*
 * An end of a flow. The same id can end twice (a launch whose task is
 * split, or an id reused): the first two ends by time are kept and settle()
 * takes the earliest on the device ("Ascend Hardware"), else the earliest at
 * all (HCCL: some HostToDevice flows end there). The earliest, because the
 * launch's work reached the device when its first task started: a gap ends
 * there, and a later task of the same launch was not waiting on the host.
 */
static void add_end(struct fpair *p, uint64_t ts, int64_t pid)
{
	struct fend e = { ts, pid };

	if (p->nf < 2) {
		p->end[p->nf++] = e;
	} else if (ts < p->end[1].ts) {
		p->end[1] = e;
	} else {
		return;
	}
	if (p->nf == 2 && p->end[1].ts < p->end[0].ts) {
		e = p->end[0];
		p->end[0] = p->end[1];
		p->end[1] = e;
	}
}

static int on_flow(struct tv *v, const char *const *f, int start, int64_t pid, uint64_t ts,
		   struct fts_err *err)
{
	char key[512];
	uint32_t kind, id;
	int64_t tid64;
	int32_t tid = 0;
	int n, rc;

	if (!f[F_CAT] || !f[F_ID])
		return 0;
	if (!strcmp(f[F_CAT], "HostToDevice"))
		kind = 0;
	else if (!strcmp(f[F_CAT], "async_npu"))
		kind = 1;
	else
		return 0;
	if (start && parse_id(f[F_TID], &tid64))
		return bad(v, err, "a HostToDevice/async_npu flow start whose tid is not a number");
	if (start && (rc = os_id(v, tid64, "a HostToDevice/async_npu flow start's tid", &tid, err)))
		return rc;
	n = snprintf(key, sizeof(key), "%u\x1f%s", kind, f[F_ID]);
	if (n < 0 || (size_t)n >= sizeof(key))
		return bad(v, err, "a flow id over 500 bytes");
	id = fts_strtab_intern(&v->flow_keys, key, (size_t)n);
	if (id == UINT32_MAX || grow((void **)&v->fl, &v->cfl, (size_t)id + 1, sizeof(*v->fl)))
		return nomem(err);
	if (id == v->nfl) {     /* new: realloc'ed memory is not zeroed */
		memset(&v->fl[id], 0, sizeof(v->fl[id]));
		v->nfl++;
	}
	v->fl[id].kind = (uint8_t)kind;
	if (start) {
		v->fl[id].have_s = 1;
		v->fl[id].host_ts = ts;
		v->fl[id].host_tid = tid;
	} else {
		add_end(&v->fl[id], ts, pid);
	}
	return 0;
}

/* "ProfilerStep#<n>": a training step (ascend-profiling.md, "Training steps"). */
static int add_step(struct tv *v, uint64_t ts, uint64_t dur, const char *name, struct fts_err *err)
{
	static const char mark[] = "ProfilerStep#";
	struct fts_npu_trace *t = v->t;
	uint64_t n = 0;
	const char *s;

	if (strncmp(name, mark, sizeof(mark) - 1))
		return 0;
	for (s = name + sizeof(mark) - 1; *s >= '0' && *s <= '9' && n <= UINT32_MAX; s++)
		n = n * 10 + (uint64_t)(*s - '0');
	if (*s || s == name + sizeof(mark) - 1 || n > UINT32_MAX)
		return 0;       /* not a step number: an ordinary python_function */
	if (grow((void **)&t->steps, &v->csteps, t->nsteps + 1, sizeof(*t->steps)))
		return nomem(err);
	t->steps[t->nsteps++] = (struct fts_npu_step){ ts, dur, (uint32_t)n };
	return 0;
}

/* A CPU op of the Python process: what its threads were doing (hostbound's "in which op"). */
static int add_op(struct tv *v, uint64_t ts, uint64_t dur, int64_t tid64, uint32_t name, struct fts_err *err)
{
	struct fts_npu_trace *t = v->t;
	int32_t tid = 0;
	int rc;

	if ((rc = os_id(v, tid64, "a \"Python\" thread's tid", &tid, err)))
		return rc;
	if (name == UINT32_MAX || grow((void **)&t->ops, &v->cops, t->nops + 1, sizeof(*t->ops)))
		return nomem(err);
	t->ops[t->nops++] = (struct fts_npu_op){ ts, dur, tid, name };
	return add_step(v, ts, dur, fts_strtab_get(&v->names, name), err);
}

static int on_event(void *ctx, const char *text, size_t len, struct fts_err *err)
{
	struct tv *v = ctx;
	const char *f[FIELDS];
	const uint64_t *kind;
	uint64_t ts, dur = 0;
	int64_t pid, tid;
	struct pend *p;
	uint32_t name;
	char ph;

	if (v->scratch_sz < len + 64) {
		free(v->scratch);
		free(v->scratch2);
		v->scratch_sz = 0;
		v->scratch = malloc(len + 64);
		v->scratch2 = malloc(len + 64);
		if (!v->scratch || !v->scratch2)
			return nomem(err);
		v->scratch_sz = len + 64;
	}
	v->t->events++;
	if (fts_json_pick(text, len, field_keys, FIELDS, f, v->scratch, v->scratch_sz))
		return bad(v, err, "an event that is not a valid JSON object");
	if (!f[F_PH] || !f[F_PH][0] || f[F_PH][1])
		return 0;
	ph = f[F_PH][0];
	if (ph != 'M' && ph != 'X' && ph != 's' && ph != 'f')
		return 0;        /* counters, instants: not needed */
	if (parse_id(f[F_PID], &pid)) {
		if (ph == 'M')
			return 0;
		pid = -1;        /* flows may carry a synthetic string pid */
	}
	if (ph == 'M')
		return on_meta(v, f[F_NAME], pid, f[F_TID], f[F_ARGS], err);
	if (!f[F_TS] || fts_json_us_to_ns(f[F_TS], &ts))
		return bad(v, err, "an event's ts is missing or not microseconds (0 up to year 2096)");
	if (ph != 'X')
		return on_flow(v, f, ph == 's', pid, ts, err);
	kind = pid < 0 ? NULL : fts_inthash_get(&v->procs, (uint64_t)pid);
	if (pid < 0 || (kind && *kind == P_OTHER))
		return 0;
	if (parse_id(f[F_TID], &tid))
		return 0;
	if (f[F_DUR] && fts_json_us_to_ns(f[F_DUR], &dur))
		return bad(v, err, "a slice's dur is not microseconds (a number or its string, 0 or more)");
	if (kind && *kind == P_PYTHON && !dur)
		return 0;
	name = fts_strtab_intern(&v->names, f[F_NAME] ? f[F_NAME] : "", f[F_NAME] ? strlen(f[F_NAME]) : 0);
	if (kind && *kind == P_PYTHON)
		return add_op(v, ts, dur, tid, name, err);
	if (name == UINT32_MAX || grow((void **)&v->pend, &v->cpend, v->npend + 1, sizeof(*v->pend)))
		return nomem(err);
	p = &v->pend[v->npend++];
	p->ts = ts;
	p->dur = dur;
	p->pid = pid;
	p->tid = tid;
	p->name = name;
	return 0;
}

static int cmp_busy(const void *a, const void *b)
{
	const struct fts_npu_busy *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int cmp_free(const void *a, const void *b)
{
	const struct fts_npu_free *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int cmp_comm(const void *a, const void *b)
{
	const struct fts_npu_comm *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int cmp_op(const void *a, const void *b)
{
	const struct fts_npu_op *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->dur > y->dur ? -1 : x->dur < y->dur;
}

/*
 * By device time; on a tie (a HostToDevice and an async_npu flow end on the
 * same task) the launch first, then by host time and thread: the order must
 * not depend on the file's (a text and a DB profile of one run, or one file
 * re-serialised, give the same), and the launching thread is the one that
 * put the work on the device.
 */
static int cmp_flow(const void *a, const void *b)
{
	const struct fts_npu_flow *x = a, *y = b;

	if (x->dev_ts != y->dev_ts)
		return x->dev_ts < y->dev_ts ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->host_ts != y->host_ts)
		return x->host_ts < y->host_ts ? -1 : 1;
	return x->host_tid < y->host_tid ? -1 : x->host_tid > y->host_tid;
}

static int cmp_step(const void *a, const void *b)
{
	const struct fts_npu_step *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct fts_npu_thread *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

void fts_npu_sort(struct fts_npu_trace *t)
{
	if (t->nbusy)
		qsort(t->busy, t->nbusy, sizeof(*t->busy), cmp_busy);
	if (t->nfree)
		qsort(t->free, t->nfree, sizeof(*t->free), cmp_free);
	if (t->ncomm)
		qsort(t->comm, t->ncomm, sizeof(*t->comm), cmp_comm);
	if (t->nops)
		qsort(t->ops, t->nops, sizeof(*t->ops), cmp_op);
	if (t->nsteps)
		qsort(t->steps, t->nsteps, sizeof(*t->steps), cmp_step);
	if (t->nflows)
		qsort(t->flows, t->nflows, sizeof(*t->flows), cmp_flow);
	if (t->nthreads)
		qsort(t->threads, t->nthreads, sizeof(*t->threads), cmp_thread);
}

static const char *thread_name_of(const struct tv *v, int64_t pid, int64_t tid)
{
	for (size_t i = 0; i < v->ntn; i++) {
		if (v->tn[i].pid == pid && v->tn[i].tid == tid)
			return v->tn[i].name;
	}
	return NULL;
}

/* The overlap lanes are few; a slice is "Free" on the thread named so (tid 3 when unnamed). */
static int is_free_lane(const struct tv *v, int64_t pid, int64_t tid)
{
	const char *n = thread_name_of(v, pid, tid);

	return n ? !strcmp(n, "Free") : tid == 3;
}

/* Why there is no card: what the file holds instead, in one line. */
static int no_device(struct tv *v, struct fts_err *err)
{
	char list[PNAMES * 28] = "";
	size_t len = 0;

	if (!v->procs_named)
		return fts_err_set(err, -ENODATA,
				   "%s: no \"Ascend Hardware\" process: no process_name metadata at all in %llu events (the profiler names \"Ascend Hardware\", \"Python\", ...): not its trace_view.json",
				   v->path, (unsigned long long)v->t->events);
	for (int i = 0; i < v->npnames && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s\"%s\"", i ? ", " : "",
					v->pnames[i]);
	return fts_err_set(err, -ENODATA,
			   "%s: no \"Ascend Hardware\" process (device streams) among the processes named: %s%s; a host-only profile?",
			   v->path, list, v->procs_named > v->npnames ? ", ..." : "");
}

/* The pended slices, to the lists of their processes (known now that the file is read). */
static int sort_out(struct tv *v, struct fts_err *err)
{
	struct fts_npu_trace *t = v->t;
	struct fts_inthash streams;
	size_t nb = 0, nf = 0, nc = 0, ccomm = 0;
	int rc = 0;

	t->busy = calloc(v->npend ? v->npend : 1, sizeof(*t->busy));
	t->free = calloc(v->npend ? v->npend : 1, sizeof(*t->free));
	if (!t->busy || !t->free)
		return nomem(err);
	fts_inthash_init(&streams);
	for (size_t i = 0; i < v->npend && !rc; i++) {
		const struct pend *p = &v->pend[i];
		const uint64_t *k = fts_inthash_get(&v->procs, (uint64_t)p->pid);

		if (!k)
			continue;       /* a process never named: not one we know */
		if ((*k == P_DEVICE || *k == P_HCCL) && p->tid > UINT32_MAX) {
			rc = bad(v, err, "a device stream or HCCL lane id past 2^32 - 1");
		} else if (*k == P_DEVICE) {
			int added = 0;

			if (!fts_inthash_put(&streams, (uint64_t)p->tid, &added))
				rc = nomem(err);
			t->nstreams += added ? 1 : 0;
			t->busy[nb++] = (struct fts_npu_busy){ p->ts, p->dur, (uint32_t)p->tid, p->name };
		} else if (*k == P_OVERLAP && is_free_lane(v, p->pid, p->tid) && p->dur) {
			t->free[nf++] = (struct fts_npu_free){ p->ts, p->dur };
		} else if (*k == P_PYTHON && p->dur) {
			rc = add_op(v, p->ts, p->dur, p->tid, p->name, err);
		} else if (*k == P_HCCL) {
			/* few next to the device tasks: grown as met, not sized by every slice */
			if (grow((void **)&t->comm, &ccomm, nc + 1, sizeof(*t->comm)))
				rc = nomem(err);
			else
				t->comm[nc++] = (struct fts_npu_comm){ p->ts, p->dur, (uint32_t)p->tid, p->name };
		}
	}
	fts_inthash_free(&streams);
	t->nbusy = nb;
	t->nfree = nf;
	t->ncomm = nc;
	return rc;
}

/* The end of @p that counts (see add_end): on the device first, the earliest. */
static const struct fend *flow_end(const struct tv *v, const struct fpair *p)
{
	for (int i = 0; i < p->nf; i++) {
		const uint64_t *k = p->end[i].pid < 0 ? NULL :
				    fts_inthash_get(&v->procs, (uint64_t)p->end[i].pid);

		if (k && *k == P_DEVICE)
			return &p->end[i];
	}
	return p->nf ? &p->end[0] : NULL;
}

static int settle_flows(struct tv *v, struct fts_err *err)
{
	struct fts_npu_trace *t = v->t;

	t->flows = calloc(v->flow_keys.n ? v->flow_keys.n : 1, sizeof(*t->flows));
	if (!t->flows)
		return nomem(err);
	for (uint32_t i = 0; i < v->flow_keys.n; i++) {
		const struct fpair *p = &v->fl[i];
		const struct fend *e = flow_end(v, p);

		if (!p->have_s || !e) {
			t->unpaired_flows++;
			continue;
		}
		t->flows[t->nflows++] = (struct fts_npu_flow){ p->host_ts, e->ts, p->host_tid, p->kind };
	}
	return 0;
}

static int settle_threads(struct tv *v, struct fts_err *err)
{
	struct fts_npu_trace *t = v->t;
	int rc;

	t->threads = calloc(v->ntn ? v->ntn : 1, sizeof(*t->threads));
	if (!t->threads)
		return nomem(err);
	for (size_t i = 0; i < v->ntn; i++) {
		struct fts_npu_thread *th = &t->threads[t->nthreads];

		if (v->python_pid < 0 || v->tn[i].pid != v->python_pid)
			continue;
		if ((rc = os_id(v, v->tn[i].tid, "a \"Python\" thread's tid", &th->tid, err)))
			return rc;
		th->pid = t->python_pid;
		memcpy(th->name, v->tn[i].name, sizeof(v->tn[i].name));
		t->nthreads++;
	}
	return 0;
}

static int settle(struct tv *v, struct fts_err *err)
{
	struct fts_npu_trace *t = v->t;
	int rc;

	if (v->devices > 1)
		return fts_err_set(err, -ENOTSUP,
				   "%s: more than one \"Ascend Hardware\" process (pids %lld and %lld): several cards in one file are not supported yet",
				   v->path, (long long)v->devpids[0], (long long)v->devpids[1]);
	if (v->devices == 0)
		return no_device(v, err);
	if (v->python_pid >= 0 &&
	    (rc = os_id(v, v->python_pid, "the \"Python\" process's pid", &t->python_pid, err)))
		return rc;
	if ((rc = sort_out(v, err)))
		return rc;
	if ((rc = settle_flows(v, err)) || (rc = settle_threads(v, err)))
		return rc;
	fts_npu_sort(t);
	if (!t->nbusy)
		return fts_err_set(err, -ENODATA, "%s: the \"Ascend Hardware\" process has no device tasks",
				   v->path);
	return 0;
}

/* The text reader; fts_npu_trace_read picks it or the DB's. */
static int text_read(const char *path, struct fts_npu_trace **out, struct fts_err *err)
{
	struct fts_err local_err;
	struct tv v = { 0 };
	struct fts_strtab *names;
	int rc;

	if (!err)
		err = &local_err;
	*out = NULL;
	v.path = path;
	v.t = calloc(1, sizeof(*v.t));
	names = calloc(1, sizeof(*names));
	if (!v.t || !names) {
		free(v.t);
		free(names);
		return nomem(err);
	}
	v.t->python_pid = -1;
	v.python_pid = -1;
	fts_strtab_init(&v.names);
	fts_strtab_init(&v.flow_keys);
	fts_inthash_init(&v.procs);
	rc = fts_json_events(path, on_event, &v, NULL, err);
	if (!rc)
		rc = settle(&v, err);
	*names = v.names;         /* the busy slices' names outlive the reader */
	v.t->priv = names;
	free(v.pend);
	free(v.tn);
	free(v.fl);
	free(v.scratch);
	free(v.scratch2);
	fts_strtab_free(&v.flow_keys);
	fts_inthash_free(&v.procs);
	if (rc) {
		fts_npu_trace_free(v.t);
		return rc;
	}
	fts_strtab_shrink(names);
	*out = v.t;
	return 0;
}

/* 1 when @path starts as an SQLite file does, 0 when not, or a negative errno with @err set. */
static int is_sqlite(const char *path, struct fts_err *err)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	struct stat sb;
	ssize_t n;
	int fd = fts_open_regular(path, 0, &sb, err);

	if (fd < 0)
		return fd;
	n = pread(fd, head, sizeof(head), 0);
	close(fd);
	return n == (ssize_t)sizeof(head) && !memcmp(head, magic, sizeof(magic));
}

int fts_npu_trace_read(const char *path, struct fts_npu_trace **out, struct fts_err *err)
{
	struct fts_err local_err;
	int db;

	if (!err)
		err = &local_err;
	*out = NULL;
	db = is_sqlite(path, err);
	if (db < 0)
		return db;
	return db ? fts_npu_db_read(path, out, err) : text_read(path, out, err);
}

const char *fts_npu_name(const struct fts_npu_trace *t, uint32_t id)
{
	const struct fts_strtab *n = t ? t->priv : NULL;

	if (!n || id >= n->n)
		return "";
	return fts_strtab_get(n, id);
}

void fts_npu_trace_free(struct fts_npu_trace *t)
{
	if (!t)
		return;
	if (t->priv) {
		fts_strtab_free(t->priv);
		free(t->priv);
	}
	free(t->busy);
	free(t->free);
	free(t->comm);
	free(t->ops);
	free(t->flows);
	free(t->threads);
	free(t->steps);
	free(t);
}
