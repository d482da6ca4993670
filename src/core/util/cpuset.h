/* SPDX-License-Identifier: MIT */
/*
 * cpuset.h - CPU lists ("0-3,8"), hex cpumasks and the online CPU set.
 *
 * A set is a plain bitmap sized for FTS_CPUSET_MAX CPUs, so it can live on the
 * stack and be copied by value.
 */
#ifndef FTS_CPUSET_H
#define FTS_CPUSET_H

#include <stddef.h>
#include <stdint.h>

#include "ftscope/error.h"

#define FTS_CPUSET_MAX 8192

struct fts_cpuset {
	uint64_t bits[FTS_CPUSET_MAX / 64];
};

/* fts_cpuset_clear - empty @s. */
void fts_cpuset_clear(struct fts_cpuset *s);

/* fts_cpuset_add - add @cpu (0 <= cpu < FTS_CPUSET_MAX) to @s; ignored when out of range. */
void fts_cpuset_add(struct fts_cpuset *s, int cpu);

/* fts_cpuset_has - non-zero when @cpu is in @s. */
int fts_cpuset_has(const struct fts_cpuset *s, int cpu);

/* fts_cpuset_count - number of CPUs in @s. */
int fts_cpuset_count(const struct fts_cpuset *s);

/* fts_cpuset_next - the smallest CPU in @s that is >= @from, or -1. */
int fts_cpuset_next(const struct fts_cpuset *s, int from);

/*
 * fts_cpuset_parse - parse a list such as "0,1,4" or "0-3,8" into @s.
 * Duplicates merge; ranges must ascend; negatives, blanks and garbage are
 * rejected. Returns 0 or -EINVAL with a message naming the bad part.
 */
int fts_cpuset_parse(const char *list, struct fts_cpuset *s, struct fts_err *err);

/*
 * fts_cpuset_online - read the online CPUs (same syntax, from
 * /sys/devices/system/cpu/online). Returns 0 or a negative errno.
 */
int fts_cpuset_online(struct fts_cpuset *s, struct fts_err *err);

/*
 * fts_cpuset_check_online - 0 when every CPU of @s is in @online, else
 * -EINVAL with a message listing the offline ones and the online list.
 */
int fts_cpuset_check_online(const struct fts_cpuset *s, const struct fts_cpuset *online,
			    struct fts_err *err);

/*
 * fts_cpuset_format - write @s as a compact list ("0-3,8") into @buf.
 * Returns the length it needed (like snprintf).
 */
int fts_cpuset_format(const struct fts_cpuset *s, char *buf, size_t len);

/*
 * fts_cpuset_hexmask - write @s as a tracing_cpumask string: 32-bit groups of
 * 8 hex digits, comma separated, most significant first, no leading empty
 * groups ({0-3,8} -> "0000010f"; {32} -> "00000001,00000000"). An empty set
 * gives "00000000". Returns the length needed (like snprintf).
 */
int fts_cpuset_hexmask(const struct fts_cpuset *s, char *buf, size_t len);

#endif
