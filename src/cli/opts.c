// SPDX-License-Identifier: MIT
#include "cli/opts.h"
#include "app/msg.h"
#include <ftscope/event.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fts_opts_init(struct fts_opts *o, const char *cmd, int argc, char **argv)
{
	o->argc = argc;
	o->argv = argv;
	o->index = 1;
	o->arg = NULL;
	o->cmd = cmd;
}

/* Compare an argv long name (dashes or underscores) with a spec name. */
static int name_eq(const char *arg, size_t len, const char *spec)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char c = arg[i] == '-' ? '_' : arg[i];
		if (spec[i] == '\0' || c != spec[i])
			return 0;
	}
	return spec[i] == '\0';
}

/* No option takes an empty value: `-o ""` is a slip (an unset variable), not a name. */
static int empty_value(struct fts_opts *o, const struct fts_opt_spec *s)
{
	fts_msg_err(o->cmd, "option '--%s' needs a value, not an empty string", s->name);
	o->arg = NULL;
	return -2;
}

int fts_opts_next(struct fts_opts *o, const struct fts_opt_spec *spec)
{
	const char *a, *eq;
	const struct fts_opt_spec *s;
	size_t len;

	o->arg = NULL;
	if (o->index >= o->argc)
		return -1;
	a = o->argv[o->index++];
	if (a[0] != '-' || a[1] == '\0') {
		fts_msg_err(o->cmd, "unexpected argument '%s' (see 'ftscope %s --help')", a, o->cmd);
		return -2;
	}
	if (a[1] != '-') {
		for (s = spec; s->name; s++) {
			if (s->short_name && s->short_name == a[1])
				break;
		}
		if (!s->name || (a[2] != '\0' && !s->has_arg)) {
			fts_msg_err(o->cmd, "unknown option '%s' (see 'ftscope %s --help')", a, o->cmd);
			return -2;
		}
		if (s->has_arg) {
			if (a[2] != '\0')
				o->arg = a + 2;
			else if (o->index < o->argc)
				o->arg = o->argv[o->index++];
			else {
				fts_msg_err(o->cmd, "option '%s' needs a value", a);
				return -2;
			}
			if (!o->arg[0])
				return empty_value(o, s);
		}
		return s->id;
	}
	a += 2;
	eq = strchr(a, '=');
	len = eq ? (size_t)(eq - a) : strlen(a);
	for (s = spec; s->name; s++) {
		if (name_eq(a, len, s->name))
			break;
	}
	if (!s->name) {
		fts_msg_err(o->cmd, "unknown option '--%.*s' (see 'ftscope %s --help')", (int)len, a,
			    o->cmd);
		return -2;
	}
	if (!s->has_arg) {
		if (eq) {
			fts_msg_err(o->cmd, "option '--%s' takes no value", s->name);
			return -2;
		}
		return s->id;
	}
	if (eq)
		o->arg = eq + 1;
	else if (o->index < o->argc)
		o->arg = o->argv[o->index++];
	else {
		fts_msg_err(o->cmd, "option '--%s' needs a value", s->name);
		return -2;
	}
	if (!o->arg[0])
		return empty_value(o, s);
	return s->id;
}

