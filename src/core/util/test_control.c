// SPDX-License-Identifier: MIT
/*
 * test_control.c - the test hooks behind one call (internal.h): the only
 * settable state of the library outside its handles, off unless a test sets
 * it, so no environment variable reaches library code.
 */
#include "core/internal.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>

static _Atomic long hook_long[FTS__TEST_NOPS];
static pthread_mutex_t hook_mu = PTHREAD_MUTEX_INITIALIZER;
static char hook_meminfo[PATH_MAX];   /* under hook_mu; "" when off */

/* The largest value each numeric hook takes; beyond it the hook is off. */
static long hook_max(int op)
{
	return op == FTS__TEST_LOAD_PACE_MS ? 10000 : 9999;
}

int fts__test_control(int op, ...)
{
	va_list ap;
	long v;

	va_start(ap, op);
	if (op == FTS__TEST_MEMINFO) {
		const char *p = va_arg(ap, const char *);

		pthread_mutex_lock(&hook_mu);
		snprintf(hook_meminfo, sizeof(hook_meminfo), "%s", p ? p : "");
		pthread_mutex_unlock(&hook_mu);
		va_end(ap);
		return 0;
	}
	if (op <= 0 || op >= FTS__TEST_NOPS) {
		va_end(ap);
		return -EINVAL;
	}
	v = va_arg(ap, long);
	va_end(ap);
	atomic_store(&hook_long[op], v > 0 && v <= hook_max(op) ? v : 0);
	return 0;
}

long fts__test_long(int op)
{
	return op > 0 && op < FTS__TEST_NOPS ? atomic_load(&hook_long[op]) : 0;
}

const char *fts__test_path(int op, char *buf, size_t len)
{
	const char *out = NULL;

	if (op != FTS__TEST_MEMINFO || !len)
		return NULL;
	pthread_mutex_lock(&hook_mu);
	if (hook_meminfo[0]) {
		snprintf(buf, len, "%s", hook_meminfo);
		out = buf;
	}
	pthread_mutex_unlock(&hook_mu);
	return out;
}
