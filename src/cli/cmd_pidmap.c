// SPDX-License-Identifier: MIT
/*
 * cmd_pidmap.c - `ftscope pidmap`: write pid_mapping.json once, or keep it
 * updated every --interval seconds until Ctrl+C/SIGTERM/SIGHUP.
 */
#include "cli/commands.h"
#include "app/msg.h"
#include "app/process.h"
#include "cli/opts.h"
#include "app/term_safe.h"
#include <ftscope/error.h>
#include <ftscope/record.h>
#include "core/internal.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t g_stop;

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
}

enum { P_OUTPUT = 1, P_INTERVAL, P_DURATION, P_HELP };

static const struct fts_opt_spec pidmap_opts[] = {
	{ "output", 'o', 1, P_OUTPUT },
	{ "interval", 'i', 1, P_INTERVAL },
	{ "duration", 'd', 1, P_DURATION },
	{ "help", 'h', 0, P_HELP },
	{ NULL, 0, 0, 0 },
};

int fts_cmd_pidmap(int argc, char **argv)
{
	const char *output = "pid_mapping.json";
	double interval = 0, duration = 0;
	struct fts_opts p;
	struct fts_err err = { 0 };
	struct fts_owner owner;
	struct fts_pidmapper *m;
	struct sigaction sa;
	double t0;
	int id;

	fts_opts_init(&p, "pidmap", argc, argv);
	while ((id = fts_opts_next(&p, pidmap_opts)) != -1) {
		switch (id) {
		case -2:
			return 2;
		case P_OUTPUT: output = p.arg; break;
		case P_INTERVAL:
		case P_DURATION:
			if (fts_parse_seconds(p.arg, 1e7, id == P_INTERVAL ? &interval : &duration)) {
				fts_msg_err("pidmap", "--%s takes seconds (0 to 1e7), not '%s'",
					    id == P_INTERVAL ? "interval" : "duration", p.arg);
				return 2;
			}
			break;
		case P_HELP:
			printf("usage: ftscope pidmap [--output FILE] [--interval S] [--duration S]\n"
			       "Write the host pid -> container pid mapping of every thread.\n\n"
			       "  -o, --output FILE     where (default pid_mapping.json)\n"
			       "  -i, --interval S      rescan every S seconds until Ctrl+C, keeping\n"
			       "                        every pid ever seen (default 0: once)\n"
			       "  -d, --duration S      with --interval: stop after S seconds\n"
			       "  -h, --help            this text ('man ftscope-pidmap' for more)\n\n"
			       "Exit status: 0 written, 1 failed, 2 bad arguments.\n");
			return 0;
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	fts_front_output_owner(&owner);
	if (fts_pidmapper_start(output, interval, &owner, &m, &err)) {
		fts_msg_err("pidmap", "%s", err.msg);
		return 1;
	}
	t0 = fts__clock_mono_s();
	while (interval > 0 && !g_stop) {
		nanosleep(&(struct timespec){ 0, 100000000L }, NULL);
		if (duration > 0 && fts__clock_mono_s() - t0 >= duration)
			break;
	}
	if (fts_pidmapper_stop(m, &err)) {
		fts_msg_err("pidmap", "%s", err.msg);
		return 1;
	}
	return 0;
}
