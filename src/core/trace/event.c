// SPDX-License-Identifier: MIT
#include "ftscope/event.h"

#include <string.h>

static const char *const ev_names[FTS_EV__COUNT] = {
	[FTS_EV_SWITCH] = "sched_switch",
	[FTS_EV_WAKING] = "sched_waking",
	[FTS_EV_WAKEUP] = "sched_wakeup",
	[FTS_EV_WAKEUP_NEW] = "sched_wakeup_new",
	[FTS_EV_MIGRATE] = "sched_migrate_task",
	[FTS_EV_STAT_RUNTIME] = "sched_stat_runtime",
	[FTS_EV_FORK] = "sched_process_fork",
	[FTS_EV_EXEC] = "sched_process_exec",
	[FTS_EV_EXIT] = "sched_process_exit",
	[FTS_EV_IRQ_ENTRY] = "irq_handler_entry",
	[FTS_EV_IRQ_EXIT] = "irq_handler_exit",
	[FTS_EV_SOFTIRQ_RAISE] = "softirq_raise",
	[FTS_EV_SOFTIRQ_ENTRY] = "softirq_entry",
	[FTS_EV_SOFTIRQ_EXIT] = "softirq_exit",
	[FTS_EV_FUTEX_ENTER] = "sys_enter_futex",
	[FTS_EV_FUTEX_EXIT] = "sys_exit_futex",
	[FTS_EV_LOST] = "lost_events",
};

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
		if ((int)strlen(ev_names[i]) == len && memcmp(ev_names[i], name, (size_t)len) == 0)
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
