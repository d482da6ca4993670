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
 */
#include "ftscope/npu.h"
#include "ftscope/event.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util/buf.h"
#include "core/readback/readback.h"
#include "core/util/inthash.h"
#include "core/util/strtab.h"

enum { F_PH, F_PID, F_TID, F_NAME, F_TS, F_DUR, F_CAT, F_ID, F_ARGS, FIELDS };
static const char *const field_keys[FIELDS] = { "ph", "pid", "tid", "name", "ts",
						"dur", "cat", "id", "args" };

enum proc_kind { P_OTHER = 1, P_PYTHON, P_DEVICE, P_OVERLAP, P_HCCL };

struct pend {           /* a slice whose process may not be named yet */
	uint64_t ts, dur;
	int32_t pid, tid;
	uint32_t name;
};

struct tname {          /* a thread_name seen */
	int32_t pid, tid;
	char name[64];
};

struct fpair {          /* one flow, by (cat, id) */
	uint64_t host_ts, dev_ts;
	int32_t host_tid;
	uint8_t kind, have_s, have_f;
};

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
	char *scratch, *scratch2;
	size_t scratch_sz;
	int32_t device_pid;
	int devices;                 /* distinct "Ascend Hardware" pids */
	int32_t devpids[2];
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

static int parse_id(const char *s, int32_t *v)
{
	char *end;
	long long x;

	if (!s || !*s)
		return -1;
	x = strtoll(s, &end, 10);
	if (*end || x < INT32_MIN || x > INT32_MAX)
		return -1;
	*v = (int32_t)x;
	return 0;
}

static int bad(struct tv *v, struct fts_err *err, const char *what)
{
	return fts_err_set(err, -EINVAL, "%s: not a profiler trace_view.json: %s (event %llu); refused",
			   v->path, what, (unsigned long long)v->t->events);
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

static int on_meta(struct tv *v, const char *name, int32_t pid, const char *tid_s,
		   const char *args, struct fts_err *err)
{
	const char *val = meta_name(v, args);
	int32_t tid;

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
		slot = fts_inthash_put(&v->procs, (uint64_t)(uint32_t)pid, NULL);
		if (!slot)
			return nomem(err);
		*slot = k;
		if (k == P_DEVICE && v->devices < 2 &&
		    (v->devices == 0 || v->devpids[0] != pid))
			v->devpids[v->devices++] = pid;
		if (k == P_DEVICE)
			v->device_pid = pid;
		if (k == P_PYTHON)
			v->t->python_pid = pid;
	} else if (!strcmp(name, "thread_name") && !parse_id(tid_s, &tid)) {
		struct tname *n;

		if (grow((void **)&v->tn, &v->ctn, v->ntn + 1, sizeof(*v->tn)))
			return nomem(err);
		n = &v->tn[v->ntn++];
		n->pid = pid;
		n->tid = tid;
		fts_copy_str(n->name, (int)sizeof(n->name), val, -1);
	}
	return 0;
}

static int on_flow(struct tv *v, const char *const *f, int start, uint64_t ts, struct fts_err *err)
{
	char key[512];
	uint32_t kind, id;
	int32_t tid = 0;
	int n;

	if (!f[F_CAT] || !f[F_ID])
		return 0;
	if (!strcmp(f[F_CAT], "HostToDevice"))
		kind = 0;
	else if (!strcmp(f[F_CAT], "async_npu"))
		kind = 1;
	else
		return 0;
	if (start && parse_id(f[F_TID], &tid))
		return bad(v, err, "a HostToDevice/async_npu flow start whose tid is not a number");
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
		v->fl[id].have_f = 1;
		v->fl[id].dev_ts = ts;
	}
	return 0;
}

/* A CPU op of the Python process: what its threads were doing (hostbound's "in which op"). */
static int add_op(struct tv *v, uint64_t ts, uint64_t dur, int32_t tid, uint32_t name, struct fts_err *err)
{
	struct fts_npu_trace *t = v->t;

	if (name == UINT32_MAX || grow((void **)&t->ops, &v->cops, t->nops + 1, sizeof(*t->ops)))
		return nomem(err);
	t->ops[t->nops++] = (struct fts_npu_op){ ts, dur, tid, name };
	return 0;
}

