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

#endif
