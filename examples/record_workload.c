/*
 * record_workload - record scheduler/irq events around a command with the
 * public C API, as Python users do with ftrace_record_start/stop.
 *
 *   record_workload OUTPUT.dat command [args...]
 *
 * Writes OUTPUT.dat (and pid_mapping.json beside it), prints per-CPU figures.
 */
#include <ftscope/record.h>

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct fts_record_opts o;
	struct fts_recorder *r;
	struct fts_record_health h;
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
	if (fts_record_start(&o, &r, &err)) {
		fprintf(stderr, "record: %s\n", err.msg);
		return 1;
	}
	child = fork();
	if (child == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	/* Sample health while the workload runs, as a UI would. */
	while (child > 0 && waitpid(child, &status, WNOHANG) == 0) {
		usleep(500000);
		fts_record_health(r, &h);
		fprintf(stderr, "%.1fs: %.0f events/s, %llu lost\n", h.elapsed_s, h.events_per_s,
			(unsigned long long)h.lost);
	}
	if (fts_record_stop(r, FTS_STOP_DRAIN, &sum, &err)) {
		fprintf(stderr, "record: %s\n", err.msg);
		return 1;
	}
	printf("%s: %llu events, %llu lost, %.1f s, %llu bytes\n", sum.output,
	       (unsigned long long)sum.health.events, (unsigned long long)sum.health.lost,
	       sum.duration_s, (unsigned long long)sum.file_size);
	for (int i = 0; i < sum.health.ncpus; i++)
		printf("  cpu%d: %llu events\n", sum.cpu[i].cpu, (unsigned long long)sum.cpu[i].events);
	fts_record_summary_release(&sum);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