int fts_parse_int(const char *s, long long *out)
{
	char *end;
	long long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

int fts_parse_seconds(const char *s, double max, double *out)
{
	char *end;
	double v;

	if (!s || !(isdigit((unsigned char)*s) || *s == '.'))
		return -1;   /* no sign, no leading space */
	errno = 0;
	v = strtod(s, &end);
	/* strtod takes "nan", "inf" and hex floats: only finite values in range */
	if (errno || *end != '\0' || !isfinite(v) || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

const char *fts_opts_output_hint(int rc, const char *msg, const char *output)
{
	if (rc != -ELOOP && rc != -ENOSPC)
		return "";
	if (!output || strncmp(msg, output, strlen(output)) != 0)
		return "";
	return " (choose another --output)";
}

/* ---- record --events ------------------------------------------------------ */

#define EV_ROW(kind, group, sys, name, ...) { #group, sys "/" name },
static const struct { const char *group, *event; } ev_table[] = { FTS_EVENT_TABLE(EV_ROW) };
#undef EV_ROW
#define EV_COUNT ((int)(sizeof(ev_table) / sizeof(ev_table[0])))

const char *fts_events_name(int i)
{
	return i >= 0 && i < EV_COUNT ? ev_table[i].event : NULL;
}

/* The table entries @word names (a group, system:event, system/event or event), as bits. */
static unsigned long long ev_match(const char *word, size_t n)
{
	unsigned long long bits = 0;

	for (int i = 0; i < EV_COUNT; i++) {
		const char *ev = ev_table[i].event, *name = strchr(ev, '/') + 1;
		size_t k = 0;

		if (strlen(ev_table[i].group) == n && !strncmp(word, ev_table[i].group, n))
			bits |= 1ull << i;
		if (strlen(name) == n && !strncmp(word, name, n))
			bits |= 1ull << i;
		while (k < n && ev[k] && (word[k] == ev[k] || (word[k] == ':' && ev[k] == '/')))
			k++;
		if (k == n && !ev[k])
			bits |= 1ull << i;
	}
	return bits;
}

static int ev_is_group(const char *word, size_t n)
{
	for (int i = 0; i < EV_COUNT; i++)
		if (strlen(ev_table[i].group) == n && !strncmp(word, ev_table[i].group, n))
			return 1;
	return 0;
}

int fts_parse_events(const char *spec, struct fts_events_choice *c, char *msg, size_t len)
{
	const char *p = spec;

	c->chosen = c->named = 0;
	if (!spec || !*spec) {
		snprintf(msg, len, "the event list is empty (e.g. sched,irq,-sched:sched_stat_runtime)");
		return -1;
	}
	for (;;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		int remove = n && *p == '-';
		const char *w = p + remove;
		size_t wn = n - (size_t)remove;
		unsigned long long bits = wn ? ev_match(w, wn) : 0;

		if (!wn) {
			snprintf(msg, len, "an empty entry in the event list '%s'", spec);
			return -1;
		}
		if (!bits) {
			snprintf(msg, len, "no event group '%.*s' (sched, irq, futex), nor an event ftscope "
				 "records (system:event, as `ftscope record --list-events sched irq futex` "
				 "lists them)", (int)(wn > 64 ? 64 : wn), w);
			return -1;
		}
		if (remove) {
			c->chosen &= ~bits;
			c->named &= ~bits;
		} else {
			c->chosen |= bits;
			if (!ev_is_group(w, wn))
				c->named |= bits;
		}
		if (!end)
			return 0;
		p = end + 1;
	}
}

int fts_events_apply(const struct fts_events_choice *c, int *sched, int *irq, int *futex,
		     char *exclude, size_t len)
{
	size_t used = 0;

	*sched = *irq = *futex = 0;
	if (len)
		exclude[0] = '\0';
	if (!c->chosen)
		return -1;
	for (int i = 0; i < EV_COUNT; i++) {
		if (!(c->chosen >> i & 1))
			continue;
		*sched |= !strcmp(ev_table[i].group, "sched");
		*irq |= !strcmp(ev_table[i].group, "irq");
		*futex |= !strcmp(ev_table[i].group, "futex");
	}
	for (int i = 0; i < EV_COUNT; i++) {
		const char *g = ev_table[i].group;
		int on = (*sched && !strcmp(g, "sched")) || (*irq && !strcmp(g, "irq")) ||
			 (*futex && !strcmp(g, "futex"));

		if (on && !(c->chosen >> i & 1) && used < len)
			used += (size_t)snprintf(exclude + used, len - used, "%s%s", used ? "," : "",
						 ev_table[i].event);
	}
	return 0;
}

/*
 * Option word @w takes the next word as its value: a known option with a
 * value and none attached. An unknown one does not: the word after it is
 * then the input, and the parser names the unknown option.
 */
static int takes_next(const char *w, const struct fts_opt_spec *spec)
{
	const char *a = w + 2;
	size_t len = strlen(a);

	if (w[0] != '-' || w[1] == '\0')
		return 0;
	if (w[1] != '-') {
		for (const struct fts_opt_spec *s = spec; s->name; s++)
			if (s->short_name && s->short_name == w[1])
				return s->has_arg && w[2] == '\0';
		return 0;
	}
	if (strchr(a, '='))
		return 0;
	for (const struct fts_opt_spec *s = spec; s->name; s++)
		if (name_eq(a, len, s->name))
			return s->has_arg;
	return 0;
}

int fts_opts_take_input(int *argc, char ***argv, const char **input,
			const struct fts_opt_spec *spec, void (*usage)(FILE *), const char *missing)
{
	char **av = *argv;
	int ac = *argc;

	*input = NULL;
	if (ac >= 2 && av[1][0] != '-') {
		*input = av[1];
		av[1] = av[0];
		(*argc)--;
		(*argv)++;
	} else if (ac >= 3 && av[ac - 1][0] != '-' && !takes_next(av[ac - 2], spec)) {
		*input = av[--(*argc)];
	}
	if (*input)
		return 0;
	for (int i = 1; i < ac; i++)
		if (!strcmp(av[i], "-h") || !strcmp(av[i], "--help")) {
			usage(stdout);
			return -1;
		}
	fprintf(stderr, "%s\n", missing);
	return 2;
}
