// SPDX-License-Identifier: MIT
/* thread.c - library threads start with every signal blocked (see thread.h). */
#include "kit/kit.h"

#include <signal.h>

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
