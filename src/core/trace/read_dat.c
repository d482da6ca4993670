// SPDX-License-Identifier: MIT
/*
 * read_dat.c - trace.dat reader (libtracecmd for the file, libtraceevent for
 * the fields).
 *
 * A trace.dat holds a top buffer and any number of named buffer instances,
 * each split per CPU. Every (handle, cpu) pair is a "source" whose next record
 * sits in a binary min-heap keyed by timestamp; popping the heap yields one
 * globally ordered stream without reading ahead more than one record per
 * source, so memory is O(buffers x CPUs).
 *
 * Compressed (v7) CPU data is read here, not through libtracecmd (the chunk
 * lists come from dat_layout.c): 1.3.x keeps
 * every decompressed chunk in a per-CPU cache that it never frees (its
 * free_zpage() range test cannot match), so a 24 MB zstd file held ~165 MB of
 * heap by the end. We walk each CPU's chunk list ourselves, decompress one
 * chunk at a time with the zstd that libtracecmd already loaded, and hand
 * the pages to kbuffer exactly as libtracecmd's peek_data does. libtracecmd
 * still parses the headers, formats and cmdlines, and reads anything we do not
 * handle (v6, uncompressed v7, other codecs, TSC or guest time conversion).
 *
 * libtracecmd and kbuffer trust every page's size field and record length;
 * a corrupt one crashes them, reads past the page or loops. So every page is
 * checked by dat_pages.c before they see it (up front for data they read,
 * inline for the chunks read here), and a record shorter than its event's
 * fixed fields is refused. A header that crashes the library is caught by
 * the probe (dat_probe.c), which opens the file in the caller's helper.
 * Every event's time goes through timecheck.c (forward per CPU, in range).
 *
 * Event ids and field descriptors are resolved once per tep handle into a
 * table indexed by event id, so decoding a record is a table lookup plus a
 * few fixed-offset reads. Fields missing from the file's format decode to
 * defaults, never to an error.
 */
#include "ftscope/reader.h"

#include "core/trace/dat_layout.h"
#include "core/trace/dat_pages.h"
#include "core/trace/timecheck.h"
#include "core/util/file_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/kbuffer.h>

#define DAT_MAX_FIELDS 7
#define DAT_KIND_PRINT FTS_EV__COUNT   /* ftrace:print, for the clock anchor */
#define DAT_KIND_NONE 0xff
#define DAT_STATE_CACHE 64
#define DAT_COMM_CACHE 1024            /* power of two */
#define DAT_PROGRESS_EVERY (1u << 20)


struct dat_kind_desc {
	const char *system;
	const char *name;
	int type;
	const char *fields[DAT_MAX_FIELDS];
};

