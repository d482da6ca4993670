// SPDX-License-Identifier: MIT
#include "core/util/cpuset.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

void fts_cpuset_clear(struct fts_cpuset *s)
{
	memset(s, 0, sizeof(*s));
}

void fts_cpuset_add(struct fts_cpuset *s, int cpu)
{
	if (cpu < 0 || cpu >= FTS_CPUSET_MAX)
		return;
	s->bits[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

int fts_cpuset_has(const struct fts_cpuset *s, int cpu)
{
	if (cpu < 0 || cpu >= FTS_CPUSET_MAX)
		return 0;
	return (s->bits[cpu / 64] >> (cpu % 64)) & 1;
}

int fts_cpuset_count(const struct fts_cpuset *s)
{
	int n = 0;

	for (size_t i = 0; i < sizeof(s->bits) / sizeof(s->bits[0]); i++)
		n += __builtin_popcountll(s->bits[i]);
	return n;
}

int fts_cpuset_next(const struct fts_cpuset *s, int from)
{
	for (int c = from < 0 ? 0 : from; c < FTS_CPUSET_MAX; c++) {
		if (!s->bits[c / 64]) {
			c |= 63;
			continue;
		}
		if (fts_cpuset_has(s, c))
			return c;
	}
	return -1;
}

/* Parse one decimal CPU number at *p; digits only, so "-1" and "+1" fail. */
static int parse_cpu(const char **p, int *out)
{
	long v = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return -1;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (*s - '0');
		if (v >= FTS_CPUSET_MAX)
			return -1;
		s++;
	}
	*p = s;
	*out = (int)v;
	return 0;
}

int fts_cpuset_parse(const char *list, struct fts_cpuset *s, struct fts_err *err)
{
	const char *p = list;

	fts_cpuset_clear(s);
	if (!list || !*list)
		return fts_err_set(err, -EINVAL, "empty CPU list (use e.g. 0-3,8)");
	for (;;) {
		const char *item = p;
		int lo, hi;

		if (parse_cpu(&p, &lo))
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_cpu(&p, &hi))
				goto bad;
			if (hi < lo)
				return fts_err_set(err, -EINVAL,
					"CPU range '%.*s' is descending (write %d-%d)",
					(int)(p - item), item, hi, lo);
		}
		for (int c = lo; c <= hi; c++)
			fts_cpuset_add(s, c);
		if (*p == '\0')
			return 0;
		if (*p != ',')
			goto bad;
		p++;
		continue;
bad:
		{
			size_t n = strcspn(item, ",");
			return fts_err_set(err, -EINVAL,
				"bad CPU list '%s' at '%.*s' (use numbers and ascending ranges, e.g. 0-3,8; max %d)",
				list, (int)(n ? n : 1), item, FTS_CPUSET_MAX - 1);
		}
	}
}

int fts_cpuset_online(struct fts_cpuset *s, struct fts_err *err)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	size_t n;

	if (!f)
		return fts_err_set(err, -errno, "cannot read /sys/devices/system/cpu/online: %s",
				   strerror(errno));
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return fts_cpuset_parse(buf, s, err);
}

int fts_cpuset_check_online(const struct fts_cpuset *s, const struct fts_cpuset *online,
			    struct fts_err *err)
{
	struct fts_cpuset off;
	char a[256], b[256];
	int any = 0;

	fts_cpuset_clear(&off);
	for (int c = fts_cpuset_next(s, 0); c >= 0; c = fts_cpuset_next(s, c + 1)) {
		if (!fts_cpuset_has(online, c)) {
			fts_cpuset_add(&off, c);
			any = 1;
		}
	}
	if (!any)
		return 0;
	fts_cpuset_format(&off, a, sizeof(a));
	fts_cpuset_format(online, b, sizeof(b));
	return fts_err_set(err, -EINVAL, "CPU %s not online (online CPUs: %s)", a, b);
}

int fts_cpuset_format(const struct fts_cpuset *s, char *buf, size_t len)
{
	int total = 0;
	int c = fts_cpuset_next(s, 0);

	if (len)
		buf[0] = '\0';
	while (c >= 0) {
		int hi = c;
		int n;

		while (fts_cpuset_has(s, hi + 1))
			hi++;
		if (hi == c)
			n = snprintf(buf + (total < (int)len ? total : (int)len),
				     total < (int)len ? len - total : 0, "%s%d", total ? "," : "", c);
		else
			n = snprintf(buf + (total < (int)len ? total : (int)len),
				     total < (int)len ? len - total : 0, "%s%d-%d", total ? "," : "", c, hi);
		total += n;
		c = fts_cpuset_next(s, hi + 1);
	}
	return total;
}

int fts_cpuset_hexmask(const struct fts_cpuset *s, char *buf, size_t len)
{
	int top = 0;
	int total = 0;

	for (int c = 0; c < FTS_CPUSET_MAX; c++)
		if (fts_cpuset_has(s, c))
			top = c / 32;
	if (len)
		buf[0] = '\0';
	for (int g = top; g >= 0; g--) {
		uint32_t word = (uint32_t)(s->bits[g / 2] >> ((g % 2) * 32));
		size_t off = total < (int)len ? (size_t)total : len;

		total += snprintf(buf + off, len - off, "%s%08x", g == top ? "" : ",", word);
	}
	return total;
}
