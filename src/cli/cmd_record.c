/*
 * cmd_record.c - `ftscope record`: the reference recorder's flags over the
 * recorder API, a compact live status, and stopping on --record_time,
 * Ctrl+C, SIGTERM and SIGHUP (a second Ctrl+C skips draining).
 */
#include "commands.h"
#include "opts.h"
#include "term_safe.h"
#include <ftscope/error.h>
#include <ftscope/record.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t g_stop_signal;
static volatile sig_atomic_t g_stop_count;
static volatile sig_atomic_t g_hangup;

static void on_signal(int sig)
{
	g_stop_signal = sig;
	g_stop_count++;
	if (sig == SIGHUP)
		g_hangup = 1;
}

enum { O_CPU = 1, O_OUTPUT, O_TIME, O_BF, O_BACKEND, O_SCHED, O_IRQ, O_FUTEX, O_NSPID,
       O_PIDMAP, O_QUIET, O_HELP };

static const struct fts_opt_spec record_opts[] = {
	{ "cpu", 0, 1, O_CPU },
	{ "output", 'o', 1, O_OUTPUT },
	{ "record_time", 't', 1, O_TIME },
	{ "bf_size", 0, 1, O_BF },
	{ "backend", 0, 1, O_BACKEND },
	{ "sched", 0, 1, O_SCHED },
	{ "irq", 0, 1, O_IRQ },
	{ "futex", 0, 1, O_FUTEX },
	{ "NSpid", 0, 0, O_NSPID },
	{ "nspid", 0, 0, O_NSPID },
	{ "pid_mapping", 0, 1, O_PIDMAP },
	{ "quiet", 'q', 0, O_QUIET },
	{ "help", 'h', 0, O_HELP },
	{ NULL, 0, 0, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ftscope record [options]\n"
		"Record scheduler and interrupt events through a private tracefs instance.\n\n"
		"  --cpu LIST          CPUs to record: 0,1,4 or 0-3,8 (default: all online)\n"
		"  --output FILE       trace.dat (default) or a .txt name for kernel text\n"
		"  --record_time SECS  stop after SECS seconds; <= 0 records until Ctrl+C (default 30)\n"
		"  --bf_size KB        per-CPU ring buffer in KB (default 40960)\n"
		"  --backend NAME      auto (default: native), tracefs (alias debugfs), trace-cmd\n"
		"  --sched 0|1         scheduler events (default 1)\n"
		"  --irq 0|1           hard and soft irq events (default 1)\n"
		"  --futex 0|1         futex syscall events, when the kernel has them (default 0)\n"
		"  --NSpid             also write the host pid -> container pid mapping\n"
		"  --pid_mapping FILE  where it goes (default pid_mapping.json beside the output)\n"
		"  --quiet             no live status, only warnings and the summary\n\n"
		"Stops on --record_time, Ctrl+C, SIGTERM or SIGHUP and saves a complete file;\n"
		"a second Ctrl+C skips draining the ring buffers.\n");
}

static int parse_bool(const char *name, const char *v, int *out)
{
	if (!strcmp(v, "0") || !strcmp(v, "1")) {
		*out = v[0] - '0';
		return 0;
	}
	fprintf(stderr, "ftscope record: --%s takes 0 or 1, not '%s'\n", name, v);
	return -1;
}

static const char *human(double v, char *buf, size_t len)
{
	const char *u[] = { "", "k", "M", "G", "T" };
	int i = 0;

	while (v >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, i ? "%.1f%s" : "%.0f%s", v, u[i]);
	return buf;
}

