// SPDX-License-Identifier: MIT
/*
 * cmd_api.c - `ftscope api-serve KIND PARENT`: one handle of the binding API
 * (ftscope/api.h) served over a pipe, for the Python package when it carries
 * this static binary instead of libftscope.so (python/ftscope/_lib.py, the
 * wheel: docs/wheel.md). Internal: not in the help, not for people.
 *
 * One server per handle: KIND is rec, conv, st or pm; PARENT the pid of the
 * Python process, which must still be our parent. The protocol is a line per
 * request on stdin and a line per reply on stdout; fields are separated by
 * one space and percent-encoded (every byte outside '!'..'~', and '%' and
 * '~', as %XX), so any path's bytes, UTF-8 or not, come through exactly; a
 * lone "~" is NULL. A NUL byte (%00) is refused: the C API cannot take it.
 *
 *   hello (sent first)   ftscope-api 1 VERSION
 *   set KEY VALUE        RC
 *   error                0 MESSAGE
 *   start | running      RC                        (rec, pm)
 *   health               0 JSON|~                  (rec)
 *   stop [MODE]          RC SUMMARY|~              (rec with MODE; pm without)
 *   snapshot REASON LAST RC DIR|~                  (rec)
 *   run                  RC JSON|~                 (conv, st)
 *   free                 0, then the server exits
 *
 * A conversion is cancelled by SIGUSR2 (fts_conv_cancel), since the server
 * reads no request while it runs. When the Python process goes (end of
 * stdin, or PR_SET_PDEATHSIG once the parent process itself is gone), or on
 * SIGTERM, a running capture or pid mapper is stopped as the guard would
 * stop it ("drain": the file is saved, the tracefs instance removed), a
 * conversion is cancelled, and the server exits. The server leaves the
 * Python process's process group, and ignores SIGINT and SIGQUIT: Ctrl+C
 * and group-wide signals belong to the Python process, whose guard stops
 * captures through the pipe.
 */
#include "cli/commands.h"
#include "app/msg.h"
#include <ftscope/api.h>
#include <ftscope/version.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define API_PROTO "ftscope-api 1"

enum api_kind_id { K_REC, K_CONV, K_ST, K_PM };

struct api_srv {
	enum api_kind_id kind;
	union {
		struct fts_rec *rec;
		struct fts_conv *conv;
		struct fts_st *st;
		struct fts_pm *pm;
	} h;
	pthread_mutex_t lock;   /* around every call on the handle: the main loop's and the ending's */
	pthread_mutex_t cancel_lock; /* around cancelling (never waits for a run) and freeing */
	int freed;              /* "free" was served: a late signal must not touch the handle */
	pid_t parent;
	FILE *out;              /* the replies (our stdout); fd 1 itself goes to stderr */
};

/* One request's fields, decoded in place; NULL for "~". */
#define API_MAX_FIELDS 4
struct api_req {
	char *f[API_MAX_FIELDS];
	int n;
};

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode one field in place; -1 on a bad escape or a NUL byte. */
static int field_decode(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (*r != '%') {
			*w++ = *r;
			continue;
		}
		int hi = hexval((unsigned char)r[1]), lo = hi < 0 ? -1 : hexval((unsigned char)r[2]);

		if (lo < 0 || (hi | lo) == 0)
			return -1;
		*w++ = (char)(hi << 4 | lo);
		r += 2;
	}
	*w = '\0';
	return 0;
}

/* Split @line (its newline removed) into fields; -1 when malformed or too many. */
static int req_parse(char *line, struct api_req *q)
{
	char *p = line;

	q->n = 0;
	for (;;) {
		char *sp = strchr(p, ' ');

		if (q->n == API_MAX_FIELDS)
			return -1;
		if (sp)
			*sp = '\0';
		if (!strcmp(p, "~"))
			q->f[q->n++] = NULL;
		else if (field_decode(p) < 0)
			return -1;
		else
			q->f[q->n++] = p;
		if (!sp)
			return 0;
		p = sp + 1;
	}
}

static void field_put(FILE *f, const char *s)
{
	if (!s) {
		fputs(" ~", f);
		return;
	}
	fputc(' ', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p > ' ' && *p < 0x7f && *p != '%' && *p != '~')
			fputc(*p, f);
		else
			fprintf(f, "%%%02X", *p);
	}
}

/* Write "RC[ FIELD]\n"; -1 when the reader is gone. */
static int reply(struct api_srv *s, int rc, int with_field, const char *field)
{
	fprintf(s->out, "%d", rc);
	if (with_field)
		field_put(s->out, field);
	fputc('\n', s->out);
	return fflush(s->out) == 0 && !ferror(s->out) ? 0 : -1;
}

static int h_set(struct api_srv *s, const char *k, const char *v)
{
	switch (s->kind) {
	case K_REC: return fts_rec_set(s->h.rec, k, v);
	case K_CONV: return fts_conv_set(s->h.conv, k, v);
	case K_ST: return fts_st_set(s->h.st, k, v);
	case K_PM: return fts_pm_set(s->h.pm, k, v);
	}
	return -EINVAL;
}

