/* SPDX-License-Identifier: MIT */
/*
 * npu.h - one card's device activity and host dispatch, read from the Ascend
 * PyTorch profiler's ASCEND_PROFILER_OUTPUT/trace_view.json (text export
 * type) or ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_<rank>.db (DB type:
 * TASK, CANN_API, PYTORCH_API, STEP_TIME, ...; no "Free" lane there, so
 * hostbound finds the gaps from the streams).
 *
 * The file (hundreds of MB) is streamed, never loaded whole; what is kept is
 * only what "why was the NPU idle" needs: the device's stream slices (the
 * "Ascend Hardware" process), the profiler's own "Free" intervals (the
 * "Overlap Analysis" process), the HostToDevice / async_npu flows (host
 * thread and time -> device task start), the threads of the "Python"
 * process with their CPU ops (24 bytes each), and the communication slices of
 * the "HCCL" process. Times are the file's: Unix-epoch ns (its microsecond strings,
 * exactly). Pids and tids are as the profiler saw them: container ids.
 * One file is one card; a profiling directory may hold several (one rank
 * directory each), found with fts_npu_trace_list.
 * Format facts: shared/docs/ascend-profiling.md.
 */
#ifndef FTS_NPU_H
#define FTS_NPU_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One device task on one stream. */
struct fts_npu_busy {
	uint64_t ts, dur;   /* epoch ns */
	uint32_t stream;    /* the stream's tid in the file */
	uint32_t name;      /* kernel name: fts_npu_name() */
};

/* One interval of the profiler's "Free" lane. */
struct fts_npu_free {
	uint64_t ts, dur;
};

/* One slice of the profiler's "HCCL" process (communication). */
struct fts_npu_comm {
	uint64_t ts, dur;   /* epoch ns */
	uint32_t lane;      /* its thread's tid in the file ("Group 0 Communication", "Plane 0") */
	uint32_t name;      /* fts_npu_name() */
};

/* One CPU op of a "Python" thread (the profiler's cpu_op slices: aten::..., torch_npu ops). */
struct fts_npu_op {
	uint64_t ts, dur;   /* epoch ns */
	int32_t tid;        /* container tid */
	uint32_t name;      /* fts_npu_name() */
};

/* A launch: the host thread that made it, and the device task it produced. */
struct fts_npu_flow {
	uint64_t host_ts;   /* epoch ns, the flow's start on the host */
	uint64_t dev_ts;    /* epoch ns, its finish on the device */
	int32_t host_tid;   /* container tid of the launching thread */
	uint32_t kind;      /* 0 HostToDevice, 1 async_npu */
};

/* A thread of the profiler's "Python" process. */
struct fts_npu_thread {
	int32_t pid, tid;   /* container ids */
	char name[64];      /* its thread_name ("Thread 1234"); raw bytes */
};

/* One training step: a "ProfilerStep#<n>" slice (text) or a STEP_TIME row (DB). */
struct fts_npu_step {
	uint64_t ts, dur;   /* epoch ns */
	uint32_t number;    /* <n> (text); STEP_TIME's id (DB) */
};

/* What the reader kept; arrays owned by the trace, read-only for callers. */
struct fts_npu_trace {
	struct fts_npu_busy *busy;     /* sorted by ts */
	size_t nbusy;
	struct fts_npu_free *free;     /* sorted by ts; nfree 0: no "Free" lane */
	size_t nfree;
	struct fts_npu_flow *flows;    /* complete pairs only, sorted by dev_ts */
	size_t nflows;
	struct fts_npu_thread *threads;/* sorted by tid */
	size_t nthreads;
	int32_t python_pid;            /* -1 when there is no "Python" process */
	uint32_t nstreams;
	uint64_t events;               /* event objects in the file */
	uint64_t unpaired_flows;       /* a start or a finish without the other */
	void *priv;                    /* the reader's name table */
	struct fts_npu_comm *comm;     /* sorted by ts; ncomm 0: no "HCCL" process */
	size_t ncomm;
	struct fts_npu_op *ops;        /* sorted by tid, then ts (longer first on ties) */
	size_t nops;
	struct fts_npu_step *steps;    /* sorted by ts; nsteps 0: no step marks */
	size_t nsteps;
};

/**
 * fts_npu_trace_read - read one card's trace_view.json or profiler DB
 * @path: the file (a regular file): an SQLite file is read as the DB type
 *        (opened read-only, as a hostile file), anything else is streamed as
 *        a JSON array of Chrome trace events
 * @out: the card, freed with fts_npu_trace_free
 * @err: filled when the file is missing, not an event array (with the byte
 *       where it stops making sense) or not a profiler DB (naming the table
 *       or row), holds more than one card, or no device stream at all (with
 *       the process names it does hold); one line
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_npu_trace_read(const char *path, struct fts_npu_trace **out, struct fts_err *err);

/**
 * fts_npu_name - a kernel name of @t
 * @t: the card
 * @id: a struct fts_npu_busy name
 *
 * Returns the name (raw bytes from the file: escape before display), "" for a bad id.
 */
FTS_API const char *fts_npu_name(const struct fts_npu_trace *t, uint32_t id);

#define FTS_NPU_MAX_CARDS 64

/**
 * fts_npu_trace_list - the card file of every rank below @dir
 * @dir: a profiling directory: a rank's *_ascend_pt directory, or the
 *       directory holding the ranks side by side (one level down). Per rank:
 *       ASCEND_PROFILER_OUTPUT/trace_view.json, or when there is none
 *       ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_<rank>.db; a run that
 *       exported both types gives its trace_view.json (it alone has the
 *       profiler's "Free" lane; the two give the same gaps otherwise)
 * @paths: set to @n paths, sorted; free with fts_npu_list_free
 * @n: set to their number, 1 to FTS_NPU_MAX_CARDS
 * @err: filled when there is none, @dir cannot be read, or there are more
 *       than FTS_NPU_MAX_CARDS
 *
 * Returns 0 or a negative errno.
 */
FTS_API int fts_npu_trace_list(const char *dir, char ***paths, size_t *n, struct fts_err *err);

/**
 * fts_npu_list_free - release what fts_npu_trace_list gave
 * @paths: the paths; NULL is fine
 * @n: their number
 */
FTS_API void fts_npu_list_free(char **paths, size_t n);

/**
 * fts_npu_trace_free - release a card
 * @t: the card; NULL is fine
 */
FTS_API void fts_npu_trace_free(struct fts_npu_trace *t);

#ifdef __cplusplus
}
#endif

#endif
