// SPDX-License-Identifier: MIT
/* process.c - the probe helper and the outputs' owner (see process.h). */
#include "app/process.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/*
 * CPU time, not wall time: on a loaded host (or under a sanitizer) an honest
 * open can take longer than any wall-clock bound, a loop cannot outlast this.
 */
#define PROBE_CPU_S 30

const char *fts_front_probe_helper(void)
{
	return FTS_FRONT_PROBE_HELPER;
}

int fts_front_probe_main(int argc, char **argv)
{
	if ((argc != 2 && argc != 3) || !argv[1][0])
		return 2;
	setrlimit(RLIMIT_CPU, &(struct rlimit){ PROBE_CPU_S, PROBE_CPU_S + 1 });
	fts_set_loglevel(FTS_LOG_NONE);
	/*
	 * _exit: the helper's verdict is its answer and status alone, not what
	 * exit handlers (a leak checker over libtracecmd's own leaks) add.
	 */
	_exit(fts_read_dat_probe_answer_scan(argv[1], argc == 3 ? argv[2] : NULL));
}

/* A whole decimal number that fits in an id; -1 otherwise. */
static long long parse_id(const char *s)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	v = strtoull(s, &end, 10);
	if (*end || v > 0xfffffffeULL)
		return -1;
	return (long long)v;
}

void fts_front_output_owner(struct fts_owner *o)
{
	long long uid = parse_id(getenv("SUDO_UID")), gid = parse_id(getenv("SUDO_GID"));

	memset(o, 0, sizeof(*o));
	if (geteuid() != 0 || uid <= 0 || gid < 0)
		return;
	o->set = 1;
	o->uid = (unsigned int)uid;
	o->gid = (unsigned int)gid;
}
