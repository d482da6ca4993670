// SPDX-License-Identifier: MIT
/*
 * reader_cost.c - what one reader wakeup and one per-CPU buffer check cost,
 * to extrapolate the recorder's readers to 192 CPUs on a small machine
 * (issue 20; bench/reader_cost.sh builds and runs it as root).
 *
 *   reader_cost INSTANCE_DIR NFDS ITER
 *
 * Opens INSTANCE_DIR/per_cpu/cpuK/trace_pipe_raw NFDS times in all (K cycling
 * over this machine's CPUs: a 192-CPU reader's descriptors, on an instance
 * with no event enabled, so every check finds nothing, as most checks on a
 * big idle host do), then measures this thread's CPU time (user+sys) for:
 *   wake   ITER sleeps of 1 ms in poll() on no descriptor: a wakeup alone;
 *   check  ITER sweeps of a non-blocking splice from each descriptor to a pipe
 *          (what the reader does per CPU per period), per descriptor;
 *   poll   ITER poll()s with a 0 timeout on all NFDS descriptors, per descriptor.
 * Prints "wake_us check_us_per_fd poll_us_per_fd".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	int nfds, iter, ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN), pfd[2];
	struct pollfd *p;
	double t0, wake, check, pl;

	if (argc != 4 || (nfds = atoi(argv[2])) < 1 || (iter = atoi(argv[3])) < 1) {
		fprintf(stderr, "usage: reader_cost INSTANCE_DIR NFDS ITER\n");
		return 2;
	}
	p = calloc((size_t)nfds, sizeof(*p));
	if (!p || pipe(pfd))
		return 1;
	for (int i = 0; i < nfds; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", argv[1], i % ncpu);
		p[i].fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		p[i].events = POLLIN;
		if (p[i].fd < 0) {
			perror(path);
			return 1;
		}
	}
	t0 = cpu_s();
	for (int k = 0; k < iter; k++)
		poll(NULL, 0, 1);
	wake = (cpu_s() - t0) / iter;
	t0 = cpu_s();
	for (int k = 0; k < iter; k++)
		for (int i = 0; i < nfds; i++)
			if (splice(p[i].fd, NULL, pfd[1], NULL, 4096, SPLICE_F_NONBLOCK) > 0)
				fprintf(stderr, "unexpected data on fd %d\n", i);
	check = (cpu_s() - t0) / iter / nfds;
	t0 = cpu_s();
	for (int k = 0; k < iter; k++)
		poll(p, (nfds_t)nfds, 0);
	pl = (cpu_s() - t0) / iter / nfds;
	printf("%.2f %.3f %.3f\n", wake * 1e6, check * 1e6, pl * 1e6);
	return 0;
}
