#include "cli/commands.h"
#include <stdio.h>
int fts_cmd_convert(int argc, char **argv)
{
	(void)argc; (void)argv;
	fprintf(stderr, "ftscope convert: not built yet\n");
	return 2;
}
