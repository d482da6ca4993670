/* SPDX-License-Identifier: MIT */
/*
 * opts.h - the command-line option parser every subcommand uses.
 *
 * Accepts the Python tools' spellings: `--name=value` and `--name value`, and
 * treats `-` and `_` in long names alike (`--profiling_data` ==
 * `--profiling-data`). Matching is exact after that folding; option names in
 * the spec are written with `_`.
 */
#ifndef FTS_CLI_OPTS_H
#define FTS_CLI_OPTS_H

#include <stddef.h>
#include <stdio.h>

struct fts_opt_spec {
	const char *name;   /* long name with '_' ("record_time"), no dashes */
	char short_name;    /* 0 for none */
	int has_arg;        /* 1: takes a value; 0: a flag */
	int id;             /* returned by fts_opts_next */
};

struct fts_opts {
	int argc;
	char **argv;
	int index;          /* next argv index */
	const char *arg;    /* value of the last option with has_arg */
	const char *cmd;    /* subcommand name, for messages */
};

/* fts_opts_init - start parsing @argv[1..] of subcommand @cmd. */
void fts_opts_init(struct fts_opts *o, const char *cmd, int argc, char **argv);

/*
 * fts_opts_next - the id of the next option, -1 at the end, or -2 after
 * printing an error (unknown option, missing or empty value, stray argument)
 * to stderr, escaped. Callers exit 2 on -2 (usage error).
 */
int fts_opts_next(struct fts_opts *o, const struct fts_opt_spec *spec);

/*
 * fts_opts_take_input - the input operand of `CMD FILE [options]` or
 * `CMD [options] FILE`: last when it is not the value of the option before
 * it (by @spec: an unknown option takes none, so the parser names it). It is
 * taken out of @argc/@argv. Returns 0 with @input set, -1 when --help/-h was
 * given (@usage printed to stdout: exit 0) and 2 when there is no input
 * (@missing printed as a line on stderr).
 */
int fts_opts_take_input(int *argc, char ***argv, const char **input,
			const struct fts_opt_spec *spec, void (*usage)(FILE *), const char *missing);

/* fts_parse_int - parse a whole decimal int into @out; 0 on success, -1 otherwise. */
int fts_parse_int(const char *s, long long *out);

/*
 * fts_parse_seconds - parse a finite number of seconds in [0, @max] into
 * @out (not "nan", "inf" or a negative). 0 on success, -1 otherwise.
 */
int fts_parse_seconds(const char *s, double max, double *out);

/*
 * fts_opts_output_hint - " (choose another --output)" when the library's
 * error (@rc, @msg) is about @output itself (a symlink there, a full disk),
 * else "". The library names no flag; the command line knows which one.
 */
const char *fts_opts_output_hint(int rc, const char *msg, const char *output);

/*
 * What `record --events LIST` chose: bit i stands for entry i of event.h's
 * FTS_EVENT_TABLE. @named: the events the list spelled out one by one (the
 * kernel must have those; a group's missing events are only a warning).
 */
struct fts_events_choice {
	unsigned long long chosen;
	unsigned long long named;
};

/*
 * fts_parse_events - fold the comma list @spec into @c, left to right: a
 * group (sched, irq, futex) adds its events, "system:event" (or
 * "system/event", or the bare event name) adds one, and a leading '-' removes
 * a group or an event. 0, or -1 with why in @msg (an unknown name, an empty entry).
 */
int fts_parse_events(const char *spec, struct fts_events_choice *c, char *msg, size_t len);

/*
 * fts_events_apply - the recorder options for @c: the groups with a chosen
 * event go on (the others off) and the rest of those groups into @exclude
 * ("system/event,..."). -1 when @c chose nothing.
 */
int fts_events_apply(const struct fts_events_choice *c, int *sched, int *irq, int *futex,
		     char *exclude, size_t len);

/* fts_events_name - "system/event" of table entry @i, or NULL past the end. */
const char *fts_events_name(int i);

#endif
