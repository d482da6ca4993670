// SPDX-License-Identifier: MIT
/*
 * text_render.c - render a trace.dat as the kernel's text format
 * ("comm-pid [cpu] flags secs.usecs: name: info"), in time order across
 * CPUs, with the kernel's "CPU:N [LOST n EVENTS]" lines where pages were
 * dropped. Rendering from the streamed pages (not the instance's `trace`
 * file) is what makes the text hold the whole capture.
 */
#include "ftscope/error.h"
#include "ftscope/reader.h"
#include "core/record/record_local.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef FTS_NO_TRACECMD
#include "core/trace/dat_own.h"   /* the static build's own reader */
#else
#include <trace-cmd/trace-cmd.h>
#endif
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include <unistd.h>

struct render {
	FILE *out;
	struct tep_handle *tep;
	struct trace_seq seq;
	int print_id;
	uint64_t events;
	int (*step)(void *arg, uint64_t events);
	void *arg;
	int stopped;
	int werr;                     /* errno of the first failed write */
};

static int render_one(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct render *rd = data;
	struct tep_event *ev;
	unsigned long long secs = rec->ts / 1000000000ull, usecs = (rec->ts % 1000000000ull) / 1000;

	(void)h;
	/*
	 * libtracecmd 3.1.6 goes on iterating after a callback returned 1 (as
	 * seen here: 14 more calls after a cut), so a stop is kept here.
	 */
	if (rd->stopped || rd->werr)
		return 1;
	if (rec->missed_events > 0)
		fprintf(rd->out, "CPU:%d [LOST %lld EVENTS]\n", cpu, rec->missed_events);
	else if (rec->missed_events < 0)
		fprintf(rd->out, "CPU:%d [LOST EVENTS]\n", cpu);
	trace_seq_reset(&rd->seq);
	ev = tep_find_event_by_record(rd->tep, rec);
	tep_print_event(rd->tep, &rd->seq, rec, "%16s-%-7d [%03d] %s ", TEP_PRINT_COMM,
			TEP_PRINT_PID, TEP_PRINT_CPU, TEP_PRINT_LATENCY);
	trace_seq_printf(&rd->seq, "%5llu.%06llu: ", secs, usecs);
	if (ev && ev->id == rd->print_id) {
		/* The kernel shows trace_marker lines as "tracing_mark_write: text". */
		struct tep_format_field *f = tep_find_field(ev, "buf");
		const char *buf = "";
		int len = 0;

		/* buf is "char buf[]": it runs to the end of the record. */
		if (f && (int)f->offset < rec->size) {
			buf = (const char *)rec->data + f->offset;
			len = (int)strnlen(buf, (size_t)(rec->size - (int)f->offset));
		}
		trace_seq_printf(&rd->seq, "tracing_mark_write: %.*s", len, buf);
		while (rd->seq.len && (rd->seq.buffer[rd->seq.len - 1] == '\n' ||
				       rd->seq.buffer[rd->seq.len - 1] == '\0'))
			rd->seq.len--;
	} else {
		tep_print_event(rd->tep, &rd->seq, rec, "%s: %s", TEP_PRINT_NAME, TEP_PRINT_INFO);
	}
	trace_seq_terminate(&rd->seq);
	fprintf(rd->out, "%.*s\n", (int)rd->seq.len, rd->seq.buffer);
	if (ferror(rd->out)) {
		/* Stop as the step hook does (1): -1 makes libtracecmd complain about locked records. */
		rd->werr = errno ? errno : EIO;
		return 1;
	}
	/* Ask the caller every 4096 events whether to go on (a progress hook). */
	if (++rd->events % 4096 == 0 && rd->step && rd->step(rd->arg, rd->events)) {
		rd->stopped = 1;
		return 1;
	}
	return 0;
}

/* The kernel's per-CPU loss counts (the trace.dat's CPUSTAT), for the text reader. */
static void put_kernel_loss(FILE *out, const char *dat_path)
{
	struct fts_loss l;

	fts_loss_init(&l);
	if (fts_read_dat_loss(dat_path, &l) == 0)
		for (int i = 0; i < l.ncpu; i++)
			if (l.cpu[i].has_kernel)
				fprintf(out, FTS_TEXT_KERNEL_LOST " cpu=%d events=%llu\n", i,
					(unsigned long long)l.cpu[i].kernel);
	fts_loss_free(&l);
}

int fts_rec_render_text(const char *dat_path, int fd, const char *clock_line,
			int (*step)(void *arg, uint64_t events), void *arg, int *stopped,
			struct fts_err *err)
{
	struct tracecmd_input *h = tracecmd_open(dat_path, TRACECMD_FL_LOAD_NO_PLUGINS);
	struct render rd = { .step = step, .arg = arg };
	struct tep_event *pe;
	int rc = 0, ofd;

	if (!h)
		return fts_err_set(err, -EIO, "cannot re-open the assembled trace %s", dat_path);
	ofd = dup(fd);
	rd.out = ofd >= 0 ? fdopen(ofd, "w") : NULL;
	if (!rd.out) {
		if (ofd >= 0)
			close(ofd);
		tracecmd_close(h);
		return fts_err_set(err, -ENOMEM, "out of memory");
	}
	setvbuf(rd.out, NULL, _IOFBF, 1 << 20);
	rd.tep = tracecmd_get_tep(h);
	/* Plugin handlers (sched_switch as "a:1 [120] S ==> b:2") are not the kernel's text. */
	for (int i = 0; i < tep_get_events_count(rd.tep); i++) {
		struct tep_event *e = tep_get_event(rd.tep, i);
		if (e)
			e->handler = NULL;
	}
	pe = tep_find_event_by_name(rd.tep, "ftrace", "print");
	rd.print_id = pe ? pe->id : -1;
	trace_seq_init(&rd.seq);
	fputs(clock_line, rd.out);
	put_kernel_loss(rd.out, dat_path);
	fputs("# tracer: nop\n#\n"
	      "#                                _-----=> irqs-off/BH-disabled\n"
	      "#                               / _----=> need-resched\n"
	      "#                              | / _---=> hardirq/softirq\n"
	      "#                              || / _--=> preempt-depth\n"
	      "#                              ||| / _-=> migrate-disable\n"
	      "#                              |||| /     delay\n"
	      "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	      "#              | |         |   |||||     |         |\n", rd.out);
	(void)tracecmd_iterate_events(h, NULL, 0, render_one, &rd);
	if (rd.werr)
		rc = fts_err_set(err, -rd.werr, "cannot write the text trace: %s", strerror(rd.werr));
	if (fclose(rd.out) != 0 && !rc) {
		int e = errno ? errno : EIO;
		rc = fts_err_set(err, -e, "cannot write the text trace: %s", strerror(e));
	}
	trace_seq_destroy(&rd.seq);
	tracecmd_close(h);
	if (stopped)
		*stopped = rd.stopped;
	return rc;
}
