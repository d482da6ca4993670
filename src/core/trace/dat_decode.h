/* SPDX-License-Identifier: MIT */
/*
 * dat_decode.h - one kernel record -> struct fts_event, for the trace.dat
 * reader and the recorder's live top (private to the library: core/trace and
 * core/record).
 *
 * A decoder is made once per tep handle: it resolves the event ids and field
 * descriptors of every kind in FTS_EVENT_TABLE (event.h), so decoding a
 * record is a table lookup plus a few fixed-offset reads. Fields missing from
 * the format decode to defaults, never to an error. prev_state is rendered
 * with the file's own print fmt (libtraceevent), the 6.x letters otherwise.
 *
 * The decoder only reads inside the record (tep_record.size), but it trusts
 * that size: the caller hands it records that lie inside their page.
 */
#ifndef FTS_DAT_DECODE_H
#define FTS_DAT_DECODE_H

#include "ftscope/event.h"

#include <stdint.h>

struct tep_handle;
struct tep_record;
struct fts_dat_dec;

/* What fts_dat_decode made of a record. */
enum fts_dat_rec {
	FTS_DAT_EVENT,   /* @ev is filled */
	FTS_DAT_OTHER,   /* a kind we do not model, or too short for a record header */
	FTS_DAT_PRINT,   /* an ftrace print: its text in the info */
	FTS_DAT_SHORT,   /* shorter than its format's fixed fields: corrupt (the info says why) */
};

struct fts_dat_rec_info {
	const char *name;    /* SHORT: the event's name */
	int min_size;        /* SHORT: the bytes its format needs */
	const char *text;    /* PRINT: the print's buf (not NUL-terminated) */
	int text_len;
};

/*
 * fts_dat_dec_new - a decoder for the records of @tep (borrowed: it must
 * outlive the decoder). Returns NULL when out of memory.
 */
struct fts_dat_dec *fts_dat_dec_new(struct tep_handle *tep);

/* fts_dat_dec_free - release @d; NULL is fine. */
void fts_dat_dec_free(struct fts_dat_dec *d);

/*
 * fts_dat_dec_skip_body - records of @type decode to their common part alone
 * (ts, cpu, pid, comm and type; the union stays zeroed): for a consumer that
 * reads nothing else of them, such as the live top's lean model and the
 * sched_stat_runtime records (a third of a busy capture).
 */
void fts_dat_dec_skip_body(struct fts_dat_dec *d, enum fts_ev_type type);

/* fts_dat_dec_tep - the tep handle @d decodes with. */
struct tep_handle *fts_dat_dec_tep(const struct fts_dat_dec *d);

/*
 * fts_dat_decode - decode record @r (of CPU r->cpu at r->ts) into @ev.
 * Lost-event counts (r->missed_events) are the caller's. @info (may be NULL
 * unless the caller wants PRINT or SHORT details) is filled as the result says.
 */
enum fts_dat_rec fts_dat_decode(struct fts_dat_dec *d, const struct tep_record *r,
				struct fts_event *ev, struct fts_dat_rec_info *info);

#endif
