/* Placeholder until the recorder lands (issue 3). */
#include "cli/commands.h"
#include <stdio.h>
int fts_cmd_record(int argc, char **argv)
{
	(void)argc; (void)argv;
	fprintf(stderr, "ftscope record: not built yet\n");
	return 2;
}
int fts_cmd_pidmap(int argc, char **argv)
{
	(void)argc; (void)argv;
	fprintf(stderr, "ftscope pidmap: not built yet\n");
	return 2;
}
