// SPDX-License-Identifier: MIT
/* cmd_preview.c - `ftscope preview`: the terminal lane viewer, or one screen as text with --print. */
#ifdef FTS_HAVE_TUI
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "app/inputs.h"
#include "app/msg.h"
#include "app/term_safe.h"
#include "tui/tui.h"

enum { O_INPUT, O_PROFILING, O_PIDMAP, O_PRINT, O_KEYS, O_COLOR, O_TIMING, O_NOCACHE, O_HELP };

static const struct fts_opt_spec spec[] = {
	{ "input", 'i', 1, O_INPUT },
	{ "profiling_data", 'p', 1, O_PROFILING },
	{ "pid_mapping", 'm', 1, O_PIDMAP },
	{ "print", 0, 1, O_PRINT },
	{ "keys", 0, 1, O_KEYS },
	{ "color", 0, 0, O_COLOR },
	{ "timing", 0, 0, O_TIMING },
	{ "no_cache", 0, 0, O_NOCACHE },
	{ "help", 'h', 0, O_HELP },
	{ NULL, 0, 0, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: ftscope preview FILE [--profiling_data DIR] [--pid_mapping FILE] [--no_cache]\n"
"       ftscope preview FILE --print WxH [--keys KEYS] [--color] [--timing]\n"
"\n"
"Show a capture's CPU and task lanes in the terminal: trace.dat, ftrace text,\n"
"an ftrace_data*.db (ours or the reference converter's) or our Chrome JSON.\n"
"Press ? inside for the keys.\n"
"\n"
"  -i, --input FILE           the capture, instead of the FILE operand\n"
"  -p, --profiling_data DIR   Ascend profiling output: align a trace with it and\n"
"                             shade its window; with its trace_view.json (or\n"
"                             profiler DB), NPU lanes, the dispatch threads on\n"
"                             top and the gaps panel (b); a DB or JSON capture\n"
"                             is taken as aligned by it\n"
"  -m, --pid_mapping FILE     show container pids (traces only)\n"
"      --no_cache             load from the input, and keep no store cache of it\n"
"                             (reopening an unchanged input reads the cache:\n"
"                             ~/.cache/ftscope; FTSCOPE_NO_CACHE=1 does the same)\n"
"      --print WxH            no terminal: render one W x H screen to stdout\n"
"      --keys KEYS            with --print: replay these keys first, as typed\n"
"                             ('/kworker\\n++l'; \\n Enter, \\e Esc, <Up> <PgDn>...)\n"
"      --color                with --print: ANSI colours (NO_COLOR wins)\n"
"      --timing               with --print: p50/p99/max of the key+redraw times\n"
"                             to stderr, wall and process CPU (given twice:\n"
"                             every frame's time)\n"
"  -h, --help                 this text ('man ftscope-preview' for more)\n"
"\n"
"Exit status: 0 quit (or printed), 1 the input cannot be loaded, 2 bad arguments or\n"
"not a terminal (use --print).\n");
}

/* "WxH", both within what a screen can be. */
static int parse_size(const char *s, int *w, int *h)
{
	char *end;
	long a = strtol(s, &end, 10), b;

	if (end == s || (*end != 'x' && *end != 'X'))
		return -1;
	s = end + 1;
	b = strtol(s, &end, 10);
	if (end == s || *end || a < 20 || b < 6 || a > 1000 || b > 1000)
		return -1;
	*w = (int)a;
	*h = (int)b;
	return 0;
}

int fts_cmd_preview(int argc, char **argv)
{
	struct fts_preview_args a = { 0 };
	struct fts_opts o;
	int id;

	fts_opts_init(&o, "preview", argc, argv);
	for (;;) {
		/* the FILE operand may stand anywhere among the options */
		if (o.index < o.argc && o.argv[o.index][0] != '-' && !a.path) {
			a.path = o.argv[o.index++];
			continue;
		}
		id = fts_opts_next(&o, spec);
		if (id == -1)
			break;
		switch (id) {
		case O_INPUT: a.path = o.arg; break;
		case O_PROFILING: a.profiling_data = o.arg; break;
		case O_PIDMAP: a.pid_mapping = o.arg; break;
		case O_PRINT:
			if (parse_size(o.arg, &a.print_w, &a.print_h)) {
				fputs("ftscope preview: --print takes WxH, from 20x6 to 1000x1000 (e.g. 80x24), not '", stderr);
				fts_fputs_safe(stderr, o.arg);
				fputs("'\n", stderr);
				return 2;
			}
			break;
		case O_KEYS: a.keys = o.arg; break;
		case O_COLOR: a.color = 1; break;
		case O_TIMING: a.timing++; break;
		case O_NOCACHE: a.no_cache = 1; break;
		case O_HELP: usage(stdout); return 0;
		default: return 2;
		}
	}
	if (!a.path) {
		fputs("ftscope preview: which capture? give a FILE (trace.dat, text, ftrace_data.db or .json)\n", stderr);
		return 2;
	}
	if (!a.print_w && (a.keys || a.color || a.timing)) {
		fputs("ftscope preview: --keys, --color and --timing go with --print WxH\n", stderr);
		return 2;
	}
	{
		char segs[600];
		int n = fts_input_segments(a.path, segs, sizeof(segs));

		/* before the screen is taken: the alternate screen gives it back on exit */
		if (n)
			fts_msg_err("preview", "note: reading %d segments of %s as one trace, in time order: %s",
				    n, a.path, segs);
	}
	if (a.print_w)
		return fts_tui_print(&a, stdout, stderr);
	return fts_tui_preview(&a);
}
#endif
