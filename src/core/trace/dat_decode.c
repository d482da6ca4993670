// SPDX-License-Identifier: MIT
/*
 * dat_decode.c - kernel records -> struct fts_event (dat_decode.h).
 *
 * Event ids and field descriptors are resolved once per tep handle into a
 * table indexed by event id, so decoding a record is a table lookup plus a
 * few fixed-offset reads. Fields missing from the file's format decode to
 * defaults, never to an error. The kinds come from FTS_EVENT_TABLE (event.h)
 * plus ftrace:print, which carries ftscope's clock anchor.
 */
#include "core/trace/dat_decode.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#define DAT_MAX_FIELDS 7
#define DAT_KIND_NONE 0xff
#define DAT_STATE_CACHE 64
#define DAT_COMM_CACHE 1024            /* power of two */

struct dat_kind_desc {
	const char *system;
	const char *name;
	int type;
	const char *fields[DAT_MAX_FIELDS];
};

/* The kinds, in enum fts_ev_type order: a modelled kind's index is its type. */
#define DAT_KIND(kind, group, sys, ev, ...) { sys, ev, FTS_EV_##kind, { __VA_ARGS__ } },

/* Field positions in each fields[] list are what the decoders index by. */
static const struct dat_kind_desc dat_kinds[] = {
	FTS_EVENT_TABLE(DAT_KIND)
	{ "ftrace", "print", FTS_EV__COUNT, { "buf" } },
};

#undef DAT_KIND

#define DAT_NR_KINDS ((int)(sizeof(dat_kinds) / sizeof(dat_kinds[0])))
#define DAT_KIND_PRINT (DAT_NR_KINDS - 1)   /* ftrace:print, for the clock anchor */

/* kind_of_id holds a kind index in a byte, DAT_KIND_NONE for the rest. */
static_assert(DAT_NR_KINDS < DAT_KIND_NONE, "more event kinds than kind_of_id can hold");
/*
 * A modelled kind's index is its type (the table is in enum order and
 * FTS_EV_LOST, the first type no kernel event has, follows it), so the print
 * kind, last, sits past every type a record can decode to.
 */
static_assert(DAT_KIND_PRINT == FTS_EV_LOST && FTS_EV_LOST + 1 == FTS_EV__COUNT,
	      "the print kind collides with a modelled event type");

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
	int len;        /* strnlen(comm, FTS_COMM_MAX - 1), measured once per fill */
};

/* Everything resolved once per tep handle (buffer instances may share one). */
struct fts_dat_dec {
	struct tep_handle *tep;
	struct dat_kind kinds[DAT_NR_KINDS];
	unsigned char *kind_of_id;  /* event id -> index in kinds, or DAT_KIND_NONE */
	int nr_ids;
	struct tep_event *sched_switch;
	int switch_size;            /* bytes of sched_switch's fixed fields (render bound) */
	int common_size;            /* bytes of the common fields (type, pid) every record needs */
	int state_fmt_ok;           /* sched_switch prints prev_state with __print_flags */
	int swap;                   /* the file's byte order is not this host's */
	unsigned char skip_body[FTS_EV__COUNT];  /* by type: the union is not decoded */
	struct tep_format_field *common_type, *common_pid;  /* NULL: ask libtraceevent */
	int nr_states;
	struct dat_state states[DAT_STATE_CACHE];
	struct dat_comm comms[DAT_COMM_CACHE];
};

/* ---- field access ---------------------------------------------------- */

static int field_in(const struct tep_format_field *f, const struct tep_record *rec)
{
	return f && f->offset >= 0 && f->size >= 0 && f->offset + f->size <= rec->size;
}

/*
 * In the host's byte order the number is read in place; libtraceevent's
 * reader (a call and a switch per field) stays for files of the other order.
 * The live top reads a few of these per record, millions of records a second.
 */
