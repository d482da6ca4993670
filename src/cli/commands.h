/* SPDX-License-Identifier: MIT */
/* commands.h - the subcommands; each returns the process exit status. */
#ifndef FTS_CLI_COMMANDS_H
#define FTS_CLI_COMMANDS_H

int fts_cmd_convert(int argc, char **argv);
int fts_cmd_record(int argc, char **argv);
int fts_cmd_pidmap(int argc, char **argv);
int fts_cmd_snapshot(int argc, char **argv);
int fts_cmd_stats(int argc, char **argv);
int fts_cmd_hostbound(int argc, char **argv);
/* fts_cmd_api_serve - the binding API over a pipe, for the Python package (cmd_api.c; internal). */
int fts_cmd_api_serve(int argc, char **argv);
/* fts_cmd_version - the version and how this binary was built (version.c). */
int fts_cmd_version(void);
#ifdef FTS_HAVE_TUI
int fts_cmd_preview(int argc, char **argv);
int fts_cmd_tui(int argc, char **argv);
#endif

#endif
