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
 * fts_flight_stem_ok - 1 when @output has a name before ".dat" (segments are
 * NAME.NNNNNN.dat; "DIR/.dat" would make hidden ones no reader finds). The
 * library refuses it too (EINVAL); the CLI says so as a usage error first.
 */
int fts_flight_stem_ok(const char *output);

/*
 * fts_flight_pid_check - read the pid file in @dir: 1 and *@pid when it names
 * a running flight recorder (same pid and start time, an ftscope that holds
 * this very file open), 0 when it is absent, -1 when stale, forged (not the
 * caller's or root's, writable by others, not held by the process it names),
 * not a regular file or unreadable, with why in @why. Never blocks (FIFO).
 */
int fts_flight_pid_check(const char *dir, pid_t *pid, char *why, size_t len);

/*
 * A claimed pid file, owned by the front that records (zeroed: none held).
 * The lock on @fd is the kernel's tie between the file and this process: it
 * goes when the process dies, however it dies. @dfd is the directory, held
 * so requests and answers never go through a path that may have been swapped.
 */
struct fts_flight_claim {
	int held;
	int fd, dfd;
};

/*
 * fts_flight_pid_claim - write this process's pid file in @dir and hold it
 * open, locked, in @c until fts_flight_pid_release (or the process ends);
 * refused (-1, why in @why) when a live flight recorder holds it, or @c
 * already holds one: exclusive, so of recorders started together one wins.
 * A stale one, or one that is not the caller's or root's (or that others may
 * write), is replaced.
 */
int fts_flight_pid_claim(struct fts_flight_claim *c, const char *dir, char *why, size_t len);

/* fts_flight_pid_release - remove the pid file of @c when it is still ours; @c holds none after. */
void fts_flight_pid_release(struct fts_flight_claim *c);

/*
 * fts_flight_take_request - one pending request in @c's directory (lowest
 * asker pid first): its asker's pid, reason (into @reason) and seconds
 * (*@last_s, 0 = all); the request file is removed. 1 when one was taken,
 * 0 when none (or @c holds no claim).
 */
int fts_flight_take_request(const struct fts_flight_claim *c, pid_t *asker, char *reason, size_t len,
			    double *last_s);

/* fts_flight_answer - write @text as the answer to @asker's request in @c's directory (atomically). */
void fts_flight_answer(const struct fts_flight_claim *c, pid_t asker, const char *text);

#endif
