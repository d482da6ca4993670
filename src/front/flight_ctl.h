/* SPDX-License-Identifier: MIT */
/*
 * flight_ctl.h - the fronts' side of the flight recorder (record --flight
 * and the TUI's session): the pid file `ftscope snapshot` finds the
 * recorder by, and the request files through which it passes a reason with
 * SIGUSR1.
 *
 * In the output's directory:
 *   ftscope-flight.pid              "PID STARTTIME\n" of the running recorder
 *   ftscope-flight.request.<pid>    a snapshot asked by `ftscope snapshot` <pid>:
 *                                   "last_s=S\n" then the reason
 *   ftscope-flight.done.<pid>       the answer: the snapshot's path, or "error: ..."
 */
#ifndef FTS_FRONT_FLIGHT_CTL_H
#define FTS_FRONT_FLIGHT_CTL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define FTS_FLIGHT_PIDFILE "ftscope-flight.pid"
#define FTS_FLIGHT_REQUEST "ftscope-flight.request."
#define FTS_FLIGHT_DONE "ftscope-flight.done."

/* fts_flight_dir - the directory of @output ("." when it has none). */
void fts_flight_dir(const char *output, char *buf, size_t len);

/*
 * fts_flight_pid_check - read the pid file in @dir: 1 and *@pid when it names
 * a running ftscope (same pid and start time), 0 when it is absent, -1 when
 * stale or unreadable, with why in @why.
 */
int fts_flight_pid_check(const char *dir, pid_t *pid, char *why, size_t len);

/*
 * fts_flight_pid_claim - write this process's pid file in @dir; refused (-1,
 * why in @why) when a live flight recorder holds it. A stale one is replaced.
 */
int fts_flight_pid_claim(const char *dir, char *why, size_t len);

/* fts_flight_pid_release - remove the pid file in @dir when it is still ours. */
void fts_flight_pid_release(const char *dir);

/*
 * fts_flight_take_request - one pending request in @dir (lowest asker pid first): its asker's
 * pid, reason (into @reason) and seconds (*@last_s, 0 = all); the request
 * file is removed. 1 when one was taken, 0 when none.
 */
int fts_flight_take_request(const char *dir, pid_t *asker, char *reason, size_t len, double *last_s);

/* fts_flight_answer - write @text as the answer to @asker's request (atomically). */
void fts_flight_answer(const char *dir, pid_t asker, const char *text);

#endif