static const char *bytes_h(double v, char *buf, size_t len)
{
	const char *u[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int i = 0;

	while (v >= 1024 && i < 4) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%.1f %s", v, u[i]);
	return buf;
}

static void show_status(const struct fts_record_health *h, int tty)
{
	char a[32], b[32];

	if (h->ncpus <= 16) {
		for (int i = 0; i < h->ncpus; i++) {
			const struct fts_record_cpu_health *c = &h->cpu[i];
			fprintf(stderr, "  cpu%-3d %8s ev/s %9s ev  %10s  fill %3.0f%%  lost %llu%s\n",
				c->cpu, human(c->events_per_s, a, sizeof(a)), human((double)c->events, b, sizeof(b)),
				bytes_h((double)c->bytes_written, (char[32]){ 0 }, 32), c->fill * 100,
				(unsigned long long)c->lost, c->lost_delta ? " (+NEW)" : "");
		}
	} else {
		/* Many CPUs: totals and the three worst. */
		int worst[3] = { -1, -1, -1 };

		for (int i = 0; i < h->ncpus; i++) {
			for (int k = 0; k < 3; k++) {
				int w = worst[k];
				if (w < 0 || h->cpu[i].lost > h->cpu[w].lost ||
				    (h->cpu[i].lost == h->cpu[w].lost && h->cpu[i].fill > h->cpu[w].fill)) {
					memmove(&worst[k + 1], &worst[k], (size_t)(2 - k) * sizeof(int));
					worst[k] = i;
					break;
				}
			}
		}
		fprintf(stderr, "  worst:");
		for (int k = 0; k < 3 && worst[k] >= 0; k++)
			fprintf(stderr, " cpu%d fill %.0f%% lost %llu;", h->cpu[worst[k]].cpu,
				h->cpu[worst[k]].fill * 100, (unsigned long long)h->cpu[worst[k]].lost);
		fputc('\n', stderr);
	}
	fprintf(stderr, "%s %6.1fs  %s ev/s  %s events  %s written  lost %llu%s",
		tty ? "\r" : "", h->elapsed_s, human(h->events_per_s, a, sizeof(a)),
		human((double)h->events, b, sizeof(b)), bytes_h((double)h->bytes_written, (char[32]){ 0 }, 32),
		(unsigned long long)h->lost, tty ? "\n" : "\n");
	if (tty && h->ncpus)
		fprintf(stderr, "\033[%dA", (h->ncpus <= 16 ? h->ncpus : 1) + 1);
}

static void show_loss(const struct fts_record_health *h, unsigned bf)
{
	for (int i = 0; i < h->ncpus; i++) {
		const struct fts_record_cpu_health *c = &h->cpu[i];
		if (!c->lost_delta)
			continue;
		fprintf(stderr, "ftscope record: LOST %llu events on CPU %d (ring buffer full: overrun %llu, "
			"commit overrun %llu, dropped %llu); try a bigger --bf_size (now %u KB) or fewer "
			"CPUs/events\n", (unsigned long long)c->lost_delta, c->cpu,
			(unsigned long long)c->overrun, (unsigned long long)c->commit_overrun,
			(unsigned long long)c->dropped, bf);
	}
}

static void show_summary(const struct fts_record_summary *s, unsigned bf)
{
	char a[32], b[32];

	fprintf(stderr, "recorded %.1f s, %s events, %llu lost, ", s->duration_s,
		human((double)s->health.events, a, sizeof(a)), (unsigned long long)s->health.lost);
	fts_fputs_safe(stderr, s->output);
	fprintf(stderr, " (%s)\n", bytes_h((double)s->file_size, b, sizeof(b)));
	for (int i = 0; s->cpu && i < s->health.ncpus; i++)
		fprintf(stderr, "  cpu%-3d %10llu events  %10llu lost  %s streamed\n", s->cpu[i].cpu,
			(unsigned long long)s->cpu[i].events, (unsigned long long)s->cpu[i].lost,
			bytes_h((double)s->cpu[i].bytes_written, a, sizeof(a)));
	if (s->health.lost)
		fprintf(stderr, "warning: %llu events were lost (total_loss_counters); increase --bf_size "
			"(now %u KB) or record fewer CPUs/events\n", (unsigned long long)s->health.lost, bf);
	if (s->pid_mapping[0]) {
		fprintf(stderr, "pid mapping: ");
		fts_fputs_safe(stderr, s->pid_mapping);
		fputc('\n', stderr);
	}
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A dropped SSH session turns terminal writes into EPIPE/EIO, not a kill. */
	signal(SIGPIPE, SIG_IGN);
}

/* Replace ".dat" by ".txt" for the text-only debugfs habit. */
static const char *rewrite_txt(const char *out, char *buf, size_t len)
{
	size_t n = strlen(out);

	if (n >= 4 && !strcmp(out + n - 4, ".dat")) {
		snprintf(buf, len, "%.*s.txt", (int)(n - 4), out);
		fprintf(stderr, "ftscope record: warning: the debugfs backend writes text; output renamed to ");
		fts_fputs_safe(stderr, buf);
		fputc('\n', stderr);
		return buf;
	}
	return out;
}

int fts_cmd_record(int argc, char **argv)
{
	struct fts_record_opts o;
	struct fts_opts p;
	struct fts_err err = { 0 };
	struct fts_recorder *r = NULL;
	struct fts_record_summary sum;
	long long record_time = 30, v;
	int id, quiet = 0, debugfs = 0, tty, rc;
	const char *backend_name = "auto";
	char txtbuf[4096];
	uint64_t last_status = 0;
	struct timespec t0, now;

	fts_record_opts_init(&o);
	fts_opts_init(&p, "record", argc, argv);
	while ((id = fts_opts_next(&p, record_opts)) != -1) {
		switch (id) {
		case -2:
			return 2;
		case O_CPU: o.cpus = p.arg; break;
		case O_OUTPUT: o.output = p.arg; break;
		case O_TIME:
			if (fts_parse_int(p.arg, &record_time)) {
				fprintf(stderr, "ftscope record: --record_time takes whole seconds, not '%s'\n", p.arg);
				return 2;
			}
			break;
		case O_BF:
			if (fts_parse_int(p.arg, &v) || v <= 0 || v > (1 << 22)) {
				fprintf(stderr, "ftscope record: --bf_size takes KB per CPU (1..4194304), not '%s'\n", p.arg);
				return 2;
			}
			o.bf_size_kb = (unsigned)v;
			break;
		case O_BACKEND:
			backend_name = p.arg;
			if (!strcmp(p.arg, "auto"))
				o.backend = FTS_BACKEND_AUTO;
			else if (!strcmp(p.arg, "tracefs"))
				o.backend = FTS_BACKEND_TRACEFS;
			else if (!strcmp(p.arg, "debugfs")) {
				o.backend = FTS_BACKEND_TRACEFS;
				debugfs = 1;
			} else if (!strcmp(p.arg, "trace-cmd") || !strcmp(p.arg, "trace_cmd"))
				o.backend = FTS_BACKEND_TRACE_CMD;
			else {
				fprintf(stderr, "ftscope record: --backend is auto, tracefs, debugfs or trace-cmd\n");
				return 2;
			}
			break;
		case O_SCHED: if (parse_bool("sched", p.arg, &o.sched)) return 2; break;
		case O_IRQ: if (parse_bool("irq", p.arg, &o.irq)) return 2; break;
		case O_FUTEX: if (parse_bool("futex", p.arg, &o.futex)) return 2; break;
		case O_NSPID: o.nspid = 1; break;
		case O_PIDMAP: o.pid_mapping = p.arg; break;
		case O_QUIET: quiet = 1; break;
		case O_HELP: usage(stdout); return 0;
		}
	}
	(void)backend_name;
	if (debugfs)
		o.output = o.output ? rewrite_txt(o.output, txtbuf, sizeof(txtbuf)) : "trace.txt";

	install_signals();
	rc = fts_record_start(&o, &r, &err);
	if (rc && o.backend == FTS_BACKEND_AUTO) {
		/* auto: native first; trace-cmd only when the native backend cannot work here. */
		struct fts_err e2 = { 0 };
		if (rc != -EPERM && rc != -EINVAL && rc != -ENODEV) {
			o.backend = FTS_BACKEND_TRACE_CMD;
			if (fts_record_start(&o, &r, &e2) == 0)
				rc = 0;
			else
				fprintf(stderr, "ftscope record: %s\n", e2.msg);
		}
	}
	if (rc) {
		fprintf(stderr, "ftscope record: ");
		fts_fputs_safe(stderr, err.msg);
		fputc('\n', stderr);
		return 1;
	}
	{
		struct fts_record_health h;
		fts_record_health(r, &h);
		if (h.skipped_events && *h.skipped_events)
			fprintf(stderr, "ftscope record: warning: this kernel lacks %s; recording without them\n",
				h.skipped_events);
		fprintf(stderr, "recording %d CPUs with %s into ", h.ncpus, h.backend);
		fts_fputs_safe(stderr, o.output ? o.output : "trace.dat");
		if (record_time > 0)
			fprintf(stderr, " for %lld s (Ctrl+C stops early)\n", record_time);
		else
			fprintf(stderr, " until Ctrl+C\n");
	}
	tty = isatty(2) && !quiet;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!g_stop_signal) {
		struct fts_record_health h;
		double el;
		uint64_t ms;

		nanosleep(&(struct timespec){ 0, 100000000L }, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		el = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9;
		ms = (uint64_t)(el * 1000);
		if (record_time > 0 && el >= (double)record_time)
			break;
		if (ms - last_status < 500 && last_status)
			continue;
		last_status = ms;
		fts_record_health(r, &h);
		if (!g_hangup) {
			show_loss(&h, o.bf_size_kb ? o.bf_size_kb : 40960);
			if (!quiet && (tty || ms % 5000 < 500))
				show_status(&h, tty);
		}
		if (h.failed) {
			if (!g_hangup)
				fprintf(stderr, "%sftscope record: %s; stopping and saving what was recorded\n",
					tty ? "\033[J" : "", h.failure);
			break;
		}
	}
	if (tty && !g_hangup)
		fprintf(stderr, "\033[J");
	if (g_stop_signal && !g_hangup)
		fprintf(stderr, "ftscope record: %s, stopping (Ctrl+C again to skip draining)\n",
			g_stop_signal == SIGINT ? "interrupted" : "terminated");
	rc = fts_record_stop(r, g_stop_count >= 2 ? FTS_STOP_FAST : FTS_STOP_DRAIN, &sum, &err);
	if (!g_hangup) {
		if (rc) {
			fprintf(stderr, "ftscope record: ");
			fts_fputs_safe(stderr, err.msg);
			fputc('\n', stderr);
		} else {
			show_summary(&sum, o.bf_size_kb ? o.bf_size_kb : 40960);
			if (sum.truncated) {
				fprintf(stderr, "ftscope record: the capture was cut short (");
				fts_fputs_safe(stderr, sum.failure);
				fprintf(stderr, "); the file holds what was recorded until then\n");
			}
		}
	}
	fts_record_summary_release(&sum);
	return rc ? 1 : (sum.truncated ? 3 : 0);
}
