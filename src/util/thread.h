/* SPDX-License-Identifier: MIT */
/*
 * thread.h - library threads. Every thread the library starts blocks every
 * signal, so SIGINT, SIGWINCH, SIGHUP and friends reach the front end's own
 * thread (its handlers, its terminal), never a reader or writer in the middle
 * of a system call.
 */
#ifndef FTS_UTIL_THREAD_H
#define FTS_UTIL_THREAD_H

#include <pthread.h>

/**
 * fts_thread_start - pthread_create with every signal blocked in the new thread
 * @t: filled with the thread
 * @attr: attributes, or NULL
 * @fn: the thread's function
 * @arg: its argument
 *
 * The caller's signal mask is unchanged when this returns.
 *
 * Returns 0 or a negative errno.
 */
int fts_thread_start(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);

#endif