static uint64_t fld_u(const struct fts_dat_dec *tc, const struct tep_format_field *f,
		      const struct tep_record *rec, uint64_t def)
{
	const unsigned char *p = (const unsigned char *)rec->data + (f ? f->offset : 0);
	unsigned long long v;

	if (!field_in(f, rec) || f->size == 0 || f->size > 8)
		return def;
	if (!tc->swap) {
		switch (f->size) {
		case 1:
			return *p;
		case 2: {
			uint16_t x;

			memcpy(&x, p, 2);
			return x;
		}
		case 4: {
			uint32_t x;

			memcpy(&x, p, 4);
			return x;
		}
		case 8: {
			uint64_t x;

			memcpy(&x, p, 8);
			return x;
		}
		default:
			break;
		}
	}
	if (tep_read_number_field((struct tep_format_field *)f, rec->data, &v))
		return def;
	return v;
}

/* Signed read: sign-extend from the field's width when the format says signed. */
static int64_t fld_s(const struct fts_dat_dec *tc, const struct tep_format_field *f,
		     const struct tep_record *rec, int64_t def)
{
	uint64_t v;

	if (!field_in(f, rec) || f->size == 0 || f->size > 8)
		return def;
	v = fld_u(tc, f, rec, 0);
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
static int fld_str(const struct fts_dat_dec *tc, const struct tep_format_field *f,
		   const struct tep_record *rec, const char **out)
{
	const char *data = rec->data;
	int off, len;

	*out = "";
	if (!field_in(f, rec))
		return 0;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint64_t loc = fld_u(tc, f, rec, 0);

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

static void fld_copy(const struct fts_dat_dec *tc, char *dst, int size,
		     const struct tep_format_field *f, const struct tep_record *rec)
{
	const char *s;
	int len = fld_str(tc, f, rec, &s);

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
static int state_render(struct fts_dat_dec *tc, const struct tep_record *rec, char *out)
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

static void state_letters(struct fts_dat_dec *tc, const struct tep_record *rec, uint64_t v,
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

void fts_dat_dec_free(struct fts_dat_dec *tc)
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

struct fts_dat_dec *fts_dat_dec_new(struct tep_handle *tep)
{
	struct fts_dat_dec *tc = calloc(1, sizeof(*tc));
	int max_id = -1;

	if (!tc)
		return NULL;
	tc->tep = tep;
	tc->swap = tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);
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
		if (!tc->common_size) {
			tc->common_size = fields_end(ev->format.common_fields, ev->format.nr_common);
			tc->common_type = tep_find_common_field(ev, "common_type");
			tc->common_pid = tep_find_common_field(ev, "common_pid");
		}
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

void fts_dat_dec_skip_body(struct fts_dat_dec *d, enum fts_ev_type type)
{
	if ((unsigned)type < FTS_EV__COUNT)
		d->skip_body[type] = 1;
}

struct tep_handle *fts_dat_dec_tep(const struct fts_dat_dec *d)
{
	return d->tep;
}

/* @pid's comm from the file's/tracefs' table, through a small cache: every record wants one. */
static const struct dat_comm *comm_of(struct fts_dat_dec *tc, int pid)
{
	static const struct dat_comm none = { -1, "", 0 };
	struct dat_comm *c = &tc->comms[(unsigned)pid & (DAT_COMM_CACHE - 1)];

	if (c->pid != pid || !c->comm) {
		c->pid = pid;
		c->comm = tep_data_comm_from_pid(tc->tep, pid);
		if (!c->comm)
			return &none;   /* not cached: asked again next time */
		c->len = (int)strnlen(c->comm, FTS_COMM_MAX - 1);
	}
	return c;
}

/* ---- decoders --------------------------------------------------------- */

static void dec_switch(struct fts_dat_dec *tc, struct tep_format_field **f,
		       const struct tep_record *r, struct fts_event *ev)
{
	struct fts_ev_switch *sw = &ev->u.sw;

	fld_copy(tc, sw->prev_comm, sizeof(sw->prev_comm), f[0], r);
	sw->prev_pid = (int32_t)fld_s(tc, f[1], r, -1);
	sw->prev_prio = (int32_t)fld_s(tc, f[2], r, 0);
	if (f[3])
		state_letters(tc, r, fld_u(tc, f[3], r, 0), sw->prev_state);
	else
		fts_copy_str(sw->prev_state, sizeof(sw->prev_state), "R", 1);
	fld_copy(tc, sw->next_comm, sizeof(sw->next_comm), f[4], r);
	sw->next_pid = (int32_t)fld_s(tc, f[5], r, -1);
	sw->next_prio = (int32_t)fld_s(tc, f[6], r, 0);
}

static void dec_task(const struct fts_dat_dec *tc, struct tep_format_field **f, const struct tep_record *r,
		     struct fts_event *ev)
{
	struct fts_ev_task *t = &ev->u.task;

	fld_copy(tc, t->comm, sizeof(t->comm), f[0], r);
	t->pid = (int32_t)fld_s(tc, f[1], r, -1);
	t->prio = (int32_t)fld_s(tc, f[2], r, 0);
	t->target_cpu = (int32_t)fld_s(tc, f[3], r, -1);
}

static void dec_migrate(const struct fts_dat_dec *tc, struct tep_format_field **f, const struct tep_record *r,
			struct fts_event *ev)
{
	struct fts_ev_migrate *m = &ev->u.migrate;

	fld_copy(tc, m->comm, sizeof(m->comm), f[0], r);
	m->pid = (int32_t)fld_s(tc, f[1], r, -1);
	m->prio = (int32_t)fld_s(tc, f[2], r, 0);
	m->orig_cpu = (int32_t)fld_s(tc, f[3], r, -1);
	m->dest_cpu = (int32_t)fld_s(tc, f[4], r, -1);
}

static void dec_runtime(const struct fts_dat_dec *tc, struct tep_format_field **f, const struct tep_record *r,
			struct fts_event *ev)
{
	struct fts_ev_runtime *rt = &ev->u.runtime;

	fld_copy(tc, rt->comm, sizeof(rt->comm), f[0], r);
	rt->pid = (int32_t)fld_s(tc, f[1], r, -1);
	rt->runtime = fld_u(tc, f[2], r, 0);
	rt->has_vruntime = field_in(f[3], r);
	rt->vruntime = fld_u(tc, f[3], r, 0);
}

static void dec_fork(const struct fts_dat_dec *tc, struct tep_format_field **f, const struct tep_record *r,
		     struct fts_event *ev)
{
	struct fts_ev_fork *fk = &ev->u.fork;

	fld_copy(tc, fk->parent_comm, sizeof(fk->parent_comm), f[0], r);
	fk->parent_pid = (int32_t)fld_s(tc, f[1], r, -1);
	fld_copy(tc, fk->child_comm, sizeof(fk->child_comm), f[2], r);
	fk->child_pid = (int32_t)fld_s(tc, f[3], r, -1);
}

/* The kernel names an exec'd task after the basename, cut to TASK_COMM_LEN - 1. */
static void dec_exec(const struct fts_dat_dec *tc, struct tep_format_field **f, const struct tep_record *r,
		     struct fts_event *ev)
{
	struct fts_ev_exec *x = &ev->u.exec;
	const char *s, *slash;
	int len = fld_str(tc, f[0], r, &s);

	slash = len ? memrchr(s, '/', (size_t)len) : NULL;
	if (slash) {
		len -= (int)(slash + 1 - s);
		s = slash + 1;
	}
	fts_copy_str(x->comm, 16, s, len < 15 ? len : 15);
	x->pid = (int32_t)fld_s(tc, f[1], r, -1);
	x->old_pid = (int32_t)fld_s(tc, f[2], r, x->pid);
}

static void dec_irq(const struct fts_dat_dec *tc, int type, struct tep_format_field **f, const struct tep_record *r,
		    struct fts_event *ev)
{
	ev->u.irq.irq = (int32_t)fld_s(tc, f[0], r, -1);
	if (type == FTS_EV_IRQ_ENTRY)
		fld_copy(tc, ev->u.irq.name, sizeof(ev->u.irq.name), f[1], r);
	else
		ev->u.irq.ret = (int32_t)fld_s(tc, f[1], r, 0);
}

static void dec_futex(const struct fts_dat_dec *tc, int type, struct tep_format_field **f, const struct tep_record *r,
		      struct fts_event *ev)
{
	if (type == FTS_EV_FUTEX_ENTER) {
		ev->u.futex.uaddr = fld_u(tc, f[0], r, 0);
		ev->u.futex.op = (int32_t)fld_s(tc, f[1], r, 0);
	} else {
		ev->u.futex.ret = fld_s(tc, f[0], r, 0);
	}
}

/* Fills the union for @type; the common part is already set. */
static void decode(struct fts_dat_dec *tc, struct dat_kind *k, const struct tep_record *r,
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
		dec_task(tc, k->f, r, ev);
		break;
	case FTS_EV_MIGRATE:
		dec_migrate(tc, k->f, r, ev);
		break;
	case FTS_EV_STAT_RUNTIME:
		dec_runtime(tc, k->f, r, ev);
		break;
	case FTS_EV_FORK:
		dec_fork(tc, k->f, r, ev);
		break;
	case FTS_EV_EXEC:
		dec_exec(tc, k->f, r, ev);
		break;
	case FTS_EV_IRQ_ENTRY:
	case FTS_EV_IRQ_EXIT:
		dec_irq(tc, type, k->f, r, ev);
		break;
	case FTS_EV_FUTEX_ENTER:
	case FTS_EV_FUTEX_EXIT:
		dec_futex(tc, type, k->f, r, ev);
		break;
	default: /* softirq raise/entry/exit */
		ev->u.softirq.vec = (int32_t)fld_s(tc, k->f[0], r, -1);
		break;
	}
}


/* ---- records ---------------------------------------------------------- */

enum fts_dat_rec fts_dat_decode(struct fts_dat_dec *tc, const struct tep_record *r,
				struct fts_event *ev, struct fts_dat_rec_info *info)
{
	struct dat_kind *k;
	int id;

	/* type and pid are read without a size check by libtraceevent */
	if (r->size < tc->common_size)
		return FTS_DAT_OTHER;
	/* the common fields in place when they lie inside the record (fld_u), as every event has them */
	id = tc->common_type && !tc->swap ? (int)fld_u(tc, tc->common_type, r, UINT64_MAX) :
	     tep_data_type(tc->tep, (struct tep_record *)r);
	if (id < 0 || id >= tc->nr_ids || tc->kind_of_id[id] == DAT_KIND_NONE)
		return FTS_DAT_OTHER;
	k = &tc->kinds[tc->kind_of_id[id]];
	if (k == &tc->kinds[DAT_KIND_PRINT]) {
		if (info)
			info->text_len = fld_str(tc, k->f[0], r, &info->text);
		return FTS_DAT_PRINT;
	}
	if (r->size < k->min_size) {
		if (info) {
			info->name = k->desc->name;
			info->min_size = k->min_size;
		}
		return FTS_DAT_SHORT;
	}
	/* Zeroed so string tails and unused union bytes are reproducible. */
	memset(ev, 0, sizeof(*ev));
	ev->ts = r->ts;
	ev->cpu = r->cpu;
	ev->pid = tc->common_pid && !tc->swap ? (int32_t)fld_s(tc, tc->common_pid, r, -1) :
		  tep_data_pid(tc->tep, (struct tep_record *)r);
	{
		const struct dat_comm *c = comm_of(tc, ev->pid);

		memcpy(ev->comm, c->comm, (size_t)c->len);   /* ev is zeroed: it ends there */
	}
	ev->type = (enum fts_ev_type)k->desc->type;
	if (!tc->skip_body[ev->type])
		decode(tc, k, r, ev);
	return FTS_DAT_EVENT;
}
