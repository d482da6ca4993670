/* SPDX-License-Identifier: MIT */
/*
 * record_workload - record scheduler/irq events around a command with the
 * public C API, as a UI would: probe, start, poll health, stop with progress.
 *
 *   record_workload OUTPUT.dat command [args...]
 *
 * Writes OUTPUT.dat (and pid_mapping.json beside it), prints per-CPU figures.
 */
#define _DEFAULT_SOURCE /* usleep */
#include <ftscope/record.h>

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static enum fts_record_stop_mode on_progress(const struct fts_record_progress *p, void *arg)
{
	static const char *const stage[] = { "drain", "assemble", "render" };

	(void)arg;
	fprintf(stderr, "stop: %s %llu/%llu\n", stage[p->stage], (unsigned long long)p->done,
		(unsigned long long)p->total);
	return FTS_STOP_DRAIN;
}

int main(int argc, char **argv)
{
	struct fts_record_opts o;
	struct fts_record_caps caps;
	struct fts_recorder *r;
	struct fts_record_summary sum;
	struct fts_err err = { 0 };
	pid_t child;
	int status = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: %s OUTPUT.dat command [args...]\n", argv[0]);
		return 2;
	}
	fts_record_opts_init(&o);
	o.output = argv[1];
	o.bf_size_kb = 4096;
	o.nspid = 1;
	/* A setup screen would show this before offering to record. */
	if (fts_record_probe(&o, &caps, &err)) {
		fprintf(stderr, "probe: %s\n", err.msg);
		return 1;
	}
	fprintf(stderr, "%d CPUs on %d NUMA node(s); native backend %s%s%s\n", caps.ncpus, caps.nnodes,
		caps.native_ok ? "ready" : "unavailable", caps.problem[0] ? ": " : "", caps.problem);
	fts_record_caps_release(&caps);
	if (fts_record_start(&o, &r, &err)) {
		fprintf(stderr, "record: %s\n", err.msg);
		return 1;
	}
	child = fork();
	if (child == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	/* Sample health while the workload runs; rates are the recorder's own. */
	while (child > 0 && waitpid(child, &status, WNOHANG) == 0) {
		struct fts_record_health h;
		int worst[1];

		usleep(500000);
		if (fts_record_health(r, &h))
			continue;
		fprintf(stderr, "%.1fs: %.0f events/s, %llu lost", h.elapsed_s, h.events_per_s,
			(unsigned long long)h.lost);
		if (fts_record_worst_cpus(&h, worst, 1) == 1)
			fprintf(stderr, ", worst cpu%d (fill %.0f%%)", h.cpu[worst[0]].cpu,
				h.cpu[worst[0]].fill * 100);
		fputc('\n', stderr);
		fts_record_health_release(&h);
	}
	if (fts_record_stop_progress(r, FTS_STOP_DRAIN, on_progress, NULL, &sum, &err)) {
		fprintf(stderr, "record: %s\n", err.msg);
		return 1;
	}
	printf("%s: %llu events, %llu lost, %.1f s, %llu bytes\n", sum.output,
	       (unsigned long long)sum.health.events, (unsigned long long)sum.health.lost,
	       sum.duration_s, (unsigned long long)sum.file_size);
	for (int i = 0; i < sum.health.ncpus; i++)
		printf("  cpu%d: %llu events\n", sum.health.cpu[i].cpu,
		       (unsigned long long)sum.health.cpu[i].events);
	fts_record_summary_release(&sum);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
