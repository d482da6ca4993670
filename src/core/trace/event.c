// SPDX-License-Identifier: MIT
#include "ftscope/event.h"

#include <string.h>

#define EV_NAME(kind, group, system, name, ...) [FTS_EV_##kind] = name,

static const char *const ev_names[FTS_EV__COUNT] = {
	FTS_EVENT_TABLE(EV_NAME)
	[FTS_EV_LOST] = "lost_events",
};

/* Their lengths, so a lookup per parsed line compares lengths before bytes. */
#define EV_LEN(kind, group, system, name, ...) [FTS_EV_##kind] = sizeof(name) - 1,

static const unsigned char ev_name_lens[FTS_EV__COUNT] = {
	FTS_EVENT_TABLE(EV_LEN)
	[FTS_EV_LOST] = sizeof("lost_events") - 1,
};

#undef EV_LEN
#undef EV_NAME

/* include/linux/interrupt.h softirq_to_name[] */
static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
	"TASKLET", "SCHED", "HRTIMER", "RCU",
};

const char *fts_ev_type_name(enum fts_ev_type type)
{
	if ((unsigned)type >= FTS_EV__COUNT)
		return "unknown";
	return ev_names[type];
}

int fts_ev_type_from_name(const char *name, int len)
{
	for (int i = 0; i < FTS_EV__COUNT; i++) {
		if (ev_name_lens[i] == len && memcmp(ev_names[i], name, (size_t)len) == 0)
			return i;
	}
	return -1;
}

const char *fts_softirq_name(int vec)
{
	if (vec < 0 || vec >= (int)(sizeof(softirq_names) / sizeof(softirq_names[0])))
		return "UNKNOWN";
	return softirq_names[vec];
}

char *fts_copy_str(char *dst, int size, const char *src, int len)
{
	if (size <= 0)
		return dst;
	if (len < 0)
		len = (int)strnlen(src, (size_t)size - 1);
	if (len > size - 1)
		len = size - 1;
	memcpy(dst, src, (size_t)len);
	dst[len] = '\0';
	return dst;
}
