// SPDX-License-Identifier: MIT
/* thread.c - library threads start with every signal blocked (see thread.h). */
#include "core/internal.h"

#include <signal.h>

int fts__thread_start_fifo(pthread_t *t, pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	struct sched_param fifo = { .sched_priority = 1 };

	pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(attr, SCHED_FIFO);
	pthread_attr_setschedparam(attr, &fifo);
	if (fts__thread_start(t, attr, fn, arg) == 0)
		return 0;
	pthread_attr_setinheritsched(attr, PTHREAD_INHERIT_SCHED);
	return fts__thread_start(t, attr, fn, arg);
}

int fts__thread_start(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int rc;

	/* the new thread inherits the mask in force while it is created */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(t, attr, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return -rc;
}