static int on_event(void *ctx, const char *text, size_t len, struct fts_err *err)
{
	struct tv *v = ctx;
	const char *f[FIELDS];
	const uint64_t *kind;
	uint64_t ts, dur = 0;
	int32_t pid, tid;
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
		return bad(v, err, "an event's ts is missing or not microseconds");
	if (ph != 'X')
		return on_flow(v, f, ph == 's', ts, err);
	kind = fts_inthash_get(&v->procs, (uint64_t)(uint32_t)pid);
	if (pid < 0 || (kind && *kind == P_OTHER))
		return 0;
	if (parse_id(f[F_TID], &tid))
		return 0;
	if (f[F_DUR] && fts_json_us_to_ns(f[F_DUR], &dur))
		return bad(v, err, "a slice's dur is not microseconds");
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

static int cmp_flow(const void *a, const void *b)
{
	const struct fts_npu_flow *x = a, *y = b;

	return x->dev_ts < y->dev_ts ? -1 : x->dev_ts > y->dev_ts;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct fts_npu_thread *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static const char *thread_name_of(const struct tv *v, int32_t pid, int32_t tid)
{
	for (size_t i = 0; i < v->ntn; i++) {
		if (v->tn[i].pid == pid && v->tn[i].tid == tid)
			return v->tn[i].name;
	}
	return NULL;
}

/* The overlap lanes are few; a slice is "Free" on the thread named so (tid 3 when unnamed). */
static int is_free_lane(const struct tv *v, int32_t pid, int32_t tid)
{
	const char *n = thread_name_of(v, pid, tid);

	return n ? !strcmp(n, "Free") : tid == 3;
}

static int settle(struct tv *v, struct fts_err *err)
{
	struct fts_npu_trace *t = v->t;
	struct fts_inthash streams;
	size_t nb = 0, nf = 0, nc = 0, ccomm = 0;
	int rc = 0;

	if (v->devices > 1)
		return fts_err_set(err, -ENOTSUP,
				   "%s: more than one \"Ascend Hardware\" process (pids %d and %d): several cards in one file are not supported yet",
				   v->path, v->devpids[0], v->devpids[1]);
	if (v->devices == 0)
		return fts_err_set(err, -ENODATA,
				   "%s: no \"Ascend Hardware\" process (no device streams): not a profiler trace_view.json, or a host-only profile",
				   v->path);
	t->busy = calloc(v->npend ? v->npend : 1, sizeof(*t->busy));
	t->free = calloc(v->npend ? v->npend : 1, sizeof(*t->free));
	if (!t->busy || !t->free)
		return nomem(err);
	fts_inthash_init(&streams);
	for (size_t i = 0; i < v->npend; i++) {
		const struct pend *p = &v->pend[i];
		const uint64_t *k = fts_inthash_get(&v->procs, (uint64_t)(uint32_t)p->pid);

		if (!k)
			continue;       /* a process never named: not one we know */
		if (*k == P_DEVICE) {
			int added = 0;

			if (!fts_inthash_put(&streams, (uint64_t)(uint32_t)p->tid, &added)) {
				rc = nomem(err);
				break;
			}
			t->nstreams += added ? 1 : 0;
			t->busy[nb++] = (struct fts_npu_busy){ p->ts, p->dur, (uint32_t)p->tid, p->name };
		} else if (*k == P_OVERLAP && is_free_lane(v, p->pid, p->tid) && p->dur) {
			t->free[nf++] = (struct fts_npu_free){ p->ts, p->dur };
		} else if (*k == P_PYTHON && p->dur) {
			rc = add_op(v, p->ts, p->dur, p->tid, p->name, err);
			if (rc)
				break;
		} else if (*k == P_HCCL) {
			/* few next to the device tasks: grown as met, not sized by every slice */
			if (grow((void **)&t->comm, &ccomm, nc + 1, sizeof(*t->comm))) {
				rc = nomem(err);
				break;
			}
			t->comm[nc++] = (struct fts_npu_comm){ p->ts, p->dur, (uint32_t)p->tid, p->name };
		}
	}
	fts_inthash_free(&streams);
	if (rc)
		return rc;
	t->nbusy = nb;
	t->nfree = nf;
	t->ncomm = nc;
	qsort(t->busy, nb, sizeof(*t->busy), cmp_busy);
	if (nc)
		qsort(t->comm, nc, sizeof(*t->comm), cmp_comm);
	if (t->nops)
		qsort(t->ops, t->nops, sizeof(*t->ops), cmp_op);
	qsort(t->free, nf, sizeof(*t->free), cmp_free);

	t->flows = calloc(v->flow_keys.n ? v->flow_keys.n : 1, sizeof(*t->flows));
	if (!t->flows)
		return nomem(err);
	for (uint32_t i = 0; i < v->flow_keys.n; i++) {
		const struct fpair *p = &v->fl[i];

		if (!p->have_s || !p->have_f) {
			t->unpaired_flows++;
			continue;
		}
		t->flows[t->nflows++] = (struct fts_npu_flow){ p->host_ts, p->dev_ts, p->host_tid, p->kind };
	}
	qsort(t->flows, t->nflows, sizeof(*t->flows), cmp_flow);

	t->threads = calloc(v->ntn ? v->ntn : 1, sizeof(*t->threads));
	if (!t->threads)
		return nomem(err);
	for (size_t i = 0; i < v->ntn; i++) {
		if (t->python_pid < 0 || v->tn[i].pid != t->python_pid)
			continue;
		t->threads[t->nthreads].pid = v->tn[i].pid;
		t->threads[t->nthreads].tid = v->tn[i].tid;
		memcpy(t->threads[t->nthreads].name, v->tn[i].name, sizeof(v->tn[i].name));
		t->nthreads++;
	}
	qsort(t->threads, t->nthreads, sizeof(*t->threads), cmp_thread);
	if (!nb)
		return fts_err_set(err, -ENODATA, "%s: the \"Ascend Hardware\" process has no device tasks",
				   v->path);
	return 0;
}

int fts_npu_trace_read(const char *path, struct fts_npu_trace **out, struct fts_err *err)
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
	free(t);
}

#define TV_REL "ASCEND_PROFILER_OUTPUT/trace_view.json"

/* @dir/TV_REL when it is a regular file. */
static int has_tv(const char *dir, char *path, size_t len)
{
	struct stat sb;
	int n = snprintf(path, len, "%s/" TV_REL, dir);

	return n > 0 && (size_t)n < len && !lstat(path, &sb) && S_ISREG(sb.st_mode);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void fts_npu_list_free(char **paths, size_t n)
{
	for (size_t i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
}

int fts_npu_trace_list(const char *dir, char ***paths, size_t *n, struct fts_err *err)
{
	char sub[4096], path[4096];
	char **out = NULL;
	struct dirent *de;
	size_t k = 0;
	int rc = 0;
	DIR *d;

	*paths = NULL;
	*n = 0;
	if (has_tv(dir, path, sizeof(path))) {
		out = calloc(1, sizeof(*out));
		if (!out || !(out[0] = strdup(path))) {
			free(out);
			return nomem(err);
		}
		*paths = out;
		*n = 1;
		return 0;
	}
	d = opendir(dir);
	if (!d)
		return fts_err_set(err, -errno, "%s: cannot open the profiling directory: %s", dir,
				   strerror(errno));
	out = calloc(FTS_NPU_MAX_CARDS, sizeof(*out));
	if (!out) {
		closedir(d);
		return nomem(err);
	}
	/* one level down: the rank directories (*_ascend_pt) a profiling run leaves side by side */
	while ((de = readdir(d))) {
		int len;

		if (de->d_name[0] == '.')
			continue;
		len = snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (len < 0 || (size_t)len >= sizeof(sub) || !has_tv(sub, path, sizeof(path)))
			continue;
		if (k == FTS_NPU_MAX_CARDS) {
			rc = fts_err_set(err, -E2BIG, "%s: more than %d cards (trace_view.json files); give fewer",
					 dir, FTS_NPU_MAX_CARDS);
			break;
		}
		if (!(out[k++] = strdup(path))) {
			rc = nomem(err);
			break;
		}
	}
	closedir(d);
	if (!rc && !k)
		rc = fts_err_set(err, -ENOENT,
				 "%s: no " TV_REL " here or one level down (a text-type profile is needed)", dir);
	if (rc) {
		fts_npu_list_free(out, k);
		return rc;
	}
	qsort(out, k, sizeof(*out), cmp_str);
	*paths = out;
	*n = k;
	return 0;
}
