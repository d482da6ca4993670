#include "opts.h"

#include <errno.h>
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
		fprintf(stderr, "ftscope %s: unexpected argument '%s' (see 'ftscope %s --help')\n",
			o->cmd, a, o->cmd);
		return -2;
	}
	if (a[1] != '-') {
		for (s = spec; s->name; s++) {
			if (s->short_name && s->short_name == a[1])
				break;
		}
		if (!s->name || (a[2] != '\0' && !s->has_arg)) {
			fprintf(stderr, "ftscope %s: unknown option '%s' (see 'ftscope %s --help')\n",
				o->cmd, a, o->cmd);
			return -2;
		}
		if (s->has_arg) {
			if (a[2] != '\0')
				o->arg = a + 2;
			else if (o->index < o->argc)
				o->arg = o->argv[o->index++];
			else {
				fprintf(stderr, "ftscope %s: option '%s' needs a value\n", o->cmd, a);
				return -2;
			}
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
		fprintf(stderr, "ftscope %s: unknown option '--%.*s' (see 'ftscope %s --help')\n",
			o->cmd, (int)len, a, o->cmd);
		return -2;
	}
	if (!s->has_arg) {
		if (eq) {
			fprintf(stderr, "ftscope %s: option '--%s' takes no value\n", o->cmd, s->name);
			return -2;
		}
		return s->id;
	}
	if (eq)
		o->arg = eq + 1;
	else if (o->index < o->argc)
		o->arg = o->argv[o->index++];
	else {
		fprintf(stderr, "ftscope %s: option '--%s' needs a value\n", o->cmd, s->name);
		return -2;
	}
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
