// SPDX-License-Identifier: MIT
/* dat2txt - render a trace.dat to kernel text with the recorder's own renderer, so a
 * test can compare the .dat and .txt forms of one capture. */
#include <stdio.h>
#include <string.h>

#include "ftscope/error.h"
#include "core/record/record_local.h"

int main(int argc, char **argv)
{
	struct fts_err err = { 0 };

	if (argc != 2) {
		fprintf(stderr, "usage: fts_dat2txt trace.dat > trace.txt\n");
		return 2;
	}
	if (fts_rec_render_text(argv[1], 1, "# rendered by fts_dat2txt\n", NULL, NULL, NULL, &err)) {
		fprintf(stderr, "fts_dat2txt: %s\n", err.msg);
		return 1;
	}
	return 0;
}
