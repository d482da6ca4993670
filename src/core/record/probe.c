// SPDX-License-Identifier: MIT
/*
 * probe.c - fts_record_probe: what this machine can record, before a setup
 * screen offers it. Reads only (it never mounts tracefs): /proc/mounts,
 * /proc/filesystems, the tracefs files, sysfs CPU topology and PATH.
 */
#include "core/record/record_local.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The tracefs mount from /proc/mounts ("" when none), like libtracefs finds it. */
static void find_tracefs(char *dir, size_t len)
{
	char line[4096 + 256], dev[256], mnt[4096], type[64];
	FILE *f = fopen("/proc/mounts", "re");

	dir[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %4095s %63s", dev, mnt, type) != 3)
			continue;
		if (!strcmp(type, "tracefs")) {
			snprintf(dir, len, "%s", mnt);
			break;
		}
		if (!strcmp(type, "debugfs") && !dir[0])
			snprintf(dir, len, "%.4000s/tracing", mnt);
	}
	fclose(f);
	if (dir[0] && access(dir, F_OK) != 0)
		dir[0] = '\0';
}

static int kernel_has_tracefs(void)
{
	char line[256];
	FILE *f = fopen("/proc/filesystems", "re");
	int yes = 0;

	if (!f)
		return 0;
	while (!yes && fgets(line, sizeof(line), f))
		yes = strstr(line, "\ttracefs") != NULL;
	fclose(f);
	return yes;
}


static int file_has(const char *path, const char *word)
{
	char buf[1024];
	FILE *f = fopen(path, "re");
	int yes = 0;

	if (!f)
		return 0;
	while (!yes && fgets(buf, sizeof(buf), f))
		yes = strstr(buf, word) != NULL;
	fclose(f);
	return yes;
}

/* NUMA node of @cpu: the "nodeN" link in its sysfs directory, or -1. */
static int cpu_node(int cpu)
{
	char path[128];
	struct dirent *e;
	DIR *d;
	int node = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)) && node < 0)
		if (!strncmp(e->d_name, "node", 4) && e->d_name[4] >= '0' && e->d_name[4] <= '9')
			node = atoi(e->d_name + 4);
	closedir(d);
	return node;
}

static int probe_cpus(struct fts_record_caps *c, struct fts_err *err)
{
	struct fts_cpuset online;
	int rc = fts_cpuset_online(&online, err), i = 0;
	unsigned char seen[1024] = { 0 };

	if (rc)
		return rc;
	c->ncpus = fts_cpuset_count(&online);
	c->cpu = calloc((size_t)(c->ncpus ? c->ncpus : 1), sizeof(*c->cpu));
	if (!c->cpu)
		return fts_err_set(err, -ENOMEM, "out of memory");
	for (int cpu = fts_cpuset_next(&online, 0); cpu >= 0; cpu = fts_cpuset_next(&online, cpu + 1)) {
		c->cpu[i].cpu = cpu;
		c->cpu[i].node = cpu_node(cpu);
		if (c->cpu[i].node >= 0 && c->cpu[i].node < 1024 && !seen[c->cpu[i].node]++)
			c->nnodes++;
		i++;
	}
	if (!c->nnodes)
		c->nnodes = 1;
	return 0;
}

/* Every event of every group, available or not, and the missing lists. */
static void probe_events(struct fts_record_caps *c)
{
	static const char *const groups[] = { "sched", "irq", "futex" };
	char *missing[] = { c->missing_sched, c->missing_irq, c->missing_futex };
	/* Without root the tracefs files are unreadable: availability is unknown (0, not missing). */
	int readable = c->tracing_dir[0] && access(c->tracing_dir, R_OK | X_OK) == 0;

	for (int g = 0; g < 3; g++) {
		struct fts_record_opts o = { 0 };
		const char *names[32];
		int n;

		o.sched = g == 0;
		o.irq = g == 1;
		o.futex = g == 2;
		n = rec_events_wanted(&o, names, 32);
		for (int i = 0; i < n && c->nevents < (int)REC_ARRAY_SIZE(c->events); i++) {
			struct fts_record_event_cap *e = &c->events[c->nevents++];
			char path[4096 + 128];
			const char *slash = strchr(names[i], '/');

			e->group = groups[g];
			e->name = names[i];
			snprintf(path, sizeof(path), "%s/events/%s/enable", c->tracing_dir, names[i]);
			e->available = readable && access(path, F_OK) == 0;
			if (!e->available && readable) {
				size_t l = strlen(missing[g]);
				snprintf(missing[g] + l, 256 - l, "%s%.*s:%s", l ? "," : "",
					 (int)(slash - names[i]), names[i], slash + 1);
			}
		}
	}
}

static void explain(struct fts_record_caps *c)
{
	if (!c->root)
		snprintf(c->problem, sizeof(c->problem), "recording needs root (run it with sudo)");
	else if (!c->tracefs_mounted && !c->tracefs_mountable)
		snprintf(c->problem, sizeof(c->problem),
			 "this kernel has no tracefs (CONFIG_FTRACE); recording is not possible here");
	else if (c->tracefs_mounted && !c->instances)
		snprintf(c->problem, sizeof(c->problem),
			 "%.180s has no writable instances/ directory (kernel too old or tracefs read-only)",
			 c->tracing_dir);
	else if (c->tracefs_mounted && !c->mono_raw)
		snprintf(c->problem, sizeof(c->problem),
			 "this kernel has no mono_raw trace clock (needed to align with profiling)");
	c->native_ok = !c->problem[0];
}

int fts_record_probe(const struct fts_record_opts *o, struct fts_record_caps *caps, struct fts_err *err)
{
	char path[4096 + 32];
	int rc;

	memset(caps, 0, sizeof(*caps));
	if (o && (rc = rec_check_opts(o, err)))
		return rc;
	if (o && o->cpus && *o->cpus) {
		struct fts_cpuset set;

		if ((rc = rec_cpus_resolve(o->cpus, &set, err)))
			return rc;
	}
	caps->root = geteuid() == 0;
	find_tracefs(caps->tracing_dir, sizeof(caps->tracing_dir));
	caps->tracefs_mounted = caps->tracing_dir[0] != '\0';
	/* `ftscope record` mounts it itself (through libtracefs). */
	caps->tracefs_mountable = !caps->tracefs_mounted && caps->root && kernel_has_tracefs() &&
				  access("/sys/kernel/tracing", F_OK) == 0;
	if (caps->tracefs_mounted) {
		snprintf(path, sizeof(path), "%s/instances", caps->tracing_dir);
		caps->instances = access(path, caps->root ? W_OK : F_OK) == 0;
		snprintf(path, sizeof(path), "%s/trace_clock", caps->tracing_dir);
		caps->mono_raw = file_has(path, "mono_raw");
	} else if (caps->tracefs_mountable) {
		/* Every tracefs has both; they are confirmed once it is mounted. */
		caps->instances = caps->mono_raw = 1;
	}
	caps->trace_cmd = rec_tracecmd_find(o ? o->exec_path : NULL, path, sizeof(path)) == 0;
	explain(caps);
	probe_events(caps);
	return probe_cpus(caps, err);
}

void fts_record_caps_release(struct fts_record_caps *caps)
{
	if (!caps)
		return;
	free(caps->cpu);
	caps->cpu = NULL;
	caps->ncpus = 0;
}