static const char *h_error(const struct api_srv *s)
{
	switch (s->kind) {
	case K_REC: return fts_rec_error(s->h.rec);
	case K_CONV: return fts_conv_error(s->h.conv);
	case K_ST: return fts_st_error(s->h.st);
	case K_PM: return fts_pm_error(s->h.pm);
	}
	return "";
}

static void h_free(struct api_srv *s)
{
	switch (s->kind) {
	case K_REC: fts_rec_free(s->h.rec); break;
	case K_CONV: fts_conv_free(s->h.conv); break;
	case K_ST: fts_st_free(s->h.st); break;
	case K_PM: fts_pm_free(s->h.pm); break;  /* stops a running mapper, writing its file */
	}
}

/*
 * The handle's end when the Python process is gone: a running capture is
 * stopped as its guard would ("drain": every buffered event saved), where
 * fts_rec_free alone would cut it short ("fast").
 */
static void h_end(struct api_srv *s)
{
	if (s->freed)
		return;
	if (s->kind == K_REC && fts_rec_running(s->h.rec))
		fts_rec_stop(s->h.rec, "drain", NULL);
	h_free(s);
}

static int h_new(struct api_srv *s, const char *kind)
{
	static const char *const names[] = { "rec", "conv", "st", "pm" };

	for (int k = K_REC; k <= K_PM; k++) {
		if (strcmp(kind, names[k]))
			continue;
		s->kind = (enum api_kind_id)k;
		switch (s->kind) {
		case K_REC: return (s->h.rec = fts_rec_new()) ? 0 : -ENOMEM;
		case K_CONV: return (s->h.conv = fts_conv_new()) ? 0 : -ENOMEM;
		case K_ST: return (s->h.st = fts_st_new()) ? 0 : -ENOMEM;
		case K_PM: return (s->h.pm = fts_pm_new()) ? 0 : -ENOMEM;
		}
	}
	return -EINVAL;
}

/* A call that gives back an allocated string: reply with it, then free it. */
static int reply_take(struct api_srv *s, int rc, int with_field, char *text)
{
	int w = reply(s, rc, with_field, text);

	fts_api_free(text);
	return w;
}

static int parse_seconds(const char *v, double *out)
{
	char *end;

	if (!v || !*v)
		return -1;
	errno = 0;
	*out = strtod(v, &end);
	return *end || errno ? -1 : 0;
}

/*
 * One request, answered; 1 after "free", 0 to go on, -1 on a malformed
 * request or a reader gone. The handle's calls are made under s->lock;
 * the reply is written without it, so an ending never waits on a full pipe.
 */
static int serve_one(struct api_srv *s, const struct api_req *q)
{
	const char *verb = q->f[0] ? q->f[0] : "";
	char *text = NULL;
	double last;
	int rc = -EINVAL, field = 0;

	pthread_mutex_lock(&s->lock);
	if (!strcmp(verb, "set") && q->n == 3 && q->f[1]) {
		rc = h_set(s, q->f[1], q->f[2]);
	} else if (!strcmp(verb, "error") && q->n == 1) {
		const char *m = h_error(s);

		/* copied under the lock: the message lives in the handle */
		text = strdup(m ? m : "");
		rc = text ? 0 : -ENOMEM;
		field = 1;
	} else if (!strcmp(verb, "start") && q->n == 1 && (s->kind == K_REC || s->kind == K_PM)) {
		rc = s->kind == K_REC ? fts_rec_start(s->h.rec) : fts_pm_start(s->h.pm);
	} else if (!strcmp(verb, "running") && q->n == 1 && (s->kind == K_REC || s->kind == K_PM)) {
		rc = s->kind == K_REC ? fts_rec_running(s->h.rec) : fts_pm_running(s->h.pm);
	} else if (!strcmp(verb, "health") && q->n == 1 && s->kind == K_REC) {
		text = fts_rec_health_json(s->h.rec);
		rc = 0;
		field = 1;
	} else if (!strcmp(verb, "stop") && q->n == 2 && s->kind == K_REC) {
		rc = fts_rec_stop(s->h.rec, q->f[1], &text);
		field = 1;
	} else if (!strcmp(verb, "stop") && q->n == 1 && s->kind == K_PM) {
		rc = fts_pm_stop(s->h.pm);
	} else if (!strcmp(verb, "snapshot") && q->n == 3 && s->kind == K_REC &&
		   !parse_seconds(q->f[2], &last)) {
		rc = fts_rec_snapshot(s->h.rec, q->f[1], last, &text);
		field = 1;
	} else if (!strcmp(verb, "run") && q->n == 1 && (s->kind == K_CONV || s->kind == K_ST)) {
		rc = s->kind == K_CONV ? fts_conv_run(s->h.conv, &text) : fts_st_run(s->h.st, &text);
		field = 1;
	} else if (!strcmp(verb, "free") && q->n == 1) {
		pthread_mutex_lock(&s->cancel_lock);
		h_free(s);
		s->freed = 1;
		pthread_mutex_unlock(&s->cancel_lock);
		pthread_mutex_unlock(&s->lock);
		reply(s, 0, 0, NULL);
		return 1;
	} else {
		pthread_mutex_unlock(&s->lock);
		fts_msg_err("api-serve", "malformed request '%s' (%d fields)", verb, q->n);
		return -1;
	}
	pthread_mutex_unlock(&s->lock);
	return reply_take(s, rc, field, text) < 0 ? -1 : 0;
}