/* Field positions in each fields[] list are what the decoders index by. */
static const struct dat_kind_desc dat_kinds[] = {
	{ "sched", "sched_switch", FTS_EV_SWITCH,
	  { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio" } },
	{ "sched", "sched_waking", FTS_EV_WAKING, { "comm", "pid", "prio", "target_cpu" } },
	{ "sched", "sched_wakeup", FTS_EV_WAKEUP, { "comm", "pid", "prio", "target_cpu" } },
	{ "sched", "sched_wakeup_new", FTS_EV_WAKEUP_NEW, { "comm", "pid", "prio", "target_cpu" } },
	{ "sched", "sched_process_exit", FTS_EV_EXIT, { "comm", "pid", "prio" } },
	{ "sched", "sched_migrate_task", FTS_EV_MIGRATE, { "comm", "pid", "prio", "orig_cpu", "dest_cpu" } },
	{ "sched", "sched_stat_runtime", FTS_EV_STAT_RUNTIME, { "comm", "pid", "runtime", "vruntime" } },
	{ "sched", "sched_process_fork", FTS_EV_FORK,
	  { "parent_comm", "parent_pid", "child_comm", "child_pid" } },
	{ "sched", "sched_process_exec", FTS_EV_EXEC, { "filename", "pid", "old_pid" } },
	{ "irq", "irq_handler_entry", FTS_EV_IRQ_ENTRY, { "irq", "name" } },
	{ "irq", "irq_handler_exit", FTS_EV_IRQ_EXIT, { "irq", "ret" } },
	{ "irq", "softirq_raise", FTS_EV_SOFTIRQ_RAISE, { "vec" } },
	{ "irq", "softirq_entry", FTS_EV_SOFTIRQ_ENTRY, { "vec" } },
	{ "irq", "softirq_exit", FTS_EV_SOFTIRQ_EXIT, { "vec" } },
	{ "syscalls", "sys_enter_futex", FTS_EV_FUTEX_ENTER, { "uaddr", "op" } },
	{ "syscalls", "sys_exit_futex", FTS_EV_FUTEX_EXIT, { "ret" } },
	{ "ftrace", "print", DAT_KIND_PRINT, { "buf" } },
};

#define DAT_NR_KINDS ((int)(sizeof(dat_kinds) / sizeof(dat_kinds[0])))

struct dat_kind {
	const struct dat_kind_desc *desc;
	struct tep_format_field *f[DAT_MAX_FIELDS];
	int min_size;   /* where the event's fixed fields end */
};

struct dat_state {
	uint64_t value;
	char str[FTS_STATE_MAX];
};

struct dat_comm {
	int pid;
	const char *comm;
};

/* Everything resolved once per tep handle (buffer instances may share one). */
struct dat_tep {
	struct tep_handle *tep;
	struct dat_kind kinds[DAT_NR_KINDS];
	unsigned char *kind_of_id;  /* event id -> index in kinds, or DAT_KIND_NONE */
	int nr_ids;
	struct tep_event *sched_switch;
	int switch_size;            /* bytes of sched_switch's fixed fields (render bound) */
	int common_size;            /* bytes of the common fields (type, pid) every record needs */
	int state_fmt_ok;           /* sched_switch prints prev_state with __print_flags */
	int nr_states;
	struct dat_state states[DAT_STATE_CACHE];
	struct dat_comm comms[DAT_COMM_CACHE];
};

/* One CPU of a compressed buffer, read chunk by chunk (see top comment). */
struct dat_zcpu {
	int cpu;
	uint64_t pos;        /* file offset of the next chunk header */
	uint64_t end;        /* end of this CPU's data in the file */
	uint32_t left;       /* chunks not loaded yet */
	uint64_t chunk_at;   /* file offset of the loaded chunk (record offset) */
	unsigned char *raw;  /* decompressed chunk */
	size_t raw_len, raw_cap;
	size_t page_at;      /* offset of the loaded page in raw */
	unsigned char *zbuf; /* compressed chunk */
	size_t zbuf_cap;
	int64_t ts_delta;    /* what libtracecmd adds to kbuffer time stamps */
	int loaded;          /* a page is in kbuf */
	struct kbuffer *kbuf;
	struct tep_record rec;
};

struct dat_src {
	struct tracecmd_input *handle;
	struct dat_tep *tc;
	struct dat_zcpu *z;  /* per CPU id when read here, else NULL */
	int nr_z;
};

struct dat_cursor {
	struct tep_record *rec;
	int src;
	int cpu;
};


struct dat_ctx {
	const char *path;
	const struct fts_read_opts *opts;
	struct fts_read_stats *st;
	struct tracecmd_input *top;
	struct dat_src *srcs;
	int nr_srcs;
	struct dat_tep **teps;
	int nr_teps;
	struct dat_cursor *heap;
	int heap_len;
	uint64_t next_progress;
	int fd;              /* our own descriptor for compressed chunks */
	int page_size;
	int zerr;            /* a compressed chunk was bad: where and why below */
	int zerr_cpu;
	struct dat_page_fault zfault;
	const struct dat_v7 *v7;
	struct fts_err *err;
	struct fts_timecheck tcheck;   /* time per CPU: forward only, in range */
	struct dat_page_fmt pfmt;
	char version;        /* '6' or '7' */
	int check_pages;     /* the page layout is one dat_pages.c knows */
	int pre_commit_size; /* the commit size the pre-open check assumed */
};

/* ---- field access ---------------------------------------------------- */

static int field_in(const struct tep_format_field *f, const struct tep_record *rec)
{
	return f && f->offset >= 0 && f->size >= 0 && f->offset + f->size <= rec->size;
}

static uint64_t fld_u(const struct tep_format_field *f, const struct tep_record *rec,
		      uint64_t def)
{
	unsigned long long v;

	if (!field_in(f, rec) || f->size == 0 || f->size > 8)
		return def;
	if (tep_read_number_field((struct tep_format_field *)f, rec->data, &v))
		return def;
	return v;
}

/* Signed read: sign-extend from the field's width when the format says signed. */
static int64_t fld_s(const struct tep_format_field *f, const struct tep_record *rec,
		     int64_t def)
{
	uint64_t v;

	if (!field_in(f, rec) || f->size == 0 || f->size > 8)
		return def;
	v = fld_u(f, rec, 0);
	if (!(f->flags & TEP_FIELD_IS_SIGNED) || f->size == 8)
		return (int64_t)v;
	if (f->size == 4)
		return (int32_t)v;
	if (f->size == 2)
		return (int16_t)v;
	return (int8_t)v;
}

/*
 * String field: fixed char arrays (older kernels' comm), __data_loc and
 * __rel_loc strings (6.x comm), or a trailing flexible array (print's buf).
 * Returns the length within the record, 0 when absent or out of bounds.
 */
static int fld_str(const struct tep_format_field *f, const struct tep_record *rec,
		   const char **out)
{
	const char *data = rec->data;
	int off, len;

	*out = "";
	if (!field_in(f, rec))
		return 0;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint64_t loc = fld_u(f, rec, 0);

		off = (int)(loc & 0xffff);
		len = (int)((loc >> 16) & 0xffff);
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	} else {
		off = f->offset;
		len = f->size ? f->size : rec->size - off;
	}
	if (off < 0 || len <= 0 || off > rec->size)
		return 0;
	if (len > rec->size - off)
		len = rec->size - off;
	*out = data + off;
	return (int)strnlen(data + off, (size_t)len);
}

static void fld_copy(char *dst, int size, const struct tep_format_field *f,
		     const struct tep_record *rec)
{
	const char *s;
	int len = fld_str(f, rec, &s);

	fts_copy_str(dst, size, s, len);
}

/* ---- prev_state letters ---------------------------------------------- */

static int arg_uses_field(const struct tep_print_arg *a, const char *name, int depth)
{
	if (!a || depth > 32)
		return 0;
	switch (a->type) {
	case TEP_PRINT_FIELD:
		return a->field.name && strcmp(a->field.name, name) == 0;
	case TEP_PRINT_OP:
		return arg_uses_field(a->op.left, name, depth + 1) ||
		       arg_uses_field(a->op.right, name, depth + 1);
	case TEP_PRINT_TYPE:
		return arg_uses_field(a->typecast.item, name, depth + 1);
	case TEP_PRINT_FLAGS:
		return arg_uses_field(a->flags.field, name, depth + 1);
	default:
		return 0;
	}
}

/* Is there a __print_flags(prev_state ...) somewhere in this argument tree? */
static int arg_has_state_flags(const struct tep_print_arg *a, int depth)
{
	if (!a || depth > 32)
		return 0;
	switch (a->type) {
	case TEP_PRINT_FLAGS:
		return a->flags.flags && arg_uses_field(a->flags.field, "prev_state", 0);
	case TEP_PRINT_OP:
		return arg_has_state_flags(a->op.left, depth + 1) ||
		       arg_has_state_flags(a->op.right, depth + 1);
	case TEP_PRINT_TYPE:
		return arg_has_state_flags(a->typecast.item, depth + 1);
	default:
		return 0;
	}
}

static int state_fmt_walkable(const struct tep_event *ev)
{
	for (const struct tep_print_arg *a = ev->print_fmt.args; a; a = a->next) {
		if (arg_has_state_flags(a, 0))
			return 1;
	}
	return 0;
}

/* The 6.x table, for files whose print fmt we cannot use. */
static void state_fallback(uint64_t v, char *out)
{
	static const char letters[] = "SDTtXZPI";
	int n = 0;

	if (!(v & 0xff))
		out[n++] = 'R';
	for (int bit = 0; bit < 8; bit++) {
		if (!(v & (1u << bit)) || n + 2 >= FTS_STATE_MAX)
			continue;
		if (n)
			out[n++] = '|';
		out[n++] = letters[bit];
	}
	if ((v & 0x100) && n + 1 < FTS_STATE_MAX)
		out[n++] = '+';
	out[n] = '\0';
}

/*
 * Let libtraceevent evaluate the file's own print fmt on a copy of the
 * record whose comms are blanked, so a task named "prev_state=" cannot
 * confuse the parse. libtraceevent reads every field the format names at
 * its fixed offset without looking at the record's size, so a record
 * shorter than the event's fixed layout (a corrupt page) is not rendered.
 * Returns 0 when the text had a prev_state= token.
 */
static int state_render(struct dat_tep *tc, const struct tep_record *rec, char *out)
{
	const struct dat_kind *k = &tc->kinds[0];
	struct tep_record fake;
	struct trace_seq s;
	const char *p;
	char *copy;
	int ret = -1;

	if (rec->size < tc->switch_size)
		return -1;
	copy = malloc((size_t)rec->size);
	if (!copy)
		return -1;
	memcpy(copy, rec->data, (size_t)rec->size);
	fake = *rec;
	fake.data = copy;
	for (int i = 0; i < DAT_MAX_FIELDS; i += 4) {   /* prev_comm, next_comm */
		if (field_in(k->f[i], rec))
			memset(copy + k->f[i]->offset, 0, (size_t)k->f[i]->size);
	}
	trace_seq_init(&s);
	tep_print_event(tc->tep, &s, &fake, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	p = s.buffer ? strstr(s.buffer, "prev_state=") : NULL;
	if (p) {
		int n = 0;

		p += strlen("prev_state=");
		while (p[n] && p[n] != ' ' && n < FTS_STATE_MAX - 1) {
			out[n] = p[n];
			n++;
		}
		out[n] = '\0';
		ret = n ? 0 : -1;
	}
	trace_seq_destroy(&s);
	free(copy);
	return ret;
}

static void state_letters(struct dat_tep *tc, const struct tep_record *rec, uint64_t v,
			  char *out)
{
	struct dat_state *e;

	for (int i = 0; i < tc->nr_states; i++) {
		if (tc->states[i].value == v) {
			memcpy(out, tc->states[i].str, FTS_STATE_MAX);
			return;
		}
	}
	if (!tc->state_fmt_ok || state_render(tc, rec, out))
		state_fallback(v, out);
	if (tc->nr_states == DAT_STATE_CACHE)
		return;
	e = &tc->states[tc->nr_states++];
	e->value = v;
	memcpy(e->str, out, FTS_STATE_MAX);
}

/* ---- per-tep setup ---------------------------------------------------- */

static void tep_cache_free(struct dat_tep *tc)
{
	if (!tc)
		return;
	free(tc->kind_of_id);
	free(tc);
}

/* Where the last fixed field of a list ends (dynamic ones: their 4-byte locator). */
static int fields_end(const struct tep_format_field *f, int n)
{
	int end = 0;

	for (int i = 0; f && i < n; i++, f = f->next) {
		if (f->offset >= 0 && f->size >= 0 && f->offset + f->size > end)
			end = f->offset + f->size;
	}
	return end;
}

static struct dat_tep *tep_cache_new(struct tep_handle *tep)
{
	struct dat_tep *tc = calloc(1, sizeof(*tc));
	int max_id = -1;

	if (!tc)
		return NULL;
	tc->tep = tep;
	for (int i = 0; i < DAT_COMM_CACHE; i++)
		tc->comms[i].pid = -1;
	for (int i = 0; i < DAT_NR_KINDS; i++) {
		const struct dat_kind_desc *d = &dat_kinds[i];
		struct tep_event *ev = tep_find_event_by_name(tep, d->system, d->name);

		tc->kinds[i].desc = d;
		if (!ev)
			continue;
		for (int j = 0; j < DAT_MAX_FIELDS && d->fields[j]; j++)
			tc->kinds[i].f[j] = tep_find_field(ev, d->fields[j]);
		tc->kinds[i].min_size = fields_end(ev->format.fields, ev->format.nr_fields);
		if (ev->id > max_id)
			max_id = ev->id;
		if (d->type == FTS_EV_SWITCH) {
			tc->sched_switch = ev;
			tc->state_fmt_ok = state_fmt_walkable(ev);
			tc->switch_size = fields_end(ev->format.common_fields, ev->format.nr_common);
			if (fields_end(ev->format.fields, ev->format.nr_fields) > tc->switch_size)
				tc->switch_size = fields_end(ev->format.fields, ev->format.nr_fields);
		}
		if (!tc->common_size)
			tc->common_size = fields_end(ev->format.common_fields, ev->format.nr_common);
	}
	tc->nr_ids = max_id + 1;
	tc->kind_of_id = malloc((size_t)tc->nr_ids + 1);
	if (!tc->kind_of_id) {
		free(tc);
		return NULL;
	}
	memset(tc->kind_of_id, DAT_KIND_NONE, (size_t)tc->nr_ids + 1);
	for (int i = 0; i < DAT_NR_KINDS; i++) {
		const struct dat_kind_desc *d = &dat_kinds[i];
		struct tep_event *ev = tep_find_event_by_name(tep, d->system, d->name);

		if (ev && ev->id >= 0)
			tc->kind_of_id[ev->id] = (unsigned char)i;
	}
	return tc;
}

static const char *comm_of(struct dat_tep *tc, int pid)
{
	struct dat_comm *c = &tc->comms[(unsigned)pid & (DAT_COMM_CACHE - 1)];

	if (c->pid != pid || !c->comm) {
		c->pid = pid;
		c->comm = tep_data_comm_from_pid(tc->tep, pid);
	}
	return c->comm ? c->comm : "";
}

/* ---- decoders --------------------------------------------------------- */

static void dec_switch(struct dat_tep *tc, struct tep_format_field **f,
		       const struct tep_record *r, struct fts_event *ev)
{
	struct fts_ev_switch *sw = &ev->u.sw;

	fld_copy(sw->prev_comm, sizeof(sw->prev_comm), f[0], r);
	sw->prev_pid = (int32_t)fld_s(f[1], r, -1);
	sw->prev_prio = (int32_t)fld_s(f[2], r, 0);
	if (f[3])
		state_letters(tc, r, fld_u(f[3], r, 0), sw->prev_state);
	else
		fts_copy_str(sw->prev_state, sizeof(sw->prev_state), "R", 1);
	fld_copy(sw->next_comm, sizeof(sw->next_comm), f[4], r);
	sw->next_pid = (int32_t)fld_s(f[5], r, -1);
	sw->next_prio = (int32_t)fld_s(f[6], r, 0);
}

static void dec_task(struct tep_format_field **f, const struct tep_record *r,
		     struct fts_event *ev)
{
	struct fts_ev_task *t = &ev->u.task;

	fld_copy(t->comm, sizeof(t->comm), f[0], r);
	t->pid = (int32_t)fld_s(f[1], r, -1);
	t->prio = (int32_t)fld_s(f[2], r, 0);
	t->target_cpu = (int32_t)fld_s(f[3], r, -1);
}

static void dec_migrate(struct tep_format_field **f, const struct tep_record *r,
			struct fts_event *ev)
{
	struct fts_ev_migrate *m = &ev->u.migrate;

	fld_copy(m->comm, sizeof(m->comm), f[0], r);
	m->pid = (int32_t)fld_s(f[1], r, -1);
	m->prio = (int32_t)fld_s(f[2], r, 0);
	m->orig_cpu = (int32_t)fld_s(f[3], r, -1);
	m->dest_cpu = (int32_t)fld_s(f[4], r, -1);
}

static void dec_runtime(struct tep_format_field **f, const struct tep_record *r,
			struct fts_event *ev)
{
	struct fts_ev_runtime *rt = &ev->u.runtime;

	fld_copy(rt->comm, sizeof(rt->comm), f[0], r);
	rt->pid = (int32_t)fld_s(f[1], r, -1);
	rt->runtime = fld_u(f[2], r, 0);
	rt->has_vruntime = field_in(f[3], r);
	rt->vruntime = fld_u(f[3], r, 0);
}

static void dec_fork(struct tep_format_field **f, const struct tep_record *r,
		     struct fts_event *ev)
{
	struct fts_ev_fork *fk = &ev->u.fork;

	fld_copy(fk->parent_comm, sizeof(fk->parent_comm), f[0], r);
	fk->parent_pid = (int32_t)fld_s(f[1], r, -1);
	fld_copy(fk->child_comm, sizeof(fk->child_comm), f[2], r);
	fk->child_pid = (int32_t)fld_s(f[3], r, -1);
}

/* The kernel names an exec'd task after the basename, cut to TASK_COMM_LEN - 1. */
static void dec_exec(struct tep_format_field **f, const struct tep_record *r,
		     struct fts_event *ev)
{
	struct fts_ev_exec *x = &ev->u.exec;
	const char *s, *slash;
	int len = fld_str(f[0], r, &s);

	slash = len ? memrchr(s, '/', (size_t)len) : NULL;
	if (slash) {
		len -= (int)(slash + 1 - s);
		s = slash + 1;
	}
	fts_copy_str(x->comm, 16, s, len < 15 ? len : 15);
	x->pid = (int32_t)fld_s(f[1], r, -1);
	x->old_pid = (int32_t)fld_s(f[2], r, x->pid);
}

static void dec_irq(int type, struct tep_format_field **f, const struct tep_record *r,
		    struct fts_event *ev)
{
	ev->u.irq.irq = (int32_t)fld_s(f[0], r, -1);
	if (type == FTS_EV_IRQ_ENTRY)
		fld_copy(ev->u.irq.name, sizeof(ev->u.irq.name), f[1], r);
	else
		ev->u.irq.ret = (int32_t)fld_s(f[1], r, 0);
}

static void dec_futex(int type, struct tep_format_field **f, const struct tep_record *r,
		      struct fts_event *ev)
{
	if (type == FTS_EV_FUTEX_ENTER) {
		ev->u.futex.uaddr = fld_u(f[0], r, 0);
		ev->u.futex.op = (int32_t)fld_s(f[1], r, 0);
	} else {
		ev->u.futex.ret = fld_s(f[0], r, 0);
	}
}

/* Fills the union for @type; the common part is already set. */
static void decode(struct dat_tep *tc, struct dat_kind *k, const struct tep_record *r,
		   struct fts_event *ev)
{
	int type = k->desc->type;

	switch (type) {
	case FTS_EV_SWITCH:
		dec_switch(tc, k->f, r, ev);
		break;
	case FTS_EV_WAKING:
	case FTS_EV_WAKEUP:
	case FTS_EV_WAKEUP_NEW:
	case FTS_EV_EXIT:
		dec_task(k->f, r, ev);
		break;
	case FTS_EV_MIGRATE:
		dec_migrate(k->f, r, ev);
		break;
	case FTS_EV_STAT_RUNTIME:
		dec_runtime(k->f, r, ev);
		break;
	case FTS_EV_FORK:
		dec_fork(k->f, r, ev);
		break;
	case FTS_EV_EXEC:
		dec_exec(k->f, r, ev);
		break;
	case FTS_EV_IRQ_ENTRY:
	case FTS_EV_IRQ_EXIT:
		dec_irq(type, k->f, r, ev);
		break;
	case FTS_EV_FUTEX_ENTER:
	case FTS_EV_FUTEX_EXIT:
		dec_futex(type, k->f, r, ev);
		break;
	default: /* softirq raise/entry/exit */
		ev->u.softirq.vec = (int32_t)fld_s(k->f[0], r, -1);
		break;
	}
}

/* ---- records ---------------------------------------------------------- */

static int64_t parse_i64(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? strtoll(p + strlen(key), NULL, 10) : 0;
}

/* Returns 1 when the print was ftscope's clock anchor (and is consumed). */
static int take_clock(struct dat_ctx *c, struct dat_kind *k, const struct tep_record *r)
{
	static const char tag[] = "ftscope_clock ";
	char buf[160];
	const char *s;
	int len = fld_str(k->f[0], r, &s);

	if (len < (int)sizeof(tag) - 1 || memcmp(s, tag, sizeof(tag) - 1) != 0)
		return 0;
	if (c->st->clock.valid)
		return 1;
	fts_copy_str(buf, sizeof(buf), s, len);
	if (!strstr(buf, "realtime_ns=") || !strstr(buf, "mono_raw_ns="))
		return 0;
	c->st->clock.realtime_ns = parse_i64(buf, "realtime_ns=");
	c->st->clock.mono_raw_ns = parse_i64(buf, "mono_raw_ns=");
	if (c->st->clock.realtime_ns <= 0 || c->st->clock.mono_raw_ns <= 0 ||
	    !fts_clock_pair_ok((uint64_t)c->st->clock.realtime_ns, (uint64_t)c->st->clock.mono_raw_ns)) {
		memset(&c->st->clock, 0, sizeof(c->st->clock));
		return 0;   /* implausible (crafted): keep raw times */
	}
	c->st->clock.valid = 1;
	return 1;
}

static int emit(struct dat_ctx *c, const struct fts_event *ev)
{
	int rc = fts_timecheck_event(&c->tcheck, c->path, ev->cpu, ev->ts, c->err);

	if (rc)
		return rc;
	c->st->events++;
	c->st->by_type[ev->type]++;
	return c->opts->emit ? c->opts->emit(c->opts->emit_ctx, ev) : 0;
}

static int emit_lost(struct dat_ctx *c, const struct tep_record *r)
{
	struct fts_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.ts = r->ts;
	ev.cpu = r->cpu;
	ev.pid = -1;
	ev.type = FTS_EV_LOST;
	ev.u.lost.count = r->missed_events > 0 ? (uint64_t)r->missed_events : 0;
	c->st->lost_events += ev.u.lost.count;
	return emit(c, &ev);
}

static int handle_record(struct dat_ctx *c, struct dat_tep *tc, struct tep_record *r)
{
	struct fts_event ev;
	struct dat_kind *k;
	int id, ret;

	if (r->cpu >= c->st->cpus)
		c->st->cpus = r->cpu + 1;
	if (r->missed_events) {
		ret = emit_lost(c, r);
		if (ret)
			return ret;
	}
	/* type and pid are read without a size check by libtraceevent */
	if (r->size < tc->common_size) {
		c->st->other_events++;
		return 0;
	}
	id = tep_data_type(tc->tep, r);
	if (id < 0 || id >= tc->nr_ids || tc->kind_of_id[id] == DAT_KIND_NONE) {
		c->st->other_events++;
		return 0;
	}
	k = &tc->kinds[tc->kind_of_id[id]];
	if (r->size < k->min_size && k->desc->type != DAT_KIND_PRINT)
		return fts_err_set(c->err, -EIO,
				   "%s: trace.dat is corrupt: CPU %d, record at offset %llu: a %s record of %d bytes, its format needs %d; re-extract the trace",
				   c->path, r->cpu, (unsigned long long)r->offset, k->desc->name, r->size,
				   k->min_size);
	if (k->desc->type == DAT_KIND_PRINT) {
		if (!take_clock(c, k, r))
			c->st->other_events++;
		return 0;
	}
	/* Zeroed so string tails and unused union bytes are reproducible. */
	memset(&ev, 0, sizeof(ev));
	ev.ts = r->ts;
	ev.cpu = r->cpu;
	ev.pid = tep_data_pid(tc->tep, r);
	fts_copy_str(ev.comm, sizeof(ev.comm), comm_of(tc, ev.pid), -1);
	ev.type = (enum fts_ev_type)k->desc->type;
	decode(tc, k, r, &ev);
	return emit(c, &ev);
}

/* ---- compressed v7 CPU data (layout parsed in dat_layout.c) ---------- */

static void zcpu_free(struct dat_zcpu *z)
{
	if (z->kbuf)
		kbuffer_free(z->kbuf);
	free(z->raw);
	free(z->zbuf);
}

static void src_drop_z(struct dat_src *s)
{
	for (int i = 0; i < s->nr_z; i++)
		zcpu_free(&s->z[i]);
	free(s->z);
	s->z = NULL;
	s->nr_z = 0;
}

/* Loads the next chunk of @z. Returns 1, 0 at the end, -1 when corrupt. */
static int zcpu_load_chunk(struct dat_ctx *c, struct dat_zcpu *z)
{
	unsigned char h[8];
	uint32_t csize, rsize;
	size_t n, cap;

	if (!z->left)
		return 0;
	if (z->end - z->pos < sizeof(h) || fts_dat_pread_all(c->fd, h, sizeof(h), z->pos))
		return -1;
	csize = fts_le32(h);
	rsize = fts_le32(h + 4);
	cap = ((size_t)rsize + (size_t)c->page_size - 1) / (size_t)c->page_size * (size_t)c->page_size;
	if (csize > z->end - z->pos - sizeof(h) || rsize > DAT_Z_MAX ||
	    fts_dat_grow(&z->zbuf, &z->zbuf_cap, csize ? csize : 1) ||
	    fts_dat_grow(&z->raw, &z->raw_cap, cap ? cap : 1) ||
	    fts_dat_pread_all(c->fd, z->zbuf, csize, z->pos + sizeof(h)))
		return -1;
	n = c->v7->dec(z->raw, rsize, z->zbuf, csize);
	if (c->v7->is_err(n) || n > rsize)
		return -1;
	/* a short last page reads as zero padding, never past the buffer */
	memset(z->raw + n, 0, (n + (size_t)c->page_size - 1) / (size_t)c->page_size *
	       (size_t)c->page_size - n);
	z->raw_len = n;
	z->page_at = 0;
	z->chunk_at = z->pos;
	z->pos += sizeof(h) + csize;
	z->left--;
	return 1;
}

/*
 * The next record of @z, built the way libtracecmd's tracecmd_peek_data()
 * builds it; the record and its data stay valid until the next call. NULL at
 * the end, or with c->zerr set when the data is corrupt.
 */
/* Records where @z went bad: its loaded chunk's page, or (@chunk) the next chunk. */
static void z_fail(struct dat_ctx *c, const struct dat_zcpu *z, int chunk, const char *why)
{
	c->zerr = 1;
	c->zerr_cpu = z->cpu;
	c->zfault.offset = chunk ? z->pos : z->chunk_at;
	c->zfault.page = chunk ? -1 : (int64_t)(z->page_at / (size_t)c->page_size);
	c->zfault.why = why;
}

static struct tep_record *z_next(struct dat_ctx *c, struct dat_zcpu *z)
{
	unsigned long long ts;
	const char *why;
	void *data;

	for (;;) {
		if (z->loaded) {
			data = kbuffer_read_event(z->kbuf, &ts);
			if (data)
				break;
			z->loaded = 0;
			z->page_at += (size_t)c->page_size;
		}
		if (z->page_at >= z->raw_len) {
			int r = zcpu_load_chunk(c, z);

			if (r <= 0) {
				if (r < 0)
					z_fail(c, z, 1, "a chunk is cut, out of range or does not decompress");
				return NULL;
			}
			continue;
		}
		/* kbuffer trusts the page: check it first (see dat_pages.c) */
		why = fts_dat_page_check(&c->pfmt, z->raw + z->page_at, (size_t)c->page_size);
		if (why || kbuffer_load_subbuffer(z->kbuf, z->raw + z->page_at) < 0 ||
		    kbuffer_subbuffer_size(z->kbuf) > c->page_size) {
			z_fail(c, z, 0, why ? why : "the page cannot be loaded");
			return NULL;
		}
		z->loaded = 1;
	}
	z->rec.size = kbuffer_event_size(z->kbuf);
	/* the decoders trust rec.size: a record must lie inside its page */
	if ((unsigned char *)data < z->raw + z->page_at || z->rec.size < 0 ||
	    (size_t)((unsigned char *)data - z->raw) + (size_t)z->rec.size >
	    z->page_at + (size_t)c->page_size) {
		z_fail(c, z, 0, "a record runs past the end of its page");
		return NULL;
	}
	z->rec.ts = ts + (unsigned long long)z->ts_delta;
	z->rec.record_size = kbuffer_curr_size(z->kbuf);
	z->rec.missed_events = kbuffer_missed_events(z->kbuf);
	z->rec.cpu = z->cpu;
	z->rec.data = data;
	z->rec.offset = z->chunk_at;    /* compressed file position, for progress */
	z->rec.ref_count = 1;
	kbuffer_next_event(z->kbuf, NULL);
	return &z->rec;
}

/*
 * Sets up our own reading of source @s when its buffer is compressed, and
 * checks the first record of every CPU against libtracecmd's (same bytes;
 * the time difference, e.g. a file ts offset, is kept and added). Any doubt
 * leaves the source to libtracecmd.
 */
static void src_try_z(struct dat_ctx *c, struct dat_src *s, const char *name)
{
	struct tep_handle *tep = s->tc->tep;
	const struct dat_zbuffer *b = NULL;
	unsigned char h[16];

	if (!c->v7 || !c->v7->dec || c->v7->time_conv || tep_is_file_bigendian(tep))
		return;
	c->page_size = c->v7->page_size;
	for (int i = 0; i < c->v7->nr_bufs; i++) {
		if (strcmp(c->v7->bufs[i].name, name) == 0)
			b = &c->v7->bufs[i];
	}
	if (!b || b->cpus <= 0 || b->page_size != c->page_size ||
	    b->section > c->v7->file_size - sizeof(h) || fts_dat_pread_all(c->fd, h, sizeof(h), b->section) ||
	    fts_le16(h) != DAT_SEC_BUFFER || !(fts_le16(h + 2) & DAT_SEC_COMPRESSED))
		return;
	s->z = calloc((size_t)b->cpus, sizeof(*s->z));
	if (!s->z)
		return;
	s->nr_z = b->cpus;
	for (int i = 0; i < b->cpus; i++) {
		struct dat_zcpu *z = &s->z[i];
		const struct dat_zcpu_info *ci = &b->cpu[i];
		struct tep_record *lib, *own;
		unsigned char cnt[4];
		int ok;

		z->cpu = ci->id;
		z->kbuf = kbuffer_alloc(tep_get_header_page_size(tep) == 8 ? KBUFFER_LSIZE_8 :
					KBUFFER_LSIZE_4, KBUFFER_ENDIAN_LITTLE);
		if (!z->kbuf || ci->off > c->v7->file_size || ci->size > c->v7->file_size - ci->off)
			goto fallback;
		if (tep_is_old_format(tep))
			kbuffer_set_old_format(z->kbuf);
		/* the size counts the chunks, not the chunk count before them */
		z->end = ci->off + ci->size + 4;
		if (z->end > c->v7->file_size)
			z->end = c->v7->file_size;
		if (ci->size) {
			if (fts_dat_pread_all(c->fd, cnt, sizeof(cnt), ci->off))
				goto fallback;
			z->left = fts_le32(cnt);
			z->pos = ci->off + 4;
		}
		own = z_next(c, z);
		lib = tracecmd_read_cpu_first(s->handle, i);
		ok = !c->zerr && !own == !lib;
		if (ok && own) {
			ok = lib->cpu == own->cpu && lib->size == own->size &&
			     lib->missed_events == own->missed_events &&
			     memcmp(lib->data, own->data, (size_t)own->size) == 0;
			z->ts_delta = (int64_t)(lib->ts - own->ts);
			own->ts = lib->ts;
		}
		tracecmd_free_record(lib);
		if (!ok)
			goto fallback;
	}
	return;
fallback:
	c->zerr = 0;
	src_drop_z(s);
}

/* ---- merge ------------------------------------------------------------ */

/* Ties go to the earlier source and CPU so the order is reproducible. */
static int cursor_less(const struct dat_cursor *a, const struct dat_cursor *b)
{
	if (a->rec->ts != b->rec->ts)
		return a->rec->ts < b->rec->ts;
	if (a->src != b->src)
		return a->src < b->src;
	return a->cpu < b->cpu;
}

static void heap_down(struct dat_cursor *h, int n, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i;
		struct dat_cursor t;

		if (l < n && cursor_less(&h[l], &h[m]))
			m = l;
		if (l + 1 < n && cursor_less(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static int ctx_add_source(struct dat_ctx *c, struct tracecmd_input *h)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct dat_tep *tc = NULL;
	void *p;

	if (!tep)
		return -EINVAL;
	for (int i = 0; i < c->nr_teps; i++) {
		if (c->teps[i]->tep == tep)
			tc = c->teps[i];
	}
	if (!tc) {
		p = realloc(c->teps, sizeof(*c->teps) * (size_t)(c->nr_teps + 1));
		if (!p)
			return -ENOMEM;
		c->teps = p;
		tc = tep_cache_new(tep);
		if (!tc)
			return -ENOMEM;
		c->teps[c->nr_teps++] = tc;
	}
	p = realloc(c->srcs, sizeof(*c->srcs) * (size_t)(c->nr_srcs + 1));
	if (!p)
		return -ENOMEM;
	c->srcs = p;
	memset(&c->srcs[c->nr_srcs], 0, sizeof(c->srcs[c->nr_srcs]));
	c->srcs[c->nr_srcs].handle = h;
	c->srcs[c->nr_srcs].tc = tc;
	c->nr_srcs++;
	return 0;
}

static int ctx_fill_heap(struct dat_ctx *c)
{
	int total = 0;

	for (int s = 0; s < c->nr_srcs; s++)
		total += c->srcs[s].z ? c->srcs[s].nr_z : tep_get_cpus(c->srcs[s].tc->tep);
	c->heap = calloc((size_t)total + 1, sizeof(*c->heap));
	if (!c->heap)
		return -ENOMEM;
	for (int s = 0; s < c->nr_srcs; s++) {
		struct dat_src *src = &c->srcs[s];
		int cpus = src->z ? src->nr_z : tep_get_cpus(src->tc->tep);

		for (int cpu = 0; cpu < cpus; cpu++) {
			/* src_try_z read the first records already; cpu_first also rewinds */
			struct tep_record *r = src->z ? (src->z[cpu].rec.data ? &src->z[cpu].rec : NULL) :
					       tracecmd_read_cpu_first(src->handle, cpu);

			if (!r)
				continue;
			c->heap[c->heap_len++] = (struct dat_cursor){ r, s, cpu };
		}
	}
	for (int i = c->heap_len / 2 - 1; i >= 0; i--)
		heap_down(c->heap, c->heap_len, i);
	return 0;
}

static void progress(struct dat_ctx *c, const struct tep_record *r)
{
	if (r->offset > c->st->bytes_done && r->offset <= c->st->bytes_total)
		c->st->bytes_done = r->offset;
	if (c->opts->progress && c->st->events + c->st->other_events >= c->next_progress) {
		c->next_progress += DAT_PROGRESS_EVERY;
		c->opts->progress(c->opts->progress_ctx, c->st);
	}
}

static int ctx_run(struct dat_ctx *c)
{
	int ret = 0;

	while (c->heap_len && !ret) {
		struct dat_cursor *top = &c->heap[0];
		struct dat_src *src = &c->srcs[top->src];

		ret = handle_record(c, src->tc, top->rec);
		progress(c, top->rec);
		if (src->z) {
			top->rec = z_next(c, &src->z[top->cpu]);
			if (c->zerr && !ret)
				ret = -EIO;
		} else {
			tracecmd_free_record(top->rec);
			top->rec = tracecmd_read_data(src->handle, top->cpu);
		}
		if (!top->rec)
			c->heap[0] = c->heap[--c->heap_len];
		heap_down(c->heap, c->heap_len, 0);
	}
	return ret;
}

static void ctx_free(struct dat_ctx *c)
{
	for (int i = 0; i < c->heap_len; i++) {
		if (!c->srcs[c->heap[i].src].z)
			tracecmd_free_record(c->heap[i].rec);
	}
	free(c->heap);
	for (int i = 0; i < c->nr_srcs; i++)
		src_drop_z(&c->srcs[i]);
	/* Instance handles first: they borrow state from the top handle. */
	for (int i = 0; i < c->nr_srcs; i++) {
		if (c->srcs[i].handle != c->top)
			tracecmd_close(c->srcs[i].handle);
	}
	if (c->top)
		tracecmd_close(c->top);
	free(c->srcs);
	for (int i = 0; i < c->nr_teps; i++)
		tep_cache_free(c->teps[i]);
	free(c->teps);
	fts_timecheck_free(&c->tcheck);
}

/* ---- open and validate ------------------------------------------------ */

static int check_file(const char *path, struct fts_read_stats *st, struct fts_err *err)
{
	char head[FTS_DAT_MAGIC_LEN];
	size_t n;
	int rc = fts_read_head(path, head, sizeof(head), &n, &st->bytes_total, err);

	if (rc)
		return rc;
	if (n != sizeof(head) || memcmp(head, FTS_DAT_MAGIC, sizeof(head)) != 0)
		return fts_err_set(err, -EINVAL,
				   "%s: not a trace.dat file (bad magic); record one with ftscope or trace-cmd",
				   path);
	return 0;
}

/*
 * The version, endianness and page size from the fixed file header (magic,
 * version text, endian byte, long size byte, u32 page size); a v6 file's
 * extents are checked here too (libtracecmd maps them and faults on a cut
 * file).
 */
static int check_version(const char *path, uint64_t size, char *version,
			 struct dat_page_fmt *pf, struct fts_err *err)
{
	unsigned char h[FTS_DAT_MAGIC_LEN + 16];
	const unsigned char *v = h + FTS_DAT_MAGIC_LEN, *nul;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n = -1;

	if (fd >= 0) {
		n = pread(fd, h, sizeof(h), 0);
		close(fd);
	}
	nul = n > FTS_DAT_MAGIC_LEN ? memchr(v, 0, (size_t)n - FTS_DAT_MAGIC_LEN) : NULL;
	if (!nul || h + n - nul < 7)
		return fts_err_set(err, -EIO,
				   "%s: trace.dat header is truncated; re-extract the trace", path);
	*version = (char)v[0];
	pf->big_endian = nul[1] != 0;
	/* the commit word is a kernel long: the file's long size until the headers say */
	pf->commit_size = nul[2];
	pf->page_size = (int)(pf->big_endian ?
			      (uint32_t)nul[3] << 24 | (uint32_t)nul[4] << 16 | (uint32_t)nul[5] << 8 | nul[6] :
			      fts_le32(nul + 3));
	if (nul != v + 1 || *version != '6' || fts_dat_v6_check_extents(path, size) == 0)
		return 0;
	return fts_err_set(err, -EIO,
			   "%s: trace.dat is truncated or corrupt (data runs past the end of the file); re-extract the trace",
			   path);
}

static int page_fault(struct dat_ctx *c, const char *buffer, int cpu,
		      const struct dat_page_fault *f, struct fts_err *err)
{
	char where[96] = "";

	if (f->page >= 0)
		snprintf(where, sizeof(where), " (page %lld of the chunk)", (long long)f->page);
	if (buffer && *buffer)
		return fts_err_set(err, -EIO,
				   "%s: trace.dat is corrupt: buffer '%s' CPU %d, data at offset %llu%s: %s; re-extract the trace",
				   c->path, buffer, cpu, (unsigned long long)f->offset, where, f->why);
	return fts_err_set(err, -EIO,
			   "%s: trace.dat is corrupt: CPU %d, data at offset %llu%s: %s; re-extract the trace",
			   c->path, cpu, (unsigned long long)f->offset, where, f->why);
}

/* Is the compressed buffer @name read by our own chunk walk (pages checked as it goes)? */
static int buffer_read_here(const struct dat_ctx *c, const char *name)
{
	for (int i = 0; i < c->nr_srcs; i++) {
		const char *n = c->srcs[i].handle == c->top ? "" :
				tracecmd_buffer_instance_name(c->top, i - 1);

		if (c->srcs[i].z && n && strcmp(n, name) == 0)
			return 1;
	}
	return 0;
}

/*
 * Every page libtracecmd will read is checked here first (dat_pages.c): it
 * trusts page sizes and record lengths, and a corrupt one crashes it or
 * makes it loop. Files we cannot lay out ourselves (old ring-buffer format,
 * big-endian or non-zstd v7) are left to the library unchecked.
 */
static int check_pages(struct dat_ctx *c, int pre_open, struct fts_err *err)
{
	struct dat_page_fault f;
	int ret = 0;

	if (c->pfmt.page_size < 64 || c->pfmt.page_size > (1 << 24) ||
	    (c->pfmt.commit_size != 4 && c->pfmt.commit_size != 8))
		return 0;   /* a layout we do not know: left to the library */
	if (!pre_open && c->pfmt.commit_size == c->pre_commit_size && c->version == '6')
		return 0;   /* checked before the open, with the same layout */
	if (c->version == '6') {
		struct dat_extents x;

		if (fts_dat_v6_extents(c->fd, c->st->bytes_total, &x))
			return fts_err_set(err, -EIO,
					   "%s: trace.dat is truncated or corrupt (data runs past the end of the file); re-extract the trace",
					   c->path);
		for (int i = 0; !ret && i < x.n; i++) {
			ret = fts_dat_extent_check(c->fd, &c->pfmt, x.ext[i].off, x.ext[i].size, &f);
			if (ret > 0)
				ret = page_fault(c, x.ext[i].buffer, x.ext[i].cpu, &f, err);
			else if (ret < 0)
				ret = fts_err_set(err, -EIO, "%s: cannot read trace data", c->path);
		}
		fts_dat_extents_free(&x);
		return ret;
	}
	if (!c->v7)
		return 0;
	for (int b = 0; !ret && b < c->v7->nr_bufs; b++) {
		const struct dat_zbuffer *zb = &c->v7->bufs[b];

		/*
		 * Before the open only what tracecmd_open loads itself (the first
		 * chunk of each CPU); after it, the buffers our chunk walk does not
		 * read (it checks its own pages as it goes).
		 */
		if (!pre_open && c->v7->dec && buffer_read_here(c, zb->name))
			continue;
		if (!pre_open && !c->v7->dec && c->pfmt.commit_size == c->pre_commit_size)
			continue;
		for (int i = 0; !ret && i < zb->cpus; i++) {
			const struct dat_zcpu_info *ci = &zb->cpu[i];

			if (ci->off > c->v7->file_size || ci->size > c->v7->file_size - ci->off)
				ret = fts_err_set(err, -EIO,
						  "%s: trace.dat is truncated or corrupt (CPU %d data runs past the end of the file); re-extract the trace",
						  c->path, ci->id);
			else if (c->v7->dec)
				ret = fts_dat_zextent_check(c->fd, c->v7, &c->pfmt, ci->off, ci->size,
							    pre_open ? 1 : 0, &f);
			else
				ret = fts_dat_extent_check(c->fd, &c->pfmt, ci->off, ci->size, &f);
			if (ret > 0)
				ret = page_fault(c, zb->name, ci->id, &f, err);
			else if (ret < 0)
				ret = fts_err_set(err, -ENOMEM, "%s: out of memory checking trace data", c->path);
		}
	}
	return ret;
}

static int open_sources(struct dat_ctx *c, struct fts_err *err)
{
	int n, ret;

	c->top = tracecmd_open(c->path, TRACECMD_FL_LOAD_NO_PLUGINS |
				       TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!c->top)
		return fts_err_set(err, -EIO,
				   "%s: cannot parse trace.dat (truncated or corrupt?); re-extract the trace",
				   c->path);
	/* page size and endianness came from the file header (check_version) */
	c->pre_commit_size = c->pfmt.commit_size;
	c->pfmt.commit_size = tep_get_header_page_size(tracecmd_get_tep(c->top));
	c->check_pages = c->pfmt.page_size >= 64 && c->pfmt.page_size <= (1 << 24) &&
			 (c->pfmt.commit_size == 4 || c->pfmt.commit_size == 8) &&
			 !tep_is_old_format(tracecmd_get_tep(c->top));
	ret = ctx_add_source(c, c->top);
	if (!ret && c->check_pages)
		src_try_z(c, &c->srcs[c->nr_srcs - 1], "");
	n = tracecmd_buffer_instances(c->top);
	for (int i = 0; !ret && i < n; i++) {
		struct tracecmd_input *h = tracecmd_buffer_instance_handle(c->top, i);

		if (!h)
			return fts_err_set(err, -EIO,
					   "%s: cannot open buffer instance %d (truncated or corrupt?); re-extract the trace",
					   c->path, i);
		ret = ctx_add_source(c, h);
		if (ret) {
			tracecmd_close(h);
			break;
		}
		if (tracecmd_buffer_instance_name(c->top, i) && c->check_pages)
			src_try_z(c, &c->srcs[c->nr_srcs - 1], tracecmd_buffer_instance_name(c->top, i));
	}
	if (ret)
		return fts_err_set(err, ret, "%s: out of memory opening trace.dat", c->path);
	return 0;
}

/*
 * Two steps before anything of libtracecmd runs in this process:
 * tracecmd_open loads every CPU's first page (and kbuffer trusts it), so
 * those pages are checked here first (the commit word's size taken from the
 * file's long size, confirmed after the open); then the headers are opened
 * in the caller's helper program (dat_probe.c).
 */
int fts_read_dat_probe(const char *path, const char *helper, struct fts_err *err)
{
	struct fts_read_stats st;
	struct dat_ctx c;
	struct dat_v7 v7;
	struct stat sb;
	int ret;

	memset(&c, 0, sizeof(c));
	memset(&st, 0, sizeof(st));
	c.path = path;
	c.st = &st;
	c.err = err;
	c.fd = -1;
	ret = check_file(path, &st, err);
	if (!ret)
		ret = check_version(path, st.bytes_total, &c.version, &c.pfmt, err);
	if (!ret) {
		c.fd = fts_open_regular(path, 0, &sb, err);
		if (c.fd < 0)
			ret = c.fd;
	}
	if (!ret) {
		if (fts_dat_v7_load(c.fd, st.bytes_total, &v7) == 0)
			c.v7 = &v7;
		ret = check_pages(&c, 1, err);
	}
	if (c.v7)
		fts_dat_v7_free(&v7);
	if (c.fd >= 0)
		close(c.fd);
	return ret ? ret : fts_dat_probe_open(path, helper, err);
}

int fts_read_dat(const char *path, const struct fts_read_opts *opts,
		 struct fts_read_stats *st, struct fts_err *err)
{
	struct dat_ctx c;
	struct dat_v7 v7;
	int ret;

	memset(st, 0, sizeof(*st));
	memset(&c, 0, sizeof(c));
	c.fd = -1;
	c.path = path;
	c.err = err;
	c.opts = opts;
	c.st = st;
	c.next_progress = DAT_PROGRESS_EVERY;
	ret = check_file(path, st, err);
	if (!ret)
		ret = check_version(path, st->bytes_total, &c.version, &c.pfmt, err);
	if (ret)
		return ret;
	{
		struct stat sb;

		c.fd = fts_open_regular(path, 0, &sb, err);
		if (c.fd < 0)
			return c.fd;
	}
	if (fts_dat_v7_load(c.fd, st->bytes_total, &v7) == 0)
		c.v7 = &v7;
	c.pre_commit_size = c.pfmt.commit_size;
	/*
	 * The probe checks the pages tracecmd_open loads, then opens the file in
	 * a helper. The check runs here again even after a probe by the caller:
	 * the file may have changed since, and this process must not crash.
	 */
	ret = opts->probed ? 0 : fts_read_dat_probe(path, opts->probe_helper, err);
	if (ret == FTS_PROBE_UNISOLATED)
		ret = 0;   /* the caller chose no helper: the page checks ran */
	if (!ret && opts->probed)
		ret = check_pages(&c, 1, err);
	if (!ret)
		ret = open_sources(&c, err);
	if (!ret && c.check_pages)
		ret = check_pages(&c, 0, err);
	if (!ret) {
		ret = ctx_fill_heap(&c);
		if (ret)
			fts_err_set(err, ret, "%s: out of memory reading trace.dat", path);
	}
	if (!ret) {
		ret = ctx_run(&c);
		if (c.zerr)
			page_fault(&c, NULL, c.zerr_cpu, &c.zfault, err);
	}
	if (!ret)
		st->bytes_done = st->bytes_total;
	ctx_free(&c);
	if (c.v7)
		fts_dat_v7_free(&v7);
	if (c.fd >= 0)
		close(c.fd);
	return ret;
}
