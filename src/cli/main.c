// SPDX-License-Identifier: MIT
/* main.c - ftscope entry point: dispatch to one subcommand. */
#include "cli/commands.h"
#include "app/msg.h"
#include "app/process.h"
#include "app/env.h"
#include "app/sigcleanup.h"
#include "app/tty.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "record", fts_cmd_record, "capture scheduler/irq events through a private tracefs instance" },
	{ "convert", fts_cmd_convert, "turn a trace (trace.dat or text) into ftrace_data.db or Chrome JSON" },
	{ "pidmap", fts_cmd_pidmap, "write the host pid -> container pid mapping (pid_mapping.json)" },
	{ "snapshot", fts_cmd_snapshot, "ask the running flight recorder (record --flight) to keep its segments" },
	{ "stats", fts_cmd_stats, "per-task and per-CPU scheduling numbers (waits, switches, preempters, irqs)" },
	{ "hostbound", fts_cmd_hostbound, "why was the NPU idle: its gaps blamed on what the dispatch threads did" },
#ifdef FTS_HAVE_TUI
	{ "preview", fts_cmd_preview, "show a capture's CPU and task lanes in the terminal (or --print a screen)" },
	{ "tui", fts_cmd_tui, "the interactive session: record with live health, preview, export (also: ftscope alone)" },
#endif
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: ftscope <command> [options]\n\ncommands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->summary);
	fprintf(f, "  %-9s %s\n", "help", "this text; 'ftscope <command> --help' for a command's options,");
	fprintf(f, "  %-9s %s\n", "", "'man ftscope-<command>' for its manual page");
	fprintf(f, "  %-9s %s\n", "version", "print the version");
	fprintf(f, "\nexit status (every command): 0 done (record: also when stopped by Ctrl+C),\n"
		   "1 failed (one line on stderr, no partial output), 2 usage error,\n"
		   "3 record saved but cut short by a disk error, or elsewhere than asked (its\n"
		   "directory was removed or renamed meanwhile), 128+N killed by signal N.\n"
		   "See docs/robustness.md.\n");
}

int main(int argc, char **argv)
{
	/*
	 * The trace libraries print nothing: their errors come back through
	 * ours, escaped, and their raw text may quote a hostile file.
	 */
	fts_set_loglevel(FTS_LOG_NONE);
	/* the FTSCOPE_TEST_* hooks: the library reads no environment itself */
	fts_front_env_test_hooks();
	/* SIGUSR1 is a flight recorder's (it takes a snapshot); in every other ftscope it does nothing */
	fts_front_harmless_usr1();
	/* the trace.dat probe's helper: not a command a user runs, not in help */
	if (argc >= 2 && !strcmp(argv[1], FTS_FRONT_PROBE_CMD))
		return fts_front_probe_main(argc - 1, argv + 1);
	/* the Python package's server (the wheel carries this binary, not the library): not in help */
	if (argc >= 2 && !strcmp(argv[1], "api-serve"))
		return fts_cmd_api_serve(argc - 1, argv + 1);
	if (argc < 2) {
#ifdef FTS_HAVE_TUI
		/* on a terminal, no command means the interactive session */
		if (fts_tty_interactive())
			return fts_cmd_tui(argc, argv);
#endif
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		if (argc > 2) {
			for (const struct command *c = commands; c->name; c++) {
				if (!strcmp(c->name, argv[2])) {
					char help_flag[] = "--help";
					char *hargv[] = { argv[2], help_flag, NULL };
					return c->run(2, hargv);
				}
			}
		}
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
		return fts_cmd_version();
	}
	for (const struct command *c = commands; c->name; c++) {
		if (!strcmp(c->name, argv[1]))
			return c->run(argc - 1, argv + 1);
	}
	fts_msg_err(NULL, "unknown command '%s'", argv[1]);
	usage(stderr);
	return 2;
}