/* fts_conv_cancel from the signal thread, while a run may hold s->lock. */
static void conv_cancel(struct api_srv *s)
{
	pthread_mutex_lock(&s->cancel_lock);
	if (s->kind == K_CONV && !s->freed)
		fts_conv_cancel(s->h.conv);
	pthread_mutex_unlock(&s->cancel_lock);
}

/* The end for every reason but "free": stop what runs, free, exit. */
static void __attribute__((noreturn)) srv_end(struct api_srv *s, int status)
{
	conv_cancel(s);  /* a run in the main loop returns soon, leaving nothing */
	pthread_mutex_lock(&s->lock);
	h_end(s);
	_exit(status);
}

/*
 * The signals, taken here rather than in handlers: SIGUSR2 cancels a
 * conversion; SIGTERM ends; SIGHUP (PR_SET_PDEATHSIG, or a hangup) ends
 * only once the Python process is gone: the death signal also comes when
 * just the thread that started us exits.
 */
static void *signal_thread(void *arg)
{
	struct api_srv *s = arg;
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	for (;;) {
		if (sigwait(&set, &sig))
			continue;
		if (sig == SIGUSR2)
			conv_cancel(s);
		else if (sig == SIGTERM || (sig == SIGHUP && getppid() != s->parent))
			srv_end(s, 0);
	}
	return NULL;
}

/* Replies on a private copy of stdout; fd 1 becomes stderr, so nothing else can write into the protocol. */
static int srv_streams(struct api_srv *s)
{
	int fd = dup(STDOUT_FILENO);

	if (fd < 0 || !(s->out = fdopen(fd, "w")) || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		return -1;
	return 0;
}

static int srv_setup(struct api_srv *s, int argc, char **argv)
{
	sigset_t set;
	pthread_t t;
	char *end;
	long ppid;

	if (argc != 3 || h_new(s, argv[1]) < 0) {
		fts_msg_err("api-serve", "internal: the Python package runs this (usage: api-serve rec|conv|st|pm PARENT)");
		return 2;
	}
	ppid = strtol(argv[2], &end, 10);
	s->parent = (pid_t)ppid;
	/* the parent asked for may be gone before the death signal was armed */
	if (*end || ppid <= 1 || prctl(PR_SET_PDEATHSIG, SIGHUP) || getppid() != s->parent) {
		fts_msg_err("api-serve", "the process that started this server (%s) is gone", argv[2]);
		return 1;
	}
	/*
	 * Out of the Python process's group: a terminal's Ctrl+C or hangup, or
	 * a scheduler's `kill -TERM -PGID`, reaches Python, whose guard stops the
	 * capture through us; had it reached us too, we would end under it.
	 */
	setpgid(0, 0);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTTOU, SIG_IGN);  /* a background group may still write its stderr */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	/* taken by sigwait; a SIG_IGN inherited from the Python process (nohup) must not drop them */
	signal(SIGUSR2, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (pthread_mutex_init(&s->lock, NULL) || pthread_mutex_init(&s->cancel_lock, NULL) ||
	    srv_streams(s) || pthread_create(&t, NULL, signal_thread, s)) {
		fts_msg_err("api-serve", "cannot set up: %s", strerror(errno));
		return 1;
	}
	pthread_detach(t);
	return 0;
}

int fts_cmd_api_serve(int argc, char **argv)
{
	static struct api_srv srv;
	struct api_req q;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = srv_setup(&srv, argc, argv);

	if (rc)
		return rc;
	fputs(API_PROTO, srv.out);
	field_put(srv.out, fts_version());
	fputc('\n', srv.out);
	if (fflush(srv.out))
		srv_end(&srv, 1);
	while ((n = getline(&line, &cap, stdin)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (req_parse(line, &q) < 0) {
			fts_msg_err("api-serve", "malformed request: a bad %%XX escape, a NUL byte, or too many fields");
			rc = -1;
		} else {
			rc = serve_one(&srv, &q);
		}
		if (rc == 1) {
			free(line);
			return 0;
		}
		if (rc < 0)
			break;
	}
	free(line);
	/* stdin ended (the Python process is gone) or a request was malformed */
	srv_end(&srv, rc < 0 ? 1 : 0);
}
