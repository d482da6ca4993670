// SPDX-License-Identifier: MIT
/*
 * trigger.c - the flight recorder's triggers: their syntax and the test of
 * one model item against them. The live top's decoder (top_engine.c) hands
 * every task-lane item here, so a scheduling trigger sees exactly the
 * Runnable slices `ftscope stats` would count, no second decoder. The
 * lost-events trigger ("lost") needs no decoder: the flight thread steps it
 * on the health sampler's lost total (flight.c).
 *
 *   lost                 new lost events (the kernel's counters)
 *   KIND>THRESHOLD[:FILTER]
 *   KIND       runnable (any wait on a run queue) or wakeup (the wait after
 *              a wakeup or fork: the wakeup latency)
 *   THRESHOLD  a number and a unit: 500us, 5ms, 0.2s (ns, us, ms, s)
 *   FILTER     comm=GLOB (fnmatch, the task's comm) or pid=N (a thread id)
 */
#include "core/record/record_local.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((format(printf, 3, 4)))
static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* "5ms" -> ns; 0 or -EINVAL. */
static int parse_threshold(const char *s, size_t n, uint64_t *ns)
{
	char buf[32], *end;
	double v, mul;

	if (!n || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = 0;
	v = strtod(buf, &end);
	if (end == buf || !isfinite(v) || v <= 0)
		return -EINVAL;
	if (!strcmp(end, "ns"))
		mul = 1;
	else if (!strcmp(end, "us"))
		mul = 1e3;
	else if (!strcmp(end, "ms"))
		mul = 1e6;
	else if (!strcmp(end, "s"))
		mul = 1e9;
	else
		return -EINVAL;
	if (v * mul < 1 || v * mul > 3600e9)   /* an hour: beyond that no segment ring holds it */
		return -EINVAL;
	*ns = (uint64_t)(v * mul);
	return 0;
}

int rec_trig_parse(const char *spec, struct rec_trig_rule *out, char *why, size_t len)
{
	const char *gt, *colon, *thr;
	size_t tl;

	memset(out, 0, sizeof(*out));
	if (!spec || !*spec)
		return bad(why, len, "a trigger is empty%s", "");
	if (strlen(spec) >= sizeof(out->text))
		return bad(why, len, "the trigger '%.60s...' is too long", spec);
	snprintf(out->text, sizeof(out->text), "%s", spec);
	if (!strcmp(spec, "lost")) {
		out->kind = REC_TRIG_LOST;
		return 0;
	}
	gt = strchr(spec, '>');
	if (gt && (size_t)(gt - spec) == 8 && !strncmp(spec, "runnable", 8))
		out->kind = REC_TRIG_RUNNABLE;
	else if (gt && (size_t)(gt - spec) == 6 && !strncmp(spec, "wakeup", 6))
		out->kind = REC_TRIG_WAKEUP;
	else
		return bad(why, len, "the trigger '%s' is not lost and does not start with runnable> or wakeup> "
			   "(lost, runnable>5ms:comm=python*, wakeup>2ms)", spec);
	thr = gt + 1;
	colon = strchr(thr, ':');
	tl = colon ? (size_t)(colon - thr) : strlen(thr);
	if (parse_threshold(thr, tl, &out->thr_ns))
		return bad(why, len, "the trigger '%s' needs a threshold with a unit after '>' "
			   "(500us, 5ms, 0.2s; at most 3600s)", spec);
	if (!colon)
		return 0;
	if (!strncmp(colon + 1, "comm=", 5)) {
		const char *g = colon + 6;

		if (!*g || strlen(g) >= sizeof(out->comm))
			return bad(why, len, "the trigger '%s' needs a comm pattern of 1 to 63 characters "
				   "after comm=", spec);
		snprintf(out->comm, sizeof(out->comm), "%s", g);
		return 0;
	}
	if (!strncmp(colon + 1, "pid=", 4)) {
		char *end;
		long v = strtol(colon + 5, &end, 10);

		if (end == colon + 5 || *end || v <= 0 || v > 4194304)
			return bad(why, len, "the trigger '%s' needs a thread id (1..4194304) after pid=", spec);
		out->pid = v;
		return 0;
	}
	return bad(why, len, "the trigger '%s' filters by comm=GLOB or pid=N after ':'", spec);
}

int rec_trig_parse_list(const char *list, struct rec_trig_rule **rules, int *n, struct fts_err *err)
{
	struct rec_trig_rule *v = NULL;
	const char *p = list;
	char why[256];
	int k = 0;

	*rules = NULL;
	*n = 0;
	if (!list || !*list)
		return 0;
	while (*p) {
		const char *semi = strchr(p, ';');
		size_t l = semi ? (size_t)(semi - p) : strlen(p);
		char one[sizeof(v->text)];
		struct rec_trig_rule *nv;

		if (l >= sizeof(one)) {
			free(v);
			return fts_err_set(err, -EINVAL, "the trigger '%.60s...' is too long", p);
		}
		memcpy(one, p, l);
		one[l] = 0;
		nv = realloc(v, (size_t)(k + 1) * sizeof(*v));
		if (!nv) {
			free(v);
			return fts_err_set(err, -ENOMEM, "out of memory");
		}
		v = nv;
		if (rec_trig_parse(one, &v[k], why, sizeof(why))) {
			free(v);
			return fts_err_set(err, -EINVAL, "%s", why);
		}
		k++;
		p += l + (semi ? 1 : 0);
	}
	*rules = v;
	*n = k;
	return 0;
}

int rec_trig_sched_count(const struct rec_trig_rule *rules, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += rules[i].kind != REC_TRIG_LOST;
	return k;
}

int rec_trig_lost_rule(const struct rec_trig_rule *rules, int n)
{
	for (int i = 0; i < n; i++)
		if (rules[i].kind == REC_TRIG_LOST)
			return i;
	return -1;
}

static const char *arg_of(const struct fts_item *it, const char *key)
{
	for (int i = 0; i < it->nargs; i++)
		if (it->args[i].key && !strcmp(it->args[i].key, key))
			return it->args[i].val;
	return NULL;
}

int rec_trig_match(const struct rec_trig_rule *r, const struct fts_item *it, const char *tid)
{
	const char *colon, *reason;
	char comm[64];
	size_t cl;

	if (r->kind == REC_TRIG_LOST || it->kind != FTS_ITEM_RUNNABLE || it->dur <= r->thr_ns || !tid)
		return 0;
	if (r->kind == REC_TRIG_WAKEUP) {
		reason = arg_of(it, "reason");
		if (!reason || (strcmp(reason, "wakeup") && strcmp(reason, "new")))
			return 0;
	}
	if (!r->comm[0] && !r->pid)
		return 1;
	/* the task lane's tid is "comm:pid"; the comm may hold ':' itself */
	colon = strrchr(tid, ':');
	if (!colon)
		return 0;
	if (r->pid)
		return strtol(colon + 1, NULL, 10) == r->pid;
	cl = (size_t)(colon - tid) < sizeof(comm) ? (size_t)(colon - tid) : sizeof(comm) - 1;
	memcpy(comm, tid, cl);
	comm[cl] = 0;
	return fnmatch(r->comm, comm, 0) == 0;
}

int fts_record_trigger_check(const char *spec, char *why, size_t len)
{
	struct rec_trig_rule r;

	if (spec && strchr(spec, ';'))
		return bad(why, len, "the trigger '%s' holds a ';', which separates triggers", spec);
	return rec_trig_parse(spec, &r, why, len);
}

void rec_trig_safe_text(const char *in, char *out, size_t len)
{
	size_t o = 0;

	/* a comm is the task's own choice: only printable ASCII leaves the recorder */
	for (const unsigned char *p = (const unsigned char *)in; *p && o + 1 < len; p++)
		out[o++] = *p >= 0x20 && *p < 0x7f ? (char)*p : '?';
	if (len)
		out[o] = 0;
}
